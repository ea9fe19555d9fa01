"""The only write path of game state: tables are created, started and played here.

``submit`` applies one move in one transaction: lock the table row, check the version
(a stale or repeated submission changes nothing), rebuild the hand from its log, let the
engine validate and apply the move, write the action (and the trick, hand and game rows
it completes), bump the version, set the clock of the player to act (``Table.deadline``,
games/tables/clock.py), queue in the same transaction what follows (the bot's move, the expiry
of the deadline by ``expire_deadline``, which applies the table's timeout policy), and
after the commit tell the viewers, best effort (``follow_up``).
Views, bots, tasks and commands call these functions; nothing else writes game state.
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone
from django.utils.translation import gettext as _

from belote_site.errors import ActionRefused
from games import rules as engine
from games.tables import signals
from games.tables.clock import (
    anyone_on_leave,
    clock_deadline,
    seats_for_the_clock,
    turn_deadline,
)
from games.tables.models import (
    Action,
    BotLevel,
    Game,
    Hand,
    Pace,
    Seat,
    Table,
    TimeoutPolicy,
    Trick,
)
from games.tables.seats import table_seats
from games.tables.selectors import deck_cards, deck_codes, remember_state, table_state


class ServiceError(ActionRefused):
    """A refused request about a table: ``code``, ``message``, an HTTP status."""


def refusal(error: engine.IllegalAction) -> ServiceError:
    """The engine's refusal in the player's language: its French text is the message id
    (marked in games/rules with ``gettext_noop``, so ``makemessages`` finds it)."""
    message = _(error.template)
    if error.params:
        message = message.format(**error.params)
    return ServiceError(error.code, message)


@dataclass(frozen=True)
class Outcome:
    version: int  # the table's version after the call
    applied: bool  # False for a stale or repeated submission


@dataclass(frozen=True)
class SeatAgent:
    """Someone other than a seated user acting for a seat: its bot, or a timeout."""

    seat: int
    source: str = Action.Source.BOT


def shuffled_deck() -> list[int]:
    deck = list(range(32))
    secrets.SystemRandom().shuffle(deck)
    return deck


# ---------------------------------------------------------------------------------------
# Tables


def create_table(
    *,
    created_by,
    preset: str,
    options: dict[str, Any] | None = None,
    players: dict[int, Any] | None = None,
    bots: dict[int, str] | None = None,
) -> Table:
    """A table in the lobby with its four seats, some taken by users or bots."""
    if preset not in engine.PRESETS:
        raise ServiceError("unknown_preset", _("Ces règles n'existent pas."))
    try:
        rules = engine.rules_for(preset, options or {})
    except (engine.InvalidOptions, TypeError) as error:
        raise ServiceError("invalid_options", _("Options invalides : %s") % error) from error
    players, bots = players or {}, bots or {}
    if set(players) & set(bots) or not set(players) | set(bots) <= {0, 1, 2, 3}:
        raise ServiceError("bad_seats", _("Chaque place reçoit au plus un joueur ou un robot."))
    if any(level not in BotLevel.values for level in bots.values()):
        raise ServiceError("unknown_bot", _("Ce niveau de robot n'existe pas."))
    with transaction.atomic():
        table = Table.objects.create(
            preset=preset, options=rules.diff(engine.PRESETS[preset]), created_by=created_by
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                position=p,
                user=players.get(p),
                bot_level=bots.get(p, ""),
            )
            for p in range(4)
        )
    return table


def start_table(
    *,
    table_id: int,
    actor=None,
    first_dealer: int | None = None,
    deck: list[int] | None = None,
) -> Outcome:
    """Deal the first hand of the first game once the four seats are filled."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status != Table.Status.LOBBY:
            raise ServiceError("already_started", _("La partie a déjà commencé."), 409)
        seats = seats_for_the_clock(table.pk)
        if len(seats) != 4 or any(seat.is_free for seat in seats):
            raise ServiceError("seats_free", _("Il faut quatre joueurs ou robots pour commencer."))
        dealer = secrets.randbelow(4) if first_dealer is None else first_dealer
        version = begin_game(
            table,
            seats,
            number=1,
            dealer=dealer,
            deck=deck,
            actor=actor,
            kind="start",
            payload={"dealer": dealer},
        )
    return Outcome(version, True)


def begin_game(
    table: Table,
    seats: list[Seat],
    *,
    number: int,
    dealer: int,
    deck: list[int] | None,
    actor,
    kind: str,
    payload: dict,
) -> int:
    """Game ``number`` begins at the locked ``table`` (its four ``seats`` in order): its
    first hand dealt by ``dealer``, the turn and the clock set, the action ``kind`` logged,
    what follows queued. The first game (``start_table``) and a rematch
    (``games.tables.lobby.rematch``) begin alike; returns the table's new version."""
    game = Game.objects.create(table=table, number=number, first_dealer=dealer)
    table.current_hand = deal(game, 1, dealer, deck)
    table.status = Table.Status.PLAYING
    table.turn = _first_turn(table.rules, table.current_hand)
    table.version = append_action(table, None, actor, kind, payload)
    table.deadline = turn_deadline(table, seats)
    table.save(
        update_fields=["status", "current_hand", "turn", "deadline", "version", "updated_at"]
    )
    remember_state(table, _dealt(table))
    follow_up(table.pk, table.version, seats[table.turn].bot_plays, clock=table)
    return table.version


# ---------------------------------------------------------------------------------------
# Moves


def submit(
    *,
    table_id: int,
    actor,
    action: str | engine.Action,
    expected_version: int,
    notify_bots: bool = True,
) -> Outcome:
    """Apply one move for ``actor`` (a seated user, or a SeatAgent) at ``expected_version``.

    ``notify_bots=False`` is for callers that play the bots' turns themselves (play_bots).
    """
    if isinstance(action, str):
        try:
            action = engine.Action.parse(action)
        except engine.IllegalAction as error:
            raise refusal(error) from error
    with transaction.atomic():
        table = lock_table(table_id, clock=True)
        seats = table_seats(table)
        seat = _seat_of(actor, seats)
        if expected_version != table.version:
            return Outcome(table.version, False)
        if table.status != Table.Status.PLAYING:
            raise ServiceError("not_playing", _("La partie n'est pas en cours."), 409)
        version, bot_next = _apply(table, seats, seat, actor, action, table_state(table))
        by = None if isinstance(actor, SeatAgent) else actor.pk
        follow_up(table.pk, version, bot_next and notify_bots, clock=table, by=by)
    return Outcome(version, True)


def _apply(
    table: Table,
    seats: list[Seat],
    seat: int,
    actor,
    action: engine.Action,
    before: engine.HandState,
) -> tuple[int, bool]:
    """Apply ``action`` of ``seat`` to the locked ``table`` whose current hand is
    ``before``, and write it; returns the new version and whether a bot plays next."""
    hand = table.current_hand
    try:
        after = engine.apply(before, action, seat)
    except engine.IllegalAction as error:
        raise refusal(error) from error
    version = append_action(table, hand, actor, action.kind, {"action": str(action)}, seat=seat)
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        Trick.objects.create(
            hand=hand,
            number=len(after.tricks),
            leader=trick.leader,
            cards="".join(engine.code_of(c) for c in trick.cards),
            winner=trick.winner,
            points=trick.points,
        )
    if after.contract >= 0 and (after.contract, after.taker) != (before.contract, before.taker):
        hand.contract = engine.MODES[after.contract]
        hand.taker = after.taker
        if after.phase != engine.DONE:
            hand.save(update_fields=["contract", "taker"])
    fields = ["version", "turn", "deadline", "updated_at"]
    if after.phase == engine.DONE:
        fields += _finish_hand(table, hand, after)
    else:
        table.turn = after.turn
    bot_next = table.turn is not None and seats[table.turn].bot_plays
    table.deadline = turn_deadline(table, seats)
    table.version = version
    table.save(update_fields=fields)
    # The pages of this version, and the next move, need not replay the hand; nor those
    # of this process read the table again (the move writes no seat: its seats version
    # is as read under the lock).
    current = after if table.current_hand_id == hand.pk else _dealt(table)
    remember_state(table, current)
    transaction.on_commit(lambda: _made(table), robust=True)
    return version, bot_next


def _finish_hand(table: Table, hand: Hand, state: engine.HandState) -> list[str]:
    """Score a finished hand into its game; deal the next hand or end the game."""
    game = hand.game
    result = engine.score(state)
    hand.ended = state.ended
    hand.points_ns, hand.points_ew = result.points
    hand.made = result.made if not result.passed else None
    hand.litige = result.litige
    hand.capot = result.capot if result.capot >= 0 else None
    hand.held = result.held
    hand.finished_at = timezone.now()
    hand.save()
    before = engine.Game(table.rules, hand.dealer, game.scores, game.held, (), -1)
    after = engine.record_hand(before, state)
    game.score_ns, game.score_ew = after.scores
    game.held = after.held
    if after.over:
        game.winner = after.winner
        game.finished_at = hand.finished_at
        game.save()
        table.status = Table.Status.FINISHED
        table.turn = None
        signals.game_ended.send(sender=Game, game=game)
        return ["status"]
    game.save()
    table.current_hand = deal(game, hand.number + 1, after.dealer)
    table.turn = _first_turn(table.rules, table.current_hand)
    return ["current_hand"]


def _first_turn(rules: engine.Rules, hand: Hand) -> int:
    return engine.deal(rules, hand.dealer, deck_cards(hand.deck)).turn


def _dealt(table: Table) -> engine.HandState:
    """The state of the table's current hand before its first move."""
    hand = table.current_hand
    return engine.deal(table.rules, hand.dealer, deck_cards(hand.deck))


def deal(game: Game, number: int, dealer: int, deck: list[int] | None = None) -> Hand:
    return Hand.objects.create(
        game=game, number=number, dealer=dealer, deck=deck_codes(deck or shuffled_deck())
    )


# ---------------------------------------------------------------------------------------
# Bots


def play_bot_move(table_id: int, version: int, *, notify_bots: bool = True) -> Outcome | None:
    """One move by the bot to act, if the table is still at ``version``; else nothing.

    Safe to run twice or late: a task that finds the table moved on does nothing. One
    transaction: the table locked, its seats read, the bot's choice applied.
    """
    from games.bots import choose_action

    with transaction.atomic():
        table = lock_table(table_id, missing_ok=True)
        if table is None or table.version != version or table.status != Table.Status.PLAYING:
            return None
        seats = table_seats(table)
        state = table_state(table)
        seat = seats[state.turn]
        if not seat.bot_plays:
            return None
        action = choose_action(state, seat.bot_level or BotLevel.HEURISTIC, _bot_rng())
        agent = SeatAgent(state.turn)
        version, bot_next = _apply(table, seats, state.turn, agent, action, state)
        follow_up(table.pk, version, bot_next and notify_bots, clock=table)
    return Outcome(version, True)


def expire_deadline(table_id: int, version: int) -> Outcome | None:
    """The clock of the player to act ran out: apply the table's timeout policy.

    Only if the table is still at ``version`` with its deadline passed and a human, not on
    vacation, to act (then the deadline moves to the end of the vacation). The timeout is
    counted on the seat; the heuristic bot's move is submitted for the seat with source
    "timeout", or, under the "forfeit" policy once the seat reaches ``forfeit_after``
    timeouts, its team loses the game. Safe to run twice or late, like ``play_bot_move``.
    """
    from games.bots import choose_action

    now = timezone.now()
    with transaction.atomic():
        table = lock_table(table_id)
        if (
            table.version != version
            or table.status != Table.Status.PLAYING
            or table.deadline is None
            or table.deadline > now
            or table.turn is None
        ):
            return None
        seat = Seat.objects.get(table=table, position=table.turn)
        if seat.bot_plays or seat.user_id is None:
            return None
        # A vacation declared during the turn stopped the clock: wait for the new time.
        paused = clock_deadline(seat.user_id, turn_started(table), table.move_seconds)
        if paused > now:
            table.deadline = paused
            table.save(update_fields=["deadline"])
            follow_up(table.pk, version, False, clock=table)
            return None
        seat.timeouts += 1
        seat.save(update_fields=["timeouts"])
        if table.timeout_policy == TimeoutPolicy.FORFEIT and seat.timeouts >= table.forfeit_after:
            return _forfeit(table, seat, now)
        state = table_state(table)
        action = choose_action(state, BotLevel.HEURISTIC, _bot_rng())
        return submit(
            table_id=table_id,
            actor=SeatAgent(seat.position, Action.Source.TIMEOUT),
            action=action,
            expected_version=version,
        )


def turn_started(table: Table) -> datetime.datetime:
    """When the current turn began: the time of the table's last action."""
    return table.actions.order_by("-seq").values_list("created_at", flat=True).first()


def _forfeit(table: Table, seat: Seat, now) -> Outcome:
    """The seat's team loses the game on time; the scores stay as they were."""
    game = table.current_hand.game
    game.winner = 1 - seat.position % 2
    game.finished_at = now
    game.save(update_fields=["winner", "finished_at"])
    payload = {"team": seat.position % 2, "winner": game.winner, "timeouts": seat.timeouts}
    agent = SeatAgent(seat.position, Action.Source.TIMEOUT)
    version = append_action(
        table, table.current_hand, agent, "forfeit", payload, seat=seat.position
    )
    table.status = Table.Status.FINISHED
    table.turn = None
    table.deadline = None
    table.version = version
    table.save(update_fields=["status", "turn", "deadline", "version", "updated_at"])
    signals.game_ended.send(sender=Game, game=game)
    follow_up(table.pk, version, False)
    return Outcome(version, True)


def abandon_table(*, table_id: int, reason: str) -> Outcome:
    """Stop a table for good, its game unfinished: no winner, the scores as they stand.

    For a tournament round that ran out of time (games/tournaments/service.py decides the match
    itself). One system action ``abandon``; the bots and clocks queued for the table then
    find it no longer in play. A table already over is left as it is.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status not in (Table.Status.LOBBY, Table.Status.PLAYING):
            return Outcome(table.version, False)
        version = append_action(table, None, None, "abandon", {"reason": reason})
        table.status = Table.Status.ABANDONED
        table.turn = None
        table.deadline = None
        table.version = version
        table.save(update_fields=["status", "turn", "deadline", "version", "updated_at"])
        follow_up(table.pk, version, False)
    return Outcome(version, True)


def play_bots(table_id: int, *, max_moves: int = 100_000) -> int:
    """Play the bots' turns in this process until a human is to act or the game ends."""
    moves = 0
    while moves < max_moves:
        version = Table.objects.values_list("version", flat=True).get(pk=table_id)
        outcome = play_bot_move(table_id, version, notify_bots=False)
        if outcome is None:
            break
        moves += outcome.applied
    return moves


def _bot_rng():
    import random

    return random.Random(secrets.randbits(64))


# ---------------------------------------------------------------------------------------
# Helpers


def lock_table(table_id: int, *, missing_ok: bool = False, clock: bool = False) -> Table | None:
    """The table, its row locked until the transaction ends (a 404 if it does not exist,
    or None with ``missing_ok``). ``clock``: with ``anyone_on_leave`` (games/tables/clock.py),
    for the deadline of the next turn."""
    tables = Table.objects.select_for_update(of=("self",)).select_related("current_hand__game")
    if clock:
        tables = tables.annotate(anyone_on_leave=anyone_on_leave())
    try:
        return tables.get(pk=table_id)
    except Table.DoesNotExist as error:
        if missing_ok:
            return None
        raise ServiceError("no_table", _("Cette table n'existe pas."), 404) from error


def _seat_of(actor, seats: list[Seat]) -> int:
    if isinstance(actor, SeatAgent):
        seat = next((s for s in seats if s.position == actor.seat), None)
        if seat is None or (actor.source == Action.Source.BOT and not seat.bot_plays):
            raise ServiceError("not_a_bot", _("Aucun robot n'est assis à cette place."), 403)
        return actor.seat
    user_id = getattr(actor, "pk", None)
    for seat in seats:
        if user_id is not None and seat.user_id == user_id:
            return seat.position
    raise ServiceError("not_seated", _("Vous n'êtes pas assis à cette table."), 403)


def _source(actor) -> str:
    if isinstance(actor, SeatAgent):
        return actor.source
    return Action.Source.PLAYER if actor is not None else Action.Source.SYSTEM


def append_action(
    table: Table,
    hand: Hand | None,
    actor,
    kind: str,
    payload: dict,
    *,
    seat: int | None = None,
    source: str | None = None,
) -> int:
    """Append one action; returns its sequence number, the table's new version."""
    seq = table.version + 1
    Action.objects.create(
        table=table,
        seq=seq,
        hand=hand,
        seat=seat,
        actor=None if isinstance(actor, SeatAgent) else actor,
        source=source or _source(actor),
        kind=kind,
        payload=payload,
    )
    return seq


def follow_up(
    table_id: int,
    version: int,
    bot_next: bool,
    *,
    clock: Table | None = None,
    by: int | None = None,
) -> None:
    """In the transaction of a change: queue what follows it, and tell the concerns above
    (``signals.table_changed``).

    Queued here, in the change's own transaction (the task queue is in the database), so
    that a committed change always has them and a change rolled back has none: the move
    of the bot whose turn it is and, with ``clock`` (the table as saved), the expiry of
    ``clock.deadline``; the bot waits BOT_DELAY_SECONDS at a live table so that people can
    follow. The receivers of ``table_changed`` queue the turn notification of the human
    whose turn it is (games.notifications), the check for an absent live player
    (games.timing) and, on commit, the broadcast to the table's pages: best effort, it
    never raises (games/live/broadcast.py), so a change that is saved is answered as saved
    even while Redis is down. ``by``: the user who made the change, whose page gets the new
    board as its answer.
    """
    assert transaction.get_connection().in_atomic_block, "follow-ups belong to a change"
    live = clock is not None and clock.pace == Pace.LIVE
    if bot_next:
        task = play_bot_move_task
        if live:
            delay = datetime.timedelta(seconds=settings.BOT_DELAY_SECONDS)
            task = task.using(run_after=timezone.now() + delay)
        task.enqueue(table_id=table_id, version=version)
    deadline = clock.deadline if clock is not None else None
    if deadline is not None:
        expire_deadline_task.using(run_after=deadline).enqueue(table_id=table_id, version=version)
    signals.table_changed.send(
        sender=Table,
        table_id=table_id,
        version=version,
        clock=clock,
        live=live,
        by=by,
    )


# ---------------------------------------------------------------------------------------
# Tasks (run by the worker, manage.py belote_worker): each checks the table's version, so
# running one twice or late is harmless.


@task()
def play_bot_move_task(table_id: int, version: int) -> None:
    play_bot_move(table_id, version)


@task()
def expire_deadline_task(table_id: int, version: int) -> None:
    expire_deadline(table_id, version)


def _made(table: Table) -> None:
    """The pages of this process share the table as the change left it
    (games/tables/boards.py)."""
    from games.tables import boards

    boards.made(table)


__all__ = [
    "Outcome",
    "SeatAgent",
    "ServiceError",
    "abandon_table",
    "create_table",
    "expire_deadline",
    "play_bot_move",
    "play_bots",
    "start_table",
    "submit",
]
