"""Checking stored games against the engine: the action log replayed must give the rows."""

from __future__ import annotations

from collections import defaultdict

from games import rules as engine
from games.models import Table
from games.selectors import replay_hand


def verify_table(table: Table) -> list[str]:
    """What differs between the table's rows and the replay of its log (empty: all good)."""
    problems: list[str] = []
    rules = table.rules
    actions = list(table.actions.order_by("seq").values_list("seq", "hand_id", "kind", "payload"))
    seqs = [seq for seq, _, _, _ in actions]
    if seqs != list(range(1, table.version + 1)):
        problems.append(f"action log is not 1..{table.version} without gaps")
    by_hand = defaultdict(list)
    # A game lost on time (games.service._forfeit) ends during its last hand: its winner
    # is the forfeit's, its scores those of the hands finished before.
    forfeits = {}
    for _, hand_id, kind, payload in actions:
        if kind == "forfeit":
            forfeits[hand_id] = payload["winner"]
        elif hand_id is not None:
            by_hand[hand_id].append(payload)
    for game in table.games.order_by("number"):
        running = engine.new_game(rules, game.first_dealer)
        hands = list(game.hands.order_by("number").prefetch_related("tricks"))
        forfeit = forfeits.get(hands[-1].pk) if hands else None
        for index, hand in enumerate(hands):
            where = f"game {game.number} hand {hand.number}"
            if hand.dealer != running.dealer:
                problems.append(f"{where}: dealer {hand.dealer}, expected {running.dealer}")
            try:
                moves = [engine.Action.parse(p["action"]) for p in by_hand[hand.pk]]
                state = replay_hand(rules, hand, moves)
            except (engine.IllegalAction, KeyError, ValueError) as error:
                problems.append(f"{where}: the log does not replay ({error})")
                break
            stored = [(t.number, t.leader, t.cards, t.winner, t.points) for t in hand.tricks.all()]
            replayed = [
                (i, t.leader, "".join(engine.code_of(c) for c in t.cards), t.winner, t.points)
                for i, t in enumerate(state.tricks, start=1)
            ]
            if stored != replayed:
                problems.append(f"{where}: stored tricks differ from the replay")
            if state.phase != engine.DONE:
                if hand.ended or index != len(hands) - 1 or game.winner != forfeit:
                    problems.append(f"{where}: marked over, but its log is not finished")
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
            running = engine.record_hand(running, state)
        winner = running.winner if running.over else forfeit
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
    return problems
