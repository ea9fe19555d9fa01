"""htmx requests get the fragment of the page they act on, errors included; plain POSTs a
redirect with a message (the forms work without JavaScript)."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.models import Table
from games.tables import lobby
from tests.tables.helpers import client_for, htmx_post, invite, seat_holders, snapshot, url

pytestmark = pytest.mark.django_db


def test_a_seat_action_answers_the_seats_fragment(table, alice):
    invite(table, alice)

    response = htmx_post(client_for(alice), url("take_seat", table), {"position": 0})

    assert response.status_code == 200
    html = response.text
    assert html.lstrip().startswith('<section id="seats"')
    assert "<html" not in html
    assert 'id="invites"' not in html
    assert 'role="status"' in html and "Vous avez pris cette place." in html
    assert seat_holders(table) == ["alice", None, "claire", None]


def test_a_refused_htmx_action_answers_the_fragment_with_an_alert(as_creator, table):
    before = snapshot(table)

    response = htmx_post(as_creator, url("remove_bot", table), {"position": 0})

    assert response.status_code == 409
    assert response.text.lstrip().startswith('<section id="seats"')
    assert 'role="alert"' in response.text
    assert "Aucun robot n&#x27;est assis à cette place." in response.text
    assert snapshot(table) == before


def test_an_invitation_answers_the_invites_fragment(as_creator, table, alice):
    response = htmx_post(as_creator, url("invite", table), {"username": "alice"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="invites"')
    assert "Invitation envoyée à alice." in response.text


def test_a_bad_invitation_shows_the_error_on_the_field(as_creator, table):
    response = htmx_post(as_creator, url("invite", table), {"username": "nobody"})

    assert response.status_code == 422
    assert response.text.lstrip().startswith('<section id="invites"')
    assert 'id="id_username_error"' in response.text
    assert 'aria-invalid="true"' in response.text


def test_starting_with_htmx_reloads_the_page(as_creator, table):
    for position in (0, 1, 3):
        lobby.set_bot(table=table, by=table.created_by, position=position, level="random")

    response = htmx_post(as_creator, url("start", table))

    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == url("table", table)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_htmx_get_of_a_table_is_its_fragment(as_creator, table):
    response = as_creator.get(url("table", table), headers={"hx-request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="table"')
    assert f'data-version="{table.version}"' in response.text
    assert "<html" not in response.text


def test_a_plain_post_redirects_with_a_message(as_creator, table):
    response = as_creator.post(url("set_bot", table), {"position": 0, "level": "random"})

    assert response.status_code == 302
    assert response.url == url("table", table)
    page = as_creator.get(response.url).text
    assert '<ul class="messages" role="status" aria-live="polite">' in page
    assert "Un robot est assis." in page


def test_a_refused_plain_post_shows_the_page_with_the_message(as_creator, table):
    response = as_creator.post(url("remove_bot", table), {"position": 0})

    assert response.status_code == 409
    assert "<html" in response.text
    assert "Aucun robot" in response.text


def test_a_refused_invitation_by_an_invitee_shows_no_link(table, alice):
    invite(table, alice)

    response = htmx_post(client_for(alice), url("invite", table), {"username": "bob"})

    assert response.status_code == 403
    assert "Seul le créateur de la table peut faire cela." in response.text
    assert table.invite_token not in response.text
    assert "Renouveler le lien" not in response.text


# ---------------------------------------------------------------------------------------
# "Commencer la partie" only when the start would be accepted


def test_no_start_button_while_seats_are_free_and_no_bot_fills_them(as_creator, table, alice):
    invite(table, alice)
    lobby.take_seat(table=table, user=alice, position=0)

    page = as_creator.get(url("table", table)).text

    assert "Commencer la partie" not in page
    assert f'action="{url("start", table)}"' not in page
    assert "Il reste 2 places libres : invitez des joueurs ou mettez des robots." in page


@pytest.mark.parametrize("filled_by", ["bots at the start", "four seats taken"])
def test_the_start_button_shows_once_the_start_is_possible(creator, as_creator, filled_by):
    table = lobby.create_private_table(
        created_by=creator,
        preset="classique",
        target=1000,
        fill_with_bots=filled_by == "bots at the start",
    )
    if filled_by == "four seats taken":
        for position in (0, 1, 3):
            lobby.set_bot(table=table, by=creator, position=position, level="random")

    page = as_creator.get(url("table", table)).text

    assert "Commencer la partie" in page
    assert f'action="{url("start", table)}"' in page
    assert "invitez des joueurs ou mettez des robots" not in page


def test_no_start_button_without_any_player_seated(as_creator, table):
    as_creator.post(url("leave_seat", table))
    for position in (0, 1, 3):
        lobby.set_bot(table=table, by=table.created_by, position=position, level="random")

    page = as_creator.get(url("table", table)).text

    assert "Commencer la partie" not in page
    assert "Au moins un joueur doit être assis." in page


# ---------------------------------------------------------------------------------------
# The new-table form without JavaScript: "Afficher les options de ces règles"


def test_showing_the_options_without_javascript_keeps_what_was_entered(as_creator):
    create = reverse("games:create")
    page = as_creator.get(create).text
    button = page.split("Afficher les options de ces règles")[0].rsplit("<button", 1)[1]
    assert 'name="show_options"' in button
    assert "formmethod" not in button  # a GET would put the CSRF token in the address

    response = as_creator.post(
        create,
        {
            "csrfmiddlewaretoken": "x",
            "show_options": "1",
            "preset": "moderne",
            "target": "501",  # not a target of moderne: its default is kept
            "announces": "off",  # an option of classique: not moderne's
            "pace": "async",
            "async_hours": "48",
            "live_seconds": "90",
            "seat": "0",
            "fill_with_bots": "on",
            "bot_level": "random",
            "allow_spectators": "on",
        },
    )

    assert response.status_code == 200
    assert not Table.objects.exists()
    shown = FormState(response.text)
    assert "redeal_main_nulle" in shown.values and "announces" not in shown.values
    assert shown.values["preset"] == "moderne"
    assert shown.values["target"] == "1000"  # moderne's default
    assert shown.values["pace"] == "async"
    assert shown.values["async_hours"] == "48"
    assert shown.values["live_seconds"] == "90"
    assert shown.values["seat"] == "0"
    assert shown.values["bot_level"] == "random"
    assert shown.values["fill_with_bots"] == "on"
    assert shown.values["allow_spectators"] == "on"
    assert shown.values["csrfmiddlewaretoken"] != "x"  # a fresh token, not the posted one
    assert 'class="form-errors"' not in response.text  # nothing checked yet


class FormState(HTMLParser):
    """What a page's form fields show: name -> value (checked radio or checkbox, selected
    option, or the input's value)."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.select: str | None = None
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.values[name] = attrs.get("value") or "on"
                else:
                    self.values.setdefault(name, "")
            else:
                self.values[name] = attrs.get("value", "")
        elif tag == "select":
            self.select = name
            self.values.setdefault(name, "")
        elif tag == "option" and self.select and "selected" in attrs:
            self.values[self.select] = attrs.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
