"""What a table's websocket carries to its viewers: each one's own board, rendered once
for all the pages that see it alike.

When a table changes, its group hears ``{table, version}`` (games/live/broadcast.py: no game
data travels between processes). Each open page's consumer (games/live/consumers.py) then
sends its user the board fragment ``GET /plateau/`` would give them (the template
template ``games/table/board.html``, the same ``table_board`` built from
``engine.view(state, seat)``), with the version. The page swaps it in at once: no
refetch, no second round trip, none of the HTTP request's middleware, session and user
queries. A viewer's board is rendered from their seat only, as their HTTP answer is;
nothing else of the table is in it.

One change is read once per process and shared (``Boards``, found by ``shared``): the
table in one query (none in the process that made the move: ``made``), its seats kept
per seats version (games/tables/seats.py ``table_seats``), who is connected in one cache read,
whoever and however many the pages are; whether a user may still watch is decided once
per user, and a board is rendered once per (seat, or the spectators' view, language,
summary closed or not): a user's tenth tab, or the fifth spectator, costs a string
substitution and a send, not a rendering. The cost of a move no longer grows with the
number of tabs.

The forms of a pushed board carry a CSRF token of the page's own CSRF cookie (as sent
when the socket opened), as those of a refetched board do: the shared rendering holds a
placeholder (random, drawn once per process, so no text of a user can imitate it) where
each page's masked token then goes. A socket opened without that cookie (not by a page of
ours: every page sets it) gets the version alone and refetches.

Before the game starts (the lobby) there is no board: the message carries the version
alone and the page refetches its ``#table`` (the lobby's forms and secret links belong to
HTTP answers). Every push checks again that the viewer may still watch the table.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import secrets
import threading
from collections.abc import Hashable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.template.loader import render_to_string
from django.utils import translation

from games.tables import presence
from games.tables.access import may_see
from games.tables.board import SUMMARY_SEEN, Board, table_board
from games.tables.memo import SharedReadings
from games.tables.models import Table
from games.tables.prepared import Prepared
from games.tables.seats import table_seats

BOARD_TEMPLATE = "games/table/board.html"
# Stands for the page's CSRF token in a board rendered for several pages.
TOKEN_PLACEHOLDER = "csrf" + secrets.token_hex(16)
# How long the reading of one change serves the pages that hear it (they all hear it
# within milliseconds; a later change has a key of its own).
SHARED_SECONDS = 2.0
SHARED_CHANGES = 512  # changes kept at most (least recently made out)


@dataclass(frozen=True)
class Pushed:
    """What one page gets: the version, and its board as a JSON string (its own token in
    the forms), or None in the lobby (or without a CSRF cookie): the page refetches."""

    table: int
    version: int
    board: str | None

    def message(self, *, presence: bool = False) -> str:
        """The socket's JSON text (``presence``: brought by someone coming or going)."""
        if self.board is None:
            if presence:
                return json.dumps({"table": self.table, "presence": True})
            return json.dumps({"table": self.table, "version": self.version})
        mark = ', "presence": true' if presence else ""
        return f'{{"table": {self.table}, "version": {self.version}, "html": {self.board}{mark}}}'


@dataclass(frozen=True)
class Viewer:
    """Who a socket renders for, as its handshake told: the user, their language, their
    session (for the summary they closed) and the request that makes their CSRF tokens."""

    user: Any
    language: str
    session_key: str | None
    request: HttpRequest

    @classmethod
    def of(cls, scope: dict) -> Viewer:
        user = scope["user"]
        request = HttpRequest()
        request.COOKIES = scope.get("cookies", {})
        for name, value in scope.get("headers", []):
            if name == b"accept-language":
                request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
        # The page's CSRF secret, read from its cookie as the middleware does for a request.
        CsrfViewMiddleware(lambda request: None).process_request(request)
        # The preference (accounts' middleware), else what LocaleMiddleware reads from the
        # language cookie or Accept-Language.
        language = getattr(user, "language", "")
        if language not in dict(settings.LANGUAGES):
            language = translation.get_language_from_request(request)
        session = scope.get("session")
        session_key = session.session_key if session is not None else None
        return cls(user, language, session_key, request)

    @classmethod
    def of_request(cls, request: HttpRequest) -> Viewer:
        """The user of an HTTP request, in its language, with its session and token."""
        return cls(request.user, translation.get_language(), request.session.session_key, request)

    @property
    def has_csrf_cookie(self) -> bool:
        return "CSRF_COOKIE" in self.request.META

    @functools.cached_property
    def _token(self) -> str:
        return get_token(self.request)

    def token(self) -> str:
        """The page's CSRF secret, masked once for this viewer: once per HTTP answer, as
        Django does, and once per socket for all the boards it pushes. Masking draws 32
        characters from the system's random source (a system call each), which cost a
        tenth of a Daphne process's time at a busy table when it was done per push. A
        mask renewed per message protects compressed answers (BREACH); Daphne's
        websocket frames are not compressed (no permessage-deflate), and the page holds
        this one token in its forms until the next board, as an HTTP page does."""
        return self._token


def dismissed_hand(session_key: str | None, table_id: int) -> int | None:
    """The hand whose summary the viewer closed ("Donne suivante", saved in their session
    by the board's view), read afresh: it changes while the socket stays open."""
    if not session_key:
        return None
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return session.get(SUMMARY_SEEN.format(table_id))


class Boards:
    """One change of a table, as this process's pages see it: read at the first page's
    push, then shared. Thread-safe (the consumers' database calls share one thread, the
    lock is for anyone else)."""

    def __init__(self, table_id: int, table: Table | None = None) -> None:
        self.table_id = table_id
        self._lock = threading.RLock()
        self._read = False
        self._table: Table | None = table  # as the change left it, if known already
        self._online: set[int] = set()
        self._watchers: dict[int, bool] = {}  # user id -> may watch
        self._dismissed: dict[str, int | None] = {}  # session key -> closed summary
        self._boards: dict[tuple, Board] = {}  # (seat, language) -> board
        # (seat, language, summary) -> the board's HTML, and as a JSON string
        self._rendered: dict[tuple, tuple[str, str]] = {}
        self.renders = 0  # boards rendered for this change (the bench and tests read it)

    def push_for(self, viewer: Viewer) -> Pushed | None:
        """The viewer's board of the table as this change left it, or None if they may no
        longer watch it (or it is gone)."""
        with self._lock:
            table = self._table_read()
            if table is None or not self._may_see(viewer.user):
                return None
            if table.current_hand_id is None or not viewer.has_csrf_cookie:
                return Pushed(table.pk, table.version, None)
            _, encoded = self._rendered_board(viewer, table)
        return Pushed(table.pk, table.version, encoded.replace(TOKEN_PLACEHOLDER, viewer.token()))

    def html_for(self, viewer: Viewer) -> str | None:
        """The viewer's board as HTML (the answer to their own move: the pages of this
        process render it once for both), or None where ``push_for`` has no board."""
        with self._lock:
            table = self._table_read()
            if table is None or not self._may_see(viewer.user):
                return None
            if table.current_hand_id is None or not viewer.has_csrf_cookie:
                return None
            html, _ = self._rendered_board(viewer, table)
        return html.replace(TOKEN_PLACEHOLDER, viewer.token())

    def _table_read(self) -> Table | None:
        if not self._read:
            self._read = True
            if self._table is None:
                found = _TABLE(self.table_id)
                self._table = found[0] if found else None
            if self._table is not None:
                seats = table_seats(self._table)
                if self._table.current_hand_id is not None:
                    users = [s.user_id for s in seats if s.user_id is not None]
                    self._online = presence.connected(self.table_id, users)
        return self._table

    def _may_see(self, user) -> bool:
        if user.pk not in self._watchers:
            self._watchers[user.pk] = may_see(user, self._table)
        return self._watchers[user.pk]

    def _rendered_board(self, viewer: Viewer, table: Table) -> tuple[str, str]:
        seats = table_seats(table)
        position = next((s.position for s in seats if s.user_id == viewer.user.pk), None)
        language = viewer.language
        with translation.override(language):
            board = self._boards.get((position, language))
            if board is None:
                board = table_board(table, viewer.user, online=self._online)
                self._boards[position, language] = board
            # The summary of the last hand shows until the viewer closes it: their session
            # says which they closed, read only when there is one to show.
            closed = False
            if board.summary is not None:
                closed = self._closed(viewer.session_key) == board.summary.hand.pk
            key = (position, language, closed)
            if key not in self._rendered:
                if closed:
                    board = dataclasses.replace(board, summary=None)
                context = {
                    "table": table,
                    "board": board,
                    "notice": None,
                    "user": viewer.user,
                    "csrf_token": TOKEN_PLACEHOLDER,
                }
                html = render_to_string(BOARD_TEMPLATE, context).strip()
                self._rendered[key] = (html, json.dumps(html))
                self.renders += 1
            return self._rendered[key]

    def _closed(self, session_key: str | None) -> int | None:
        if session_key not in self._dismissed:
            self._dismissed[session_key] = dismissed_hand(session_key, self.table_id)
        return self._dismissed[session_key]


# The table with its hand and game (compiled once: games/tables/prepared.py).
_TABLE = Prepared(lambda key: Table.objects.select_related("current_hand__game").filter(pk=key))

# (table id, change) -> Boards
_changes = SharedReadings(SHARED_CHANGES, SHARED_SECONDS)


def shared(table_id: int, change: Hashable | None) -> Boards:
    """The reading of ``change`` of the table (the version a broadcast told, the id of a
    presence event...) that this process's pages share; a reading of its own for
    ``change=None``."""
    if change is None:
        return Boards(table_id)
    return _changes.get((table_id, change), lambda: Boards(table_id))


def made(table: Table) -> None:
    """This process committed ``table`` as it stands (games/service.py, once its change
    is committed): its pages, and the mover's answer, share it instead of reading it
    again. A copy: the caller's instance is theirs."""
    key = (table.pk, ("version", table.version))
    _changes.offer(key, lambda: Boards(table.pk, copy.copy(table)))


def push_for(viewer: Viewer, table_id: int, change: Hashable | None) -> Pushed | None:
    """The viewer's board after ``change`` (see ``shared``), or None if they may no
    longer watch the table."""
    return shared(table_id, change).push_for(viewer)
