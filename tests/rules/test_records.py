"""Records and commitments with the engine alone (games/rules/records.py): a game played
by random legal moves, written as a record, verifies; every field of it replaced by a
value of the wrong kind is refused with a message, never a crash."""

from __future__ import annotations

import contextlib
import copy
import random

import pytest

from games import rules as engine
from games.rules.records import (
    FORMAT,
    RecordRefused,
    commitment,
    verify_bytes,
    verify_record,
)


def test_the_commitment_encoding_is_the_documented_one():
    import hashlib

    deck = [engine.code_of(c) for c in range(32)]
    data = "belote-deal-v1\n" + ",".join(deck) + "\n" + "0f" * 16
    assert commitment(deck, "0f" * 16) == hashlib.sha256(data.encode()).hexdigest()


def played_record(seed: int = 0, preset: str = "classique") -> dict:
    """A whole game by random legal moves, as the site writes its record."""
    rng = random.Random(seed)
    rules = engine.PRESETS[preset]
    game = engine.new_game(rules, 0)
    hands = []
    while not game.over:
        deck = list(range(32))
        rng.shuffle(deck)
        codes = [engine.code_of(c) for c in deck]
        salt = f"{rng.getrandbits(128):032x}"
        state = engine.start_hand(game, deck)
        actions = []
        while state.phase != engine.DONE:
            action = rng.choice(engine.legal_actions(state))
            actions.append(f"{engine.SEATS[state.turn]} {action}")
            state = engine.apply(state, action)
        result = engine.score(state)
        hands.append(
            {
                "number": len(hands) + 1,
                "dealer": engine.SEATS[game.dealer],
                "deck": codes,
                "salt": salt,
                "commitment": commitment(codes, salt),
                "actions": actions,
                "result": {
                    "ended": state.ended,
                    "points": dict(zip(engine.TEAMS, result.points, strict=True)),
                    "made": None if result.passed else result.made,
                    "litige": result.litige,
                    "capot": engine.TEAMS[result.capot] if result.capot >= 0 else None,
                    "held": result.held,
                },
            }
        )
        game = engine.record_hand(game, state)
    return {
        "format": FORMAT,
        "kind": "game",
        "preset": preset,
        "options": {},
        "hands": hands,
        "after": {
            "NS": game.scores[0],
            "EW": game.scores[1],
            "held": game.held,
            "winner": engine.TEAMS[game.winner],
            "forfeit": False,
        },
    }


@pytest.fixture(scope="module")
def record() -> dict:
    return played_record()


def test_a_game_played_by_the_engine_verifies(record):
    verified = verify_record(record)
    assert verified.hands == verified.committed == len(record["hands"])
    assert verified.winner == record["after"]["winner"]


def test_a_hand_dealt_before_commitments_verifies_and_is_named(record):
    old = copy.deepcopy(record)
    old["hands"][0]["salt"] = old["hands"][0]["commitment"] = None
    verified = verify_record(old)
    assert verified.uncommitted == [1]
    assert "donnes distribuées avant les empreintes : 1" in verified.summary()


def test_a_hand_dealt_by_the_wrong_dealer_is_refused(record):
    other = copy.deepcopy(record)
    other["hands"][1]["dealer"] = other["hands"][0]["dealer"]
    with pytest.raises(RecordRefused, match="donne 2 : donneur : .* enregistré"):
        verify_record(other)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:2]):
            yield from _paths(item, (*path, index))


WRONG = [None, 0, -1, 1.5, "", "x", [], {}, [1], {"NS": 1}, True, "N", "NS", 10**30, "JH"]


def test_any_field_of_the_wrong_kind_is_refused_never_a_crash(record):
    small = copy.deepcopy(record)
    small["hands"] = small["hands"][:2]
    for path in _paths(small):
        for value in WRONG:
            changed = copy.deepcopy(small)
            if not path:
                changed = value
            else:
                target = changed
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = value
            with contextlib.suppress(RecordRefused):
                verify_record(changed)


@pytest.mark.parametrize(
    "data",
    [b"[" * 100_000, b"\xff\xfe", b"PK\x03\x04 broken", b"", b"null", b"x" * 2_000_001],
)
def test_bytes_that_are_not_a_record_are_refused(data):
    try:
        results = verify_bytes(data)
    except RecordRefused:
        return
    assert all(isinstance(result, RecordRefused) for _, result in results)
