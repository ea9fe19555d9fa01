"""Reads that are more than a query: rebuilding a hand from its log, who may see a table,
the rows of a player's dashboard, and the home page's short lists (whose turn, invitations)."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass

from django.db.models import F, OuterRef, Subquery

from games import rules as engine
from games.tables.access import own_tables
from games.tables.memo import Memo
from games.tables.models import Action, Hand, Seat, Table
from games.tables.prepared import Prepared


def deck_codes(deck: list[int] | tuple[int, ...]) -> str:
    return "".join(engine.code_of(c) for c in deck)


def deck_cards(codes: str) -> list[int]:
    return [engine.card_of(codes[i : i + 2]) for i in range(0, len(codes), 2)]


def hand_actions(hand: Hand, *, upto: int | None = None) -> list[engine.Action]:
    """The moves of a hand in order (up to the table version ``upto``). Other actions
    logged with the hand, such as a ``forfeit``, are not moves of the engine."""
    return _moves(_PAYLOADS(hand.pk, LAST_SEQ if upto is None else upto))


# The log of a hand up to a version (compiled once: games/tables/prepared.py); without
# a version, up to the highest an integer column holds.
_PAYLOADS = Prepared(
    lambda hand, upto: (
        Action.objects.filter(hand=hand, seq__lte=upto)
        .order_by("seq")
        .values_list("payload", flat=True)
    ),
    keys=2,
)
LAST_SEQ = 2_147_483_647

# The log of a hand after one version, up to another.
_NEWER_PAYLOADS = Prepared(
    lambda hand, after, upto: (
        Action.objects.filter(hand=hand, seq__gt=after, seq__lte=upto)
        .order_by("seq")
        .values_list("payload", flat=True)
    ),
    keys=3,
)


def _moves(payloads: list[dict]) -> list[engine.Action]:
    return [engine.Action.parse(p["action"]) for p in payloads if "action" in p]


def replay_hand(rules: engine.Rules, hand: Hand, actions: list[engine.Action]):
    """The engine state of a stored hand after ``actions`` (the log is the truth)."""
    state = engine.deal(rules, hand.dealer, deck_cards(hand.deck))
    return engine.apply_all(state, actions)


def hand_state(table: Table, hand: Hand | None = None) -> engine.HandState:
    """The current (or given) hand of a table, replayed from its action log."""
    hand = hand or table.current_hand
    if hand is None:
        raise ValueError("this table has no hand yet")
    return replay_hand(table.rules, hand, hand_actions(hand))


# The current hand's state at a table version: (table, hand, deck, version) -> HandState.
_states = Memo(2048)


def _state_key(table: Table, version: int) -> tuple:
    # The table's creation time, rules and the hand's dealer too: a row id may come back
    # after a deletion (a test database is emptied between tests), with the same deck.
    hand = table.current_hand
    rules = (table.preset, json.dumps(table.options, sort_keys=True))
    return (table.pk, table.created_at, rules, hand.pk, hand.dealer, hand.deck, version)


def table_state(table: Table) -> engine.HandState:
    """The current hand of ``table`` as it stands at ``table.version``.

    Replayed from the moves logged up to that version, once per process and version
    (games/tables/memo.py): a version's moves never change. When this process knows the
    hand at the version before (the board it pushed for the last move, the move it made),
    only what was logged since is read and applied: one row instead of the whole hand.
    """
    if table.current_hand_id is None:
        raise ValueError("this table has no hand yet")
    key = _state_key(table, table.version)

    def replay() -> engine.HandState:
        hand = table.current_hand
        before = _states.get(key[:-1] + (table.version - 1,))  # the same key, a version back
        if before is not None:
            newer = _NEWER_PAYLOADS(hand.pk, table.version - 1, table.version)
            return engine.apply_all(before, _moves(newer))
        return replay_hand(table.rules, hand, hand_actions(hand, upto=table.version))

    return _states.get_or_compute(key, replay)


def remember_state(table: Table, state: engine.HandState) -> None:
    """``state`` is the current hand of ``table`` at ``table.version`` (games.tables.service
    knows it after a move): once committed, readers of that version need not replay it."""
    if table.current_hand_id is not None:
        _states.keep(_state_key(table, table.version), state)


# ---------------------------------------------------------------------------------------
# Dashboard


class Section:
    """Dashboard groups, in the order they are shown."""

    YOUR_TURN = "your_turn"
    PLAYING = "playing"
    LOBBY = "lobby"
    FINISHED = "finished"

    ORDER = (YOUR_TURN, PLAYING, LOBBY, FINISHED)


@dataclass(frozen=True)
class DashboardRow:
    table: Table
    section: str
    seats: list[Seat]  # N E S W
    my_position: int | None  # where the user sits, if they do
    turn_seat: Seat | None  # the seat to act, while playing
    your_turn: bool
    deadline: datetime.datetime | None
    scores: tuple[int, int] | None  # (Nord-Sud, Est-Ouest) of the current or last game
    result: str | None  # "won" / "lost" for a finished table where the user sat
    winner: int | None  # winning team of a finished table (0 Nord-Sud, 1 Est-Ouest)
    invited: bool  # invited, not seated yet
    last_hand: tuple[int, int] | None = None  # (game, hand) numbers of the last finished hand

    @property
    def my_team(self) -> int | None:
        return None if self.my_position is None else self.my_position % 2


def dashboard(user) -> list[DashboardRow]:
    """Every table of ``user``, the ones waiting for their move first.

    Then the tables in play (soonest deadline first), those in the lobby, and the finished
    ones with their result (latest first).
    """
    finished_hands = (
        Hand.objects.filter(game__table=OuterRef("pk"))
        .exclude(ended="")
        .order_by("-game__number", "-number")
    )
    # Their own tables only: a club's other tables are on the club page.
    tables = (
        own_tables(user)
        .select_related("current_hand__game", "created_by")
        .prefetch_related("seats__user")
        .annotate(
            last_game_number=Subquery(finished_hands.values("game__number")[:1]),
            last_hand_number=Subquery(finished_hands.values("number")[:1]),
        )
    )
    rows = [_dashboard_row(user, table) for table in tables]

    def order(row: DashboardRow):
        rank = Section.ORDER.index(row.section)
        if row.deadline is not None:
            return (rank, 0, row.deadline.timestamp())
        return (rank, 1, -row.table.updated_at.timestamp())

    return sorted(rows, key=order)


def your_turn_rows(user, *, limit: int) -> list[DashboardRow]:
    """The tables in play where ``user`` is to act, the soonest deadline first (at most
    ``limit``; a fixed number of queries)."""
    tables = (
        Table.objects.filter(
            status=Table.Status.PLAYING, seats__user=user, seats__position=F("turn")
        )
        .select_related("current_hand__game")
        .prefetch_related("seats__user")
        .order_by(F("deadline").asc(nulls_last=True), "pk")[:limit]
    )
    return [_dashboard_row(user, table) for table in tables]


def invitation_rows(user, *, limit: int) -> list[DashboardRow]:
    """The tables in the lobby ``user`` is invited to and has no seat at yet, the latest
    invitation first (at most ``limit``)."""
    tables = (
        Table.objects.filter(status=Table.Status.LOBBY, invitations__user=user)
        .exclude(seats__user=user)
        .select_related("created_by")
        .prefetch_related("seats__user")
        .order_by("-invitations__created_at", "-pk")[:limit]
    )
    return [_dashboard_row(user, table) for table in tables]


def _dashboard_row(user, table: Table) -> DashboardRow:
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    mine = next((s.position for s in seats if s.user_id == user.pk), None)
    turn_seat = None
    if table.status == Table.Status.PLAYING and table.turn is not None:
        turn_seat = next((s for s in seats if s.position == table.turn), None)
    your_turn = turn_seat is not None and turn_seat.user_id == user.pk
    if your_turn:
        section = Section.YOUR_TURN
    elif table.status == Table.Status.PLAYING:
        section = Section.PLAYING
    elif table.status == Table.Status.LOBBY:
        section = Section.LOBBY
    else:
        section = Section.FINISHED
    # The current hand's game; once the table is over, its last game.
    game = table.current_hand.game if table.current_hand_id else None
    result = game.result_for(mine) if game is not None else None
    return DashboardRow(
        table=table,
        section=section,
        seats=seats,
        my_position=mine,
        turn_seat=turn_seat,
        your_turn=your_turn,
        deadline=table.deadline,
        scores=game.scores if game else None,
        result=result,
        winner=game.winner if game is not None else None,
        invited=mine is None and table.created_by_id != user.pk,
        last_hand=(
            (table.last_game_number, table.last_hand_number)
            if getattr(table, "last_hand_number", None) is not None
            else None
        ),
    )
