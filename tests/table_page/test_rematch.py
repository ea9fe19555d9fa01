"""Rematch: a finished table plays a new game (number + 1) with the same seats, the deal
passing on; one click of a seated player, logged and versioned like any change."""

from __future__ import annotations

import pytest

from games.models import Table
from games.rules.hand import next_dealer
from games.tables import lobby
from games.tables.service import ServiceError
from games.tables.verification import verify_table
from tests.factories import play_to_the_end
from tests.table_page.helpers import client_for, play, snapshot, text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(start):
    return play_to_the_end(start("belote_com"), seed=5)


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_seated_player_starts_the_rematch(finished, players, htmx):
    last = finished.current_hand
    seats = list(finished.seats.values_list("position", "user_id"))
    before = snapshot(finished)
    client = client_for(players[0])

    response = play(client, finished, "rematch", htmx=htmx)

    assert response.status_code == (200 if htmx else 302)
    finished.refresh_from_db()
    assert finished.status == Table.Status.PLAYING
    assert finished.version == before["version"] + 1
    game = finished.current_hand.game
    assert game.number == 2
    assert finished.current_hand.number == 1
    assert game.first_dealer == next_dealer(finished.rules, last.dealer)
    assert (game.score_ns, game.score_ew, game.winner) == (0, 0, None)
    assert list(finished.seats.values_list("position", "user_id")) == seats
    action = finished.actions.order_by("seq").last()
    assert (action.kind, action.payload) == ("rematch", {"game": 2, "dealer": game.first_dealer})
    assert verify_table(finished) == []
    if htmx:
        page = text_of(response)
        assert "Partie 2 (en 501)" in page
        assert "Parties précédentes" in page
    else:
        assert "La revanche commence !" in text_of(client.get(response.url))


def test_two_clicks_start_one_rematch(finished, players):
    version = finished.version
    play(client_for(players[0]), finished, "rematch", version=version)
    before = snapshot(finished)

    response = play(client_for(players[1]), finished, "rematch", version=version)

    assert response.status_code == 409
    assert snapshot(finished) == before
    assert finished.games.count() == 2


def test_only_a_seated_player_asks_for_a_rematch(finished, creator, outsider):
    before = snapshot(finished)

    assert play(client_for(creator), finished, "rematch").status_code == 403
    assert play(client_for(outsider), finished, "rematch").status_code == 404
    assert snapshot(finished) == before


def test_no_rematch_while_the_game_goes_on(table, players):
    before = snapshot(table)

    response = play(client_for(players[0]), table, "rematch")

    assert response.status_code == 409
    assert "La partie n'est pas terminée." in text_of(response)
    assert snapshot(table) == before


def test_rematch_is_a_lobby_function_with_the_same_checks(finished, players, creator):
    with pytest.raises(ServiceError) as refused:
        lobby.rematch(table_id=finished.pk, by=creator)
    assert refused.value.status == 403

    outcome = lobby.rematch(table_id=finished.pk, by=players[3], deck=list(range(32)))

    assert outcome.applied
    finished.refresh_from_db()
    assert finished.current_hand.deck.startswith("7S8S9S")
