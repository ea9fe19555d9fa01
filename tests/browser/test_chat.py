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


def chat_fetches(fetches: list):
    """A ``before_load`` that notes each fetch of the page's chat in ``fetches``."""

    def watch(context, page) -> None:
        page.on(
            "request", lambda request: "/discussion/" in request.url and fetches.append(request)
        )

    return watch


def test_a_reaction_sent_on_one_phone_shows_on_the_other_without_reload(
    browser, daphne, page_guard
):
    table = outside_playwright(new_table, "chat")
    fetches = []
    south = Player(
        browser, daphne, table, 2, page_guard, before_load=chat_fetches(fetches), **PHONE
    )
    north = Player(
        browser, daphne, table, 0, page_guard, before_load=chat_fetches(fetches), **PHONE
    )
    try:
        for player in (south, north):
            player.wait_for_pushed_board()
            expect(player.page.locator("#chat .chat-toggle")).to_be_visible()
            assert player.page.evaluate(FITS), f"{player.letter}: the page scrolls"
        # Each page came with its chat: its socket's first connection only asks whether a
        # message came since the page was rendered (a 204 when none), once a page.
        assert sorted(r.url.split("?")[1] for r in fetches) == ["zone=1&after=0"] * 2
        assert all(r.response().status == 204 for r in fetches)
        fetches.clear()

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


def chat_off_table():
    """A started table whose creator (South, seated) turned its chat off."""
    from games.tables import chat, service
    from tests.factories import fixed_deck, make_user

    users = {position: make_user(f"talk{'NESW'[position]}") for position in range(4)}
    table = service.create_table(created_by=users[2], preset="classique", players=users)
    chat.set_settings(table=table, by=users[2], enabled=False, spectators="read")
    service.start_table(table_id=table.pk, first_dealer=0, deck=fixed_deck(7))
    table.refresh_from_db()
    return table


def test_the_chat_appears_when_the_creator_turns_it_on_and_loads_once(browser, daphne, page_guard):
    table = outside_playwright(chat_off_table)
    fetches = []
    north = Player(
        browser, daphne, table, 0, page_guard, before_load=chat_fetches(fetches), **PHONE
    )
    south = Player(browser, daphne, table, 2, page_guard, **PHONE)
    try:
        north.wait_for_pushed_board()
        south.wait_for_pushed_board()
        assert fetches == []
        expect(north.page.locator("#chat")).to_be_hidden()

        south.page.locator("#chat .chat-toggle").tap()
        south.page.locator("#chat-settings summary").tap()
        south.page.get_by_label("Discussion ouverte").check()
        south.page.locator("#chat-settings").get_by_role("button", name="Enregistrer").tap()
        expect(south.page.locator("#chat-panel")).to_contain_text("Réglages de la discussion")

        # North's page: the drawer appears, without reload, and works.
        expect(north.page.locator("#chat .chat-toggle")).to_be_visible(timeout=5_000)
        assert len(fetches) == 1
        north.page.locator("#chat .chat-toggle").tap()
        north.page.get_by_role("button", name="Merci").tap()
        expect(south.page.locator("#chat-log")).to_contain_text("Merci", timeout=5_000)
        for player in (south, north):
            player.assert_not_reloaded()
            assert player.page.evaluate(FITS), f"{player.letter}: the page scrolls"
    finally:
        page_guard.flush()
        south.context.close()
        north.context.close()


def test_enter_in_the_text_field_sends_the_text_not_a_reaction(browser, daphne, page_guard):
    from games.models import ChatMessage
    from games.tables import lobby
    from tests.browser.test_play_now import logged_in_context
    from tests.factories import make_user

    host = make_user("bavarde")
    table = lobby.create_private_table(created_by=host, preset="classique", target=1000)
    context = logged_in_context(browser, daphne, host, page_guard)
    try:
        page = context.new_page()
        page.goto(f"/tables/{table.pk}/")
        page.locator("#chat .chat-toggle").click()
        field = page.locator("#chat-text")
        field.fill("On commence quand tout le monde est là ?")
        field.press("Enter")

        line = page.locator("#chat-log .chat-mine")
        expect(line).to_have_count(1)
        expect(line).to_contain_text("On commence quand tout le monde est là ?")
        expect(page.locator("#chat-log")).not_to_contain_text("Bien joué !")
        expect(page.locator("#chat-text")).to_have_value("")
        stored = outside_playwright(lambda: list(ChatMessage.objects.values_list("kind", "text")))
        assert stored == [("text", "On commence quand tout le monde est là ?")]
    finally:
        page_guard.flush()
        context.close()
