"""Checking stored games against the engine: the action log replayed must give the rows.

What the replay decides and the rows must match (and each hand's deck and salt its
commitment, games/rules/records.py): each hand's dealer, contract and taker,
tricks and result; each game's score, held litige points and winner; and the table's
own position, its status, whose turn it is and its current hand (what lists of tables
and the clocks read without replaying anything).

On a live site the rows change while they are read: a move committed between the read of
a table's log and the read of its hands would look like a mismatch. ``verify_stored_table``
therefore reads each table in one snapshot (``read_snapshot``), which a move committed
meanwhile does not change and which blocks no move.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

from games import rules as engine
from games.tables.models import Hand, Table
from games.tables.selectors import replay_hand


@contextmanager
def read_snapshot() -> Iterator[None]:
    """The reads inside see the database as it was at the first of them, whatever is
    committed meanwhile, and take no lock: on PostgreSQL a REPEATABLE READ, READ ONLY
    transaction; on SQLite (WAL) a deferred transaction, a reader that writers do not
    wait for (ours otherwise begin IMMEDIATE and take the write lock). Inside a
    transaction already open, that transaction decides."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()  # transaction_mode comes with the connection
        mode = connection.transaction_mode
        connection.transaction_mode = "DEFERRED"
        try:
            with transaction.atomic():
                yield
        finally:
            connection.transaction_mode = mode
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def verify_stored_table(table_id: int) -> list[str] | None:
    """``verify_table`` on one snapshot of the table's rows; None if it no longer exists."""
    with read_snapshot():
        table = Table.objects.filter(pk=table_id).first()
        return None if table is None else verify_table(table)


def verify_table(table: Table) -> list[str]:
    """What differs between the table's rows and the replay of its log (empty: all good)."""
    problems: list[str] = []
    rules = table.rules
    actions = list(table.actions.order_by("seq").values_list("seq", "hand_id", "kind", "payload"))
    seqs = [seq for seq, _, _, _ in actions]
    if seqs != list(range(1, table.version + 1)):
        problems.append(f"action log is not 1..{table.version} without gaps")
    by_hand = defaultdict(list)
    # A game lost on time (games.tables.service._forfeit) ends during its last hand: its winner
    # is the forfeit's, its scores those of the hands finished before.
    forfeits = {}
    for _, hand_id, kind, payload in actions:
        if kind == "forfeit":
            forfeits[hand_id] = payload["winner"]
        elif hand_id is not None:
            by_hand[hand_id].append(payload)
    last: tuple[Hand, engine.HandState] | None = None  # the table's latest hand, replayed
    last_game_over, replayed = False, True
    for game in table.games.order_by("number"):
        running = engine.new_game(rules, game.first_dealer)
        hands = list(game.hands.order_by("number").prefetch_related("tricks"))
        forfeit = forfeits.get(hands[-1].pk) if hands else None
        for index, hand in enumerate(hands):
            where = f"game {game.number} hand {hand.number}"
            if hand.dealer != running.dealer:
                problems.append(f"{where}: dealer {hand.dealer}, expected {running.dealer}")
            problems += _commitment_problems(where, hand)
            try:
                moves = [engine.Action.parse(p["action"]) for p in by_hand[hand.pk]]
                state = replay_hand(rules, hand, moves)
            except (engine.IllegalAction, KeyError, ValueError) as error:
                problems.append(f"{where}: the log does not replay ({error})")
                replayed = False
                break
            last = (hand, state)
            problems += _contract_problems(where, hand, state)
            stored = [(t.number, t.leader, t.cards, t.winner, t.points) for t in hand.tricks.all()]
            replayed_tricks = [
                (i, t.leader, "".join(engine.code_of(c) for c in t.cards), t.winner, t.points)
                for i, t in enumerate(state.tricks, start=1)
            ]
            if stored != replayed_tricks:
                problems.append(f"{where}: stored tricks differ from the replay")
            if state.phase != engine.DONE:
                if hand.ended or index != len(hands) - 1 or game.winner != forfeit:
                    problems.append(f"{where}: marked over, but its log is not finished")
                if index != len(hands) - 1:  # the game cannot be followed past this hand
                    replayed = False
                    break
                continue
            result = engine.score(state)
            expected = (
                state.ended,
                result.points[0],
                result.points[1],
                None if result.passed else result.made,
                result.litige,
                result.capot if result.capot >= 0 else None,
                result.held,
            )
            got = (
                hand.ended,
                hand.points_ns,
                hand.points_ew,
                hand.made,
                hand.litige,
                hand.capot,
                hand.held,
            )
            if expected != got:
                problems.append(f"{where}: stored result {got} differs from replay {expected}")
            if running.over:
                problems.append(f"{where}: dealt after the game was won")
                break
            try:
                running = engine.record_hand(running, state)
            except ValueError as error:  # dealt by the wrong dealer (said above)
                problems.append(f"{where}: the hand does not follow the game ({error})")
                replayed = False
                break
        winner = running.winner if running.over else forfeit
        last_game_over = winner is not None
        if (game.score_ns, game.score_ew, game.held, game.winner) != (
            *running.scores,
            running.held,
            winner,
        ):
            problems.append(
                f"game {game.number}: stored score {game.score_ns}-{game.score_ew} "
                f"(held {game.held}, winner {game.winner}) differs from replay "
                f"{running.scores[0]}-{running.scores[1]} (held {running.held}, winner {winner})"
            )
    if replayed:  # a log that does not replay has said enough: its position is unknown
        abandoned = any(kind == "abandon" for _, _, kind, _ in actions)
        problems += _position_problems(table, last, last_game_over, abandoned)
    return problems


def _commitment_problems(where: str, hand: Hand) -> list[str]:
    """The commitment published before the bidding against the stored deck and salt (a
    hand dealt before commitments existed has neither)."""
    if not hand.commitment and not hand.salt:
        return []
    if engine.commitment(hand.deck_list, hand.salt) == hand.commitment:
        return []
    return [f"{where}: the stored deck and salt do not match its commitment"]


def _contract_problems(where: str, hand: Hand, state: engine.HandState) -> list[str]:
    """The contract and taker the service stores as soon as a bid is made (the highest
    bid so far in a surenchère); none for a hand nobody took."""
    taken = state.contract >= 0
    expected = (engine.MODES[state.contract], state.taker) if taken else ("", None)
    if (hand.contract, hand.taker) == expected:
        return []
    return [
        f"{where}: stored contract {_contract(hand.contract, hand.taker)} differs from "
        f"replay {_contract(*expected)}"
    ]


def _contract(mode: str, taker: int | None) -> str:
    return f"{mode} by {engine.SEATS[taker]}" if mode and taker is not None else "none"


def _position_problems(
    table: Table,
    last: tuple[Hand, engine.HandState] | None,
    game_over: bool,
    abandoned: bool,
) -> list[str]:
    """The table's status, turn and current hand against what its log leads to: the
    lobby before the first deal; then the latest hand, in play until its game is won (or
    lost on time) or the table abandoned; a turn only while a hand is being played."""
    if abandoned:
        status = Table.Status.ABANDONED
    elif last is None:
        status = Table.Status.LOBBY
    elif game_over:
        status = Table.Status.FINISHED
    else:
        status = Table.Status.PLAYING
    problems = []
    turn = None
    if status == Table.Status.PLAYING:
        hand, state = last
        if state.phase == engine.DONE:
            problems.append(
                f"game {hand.game.number} hand {hand.number}: over, but the next hand "
                "was never dealt"
            )
        else:
            turn = state.turn
    current = last[0].pk if last is not None else None
    if table.status != status:
        problems.append(f"table status {table.status}, expected {status} from its log")
    if table.turn != turn:
        problems.append(f"table turn {_seat(table.turn)}, expected {_seat(turn)} from its log")
    if table.current_hand_id != current:
        problems.append(f"table current hand {table.current_hand_id}, expected {current}")
    return problems


def _seat(seat: int | None) -> str:
    return "nobody" if seat is None else engine.SEATS[seat]
