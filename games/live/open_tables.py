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
"""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.live.broadcast import OPEN_TABLES_GROUP
from games.live.consumers import MAX_FRAME_CHARS
from games.live.socket_limits import sockets
from games.tables.presence import NOT_LOGGED_IN, TOO_MANY_SOCKETS

LOBBY = 0  # the "table" of these sockets in the counts of socket_limits


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

    async def disconnect(self, code: int) -> None:
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
