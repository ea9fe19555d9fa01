"""Table talk in two browsers at a phone's size: a reaction sent from one page shows on
the other without reload, through the table's websocket (pages served by Daphne, as in
test_live_hand.py). The "Discussion" button opens the chat as a drawer over the table,
counts the unread messages while closed, and the table still fits the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.live import Player, new_table, outside_playwright

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
FITS = """() => {
  const doc = document.documentElement;
  return doc.scrollWidth <= window.innerWidth && doc.scrollHeight <= window.innerHeight;
}"""


def test_a_reaction_sent_on_one_phone_shows_on_the_other_without_reload(
    browser, daphne, page_guard
):
    table = outside_playwright(new_table, "chat")
    south = Player(browser, daphne, table, 2, page_guard, **PHONE)
    north = Player(browser, daphne, table, 0, page_guard, **PHONE)
    try:
        for player in (south, north):
            player.wait_for_pushed_board()
            expect(player.page.locator("#chat .chat-toggle")).to_be_visible()
            assert player.page.evaluate(FITS), f"{player.letter}: the page scrolls"

        south.page.locator("#chat .chat-toggle").tap()
        # During a hand: the reactions, no free text.
        expect(south.page.locator("#chat-text")).to_be_hidden()
        south.page.get_by_role("button", name="Bravo partenaire").tap()
        expect(south.page.locator("#chat-log .chat-mine")).to_contain_text("Bravo partenaire")

        # The other page: the unread count on the closed drawer, then the message.
        badge = north.page.locator("[data-chat-unread]")
        expect(badge).to_have_text("1", timeout=5_000)
        north.page.locator("#chat .chat-toggle").tap()
        expect(north.page.locator("#chat-log")).to_contain_text("Bravo partenaire")
        expect(badge).to_be_hidden()
        panel = north.page.locator("#chat-panel").bounding_box()
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 390
        assert panel["y"] >= 0 and panel["y"] + panel["height"] <= 844
        for player in (south, north):
            player.assert_not_reloaded()
            assert player.page.evaluate(FITS), f"{player.letter}: the page scrolls"
    finally:
        page_guard.flush()
        south.context.close()
        north.context.close()
