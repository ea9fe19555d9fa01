"""Round robins and byes, through the service: everyone meets everyone once, the odd team
out of a round gets a bye (no table, a win), a knockout's byes go to the top seeds.

The round robin of four is played by the bot (games to 500); the longer ones are moved
on by the organiser closing each round (forfeits by the deadline rule), which pairs the
same way and keeps these tests quick.
"""

from __future__ import annotations

import itertools

import pytest

from games.models import Table, Tournament, TournamentMatch
from games.tournaments import service as tournaments
from games.tournaments.selectors import tournament_standings
from tests.tournaments.helpers import expected_standings, matches_of, play_tournament, started

pytestmark = pytest.mark.django_db


def close_every_round(tournament: Tournament, organiser) -> None:
    for _ in range(20):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return
        tournaments.close_round(tournament=tournament, by=organiser)
    raise AssertionError("the tournament did not finish")


def meetings(tournament: Tournament) -> list[frozenset]:
    return [
        frozenset((m.team_one_id, m.team_two_id))
        for m in matches_of(tournament)
        if m.team_two_id is not None
    ]


def test_a_round_robin_of_four_played_to_the_end():
    tournament, _ = started(Tournament.Format.ROUND_ROBIN, teams=4)

    play_tournament(tournament)

    team_ids = list(tournament.teams.values_list("pk", flat=True))
    assert sorted(map(sorted, meetings(tournament))) == sorted(
        map(sorted, itertools.combinations(team_ids, 2))
    )
    assert tournament.round_set.count() == 3
    assert all(m.result == TournamentMatch.Result.PLAYED for m in matches_of(tournament))
    standings = tournament_standings(tournament)
    assert [row.team.pk for row in standings] == expected_standings(tournament)
    assert sum(row.line.wins for row in standings) == 6


def test_a_round_robin_of_five_gives_each_team_one_bye():
    tournament, organiser = started(Tournament.Format.ROUND_ROBIN, teams=5)

    close_every_round(tournament, organiser)

    team_ids = sorted(tournament.teams.values_list("pk", flat=True))
    assert len(meetings(tournament)) == len(set(meetings(tournament))) == 10
    byes = [m for m in matches_of(tournament) if m.team_two_id is None]
    assert sorted(m.team_one_id for m in byes) == team_ids
    for bye in byes:
        assert (bye.result, bye.winner_id, bye.table) == ("bye", bye.team_one_id, None)
        assert bye.position == 3  # after the two matches of its round
    assert tournament.round_set.count() == 5
    for round_ in tournament.round_set.all():
        teams = [t for m in round_.matches.all() for t in m.team_ids]
        assert sorted(teams) == team_ids


def test_a_swiss_with_an_odd_number_of_teams_gives_distinct_byes():
    tournament, organiser = started(Tournament.Format.SWISS, teams=5, rounds=4)

    close_every_round(tournament, organiser)

    byes = [m.team_one_id for m in matches_of(tournament) if m.team_two_id is None]
    assert len(byes) == len(set(byes)) == 4
    assert len(set(meetings(tournament))) == len(meetings(tournament)) == 8
    assert not Table.objects.filter(status=Table.Status.PLAYING).exists()


def test_a_swiss_bye_goes_first_to_the_lowest_seed():
    tournament, _ = started(Tournament.Format.SWISS, teams=5, rounds=2)

    (bye,) = [m for m in matches_of(tournament) if m.team_two_id is None]

    assert bye.team_one.seed == 5


def test_a_knockout_of_six_gives_byes_to_the_top_two_seeds_then_plays_on():
    tournament, organiser = started(Tournament.Format.KNOCKOUT, teams=6)
    seed = {team.pk: team.seed for team in tournament.teams.all()}

    first = [
        (seed[m.team_one_id], m.team_two_id and seed[m.team_two_id]) for m in matches_of(tournament)
    ]
    assert first == [(1, None), (4, 5), (2, None), (3, 6)]
    assert Table.objects.count() == 2

    close_every_round(tournament, organiser)

    by_round = [
        list(r.matches.order_by("position")) for r in tournament.round_set.order_by("number")
    ]
    assert [len(r) for r in by_round] == [4, 2, 1]
    assert [t for m in by_round[1] for t in m.team_ids] == [m.winner_id for m in by_round[0]]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_knockout_of_two_is_one_final():
    tournament, organiser = started(Tournament.Format.KNOCKOUT, teams=2)

    close_every_round(tournament, organiser)

    assert tournament.round_set.count() == 1
