"""Moves made by another process, told to this one's pages: the embedded default only.

With the in-memory channel layer (no REDIS_URL: ``make run``), a broadcast reaches the
consumers of its own process only. The moves of players come through Daphne and are
heard at once, but the task worker is a process of its own: the bots' moves, the
timeouts and the stand-ins it makes would reach nobody, and the pages would learn of
them at their next heartbeat (static/js/table.js, 30 s). So while pages of some tables
are open in this process, ``VersionRelay`` reads those tables' versions every
``VERSION_RELAY_SECONDS`` (one small query for all of them) and tells a table's group of
a version it had not seen, exactly as the mover's broadcast would have: ``{table,
version}``, nothing more. A version this process broadcast itself is not told again
(``heard``).

With Redis (production, several Daphne processes) every process hears every broadcast
and the relay does not run (``relay_needed``).
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import DatabaseError

from games.live.broadcast import table_group
from games.tables.models import Table

logger = logging.getLogger(__name__)


def relay_needed() -> bool:
    return isinstance(get_channel_layer(), InMemoryChannelLayer)


@database_sync_to_async
def _versions(table_ids: list[int]) -> list[tuple[int, int]]:
    return list(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


class VersionRelay:
    """The tables whose pages are open in this process, with the last version told."""

    def __init__(self) -> None:
        self.pages: dict[int, int] = {}  # table id -> open pages
        self.versions: dict[int, int] = {}  # table id -> last version seen
        self.task: asyncio.Task | None = None

    def watch(self, table_id: int, version: int) -> None:
        """A page of the table opened, at ``version``."""
        self.pages[table_id] = self.pages.get(table_id, 0) + 1
        self.versions[table_id] = max(version, self.versions.get(table_id, version))
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run(), name="version-relay")

    def heard(self, table_id: int, version: int) -> None:
        """This process broadcast the version itself (games/live/broadcast.py): its pages have
        it, the relay need not tell it again."""
        if table_id in self.versions:
            self.versions[table_id] = max(version, self.versions[table_id])

    def unwatch(self, table_id: int) -> None:
        """A page of the table closed; the last one of the process stops the relay."""
        left = self.pages.get(table_id, 0) - 1
        if left > 0:
            self.pages[table_id] = left
            return
        self.pages.pop(table_id, None)
        self.versions.pop(table_id, None)
        if not self.pages and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        layer = get_channel_layer()
        while self.pages:
            await asyncio.sleep(settings.VERSION_RELAY_SECONDS)
            try:
                versions = await _versions(list(self.pages))
            except DatabaseError:  # a busy database: the next round asks again
                logger.warning("version relay: the versions could not be read", exc_info=True)
                continue
            for table_id, version in versions:
                if table_id in self.versions and version > self.versions[table_id]:
                    self.versions[table_id] = version
                    message = {"type": "table.changed", "table": table_id, "version": version}
                    await layer.group_send(table_group(table_id), message)


relay = VersionRelay()
