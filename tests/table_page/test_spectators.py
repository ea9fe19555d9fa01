"""Spectators: "Spectators allowed by the table creator see the table without any hand."

With ``allow_spectators`` any logged-in user with the table's address watches: the board
from nobody's seat (``view(state, None)``), no card of any hand, no move possible. Without
it, the table does not exist for them (404).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import lobby
from games import rules as engine
from games.forms import TableForm
from tests.table_page.helpers import (
    board_of,
    client_for,
    play,
    play_first_legal,
    snapshot,
    state_of,
    take_at_once,
    text_of,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def watched(start):
    return start(spectators=True)


def test_a_spectator_sees_the_board_without_any_hand(watched, outsider, players):
    take_at_once(watched)
    play_first_legal(watched, 2)
    state = state_of(watched)
    played = {engine.code_of(c) for c in state.trick}

    for path in (url("table", watched), url("board", watched)):
        response = client_for(outsider).get(path)
        assert response.status_code == 200
        board = board_of(response)
        assert set(board.cards) == played
        assert board.card_buttons == {} and board.action_buttons == {}
        page = text_of(response)
        assert 'id="my-hand"' not in page
        assert "Vous regardez la partie en spectateur" in page
        # Every seat shows its backs, South at the bottom.
        assert {s: a["data-place"] for s, a in board.seats.items()}["S"] == "bottom"
        assert page.count('class="backs"') == 4


def test_a_spectator_cannot_play(watched, outsider):
    before = snapshot(watched)

    response = play(client_for(outsider), watched, "pass")

    assert response.status_code == 403
    assert snapshot(watched) == before


def test_without_spectators_an_outsider_gets_a_404(table, outsider):
    client = client_for(outsider)

    assert client.get(url("table", table)).status_code == 404
    assert client.get(url("board", table)).status_code == 404
    assert client.get(url("hand", table, 1, 1)).status_code == 404


def test_the_invitation_link_of_a_started_table_lets_a_spectator_watch(watched, outsider):
    response = client_for(outsider).get(url("join", watched, watched.invite_token))

    assert response.status_code == 302
    assert response.url == url("table", watched)


def test_the_invitation_link_of_a_closed_table_says_it_has_started(table, outsider):
    response = client_for(outsider).get(url("join", table, table.invite_token))

    assert response.status_code == 200
    assert "La partie a déjà commencé" in text_of(response)


def test_the_creator_lets_spectators_in_from_the_lobby(creator, outsider):
    table = lobby.create_private_table(created_by=creator, preset="classique", target=1000)
    client = client_for(creator)
    assert 'id="allow-spectators"' in client.get(url("table", table)).text
    assert client_for(outsider).get(url("table", table)).status_code == 404

    response = client.post(url("spectators", table), {"allowed": "on"})

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.allow_spectators
    assert table.actions.last().kind == "spectators"
    # A spectator in the lobby sees the seats but none of the lobby's forms.
    page = text_of(client_for(outsider).get(url("table", table)))
    assert "S'asseoir ici" not in page
    assert table.invite_token not in page

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
