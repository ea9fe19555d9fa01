"""A scratch channel (where to add a notification channel): it keeps what it would push."""

from __future__ import annotations

from games.notifications.channels.base import Channel

PUSHED: list[tuple[int, int, int]] = []  # (user, table, version)


class WebPush(Channel):
    name = "webpush"

    def turn_started(self, table, user, version: int) -> None:
        PUSHED.append((user.pk, table.pk, version))


CHANNEL = WebPush()
