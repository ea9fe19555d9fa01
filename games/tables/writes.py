"""The write primitives of games/tables: what every change of a table's state is made of.

``lock_table`` locks the table's row, ``append_action`` writes one entry of its log (the
new version), ``deal`` and ``begin_game`` deal, and ``follow_up`` queues, in the change's
own transaction, what follows it and tells the concerns above. The moves
(games/tables/moves.py), the lobby and the service (games/tables/service.py) are built
from them.
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from belote_site.errors import ActionRefused
from games import rules as engine
from games.tables import signals
from games.tables.clock import latest_leave, on_leave, turn_deadline
from games.tables.models import Action, Game, Hand, Pace, Seat, Table
from games.tables.prepared import Prepared, insert
from games.tables.selectors import deck_cards, deck_codes, remember_state


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
    table.turn = first_turn(table.rules, table.current_hand)
    table.version = append_action(table, None, actor, kind, payload)
    table.deadline = turn_deadline(table, seats)
    table.unattended_since = None  # someone started it: a player is there
    table.save(
        update_fields=[
            "status",
            "current_hand",
            "turn",
            "deadline",
            "unattended_since",
            "version",
            "updated_at",
        ]
    )
    remember_state(table, dealt_state(table))
    follow_up(table.pk, table.version, seats[table.turn].bot_plays, clock=table)
    return table.version


def first_turn(rules: engine.Rules, hand: Hand) -> int:
    return engine.deal(rules, hand.dealer, deck_cards(hand.deck)).turn


def dealt_state(table: Table) -> engine.HandState:
    """The state of the table's current hand before its first move."""
    hand = table.current_hand
    return engine.deal(table.rules, hand.dealer, deck_cards(hand.deck))


def deal(game: Game, number: int, dealer: int, deck: list[int] | None = None) -> Hand:
    """Hand ``number`` dealt by ``dealer`` from a shuffled deck (or ``deck``), with the
    commitment to it that its table shows before the bidding: a fresh salt for each deal
    (games/rules/records.py). Neither ever changes (``Hand.save``)."""
    cards = deck or shuffled_deck()
    salt = secrets.token_hex(16)
    committed = engine.commitment([engine.code_of(c) for c in cards], salt)
    return Hand.objects.create(
        game=game,
        number=number,
        dealer=dealer,
        deck=deck_codes(cards),
        salt=salt,
        commitment=committed,
    )


def _locked(clock: bool) -> Prepared:
    def describe(key: int):
        tables = Table.objects.select_for_update(of=("self",)).select_related("current_hand__game")
        if clock:
            tables = tables.annotate(latest_leave=latest_leave())
        return tables.filter(pk=key)

    return Prepared(describe)


# The table with its hand and game, locked (the hottest query of a move: compiled once).
_LOCKED = {clock: _locked(clock) for clock in (False, True)}


def lock_table(table_id: int, *, missing_ok: bool = False, clock: bool = False) -> Table | None:
    """The table, its row locked until the transaction ends (a 404 if it does not exist,
    or None with ``missing_ok``). ``clock``: with ``anyone_on_leave`` (games/tables/clock.py),
    for the deadline of the next turn."""
    found = _LOCKED[clock](table_id)
    if not found:
        if missing_ok:
            return None
        raise ServiceError("no_table", _("Cette table n'existe pas."), 404)
    table = found[0]
    if clock:
        table.anyone_on_leave = on_leave(table.latest_leave)
    return table


def seat_of_actor(actor, seats: list[Seat]) -> int:
    if isinstance(actor, SeatAgent):
        seat = next((s for s in seats if s.position == actor.seat), None)
        if seat is None or (actor.source == Action.Source.BOT and not seat.bot_plays):
            raise ServiceError("not_a_bot", _("Aucun robot n'est assis à cette place."), 403)
        return actor.seat
    user_id = getattr(actor, "pk", None)
    for seat in seats:
        if user_id is not None and seat.user_id == user_id:
            return seat.position
    raise ServiceError("not_seated", _("Vous n'avez pas de place à cette table."), 403)


def source_of(actor) -> str:
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
    action = Action(
        table=table,
        seq=seq,
        hand=hand,
        seat=seat,
        actor=None if isinstance(actor, SeatAgent) else actor,
        source=source or source_of(actor),
        kind=kind,
        payload=payload,
    )
    insert(action)  # its SQL written once (games/tables/prepared.py)
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
    ``clock.deadline`` (at a live table, through the absence check: see below); the bot
    waits BOT_DELAY_SECONDS at a live table so that people can follow. The receivers of
    ``table_changed`` queue the turn notification of the human whose turn it is
    (games.notifications), the check for an absent live player (games.timing) and, on
    commit, the broadcast to the table's pages: best effort, it
    never raises (games/live/broadcast.py), so a change that is saved is answered as saved
    even while Redis is down. ``by``: the user who made the change, whose page gets the new
    board as its answer.
    """
    assert transaction.get_connection().in_atomic_block, "follow-ups belong to a change"
    # The tasks live in games.tables.service, under the paths the queue stores.
    from games.tables.service import expire_deadline_task, play_bot_move_task

    live = clock is not None and clock.pace == Pace.LIVE
    if bot_next:
        task = play_bot_move_task
        if live:
            delay = datetime.timedelta(seconds=settings.BOT_DELAY_SECONDS)
            task = task.using(run_after=timezone.now() + delay)
        task.enqueue(table_id=table_id, version=version)
    deadline = clock.deadline if clock is not None else None
    if deadline is not None and not live:
        # At a live table the absence check (games.timing.absence, queued by a receiver
        # below, at the grace period: before the deadline) queues the expiry when it finds
        # the turn still waiting: one task row per move, not two (the sweep catches a
        # deadline whose task was lost either way).
        expire_deadline_task.using(run_after=deadline).enqueue(table_id=table_id, version=version)
    signals.table_changed.send(
        sender=Table,
        table_id=table_id,
        version=version,
        clock=clock,
        live=live,
        by=by,
    )


def open_tables_changed(table: Table, *, was_open: bool = False) -> None:
    """In the transaction of a change of ``table``: if it is an open table (or ``was_open``
    until this change), tell the pages of the list (``signals.open_tables_changed``)."""
    if table.is_open or was_open:
        signals.open_tables_changed.send(sender=Table, table_id=table.pk)
