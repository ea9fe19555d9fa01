"""Telling a table's viewers that it changed: only the table id and its new version.

No game data travels in a broadcast, so nothing hidden can leak through it: each page's
consumer, hearing it, renders its own user's board and sends it to that page alone
(games/live/consumers.py, games/tables/boards.py). A change of who is connected
(games/tables/presence.py) is a version-less event of the same kind, ``table.presence``.

``table_changed`` is called by synchronous code after a commit: in Daphne's request
threads, and in processes without an event loop (the task worker playing the bots). There
``async_to_sync`` would make a new event loop, in a new thread, with new connections to
Redis, for every move; a channel layer shared between processes (Redis) is therefore used
from one event loop that lives in a thread of its own, and keeps its connections. The
in-memory layer only reaches the consumers of its own process, through their loop: it
keeps ``async_to_sync``.

A broadcast is best effort: the change is committed when it is told, and its follow-ups
are queued in its own transaction (games/tables/service.py). When the channel layer fails (Redis
down or out of reach) the message is lost, the failure logged (once per outage,
belote_site/outage.py), and the caller goes on; a page that missed it sees the change at
the table's next broadcast, or at its heartbeat (static/js/table.js) at the latest. A send
waits at most ``SEND_TIMEOUT`` seconds, even behind others to a Redis that does not answer.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import threading

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from belote_site.outage import Outage

logger = logging.getLogger(__name__)

outage = Outage("the channel layer", logger)

SEND_TIMEOUT = 1.0  # seconds


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def broadcast_on_commit(
    sender, *, table_id: int, version: int, by: int | None = None, **kwargs
) -> None:
    """Receiver of ``games.tables.signals.table_changed``: the broadcast once the change is
    committed, best effort (``robust``: an error is logged, the change stays saved)."""
    transaction.on_commit(lambda: table_changed(table_id, version, by=by), robust=True)


def table_changed(table_id: int, version: int, *, by: int | None = None) -> None:
    """``by``: the user whose move it was (their page has the new board as its answer).
    Never raises: a failure is logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.changed", "table": table_id, "version": version}
    if by is not None:
        message["by"] = by
    if isinstance(layer, InMemoryChannelLayer):
        from games.live.relay import relay

        relay.heard(table_id, version)
    _tell(layer, table_id, message)


def chat_on_commit(sender, *, table_id: int, message_id: int | None, **kwargs) -> None:
    """Receiver of ``games.tables.signals.chat_changed``: the pages hear it once committed,
    best effort. The event carries the message's id, never its text: each page's consumer
    reads it for its own user, if they may read it (games/live/consumers.py)."""
    transaction.on_commit(lambda: chat_changed(table_id, message_id), robust=True)


def chat_changed(table_id: int, message_id: int | None) -> None:
    """A chat message (``message_id``), or the chat's settings changed (None). Never
    raises: a failure is logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    _tell(layer, table_id, {"type": "chat.changed", "table": table_id, "message": message_id})


def _tell(layer, table_id: int, message: dict) -> None:
    try:
        if isinstance(layer, InMemoryChannelLayer):
            # Only this process's pages can hear it. Without one at this table (the task
            # worker, a command, a table nobody watches here) there is nobody to tell, and
            # async_to_sync would start a thread and an event loop to tell nobody.
            if table_group(table_id) in layer.groups:
                async_to_sync(layer.group_send)(table_group(table_id), message)
        else:
            _sender.run(_send(layer, table_group(table_id), message))
    except Exception as error:
        outage.failed(error)
    else:
        outage.worked()


# The pages of the lobby of open tables (games/live/open_tables.py): one group for all.
OPEN_TABLES_GROUP = "open-tables"


def open_tables_on_commit(sender, **kwargs) -> None:
    """Receiver of ``games.tables.signals.open_tables_changed``: once the change is
    committed, the pages of the list hear that it changed, best effort."""
    transaction.on_commit(open_tables_changed, robust=True)


def open_tables_changed() -> None:
    """Tell the pages of the list of open tables that it changed: a message without any
    data (each page fetches its own list, what its user may see). Never raises."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "open_tables.changed"}
    try:
        if isinstance(layer, InMemoryChannelLayer):
            from games.live.open_tables import list_relay

            list_relay.heard()  # the relay of the worker's changes need not tell it again
            # As for a table: only this process's pages can hear it, if it has any.
            if OPEN_TABLES_GROUP in layer.groups:
                async_to_sync(layer.group_send)(OPEN_TABLES_GROUP, message)
        else:
            _sender.run(_send(layer, OPEN_TABLES_GROUP, message))
    except Exception as error:
        outage.failed(error)
    else:
        outage.worked()


async def presence_changed(table_id: int) -> None:
    """Someone came or went: each page gets its board again to move the dots (in the
    lobby, it refetches). Never raises: a failure is logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    # The id lets the pages of one process share the board it brings (games/tables/boards.py).
    message = {"type": "table.presence", "table": table_id, "id": secrets.token_hex(8)}
    try:
        await _send(layer, table_group(table_id), message)
    except Exception as error:
        outage.failed(error)
    else:
        outage.worked()


async def _send(layer, group: str, message: dict) -> None:
    await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)


class _LoopThread:
    """An event loop running in a daemon thread, started at the first call (again after a
    fork); ``run`` waits for a coroutine to finish there and returns its result."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._running_loop()).result()

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="broadcast", daemon=True).start()
                self._loop, self._pid = loop, os.getpid()
            return self._loop


_sender = _LoopThread()
