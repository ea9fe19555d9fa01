"""Reads of the tournament pages: its standings, its rounds, the knockout bracket and
the round-by-round grid (round robin and Swiss).

A tournament is public to logged-in users, like the club page that lists it
(accounts/clubs/views.py): its rules, teams, rounds, results and standings; only the
club's members register. Its tables keep their own rule (games/tables/selectors.py): the four
players seated at a match see it, and the page links only to the tables the viewer may
open; everybody else follows the results here.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace

from django.db.models import Count, F, OuterRef, Q, Subquery
from django.utils.translation import gettext as _

from games.tables.access import visible_tables
from games.tournaments import pairing
from games.tournaments.formats.knockout import bracket_size, knockout_round_count
from games.tournaments.models import Tournament, TournamentMatch, TournamentRound, TournamentTeam
from games.tournaments.service import history, planned_rounds

UNSEEDED = 10_000  # before the start, teams without a seed rank after the seeded ones


# ---------------------------------------------------------------------------------------
# The home page


@dataclass(frozen=True)
class NextRound:
    tournament: Tournament
    label: str  # the round in play ("Ronde 2", "Finale"), or "" before the start
    deadline: datetime.datetime | None  # when the round in play ends


def club_rounds(user, *, limit: int) -> list[NextRound]:
    """The tournaments of ``user``'s clubs not finished yet, with their round in play:
    the running ones first (the round ending soonest first), then those taking
    registrations (at most ``limit``; a fixed number of queries)."""
    open_round = TournamentRound.objects.filter(
        tournament=OuterRef("pk"), finished_at__isnull=True
    ).order_by("-number")
    tournaments = (
        Tournament.objects.filter(club__memberships__user=user)
        .exclude(status=Tournament.Status.FINISHED)
        .select_related("club")
        .annotate(
            round_number=Subquery(open_round.values("number")[:1]),
            round_deadline=Subquery(open_round.values("deadline")[:1]),
            team_count=Count("teams", distinct=True),
        )
        .order_by(
            "-status",  # "running" before "registration"
            F("round_deadline").asc(nulls_last=True),
            "-created_at",
        )[:limit]
    )
    rows = []
    for tournament in tournaments:
        label = ""
        if tournament.round_number is not None:
            total = planned_rounds(tournament, tournament.team_count)
            label = round_label(tournament, tournament.round_number, total)
        rows.append(NextRound(tournament, label, tournament.round_deadline))
    return rows


def teams_of(tournament: Tournament) -> list[TournamentTeam]:
    return list(tournament.teams.select_related("player_one", "player_two"))


# ---------------------------------------------------------------------------------------
# Standings


@dataclass(frozen=True)
class StandingRow:
    team: TournamentTeam
    line: pairing.Standing


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """The teams best first, by the rules of games/tournaments/pairing.py (``standings``)."""
    teams = {team.pk: team for team in teams_of(tournament)}
    entrants = [pairing.Team(pk, team.seed or UNSEEDED) for pk, team in teams.items()]
    return [
        StandingRow(team=teams[line.team], line=line)
        for line in pairing.standings(entrants, history(tournament))
    ]


# ---------------------------------------------------------------------------------------
# Rounds


@dataclass(frozen=True)
class RoundView:
    round: TournamentRound
    label: str
    matches: list[TournamentMatch]

    @property
    def finished(self) -> bool:
        return self.round.finished_at is not None


def round_label(tournament: Tournament, number: int, total: int) -> str:
    """ "Ronde 2", or the round's own name in its format ("Finale", ...)."""
    return tournament.formula.round_name(number, total) or _("Ronde %(n)s") % {"n": number}


def total_rounds(tournament: Tournament) -> int:
    return planned_rounds(tournament, tournament.teams.count())


def rounds_of(tournament: Tournament) -> list[RoundView]:
    """Every round played or in play, with its matches (teams, players and table)."""
    total = total_rounds(tournament)
    matches: dict[int, list[TournamentMatch]] = {}
    rows = (
        TournamentMatch.objects.filter(round__tournament=tournament)
        .select_related(
            "team_one__player_one",
            "team_one__player_two",
            "team_two__player_one",
            "team_two__player_two",
            "table",
        )
        .order_by("round__number", "position")
    )
    for match in rows:
        matches.setdefault(match.round_id, []).append(match)
    return [
        RoundView(
            round=round_,
            label=round_label(tournament, round_.number, total),
            matches=matches.get(round_.pk, []),
        )
        for round_ in tournament.round_set.order_by("number")
    ]


def current_round(tournament: Tournament) -> TournamentRound | None:
    return tournament.round_set.filter(finished_at__isnull=True).order_by("-number").first()


def openable_tables(user, tournament: Tournament) -> set[int]:
    """The tournament's tables ``user`` may open (their own, and whatever the tables'
    visibility rules give them: the club's members see its tables); no link is offered to
    the others, who would get a 404."""
    of_tournament = Q(tournament_match__round__tournament=tournament)
    return set(visible_tables(user).filter(of_tournament).values_list("pk", flat=True))


# ---------------------------------------------------------------------------------------
# Knockout bracket


@dataclass(frozen=True)
class Slot:
    position: int
    match: TournamentMatch | None  # None: not paired yet


@dataclass(frozen=True)
class BracketColumn:
    number: int
    label: str
    slots: list[Slot]


def knockout_bracket(tournament: Tournament) -> list[BracketColumn]:
    """The bracket as columns, one a round, every slot shown (empty ones still to come)."""
    count = tournament.teams.count()
    size = bracket_size(max(count, 2))
    total = knockout_round_count(max(count, 2))
    by_round = {view.round.number: view for view in rounds_of(tournament)}
    columns = []
    for number in range(1, total + 1):
        view = by_round.get(number)
        played = {m.position: m for m in view.matches} if view else {}
        slots = [Slot(position=p, match=played.get(p)) for p in range(1, size // 2**number + 1)]
        columns.append(
            BracketColumn(number=number, label=round_label(tournament, number, total), slots=slots)
        )
    return columns


# ---------------------------------------------------------------------------------------
# Round-by-round grid (round robin, Swiss)


@dataclass(frozen=True)
class GridCell:
    match: TournamentMatch | None  # None: the team did not play that round (yet)
    opponent: TournamentTeam | None
    outcome: str  # "win", "loss", "bye", "pending" or "" (no match)
    score_for: int = 0
    score_against: int = 0
    label: str = ""  # the round's name: its column's, said again in the cell on a phone

    @property
    def forfeit(self) -> bool:
        return self.match is not None and self.match.result == TournamentMatch.Result.FORFEIT


@dataclass(frozen=True)
class GridRow:
    standing: StandingRow
    cells: list[GridCell]


def round_grid(tournament: Tournament) -> tuple[list[RoundView], list[GridRow]]:
    """One row a team (in standings order), one cell a round: opponent, result, score."""
    rounds = rounds_of(tournament)
    rows = []
    for standing in tournament_standings(tournament):
        team = standing.team.pk
        cells = []
        for view in rounds:
            match = next((m for m in view.matches if team in (m.team_one_id, m.team_two_id)), None)
            cells.append(replace(_cell(match, team), label=view.label))
        rows.append(GridRow(standing=standing, cells=cells))
    return rounds, rows


def _cell(match: TournamentMatch | None, team: int) -> GridCell:
    if match is None:
        return GridCell(match=None, opponent=None, outcome="")
    if match.team_two_id is None:
        return GridCell(match=match, opponent=None, outcome="bye")
    first = match.team_one_id == team
    opponent = match.team_two if first else match.team_one
    mine, theirs = (
        (match.score_one, match.score_two) if first else (match.score_two, match.score_one)
    )
    if not match.finished:
        return GridCell(match=match, opponent=opponent, outcome="pending")
    outcome = "win" if match.winner_id == team else "loss"
    return GridCell(
        match=match, opponent=opponent, outcome=outcome, score_for=mine, score_against=theirs
    )
