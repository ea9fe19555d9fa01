"""Reads of game state that are more than a query: rebuilding a hand from its log."""

from __future__ import annotations

from games import rules as engine
from games.models import Action, Hand, Table


def deck_codes(deck: list[int] | tuple[int, ...]) -> str:
    return "".join(engine.code_of(c) for c in deck)


def deck_cards(codes: str) -> list[int]:
    return [engine.card_of(codes[i : i + 2]) for i in range(0, len(codes), 2)]


def hand_actions(hand: Hand) -> list[engine.Action]:
    payloads = Action.objects.filter(hand=hand).order_by("seq").values_list("payload", flat=True)
    return [engine.Action.parse(p["action"]) for p in payloads]


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
