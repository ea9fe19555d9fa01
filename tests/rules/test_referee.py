"""The referee, ``python -m games.rules.referee``: JSON in, JSON out, as docs/rules.md says.

Each behaviour is checked through the real command (a subprocess reading stdin) and
through ``games.rules.referee.referee(spec)``, the function the command prints. The
round trips play random hands with the engine, give the actions to the referee as text
and compare what it prints with the engine's own state.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules import (
    DONE,
    MODES,
    PRESETS,
    SEATS,
    Action,
    Game,
    apply,
    code_of,
    deal,
    legal_actions,
    parse_cards,
    record_hand,
    score,
    start_with_contract,
)
from games.rules.referee import referee

REPO = Path(__file__).resolve().parents[2]
PRESET_NAMES = sorted(PRESETS)

# The example of docs/rules.md: dealer N, counter-clockwise, so west leads; south takes hearts.
README_HANDS = {
    "N": "JH 9H AS TS KS 7D 8D 7C",
    "E": "AH TH QS JS 9D TD AC KC",
    "S": "KH QH 7H 8S 9S AD QC JC",
    "W": "8H 7S KD QD JD TC 9C 8C",
}
README_SPEC = {
    "preset": "classique",
    "dealer": "N",
    "hands": README_HANDS,
    "contract": {"mode": "H", "taker": "S"},
}


def command(spec) -> tuple[int, dict, str]:
    """Run the real command; ``spec`` is a description, or raw text for stdin."""
    text = spec if isinstance(spec, str) else json.dumps(spec)
    done = subprocess.run(
        [sys.executable, "-m", "games.rules.referee"],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def both(spec) -> tuple[int, dict]:
    """The command and the function agree; their common answer."""
    code, out, _ = command(spec)
    assert referee(json.loads(json.dumps(spec))) == (code, out)
    return code, out


def deck_text(deck) -> str:
    return " ".join(code_of(c) for c in deck)


def cards(mask: int) -> list[str]:
    return [code_of(c) for c in range(32) if mask >> c & 1]


def assert_describes(out: dict, state) -> None:
    """The referee's output says what the engine's state holds, field by field."""
    assert out["phase"] == state.phase
    assert out["ended"] == (state.ended or None)
    assert out["dealer"] == SEATS[state.dealer]
    assert out["turn"] == (SEATS[state.turn] if state.turn >= 0 else None)
    assert out["legal"] == [str(a) for a in legal_actions(state)]
    if state.contract >= 0:
        assert out["contract"] == {"mode": MODES[state.contract], "taker": SEATS[state.taker]}
    else:
        assert out["contract"] is None
    assert out["turned"] == (code_of(state.turned) if state.turned >= 0 else None)
    assert {s: sorted(c) for s, c in out["hands"].items()} == {
        SEATS[s]: sorted(cards(state.hands[s])) for s in range(4)
    }
    assert out["bids"] == [f"{SEATS[s]} {a}" for s, a in state.bids]
    assert out["trick"] == [code_of(c) for c in state.trick]
    step = state.rules.step
    assert out["tricks"] == [
        {
            "leader": SEATS[t.leader],
            "cards": [code_of(c) for c in t.cards],
            "seats": [SEATS[(t.leader + i * step) % 4] for i in range(4)],
            "winner": SEATS[t.winner],
            "points": t.points,
        }
        for t in state.tricks
    ]
    assert out["belote"] == [
        {"seat": SEATS[b.seat], "suit": "SHDC"[b.suit], "call": b.call} for b in state.belote_calls
    ]
    assert sorted(
        (a["seat"], a["kind"], a["points"], *sorted(a["cards"])) for a in out["announces"]
    ) == sorted(
        (SEATS[s], a.kind, a.points, *sorted(cards(a.cards)))
        for s in range(4)
        if state.declared >> s & 1
        for a in state.announces[s]
    )
    assert out["points"] == {"NS": state.won[0], "EW": state.won[1]}
    if state.phase != DONE:
        assert "score" not in out
        return
    result = score(state)
    assert out["score"] == {
        "made": result.made,
        "litige": result.litige,
        "capot": ("NS", "EW")[result.capot] if result.capot >= 0 else None,
        "tricks": {"NS": result.tricks[0], "EW": result.tricks[1]},
        "belote": {"NS": result.belote[0], "EW": result.belote[1]},
        "announces": {"NS": result.announces[0], "EW": result.announces[1]},
        "points": {"NS": result.points[0], "EW": result.points[1]},
        "held": result.held,
        "winner": ("NS", "EW")[result.winner] if result.winner >= 0 else None,
    }


def random_actions(rng: random.Random, state, limit: int | None = None):
    """Random legal actions from ``state`` (to the end, or ``limit`` of them)."""
    done = []
    while state.phase != DONE and (limit is None or len(done) < limit):
        action = rng.choice(legal_actions(state))
        done.append((state.turn, action))
        state = apply(state, action)
    return state, done


def as_text(rng: random.Random, done) -> list[str]:
    """Actions in every text form the README allows: plain, seat-prefixed, bare card."""
    out = []
    for seat, action in done:
        text = str(action)
        form = rng.randrange(3)
        if form == 1:
            text = f"{SEATS[seat]} {text}"
        elif form == 2 and action.kind == "play":
            text = code_of(action.arg)
        out.append(text)
    return out


def taken_hand(preset: str, seed: int):
    """A seeded deck and dealer whose first speaker takes, then random play to the end."""
    rng = random.Random(seed)
    rules = PRESETS[preset]
    deck = list(range(32))
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    state = apply(deal(rules, dealer, deck), Action("take"))
    state, done = random_actions(rng, state)
    actions = ["take", *(str(a) for _, a in done)]
    return rules, dealer, deck, actions, state


# ---------------------------------------------------------------------------------------
# The two ways to start


def test_a_deck_with_bidding_plays_a_complete_hand_and_prints_its_score():
    rules, dealer, deck, actions, state = taken_hand("classique", seed=7)
    spec = {
        "preset": "classique",
        "dealer": SEATS[dealer],
        "deck": deck_text(deck),
        "actions": actions,
    }
    code, out = both(spec)
    assert code == 0
    assert out["phase"] == "done" and out["ended"] == "played"
    assert out["score"]["points"] == dict(zip(("NS", "EW"), score(state).points, strict=True))
    assert_describes(out, state)
    # The deck may also be a list of codes.
    assert referee({**spec, "deck": [code_of(c) for c in deck]}) == (0, out)


def test_the_deck_alone_shows_the_deal_and_the_first_speaker():
    rules = PRESETS["classique"]
    deck = list(range(32))
    code, out = both({"preset": "classique", "dealer": "N", "deck": deck_text(deck)})
    assert code == 0
    assert out["phase"] == "bidding"
    assert out["turn"] == "W"  # classique: the dealer's right speaks first
    assert out["legal"] == ["pass", "take"]
    assert_describes(out, deal(rules, 0, deck))


def test_dealt_hands_and_a_fixed_contract_play_the_readme_example():
    code, out = both({**README_SPEC, "actions": ["play 8H", "S play KH"]})
    assert code == 0
    assert out["turn"] == "E"
    assert out["legal"] == ["play TH", "play AH"]  # east must go over the king
    assert out["trick"] == ["8H", "KH"]
    assert out["belote"] == [{"seat": "S", "suit": "H", "call": "belote"}]


def test_dealt_hands_play_a_complete_hand_whose_score_matches_the_engine():
    rules = PRESETS["classique"]
    hands = [parse_cards(README_HANDS[s]) for s in SEATS]
    start = start_with_contract(rules, 0, hands, MODES.index("H"), SEATS.index("S"))
    state, done = random_actions(random.Random(3), start)
    code, out = both({**README_SPEC, "actions": [str(a) for _, a in done]})
    assert code == 0
    assert out["phase"] == "done"
    assert out["score"]["points"] == dict(zip(("NS", "EW"), score(state).points, strict=True))
    assert_describes(out, state)


# ---------------------------------------------------------------------------------------
# Seats and refusals


def test_seat_prefixed_actions_give_the_same_result_as_plain_ones():
    rules, dealer, deck, actions, state = taken_hand("belote_com", seed=11)
    replayed = deal(rules, dealer, deck)
    prefixed = []
    for text in actions:
        action = Action.parse(text)
        prefixed.append(f"{SEATS[replayed.turn]} {text}")
        replayed = apply(replayed, action)
    base = {"preset": "belote_com", "dealer": SEATS[dealer], "deck": deck_text(deck)}
    plain = referee({**base, "actions": actions})
    assert plain[0] == 0
    assert both({**base, "actions": prefixed}) == plain


def test_a_seat_that_is_not_the_one_to_act_gets_not_your_turn():
    code, out = both({**README_SPEC, "actions": ["W play 8H", "E play KH"]})
    assert code == 1
    assert out["error"]["code"] == "not_your_turn"
    assert out["error"]["index"] == 1
    assert out["error"]["action"] == "E play KH"
    assert out["error"]["message"]


@pytest.mark.parametrize(
    ("actions", "code", "index"),
    [
        # South holds KH QH 7H over the 8H: a trump must go higher.
        (["play 8H", "play 7H", "play XX"], "must_overtrump", 1),
        (["play 8H", "play KH", "play QS"], "must_follow_suit", 2),
        (["play AS"], "card_not_in_hand", 0),
        (["play 8H", "pass"], "wrong_phase", 1),
        (["play 8H", "shout"], "unknown_action", 1),
        (["play 8H", "play"], "unknown_action", 1),
    ],
)
def test_the_first_illegal_action_stops_the_run_with_its_code_and_index(actions, code, index):
    exit_code, out = both({**README_SPEC, "actions": actions})
    assert exit_code == 1
    assert set(out) == {"error"}
    error = out["error"]
    assert error["code"] == code
    assert error["index"] == index
    assert error["action"] == actions[index]
    assert isinstance(error["message"], str) and error["message"]


def test_an_action_after_the_end_of_the_hand_is_refused():
    rules, dealer, deck, actions, _ = taken_hand("moderne", seed=5)
    spec = {"preset": "moderne", "dealer": SEATS[dealer], "deck": deck_text(deck)}
    code, out = referee({**spec, "actions": [*actions, "pass"]})
    assert code == 1
    assert out["error"]["code"] == "hand_over"
    assert out["error"]["index"] == len(actions)


BAD_INPUTS = {
    "not an object": [1, 2, 3],
    "unknown preset": {"preset": "rami", "deck": list(range(32))},
    "preset not a name": {"preset": ["classique"], "hands": README_HANDS},
    "preset an object": {"preset": {}, "hands": README_HANDS},
    "unknown option": {"options": {"jokers": True}, "deck": deck_text(range(32))},
    "bad option value": {"options": {"target": 750}, "deck": deck_text(range(32))},
    "options not an object": {"options": ["target"], "deck": deck_text(range(32))},
    "bad deal pattern": {"options": {"deal_pattern": 5}, "deck": deck_text(range(32))},
    "deal pattern of floats": {
        "options": {"deal_pattern": [3.0, 2.0]},
        "deck": deck_text(range(32)),
    },
    "bad dealer": {"dealer": "X", "deck": deck_text(range(32))},
    "short deck": {"deck": deck_text(range(31))},
    "deck with a card twice": {"deck": deck_text([0, *range(31)])},
    "unknown card": {"deck": "ZZ " + deck_text(range(1, 32))},
    "deck not cards": {"deck": 32},
    "neither deck nor hands": {"actions": []},
    "hands without contract": {"hands": README_HANDS},
    "bad contract mode": {**README_SPEC, "contract": {"mode": "X", "taker": "S"}},
    "bad contract taker": {**README_SPEC, "contract": {"mode": "H", "taker": "Z"}},
    "hands of 7 cards": {
        **README_SPEC,
        "hands": {**README_HANDS, "N": "JH 9H AS TS KS 7D 8D"},
    },
    "a card in two hands": {
        **README_SPEC,
        "hands": {**README_HANDS, "N": "JH 9H AS TS KS 7D 8D AH"},
    },
    "actions not a list": {**README_SPEC, "actions": "play 8H"},
    "game not an object": {**README_SPEC, "game": [0, 0]},
    "game score not a number": {**README_SPEC, "game": {"NS": "lots"}},
    "game score infinite": {**README_SPEC, "game": {"NS": float("inf")}},
}


@pytest.mark.parametrize("spec", list(BAD_INPUTS.values()), ids=list(BAD_INPUTS))
def test_bad_input_exits_2_with_a_message(spec):
    code, out, stderr = command(spec)
    assert code == 2
    assert out["error"]["code"] == "bad_input"
    assert isinstance(out["error"]["message"], str) and out["error"]["message"]
    assert stderr == ""
    assert referee(spec) == (2, out)


@pytest.mark.parametrize("text", ["", "{", "not json", '{"preset": "classique",}'])
def test_input_that_is_not_json_exits_2_with_a_message(text):
    code, out, stderr = command(text)
    assert code == 2
    assert out["error"]["code"] == "bad_input"
    assert out["error"]["message"]
    assert stderr == ""


# ---------------------------------------------------------------------------------------
# The game score


def finished_hand_spec(preset: str, seed: int):
    rules, dealer, deck, actions, state = taken_hand(preset, seed)
    spec = {
        "preset": preset,
        "dealer": SEATS[dealer],
        "deck": deck_text(deck),
        "actions": actions,
    }
    return spec, state


def expected_game(state, ns: int, ew: int, held: int) -> dict:
    after = record_hand(Game(state.rules, state.dealer, (ns, ew), held, (), -1), state)
    return {
        "NS": after.scores[0],
        "EW": after.scores[1],
        "held": after.held,
        "winner": ("NS", "EW")[after.winner] if after.winner >= 0 else None,
        "next_dealer": SEATS[after.dealer],
    }


def test_the_game_input_adds_the_hand_to_the_running_score():
    spec, state = finished_hand_spec("classique", seed=21)
    result = score(state)
    code, out = both({**spec, "game": {"NS": 300, "EW": 250, "held": 0}})
    assert code == 0
    assert out["game"]["NS"] == 300 + result.points[0]
    assert out["game"]["EW"] == 250 + result.points[1]
    assert out["game"]["winner"] is None
    assert out["game"] == expected_game(state, 300, 250, 0)
    # classique: the next dealer is on the dealer's right.
    assert out["game"]["next_dealer"] == SEATS[(state.dealer + 3) % 4]


def test_the_game_reports_the_winner_at_the_target():
    for seed in range(200):
        spec, state = finished_hand_spec("classique", seed)
        result = score(state)
        if result.winner >= 0 and result.points[result.winner] > 0:
            break
    team = ("NS", "EW")[result.winner]
    before = {"NS": 900, "EW": 900, "held": 0}
    before[team] = 1000 - result.points[result.winner]
    code, out = both({**spec, "game": before})
    assert code == 0
    assert out["game"][team] == 1000
    assert out["game"]["winner"] == team
    assert out["game"] == expected_game(state, before["NS"], before["EW"], 0)


def test_held_litige_points_go_to_the_winner_of_the_hand():
    for seed in range(200):
        spec, state = finished_hand_spec("moderne", seed)
        result = score(state)
        if result.winner >= 0:
            break
    team = ("NS", "EW")[result.winner]
    code, out = both({**spec, "game": {"NS": 100, "EW": 100, "held": 81}})
    assert code == 0
    assert out["game"][team] == 100 + result.points[result.winner] + 81
    assert out["game"]["held"] == result.held
    assert out["game"] == expected_game(state, 100, 100, 81)


def test_no_game_score_before_the_hand_is_over():
    code, out = referee({**README_SPEC, "actions": ["play 8H"], "game": {"NS": 10}})
    assert code == 0
    assert "game" not in out and "score" not in out


# ---------------------------------------------------------------------------------------
# Round trips: random games through the referee


def round_trip_specs(preset: str, hands: int, seed: int):
    """Random hands of a preset, some stopped halfway: (spec, engine state) pairs."""
    rng = random.Random(f"{preset}-{seed}")
    base_rules = PRESETS[preset]
    for number in range(hands):
        rules = base_rules
        if number % 3 == 1 and base_rules.announces == "off":
            rules = base_rules.with_options(announces=rng.choice(["auto", "declared"]))
        dealer = rng.randrange(4)
        limit = None if number % 2 == 0 else rng.randrange(1, 30)
        spec = {"preset": preset, "dealer": SEATS[dealer]}
        if rules != base_rules:
            spec["options"] = rules.diff(base_rules)
        deck = list(range(32))
        rng.shuffle(deck)
        if number % 4 == 3:
            mode, taker = rng.randrange(6), rng.randrange(4)
            hands_ = [deck[8 * s : 8 * s + 8] for s in range(4)]
            start = start_with_contract(rules, dealer, hands_, mode, taker)
            spec["hands"] = {SEATS[s]: deck_text(hands_[s]) for s in range(4)}
            spec["contract"] = {"mode": MODES[mode], "taker": SEATS[taker]}
        else:
            start = deal(rules, dealer, deck)
            spec["deck"] = deck_text(deck)
        state, done = random_actions(rng, start, limit)
        spec["actions"] = as_text(rng, done)
        yield spec, state


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_hands_through_the_referee_match_the_engine(preset):
    for spec, state in round_trip_specs(preset, hands=40, seed=1):
        code, out = referee(json.loads(json.dumps(spec)))
        assert code == 0, out
        assert_describes(out, state)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_random_hand_through_the_command_matches_the_engine(preset):
    spec, state = next(
        (spec, state)
        for spec, state in round_trip_specs(preset, hands=20, seed=2)
        if state.phase == DONE and state.ended == "played"
    )
    code, out, _ = command(spec)
    assert code == 0
    assert_describes(out, state)
