"""The header's status badge follows the game: the board, whenever it comes alone (a
move's answer, a push, a refetch), brings the badge with it, swapped out of band by htmx;
and a tournament table offers no "Revanche" (lobby.rematch refuses it)."""

from __future__ import annotations

import re

import pytest

from games.models import Table, Tournament
from tests.factories import play_to_the_end
from tests.table_page.helpers import board_of, client_for, text_of, url
from tests.tournaments.helpers import matches_of, play_table, started

pytestmark = pytest.mark.django_db

N, E, S, W = range(4)
BADGE = re.compile(
    r'<span class="badge badge-(\w+)" id="table-status"( hx-swap-oob="true")?>([^<]*)<'
)


def badges(response) -> list[tuple[str, bool, str]]:
    return [(status, bool(oob), text) for status, oob, text in BADGE.findall(text_of(response))]


def test_the_page_has_one_badge_and_the_board_alone_brings_it_out_of_band(table, players):
    client = client_for(players[S])

    assert badges(client.get(url("table", table))) == [("playing", False, "En cours")]
    assert badges(client.get(url("board", table))) == [("playing", True, "En cours")]


def test_the_last_move_answers_the_finished_badge_and_the_rematch_the_running_one(start, players):
    table = play_to_the_end(start("belote_com"), seed=2)
    client = client_for(players[S])
    assert table.status == Table.Status.FINISHED

    board = client.get(url("board", table))
    assert badges(board) == [("finished", True, "Terminée")]
    assert board_of(board).action_buttons == {"rematch": True}

    answer = client.post(
        url("play", table),
        {"action": "rematch", "version": table.version},
        headers={"HX-Request": "true"},
    )

    assert answer.status_code == 200
    assert badges(answer) == [("playing", True, "En cours")]


def test_a_finished_tournament_table_offers_no_rematch():
    tournament, _ = started(Tournament.Format.KNOCKOUT, teams=2)
    table = play_table(matches_of(tournament)[0].table)
    seated = table.seats.get(position=N).user

    board = client_for(seated).get(url("board", table))

    assert "Vous avez" in text_of(board)  # the end of the game, from a player's seat
    assert badges(board) == [("finished", True, "Terminée")]
    assert board_of(board).action_buttons == {}
    assert 'data-action="rematch"' not in text_of(board)
