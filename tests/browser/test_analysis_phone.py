"""The analysis of a finished hand in its replay, in a real browser on a phone (360x640):
the notes of the marked cards, a note's trick opened from it with its own note, and no
sideways scroll."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.tables import analysis
from tests.browser.live import outside_playwright
from tests.factories import fixed_deck, seated_user, started_table
from tests.tables.test_hand_analysis import first_played_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 360, "height": 640}


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_notes_of_a_hand_fit_a_phone_and_open_their_trick(new_context, daphne, page_guard):
    # A hand with cards to review: random play often has none in a contract that fails
    # whatever the defence does. The deck is fixed, not drawn from the table's id.
    for seed in range(20):
        table = outside_playwright(started_table, deck=fixed_deck(7))
        hand = outside_playwright(first_played_hand, table, seed)
        stored = outside_playwright(analysis.analyse_hand, hand.pk)
        if stored.notes:
            break
    assert stored.notes
    user = outside_playwright(seated_user, table, 0)
    client = Client()
    client.force_login(user)
    context = new_context(base_url=daphne, viewport=PHONE)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": daphne}])
    try:
        page = context.new_page()
        page.goto(f"/tables/{table.pk}/donnes/1/{hand.number}/")
        notes = page.locator("#analysis .analysis-note")
        expect(notes).to_have_count(len(stored.notes))
        expect(notes.first.locator(".analysis-text")).to_contain_text("aurait")
        expect(page.locator(".played-by.is-costly")).to_have_count(len(stored.notes))
        no_sideways_scroll(page)

        first = stored.notes[0]
        notes.first.locator(".analysis-trick").click()
        step = page.locator(".analysis-step .analysis-note")
        expect(page.locator("#replay")).to_have_attribute("data-step", str(first["trick"]))
        expect(step.first).to_have_attribute("data-card", first["played"])
        no_sideways_scroll(page)
    finally:
        page_guard.flush()
        context.close()
