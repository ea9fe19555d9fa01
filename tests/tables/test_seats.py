"""Seats in the lobby: invitees pick a free seat, the creator moves players and sets bots.

Partners face each other: North with South, East with West.
"""

import pytest

from games.models import Action
from games.tables import lobby
from tests.tables.helpers import client_for, invite, seat_holders, snapshot, url

pytestmark = pytest.mark.django_db

N, E, S, W = range(4)


@pytest.fixture
def as_alice(table, alice):
    invite(table, alice)
    return client_for(alice)


def test_an_invitee_takes_a_free_seat(as_alice, table):
    response = as_alice.post(url("take_seat", table), {"position": N})

    assert response.status_code == 302
    assert seat_holders(table) == ["alice", None, "claire", None]
    assert "Vous avez pris cette place." in as_alice.get(url("table", table)).text
    action = Action.objects.filter(table=table).last()
    assert (action.kind, action.seat, action.actor.username) == ("take_seat", N, "alice")


def test_a_seated_invitee_moves_to_another_free_seat(as_alice, table):
    as_alice.post(url("take_seat", table), {"position": N})
    as_alice.post(url("take_seat", table), {"position": E})

    assert seat_holders(table) == [None, "alice", "claire", None]


def test_a_taken_seat_is_refused(as_alice, table):
    before = snapshot(table)

    response = as_alice.post(url("take_seat", table), {"position": S})

    assert response.status_code == 409
    assert "Cette place est déjà prise." in response.text
    assert snapshot(table) == before


@pytest.mark.parametrize("position", ["", "4", "-1", "nord"])
def test_a_seat_that_does_not_exist_is_refused(as_alice, table, position):
    before = snapshot(table)

    response = as_alice.post(url("take_seat", table), {"position": position})

    assert response.status_code == 422
    assert snapshot(table) == before


def test_a_player_leaves_their_seat(as_alice, table):
    as_alice.post(url("take_seat", table), {"position": W})

    response = as_alice.post(url("leave_seat", table))

    assert response.status_code == 302
    assert seat_holders(table) == [None, None, "claire", None]


def test_leaving_without_a_seat_is_refused(as_alice, table):
    assert as_alice.post(url("leave_seat", table)).status_code == 409


def test_the_creator_swaps_two_players(as_creator, as_alice, table):
    as_alice.post(url("take_seat", table), {"position": E})

    response = as_creator.post(url("move_player", table), {"from_position": S, "to_position": E})

    assert response.status_code == 302
    assert seat_holders(table) == [None, "claire", "alice", None]


def test_the_creator_moves_a_player_to_a_free_seat_and_a_bot_around(as_creator, table):
    lobby.set_bot(table=table, by=table.created_by, position=W, level="random")

    as_creator.post(url("move_player", table), {"from_position": S, "to_position": N})
    as_creator.post(url("move_player", table), {"from_position": W, "to_position": E})

    assert seat_holders(table) == ["claire", "random", None, None]


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"from_position": N, "to_position": N}, 422, "Choisissez deux places différentes."),
        ({"from_position": N, "to_position": E}, 409, "Personne n'est assis à la place de départ."),
        ({"from_position": S, "to_position": 7}, 422, "Sélectionnez un choix valide"),
    ],
)
def test_bad_moves_are_refused(as_creator, table, data, status, message):
    before = snapshot(table)

    response = as_creator.post(url("move_player", table), data)

    assert response.status_code == status
    assert message in response.text.replace("&#x27;", "'")
    assert snapshot(table) == before


def test_only_the_creator_moves_players(as_alice, table):
    as_alice.post(url("take_seat", table), {"position": N})
    before = snapshot(table)

    response = as_alice.post(url("move_player", table), {"from_position": S, "to_position": E})

    assert response.status_code == 403
    assert snapshot(table) == before


def test_the_creator_puts_a_bot_and_removes_it(as_creator, table):
    response = as_creator.post(url("set_bot", table), {"position": E, "level": "heuristic"})
    assert response.status_code == 302
    assert seat_holders(table) == [None, "heuristic", "claire", None]

    as_creator.post(url("set_bot", table), {"position": E, "level": "random"})
    assert seat_holders(table) == [None, "random", "claire", None]

    response = as_creator.post(url("remove_bot", table), {"position": E})
    assert response.status_code == 302
    assert seat_holders(table) == [None, None, "claire", None]
    kinds = list(Action.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds == ["set_bot", "set_bot", "remove_bot"]
    table.refresh_from_db()
    assert table.version == 3


@pytest.mark.parametrize(
    ("action", "data", "status"),
    [
        ("set_bot", {"position": S, "level": "random"}, 409),  # a player sits there
        ("set_bot", {"position": N, "level": "genius"}, 422),
        ("remove_bot", {"position": N}, 409),  # no bot there
        ("remove_bot", {"position": S}, 409),
    ],
)
def test_bad_bot_requests_are_refused(as_creator, table, action, data, status):
    before = snapshot(table)

    response = as_creator.post(url(action, table), data)

    assert response.status_code == status
    assert snapshot(table) == before


def test_only_the_creator_sets_bots(as_alice, table):
    lobby.set_bot(table=table, by=table.created_by, position=W, level="random")
    before = snapshot(table)

    set_bot = as_alice.post(url("set_bot", table), {"position": N, "level": "random"})
    remove_bot = as_alice.post(url("remove_bot", table), {"position": W})

    assert (set_bot.status_code, remove_bot.status_code) == (403, 403)
    assert snapshot(table) == before


def test_the_page_draws_the_four_seats_with_their_actions(as_creator, as_alice, table):
    lobby.set_bot(table=table, by=table.created_by, position=W, level="random")

    creator_page = as_creator.get(url("table", table)).text
    for position in range(4):
        assert f'class="seat seat-{position}' in creator_page
    assert "Mettre un robot" in creator_page
    assert "Retirer le robot" in creator_page
    assert "Échanger deux places" in creator_page
    # Two seats free and no bots to fill them: no start button, but what is missing.
    assert "Commencer la partie" not in creator_page
    assert "Il reste 2 places libres : invitez des joueurs ou mettez des robots." in creator_page

    invitee_page = as_alice.get(url("table", table)).text
    assert "S'asseoir ici" in invitee_page
    assert "Mettre un robot" not in invitee_page
    assert "Commencer la partie" not in invitee_page


def test_seats_cannot_change_once_the_game_has_started(as_creator, as_alice, table):
    as_alice.post(url("take_seat", table), {"position": N})
    for position in (E, W):
        lobby.set_bot(table=table, by=table.created_by, position=position, level="random")
    lobby.start(table=table, by=table.created_by)
    before = snapshot(table)

    responses = [
        as_alice.post(url("leave_seat", table)),
        as_alice.post(url("take_seat", table), {"position": E}),
        as_creator.post(url("remove_bot", table), {"position": E}),
        as_creator.post(url("move_player", table), {"from_position": S, "to_position": N}),
    ]

    assert [r.status_code for r in responses] == [409] * 4
    assert all("La partie a déjà commencé." in r.text for r in responses)
    assert snapshot(table) == before
