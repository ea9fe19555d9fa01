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
version, and the card played, within ``LIVE_MS``; each page's websocket must have brought
the board of every move of the others (games/tables/boards.py), so that no page ever refetched
its board, with nothing in its frames but ``{table, version}`` (on arrival) and ``{table,
version, html}`` (``presence`` too when someone came); and no page may have navigated (a
reload would also drop the marker set in its window). The deck is fixed, so the hand is
the same at every run.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.live import LIT, Player, new_table, outside_playwright, what_to_click

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_MS = 4_000  # how long another page may take to show a move
MAX_MOVES = 60  # a hand is 1 to 8 bids and 32 cards

# After a move the keyboard focus is in the new board, on a button left to press or on the
# line that says whose turn it is, not lost on <body> with the button that was pressed.
FOCUS_IN_BOARD = """() => {
  const active = document.activeElement;
  const board = document.getElementById("board");
  return Boolean(board && active && board.contains(active)
    && (active.id === "turn-line" || (active.matches("button") && !active.disabled)));
}"""
# The live region that screen readers hear is outside #board, and stays the same element
# while the board is replaced.
KEEP_LIVE_REGION = """() => {
  window.liveRegion = document.getElementById("table-live");
  const board = document.getElementById("board");
  return Boolean(window.liveRegion) && !board.contains(window.liveRegion);
}"""
SAME_LIVE_REGION = "() => window.liveRegion === document.getElementById('table-live')"


@pytest.fixture
def table_pages(browser, daphne, page_guard):
    """A started table and its four players' pages, closed after the test."""
    table = outside_playwright(new_table)
    players: list[Player] = []
    try:
        for position in range(4):
            players.append(Player(browser, daphne, table, position, page_guard))
        yield table, players
    finally:
        page_guard.flush()
        for player in players:
            player.context.close()


def test_four_browsers_play_a_hand_live(table_pages):
    table, players = table_pages
    first_hand = table.current_hand_id

    # Every page's socket is up: each page shows the four players connected (presence
    # travels on the same websocket, and brings each page its board again).
    for player in players:
        expect(player.page.locator('#board .dot[data-connected="true"]')).to_have_count(4)
        assert player.page.evaluate(KEEP_LIVE_REGION), f"{player.letter}: live region"

    started_at = time.monotonic()
    played_cards: list[str] = []
    moved_by: dict[int, str] = {}  # version -> the seat whose move made it
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
        said = control.get_attribute("aria-label")  # a card's French name
        control.click()
        moves += 1
        moved_by[version + 1] = mover.letter

        # The mover's own page gets its fresh board as the answer to its move, and the
        # focus lands in it.
        expect(mover.board).to_have_attribute("data-version", str(version + 1))
        mover.page.wait_for_function(FOCUS_IN_BOARD)
        table.refresh_from_db()
        assert table.version == version + 1, f"{mover.letter} clicked {action!r}"

        hand_over = table.current_hand_id != first_hand
        card = action.split()[1] if action.startswith("play ") else None
        for other in others:
            # The others got their new board on the websocket.
            expect(other.board).to_have_attribute("data-version", str(version + 1), timeout=LIVE_MS)
            # Screen readers hear the move from the live region outside the board.
            live = other.page.locator("#table-live")
            if hand_over:
                # The hand's last card: the next hand is dealt, the summary shows.
                expect(other.page.locator('#hand-summary[data-hand="1"]')).to_be_visible(
                    timeout=LIVE_MS
                )
                expect(live).to_contain_text("Donne 1 terminée")
            elif card:
                expect(other.page.locator(f'#centre [data-card="{card}"]')).to_be_visible(
                    timeout=LIVE_MS
                )
                expect(live).to_contain_text(f"joue {said}.")
            elif action in ("take", "pass"):
                expect(other.page.locator("#bids")).to_contain_text(
                    "Prend" if action == "take" else "Passe", timeout=LIVE_MS
                )
                # Taking ends the bidding: the contract is said.
                expect(live).to_contain_text("pris par" if action == "take" else "Passe")
            assert other.page.evaluate(SAME_LIVE_REGION), f"{other.letter}: live region"
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
    assert max(moved_by) == table.version

    for player in players:
        player.assert_not_reloaded()
        # The score sheet opens on demand.
        player.page.locator("#score-sheet > summary").click()
        expect(player.page.locator('#score-sheet tr[data-hand="1"]')).to_be_visible()
        # The board of every move of the others reached every page, none was refetched,
        # and nothing else than these shapes of message ever travelled on the socket. (A
        # page's own move answers it with its board: the socket brings it that board a
        # moment after the others, or not at all once a newer move came meanwhile.)
        others_moves = {v for v, letter in moved_by.items() if letter != player.letter}
        heard = player.heard_versions()
        assert others_moves <= heard, (player.letter, sorted(others_moves - heard))
        assert player.board_fetches == 0, player.letter
        shapes = ({"table", "version"}, {"table", "version", "html"})
        for frame in player.frames:
            assert set(frame) - {"presence"} in shapes, set(frame)
            assert frame["table"] == table.pk
