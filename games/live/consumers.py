"""The table websocket: the version of the table, and with it the viewer's own board.

A viewer who may see the table (games.tables.access.may_see) joins the table's group and
gets its current version at once. At each change the group hears ``{table, version}``
(games/live/broadcast.py), and this consumer renders the board of its own user
(games/tables/boards.py) and sends ``{"table": id, "version": n, "html": board}``: the page swaps
it in without asking. In the lobby there is no board yet: the message has no ``html``
and the page refetches its ``#table``. Nothing is rendered for anyone but the socket's
user, so nothing hidden can leak; whether they may still watch is checked at each push.
Pushes that would come too late are skipped: when a change is heard after a board of
that version or a newer one was sent (a burst of moves), nothing more is rendered for it.
The pages of the user who made the move get theirs last, a moment later: their page has
the new board already, as the answer to its POST.
With the in-memory layer of the embedded default, the moves of the task worker's process
reach the pages through games/live/relay.py.

A page that swapped in the answer to its own move says so (``{"shown": version}``): the
delayed board of that version is then not rendered at all.

One change is read once per process and each board rendered once for all the pages that
see it alike (games/tables/boards.py ``shared``): a change is known by its version, a presence
event by its id, the delayed boards of a mover's pages by their version apart. A chat
message too is read once per process and its line rendered once per language for all
the pages that may read it (games/tables/chat.py ``shared_message``).

A user holds at most LIVE_SOCKETS_PER_TABLE sockets at a table and LIVE_SOCKETS_PER_USER
in all (games/live/socket_limits.py): one more is closed with 4429, which the page tells.

Presence: each connection is counted per (table, user) in the cache (games/tables/presence.py);
a live table pauses when the last of its seated players' pages closes and resumes when one
comes back (games/tables/attendance.py, through games/timing/absence.py);
when a user's first page connects or their last one closes, the group hears a
``table.presence`` event and each page gets its board again to move the dots, marked
``"presence": true`` (in the lobby that mark alone: the page refetches). Any message from
a page (its heartbeat, or a question after a doubt) renews its count and is answered
with the current version alone; the page refetches if it is behind. A frame that is not
JSON, or longer than MAX_FRAME_CHARS, is ignored (Daphne itself closes the socket past
1 MiB, its --websocket-max-message-size).
"""

from __future__ import annotations

import asyncio
import json

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer

from games import notifications
from games.live.broadcast import presence_changed, table_group
from games.live.relay import relay, relay_needed
from games.live.socket_limits import sockets
from games.tables import boards, chat, presence
from games.tables.access import may_see
from games.tables.models import Table
from games.tables.presence import NOT_ALLOWED, NOT_LOGGED_IN, TOO_MANY_SOCKETS
from games.timing.absence import note_absent, note_back

# How long the board of a move waits for its mover's own pages (see table_changed).
MOVER_DELAY_SECONDS = 0.25

# A page sends {"shown": n} or {"want": "version"}: a longer frame asks nothing.
MAX_FRAME_CHARS = 1000


@database_sync_to_async
def _version_if_visible(user, table_id: int) -> int | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not may_see(user, table):
        return None
    return table.version


_push_for = database_sync_to_async(boards.push_for)


@database_sync_to_async
def _chat_line(user, table_id: int, message_id: int, language: str) -> str | None:
    """The message as this user's page shows it, if they may read it (never one who
    muted the chat, a spectator the creator keeps out, or a stranger): read once per
    process and rendered once per language for all the pages (chat.SharedMessage)."""
    return chat.shared_message(table_id, message_id).html_for(user, language)


# The group's messages. Their handlers touch the database only through
# database_sync_to_async, which closes the old connections before and after each call.
GROUP_MESSAGES = frozenset({"table.changed", "table.presence", "chat.changed"})


class TableConsumer(AsyncJsonWebsocketConsumer):
    async def dispatch(self, message) -> None:
        """Channels' dispatch first sends every message to a worker thread to close old
        database connections. For a group message that is a second trip to the thread
        for each push: about a twentieth of a Daphne process at busy tables. The push
        makes its own trip, and that one closes them."""
        if message.get("type") in GROUP_MESSAGES:
            await getattr(self, get_handler_name(message))(message)
            return
        await super().dispatch(message)

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        version = await _version_if_visible(user, self.table_id)
        if version is None:
            await self.close(code=NOT_ALLOWED)
            return
        if not await sockets.admit(user.pk, self.table_id):
            await self.close(code=TOO_MANY_SOCKETS)
            return
        self.admitted = True
        self.viewer = boards.Viewer.of(self.scope)
        self.shown = version  # the newest board this page has (its own page load, or ours)
        self.later: set[asyncio.Task] = set()  # the boards of its user's own moves, delayed
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"table": self.table_id, "version": version})
        if relay_needed():  # the embedded default: hear the task worker's moves too
            relay.watch(self.table_id, version)
            self.relayed = True
        self.counted = True
        await database_sync_to_async(notifications.table_seen)(user.pk, self.table_id)
        if await presence.arrive(self.table_id, user.pk):
            await presence_changed(self.table_id)
        # Back at a live table where a bot stood in for them: it stops; a table that waited
        # for its players resumes (games/timing/absence.py).
        await database_sync_to_async(note_back)(self.table_id, user)

    async def disconnect(self, code: int) -> None:
        for task in getattr(self, "later", ()):
            task.cancel()
        if getattr(self, "admitted", False):
            self.admitted = False
            await sockets.release(self.scope["user"].pk, self.table_id)
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "relayed", False):
            self.relayed = False
            relay.unwatch(self.table_id)
        if getattr(self, "counted", False):
            self.counted = False
            if await presence.leave(self.table_id, self.scope["user"].pk):
                await presence_changed(self.table_id)
                await database_sync_to_async(note_absent)(self.table_id, self.scope["user"].pk)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        """A frame that is not JSON text (garbage, binary) is ignored: it asks nothing,
        and it must not take the connection down with a traceback. So is a frame longer
        than any a page sends (unread), and JSON nested too deep for the parser."""
        if not text_data or len(text_data) > MAX_FRAME_CHARS:
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content, **kwargs) -> None:
        shown = content.get("shown") if isinstance(content, dict) else None
        if type(shown) is int:
            # The page tells the version it shows now, its own move's answer: the board of
            # that version need not come (a page that says more than it has only misses
            # its own boards). Nothing to answer, nothing read.
            self.shown = max(self.shown, shown)
            return
        # Otherwise a client may only ask where the table is now (after a doubt, or as
        # its heartbeat, which keeps its presence alive).
        version = await _version_if_visible(self.scope["user"], self.table_id)
        if version is None:
            await self.close(code=NOT_ALLOWED)
            return
        if await presence.renew(self.table_id, self.scope["user"].pk):
            # Counted again after their count had expired (a page asleep): back, as above.
            await presence_changed(self.table_id)
            await database_sync_to_async(note_back)(self.table_id, self.scope["user"])
        await sockets.renew(self.scope["user"].pk)
        await self.send_json({"table": self.table_id, "version": version})

    async def table_changed(self, event) -> None:
        if event["version"] <= self.shown:
            return
        if event.get("by") == self.scope["user"].pk:
            # The mover's page has this board as the answer to its move: the other pages'
            # boards first (they take turns in this process). Theirs still comes, for the
            # mover's other tabs, or should the answer be lost.
            self._push_later(event["version"])
            return
        await self._push(("version", event["version"]), presence=False)

    def _push_later(self, version: int) -> None:
        async def push() -> None:
            await asyncio.sleep(MOVER_DELAY_SECONDS)
            if version > self.shown:
                await self._push(("later", version), presence=False)

        task = asyncio.create_task(push())
        self.later.add(task)
        task.add_done_callback(self.later.discard)

    async def table_presence(self, event) -> None:
        change = ("presence", event["id"]) if "id" in event else None
        await self._push(change, presence=True)

    async def _push(self, change, *, presence: bool) -> None:
        """Send the page its board as the table is after ``change`` (or, in the lobby, the
        version or the presence ping it refetches on). A board brought by a presence
        event is marked: it is at the version the page has, and swapped in anyway."""
        pushed = await _push_for(self.viewer, self.table_id, change)
        if pushed is None:
            await self.close(code=NOT_ALLOWED)
            return
        if pushed.board is not None:
            self.shown = max(self.shown, pushed.version)
        await self.send(text_data=pushed.message(presence=presence))

    async def chat_changed(self, event) -> None:
        """A chat message: this page gets it rendered for its user, if they may read it
        (``{"chat": html, "message": id}``); the chat's settings changed (no message):
        ``{"chat": "reload"}``, and the page fetches its chat panel again (which says,
        for this user, what is allowed now). Nothing else of the table is read."""
        message_id = event.get("message")
        if message_id is None:
            await self.send_json({"table": self.table_id, "chat": "reload"})
            return
        html = await _chat_line(self.scope["user"], self.table_id, message_id, self.viewer.language)
        if html is not None:
            await self.send_json({"table": self.table_id, "chat": html, "message": message_id})


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other websocket path (routed last, games/live/routing.py): refused at the
    handshake, as a 404 would be, instead of the router's "No route found" error."""

    async def connect(self) -> None:
        await self.close()
