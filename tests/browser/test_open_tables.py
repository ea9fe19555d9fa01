"""The list of open tables on a phone (360x640), served by Daphne: readable without
sideways scroll, it follows another player's seat live (the list's socket, then htmx),
and a tap takes a seat and shows the table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Table
from games.tables import lobby
from tests.browser.live import outside_playwright
from tests.browser.test_play_now import logged_in_context, no_sideways_scroll
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_on_a_phone_a_tap_takes_a_seat_and_the_list_follows_live(browser, daphne, page_guard):
    host = make_user("hote-au-nom-particulierement-long-pour-un-telephone")
    table = lobby.create_private_table(
        created_by=host, preset="stekius", target=1001, is_open=True, fill_with_bots=True
    )
    lobby.set_bot(table=table, by=host, position=3, level="random")
    me, other = make_user("moi"), make_user("voisine")
    mine = logged_in_context(browser, daphne, me, page_guard)
    theirs = logged_in_context(browser, daphne, other, page_guard)
    try:
        page = mine.new_page()
        page.goto("/tables/ouvertes/")
        card = page.locator(f"#open-table-{table.pk}")
        expect(card).to_contain_text("Stekius")
        expect(card).to_contain_text("2 places libres")
        expect(card).to_contain_text("hote-au-nom")
        assert no_sideways_scroll(page)
        north = card.get_by_role("button", name="S'asseoir (Nord")
        east = card.get_by_role("button", name="S'asseoir (Est")
        assert north.bounding_box()["height"] >= 44
        assert east.bounding_box()["width"] <= 360

        # Another player sits at North through their own page: mine follows, no reload.
        other_page = theirs.new_page()
        other_page.goto("/tables/ouvertes/")
        other_page.get_by_role("button", name="S'asseoir (Nord").click()
        expect(other_page).to_have_url(f"{daphne}/tables/{table.pk}/")
        expect(card).to_contain_text("voisine")
        expect(card).to_contain_text("Une place libre")
        expect(north).to_have_count(0)

        east.click()

        expect(page).to_have_url(f"{daphne}/tables/{table.pk}/")
        expect(page.get_by_text("Vous avez pris votre place")).to_be_visible()
        expect(page.locator(".seat-1")).to_contain_text("moi")
        assert no_sideways_scroll(page)
        assert table.seats.get(position=1).user == me
        assert Table.objects.get(pk=table.pk).status == Table.Status.LOBBY
    finally:
        page_guard.flush()
        mine.close()
        theirs.close()


def test_a_refused_seat_is_said_and_stays_said_while_the_list_follows(browser, daphne, page_guard):
    host = make_user("hote")
    table = lobby.create_private_table(
        created_by=host, preset="classique", target=1000, is_open=True, fill_with_bots=True
    )
    me, other, quick = make_user("moi"), make_user("voisine"), make_user("rapide")
    page_guard.allow(r"status of 409 \(Conflict\)")  # the refusal itself
    mine = logged_in_context(browser, daphne, me, page_guard)
    theirs = logged_in_context(browser, daphne, other, page_guard)
    try:
        page = mine.new_page()
        page.goto("/tables/ouvertes/")
        card = page.locator(f"#open-table-{table.pk}")
        expect(card).to_contain_text("3 places libres")
        # Someone takes North while my page does not know it yet (made in this process,
        # which the pages' socket does not hear).
        outside_playwright(lobby.take_seat, table=table, user=quick, position=0)

        card.get_by_role("button", name="S'asseoir (Nord").click()
        notice = page.locator("#open-tables-notice")
        expect(notice).to_contain_text("Cette place est déjà prise.")
        expect(card).to_contain_text("rapide")

        # Another player sits at East through their page: my list follows live, and the
        # notice stays where it is.
        other_page = theirs.new_page()
        other_page.goto("/tables/ouvertes/")
        other_page.get_by_role("button", name="S'asseoir (Est").click()
        expect(other_page).to_have_url(f"{daphne}/tables/{table.pk}/")
        expect(card).to_contain_text("voisine")
        expect(card).to_contain_text("Une place libre")
        page.wait_for_timeout(600)  # past the refetch's delay
        expect(notice).to_contain_text("Cette place est déjà prise.")
        expect(notice).to_be_visible()
        assert no_sideways_scroll(page)
        # The user's next action clears it (a filter here).
        page.get_by_label("Rythme").select_option("live")
        expect(notice).to_be_empty()
    finally:
        page_guard.flush()
        mine.close()
        theirs.close()


# Whether the words of a button's label each stay on one line (none broken mid-word).
WORDS_WHOLE = """(button) => {
  const text = [...button.childNodes].find((node) => node.nodeType === Node.TEXT_NODE);
  let at = 0;
  for (const word of text.textContent.split(" ")) {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    if (lines.size > 1) return false;
    at += word.length + 1;
  }
  return true;
}"""


def test_on_a_phone_the_creator_frees_a_seat_and_the_lobby_buttons_keep_their_words(
    browser, daphne, page_guard
):
    host, guest = make_user("hote"), make_user("invite-surprise")
    table = lobby.create_private_table(
        created_by=host, preset="classique", target=1000, is_open=True
    )
    lobby.take_seat(table=table, user=guest, position=0)
    theirs = logged_in_context(browser, daphne, guest, page_guard)
    mine = logged_in_context(browser, daphne, host, page_guard)
    try:
        guest_page = theirs.new_page()
        guest_page.goto(f"/tables/{table.pk}/")
        expect(guest_page.locator(".seat-0")).to_contain_text("invite-surprise")
        page = mine.new_page()
        page.goto(f"/tables/{table.pk}/")
        # Each arrival makes the lobby's pages refetch their #table: let those settle.
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        guest_page.wait_for_load_state("networkidle")
        for button in page.locator(".seat button").all():
            assert button.evaluate(WORDS_WHOLE), button.inner_text()
        west = page.get_by_role("button", name="S'asseoir ici (Ouest)")
        assert west.evaluate(WORDS_WHOLE)
        assert no_sideways_scroll(page)

        page.get_by_role("button", name="Libérer la place (Nord)").click()

        expect(page.locator("#seats")).to_contain_text("La place est libérée.")
        expect(page.locator(".seat-0")).not_to_contain_text("invite-surprise")
        # The guest's page follows, without reload, and says why.
        expect(guest_page.locator("#seats")).to_contain_text(
            "La personne qui a créé la table a libéré votre place.", timeout=10_000
        )
        expect(guest_page.locator(".seat-0")).not_to_contain_text("invite-surprise")
        assert no_sideways_scroll(page) and no_sideways_scroll(guest_page)
    finally:
        page_guard.flush()
        mine.close()
        theirs.close()
