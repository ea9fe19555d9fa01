"""The deals the expert draws (games/bots/expert.py) keep everything its seat knows."""

from __future__ import annotations

import random

import pytest

from games.bots.expert import sample_hands, sampled_state, seen_by
from games.bots.heuristic import knowledge_of
from games.rules import PRESETS, deal
from games.rules.cards import JACK, NINE
from games.rules.hand import PLAYING
from tests.test_bots import self_play


def states_of(preset: str, seeds: range):
    """Every state of heuristic self-play hands."""
    out = []
    for seed in seeds:
        self_play(PRESETS[preset], seed, ("heuristic",) * 4, lambda s, a: out.append(s))
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_drawn_deals_keep_the_seats_knowledge(preset):
    rng = random.Random(preset)
    checked = 0
    for state in states_of(preset, range(6)):
        seen = seen_by(state)
        k = knowledge_of(state)
        hands = sample_hands(seen, rng)
        me = state.turn
        assert hands[me] == state.hands[me]
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in state.hands]
        for seat in range(4):
            for suit in range(4):
                if k.voids[seat] >> suit & 1:
                    assert not hands[seat] >> (suit * 8) & 0xFF
        if state.phase == PLAYING:
            # The drawn hands hold exactly the cards not yet played.
            assert hands[0] | hands[1] | hands[2] | hands[3] == (
                state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
            )
            if state.hands[state.taker] >> state.turned & 1:
                assert hands[state.taker] >> state.turned & 1
            sample = sampled_state(state, hands)
            for call in state.belote_calls:
                if call.seat != me:  # a seat that called holds (or held) both cards
                    assert sample.belotes[call.seat] >> call.suit & 1
            if state.rules.announces == "auto":  # who holds announces is public
                assert sample.declared == state.declared
            checked += 1
    assert checked > 50


def test_bidding_draws_five_cards_each_and_leave_the_turned_card():
    state = deal(PRESETS["classique"], 0, range(32))
    hands = sample_hands(seen_by(state), random.Random(1))
    assert [h.bit_count() for h in hands] == [5, 5, 5, 5]
    assert not (hands[0] | hands[1] | hands[2] | hands[3]) >> state.turned & 1
    assert hands[state.turn] == state.hands[state.turn]


def test_the_taker_of_a_trump_contract_is_drawn_with_its_jack_or_nine():
    """What the bidding tells: nobody takes a suit without its jack or nine (the heuristic
    never does), so the drawn deals give the taker one whenever the cards left allow."""
    rng = random.Random(3)
    checked = 0
    for state in states_of("classique", range(8)):
        if state.phase != PLAYING or state.turn & 1 == state.taker & 1 or state.contract >= 4:
            continue
        seen = seen_by(state)
        jack, nine = state.contract * 8 + JACK, state.contract * 8 + NINE
        if (seen.hand | seen.played_by[seen.seat]) >> jack & 1 and (
            seen.hand | seen.played_by[seen.seat]
        ) >> nine & 1:
            continue  # both are ours: the rule cannot hold
        for _ in range(5):
            hands = sample_hands(seen, rng)
            original = hands[state.taker] | seen.played_by[state.taker]
            assert original >> jack & 1 or original >> nine & 1
            checked += 1
    assert checked > 100
