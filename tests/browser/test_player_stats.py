"""The player page's statistics on a phone (360×640): the figures, the contracts table and
the partners read without sideways scrolling, and the preset links filter them."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.browser.live import outside_playwright
from tests.factories import make_user, play_to_the_end, started_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}


def played_games():
    """A long-named player's moderne game (sans atout and tout atout contracts) and
    classique game, both played to the end with the same partner."""
    me = make_user("joueuse", display_name="Marie-Christine de La Tour-Maubourg")
    partner = make_user("partenaire", display_name="Jean-Baptiste Lestrange-Vilmorin")
    seating = {0: partner, 1: make_user(), 2: me, 3: make_user()}
    for preset, seed in (("moderne", 11), ("classique", 12)):
        play_to_the_end(
            started_table(preset=preset, players=seating, options={"target": 501}), seed=seed
        )
    return me, make_user("lecteur")


def test_the_statistics_read_on_a_phone_and_filter_by_preset(new_context, live_server):
    me, reader = outside_playwright(played_games)
    client = Client()
    client.force_login(reader)
    context = new_context(viewport=PHONE)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"/joueurs/{me.username}/")

    expect(page.locator("#stats-games")).to_have_text("2")
    expect(page.locator(".stats-partners")).to_contain_text("Jean-Baptiste Lestrange-Vilmorin")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_role("link", name="Belote moderne (sans atout et tout atout)").click()
    expect(page.locator("#stats-games")).to_have_text("1")
    expect(
        page.get_by_role("link", name="Belote moderne (sans atout et tout atout)")
    ).to_have_attribute("aria-current", "page")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
