"""From the sign-up form to a started table with three bots, in a real browser (French)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from games.models import BotLevel, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMAIL = "margot@example.com"
USERNAME = "margot"
PASSWORD = "atout-coeur-capot-252"
BOT_SEATS = ["Nord", "Est", "Ouest"]
BOT_LEVEL = "Confirmé"  # BotLevel.HEURISTIC, as the French pages name it
BOT_SEAT = "Robot confirmé"  # such a bot in its seat (games/bots/levels.py seat_name)


def test_signup_verify_create_table_with_bots_and_start(page, live_server, tmp_path, page_guard):
    # live_server is WSGI: the started table's websocket cannot connect (test_live_hand.py
    # runs the live pages on Daphne).
    page_guard.allow(r"WebSocket connection to .*/ws/tables/\d+/.* failed")
    # Sign up from the header link.
    page.goto("/")
    nav = page.get_by_role("navigation", name="Compte")
    nav.get_by_role("link", name="Créer un compte").click()
    expect(page.get_by_role("heading", name="Création de compte")).to_be_visible()
    page.get_by_label("Courriel").fill(EMAIL)
    page.get_by_label("Nom d'utilisateur").fill(USERNAME)
    page.get_by_label(re.compile(r"^Mot de passe\W*$")).fill(PASSWORD)
    page.get_by_label("Mot de passe (confirmation)").fill(PASSWORD)
    page.get_by_role("button", name="Création de compte").click()
    expect(page).to_have_url(re.compile(r"/comptes/confirm-email/$"))

    # The verification email: live_server runs in this process, locmem keeps it here.
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [EMAIL]
    links = re.findall(r"https?://\S+/comptes/confirm-email/[^/\s]+/", message.body)
    assert len(links) == 1, message.body
    assert links[0].startswith(live_server.url)

    # The link asks for a click (no change on GET). allauth then signs the player in or,
    # as configured here, sends them to the login form: either works for this test.
    page.goto(links[0])
    page.get_by_role("button", name="Confirmer").click()
    login_button = page.get_by_role("button", name="Connexion")
    signed_in = nav.get_by_text(USERNAME, exact=True)
    expect(login_button.or_(signed_in)).to_be_visible()
    if login_button.is_visible():
        page.get_by_label("Courriel").fill(EMAIL)
        page.get_by_label(re.compile(r"^Mot de passe\W*$")).fill(PASSWORD)
        login_button.click()
    expect(signed_in).to_be_visible()

    # A private table: creator at South, free seats to heuristic bots at the start.
    nav.get_by_role("link", name="Nouvelle table").click()
    expect(page.get_by_role("heading", name="Nouvelle table privée")).to_be_visible()
    page.get_by_label("Variante").select_option(label="Belote classique")
    page.get_by_role("radio", name=re.compile(r"^En direct")).check()
    page.get_by_label("Votre place").select_option(label="Sud")
    page.get_by_role(
        "checkbox", name="Au démarrage, des robots prennent les places restées libres"
    ).check()
    page.get_by_label("Niveau des robots").select_option(label=BOT_LEVEL)
    page.get_by_role("button", name="Créer la table").click()

    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    table_url = f"{live_server.url}/tables/{table_id}/"
    expect(page.get_by_role("heading", name=f"Table n° {table_id}", level=1)).to_be_visible()
    messages = page.get_by_role("status").filter(has=page.locator("li"))
    expect(messages).to_contain_text("Votre table est prête")

    # The bots sit down when the creator starts the game.
    page.get_by_role("button", name="Commencer la partie").click()
    expect(messages).to_contain_text("La partie commence")
    expect(page).to_have_url(table_url)

    seats = page.get_by_role("region", name="Les places")
    south = seats.get_by_role("region", name="Sud", exact=True)
    expect(south).to_contain_text(USERNAME)
    expect(south).to_contain_text("vous")
    for name in BOT_SEATS:
        seat = seats.get_by_role("region", name=name, exact=True)
        expect(seat).to_contain_text("Robot")
        expect(seat).to_contain_text(BOT_SEAT)
        expect(seat).not_to_contain_text(USERNAME)

    table = Table.objects.get(pk=table_id)
    assert table.status == Table.Status.PLAYING
    assert table.created_by.username == USERNAME
    by_position = {seat.position: seat for seat in table.seats.select_related("user")}
    assert by_position[2].user == table.created_by
    assert [by_position[p].bot_level for p in (0, 1, 3)] == [BotLevel.HEURISTIC] * 3

    page.screenshot(path=tmp_path / "table.png", full_page=True)
    assert (tmp_path / "table.png").stat().st_size > 0
