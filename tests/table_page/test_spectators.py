"""Spectators: "Spectators allowed by the table creator see the table without any hand."

A private table never opens to a stranger (table ids are sequential: anyone could walk
/tables/N/). With ``allow_spectators``, whoever opens the invitation link once the game
has started becomes a spectator: recorded as an invitation by the link, they watch the
board from nobody's seat (``view(state, None)``), no card of any hand, no move possible;
renewing the link sends them away. Without it, the link after the start only says that
the game has started, and everyone else gets a 404.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules as engine
from games.models import Invitation
from games.tables import lobby, service
from games.tables.forms import TableForm
from tests.factories import fixed_deck
from tests.table_page.helpers import (
    board_of,
    client_for,
    play,
    play_first_legal,
    snapshot,
    spectator_client,
    state_of,
    take_at_once,
    text_of,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def watched(start):
    return start(spectators=True)


def assert_shows_no_hand(response, state) -> None:
    """Only the cards on the table, every seat's backs, no hand and no button."""
    assert response.status_code == 200
    board = board_of(response)
    assert set(board.cards) == {engine.code_of(c) for c in state.trick}
    assert board.card_buttons == {} and board.action_buttons == {}
    page = text_of(response)
    assert 'id="my-hand"' not in page
    assert page.count('class="backs"') == 4


def test_a_stranger_does_not_see_a_table_open_to_spectators(watched, outsider):
    take_at_once(watched)
    play_first_legal(watched, 2)
    client = client_for(outsider)

    for path in (url("table", watched), url("board", watched), url("hand", watched, 1, 1)):
        response = client.get(path)
        assert response.status_code == 404, path
        assert watched.invite_token not in response.text
    assert play(client, watched, "pass").status_code == 404
    # Walking the sequential ids finds nothing either.
    for table_id in range(max(1, watched.pk - 2), watched.pk + 3):
        assert client.get(reverse("games:table", args=[table_id])).status_code == 404


def test_the_invitation_link_of_a_started_table_makes_a_spectator(watched, outsider):
    before = snapshot(watched)
    client = client_for(outsider)

    # Opening the link asks first: a GET writes nothing (link previews, mail scanners).
    page = client.get(url("join", watched, watched.invite_token))
    assert page.status_code == 200
    assert "Regarder la partie" in page.text
    assert not Invitation.objects.filter(user=outsider).exists()
    response = client.post(url("join", watched, watched.invite_token))

    assert response.status_code == 302
    assert response.url == url("table", watched)
    invitation = Invitation.objects.get(table=watched, user=outsider)
    assert invitation.via == Invitation.Via.LINK
    # Not a change of the game: the version (and every move sent at it) stays valid.
    assert snapshot(watched) == before
    page = text_of(client_for(outsider).get(url("table", watched)))
    assert "Vous regardez la partie en spectateur : aucune main n'est montrée." in page
    dashboard = text_of(client_for(outsider).get(reverse("games:list")))
    assert "vous regardez en spectateur" in dashboard


def test_a_spectator_sees_the_board_without_any_hand(watched, outsider):
    spectator = spectator_client(outsider, watched)
    take_at_once(watched)
    play_first_legal(watched, 2)
    state = state_of(watched)

    for path in (url("table", watched), url("board", watched)):
        response = spectator.get(path)
        assert_shows_no_hand(response, state)
        assert "Vous regardez la partie en spectateur" in text_of(response)
        # South at the bottom: the spectator sits nowhere.
        seats = board_of(response).seats
        assert {s: a["data-place"] for s, a in seats.items()}["S"] == "bottom"
    # Coming back by the link goes straight to the table, and records nothing more.
    assert spectator.get(url("join", watched, watched.invite_token)).url == url("table", watched)
    assert Invitation.objects.filter(table=watched).count() == 1


def test_a_spectator_cannot_play(watched, outsider):
    spectator = spectator_client(outsider, watched)
    before = snapshot(watched)

    response = play(spectator, watched, "pass")

    assert response.status_code == 403
    assert snapshot(watched) == before


def test_an_invitee_without_a_seat_sees_no_hand_once_started(players, creator, outsider):
    """Invited by name in the lobby, never seated: once dealt, a spectator like the others."""
    table = service.create_table(
        created_by=creator, preset="classique", players=dict(enumerate(players))
    )
    lobby.invite_user(table=table, by=creator, username=outsider.username)
    service.start_table(table_id=table.pk, first_dealer=0, deck=fixed_deck(0))
    take_at_once(table)
    play_first_legal(table, 1)
    state = state_of(table)
    client = client_for(outsider)

    for path in (url("table", table), url("board", table)):
        assert_shows_no_hand(client.get(path), state)
    assert play(client, table, "pass").status_code == 403


def test_without_spectators_an_outsider_gets_a_404(table, outsider):
    client = client_for(outsider)

    assert client.get(url("table", table)).status_code == 404
    assert client.get(url("board", table)).status_code == 404
    assert client.get(url("hand", table, 1, 1)).status_code == 404


def test_without_spectators_the_link_of_a_started_table_says_so_and_nothing_more(
    table, outsider, creator
):
    client = client_for(outsider)
    before = snapshot(table)

    response = client.get(url("join", table, table.invite_token))

    assert response.status_code == 200
    page = text_of(response)
    assert "La partie a déjà commencé : il n'est plus possible de la rejoindre." in page
    # Nothing of the table: neither its number, nor its creator, nor its rules.
    assert f"n° {table.pk}" not in page
    assert creator.username not in page
    assert "Belote classique" not in page
    assert "Rejoindre la table" not in page
    assert client.post(url("join", table, table.invite_token)).status_code == 409
    assert snapshot(table) == before
    assert not Invitation.objects.filter(user=outsider).exists()
    assert client.get(url("table", table)).status_code == 404


def test_renewing_the_link_sends_the_spectators_away(watched, outsider, creator, players):
    old = watched.invite_token
    spectator = spectator_client(outsider, watched)
    as_creator = client_for(creator)
    assert f"/rejoindre/{old}/" in as_creator.get(url("table", watched)).text
    before = snapshot(watched)

    response = as_creator.post(url("revoke_link", watched), headers={"hx-request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="spectator-link"')
    watched.refresh_from_db()
    assert watched.invite_token != old
    assert f"/rejoindre/{watched.invite_token}/" in response.text
    assert snapshot(watched) == before  # no version: the game goes on
    assert not Invitation.objects.filter(user=outsider).exists()
    assert spectator.get(url("table", watched)).status_code == 404
    assert spectator.get(url("join", watched, old)).status_code == 404
    assert client_for(players[0]).get(url("table", watched)).status_code == 200
    # The new link lets them in again.
    spectator_client(outsider, watched)


def test_only_the_creator_sees_and_renews_the_spectators_link(watched, table, creator, players):
    page = client_for(creator).get(url("table", watched)).text
    assert 'id="spectator-link"' in page
    # Without spectators, the link of a started table is of no use: not shown.
    assert 'id="spectator-link"' not in client_for(creator).get(url("table", table)).text
    player_page = client_for(players[0]).get(url("table", watched)).text
    assert watched.invite_token not in player_page
    before = snapshot(watched)

    response = client_for(players[0]).post(url("revoke_link", watched))

    assert response.status_code == 403
    assert snapshot(watched) == before
    watched.refresh_from_db()
    assert watched.invite_token in page


def test_the_creator_lets_spectators_in_from_the_lobby(creator, outsider):
    table = lobby.create_private_table(created_by=creator, preset="classique", target=1000)
    client = client_for(creator)
    assert 'id="allow-spectators"' in client.get(url("table", table)).text

    response = client.post(url("spectators", table), {"allowed": "on"})

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.allow_spectators
    assert table.actions.last().kind == "spectators"
    # Spectators only come by the link once the game has started: in the lobby a stranger
    # still finds nothing.
    response = client_for(outsider).get(url("table", table))
    assert response.status_code == 404
    assert table.invite_token not in response.text

    client.post(url("spectators", table), {}, headers={"hx-request": "true"})
    table.refresh_from_db()
    assert not table.allow_spectators


def test_only_the_creator_changes_the_spectators(creator, players):
    table = lobby.create_private_table(created_by=creator, preset="classique", target=1000)
    lobby.invite_user(table=table, by=creator, username=players[0].username)
    before = snapshot(table)

    response = client_for(players[0]).post(url("spectators", table), {"allowed": "on"})

    assert response.status_code == 403
    assert snapshot(table) == before


def test_the_new_table_form_has_the_spectators_checkbox(creator):
    page = client_for(creator).get(reverse("games:create")).text
    assert 'name="allow_spectators"' in page

    form = TableForm(
        {
            "preset": "classique",
            "target": "1000",
            "pace": "live",
            "live_seconds": "120",
            "seat": "2",
            "bot_level": "heuristic",
            "announces": "off",
            "allow_spectators": "on",
        }
    )
    assert form.is_valid(), form.errors
    table = lobby.create_private_table(created_by=creator, **form.table_kwargs())
    assert table.allow_spectators
