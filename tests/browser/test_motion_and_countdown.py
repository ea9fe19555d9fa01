"""The feel of a live game in a real browser: the countdown of the player to act runs from
the server's deadline (a page that slept shows the right time at once), a played card
travels to the trick and a finished trick goes to its winner before the next board comes,
and none of it moves for a player who asked their system for less motion."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Table
from tests.browser.live import new_table, outside_playwright
from tests.table_page.helpers import play_first_legal, state_of, take_at_once

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every version of #board the page showed, with when it came (page time, ms) and whether
# it held a finished trick.
SWAPS = """
window.boardSwaps = [];
new MutationObserver(function () {
  var board = document.getElementById("board");
  var version = board && Number(board.dataset.version);
  var last = window.boardSwaps[window.boardSwaps.length - 1];
  if (version && (!last || last.version !== version)) {
    window.boardSwaps.push({version: version, at: performance.now()});
  }
}).observe(document, {childList: true, subtree: true});
"""


def animation(page, selector: str) -> str:
    return page.eval_on_selector(selector, "e => getComputedStyle(e).animationName")


def three_cards_down(prefix: str) -> Table:
    """A table whose first trick holds three cards."""
    table = new_table(prefix)
    take_at_once(table)
    while len(state_of(table).trick) < 3:
        play_first_legal(table)
    table.refresh_from_db()
    return table


def next_move(table: Table) -> int:
    play_first_legal(table)
    table.refresh_from_db()
    return table.version


def watch_swaps(context, page) -> None:
    page.add_init_script(SWAPS)


def test_a_played_card_travels_and_a_finished_trick_goes_to_its_winner(table_page):
    table = outside_playwright(three_cards_down, "motion")
    watcher = table_page(table, (table.turn + 2) % 4, before_load=watch_swaps)
    # Its own arrival, told as presence, brings it the same board again: it must come
    # before the move, or it would stand the move's board still (a loaded machine).
    watcher.wait_for_pushed_board()
    page = watcher.page
    # The page's first board stands still.
    assert animation(page, "#trick .slot.is-new .card") == "none"

    done = outside_playwright(next_move, table)  # the fourth card: the trick is over
    expect(watcher.board).to_have_attribute("data-version", str(done))
    expect(page.locator("#trick.trick-done")).to_have_count(1)
    assert animation(page, "#trick .slot.is-new .card") == "card-travel"
    assert animation(page, "#trick .slot.is-winner") == "trick-gather"

    lead = outside_playwright(next_move, table)  # the winner leads the next trick at once
    expect(watcher.board).to_have_attribute("data-version", str(lead))
    swaps = {swap["version"]: swap["at"] for swap in page.evaluate("window.boardSwaps")}
    # The next board waited for the finished trick to go (static/js/table.js TRICK_HOLD_MS).
    assert swaps[lead] - swaps[done] >= 1300, swaps
    assert animation(page, "#trick .slot.is-new .card") == "card-travel"

    # Fetched again at the same version (the tab shown again): nothing moves.
    page.evaluate("document.dispatchEvent(new Event('belote:stale'))")
    watcher.wait_until_quiet()
    assert animation(page, "#trick .slot.is-new .card") == "none"


def test_nothing_moves_for_a_player_who_asked_for_less_motion(table_page):
    table = outside_playwright(three_cards_down, "calm")

    def reduce_motion(context, page) -> None:
        page.emulate_media(reduced_motion="reduce")

    watcher = table_page(table, (table.turn + 2) % 4, before_load=reduce_motion)
    watcher.wait_until_quiet()

    done = outside_playwright(next_move, table)
    expect(watcher.board).to_have_attribute("data-version", str(done))
    expect(watcher.page.locator("#trick.trick-done")).to_have_count(1)
    assert animation(watcher.page, "#trick .slot.is-new .card") == "none"
    assert animation(watcher.page, "#trick .slot.is-winner") == "none"
    expect(watcher.page.locator("#trick .slot")).to_have_count(4)


def with_deadline(table: Table, *, pace: str, move_seconds: int, seconds: float) -> Table:
    Table.objects.filter(pk=table.pk).update(
        pace=pace,
        move_seconds=move_seconds,
        deadline=timezone.now() + datetime.timedelta(seconds=seconds),
    )
    table.refresh_from_db()
    return table


def install_clock(context, page) -> None:
    page.clock.install()


def test_a_live_countdown_runs_from_the_deadline_and_is_right_after_a_sleep(table_page):
    table = outside_playwright(new_table, "clock")
    outside_playwright(with_deadline, table, pace="live", move_seconds=60, seconds=50)
    player = table_page(table, table.turn, before_load=install_clock)
    countdown = player.page.locator("#turn-line [role=timer]")
    expect(countdown).to_have_text(re.compile(r"^il vous reste (50|4\d) s$"))
    expect(countdown).not_to_have_class(re.compile("is-urgent"))

    player.page.clock.fast_forward("00:40")  # the computer slept for 40 s

    expect(countdown).to_have_text(re.compile(r"^il vous reste ([1-9]|10) s$"))
    expect(countdown).to_have_class(re.compile("is-urgent"))

    player.page.clock.fast_forward("00:15")
    expect(countdown).to_have_text("temps écoulé")


def test_an_asynchronous_countdown_says_hours_and_minutes(table_page):
    table = outside_playwright(new_table, "async")
    outside_playwright(
        with_deadline, table, pace="async", move_seconds=86400, seconds=5 * 3600 + 12 * 60 + 30
    )
    player = table_page(table, table.turn, before_load=install_clock)
    other = table_page(table, (table.turn + 1) % 4)
    countdown = player.page.locator("#turn-line [role=timer]")
    expect(countdown).to_have_text("il vous reste 5 h 12")
    expect(other.page.locator("#turn-line [role=timer]")).to_have_text("il lui reste 5 h 12")

    player.page.clock.fast_forward("02:00:00")

    expect(countdown).to_have_text("il vous reste 3 h 12")
