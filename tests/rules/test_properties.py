"""Properties of random legal hands and games, for every preset and many option mixes.

Hypothesis draws the rules, a dealer, a shuffled deck and, at each step, an index into
``legal_actions(state)``: whatever the draw, the invariants below must hold. The card
tables used to check tricks (orders, points) and the deal are written here again from
the rule documents (README "Common to all presets"), not imported from the engine, so a
wrong table in the engine shows up as a failed property.

The number of examples follows the active Hypothesis profile (tests/conftest.py); the
expensive properties run a fraction of it so that the file stays quick in "dev".
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    BIDDING,
    DONE,
    PLAYING,
    PRESETS,
    Action,
    IllegalAction,
    apply,
    apply_all,
    card_of,
    code_of,
    deal,
    legal_actions,
    new_game,
    record_hand,
    replay,
    score,
    start_hand,
    start_with_contract,
    view,
)
from games.rules.options import TARGET_CHOICES

PRESET_NAMES = sorted(PRESETS)
ALL = frozenset(range(32))
SA, TA = 4, 5
ENDINGS = {"played", "all_passed", "main_nulle", "four_sevens"}


def _examples(fraction: float) -> settings:
    """A share of the profile's examples, never fewer than a handful; no deadline."""
    return settings(
        max_examples=max(5, int(settings().max_examples * fraction)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ---------------------------------------------------------------------------------------
# The card tables, from the documents


RANK_ORDER = "789TJQKA"
TRUMP_STRENGTH = "78QKTA9J"  # weakest first: atout J, 9, A, 10, K, Q, 8, 7
PLAIN_STRENGTH = "789JQKTA"  # hors atout and sans atout: A, 10, K, Q, J, 9, 8, 7
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
SA_POINTS = {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2}
TA_POINTS = {"J": 13, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 2}
MODE_SUIT = "SHDC"
CARRE = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}


def rank(card: int) -> str:
    return code_of(card)[0]


def suit(card: int) -> int:
    return MODE_SUIT.index(code_of(card)[1])


def is_trump(mode: int, card: int) -> bool:
    return mode == TA or (mode < SA and suit(card) == mode)


def strength(mode: int, card: int) -> int:
    order = TRUMP_STRENGTH if is_trump(mode, card) else PLAIN_STRENGTH
    return order.index(rank(card))


def points_of(mode: int, card: int) -> int:
    if mode == SA:
        table = SA_POINTS
    elif mode == TA:
        table = TA_POINTS
    else:
        table = TRUMP_POINTS if suit(card) == mode else PLAIN_POINTS
    return table.get(rank(card), 0)


def master_index(mode: int, cards: tuple[int, ...] | list[int]) -> int:
    """Index of the card that wins (so far): the best trump, else the best of the led suit."""
    led = suit(cards[0])
    if mode < SA and any(suit(c) == mode for c in cards):
        contenders = [i for i, c in enumerate(cards) if suit(c) == mode]
    else:
        contenders = [i for i, c in enumerate(cards) if suit(c) == led]
    return max(contenders, key=lambda i: strength(mode, cards[i]))


def reference_legal(rules, mode: int, hand: set[int], trick: tuple[int, ...]) -> set[int]:
    """The cards one may play, from the play rules and the preset's play options."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    if mode == SA:
        return follow or set(hand)
    best_i = master_index(mode, trick)
    best = trick[best_i]
    partner_master = best_i == len(trick) - 2

    def above(cards: set[int]) -> set[int]:
        return {c for c in cards if strength(mode, c) > strength(mode, best)}

    if mode == TA:  # 002: every suit is played as a trump, always go higher
        return (above(follow) or follow) if follow else set(hand)
    if led == mode:
        if not follow:
            return set(hand)
        if partner_master and not rules.overtrump_partner:
            return follow
        return above(follow) or follow
    if follow:
        return follow
    trumps = {c for c in hand if suit(c) == mode}
    if partner_master and rules.partner_master_frees:
        # 004: even when free to discard, "les joueurs jouant atout doivent monter".
        if rules.free_trumps_go_higher and suit(best) == mode and above(trumps):
            return (set(hand) - trumps) | above(trumps)
        return set(hand)
    if not trumps:
        return set(hand)
    if suit(best) == mode:
        if partner_master and not rules.overtrump_partner:
            return trumps
        higher = above(trumps)
        if higher:
            return higher
        return trumps if rules.must_undertrump else set(hand)
    return trumps


def reference_announces(hand: set[int]) -> set[tuple[str, int, frozenset[int]]]:
    """Sequences of three or more in one suit (7 8 9 10 J Q K A) and the scoring carrés."""
    found = set()
    for r, pts in CARRE.items():
        cards = frozenset(card_of(r + s) for s in MODE_SUIT)
        if cards <= hand:
            found.add(("carre", pts, cards))
    for s in MODE_SUIT:
        run: list[int] = []
        for r in RANK_ORDER + "-":
            card = card_of(r + s) if r != "-" else None
            if card is not None and card in hand:
                run.append(card)
                continue
            if len(run) >= 3:
                kind, pts = (
                    ("cent", 100)
                    if len(run) >= 5
                    else ("cinquante", 50)
                    if len(run) == 4
                    else ("tierce", 20)
                )
                found.add((kind, pts, frozenset(run)))
            run = []
    return found


# ---------------------------------------------------------------------------------------
# Seats


def step_of(rules) -> int:
    return 1 if rules.direction == "clockwise" else 3


def beside(seat: int, side: str) -> int:
    return (seat + 1) % 4 if side == "left" else (seat + 3) % 4


def cards_in(mask: int) -> set[int]:
    return {c for c in range(32) if mask >> c & 1}


def played_by_seat(state) -> list[tuple[int, int]]:
    """(seat, card) of every card on the table or in a finished trick."""
    step = step_of(state.rules)
    out = [((t.leader + i * step) % 4, c) for t in state.tricks for i, c in enumerate(t.cards)]
    out += [((state.leader + i * step) % 4, c) for i, c in enumerate(state.trick)]
    return out


def expected_first_deal(rules, dealer: int, deck) -> list[set[int]]:
    step = step_of(rules)
    order = [(dealer + step * k) % 4 for k in range(1, 5)]
    hands: list[set[int]] = [set(), set(), set(), set()]
    i = 0
    for packet in rules.deal_pattern:
        for seat in order:
            hands[seat].update(deck[i : i + packet])
            i += packet
    return hands


def expected_full_deal(rules, dealer: int, deck, taker: int, exchanger: int | None):
    hands = expected_first_deal(rules, dealer, deck)
    turned = deck[20]
    if exchanger is not None:
        seven = card_of("7" + code_of(turned)[1])
        hands[exchanger] = (hands[exchanger] - {seven}) | {turned}
        turned = seven
    hands[taker].add(turned)
    step = step_of(rules)
    i = 21
    for k in range(1, 5):
        seat = (dealer + step * k) % 4
        n = 2 if seat == taker else 3
        hands[seat].update(deck[i : i + n])
        i += n
    return hands


# ---------------------------------------------------------------------------------------
# Strategies


OPTION_CHOICES = {
    "direction": ("clockwise", "counterclockwise"),
    "first_speaker": ("left", "right"),
    "first_leader": ("left", "right"),
    "next_dealer": ("left", "right"),
    "deal_pattern": ((3, 2), (2, 3), (5,)),
    "bidding": ("classic", "surenchere"),
    "second_round_excludes_turned": (False, True),
    "seven_exchange": (False, True),
    "redeal_main_nulle": (False, True),
    "redeal_four_sevens": (False, True),
    "announces": ("off", "auto", "declared"),
    "announce_tie": ("nobody", "taker"),
    "overtrump_partner": (False, True),
    "partner_master_frees": (False, True),
    "free_trumps_go_higher": (False, True),
    "must_undertrump": (False, True),
    "contract": ("beat_defence", "points"),
    "contract_points": (71, 82, 91),
    "contract_counts_belote": (False, True),
    "contract_counts_announces": (False, True),
    "belote_contract_points": (None, 92),
    "litige": ("held", "taker_fails"),
    "belote_kept": (False, True),
    "capot_points": (250, 252),
    "target": TARGET_CHOICES,
    "tie_break": ("play_on", "last_hand_winner"),
}


@st.composite
def varied_rules(draw):
    """A preset with some of its options changed (None: keep the preset's value)."""
    rules = PRESETS[draw(st.sampled_from(PRESET_NAMES))]
    overrides = {}
    for name, choices in OPTION_CHOICES.items():
        value = draw(st.one_of(st.just(...), st.sampled_from(choices)))
        if value is not ...:
            overrides[name] = value
    return rules.with_options(**overrides)


preset_rules = st.sampled_from(PRESET_NAMES).map(PRESETS.__getitem__)
any_rules = st.one_of(preset_rules, varied_rules())
decks = st.permutations(range(32)).map(tuple)
seats = st.integers(0, 3)


def walk(data, state):
    """Play the hand to its end, each action an index drawn into legal_actions."""
    states = [state]
    while state.phase != DONE:
        legal = legal_actions(state)
        assert legal, f"no legal action in phase {state.phase}"
        state = apply(state, legal[data.draw(st.integers(0, len(legal) - 1))])
        states.append(state)
    return states


# ---------------------------------------------------------------------------------------
# Invariants of one state


def check_state(state) -> None:
    rules = state.rules
    legal = legal_actions(state)
    hands = [cards_in(m) for m in state.hands]
    sizes = [len(h) for h in hands]
    played = [c for _, c in played_by_seat(state)]
    assert sum(sizes) == len(set().union(*hands)), "a card is in two hands"
    assert len(set(played)) == len(played), "a card was played twice"
    assert not set(played) & set().union(*hands), "a played card is still in a hand"

    if state.phase == DONE:
        assert legal == []
        assert state.turn == -1
        assert state.ended in ENDINGS
    else:
        assert legal, f"no legal action in phase {state.phase}"
        assert len(set(legal)) == len(legal), "an action is listed twice"
        assert 0 <= state.turn < 4
        assert not state.ended

    in_play = state.phase == PLAYING or state.ended == "played"
    if not in_play:
        # The bidding, or a hand redealt or passed out: five cards each, one turned.
        assert state.phase in (BIDDING, DONE)
        assert sizes == [5, 5, 5, 5]
        assert not played
        assert state.turned not in set().union(*hands)
        if state.deck is not None:
            rest = set(state.deck[21:])
            assert set().union(*hands) | {state.turned} | rest == ALL
        assert all(a.kind != "play" for a in legal)
        if state.phase == BIDDING:
            assert Action("pass") in legal
        if state.phase == BIDDING and state.contract == -1:
            # Round one takes the turned suit; round two names a suit, "une autre
            # couleur" when the turned one is excluded.
            takes = {a.arg for a in legal if a.kind == "take"}
            if state.bid_round == 1:
                assert takes == {-1}
            else:
                excluded = {state.turned >> 3} if rules.second_round_excludes_turned else set()
                assert takes == set(range(4)) - excluded
        return

    # In play: every card is in a hand, on the table or in a trick.
    assert sum(sizes) + len(played) == 32
    assert set().union(*hands) | set(played) == ALL
    step = step_of(rules)
    n = 8 - len(state.tricks)
    if state.phase == PLAYING:
        assert len(state.trick) < 4
        on_table = {(state.leader + i * step) % 4 for i in range(len(state.trick))}
        assert sizes == [n - (s in on_table) for s in range(4)], "hand sizes out of turn"
        assert max(sizes) - min(sizes) <= 1
        assert state.turn == (state.leader + len(state.trick) * step) % 4
        plays = {a.arg for a in legal if a.kind == "play"}
        assert plays, "nothing to play"
        assert plays == reference_legal(rules, state.contract, hands[state.turn], state.trick)
        may_announce = (
            rules.announces == "declared"
            and not state.tricks
            and bool(state.announces[state.turn])
            and not state.declared >> state.turn & 1
        )
        assert (Action("announce") in legal) == may_announce
        assert {a.kind for a in legal} <= {"play", "announce"}
    else:
        assert sizes == [0, 0, 0, 0]
        assert len(state.tricks) == 8
    check_tricks(state)
    check_belote_calls(state)


def check_tricks(state) -> None:
    mode, step = state.contract, step_of(state.rules)
    leader = beside(state.dealer, state.rules.first_leader)
    won = [0, 0]
    for number, trick in enumerate(state.tricks):
        assert trick.leader == leader, f"trick {number} led by the wrong seat"
        assert len(trick.cards) == 4
        winner = (trick.leader + master_index(mode, trick.cards) * step) % 4
        assert trick.winner == winner, f"trick {number} {[code_of(c) for c in trick.cards]}"
        worth = sum(points_of(mode, c) for c in trick.cards) + (10 if number == 7 else 0)
        assert trick.points == worth
        won[winner & 1] += worth
        leader = winner
    assert state.leader == leader
    assert state.won == tuple(won)


def check_belote_calls(state) -> None:
    """Belote then rebelote, by the same seat, in a suit that seat held king and queen of."""
    mode = state.contract
    said: dict[tuple[int, int], list[str]] = {}
    for call in state.belote_calls:
        assert state.belotes[call.seat] >> call.suit & 1, "a call without king and queen"
        if mode < SA:
            assert call.suit == mode
        assert mode != SA, "no belote in sans atout"
        said.setdefault((call.seat, call.suit), []).append(call.call)
    for calls in said.values():
        assert calls in (["belote"], ["belote", "rebelote"])
    # One call per king or queen of a belote suit played by its holder.
    for seat in range(4):
        for s in range(4):
            if state.belotes[seat] >> s & 1:
                kq = {card_of("K" + MODE_SUIT[s]), card_of("Q" + MODE_SUIT[s])}
                n = sum(1 for who, c in played_by_seat(state) if who == seat and c in kq)
                assert len(said.get((seat, s), [])) == n
                if state.ended == "played":
                    assert n == 2


# ---------------------------------------------------------------------------------------
# Invariants between states, and at the start of the play


def check_step(before, after) -> None:
    """One action: appended to the log, and a played card leaves the player's hand."""
    action = after.actions[-1]
    assert after.actions[:-1] == before.actions
    if action.kind == "play":
        seat = before.turn
        assert before.hands[seat] >> action.arg & 1
        assert after.hands[seat] == before.hands[seat] & ~(1 << action.arg)
        assert [c for _, c in played_by_seat(after)][-1] == action.arg
        assert played_by_seat(after)[-1][0] == seat


def check_play_start(first, states) -> None:
    """The first state of the play: 8 cards each, belotes and announces as dealt."""
    rules = first.rules
    hands = [cards_in(m) for m in first.hands]
    assert [len(h) for h in hands] == [8, 8, 8, 8]
    assert first.turn == first.leader == beside(first.dealer, rules.first_leader)
    if first.deck is not None:
        exchanger = next((s for s, a in first.bids if a.kind == "exchange"), None)
        assert first.exchanged == (exchanger is not None)
        expected = expected_full_deal(rules, first.dealer, first.deck, first.taker, exchanger)
        assert hands == expected
        taking = [(s, a) for s, a in first.bids if a.kind == "take"]
        assert taking and taking[-1][0] == first.taker
    mode = first.contract
    suits = range(4) if mode == TA else () if mode == SA else (mode,)
    for seat in range(4):
        holds = {
            s
            for s in suits
            if card_of("K" + MODE_SUIT[s]) in hands[seat]
            and card_of("Q" + MODE_SUIT[s]) in hands[seat]
        }
        assert cards_in(first.belotes[seat]) == holds  # bits are suits 0..3
        found = {(a.kind, a.points, frozenset(cards_in(a.cards))) for a in first.announces[seat]}
        if rules.announces == "off":
            assert not found
        else:
            assert found == reference_announces(hands[seat])
        if rules.announces == "auto":
            assert bool(first.declared >> seat & 1) == bool(found)
    if rules.announces != "declared":
        assert all(s.declared == first.declared for s in states)
    assert all(s.belotes == first.belotes and s.announces == first.announces for s in states)


# ---------------------------------------------------------------------------------------
# The score


def check_score(state) -> None:
    result = score(state)
    rules = state.rules
    if state.ended != "played":
        assert result.passed and result.points == (0, 0) and result.held == 0
        assert result.winner == -1
        return
    t = state.taker & 1
    d = 1 - t
    assert result.tricks == state.won
    assert sum(result.tricks) == 162, "152 in cards and the dix de der"
    counts = [0, 0]
    for trick in state.tricks:
        counts[trick.winner & 1] += 1
    capot = 0 if counts[1] == 0 else 1 if counts[0] == 0 else -1
    assert result.capot == capot
    assert result.belote == tuple(
        20 * sum(state.belotes[s].bit_count() for s in range(4) if s & 1 == team) for team in (0, 1)
    )
    assert 0 in result.announces, "only one team's announces score"
    if capot >= 0:
        assert result.announces[1 - capot] == 0, "the team without a trick loses its announces"
        assert result.made == (capot == t)
        assert not result.litige
    belote, announces = sum(result.belote), sum(result.announces)
    # Conservation: what the hand is worth goes to the teams, or is held by a litige.
    worth = (rules.capot_points if capot >= 0 else 162) + belote + announces
    assert sum(result.points) + result.held == worth, result
    # What the taker keeps when it does not make its contract: its belote, or nothing.
    kept = result.belote[t] if rules.belote_kept else 0
    if result.litige and rules.litige == "held":
        assert not result.made
        assert result.winner == -1
        assert result.points[t] == kept
        assert result.held == result.tricks[t] + result.announces[t] + result.belote[t] - kept
    else:
        assert result.held == 0
        assert result.winner == (t if result.made else d)
        if not result.made:  # dedans: the taker keeps its belote at most
            assert result.points[t] == kept


# ---------------------------------------------------------------------------------------
# What a seat may see


CODE = re.compile(r"(?<![0-9A-Za-z])[789TJQKA][SHDC](?![0-9A-Za-z])")


def visible_cards(state, seat: int | None) -> set[int]:
    text = json.dumps(view(state, seat))
    return {card_of(code) for code in CODE.findall(text)}


def public_cards(state) -> set[int]:
    """Played cards, the turned card and, after an exchange, the 7 turned in its place."""
    public = {c for _, c in played_by_seat(state)}
    if state.turned >= 0:
        public.add(state.turned)
    if state.deck is not None:
        public.add(state.deck[20])
    return public


def check_views(state) -> None:
    public = public_cards(state)
    for seat in range(4):
        own = cards_in(state.hands[seat])
        seen = visible_cards(state, seat)
        hidden = seen - own - public
        assert not hidden, f"{'NESW'[seat]} sees {[code_of(c) for c in hidden]}"
        out = view(state, seat)
        assert {card_of(c) for c in out["hand"]} == own
        assert out["hand_sizes"] == {"NESW"[s]: state.hands[s].bit_count() for s in range(4)}
    hidden = visible_cards(state, None) - public
    assert not hidden, f"a spectator sees {[code_of(c) for c in hidden]}"


# ---------------------------------------------------------------------------------------
# Refusals


CANDIDATES = (
    *(Action("play", c) for c in range(32)),
    Action("pass"),
    Action("take"),
    *(Action("take", m) for m in range(6)),
    Action("exchange"),
    Action("redeal"),
    Action("announce"),
)


def refused(state, action, seat=None) -> IllegalAction:
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, action, seat)
    assert state == snapshot
    assert isinstance(caught.value.code, str) and caught.value.code
    assert isinstance(caught.value.message, str) and caught.value.message
    return caught.value


def check_refusals(state) -> None:
    legal = set(legal_actions(state))
    snapshot = copy.deepcopy(state)
    for action in CANDIDATES:
        if action in legal:
            after = apply(state, action)
            assert after.actions == state.actions + (action,)
        else:
            refused(state, action)
        assert state == snapshot, f"apply({action}) changed its input"
    if state.phase == DONE:
        assert refused(state, Action("pass")).code == "hand_over"
        return
    some = legal_actions(state)[0]
    for other in range(4):
        if other != state.turn:
            assert refused(state, some, other).code == "not_your_turn"
    assert apply(state, some, state.turn) == apply(state, some)


# ---------------------------------------------------------------------------------------
# The properties


def check_hand(states) -> None:
    """Every invariant over a hand played from a deal or from a contract."""
    for state in states:
        check_state(state)
    for before, after in zip(states, states[1:], strict=False):
        check_step(before, after)
    playing = [s for s in states if s.phase != BIDDING and (s.tricks or s.phase == PLAYING)]
    if playing:
        check_play_start(playing[0], playing)
    final = states[-1]
    check_score(final)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@_examples(1.0)
@given(dealer=seats, deck=decks, data=st.data())
def test_random_hand_of_each_preset_keeps_every_invariant(preset, dealer, deck, data):
    states = walk(data, deal(PRESETS[preset], dealer, deck))
    check_hand(states)
    for state in states:
        check_views(state)


@_examples(2.0)
@given(rules=varied_rules(), dealer=seats, deck=decks, data=st.data())
def test_random_hand_with_varied_options_keeps_every_invariant(rules, dealer, deck, data):
    states = walk(data, deal(rules, dealer, deck))
    check_hand(states)
    for state in states:
        check_views(state)


@_examples(1.0)
@given(
    rules=any_rules,
    dealer=seats,
    deck=decks,
    mode=st.integers(0, 5),
    taker=seats,
    data=st.data(),
)
def test_random_play_from_a_contract_keeps_every_invariant(rules, dealer, deck, mode, taker, data):
    hands = [deck[8 * s : 8 * s + 8] for s in range(4)]
    start = start_with_contract(rules, dealer, hands, mode, taker)
    states = walk(data, start)
    check_hand(states)
    for state in states[:: max(1, len(states) // 6)]:
        check_views(state)
    assert apply_all(start, states[-1].actions) == states[-1]


@_examples(0.5)
@given(rules=any_rules, dealer=seats, deck=decks, data=st.data())
def test_replaying_the_actions_gives_an_equal_state_and_score(rules, dealer, deck, data):
    states = walk(data, deal(rules, dealer, deck))
    final = states[-1]
    again = replay(rules, dealer, deck, final.actions)
    assert again == final
    assert score(again) == score(final)
    assert replay(rules, dealer, deck, [str(a) for a in final.actions]) == final
    middle = states[data.draw(st.integers(0, len(states) - 1))]
    assert replay(rules, dealer, deck, middle.actions) == middle


@_examples(0.5)
@given(rules=any_rules, dealer=seats, deck=decks, data=st.data())
def test_actions_not_listed_are_refused_and_change_nothing(rules, dealer, deck, data):
    for state in walk(data, deal(rules, dealer, deck)):
        check_refusals(state)


MALFORMED = (
    Action("play", -1),
    Action("play", 32),
    Action("take", -2),
    Action("take", 6),
    Action("take", 7),
    Action("shuffle"),
)


def seeded_states(preset: str, hands: int = 8):
    """Every state of a few seeded random hands, each going through a second bidding round."""
    rng = random.Random(preset)
    for number in range(hands):
        deck = list(range(32))
        rng.shuffle(deck)
        state = deal(PRESETS[preset], number % 4, deck)
        yield state
        for _ in range(4):
            state = apply(state, Action("pass"))
            yield state
        while state.phase != DONE:
            legal = legal_actions(state)
            takes = [a for a in legal if a.kind == "take"]
            state = apply(state, rng.choice(takes if takes and rng.random() < 0.7 else legal))
            yield state


@pytest.mark.parametrize("action", MALFORMED, ids=lambda a: f"{a.kind}({a.arg})")
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_malformed_actions_are_refused(preset, action):
    """Actions no parser produces (no such card, mode or kind) are refused too."""
    for state in seeded_states(preset):
        refused(state, action)


@_examples(0.5)
@given(
    rules=any_rules.flatmap(
        lambda r: st.sampled_from(TARGET_CHOICES).map(lambda t: r.with_options(target=t))
    ),
    dealer=seats,
    seed=st.integers(0, 2**32 - 1),
)
def test_a_random_game_ends_with_the_right_winner(rules, dealer, seed):
    rng = random.Random(seed)
    game = new_game(rules, dealer)
    total = 0
    for _ in range(400):
        deck = list(range(32))
        rng.shuffle(deck)
        state = start_hand(game, deck)
        assert state.dealer == game.dealer
        while state.phase != DONE:
            state = apply(state, rng.choice(legal_actions(state)))
        result = score(state)
        before, game = game, record_hand(game, state)
        total += sum(result.points) + result.held
        assert sum(game.scores) + game.held == total, "points are neither lost nor made up"
        assert game.dealer == beside(before.dealer, rules.next_dealer)
        assert game.hands == before.hands + (result,)
        if result.winner >= 0 and before.held:
            w = result.winner
            assert game.scores[w] == before.scores[w] + result.points[w] + before.held
            assert game.held == result.held
        expected = -1
        if max(game.scores) >= rules.target:
            if game.scores[0] != game.scores[1]:
                expected = 0 if game.scores[0] > game.scores[1] else 1
            elif rules.tie_break == "last_hand_winner" and result.winner >= 0:
                expected = result.winner
        assert game.winner == expected, (game.scores, rules.target, rules.tie_break)
        if game.over:
            break
    else:
        pytest.fail(f"no winner after 400 hands: {game.scores}")
    w = game.winner
    assert game.scores[w] >= rules.target or game.scores[1 - w] >= rules.target
    if game.scores[w] == game.scores[1 - w]:
        assert rules.tie_break == "last_hand_winner"
        assert game.hands[-1].winner == w
    else:
        assert game.scores[w] > game.scores[1 - w]
    with pytest.raises(ValueError):
        start_hand(game, list(range(32)))
    with pytest.raises(ValueError):
        record_hand(game, state)
