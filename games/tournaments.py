"""Tournaments: registration, the rounds and their tables, results, deadlines.

The only write path of tournament rows, a sibling of ``games.service`` with the same
discipline: keyword-only functions, one transaction each, the tournament row locked
(``select_for_update``), ``ServiceError`` (a code, a French message, an HTTP status)
for anything refused, and then nothing is written. Pairing itself is pure
(games/pairing.py); here rows become pairs and pairs become matches and tables.

- **Who.** Only the club's members register, as a pair (the partner, named by username,
  must be a member too and not registered yet) or alone; either player of a team may
  withdraw it before the start. Everything else is the organisers' (``accounts.clubs
  .manages``: the club's owners and organisers, and superusers), from the admin.
- **Start.** Needs two complete teams. Players still alone (``pair_singles`` pairs them
  in registration order, or shuffled by a seed) are removed at the start, and the
  report names them. Seeds are renumbered 1..n: the organiser's seeds first, then the
  others in registration order.
- **Rounds.** Each match gets its table at once, created and started through
  ``games.service`` with the tournament's rules, pace and time per move, in the club:
  team one North-South, team two East-West. A bye has no table and counts as a win.
  When the last match of a round is decided the next round is paired, or the
  tournament is over: a Swiss after ``rounds`` rounds, a round robin after everyone met
  everyone, a knockout when one team is left.
- **Results** come from the game (``game_finished``, called by games/results.py inside
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
import random
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.clubs import manages, membership_of
from accounts.models import user_named
from games import pairing, service
from games.models import (
    ASYNC_MOVE_SECONDS,
    LIVE_MOVE_SECONDS,
    ROUND_HOURS,
    Action,
    Game,
    Pace,
    Table,
    Tournament,
    TournamentMatch,
    TournamentRound,
    TournamentTeam,
)
from games.rules import InvalidOptions, rules_for
from games.service import ServiceError

logger = logging.getLogger(__name__)

MIN_TEAMS = 2
TEAM_NAME_LENGTH = TournamentTeam._meta.get_field("name").max_length
NORTH, EAST, SOUTH, WEST = range(4)


@dataclass(frozen=True)
class StartReport:
    tournament: Tournament
    removed: list[str]  # the players still alone, removed at the start


@dataclass(frozen=True)
class PairingReport:
    pairs: int  # teams completed
    left_alone: str | None  # the odd player out, if any


# ---------------------------------------------------------------------------------------
# Registration (the club's members)


@transaction.atomic
def register(
    *, tournament: Tournament, user, partner_username: str = "", name: str = ""
) -> TournamentTeam:
    """Register ``user`` with the partner named ``partner_username``, or alone."""
    tournament = _lock(tournament.pk)
    _check_registration_open(tournament)
    if not _is_member(user, tournament):
        raise ServiceError(
            "not_member",
            _("Seuls les membres du club %(club)s peuvent s'inscrire.") % {"club": tournament.club},
            403,
        )
    if team_of(tournament, user) is not None:
        raise ServiceError(
            "already_registered", _("Votre inscription à ce tournoi est déjà faite."), 409
        )
    name = (name or "").strip()
    if len(name) > TEAM_NAME_LENGTH:
        raise ServiceError(
            "bad_team_name",
            _("Le nom d'équipe ne doit pas dépasser %(n)s caractères.") % {"n": TEAM_NAME_LENGTH},
        )
    partner = _partner(tournament, user, (partner_username or "").strip())
    return TournamentTeam.objects.create(
        tournament=tournament, player_one=user, player_two=partner, name=name
    )


@transaction.atomic
def withdraw(*, tournament: Tournament, user) -> None:
    """Either player withdraws their team (both players) before the start."""
    tournament = _lock(tournament.pk)
    team = team_of(tournament, user)
    if team is None:
        raise ServiceError("not_registered", _("Vous ne participez pas à ce tournoi."), 409)
    _check_registration_open(tournament)
    team.delete()


def _partner(tournament: Tournament, user, username: str):
    if not username:
        return None
    partner = user_named(username)
    if partner is None:
        raise ServiceError(
            "unknown_user", _("Aucun joueur ne s'appelle « %(name)s ».") % {"name": username}
        )
    if partner.pk == user.pk:
        raise ServiceError("self_partner", _("Choisissez un partenaire autre que vous-même."))
    if not _is_member(partner, tournament):
        raise ServiceError(
            "partner_not_member",
            _("%(name)s n'est pas membre du club %(club)s.")
            % {"name": partner, "club": tournament.club},
        )
    if team_of(tournament, partner) is not None:
        raise ServiceError(
            "partner_registered",
            _("%(name)s participe déjà à ce tournoi.") % {"name": partner},
            409,
        )
    return partner


# ---------------------------------------------------------------------------------------
# The organisers


@transaction.atomic
def pair_singles(*, tournament: Tournament, by, seed: int | None = None) -> PairingReport:
    """Give the players registered alone a partner: two by two in registration order,
    or in an order shuffled by ``seed`` (the same seed, the same pairs)."""
    tournament = _organised(tournament, by)
    _check_registration_open(tournament)
    singles = list(
        tournament.teams.filter(player_two__isnull=True)
        .select_related("player_one")
        .order_by("registered_at", "pk")
    )
    if len(singles) < 2:
        raise ServiceError(
            "no_singles", _("Il n'y a pas deux joueurs inscrits seuls à apparier."), 409
        )
    if seed is not None:
        random.Random(seed).shuffle(singles)
    pairs = len(singles) // 2
    for first, second in zip(singles[0::2], singles[1::2], strict=False):
        partner = second.player_one
        second.delete()
        first.player_two = partner
        first.save(update_fields=["player_two"])
    left = singles[-1] if len(singles) % 2 else None
    return PairingReport(pairs=pairs, left_alone=None if left is None else str(left.player_one))


@transaction.atomic
def set_seeds(*, tournament: Tournament, by, order: list[int]) -> None:
    """Seed the teams in ``order`` (team ids, the strongest first) before the start."""
    tournament = _organised(tournament, by)
    _check_registration_open(tournament)
    teams = {team.pk: team for team in tournament.teams.all()}
    if sorted(order) != sorted(teams):
        raise ServiceError("bad_seeds", _("Donnez un ordre qui contient chaque équipe une fois."))
    for seed, pk in enumerate(order, start=1):
        teams[pk].seed = seed
    TournamentTeam.objects.bulk_update(teams.values(), ["seed"])


@transaction.atomic
def start(*, tournament: Tournament, by) -> StartReport:
    """Close the registrations, seed the teams, pair the first round and open its tables."""
    tournament = _organised(tournament, by)
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
        raise _not_organiser(tournament)
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
    if tournament.format == Tournament.Format.SWISS:
        most = max_swiss_rounds(teams)
        if not tournament.rounds or not 1 <= tournament.rounds <= most:
            raise ServiceError(
                "bad_rounds",
                _("Un système suisse à %(teams)s équipes se joue en 1 à %(most)s rondes.")
                % {"teams": teams, "most": most},
            )


def round_hours_refusal() -> str:
    """Why a round length is refused, in the admin form (the database refuses it too)."""
    return _("Une ronde dure d'une heure à %(days)s jours (%(hours)s heures).") % {
        "days": ROUND_HOURS[1] // 24,
        "hours": ROUND_HOURS[1],
    }


def max_swiss_rounds(teams: int) -> int:
    """As many rounds as a round robin of as many teams: beyond, a repeat is certain."""
    return teams - 1 if teams % 2 == 0 else teams


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
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds or 0
    if tournament.format == Tournament.Format.KNOCKOUT:
        return pairing.knockout_round_count(teams)
    return len(pairing.round_robin_schedule(list(range(teams))))


def _next_pairs(tournament: Tournament, number: int) -> list[pairing.Pair] | None:
    """The pairs of round ``number``, or None when the tournament is over."""
    teams = list(tournament.teams.order_by("seed", "pk"))
    if number > planned_rounds(tournament, len(teams)):
        return None
    ids = [team.pk for team in teams]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return pairing.round_robin_schedule(ids)[number - 1]
    if tournament.format == Tournament.Format.SWISS:
        entrants = [pairing.Team(team.pk, team.seed) for team in teams]
        return pairing.swiss_pairs(entrants, history(tournament))
    if number == 1:
        return pairing.knockout_first_round(ids)
    winners = list(
        TournamentMatch.objects.filter(round__tournament=tournament, round__number=number - 1)
        .order_by("position")
        .values_list("winner_id", flat=True)
    )
    return pairing.knockout_next_round(winners) if len(winners) > 1 else None


def history(tournament: Tournament) -> list[pairing.Match]:
    """Every match of the tournament so far, as games.pairing reads them."""
    rows = TournamentMatch.objects.filter(round__tournament=tournament).order_by(
        "round__number", "position"
    )
    return [
        pairing.Match(m.team_one_id, m.team_two_id, m.winner_id, m.score_one, m.score_two)
        for m in rows
    ]


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

    Called by games.service inside the transaction that ends the game, the table locked;
    the table row's new status may not be saved yet, so only the game is read.
    """
    match = TournamentMatch.objects.filter(table_id=game.table_id, result="").first()
    if match is None:
        return
    tournament_id = TournamentRound.objects.values_list("tournament_id", flat=True).get(
        pk=match.round_id
    )
    tournament = _lock(tournament_id)
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
        tables = {pk: service._lock(pk) for pk in table_ids}  # tables first, then the tournament
        round_ = TournamentRound.objects.get(pk=round_id)
        tournament = _lock(round_.tournament_id)
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


# ---------------------------------------------------------------------------------------
# Helpers


def _lock(tournament_id: int) -> Tournament:
    try:
        return (
            Tournament.objects.select_for_update(of=("self",))
            .select_related("club")
            .get(pk=tournament_id)
        )
    except Tournament.DoesNotExist as error:
        raise ServiceError("no_tournament", _("Ce tournoi n'existe pas."), 404) from error


def _organised(tournament: Tournament, by) -> Tournament:
    """The locked tournament, if ``by`` runs its club."""
    tournament = _lock(tournament.pk)
    if not manages(by, tournament.club):
        raise _not_organiser(tournament)
    return tournament


def _not_organiser(tournament: Tournament) -> ServiceError:
    return ServiceError(
        "not_organiser",
        _("Seuls les organisateurs du club %(club)s peuvent faire cela.")
        % {"club": tournament.club},
        403,
    )


def _check_registration_open(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTRATION:
        raise ServiceError(
            "registration_closed", _("Les inscriptions à ce tournoi sont closes."), 409
        )


def _is_member(user, tournament: Tournament) -> bool:
    return membership_of(user, tournament.club) is not None


def team_of(tournament: Tournament, user) -> TournamentTeam | None:
    """The user's team in the tournament, as player one or two."""
    if not getattr(user, "is_authenticated", False):
        return None
    teams = tournament.teams.select_related("player_one", "player_two")
    return teams.filter(Q(player_one=user) | Q(player_two=user)).first()


__all__ = [
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
