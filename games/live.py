"""What a table's websocket carries to one viewer: their own board, rendered for them alone.

When a table changes, its group hears ``{table, version}`` (games/broadcast.py: no game
data travels between processes). Each open page's consumer (games/consumers.py) then
renders the board fragment for its own user, the very fragment ``GET /plateau/`` answers
(the template partial ``games/table.html#board``, the same ``table_board`` built from
``engine.view(state, seat)``), and sends it with the version. The page swaps it in at
once: no refetch, no second round trip, none of the HTTP request's middleware, session
and user queries. A viewer's message is rendered from their seat only, as their HTTP
answer is; nothing else of the table is in it.

Before the game starts (the lobby) there is no board: the message carries the version
alone and the page refetches its ``#table`` (the lobby's forms and secret links belong to
HTTP answers). Every push checks again that the viewer may still watch the table.

The forms of a pushed board carry a CSRF token of the page's own CSRF cookie (as sent
when the socket opened), as those of a refetched board do. A socket opened without that
cookie (not by a page of ours: every page sets it) gets the version alone and refetches.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.template.loader import render_to_string
from django.utils import translation

from games.board import SUMMARY_SEEN, may_watch, table_board
from games.models import Table

BOARD_TEMPLATE = "games/table.html#board"


@dataclass(frozen=True)
class Pushed:
    version: int
    html: str | None  # None in the lobby (or without a CSRF cookie): the page refetches


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

    @property
    def has_csrf_cookie(self) -> bool:
        return "CSRF_COOKIE" in self.request.META


def dismissed_hand(session_key: str | None, table_id: int) -> int | None:
    """The hand whose summary the viewer closed ("Donne suivante", saved in their session
    by the board's view), read afresh: it changes while the socket stays open."""
    if not session_key:
        return None
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return session.get(SUMMARY_SEEN.format(table_id))


def board_for(viewer: Viewer, table_id: int) -> Pushed | None:
    """The viewer's board of the table as it is now, or None if they may no longer watch
    it (or it is gone)."""
    user = viewer.user
    try:
        table = Table.objects.select_related("current_hand__game").get(pk=table_id)
    except Table.DoesNotExist:
        return None
    if not may_watch(user, table):
        return None
    if table.current_hand_id is None or not viewer.has_csrf_cookie:
        return Pushed(table.version, None)
    with translation.override(viewer.language):
        board = table_board(table, user)
        # The summary of the last hand shows until the viewer closes it: their session
        # says which they closed, read only when there is one to show.
        if board.summary is not None:
            board.hide_summary(dismissed_hand(viewer.session_key, table.pk))
        context = {
            "table": table,
            "board": board,
            "notice": None,
            "user": user,
            "csrf_token": get_token(viewer.request),
        }
        return Pushed(table.version, render_to_string(BOARD_TEMPLATE, context).strip())
