"""A bot's knowledge is what its seat's view shows, nothing more, nothing less.

``knowledge_of`` reads the acting seat's knowledge straight from the state, for speed;
``read_view(view(state, seat))`` reads it from the filtered view a player gets. Hypothesis
plays random legal hands of every preset and requires both to agree at every decision:
the bots see through the view, whichever way it is read.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.heuristic import knowledge_of, read_view
from games.rules import DONE, PRESETS, apply, deal, legal_actions, view


@settings(deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    dealer=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_knowledge_of_equals_the_read_view(preset, dealer, seed):
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    state = deal(PRESETS[preset], dealer, deck)
    while state.phase != DONE:
        assert knowledge_of(state) == read_view(view(state, state.turn), state.rules)
        state = apply(state, rng.choice(legal_actions(state)))
