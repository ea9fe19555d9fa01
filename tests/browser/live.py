"""Helpers of the browser tests served by Daphne (tests/browser/conftest.py's ``daphne``):
ORM calls out of Playwright's thread, a started table, and one seated player's page.

pytest-django's ``live_server`` is a WSGI server, without websockets, so the live tests run
the site with Daphne itself, in a subprocess, against the test database
(tests/processes.py).
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import expect

from games.models import Table
from tests.factories import fixed_deck, make_user, started_table

SEATS = "NESW"
MARKER = "live-hand-marker"
# What the player to act may press: a bid or another action, or a card of their hand.
LIT = "#board [data-action]:enabled, #my-hand button[data-card]:enabled"


def outside_playwright(function, *args, **kwargs):
    """``function(*args, **kwargs)`` in a thread of its own.

    In the test's thread Playwright's event loop counts as running, and the service's
    after-commit broadcast (``async_to_sync``) refuses to run there. Nobody in this
    process listens anyway: the pages hear Daphne.
    """

    def call():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(call).result()


def new_table(prefix: str = "live") -> Table:
    """Four users at a table, its first hand dealt by North from a fixed deck."""
    users = {position: make_user(f"{prefix}{SEATS[position]}") for position in range(4)}
    return started_table(players=users, deck=fixed_deck(7), first_dealer=0)


class Player:
    """One seated user's page, with what it heard on its websocket and how often its main
    frame navigated. ``guard`` (conftest.py) watches its context for CSP violations and
    script errors; ``before_load(context, page)`` runs before the table page opens (a
    websocket route, say). ``context_options`` go to the browser context (a phone's
    viewport, ``has_touch``, ``is_mobile``)."""

    def __init__(
        self,
        browser,
        base_url: str,
        table: Table,
        position: int,
        guard,
        before_load=None,
        **context_options,
    ) -> None:
        seat = table.seats.select_related("user").get(position=position)
        client = Client()
        client.force_login(seat.user)
        self.letter = SEATS[position]
        self.position = position
        context_options.setdefault("viewport", {"width": 1280, "height": 900})
        self.context = browser.new_context(base_url=base_url, locale="fr-FR", **context_options)
        self.context.set_default_timeout(10_000)
        guard.watch(self.context)
        self.context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": base_url,
                }
            ]
        )
        self.page = self.context.new_page()
        self.frames: list[dict] = []
        self.navigations = 0
        self.in_flight = 0  # the page's fetches (htmx) not answered yet
        self.board_fetches = 0  # refetches of the board answered
        self.quiet_since = time.monotonic()
        self.page.on("websocket", self._watch_socket)
        self.page.on("framenavigated", self._count_navigation)
        self.page.on("request", self._request_started)
        self.page.on("requestfinished", self._request_ended)
        self.page.on("requestfailed", self._request_ended)
        if before_load is not None:
            before_load(self.context, self.page)
        self.page.goto(f"/tables/{table.pk}/")
        expect(self.page.locator("#board")).to_be_visible()
        expect(self.page.locator("#my-hand")).to_have_attribute("data-seat", self.letter)
        self.page.evaluate(f"window.liveHandMarker = {json.dumps(MARKER)}")
        self.loaded = self.navigations

    def _watch_socket(self, socket) -> None:
        socket.on("framereceived", self._frame_received)

    def _frame_received(self, payload) -> None:
        frame = json.loads(payload)
        self.frames.append(frame)
        if "html" in frame:
            self.quiet_since = time.monotonic()  # a board to swap in

    @property
    def pushed_boards(self) -> int:
        return sum("html" in frame for frame in self.frames)

    def _count_navigation(self, frame) -> None:
        if frame == self.page.main_frame:
            self.navigations += 1

    def _request_started(self, request) -> None:
        if request.resource_type in ("xhr", "fetch"):
            self.in_flight += 1

    def _request_ended(self, request) -> None:
        if request.resource_type in ("xhr", "fetch"):
            self.in_flight -= 1
            self.quiet_since = time.monotonic()
            if "/plateau/" in request.url:
                self.board_fetches += 1

    def wait_for_pushed_board(self, count: int = 1, timeout: float = 5) -> None:
        """Until the socket brought the page ``count`` boards (its own arrival, told as
        presence, brings it one), then until it is quiet."""
        deadline = time.monotonic() + timeout
        while self.pushed_boards < count:
            assert time.monotonic() < deadline, f"{self.letter}'s page got no board"
            self.page.wait_for_timeout(25)
        self.wait_until_quiet()

    def wait_until_quiet(self, quiet: float = 0.15, timeout: float = 5) -> None:
        """Until no fetch is in flight, and neither a fetch ended nor a board came on the
        socket for ``quiet`` seconds.

        A board may still be swapped in just after the pages came (presence); a click
        whose press and release straddle that swap lands on two different buttons and is
        lost, as it would be for a person.
        """
        deadline = time.monotonic() + timeout
        while self.in_flight or time.monotonic() - self.quiet_since < quiet:
            assert time.monotonic() < deadline, f"{self.letter}'s page keeps fetching"
            self.page.wait_for_timeout(25)  # Playwright delivers the events meanwhile

    @property
    def board(self):
        return self.page.locator("#board")

    def heard_versions(self) -> set[int]:
        return {frame["version"] for frame in self.frames if "version" in frame}

    def assert_not_reloaded(self) -> None:
        assert self.navigations == self.loaded, f"{self.letter}'s page navigated"
        assert self.page.evaluate("window.liveHandMarker") == MARKER, (
            f"{self.letter}'s page was reloaded"
        )


def what_to_click(page):
    """What the player to act clicks: "Prendre" while bidding, else the first enabled card
    (or, failing that, the first action offered)."""
    take = page.locator('#board [data-action="take"]:enabled')
    if take.count():
        return take.first
    cards = page.locator("#my-hand button[data-card]:enabled")
    if cards.count():
        return cards.first
    return page.locator("#board [data-action]:enabled").first
