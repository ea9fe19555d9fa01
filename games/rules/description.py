"""A hand described in JSON, as the referee (``python -m games.rules.referee``) and the
game records (games/rules/records.py) read it: its starting state, then its actions run.
The format: docs/rules.md ("Referee")."""

from __future__ import annotations

from typing import Any

from .actions import Action, IllegalAction, gettext_noop
from .cards import MODES, SEATS, parse_cards
from .hand import HandState, apply, deal, start_with_contract
from .options import InvalidOptions
from .presets import PRESETS, rules_for


class BadInput(ValueError):
    pass


def _seat(value: Any, what: str) -> int:
    if not isinstance(value, str) or len(value) != 1 or value not in SEATS:
        raise BadInput(f"{what} must be one of N, E, S, W")
    return SEATS.index(value)


def _cards(value: Any, what: str) -> tuple[int, ...]:
    try:
        if not isinstance(value, (str, list)):
            raise ValueError
        return parse_cards(value)
    except (ValueError, TypeError) as error:
        raise BadInput(f"{what}: cards are codes such as JH, 9S, TD") from error


def start(spec: dict[str, Any]) -> tuple[HandState, list[Any]]:
    """The starting state and the raw action list of a description."""
    if not isinstance(spec, dict):
        raise BadInput("the input is a JSON object")
    preset = spec.get("preset", "classique")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise BadInput(f"unknown preset {preset!r}; one of {', '.join(PRESETS)}")
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise BadInput("options is an object")
    try:
        rules = rules_for(preset, options)
    except (InvalidOptions, TypeError) as error:
        raise BadInput(str(error)) from error
    dealer = _seat(spec.get("dealer", "N"), "dealer")
    actions = spec.get("actions", [])
    if not isinstance(actions, list):
        raise BadInput("actions is a list of strings")
    if "deck" in spec:
        deck = _cards(spec["deck"], "deck")
        if len(deck) != 32 or len(set(deck)) != 32:
            raise BadInput("deck: the 32 cards, each once, top first")
        return deal(rules, dealer, deck), actions
    hands, contract = spec.get("hands"), spec.get("contract")
    if not isinstance(hands, dict) or not isinstance(contract, dict):
        raise BadInput("give either a deck, or hands and a contract")
    dealt = [_cards(hands.get(s, ""), f"hands.{s}") for s in SEATS]
    mode = contract.get("mode")
    if mode not in MODES:
        raise BadInput(f"contract.mode must be one of {', '.join(MODES)}")
    taker = _seat(contract.get("taker"), "contract.taker")
    try:
        state = start_with_contract(rules, dealer, dealt, MODES.index(mode), taker)
    except ValueError as error:
        raise BadInput(f"hands: {error}") from error
    return state, actions


def run(state: HandState, actions: list[Any]) -> HandState:
    for index, raw in enumerate(actions):
        try:
            if not isinstance(raw, str):
                raise IllegalAction(
                    "unknown_action", gettext_noop("Une action s'écrit comme « play JH ».")
                )
            words = raw.split()
            seat = None
            if len(words) > 1 and words[0] in SEATS:
                seat = SEATS.index(words[0])
                raw = " ".join(words[1:])
            state = apply(state, Action.parse(raw), seat)
        except IllegalAction as error:
            error.index = index
            raise
    return state
