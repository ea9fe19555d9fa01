"""Private tables before the deal: creating one, inviting, seating, bots, spectators and
the start; and once a game is over, the rematch (a new game with the same seats).

A sibling of ``games.tables.service`` with the same discipline: keyword-only functions, one
transaction each, the table row locked, one ``Action`` (and one version) per change of
the lobby and a broadcast once committed. Only the table's creator manages it
(invitations, moving players, bots, the start), and only in the lobby; its invitees
choose their own seats. Once started, the invitation link only lets spectators in (if
the creator allows them), and those comings and goings change no version.
Someone who may not see the table is told it does not exist (404), never that it is
forbidden.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Membership, user_named
from games.rules import PRESET_TARGETS, PRESETS
from games.rules.hand import next_dealer
from games.tables import service
from games.tables.access import may_see
from games.tables.catalogue import PRESET_OPTIONS
from games.tables.models import (
    ASYNC_MOVE_SECONDS,
    FORFEIT_AFTER,
    LIVE_MOVE_SECONDS,
    BotLevel,
    Invitation,
    Pace,
    Seat,
    Table,
    TimeoutPolicy,
    new_invite_token,
    seats_changed,
)
from games.tables.writes import (
    Outcome,
    ServiceError,
    append_action,
    begin_game,
    follow_up,
    lock_table,
    open_tables_changed,
)

SOUTH = 2


def move_seconds_range(pace: str) -> tuple[int, int]:
    return LIVE_MOVE_SECONDS if pace == Pace.LIVE else ASYNC_MOVE_SECONDS


# ---------------------------------------------------------------------------------------
# Creating a table


def create_private_table(
    *,
    created_by,
    preset: str,
    target: int,
    options: dict[str, Any] | None = None,
    pace: str = Pace.LIVE,
    move_seconds: int = 120,
    fill_with_bots: bool = False,
    bot_level: str = BotLevel.HEURISTIC,
    seat: int = SOUTH,
    allow_spectators: bool = False,
    timeout_policy: str = TimeoutPolicy.BOT,
    forfeit_after: int = 3,
    club=None,
    is_open: bool = False,
) -> Table:
    """A private table in the lobby, its creator seated at ``seat`` (South by default).

    With a ``club`` (one the creator belongs to) it is a club table: every member of the
    club sees it and may take a free seat without an invitation. ``is_open``: listed among
    the open tables while it waits (to the club's members only, for a club table), where
    any player who may see it takes a free seat (games/tables/open_tables.py).
    """
    if preset not in PRESETS:
        raise ServiceError("unknown_preset", _("Ces règles n'existent pas."))
    if target not in PRESET_TARGETS[preset]:
        raise ServiceError("bad_target", _("Ces règles ne se jouent pas dans ce nombre de points."))
    allowed = {option.name: option.choices for option in PRESET_OPTIONS[preset]}
    options = dict(options or {})
    for name, value in options.items():
        if name not in allowed or not any(
            value == c and type(value) is type(c) for c in allowed[name]
        ):
            raise ServiceError("bad_option", _("Cette option n'existe pas pour ces règles."))
    if pace not in Pace.values:
        raise ServiceError("bad_pace", _("Choisissez une partie en direct ou en différé."))
    low, high = move_seconds_range(pace)
    if type(move_seconds) is not int or not low <= move_seconds <= high:
        raise ServiceError("bad_move_time", _("Ce temps par coup n'est pas permis."))
    if bot_level not in BotLevel.values:
        raise ServiceError("unknown_bot", _("Ce niveau de robot n'existe pas."))
    if seat not in range(4):
        raise ServiceError("bad_seat", _("Cette place n'existe pas."))
    if timeout_policy not in TimeoutPolicy.values:
        raise ServiceError(
            "bad_timeout_policy", _("Choisissez ce qui se passe quand le temps est écoulé.")
        )
    if type(forfeit_after) is not int or not FORFEIT_AFTER[0] <= forfeit_after <= FORFEIT_AFTER[1]:
        raise ServiceError("bad_forfeit_after", forfeit_after_message())
    if club is not None and not Membership.objects.filter(club=club, user=created_by).exists():
        raise ServiceError("not_club_member", _("Vous n'êtes pas membre de ce club."), 403)
    with transaction.atomic():
        table = service.create_table(
            created_by=created_by,
            preset=preset,
            options={**options, "target": target},
            players={seat: created_by},
        )
        table.pace = pace
        table.move_seconds = move_seconds
        table.fill_with_bots = fill_with_bots
        table.bot_level = bot_level
        table.allow_spectators = bool(allow_spectators)
        table.timeout_policy = timeout_policy
        table.forfeit_after = forfeit_after
        table.club = club
        table.is_open = bool(is_open)
        table.opened_at = timezone.now() if is_open else None
        table.save(
            update_fields=[
                "club",
                "is_open",
                "opened_at",
                "pace",
                "move_seconds",
                "fill_with_bots",
                "bot_level",
                "allow_spectators",
                "timeout_policy",
                "forfeit_after",
            ]
        )
        open_tables_changed(table)
    return table


def forfeit_after_message() -> str:
    return _("Choisissez un nombre de dépassements entre %(low)s et %(high)s.") % {
        "low": FORFEIT_AFTER[0],
        "high": FORFEIT_AFTER[1],
    }


# ---------------------------------------------------------------------------------------
# Invitations


@transaction.atomic
def invite_user(*, table: Table, by, username: str) -> Invitation:
    """Invite a player by their username; only the creator invites."""
    table = _managed(table, by)
    username = (username or "").strip()
    invitee = user_named(username)
    if invitee is None:
        raise ServiceError(
            "unknown_user",
            _("Aucun joueur ne s'appelle « %(name)s ».") % {"name": username},
        )
    if invitee.pk == by.pk:
        raise ServiceError("self_invite", _("Vous êtes déjà à cette table."), 409)
    if table.seats.filter(user=invitee).exists():
        raise ServiceError(
            "already_seated",
            _("%(name)s a déjà une place à cette table.") % {"name": invitee},
            409,
        )
    if table.invitations.filter(user=invitee).exists():
        raise ServiceError(
            "already_invited", _("%(name)s a déjà reçu une invitation.") % {"name": invitee}, 409
        )
    invitation = Invitation.objects.create(
        table=table, user=invitee, invited_by=by, via=Invitation.Via.USERNAME
    )
    _record(table, by, "invite", {"user": invitee.pk, "via": Invitation.Via.USERNAME})
    return invitation


@transaction.atomic
def revoke_link(*, table: Table, by) -> str:
    """A new invitation link; whoever came by the old one and has no seat loses access.

    In the lobby, and once started at a table that lets spectators in: the creator then
    sends away the spectators who came by the old link. A started table's version only
    counts the game's moves (a move or a bot's task sent at version N must still find
    N), so that renewal is not logged as an action.
    """
    table = lock_table(table.pk)
    if not may_see(by, table):
        raise ServiceError("no_table", _("Cette table n'existe pas."), 404)
    if table.created_by_id != by.pk:
        raise ServiceError("not_creator", _("Seul le créateur de la table peut faire cela."), 403)
    in_lobby = table.status == Table.Status.LOBBY
    if not in_lobby and not table.allow_spectators:
        raise ServiceError("already_started", _("La partie a déjà commencé."), 409)
    table.invite_token = new_invite_token()
    table.save(update_fields=["invite_token"])
    seated = table.seats.filter(user__isnull=False).values("user")
    removed, _count = (
        table.invitations.filter(via=Invitation.Via.LINK).exclude(user__in=seated).delete()
    )
    if in_lobby:
        _record(table, by, "revoke_link", {"removed": removed})
    return table.invite_token


@transaction.atomic
def join_by_link(*, table: Table, user, token: str) -> Invitation | None:
    """Record that ``user`` came by the table's invitation link (None: no need, they sit
    at it or created it; an earlier invitation is kept).

    In the lobby they may then take a free seat. Once the game has started, the link
    only lets spectators in, and only if the creator allows them: the invitation makes
    ``user`` a spectator (an invitee without a seat sees the table without any hand), and
    renewing the link sends them away. That late invitation is not logged as an action:
    a started table's version only counts the game's moves.
    """
    table = lock_table(table.pk)
    if not token or not secrets.compare_digest(table.invite_token.encode(), str(token).encode()):
        raise ServiceError("no_table", _("Cette table n'existe pas."), 404)
    existing = table.invitations.filter(user=user).first()
    if existing is not None:
        return existing
    if table.created_by_id == user.pk or table.seats.filter(user=user).exists():
        return None
    in_lobby = table.status == Table.Status.LOBBY
    if not in_lobby and not table.allow_spectators:
        raise ServiceError("already_started", _("La partie a déjà commencé."), 409)
    invitation = Invitation.objects.create(
        table=table, user=user, invited_by=table.created_by, via=Invitation.Via.LINK
    )
    if in_lobby:
        _record(table, user, "invite", {"user": user.pk, "via": Invitation.Via.LINK})
    return invitation


@transaction.atomic
def set_spectators(*, table: Table, by, allowed: bool) -> Outcome:
    """Let whoever opens the invitation link once the game has started watch it (no hand
    shown; ``join_by_link``), or not.

    Only the creator decides, in the lobby, before anyone sees a card.
    """
    table = _managed(table, by)
    allowed = bool(allowed)
    if table.allow_spectators == allowed:
        return Outcome(table.version, False)
    table.allow_spectators = allowed
    table.save(update_fields=["allow_spectators"])
    return _record(table, by, "spectators", {"allowed": allowed})


@transaction.atomic
def set_open(*, table: Table, by, is_open: bool) -> Outcome:
    """List the table among the open tables while it waits (any logged-in player, or any
    member of its club, then sees it and takes a free seat without an invitation), or
    take it off the list: it is private again, seen only by its players, its invitees
    and its club. Only the creator decides, in the lobby; reopened, its week of waiting
    (OPEN_LOBBY_CLOSE_AFTER_SECONDS) starts again."""
    table = _managed(table, by)
    is_open = bool(is_open)
    if table.is_open == is_open:
        return Outcome(table.version, False)
    table.is_open = is_open
    table.opened_at = timezone.now() if is_open else None
    table.save(update_fields=["is_open", "opened_at"])
    outcome = _record(table, by, "open", {"open": is_open})
    if not is_open:
        open_tables_changed(table, was_open=True)  # off the list: its pages must hear it
    return outcome


# ---------------------------------------------------------------------------------------
# Seats


@transaction.atomic
def take_seat(*, table: Table, user, position: int) -> Outcome:
    """Sit at a free seat (or move there from one's own seat)."""
    table = _visible_in_lobby(table, user)
    seats = _seats(table)
    seat = seats[_position(position)]
    if seat.user_id == user.pk:
        raise ServiceError("same_seat", _("Cette place est déjà la vôtre."), 409)
    if not seat.is_free:
        raise ServiceError("seat_taken", _("Cette place est déjà prise."), 409)
    current = next((s for s in seats.values() if s.user_id == user.pk), None)
    if current is not None:
        current.user = None
        current.save(update_fields=["user"])
    seat.user = user
    seat.save(update_fields=["user"])
    payload = {"from": None if current is None else current.position}
    return _record(table, user, "take_seat", payload, seat=seat.position)


@transaction.atomic
def leave_seat(*, table: Table, user) -> Outcome:
    table = _visible_in_lobby(table, user)
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise ServiceError("not_seated", _("Vous n'avez pas de place à cette table."), 409)
    _back_on_the_list(table)
    seat.user = None
    seat.save(update_fields=["user"])
    return _record(table, user, "leave_seat", {}, seat=seat.position)


@transaction.atomic
def release_seat(*, table: Table, by, position: int) -> Outcome:
    """The creator frees the seat of another player (someone who sat at their open table
    and whom they would rather not play with, say). The player keeps seeing the table if
    they may (an invitee, a club member, anyone while it is open); their page hears the
    change, and says that their seat was freed (``released``). The creator's own seat
    is left with "Quitter cette place"."""
    table = _managed(table, by)
    seat = _seats(table)[_position(position)]
    if seat.user_id is None:
        raise ServiceError("no_player", _("Aucun joueur n'est assis à cette place."), 409)
    if seat.user_id == by.pk:
        raise ServiceError(
            "own_seat", _("C'est votre place : « Quitter cette place » la libère."), 409
        )
    released = seat.user_id
    _back_on_the_list(table)
    seat.user = None
    seat.save(update_fields=["user"])
    return _record(table, by, "release_seat", {"user": released}, seat=seat.position)


def released(table: Table, user) -> bool:
    """Whether the creator freed ``user``'s seat since they last took one at ``table``."""
    last = (
        table.actions.filter(
            Q(kind="release_seat", payload__user=user.pk) | Q(kind="take_seat", actor=user)
        )
        .order_by("-seq")
        .values_list("kind", flat=True)
        .first()
    )
    return last == "release_seat"


@transaction.atomic
def move_player(*, table: Table, by, from_position: int, to_position: int) -> Outcome:
    """Swap what two seats hold (players, bots or nobody); the creator arranges the teams."""
    table = _managed(table, by)
    seats = _seats(table)
    source, target = seats[_position(from_position)], seats[_position(to_position)]
    if source.position == target.position:
        raise ServiceError("same_seat", _("Choisissez deux places différentes."))
    if source.is_free:
        raise ServiceError("seat_free", _("Personne n'est assis à la place de départ."), 409)
    moved = (source.user, source.bot_level), (target.user, target.bot_level)
    # Clear the source first: a user may sit only once at a table (seat_user_once).
    source.user, source.bot_level = None, ""
    source.save(update_fields=["user", "bot_level"])
    (target.user, target.bot_level), (source.user, source.bot_level) = moved
    target.save(update_fields=["user", "bot_level"])
    source.save(update_fields=["user", "bot_level"])
    payload = {"from": source.position, "to": target.position}
    return _record(table, by, "move_player", payload, seat=target.position)


@transaction.atomic
def set_bot(*, table: Table, by, position: int, level: str) -> Outcome:
    """Put a bot of ``level`` at a free seat, or change the level of a seated bot."""
    table = _managed(table, by)
    if level not in BotLevel.values:
        raise ServiceError("unknown_bot", _("Ce niveau de robot n'existe pas."))
    seat = _seats(table)[_position(position)]
    if seat.user_id is not None:
        raise ServiceError("seat_taken", _("Un joueur est assis à cette place."), 409)
    if seat.bot_level == level:
        raise ServiceError("same_bot", _("Ce robot est déjà à cette place."), 409)
    seat.bot_level = level
    seat.save(update_fields=["bot_level"])
    return _record(table, by, "set_bot", {"level": level}, seat=seat.position)


@transaction.atomic
def remove_bot(*, table: Table, by, position: int) -> Outcome:
    table = _managed(table, by)
    seat = _seats(table)[_position(position)]
    if not seat.is_bot:
        raise ServiceError("no_bot", _("Aucun robot n'est assis à cette place."), 409)
    _back_on_the_list(table)
    seat.bot_level = ""
    seat.save(update_fields=["bot_level"])
    return _record(table, by, "remove_bot", {}, seat=seat.position)


# ---------------------------------------------------------------------------------------
# The start


@transaction.atomic
def start(*, table: Table, by) -> Outcome:
    """Deal the first hand: free seats take bots if the table says so, else are refused."""
    table = _managed(table, by)
    seats = _seats(table)
    if not any(seat.user_id is not None for seat in seats.values()):
        raise ServiceError("no_player", _("Au moins un joueur doit être assis."), 409)
    free = [seat for seat in seats.values() if seat.is_free]
    if free and not table.fill_with_bots:
        raise ServiceError("seats_free", _("Il faut quatre joueurs ou robots pour commencer."), 409)
    for seat in free:
        seat.bot_level = table.bot_level
        seat.save(update_fields=["bot_level"])
        payload = {"level": table.bot_level}
        # start_table broadcasts the final version; no need to announce each bot.
        _record(table, by, "set_bot", payload, seat=seat.position, broadcast=False)
    outcome = service.start_table(table_id=table.pk, actor=by)
    open_tables_changed(table)  # started: off the list
    return outcome


# ---------------------------------------------------------------------------------------
# The rematch


def rematch(
    *,
    table_id: int,
    by,
    expected_version: int | None = None,
    deck: list[int] | None = None,
) -> Outcome:
    """A finished table plays again: a new game (number + 1), the same seats.

    The deal passes on as if the game went on: the first dealer of the new game is the
    one who would have dealt after the last hand. Only a seated player asks for it; a
    stale request (``expected_version``, as in ``service.submit``) changes nothing, so
    two players clicking "Revanche" together start one game.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        if not may_see(by, table):
            raise ServiceError("no_table", _("Cette table n'existe pas."), 404)
        seats = list(Seat.objects.filter(table=table).order_by("position"))
        if not any(seat.user_id is not None and seat.user_id == by.pk for seat in seats):
            raise ServiceError("not_seated", _("Vous n'avez pas de place à cette table."), 403)
        if expected_version is not None and expected_version != table.version:
            return Outcome(table.version, False)
        if table.status != Table.Status.FINISHED or table.current_hand is None:
            raise ServiceError("not_finished", _("La partie n'est pas terminée."), 409)
        # A tournament match is one game: its result is in, the next round has its tables.
        if Table.objects.filter(pk=table.pk, tournament_match__isnull=False).exists():
            raise ServiceError("tournament_table", _("Une table de tournoi ne se rejoue pas."), 409)
        last = table.current_hand
        rules = table.rules
        dealer = next_dealer(rules, last.dealer)
        # Timeouts count towards a forfeit game by game.
        Seat.objects.filter(table=table).update(timeouts=0)
        seats_changed([table.pk])
        number = last.game.number + 1
        version = begin_game(
            table,
            seats,
            number=number,
            dealer=dealer,
            deck=deck,
            actor=by,
            kind="rematch",
            payload={"game": number, "dealer": dealer},
        )
    return Outcome(version, True)


# ---------------------------------------------------------------------------------------
# Helpers


def _managed(table: Table, user) -> Table:
    """The locked table, if ``user`` created it and it is still in the lobby."""
    table = _visible_in_lobby(table, user)
    if table.created_by_id != user.pk:
        raise ServiceError("not_creator", _("Seul le créateur de la table peut faire cela."), 403)
    return table


def _visible_in_lobby(table: Table, user) -> Table:
    table = lock_table(table.pk)
    if not may_see(user, table):
        raise ServiceError("no_table", _("Cette table n'existe pas."), 404)
    if table.status != Table.Status.LOBBY:
        raise ServiceError("already_started", _("La partie a déjà commencé."), 409)
    return table


def _back_on_the_list(table: Table) -> None:
    """Before a seat of ``table`` is freed: an open table that was full (off the list)
    comes back on it now, and its week of waiting (OPEN_LOBBY_CLOSE_AFTER_SECONDS, the
    sweep's closing, games/tables/open_tables.py) starts again from now."""
    if table.is_open and not Seat.objects.filter(table=table, user=None, bot_level="").exists():
        table.opened_at = timezone.now()
        table.save(update_fields=["opened_at"])


def _seats(table: Table) -> dict[int, Seat]:
    # The table row is locked: nobody else changes its seats meanwhile.
    return {seat.position: seat for seat in Seat.objects.filter(table=table)}


def _position(value) -> int:
    if type(value) is not int or value not in range(4):
        raise ServiceError("bad_seat", _("Cette place n'existe pas."))
    return value


def _record(
    table: Table,
    actor,
    kind: str,
    payload: dict,
    *,
    seat: int | None = None,
    broadcast: bool = True,
) -> Outcome:
    """Log one lobby change, bump the version, and tell the viewers once committed."""
    table.version = append_action(table, None, actor, kind, payload, seat=seat)
    table.save(update_fields=["version", "updated_at"])
    if broadcast:
        follow_up(table.pk, table.version, False)
        open_tables_changed(table)
    return Outcome(table.version, True)


__all__ = [
    "create_private_table",
    "invite_user",
    "join_by_link",
    "leave_seat",
    "move_player",
    "rematch",
    "release_seat",
    "released",
    "remove_bot",
    "revoke_link",
    "set_bot",
    "set_open",
    "set_spectators",
    "start",
    "take_seat",
]
