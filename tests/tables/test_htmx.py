"""htmx requests get the fragment of the page they act on, errors included; plain POSTs a
redirect with a message (the forms work without JavaScript)."""

import pytest

from games import lobby
from games.models import Table
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
    assert 'role="status"' in html and "Vous êtes assis." in html
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
    assert "alice est invité à la table." in response.text


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
