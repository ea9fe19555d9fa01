"""Deal commitments and the verification page in a real browser on a phone (360x640):
the table shows the commitment before the bidding, the full value on demand, and the
verification page checks a pasted record; neither scrolls sideways."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.browser.live import outside_playwright
from tests.factories import seated_user, started_table
from tests.rules.test_records import played_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 360, "height": 640}


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_commitment_and_the_verification_page_fit_a_phone(new_context, daphne, page_guard):
    table = outside_playwright(started_table)
    user = outside_playwright(seated_user, table, 0)
    commitment = table.current_hand.commitment
    client = Client()
    client.force_login(user)
    context = new_context(base_url=daphne, viewport=PHONE)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": daphne}])
    try:
        page = context.new_page()
        page.goto(f"/tables/{table.pk}/")
        block = page.locator("#commitment")
        expect(block.locator("summary")).to_contain_text(commitment[:12])
        block.locator("summary").click()
        expect(block.locator(".commitment-full")).to_have_text(commitment)
        no_sideways_scroll(page)

        page.goto("/verifier/")
        page.locator("#id_record").fill(json.dumps(played_record(seed=4)))
        page.get_by_role("button", name="Vérifier").click()
        expect(page.locator("[data-verdict]")).to_have_attribute("data-verdict", "ok")
        expect(page.locator(".verdict-detail")).to_contain_text("correspondent à leur empreinte")
        no_sideways_scroll(page)
    finally:
        page_guard.flush()
        context.close()
