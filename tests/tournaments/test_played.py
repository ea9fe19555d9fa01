"""Whole tournaments of eight pairs played to the end, every move chosen by the heuristic
bot for the seated player and submitted through games.tables.service (games to 500 points, see
tests/tournaments/helpers.py), round after round as the service pairs them.

The standings are recomputed here from the match rows; the Swiss never pairs two teams
twice; the knockout's winner is the final's; every table has the tournament's rules.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Pace, Table, Tournament
from games.rules import PRESETS
from games.tables.verification import verify_table
from games.tournaments.selectors import tournament_standings
from tests.tables.helpers import client_for
from tests.tournaments.helpers import (
    expected_standings,
    make_club,
    make_organiser,
    make_tournament,
    matches_of,
    members,
    play_round,
    play_tournament,
    register_pairs,
    started,
)

pytestmark = pytest.mark.django_db


def check_tables(tournament: Tournament) -> None:
    """Every match's table: the tournament's rules and clock, its club, team one N-S."""
    rules = PRESETS[tournament.preset].with_options(**tournament.options)
    for match in matches_of(tournament):
        if match.team_two_id is None:
            assert match.table is None
            continue
        table = match.table
        assert table.preset == tournament.preset
        assert table.rules == rules
        assert (table.pace, table.move_seconds) == (tournament.pace, tournament.move_seconds)
        assert table.club_id == tournament.club_id
        assert table.created_by is None
        seats = {s.position: s.user_id for s in table.seats.all()}
        one, two = match.team_one, match.team_two
        assert (seats[0], seats[2]) == (one.player_one_id, one.player_two_id)
        assert (seats[1], seats[3]) == (two.player_one_id, two.player_two_id)


def check_results(tournament: Tournament) -> None:
    """Each played match took its game: the winner and the score of the table's game."""
    for match in matches_of(tournament):
        if match.team_two_id is None:
            assert (match.result, match.winner_id) == ("bye", match.team_one_id)
            continue
        game = match.table.games.get()
        assert match.table.status == Table.Status.FINISHED
        assert verify_table(match.table) == []
        assert match.result == "played"
        assert (match.score_one, match.score_two) == (game.score_ns, game.score_ew)
        assert match.winner_id == (match.team_one_id if game.winner == 0 else match.team_two_id)


def test_a_swiss_of_eight_pairs_played_to_the_end():
    tournament, _ = started(Tournament.Format.SWISS, teams=8, rounds=3)

    rounds_seen = []
    while tournament.status != Tournament.Status.FINISHED:
        current = tournament.round_set.order_by("-number").first()
        assert current.finished_at is None
        assert current.matches.count() == 4
        rounds_seen.append(current.number)
        play_round(tournament)
        tournament.refresh_from_db()

    assert rounds_seen == [1, 2, 3]
    assert tournament.finished_at is not None
    matches = matches_of(tournament)
    assert len(matches) == 12
    meetings = [frozenset((m.team_one_id, m.team_two_id)) for m in matches]
    assert len(set(meetings)) == 12, "no two teams met twice"
    for number in (1, 2, 3):
        teams = [t for m in matches if m.round.number == number for t in m.team_ids]
        assert sorted(teams) == sorted(tournament.teams.values_list("pk", flat=True))
    check_tables(tournament)
    check_results(tournament)
    standings = tournament_standings(tournament)
    assert [row.team.pk for row in standings] == expected_standings(tournament)
    assert sum(row.line.wins for row in standings) == 12
    assert all(r.finished_at is not None for r in tournament.round_set.all())


def test_a_knockout_of_eight_pairs_played_to_the_end():
    """Started from the admin action by the club's organiser."""
    club = make_club()
    organiser = make_organiser(club)
    tournament = make_tournament(club, Tournament.Format.KNOCKOUT)
    register_pairs(tournament, members(club, 16))
    started = client_for(organiser).post(
        reverse("admin:games_tournament_changelist"),
        {"action": "start", "_selected_action": [tournament.pk]},
    )
    assert started.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    seeds = dict(tournament.teams.values_list("seed", "pk"))
    first = [(m.team_one_id, m.team_two_id) for m in matches_of(tournament)]
    assert first == [
        (seeds[1], seeds[8]),
        (seeds[4], seeds[5]),
        (seeds[2], seeds[7]),
        (seeds[3], seeds[6]),
    ]

    play_tournament(tournament)

    matches = matches_of(tournament)
    by_round = {n: [m for m in matches if m.round.number == n] for n in (1, 2, 3)}
    assert [len(by_round[n]) for n in (1, 2, 3)] == [4, 2, 1]
    for number in (2, 3):
        earlier = [m.winner_id for m in by_round[number - 1]]
        assert [t for m in by_round[number] for t in m.team_ids] == earlier
    final = by_round[3][0]
    standings = tournament_standings(tournament)
    assert standings[0].team.pk == final.winner_id
    assert standings[1].team.pk == final.loser_id
    assert {row.team.pk for row in standings[2:4]} == {m.loser_id for m in by_round[2]}
    assert [row.team.pk for row in standings] == expected_standings(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    check_tables(tournament)
    check_results(tournament)


def test_tables_use_a_live_clock_when_the_tournament_is_live():
    tournament, _ = started(
        Tournament.Format.KNOCKOUT, teams=2, pace=Pace.LIVE, move_seconds=90, preset="moderne"
    )
    check_tables(tournament)
    assert matches_of(tournament)[0].table.status == Table.Status.PLAYING
