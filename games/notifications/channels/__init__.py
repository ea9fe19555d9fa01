"""The notification channels, one module each; ``CHANNELS`` lists them in the order
they are told of a turn. A new channel (web push, say) is a new module here with a
``Channel`` subclass (base.py), added to ``CHANNELS``.
"""

from __future__ import annotations

from games.notifications.channels import email, inapp
from games.notifications.channels.base import Channel

CHANNELS: tuple[Channel, ...] = (inapp.CHANNEL, email.CHANNEL)

__all__ = ["CHANNELS", "Channel"]
