"""Starting a table: four seats filled, or free seats given to bots if the table says so."""

import pytest

from games.models import Action, Table
from games.tables import lobby
from games.tables.verification import verify_table
from tests.tables.helpers import client_for, invite, seat_holders, snapshot, url

pytestmark = pytest.mark.django_db

N, E, S, W = range(4)


def test_the_creator_starts_once_four_seats_are_filled(as_creator, table, alice):
    invite(table, alice)
    lobby.take_seat(table=table, user=alice, position=N)
    lobby.set_bot(table=table, by=table.created_by, position=E, level="random")
    lobby.set_bot(table=table, by=table.created_by, position=W, level="heuristic")

    response = as_creator.post(url("start", table))

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.turn is not None
    assert Action.objects.filter(table=table).last().kind == "start"
    page = as_creator.get(url("table", table)).text
    assert "La partie commence !" in page
    assert 'id="board"' in page
    assert "Nord-Sud" in page
    assert "Commencer la partie" not in page


def test_a_free_seat_keeps_the_table_in_the_lobby(as_creator, table):
    lobby.set_bot(table=table, by=table.created_by, position=E, level="random")
    before = snapshot(table)

    response = as_creator.post(url("start", table))

    assert response.status_code == 409
    assert "Il faut quatre joueurs ou robots pour commencer." in response.text
    assert snapshot(table) == before


def test_free_seats_take_bots_of_the_table_level_when_it_says_so(as_creator, creator):
    table = lobby.create_private_table(
        created_by=creator,
        preset="belote_com",
        target=501,
        fill_with_bots=True,
        bot_level="random",
    )
    assert "seront prises par des robots" in as_creator.get(url("table", table)).text

    response = as_creator.post(url("start", table))

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert seat_holders(table) == ["random", "random", "claire", "random"]
    kinds = list(Action.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds == ["set_bot", "set_bot", "set_bot", "start"]
    assert table.version == 4


def test_a_table_of_bots_alone_does_not_start(as_creator, creator):
    table = lobby.create_private_table(
        created_by=creator, preset="classique", target=1000, fill_with_bots=True
    )
    lobby.leave_seat(table=table, user=creator)
    before = snapshot(table)

    response = as_creator.post(url("start", table))

    assert response.status_code == 409
    assert snapshot(table) == before


def test_only_the_creator_starts(table, alice):
    invite(table, alice)
    lobby.take_seat(table=table, user=alice, position=N)
    for position in (E, W):
        lobby.set_bot(table=table, by=table.created_by, position=position, level="random")
    before = snapshot(table)

    response = client_for(alice).post(url("start", table))

    assert response.status_code == 403
    assert "Seul le créateur de la table peut faire cela." in response.text
    assert snapshot(table) == before


def test_a_table_starts_once(as_creator, table):
    for position in (N, E, W):
        lobby.set_bot(table=table, by=table.created_by, position=position, level="random")
    as_creator.post(url("start", table))
    before = snapshot(table)

    response = as_creator.post(url("start", table))

    assert response.status_code == 409
    assert "La partie a déjà commencé." in response.text
    assert snapshot(table) == before


def test_the_log_of_a_table_started_from_the_lobby_still_verifies(creator):
    table = lobby.create_private_table(
        created_by=creator, preset="classique", target=1000, fill_with_bots=True
    )
    lobby.start(table=table, by=creator)
    table.refresh_from_db()

    assert verify_table(table) == []
    assert table.version == 4  # three bots seated, then the deal
