"""What a notification channel is: one way of telling a player that a table waits for
their move. The channels are listed in games/notifications/channels/__init__.py."""

from __future__ import annotations


class Channel:
    """One channel; a subclass per module of games/notifications/channels/, one
    instance registered in ``CHANNELS``."""

    name: str = ""

    def turn_started(self, table, user, version: int) -> None:
        """A human's turn has started at an asynchronous table (``table`` at ``version``,
        ``user`` to act, active and not a stand-in's seat). Runs in the notification task,
        outside any transaction; what it sends later it queues as tasks of its own, which
        check ``waiting_player`` again."""
        raise NotImplementedError
