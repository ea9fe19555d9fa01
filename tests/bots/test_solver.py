"""The double-dummy solver (games/bots/solver.py): exact against brute force on small
endings in every preset and contract, its score arithmetic equal to the engine's, and a
whole hand solved from the first card."""

from __future__ import annotations

import random

import pytest

from games.bots.solver import CAPOT, Solver, defence_capot_x, outcome, score_context
from games.rules import DONE, PRESETS, apply, deal, legal_actions, score
from games.rules.actions import ANNOUNCE, PLAY, PLAY_
from games.rules.cards import HAND_POINTS
from games.rules.hand import PLAYING, start_with_contract


def dealt_in_play(rules, rng: random.Random, contract: int | None = None):
    """A random deal with a random contract and taker, in play, announces declared."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [deck[i * 8 : i * 8 + 8] for i in range(4)]
    mode = rng.randrange(6) if contract is None else contract
    state = start_with_contract(rules, rng.randrange(4), hands, mode, rng.randrange(4))
    return state


def random_play(state, rng: random.Random, cards: int):
    """``cards`` random legal cards (announces declared on the way)."""
    while cards and state.phase == PLAYING:
        actions = legal_actions(state)
        if ANNOUNCE in actions:
            state = apply(state, ANNOUNCE)
            continue
        state = apply(state, rng.choice(actions))
        cards -= 1
    return state


def taker_diff(state) -> int:
    result = score(state)
    t = state.taker & 1
    return result.points[t] - result.points[1 - t]


def brute(state) -> int:
    """Plain minimax on the engine's states and score: the taker's team maximises."""
    if state.phase == DONE:
        return taker_diff(state)
    values = [brute(apply(state, a)) for a in legal_actions(state) if a.kind == PLAY_]
    return max(values) if state.turn & 1 == state.taker & 1 else min(values)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_solver_equals_brute_force_on_endings(preset):
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for trial in range(36):
        state = dealt_in_play(rules, rng, contract=trial % 6)
        # Three tricks left, sometimes with a trick under way.
        state = random_play(state, rng, 20 + trial % 4)
        solver = Solver(state)
        ctx = score_context(state)
        values = solver.card_values(state)
        for card, x in values.items():
            assert outcome(ctx, x) == brute(apply(state, PLAY[card])), (preset, trial, card)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_score_is_the_engines_and_grows_with_the_takers_points(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"score {preset}")
    for _ in range(60):
        state = random_play(dealt_in_play(rules, rng), rng, 32)
        assert state.phase == DONE
        ctx = score_context(state)
        t = state.taker & 1
        taken = [0, 0]
        for trick in state.tricks:
            taken[trick.winner & 1] += 1
        low = defence_capot_x(ctx)
        x = state.won[t] + CAPOT if not taken[1 - t] else low if not taken[t] else state.won[t]
        assert outcome(ctx, x) == taker_diff(state)
        # Monotone: what makes the search on x exact.
        xs = sorted([low, *range(0, HAND_POINTS + 1), HAND_POINTS + CAPOT])
        scores = [outcome(ctx, v) for v in xs]
        assert scores == sorted(scores)


def test_perfect_play_from_the_fourth_trick_reaches_the_solved_value():
    rng = random.Random(7)
    for preset in ("classique", "moderne"):
        rules = PRESETS[preset]
        for contract in range(6):
            state = random_play(dealt_in_play(rules, rng, contract), rng, 12)
            value = state.won[state.taker & 1] + Solver(state).future(state)
            # Every seat plays a card of best value for its team: the hand ends at it.
            while state.phase != DONE:
                if ANNOUNCE in legal_actions(state):
                    state = apply(state, ANNOUNCE)
                    continue
                values = Solver(state).card_values(state)
                pick = max if state.turn & 1 == state.taker & 1 else min
                card = pick(values, key=values.get)
                assert values[card] == value
                state = apply(state, PLAY[card])
            t = state.taker & 1
            taken = sum(1 for trick in state.tricks if trick.winner & 1 == t)
            low = defence_capot_x(score_context(state))
            final = state.won[t] + CAPOT if taken == 8 else low if taken == 0 else state.won[t]
            assert final == value


def test_deal_helper_is_a_real_deal():
    state = deal(PRESETS["classique"], 0, range(32))
    with pytest.raises(ValueError):
        Solver(state)
