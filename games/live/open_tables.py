"""The socket of the lobby of open tables (/ws/tables/ouvertes/): "the list changed".

A logged-in player's page of open tables (games/tables/views.py ``open_table_list``)
joins one group, ``OPEN_TABLES_GROUP``, and at each change of an open table (created,
opened or closed, its seats, its start, its end: ``signals.open_tables_changed``,
games/live/broadcast.py) gets ``{"changed": true}``, nothing more: the page then fetches
its own list with htmx, what its user may see (a club's open tables only for its
members). No table's data travels on this socket, so it cannot show anyone a table they
may not see. A page's frame (its heartbeat) is answered ``{"alive": true}``.

Its sockets count towards the user's bound of open sockets (games/live/socket_limits.py),
as a table numbered 0, which no table is.

With the in-memory channel layer of the embedded default (``make run``), a change made by
another process (the sweep closing a week-old open table runs in the task worker) reaches
no page of this one: ``ListRelay`` then reads, every OPEN_TABLES_RELAY_SECONDS while a page
of the list is open in this process, the ids and versions of the open tables in the lobby
(one small query), and tells the group when they changed, as the change's own broadcast
would have. A change this process told itself is not told again: its broadcast reads
the list for the relay (``heard``). With Redis every process hears every change and the
relay does not run.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError

from games.live.broadcast import OPEN_TABLES_GROUP
from games.live.consumers import MAX_FRAME_CHARS
from games.live.relay import relay_needed
from games.live.socket_limits import sockets
from games.tables.models import Table
from games.tables.presence import NOT_LOGGED_IN, TOO_MANY_SOCKETS

logger = logging.getLogger(__name__)

LOBBY = 0  # the "table" of these sockets in the counts of socket_limits


def listed() -> tuple[tuple[int, int], ...]:
    """The open tables in the lobby, with their versions: what the list is made of."""
    rows = Table.objects.filter(is_open=True, status=Table.Status.LOBBY)
    return tuple(rows.order_by("pk").values_list("pk", "version"))


_listed = database_sync_to_async(listed)


class ListRelay:
    """The pages of the list open in this process, and the list as last read."""

    def __init__(self) -> None:
        self.pages = 0
        self.task: asyncio.Task | None = None
        self.seen: tuple | None = None  # the list as last read (or told)

    def heard(self) -> None:
        """This process told its pages of a change (games/live/broadcast.py, after its
        commit): the list as it is now need not be told again. Never raises."""
        if not self.pages:
            return
        try:
            self.seen = listed()
        except DatabaseError:
            logger.warning("open tables relay: the list could not be read", exc_info=True)

    def watch(self) -> None:
        self.pages += 1
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run(), name="open-tables-relay")

    def unwatch(self) -> None:
        self.pages = max(0, self.pages - 1)
        if not self.pages and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        layer = get_channel_layer()
        self.seen = None
        while self.pages:
            try:
                now = await _listed()
            except DatabaseError:  # a busy database: the next round asks again
                logger.warning("open tables relay: the list could not be read", exc_info=True)
            else:
                if self.seen is not None and now != self.seen:
                    await layer.group_send(OPEN_TABLES_GROUP, {"type": "open_tables.changed"})
                self.seen = now
            await asyncio.sleep(settings.OPEN_TABLES_RELAY_SECONDS)


list_relay = ListRelay()


class OpenTablesConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        if not await sockets.admit(user.pk, LOBBY):
            await self.close(code=TOO_MANY_SOCKETS)
            return
        self.admitted = True
        await self.channel_layer.group_add(OPEN_TABLES_GROUP, self.channel_name)
        self.joined = True
        await self.accept()
        if relay_needed():  # the embedded default: hear the worker's changes too
            list_relay.watch()
            self.relayed = True

    async def disconnect(self, code: int) -> None:
        if getattr(self, "relayed", False):
            self.relayed = False
            list_relay.unwatch()
        if getattr(self, "joined", False):
            self.joined = False
            await self.channel_layer.group_discard(OPEN_TABLES_GROUP, self.channel_name)
        if getattr(self, "admitted", False):
            self.admitted = False
            await sockets.release(self.scope["user"].pk, LOBBY)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        """A short text frame is a heartbeat: its socket is counted again, and told it is
        alive; nothing it says is read. Anything longer, or binary, is ignored."""
        if not text_data or len(text_data) > MAX_FRAME_CHARS:
            return
        await sockets.renew(self.scope["user"].pk)
        await self.send_json({"alive": True})

    async def open_tables_changed(self, event) -> None:
        await self.send_json({"changed": True})
