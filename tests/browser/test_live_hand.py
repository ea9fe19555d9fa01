"""A whole hand by four players in four browsers: every move shows on the three other pages
at once, through the websocket, without any reload.

pytest-django's ``live_server`` is a WSGI server, without websockets, so the site is served
here by Daphne itself, in a subprocess (``python -m daphne belote_site.asgi:application``
with the test settings), against the test database: on SQLite that database is a file
(belote_site/settings/test.py), on PostgreSQL the ``test_`` database pytest-django made.
With ``REDIS_URL`` set (the second stage of .ci/run) Daphne's channel layer is Redis.

Four browser contexts, one per seated user, each logged in with the session cookie of a
``force_login``. At every step the player to act clicks what their page lights (the
"Prendre" button, then an enabled card), and the three other pages must show the new
version, and the card played, within ``LIVE_MS``; each page's websocket must have told
every version, with nothing in its frames but ``{table, version}`` or ``{table,
presence}``; and no page may have navigated (a reload would also drop the marker set in
its window). The deck is fixed, so the hand is the same at every run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection, connections
from django.test import Client
from playwright.sync_api import expect

from games.models import Table
from tests.factories import fixed_deck, make_user, started_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SEATS = "NESW"
LIVE_MS = 4_000  # how long another page may take to show a move
MAX_MOVES = 60  # a hand is 1 to 8 bids and 32 cards
LIT = "#board [data-action]:enabled, #my-hand button[data-card]:enabled"
MARKER = "live-hand-marker"


def database_url() -> str:
    """The URL of the test database, for the Daphne subprocess (dj-database-url)."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        assert not connection.is_in_memory_db(), "Daphne cannot open an in-memory database"
        return f"sqlite:///{db['NAME']}"
    if db["ENGINE"] == "django.db.backends.postgresql":
        auth = quote(db.get("USER") or "", safe="")
        if db.get("PASSWORD"):
            auth += ":" + quote(db["PASSWORD"], safe="")
        host = quote(db.get("HOST") or "localhost", safe="")
        port = db.get("PORT") or 5432
        return f"postgres://{auth}@{host}:{port}/{quote(db['NAME'], safe='')}"
    pytest.fail(f"no Daphne URL for the database engine {db['ENGINE']}")


@pytest.fixture
def daphne(transactional_db, tmp_path):
    """The base URL of a Daphne process serving the site on a free port of 127.0.0.1."""
    log_path = tmp_path / "daphne.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "belote_site.settings.test",
        "DATABASE_URL": database_url(),
        "PYTHONUNBUFFERED": "1",
    }
    # Set in this process for Playwright's sake (tests/browser/conftest.py); the server
    # runs with Django's checks on, as in production.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", "0"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, "belote_site.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )

    def log_text() -> str:
        return log_path.read_text(errors="replace")

    try:
        deadline = time.monotonic() + 30
        port = None
        while port is None:
            found = re.search(r"Listening on TCP address 127\.0\.0\.1:(\d+)", log_text())
            if found:
                port = int(found.group(1))
            elif process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Daphne did not start:\n{log_text()}", pytrace=False)
            else:
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    # Whatever went wrong in the server (a traceback, a refused websocket) shows here.
    print(log_text()[-5000:])


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


def new_table() -> Table:
    """Four users at a table, its first hand dealt by North from a fixed deck."""
    users = {position: make_user(f"live{SEATS[position]}") for position in range(4)}
    return started_table(players=users, deck=fixed_deck(7), first_dealer=0)


class Player:
    """One seated user's page, with what it heard on its websocket and how often its main
    frame navigated."""

    def __init__(self, browser, base_url: str, table: Table, position: int) -> None:
        seat = table.seats.select_related("user").get(position=position)
        client = Client()
        client.force_login(seat.user)
        self.letter = SEATS[position]
        self.context = browser.new_context(
            base_url=base_url, locale="fr-FR", viewport={"width": 1280, "height": 900}
        )
        self.context.set_default_timeout(10_000)
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
        self.quiet_since = time.monotonic()
        self.page.on("websocket", self._watch_socket)
        self.page.on("framenavigated", self._count_navigation)
        self.page.on("request", self._request_started)
        self.page.on("requestfinished", self._request_ended)
        self.page.on("requestfailed", self._request_ended)
        self.page.goto(f"/tables/{table.pk}/")
        expect(self.page.locator("#board")).to_be_visible()
        expect(self.page.locator("#my-hand")).to_have_attribute("data-seat", self.letter)
        self.page.evaluate(f"window.liveHandMarker = {json.dumps(MARKER)}")
        self.loaded = self.navigations

    def _watch_socket(self, socket) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

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

    def wait_until_quiet(self, quiet: float = 0.15, timeout: float = 5) -> None:
        """Until no refetch is in flight and none ended for ``quiet`` seconds.

        A refetch may still be swapping the board in just after the pages came (presence
        pings); a click whose press and release straddle that swap lands on two different
        buttons and is lost, as it would be for a person.
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


@pytest.fixture
def table_pages(browser, daphne):
    """A started table and its four players' pages, closed after the test."""
    table = outside_playwright(new_table)
    players: list[Player] = []
    try:
        for position in range(4):
            players.append(Player(browser, daphne, table, position))
        yield table, players
    finally:
        for player in players:
            player.context.close()


def test_four_browsers_play_a_hand_live(table_pages):
    table, players = table_pages
    first_hand = table.current_hand_id

    # Every page's socket is up: each page shows the four players connected (presence
    # travels on the same websocket, and each page refetched its board for it).
    for player in players:
        expect(player.page.locator('#board .dot[data-connected="true"]')).to_have_count(4)

    started_at = time.monotonic()
    played_cards: list[str] = []
    moves = 0
    for _ in range(MAX_MOVES):
        table.refresh_from_db()
        if table.current_hand_id != first_hand:
            break
        version = table.version
        mover = players[table.turn]
        others = [player for player in players if player is not mover]
        expect(mover.board).to_have_attribute("data-version", str(version))
        for other in others:
            expect(other.board).to_have_attribute("data-version", str(version))
            assert other.page.locator(LIT).count() == 0, f"{other.letter} may act too"

        mover.wait_until_quiet()
        control = what_to_click(mover.page)
        action = control.get_attribute("value")
        control.click()
        moves += 1

        # The mover's own page gets its fresh board as the answer to its move.
        expect(mover.board).to_have_attribute("data-version", str(version + 1))
        table.refresh_from_db()
        assert table.version == version + 1, f"{mover.letter} clicked {action!r}"

        hand_over = table.current_hand_id != first_hand
        card = action.split()[1] if action.startswith("play ") else None
        for other in others:
            # The others were told on the websocket and refetched their board.
            expect(other.board).to_have_attribute("data-version", str(version + 1), timeout=LIVE_MS)
            if hand_over:
                # The hand's last card: the next hand is dealt, the summary shows.
                expect(other.page.locator('#hand-summary[data-hand="1"]')).to_be_visible(
                    timeout=LIVE_MS
                )
            elif card:
                expect(other.page.locator(f'#centre [data-card="{card}"]')).to_be_visible(
                    timeout=LIVE_MS
                )
            elif action in ("take", "pass"):
                expect(other.page.locator("#bids")).to_contain_text(
                    "Prend" if action == "take" else "Passe", timeout=LIVE_MS
                )
        if card:
            played_cards.append(card)
        if hand_over:
            # The next hand is dealt from a fresh shuffle: the card just played may well
            # be in the mover's new hand, so only the summary is checked on their page.
            expect(mover.page.locator('#hand-summary[data-hand="1"]')).to_be_visible()
        elif card:
            expect(mover.page.locator(f'#my-hand [data-card="{card}"]')).to_have_count(0)
    else:
        pytest.fail(f"the hand was not over after {MAX_MOVES} moves")

    elapsed = time.monotonic() - started_at
    print(f"{moves} moves, {len(played_cards)} cards, in {elapsed:.1f} s")
    assert len(played_cards) == 32 and len(set(played_cards)) == 32
    last = table.version

    for player in players:
        player.assert_not_reloaded()
        expect(player.page.locator('#score-sheet tr[data-hand="1"]')).to_be_visible()
        # One broadcast per move reached every page, and nothing else than the two
        # shapes of message ever travelled on the socket.
        heard = player.heard_versions()
        assert set(range(last - moves + 1, last + 1)) <= heard, (player.letter, heard)
        for frame in player.frames:
            assert set(frame) in ({"table", "version"}, {"table", "presence"}), frame
            assert frame["table"] == table.pk
