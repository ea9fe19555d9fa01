"""Helpers of the tournament tests: a club with members, tournaments, registered pairs,
the bot that plays every seat of a table, and standings recomputed on the test's side.

Tournament games are played to 500 points (the lowest target the engine allows,
``options={"target": 500}``) rather than the classique 1000: half the hands, and the
rules are the same otherwise.
"""

from __future__ import annotations

import random
from collections import defaultdict

from django.db.models import Q

from accounts.models import Club, Membership
from games.bots import choose_action
from games.models import Pace, Table, Tournament, TournamentMatch, TournamentTeam
from games.tables import service
from games.tables.selectors import hand_state
from games.tournaments import service as tournaments
from tests.factories import make_user

FAST = {"target": 500}


def make_club(name: str = "Club de la Place") -> Club:
    slug = name.lower().replace(" ", "-")
    return Club.objects.create(name=name, slug=slug)


def join(club: Club, user, role: str = Membership.Role.MEMBER) -> Membership:
    return Membership.objects.create(club=club, user=user, role=role)


def members(club: Club, count: int, prefix: str = "joueur") -> list:
    users = [make_user(f"{prefix}{i:02d}") for i in range(1, count + 1)]
    for user in users:
        join(club, user)
    return users


def make_organiser(club: Club, username: str = "orga", *, staff: bool = True):
    user = make_user(username, is_staff=staff)
    join(club, user, Membership.Role.ORGANISER)
    return user


def make_tournament(club: Club, format: str = Tournament.Format.SWISS, **fields) -> Tournament:
    fields.setdefault("name", f"Tournoi {format}")
    fields.setdefault("preset", "classique")
    fields.setdefault("options", dict(FAST))
    fields.setdefault("pace", Pace.ASYNC)
    fields.setdefault("move_seconds", 3600)
    fields.setdefault("round_hours", 48)
    if format == Tournament.Format.SWISS:
        fields.setdefault("rounds", 3)
    return Tournament.objects.create(club=club, format=format, **fields)


def register_pairs(tournament: Tournament, users: list) -> list[TournamentTeam]:
    """Users two by two, each pair registered by its first player."""
    return [
        tournaments.register(
            tournament=tournament, user=users[i], partner_username=users[i + 1].username
        )
        for i in range(0, len(users) - 1, 2)
    ]


def started(
    format: str = Tournament.Format.SWISS, teams: int = 8, **fields
) -> tuple[Tournament, object]:
    """A started tournament of ``teams`` pairs of members; returns it and its organiser."""
    club = make_club()
    organiser = make_organiser(club)
    tournament = make_tournament(club, format, **fields)
    register_pairs(tournament, members(club, 2 * teams))
    tournaments.start(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    return tournament, organiser


# ---------------------------------------------------------------------------------------
# Playing


def play_table(table: Table, seed: int = 0, max_moves: int = 20_000) -> Table:
    """The heuristic bot chooses every move of the table, each submitted through
    ``games.tables.service.submit`` on behalf of the user seated at the seat to act."""
    rng = random.Random(seed)
    users = {seat.position: seat.user for seat in table.seats.select_related("user")}
    for _ in range(max_moves):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return table
        state = hand_state(table)
        action = choose_action(state, "heuristic", rng)
        outcome = service.submit(
            table_id=table.pk,
            actor=users[state.turn],
            action=action,
            expected_version=table.version,
        )
        assert outcome.applied
    raise AssertionError(f"table {table.pk} still playing after {max_moves} moves")


def current_matches(tournament: Tournament) -> list[TournamentMatch]:
    return list(
        TournamentMatch.objects.filter(
            round__tournament=tournament, round__finished_at__isnull=True, result=""
        ).select_related("table")
    )


def play_round(tournament: Tournament) -> int:
    """Play every unfinished table of the current round to the end; returns how many."""
    matches = current_matches(tournament)
    for match in matches:
        play_table(match.table, seed=match.pk)
    return len(matches)


def play_tournament(tournament: Tournament, max_rounds: int = 20) -> Tournament:
    for _ in range(max_rounds):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
        assert play_round(tournament), "a running tournament has a table to play"
    raise AssertionError("the tournament did not finish")


# ---------------------------------------------------------------------------------------
# Checking


def matches_of(tournament: Tournament) -> list[TournamentMatch]:
    return list(
        TournamentMatch.objects.filter(round__tournament=tournament)
        .select_related("round", "table")
        .order_by("round__number", "position")
    )


def expected_standings(tournament: Tournament) -> list[int]:
    """Team ids in the order the standings must have, computed here from the match rows:
    a point a win (a bye is a win), then the sum of the points of the teams met, then
    the game points difference, then the seed."""
    points: dict[int, int] = defaultdict(int)
    met: dict[int, list[int]] = defaultdict(list)
    difference: dict[int, int] = defaultdict(int)
    for match in matches_of(tournament):
        points[match.winner_id] += 1
        if match.team_two_id is None:
            continue
        met[match.team_one_id].append(match.team_two_id)
        met[match.team_two_id].append(match.team_one_id)
        difference[match.team_one_id] += match.score_one - match.score_two
        difference[match.team_two_id] += match.score_two - match.score_one
    teams = list(tournament.teams.all())
    buchholz = {team.pk: sum(points[o] for o in met[team.pk]) for team in teams}
    teams.sort(key=lambda t: (-points[t.pk], -buchholz[t.pk], -difference[t.pk], t.seed, t.pk))
    return [team.pk for team in teams]


def team_of_user(tournament: Tournament, user) -> TournamentTeam | None:
    return tournament.teams.filter(Q(player_one=user) | Q(player_two=user)).first()
