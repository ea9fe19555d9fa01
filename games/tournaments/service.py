"""Tournaments: registration, the rounds and their tables, results, deadlines.

The only write path of tournament rows, a sibling of ``games.tables.service`` with the same
discipline: keyword-only functions, one transaction each, the tournament row locked
(``select_for_update``), ``ServiceError`` (a code, a French message, an HTTP status)
for anything refused, and then nothing is written. Pairing itself is pure, each format
in its module (games/tournaments/formats/); here rows become pairs and pairs become
matches and tables. What happens before the start (registering, withdrawing, pairing the
players alone, seeding) is in games/tournaments/registration.py, and re-exported here:
callers use this module for the whole write path.

- **Who.** Only the club's members register, as a pair (the partner, named by username,
  must be a member too and not registered yet) or alone; either player of a team may
  withdraw it before the start. Everything else is the organisers' (``accounts.clubs.service
  .manages``: the club's owners and organisers, and superusers), from the admin.
- **Start.** Needs two complete teams. Players still alone (``pair_singles`` pairs them
  in registration order, or shuffled by a seed) are removed at the start, and the
  report names them. Seeds are renumbered 1..n: the organiser's seeds first, then the
  others in registration order.
- **Rounds.** Each match gets its table at once, created and started through
  ``games.tables.service`` with the tournament's rules, pace and time per move, in the club:
  team one North-South, team two East-West. A bye has no table and counts as a win.
  When the last match of a round is decided the next round is paired, or the
  tournament is over: a Swiss after ``rounds`` rounds, a round robin after everyone met
  everyone, a knockout when one team is left.
- **Results** come from the game (``game_finished``, called by games/tables/results.py inside
  the transaction that ends it): the winning team and the game score; "forfeit" when
  the game was lost on time at the table. Only a match's first game counts.
- **Deadlines.** A round lasts ``round_hours``, from one hour to 90 days
  (``ROUND_HOURS``). Past its deadline ``sweep_round_deadlines`` (the ``belote_sweep``
  command) decides every unfinished match by forfeit, and an organiser may close the
  round earlier (``close_round``) by the same rule: the team with more timeouts on its
  two seats loses; equal, the team behind in the game score loses; still equal, the
  better seed (smaller number) wins. The match keeps the score as it stood and its
  table is abandoned (``service.abandon_table``).

Locks are taken in one order everywhere, the tables of a round before their tournament,
as ``game_finished`` is called with its table already locked: two tables finishing
together, or a table finishing while the round is closed, wait for each other instead
of deadlocking.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.clubs.service import manages
from games.rules import InvalidOptions, rules_for
from games.tables import service
from games.tables.models import ASYNC_MOVE_SECONDS, LIVE_MOVE_SECONDS, Action, Game, Pace, Table
from games.tables.service import ServiceError
from games.tournaments import pairing
from games.tournaments.formats import format_of
from games.tournaments.formats.base import matches_of
from games.tournaments.guards import lock_tournament, not_organiser, organised, team_of
from games.tournaments.models import (
    ROUND_HOURS,
    Tournament,
    TournamentMatch,
    TournamentRound,
    TournamentTeam,
)
from games.tournaments.registration import (
    TEAM_NAME_LENGTH,
    PairingReport,
    pair_singles,
    register,
    set_seeds,
    withdraw,
)

logger = logging.getLogger(__name__)

MIN_TEAMS = 2
NORTH, EAST, SOUTH, WEST = range(4)


@dataclass(frozen=True)
class StartReport:
    tournament: Tournament
    removed: list[str]  # the players still alone, removed at the start


@transaction.atomic
def start(*, tournament: Tournament, by) -> StartReport:
    """Close the registrations, seed the teams, pair the first round and open its tables."""
    tournament = organised(tournament, by)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise ServiceError("already_started", _("Le tournoi a déjà commencé."), 409)
    teams = list(tournament.teams.filter(player_two__isnull=False))
    if len(teams) < MIN_TEAMS:
        raise ServiceError(
            "too_few_teams", _("Il faut au moins deux équipes complètes pour commencer."), 409
        )
    _check_settings(tournament, len(teams))
    alone = list(tournament.teams.filter(player_two__isnull=True).select_related("player_one"))
    removed = [str(team.player_one) for team in alone]
    TournamentTeam.objects.filter(pk__in=[team.pk for team in alone]).delete()
    _renumber_seeds(teams)
    now = timezone.now()
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    _open_round(tournament, 1, _next_pairs(tournament, 1), now)
    return StartReport(tournament=tournament, removed=removed)


def close_round(*, tournament: Tournament, by) -> TournamentRound:
    """The organiser ends the current round now: its unfinished matches are decided by
    forfeit (the rule of the module docstring) and the next round is paired."""
    if not manages(by, tournament.club):
        raise not_organiser(tournament)
    current = (
        TournamentRound.objects.filter(tournament=tournament, finished_at__isnull=True)
        .order_by("-number")
        .first()
    )
    if tournament.status != Tournament.Status.RUNNING or current is None:
        raise ServiceError("not_running", _("Le tournoi n'a pas de ronde en cours."), 409)
    closed = _close_round(current.pk, timezone.now(), overdue_only=False)
    if closed is None:
        raise ServiceError("round_over", _("Cette ronde est déjà terminée."), 409)
    return closed


def _check_settings(tournament: Tournament, teams: int) -> None:
    """What the admin form checks too, checked again at the start (the form is not the
    only way to write a tournament row)."""
    try:
        rules_for(tournament.preset, tournament.options)
    except (InvalidOptions, KeyError, TypeError) as error:
        raise ServiceError("invalid_options", _("Options invalides : %s") % error) from error
    low, high = LIVE_MOVE_SECONDS if tournament.pace == Pace.LIVE else ASYNC_MOVE_SECONDS
    if not low <= tournament.move_seconds <= high:
        raise ServiceError("bad_move_time", _("Ce temps par coup n'est pas permis pour ce rythme."))
    refusal = format_of(tournament.format).rounds_refusal(teams, tournament.rounds)
    if refusal is not None:
        raise ServiceError("bad_rounds", refusal)


def round_hours_refusal() -> str:
    """Why a round length is refused, in the admin form (the database refuses it too)."""
    return _("Une ronde dure d'une heure à %(days)s jours (%(hours)s heures).") % {
        "days": ROUND_HOURS[1] // 24,
        "hours": ROUND_HOURS[1],
    }


def _renumber_seeds(teams: list[TournamentTeam]) -> None:
    """Seeds 1..n: the organiser's seeds in their order, then the unseeded teams in
    registration order."""
    teams.sort(key=lambda t: (t.seed is None, t.seed or 0, t.registered_at, t.pk))
    for seed, team in enumerate(teams, start=1):
        team.seed = seed
    TournamentTeam.objects.bulk_update(teams, ["seed"])


# ---------------------------------------------------------------------------------------
# Rounds and their tables


def planned_rounds(tournament: Tournament, teams: int) -> int:
    """How many rounds the tournament takes with ``teams`` teams."""
    return format_of(tournament.format).planned_rounds(teams, tournament.rounds)


def _next_pairs(tournament: Tournament, number: int) -> list[pairing.Pair] | None:
    """The pairs of round ``number``, or None when the tournament is over."""
    teams = list(tournament.teams.order_by("seed", "pk"))
    if number > planned_rounds(tournament, len(teams)):
        return None
    entrants = [pairing.Team(team.pk, team.seed) for team in teams]
    return format_of(tournament.format).pairs(number, entrants, played(tournament))


def played(tournament: Tournament) -> dict[int, list[pairing.Match]]:
    """Every match of the tournament so far by round number, as the formats read them."""
    rows = TournamentMatch.objects.filter(round__tournament=tournament).order_by(
        "round__number", "position"
    )
    rounds: dict[int, list[pairing.Match]] = {}
    for m in rows.values_list(
        "round__number", "team_one_id", "team_two_id", "winner_id", "score_one", "score_two"
    ):
        rounds.setdefault(m[0], []).append(pairing.Match(*m[1:]))
    return rounds


def history(tournament: Tournament) -> list[pairing.Match]:
    """Every match of the tournament so far, round after round (for the standings)."""
    return matches_of(played(tournament))


def _open_round(
    tournament: Tournament, number: int, pairs: list[pairing.Pair], now: datetime.datetime
) -> TournamentRound:
    """The round's rows: a match per pair in board order (in a knockout, per bracket
    slot), each with its table started, a bye decided at once."""
    deadline = now + datetime.timedelta(hours=tournament.round_hours)
    round_ = TournamentRound.objects.create(tournament=tournament, number=number, deadline=deadline)
    teams = {team.pk: team for team in tournament.teams.select_related("player_one", "player_two")}
    for position, (one, two) in enumerate(pairs, start=1):
        if two is None:
            TournamentMatch.objects.create(
                round=round_,
                position=position,
                team_one_id=one,
                winner_id=one,
                result=TournamentMatch.Result.BYE,
                finished_at=now,
            )
            continue
        table = _open_table(tournament, teams[one], teams[two])
        TournamentMatch.objects.create(
            round=round_, position=position, team_one_id=one, team_two_id=two, table=table
        )
    _advance(tournament, round_, now)  # a round of byes alone would be over already
    return round_


def _open_table(tournament: Tournament, one: TournamentTeam, two: TournamentTeam) -> Table:
    """A started table of the club for one match, nobody's creation: team one at North
    and South, team two at East and West, the tournament's rules and clock."""
    players = {
        NORTH: one.player_one,
        SOUTH: one.player_two,
        EAST: two.player_one,
        WEST: two.player_two,
    }
    table = service.create_table(
        created_by=None, preset=tournament.preset, options=tournament.options, players=players
    )
    table.pace = tournament.pace
    table.move_seconds = tournament.move_seconds
    table.club = tournament.club
    table.save(update_fields=["pace", "move_seconds", "club"])
    service.start_table(table_id=table.pk)
    return table


def _advance(tournament: Tournament, round_: TournamentRound, now: datetime.datetime) -> None:
    """Once every match of the round is decided: pair the next one, or finish."""
    if round_.finished_at is not None or round_.matches.filter(result="").exists():
        return
    round_.finished_at = now
    round_.save(update_fields=["finished_at"])
    pairs = _next_pairs(tournament, round_.number + 1)
    if pairs is None:
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        return
    _open_round(tournament, round_.number + 1, pairs, now)


# ---------------------------------------------------------------------------------------
# Results


def game_finished(game: Game) -> None:
    """A game ended (target reached, or lost on time): if its table is a tournament
    match's, the match takes the result and the round may be over.

    Called by games.tables.service inside the transaction that ends the game, the table locked;
    the table row's new status may not be saved yet, so only the game is read.
    """
    match = TournamentMatch.objects.filter(table_id=game.table_id, result="").first()
    if match is None:
        return
    tournament_id = TournamentRound.objects.values_list("tournament_id", flat=True).get(
        pk=match.round_id
    )
    tournament = lock_tournament(tournament_id)
    match = TournamentMatch.objects.select_related("round").get(pk=match.pk)
    if match.finished or game.winner is None:
        return
    lost_on_time = Action.objects.filter(hand__game=game, kind="forfeit").exists()
    result = TournamentMatch.Result.FORFEIT if lost_on_time else TournamentMatch.Result.PLAYED
    at = game.finished_at or timezone.now()
    _decide(match, game.winner, game.scores, result, at)
    _advance(tournament, match.round, at)


def _decide(match: TournamentMatch, side: int, scores: tuple[int, int], result: str, at) -> None:
    """Record the match: ``side`` 0 (team one, North-South) or 1 won, with ``scores``."""
    match.winner_id = match.team_one_id if side == 0 else match.team_two_id
    match.score_one, match.score_two = scores
    match.result = result
    match.finished_at = at
    match.save(update_fields=["winner", "score_one", "score_two", "result", "finished_at"])


# ---------------------------------------------------------------------------------------
# Deadlines


def sweep_round_deadlines(now: datetime.datetime | None = None) -> int:
    """Close every round past its deadline (the forfeit rule of the module docstring)
    and pair the next; returns how many rounds closed. A second run does nothing more:
    a closed round is finished, and the next one's deadline is ``round_hours`` away."""
    now = now or timezone.now()
    due = TournamentRound.objects.filter(
        finished_at__isnull=True,
        deadline__lte=now,
        tournament__status=Tournament.Status.RUNNING,
    )
    closed = 0
    for round_id in list(due.order_by("deadline", "pk").values_list("pk", flat=True)):
        try:
            closed += _close_round(round_id, now, overdue_only=True) is not None
        except Exception:  # one broken tournament must not stop the others
            logger.exception("sweep: closing round %s failed", round_id)
    return closed


def _close_round(
    round_id: int, now: datetime.datetime, *, overdue_only: bool
) -> TournamentRound | None:
    """Decide the round's unfinished matches by forfeit, abandon their tables and pair
    the next round; None if the round is over already (or, with ``overdue_only``, not
    past its deadline any more)."""
    with transaction.atomic():
        table_ids = sorted(
            TournamentMatch.objects.filter(
                round_id=round_id, result="", table__isnull=False
            ).values_list("table_id", flat=True)
        )
        tables = {
            pk: service.lock_table(pk) for pk in table_ids
        }  # tables first, then the tournament
        round_ = TournamentRound.objects.get(pk=round_id)
        tournament = lock_tournament(round_.tournament_id)
        round_.refresh_from_db()
        if round_.finished_at is not None or tournament.status != Tournament.Status.RUNNING:
            return None
        if overdue_only and (round_.deadline is None or round_.deadline > now):
            return None
        unfinished = round_.matches.filter(result="").select_related("team_one", "team_two")
        for match in unfinished:
            table = tables.get(match.table_id)
            side, scores = forfeit_winner(match, table)
            _decide(match, side, scores, TournamentMatch.Result.FORFEIT, now)
            if table is not None:
                service.abandon_table(table_id=table.pk, reason="tournament_deadline")
        _advance(tournament, round_, now)
    return round_


def forfeit_winner(match: TournamentMatch, table: Table | None) -> tuple[int, tuple[int, int]]:
    """Who wins an unfinished match at the deadline (0 team one, 1 team two), and the
    game score kept: fewer timeouts on the team's seats, else ahead in the game, else
    the better seed."""
    scores = (0, 0)
    timeouts = [0, 0]
    if table is not None:
        for seat in table.seats.all():
            timeouts[seat.position % 2] += seat.timeouts
        hand = table.current_hand
        if hand is not None:
            scores = hand.game.scores
    if timeouts[0] != timeouts[1]:
        return (0 if timeouts[0] < timeouts[1] else 1), scores
    if scores[0] != scores[1]:
        return (0 if scores[0] > scores[1] else 1), scores
    better_one = (match.team_one.seed or 0) <= (match.team_two.seed or 0)
    return (0 if better_one else 1), scores


__all__ = [
    "TEAM_NAME_LENGTH",
    "PairingReport",
    "close_round",
    "game_finished",
    "pair_singles",
    "register",
    "set_seeds",
    "start",
    "sweep_round_deadlines",
    "team_of",
    "withdraw",
]
