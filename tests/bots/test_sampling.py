"""The deals the expert draws (games/bots/expert.py) keep everything its seat knows."""

from __future__ import annotations

import random

import pytest

from games.bots.expert import (
    Budget,
    _draws,
    _opponent_plays,
    _play_misfits,
    sample_hands,
    sampled_state,
    seen_by,
)
from games.bots.heuristic import TAKE_THRESHOLD, knowledge_of, trump_strength
from games.rules import PRESETS, apply, deal
from games.rules.actions import PASS
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


def _passed_strong(state, hands) -> int:
    """Passes in the first round by other seats whose drawn five cards would have taken."""
    suit, me = state.turned >> 3, state.turn
    return sum(
        trump_strength(hands[seat] | 1 << state.turned, suit) >= TAKE_THRESHOLD
        for seat, action in state.bids[:4]
        if seat != me and action == PASS
    )


def test_a_pass_is_read_as_a_hand_too_weak_to_take():
    """What the bidding tells, passes included: in the second round, the seats that
    passed the turned suit are drawn with hands the heuristic bidder would have passed
    with, but for the few deals where the draws found none (a turned jack makes most
    hands strong enough); without the inference, many more are not."""
    rng = random.Random(5)
    states = []
    for _ in range(30):
        deck = list(range(32))
        rng.shuffle(deck)
        state = deal(PRESETS["classique"], rng.randrange(4), deck)
        for _ in range(4):
            state = apply(state, PASS)
        states.append(state)
    strong = {True: 0, False: 0}
    for state in states:
        seen = seen_by(state)
        for inference in (True, False):
            for _ in range(10):
                hands = sample_hands(seen, rng, bid_inference=inference)
                strong[inference] += _passed_strong(state, hands)
    assert strong[True] * 5 < strong[False]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_heuristic_players_own_cards_fit_their_plays(preset):
    """What the opponents' cards tell: the expert checks a drawn deal by asking the
    heuristic player what it would have played with the drawn hands, from the public
    record only. With the real hands of heuristic players, every past card fits."""
    checked = 0
    for state in states_of(preset, range(4)):
        if state.phase != PLAYING:
            continue
        plays = _opponent_plays(state)
        assert _play_misfits(plays, state.hands, knowledge_of(state)) == 0
        checked += len(plays)
    assert checked > 500


def test_the_deals_kept_fit_the_opponents_cards_better():
    """With the inference, the deals a card decision weighs are the best fitting of
    three times as many draws."""
    rng = random.Random(11)
    misfits = {0: 0, 3: 0}
    for state in states_of("classique", range(6)):
        if state.phase != PLAYING or len(state.tricks) < 3:
            continue
        plays, base = _opponent_plays(state), knowledge_of(state)
        for factor in misfits:
            budget = Budget(samples=8, play_inference=factor)
            for hands in _draws(state, seen_by(state), rng, budget):
                misfits[factor] += _play_misfits(plays, hands, base)
    assert misfits[3] * 2 < misfits[0]
