"""One click to the first card: on a phone, a logged-in player presses *Jouer maintenant*
on the home page and lands on a live table with their hand dealt, then plays their first
action (served by Daphne, as in production)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Action, Table
from games.tables import lobby
from games.tables.moves import play_bots
from tests.browser.live import LIT, outside_playwright, what_to_click
from tests.factories import make_user
from tests.tables.helpers import invite
from tests.tournaments.helpers import join, make_club, make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}
SOUTH = 2


def logged_in_context(browser, base_url: str, user, guard):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url, locale="fr-FR", viewport=PHONE)
    context.set_default_timeout(10_000)
    guard.watch(context)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base_url}])
    return context


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_one_click_on_play_now_leads_to_the_first_card(browser, daphne, page_guard):
    user = make_user("rapide")
    # Something in each list of the home page, with long words, to read on a phone.
    host = make_user("hote-au-nom-particulierement-long")
    invite(lobby.create_private_table(created_by=host, preset="moderne", target=1000), user)
    club = make_club("Club des joueurs de belote du dimanche après-midi")
    join(club, user)
    make_tournament(club, name="Grand tournoi d'hiver des joueurs de belote du dimanche")
    context = logged_in_context(browser, daphne, user, page_guard)
    try:
        page = context.new_page()
        page.goto("/")
        button = page.get_by_role("button", name="Jouer maintenant")
        expect(button).to_be_visible()
        expect(page.get_by_text("Invitation de hote-au-nom")).to_be_visible()
        expect(page.get_by_role("link", name="Grand tournoi d'hiver")).to_be_visible()
        assert button.bounding_box()["height"] >= 44
        assert no_sideways_scroll(page)

        button.click()

        expect(page).to_have_url(f"{daphne}/tables/{Table.objects.get(created_by=user).pk}/")
        expect(page.locator("#my-hand")).to_have_attribute("data-seat", "S")
        expect(page.locator("#my-hand .hand > li")).to_have_count(5)
        assert no_sideways_scroll(page)
        table = Table.objects.get(created_by=user)
        assert table.status == Table.Status.PLAYING
        if table.turn != SOUTH:
            # The bots before the player, as the task worker would play them; the page
            # hears their moves through Daphne.
            outside_playwright(play_bots, table.pk)

        expect(page.locator(LIT).first).to_be_enabled()
        with page.expect_response(f"**/tables/{table.pk}/jouer/") as answer:
            what_to_click(page).click()

        assert answer.value.status == 200
        played = Action.objects.filter(table=table, actor=user, hand__isnull=False)
        assert played.count() == 1
    finally:
        page_guard.flush()
        context.close()
