"""The solver's C search (games/bots/dds.c) against the pure Python reference
(games/bots/solver.py) and the engine: the same legal cards, trick winners, card points,
values and search nodes, on positions of random legal games of every preset and mode.

The first test fails when the extension is not built: ``make venv`` builds it, and CI
runs the tests after it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import solver as solver_module
from games.bots.solver import (
    CAPOT,
    Solver,
    defence_capot_x,
    outcome,
    rules_flags,
    score_context,
)
from games.rules import DONE, PRESETS, apply, legal_actions
from games.rules.actions import ANNOUNCE
from games.rules.cards import POINTS
from games.rules.hand import PLAYING, legal_mask, start_with_contract

PRESET_NAMES = sorted(PRESETS)
FLAGS = ("overtrump_partner", "partner_master_frees", "free_trumps_go_higher", "must_undertrump")
# 60 examples by default, 300 in CI's profile (tests/conftest.py).
EXAMPLES = settings(
    max_examples=max(10, int(settings().max_examples * 0.6)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_the_c_search_is_built_and_used_by_default():
    from games.bots import dds  # ImportError: `make venv` did not build it

    assert solver_module.NATIVE
    state = start_with_contract(
        PRESETS["classique"], 0, [list(range(i * 8, i * 8 + 8)) for i in range(4)], 0, 1
    )
    assert Solver(state).native
    assert not Solver(state, native=False).native
    assert isinstance(dds.Core(0, 1, 1, 0, -2000).nodes, int)


@st.composite
def rules_with_any_legality(draw):
    """A preset, its legality options sometimes changed, so every combination is met."""
    rules = PRESETS[draw(st.sampled_from(PRESET_NAMES))]
    changes = {name: draw(st.booleans()) for name in FLAGS if draw(st.booleans())}
    return rules.with_options(**changes)


def game_positions(rules, mode: int, seed: int):
    """Every position of a random legal game of ``rules`` under contract ``mode``."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [deck[i * 8 : i * 8 + 8] for i in range(4)]
    state = start_with_contract(rules, rng.randrange(4), hands, mode, rng.randrange(4))
    states = [state]
    while state.phase != DONE:
        actions = legal_actions(state)
        state = apply(state, ANNOUNCE if ANNOUNCE in actions else rng.choice(actions))
        states.append(state)
    return states


@EXAMPLES
@given(rules=rules_with_any_legality(), mode=st.integers(0, 5), seed=st.integers(0, 2**32))
def test_legal_cards_trick_winners_and_points_are_the_engines(rules, mode, seed):
    from games.bots import dds

    flags = rules_flags(rules)
    states = game_positions(rules, mode, seed)
    for state in states:
        if state.phase != PLAYING:
            continue
        for seat in range(4):  # every hand, as if it were to play to this trick
            hand = state.hands[seat]
            assert dds.legal_mask(flags, mode, hand, state.trick) == legal_mask(
                rules, mode, hand, state.trick
            )
    final = states[-1]
    assert len(final.tricks) == 8
    for i, trick in enumerate(final.tricks):
        for n in range(1, 5):  # the master after each card, the winner after the fourth
            master = dds.trick_master(mode, trick.cards[:n])
            if n == 4:
                assert trick.seat_of(master, rules.step) == trick.winner
        worth = sum(dds.points(mode, c) for c in trick.cards)
        assert worth == sum(POINTS[mode][c] for c in trick.cards)
        assert trick.points == worth + (10 if i == 7 else 0)  # the dix de der


@EXAMPLES
@given(
    rules=rules_with_any_legality(),
    mode=st.integers(0, 5),
    seed=st.integers(0, 2**32),
    played=st.integers(12, 31),
)
def test_the_c_search_gives_the_references_values_and_nodes(rules, mode, seed, played):
    states = [s for s in game_positions(rules, mode, seed) if s.phase == PLAYING]
    # ``played`` cards down (announces declared on the way): five tricks left or fewer.
    state = next(s for s in states if 4 * len(s.tricks) + len(s.trick) == played)
    ctx = score_context(state)
    pure, native = Solver(state, ctx, native=False), Solver(state, ctx, native=True)
    values = pure.card_values(state)
    assert native.card_values(state) == values
    assert native.nodes == pure.nodes
    for card, x in values.items():
        assert outcome(ctx, x) == outcome(ctx, native.card_values(state)[card])
    assert Solver(state, ctx, native=True).future(state) == Solver(state, ctx, native=False).future(
        state
    )


def test_the_c_search_agrees_when_a_capot_against_the_taker_is_a_half_point():
    """With the best announces, the taker's team may prefer no trick to a small one: the
    defence's capot is then a half point among the values (``defence_capot_x``), which the
    C search keeps doubled."""
    found = 0
    for seed in range(4000):
        rules = PRESETS[("annonces", "stekius")[seed % 2]]
        states = [s for s in game_positions(rules, seed % 6, seed) if s.phase == PLAYING]
        state = next(s for s in states if len(s.tricks) == 3)  # five tricks left
        ctx = score_context(state)
        if defence_capot_x(ctx) == -CAPOT or any(
            t.winner & 1 == state.taker & 1 for t in state.tricks
        ):
            continue
        found += 1
        pure, native = Solver(state, ctx, native=False), Solver(state, ctx, native=True)
        assert native.card_values(state) == pure.card_values(state)
        assert native.future(state) == pure.future(state)
        if found == 12:
            break
    assert found == 12


def test_the_c_search_agrees_on_whole_hands():
    """From the first card, in every mode, on a few deals (the pure search takes seconds)."""
    rng = random.Random(11)
    for mode in range(6):
        rules = PRESETS[PRESET_NAMES[mode % len(PRESET_NAMES)]]
        state = game_positions(rules, mode, rng.randrange(10**6))[0]
        while state.phase == PLAYING and ANNOUNCE in legal_actions(state):
            state = apply(state, ANNOUNCE)
        # Two tricks down: the reference solves the rest in well under a second or two.
        for _ in range(8):
            state = apply(state, rng.choice(legal_actions(state)))
        pure, native = Solver(state, native=False), Solver(state, native=True)
        assert native.card_values(state) == pure.card_values(state)
        assert native.nodes == pure.nodes


def test_bad_arguments_are_refused():
    from games.bots import dds

    with pytest.raises(ValueError):
        dds.Core(6, 1, 0, 0, -2000)
    with pytest.raises(ValueError):
        dds.legal_mask(0, 0, 0xFF, [1, 2, 3, 4])
    with pytest.raises(ValueError):
        dds.trick_master(0, [])
    core = dds.Core(0, 1, 0, 0, -2000)
    with pytest.raises(ValueError):
        core.future((0, 0, 0), (), 0, 0, 0, False, False)
    with pytest.raises(ValueError):
        core.future((0, 0, 0, 0), (40,), 0, 0, 0, False, False)
