"""The moves of games/tables: a player's move (``submit``), a bot's (``play_bot_move``),
the expiry of a deadline (``expire_deadline``, which applies the table's timeout policy),
an abandon, and the bots playing a table out (``play_bots``).

At a live table, a bot's move and a timeout are applied only while one of its seated
players is there (games/tables/attendance.py ``waits``, under the table's lock); a
player's own move resumes a table that was waiting for them.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import rules as engine
from games.tables import analysis, attendance, signals
from games.tables.clock import clock_deadline, turn_deadline
from games.tables.models import Action, Game, Hand, Seat, Table, TimeoutPolicy, Trick
from games.tables.prepared import insert, save_fields
from games.tables.seats import table_seats
from games.tables.selectors import remember_state, table_state
from games.tables.writes import (
    Outcome,
    SeatAgent,
    ServiceError,
    append_action,
    deal,
    dealt_state,
    first_turn,
    follow_up,
    lock_table,
    open_tables_changed,
    refusal,
    seat_of_actor,
)


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
        seat = seat_of_actor(actor, seats)
        if expected_version != table.version:
            return Outcome(table.version, False)
        if table.status != Table.Status.PLAYING:
            raise ServiceError("not_playing", _("La partie n'est pas en cours."), 409)
        if table.unattended_since is not None and not isinstance(actor, SeatAgent):
            attendance.resume(table, seats, by=actor)  # the player is there: it goes on
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
        insert(
            Trick(
                hand=hand,
                number=len(after.tricks),
                leader=trick.leader,
                cards="".join(engine.code_of(c) for c in trick.cards),
                winner=trick.winner,
                points=trick.points,
            )
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
    save_fields(table, fields)  # table.save(update_fields=fields), its SQL written once
    # The pages of this version, and the next move, need not replay the hand; nor those
    # of this process read the table again (the move writes no seat: its seats version
    # is as read under the lock).
    current = after if table.current_hand_id == hand.pk else dealt_state(table)
    remember_state(table, current)
    transaction.on_commit(lambda: _made(table), robust=True)
    return version, bot_next


RESULT_FIELDS = [
    "ended",
    "points_ns",
    "points_ew",
    "made",
    "litige",
    "capot",
    "held",
    "finished_at",
]


def _finish_hand(table: Table, hand: Hand, state: engine.HandState) -> list[str]:
    """Score a finished hand into its game, queue its analysis (games/tables/analysis.py);
    deal the next hand or end the game."""
    game = hand.game
    result = engine.score(state)
    hand.ended = state.ended
    hand.points_ns, hand.points_ew = result.points
    hand.made = result.made if not result.passed else None
    hand.litige = result.litige
    hand.capot = result.capot if result.capot >= 0 else None
    hand.held = result.held
    hand.finished_at = timezone.now()
    hand.save(update_fields=[*RESULT_FIELDS, "contract", "taker"])
    if state.tricks:  # cards were played: their analysis, in the worker once saved
        analysis.queue_on_commit(hand.pk)
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
    table.turn = first_turn(table.rules, table.current_hand)
    return ["current_hand"]


def play_bot_move(
    table_id: int, version: int, *, notify_bots: bool = True, attended: bool = False
) -> Outcome | None:
    """One move by the bot to act, if the table is still at ``version``; else nothing.

    Safe to run twice or late: a task that finds the table moved on does nothing. One
    transaction: the table locked, its seats read, the bot's choice applied. At a live
    table nobody is at, nothing is played and the table pauses (games/tables/attendance.py),
    unless the caller plays the table itself (``attended``: ``play_bots``).
    """
    from games.bots import choose_action

    with transaction.atomic():
        table = lock_table(table_id, missing_ok=True)
        if table is None or table.version != version or table.status != Table.Status.PLAYING:
            return None
        seats = table_seats(table)
        state = table_state(table)
        seat = seats[state.turn]
        if not seat.bot_plays or (not attended and attendance.waits(table, seats)):
            return None
        action = choose_action(state, seat.bot_level or table.bot_level, _bot_rng())
        agent = SeatAgent(state.turn)
        version, bot_next = _apply(table, seats, state.turn, agent, action, state)
        follow_up(table.pk, version, bot_next and notify_bots, clock=table)
    return Outcome(version, True)


def expire_deadline(table_id: int, version: int) -> Outcome | None:
    """The clock of the player to act ran out: apply the table's timeout policy.

    Only if the table is still at ``version`` with its deadline passed and a human, not on
    vacation, to act (then the deadline moves to the end of the vacation), at a table that
    is not waiting for its players (games/tables/attendance.py). The timeout is
    counted on the seat; the move of the table's bot level is submitted for the seat with source
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
        if seat.bot_plays or seat.user_id is None or attendance.waits(table, table_seats(table)):
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
        action = choose_action(state, table.bot_level, _bot_rng())
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
    itself), or the admin. One system action ``abandon``; the bots and clocks queued for the
    table then find it no longer in play. A table already over is left as it is.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status not in (Table.Status.LOBBY, Table.Status.PLAYING):
            return Outcome(table.version, False)
        table.unattended_since = None  # it was not abandoned for want of players
        return _abandon(table, reason)


def abandon_unattended(table_id: int, version: int) -> Outcome | None:
    """The sweep: the live table at ``version``, paused for LIVE_ABANDON_AFTER_SECONDS with
    none of its players back (games/tables/attendance.py), is abandoned; it keeps
    ``unattended_since``, which its page reads to say why. Not a tournament's table: its
    round deadline decides its match (games/tournaments), and its players may meet later."""
    gone = timezone.now() - datetime.timedelta(seconds=settings.LIVE_ABANDON_AFTER_SECONDS)
    with transaction.atomic():
        table = lock_table(table_id, missing_ok=True)
        if (
            table is None
            or table.version != version
            or table.status != Table.Status.PLAYING
            or table.unattended_since is None
            or table.unattended_since > gone
            or Table.objects.filter(pk=table.pk, tournament_match__isnull=False).exists()
        ):
            return None
        return _abandon(table, "unattended")


def _abandon(table: Table, reason: str) -> Outcome:
    version = append_action(table, None, None, "abandon", {"reason": reason})
    table.status = Table.Status.ABANDONED
    table.turn = None
    table.deadline = None
    table.version = version
    fields = ["status", "turn", "deadline", "unattended_since", "version", "updated_at"]
    table.save(update_fields=fields)
    follow_up(table.pk, version, False)
    open_tables_changed(table)  # an open table abandoned in the lobby leaves the list
    return Outcome(version, True)


def play_bots(table_id: int, *, max_moves: int = 100_000) -> int:
    """Play the bots' turns in this process until a human is to act or the game ends,
    whether or not anyone has the table open: the caller (the demo, the simulation, a
    test) is the one playing it."""
    moves = 0
    while moves < max_moves:
        version = Table.objects.values_list("version", flat=True).get(pk=table_id)
        outcome = play_bot_move(table_id, version, notify_bots=False, attended=True)
        if outcome is None:
            break
        moves += outcome.applied
    return moves


def _bot_rng():
    import random

    return random.Random(secrets.randbits(64))


def _made(table: Table) -> None:
    """The pages of this process share the table as the change left it
    (games/tables/boards.py)."""
    from games.tables import boards

    boards.made(table)
