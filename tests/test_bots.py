"""The bots (games/bots.py): always legal, blind to the other hands, and the heuristic
plays like a belote player: it takes on a jack or a nine with support, plays its master
cards, throws points on its partner's tricks and beats a random team clearly."""

from __future__ import annotations

import random

import pytest

from games.bots import BOT_LEVELS, choose_action, expert, knowledge_of
from games.bots.heuristic import heuristic_action
from games.rules import (
    DONE,
    PLAYING,
    PRESETS,
    SEATS,
    apply,
    code_of,
    deal,
    legal_actions,
    new_game,
    record_hand,
    score,
    start_hand,
    view,
)
from games.rules.actions import PASS, TAKE
from games.rules.cards import cards_of, mask_of
from tests.rules.builders import dealt, playing, seat
from tests.rules.tricks import dealer_for, play, play_tricks

CLASSIQUE = PRESETS["classique"]
ALL_CODES = [code_of(c) for c in range(32)]


def bot(state) -> str:
    """The heuristic's action, in its text form."""
    return str(choose_action(state, "heuristic", random.Random(0)))


def bidding(preset: str, turned: str, dealer: str = "N", **hands: str):
    """A fresh deal with ``turned`` turned, where the named seats hold these 5 cards (the
    others get the rest)."""
    rules = PRESETS[preset]
    given = " ".join(hands.values()).split()
    rest = iter(c for c in ALL_CODES if c not in given and c != turned)
    for name in SEATS:
        hands.setdefault(name, " ".join(next(rest) for _ in range(5)))
    return dealt(rules, dealer, hands, turned)


def first_speaker(preset: str, hand: str, turned: str):
    """A fresh deal (dealer north) where the first to speak holds ``hand``."""
    rules = PRESETS[preset]
    speaker = SEATS[(seat("N") + (1 if rules.first_speaker == "left" else 3)) % 4]
    return bidding(preset, turned, **{speaker: hand})


def in_play(contract: str, taker: str, leader: str, preset: str = "classique", **hands: str):
    """A hand in play under ``contract`` with these 8-card hands, ``leader`` to lead."""
    rules = PRESETS[preset]
    return playing(rules, hands, contract, taker, dealer=dealer_for(rules, leader))


def self_play(rules, seed: int, levels: tuple[str, str, str, str], check=None):
    """One hand from a seeded shuffle, each seat played at its level; ``check(state,
    action)`` sees every decision."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    state = deal(rules, seed % 4, deck)
    while state.phase != DONE:
        action = choose_action(state, levels[state.turn], rng)
        if check:
            check(state, action)
        state = apply(state, action)
    return state


# ---------------------------------------------------------------------------------------
# Always legal, deterministic


@pytest.fixture
def small_expert():
    """The expert at a small budget, so that tests play whole games quickly."""
    before = expert.current_budget()
    expert.configure(expert.Budget(samples=3, bid_samples=2, exact_tricks=2))
    yield
    expert.configure(before)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_both_levels_always_choose_a_legal_action(preset):
    def check(state, action):
        assert action in legal_actions(state)

    mixes = [
        ("random",) * 4,
        ("heuristic",) * 4,
        ("heuristic", "random") * 2,
        ("beginner", "heuristic") * 2,
    ]
    for seed in range(120):
        self_play(PRESETS[preset], seed, mixes[seed % 4], check)


def test_the_heuristic_reads_the_same_legal_actions_as_the_engine():
    def check(state, action):
        assert knowledge_of(state).legal == tuple(legal_actions(state))

    for seed in range(20):
        self_play(PRESETS["moderne"], seed, ("heuristic",) * 4, check)


def test_a_seeded_hand_replays_identically(small_expert):
    for level in BOT_LEVELS:
        first = self_play(CLASSIQUE, 7, (level,) * 4)
        again = self_play(CLASSIQUE, 7, (level,) * 4)
        assert first.actions == again.actions


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError):
        choose_action(
            first_speaker("classique", "JH 9H AS 7D 8C", "TH"), "grandmaster", random.Random(0)
        )


# ---------------------------------------------------------------------------------------
# Blind to the other hands


def other_hands_dealt_again(state, rng: random.Random):
    """The same public position, the other seats' cards dealt again among them (same
    counts), and no deck: what the seat to act cannot tell apart from ``state``."""
    others = [s for s in range(4) if s != state.turn]
    unseen = [c for s in others for c in cards_of(state.hands[s])]
    rng.shuffle(unseen)
    hands = list(state.hands)
    at = 0
    for s in others:
        n = state.hands[s].bit_count()
        hands[s] = mask_of(unseen[at : at + n])
        at += n
    return state._replace(hands=tuple(hands), deck=None)


def two_other_hands_swapped(state, rng: random.Random):
    """Two other seats holding as many cards exchange their hands."""
    others = [s for s in range(4) if s != state.turn]
    pairs = [
        (a, b)
        for a in others
        for b in others
        if a < b and state.hands[a].bit_count() == state.hands[b].bit_count()
    ]
    a, b = rng.choice(pairs)
    hands = list(state.hands)
    hands[a], hands[b] = hands[b], hands[a]
    return state._replace(hands=tuple(hands))


@pytest.mark.parametrize("hide", [other_hands_dealt_again, two_other_hands_swapped])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_heuristic_never_reads_the_other_hands(preset, hide):
    """A seat knows its cards and the public record: changing what it cannot see must not
    change what it does."""
    rng = random.Random(preset)
    checked = 0

    def check(state, action):
        nonlocal checked
        for _ in range(2):
            assert choose_action(hide(state, rng), "heuristic", random.Random(1)) == action
        checked += 1

    for seed in range(15):
        self_play(PRESETS[preset], seed, ("heuristic",) * 4, check)
    assert checked > 300


def unseen_cards_dealt_again(state, rng: random.Random):
    """The other seats' cards dealt again among them, keeping what the seat to act knows:
    the counts, the suits each showed it lacks and the turned card with the taker. None
    when no such deal turns up."""
    k = knowledge_of(state)
    others = [s for s in range(4) if s != state.turn]
    turned = state.turned if state.phase != "bidding" and state.taker != state.turn else -1
    fixed = {state.taker: turned} if turned >= 0 and state.hands[state.taker] >> turned & 1 else {}
    unseen = [c for s in others for c in cards_of(state.hands[s]) if c not in fixed.values()]
    for _ in range(200):
        rng.shuffle(unseen)
        hands = list(state.hands)
        at = 0
        for s in others:
            mine = [fixed[s]] if s in fixed else []
            n = state.hands[s].bit_count() - len(mine)
            hands[s] = mask_of(mine + unseen[at : at + n])
            at += n
        if all(not any(k.voids[s] >> (c >> 3) & 1 for c in cards_of(hands[s])) for s in others):
            return state._replace(hands=tuple(hands), deck=None)
    return None


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_expert_never_reads_the_other_hands(preset, small_expert):
    """Another deal of the hidden cards that the seat cannot tell apart (same view) gives
    the same decision, bidding and play."""
    rng = random.Random(preset)
    checked = 0

    def check(state, action):
        nonlocal checked
        other = unseen_cards_dealt_again(state, rng)
        if other is None:
            return
        assert view(other, state.turn) == view(state, state.turn)
        assert choose_action(other, "expert", random.Random(5)) == choose_action(
            state, "expert", random.Random(5)
        )
        checked += 1

    for seed in range(2):
        self_play(PRESETS[preset], seed, ("expert", "heuristic") * 2, check)
    assert checked > 20


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_expert_plays_a_whole_game_in_every_preset(preset, small_expert):
    rules = PRESETS[preset]
    rng = random.Random(f"game {preset}")
    game = new_game(rules, 0)
    levels = ("expert", "heuristic") * 2
    while not game.over:
        deck = list(range(32))
        rng.shuffle(deck)
        state = start_hand(game, deck)
        while state.phase != DONE:
            action = choose_action(state, levels[state.turn], rng)
            assert action in legal_actions(state)
            state = apply(state, action)
        game = record_hand(game, state)
        assert len(game.hands) < 60
    assert game.winner in (0, 1)


# ---------------------------------------------------------------------------------------
# Bidding


def test_takes_with_the_jack_and_a_side_ace():
    """The jack of the turned suit, the turned 8 and a side ace make a take."""
    assert bot(first_speaker("classique", "JH AS 7D 8C 9C", "8H")) == "take"


def test_takes_with_the_nine_and_a_side_ace():
    assert bot(first_speaker("classique", "9H AS 7D 8C QC", "7H")) == "take"


def test_passes_with_junk():
    """Neither the jack nor the nine of trumps: pass, whatever the rest."""
    assert bot(first_speaker("classique", "7S 8S 9D 8C QC", "KH")) == "pass"


def test_passes_with_a_bare_jack():
    assert bot(first_speaker("classique", "JH 7S 8D 9D 8C", "7H")) == "pass"


def test_second_round_names_its_best_suit():
    state = first_speaker("classique", "JS 9S AS 7D 8C", "8H")
    for _ in range(4):
        state = apply(state, PASS)
    assert bot(state) == "take S"


def test_surenchere_covers_an_opponent_in_sans_atout_with_three_aces():
    """002: a take can be covered in SA; three aces and a ten are worth it."""
    state = apply(bidding("moderne", "8H", S="AS TS AD AC 7H"), TAKE)  # W takes, S speaks
    assert bot(state) == "take SA"


def test_surenchere_covers_in_tout_atout_with_jacks_and_a_nine():
    state = apply(bidding("moderne", "8H", S="JS 9S JD JC 7H"), TAKE)
    assert bot(state) == "take TA"


def test_surenchere_leaves_the_partners_take_alone():
    """The same three aces do not cover the partner's take."""
    state = bidding("moderne", "8H", W="7S 8S 9D 8C QC", E="AS TS AD AC 7H")
    state = apply(apply(state, TAKE), PASS)  # W takes, S passes, E speaks
    assert SEATS[state.turn] == "E"
    assert bot(state) == "pass"


def test_exchanges_the_seven_of_trumps_then_takes():
    """003: the holder of the trump 7 may take the turned card; with the jack turned, it
    does, then takes."""
    state = first_speaker("stekius", "7H AS 8D 9C KS", "JH")
    assert bot(state) == "exchange"
    state = apply(state, choose_action(state, "heuristic", random.Random(0)))
    assert bot(state) == "take"


def test_asks_for_a_redeal_on_a_main_nulle():
    """002 (Salon option): fewer than 11 points and no trump may ask for a redeal."""
    assert bot(first_speaker("moderne", "7S 8S 7D 8D 9C", "JH")) == "redeal"


def test_declares_its_announces():
    """001: at their turn in the first trick, each player decides to announce; the bot
    always does."""
    state = in_play(
        "H",
        "N",
        "E",
        preset="annonces",
        N="JH 9H AH TH 7D 8D 9D TD",
        E="7S 8S 9S 7C 8C 9C TC JD",
        S="TS JS QS KS 7H 8H JC QC",
        W="AS QH KH QD KD AD KC AC",
    )
    assert bot(state) == "announce"


# ---------------------------------------------------------------------------------------
# Play

HEARTS_E = dict(  # hearts taken by east; north leads with the classique rules
    N="AS 9S 8D 9D 7C 8C QC KD",
    W="7S QS TH 7D AD TC JC KC",
    S="TS 8S 9H QD JD 9C AC AH",
    E="JS KS JH 8H 7H QH KH TD",
)


def test_leads_a_master_ace():
    """Defending, with nothing to draw, the ace of spades wins the trick: lead it."""
    assert bot(in_play("H", "E", "N", **HEARTS_E)) == "play AS"


def test_a_ten_is_master_once_the_ace_has_gone():
    """Counting the cards: after the ace of spades fell, the ten leads as a master."""
    state = in_play(
        "H",
        "E",
        "W",
        W="7S QS TH 9D AD TC JC KC",
        S="AS TS 7D 8D 7C 8C 9C QC",
        E="8S KS JH 8H 7H QH KH TD",
        N="9S JS 9H QD JD KD AC AH",
    )
    state = play(state, "7S AS 8S 9S")  # W S E N: south wins with the ace
    assert SEATS[state.turn] == "S"
    assert bot(state) == "play TS"


def test_throws_its_ten_on_the_partners_master_ace():
    """North's ace of spades holds the trick: south gives it the ten."""
    state = play(in_play("H", "E", "N", **HEARTS_E), "AS 7S")
    assert bot(state) == "play TS"


def test_plays_small_under_an_opponents_master():
    """West's ace wins: south keeps its ten and plays the eight."""
    state = in_play(
        "H",
        "E",
        "N",
        N="7S 9S 8D 9D 7C 8C QC KD",
        W="AS QS TH 7D AD TC JC KC",
        S="TS 8S 9H QD JD 9C AC AH",
        E="JS KS JH 8H 7H QH KH TD",
    )
    state = play(state, "9S AS")
    assert bot(state) == "play 8S"


def test_does_not_trump_its_partners_trick_and_throws_points_instead():
    """000: void, the partner master, any card may be played; south keeps its trumps and
    gives the partner its ten of diamonds."""
    state = in_play(
        "H",
        "E",
        "N",
        N="AS 9S 8D 9D 7C 8C QC KD",
        W="7S QS TH 7D AD TC JC KC",
        S="7H 8H 9H QD TD 9C AC AH",
        E="JS KS JH TS 8S QH KH JD",
    )
    state = play(state, "AS 7S")
    assert bot(state) == "play TD"


def test_cuts_with_its_smallest_trump():
    """Void in spades, west's ace winning: south must trump, and the seven is enough."""
    state = in_play(
        "H",
        "E",
        "W",
        W="AS QS TH 7D AD TC JC KC",
        S="7H JH 9H QD TD 9C AC AH",
        E="9S KS 8H TS 8S QH KH JD",
        N="7S JS 8D 9D 7C 8C QC KD",
    )
    state = play(state, "AS")
    assert bot(state) == "play 7H"


def test_the_taker_draws_trumps_while_it_holds_most_of_them():
    """South took hearts with four of the eight: it leads its master jack."""
    state = in_play(
        "H",
        "S",
        "S",
        S="JH 9H AH 8H AS 7D 7C 8C",
        W="7H TH 7S QS AD TC JC KC",
        N="KH 9S 8S 8D 9D QC 9C KD",
        E="QH JS KS TS QD TD JD AC",
    )
    assert bot(state) == "play JH"


def test_the_defence_keeps_its_trumps():
    """West defends with the master jack of hearts but nothing else that wins: it leads a
    small card, not a trump."""
    state = in_play(
        "H",
        "N",
        "W",
        W="JH 7H 8S 9S 7D 8D 7C 8C",
        N="9H AH TH AS TS AD TD AC",
        S="KH QH KS QS KD QD KC QC",
        E="8H 7S JS JD 9D 9C TC JC",
    )
    card = bot(state)
    assert card.startswith("play") and not card.endswith("H")


def test_does_not_lead_a_master_into_an_opponents_cut():
    """East showed it has no clubs (it undertrumped south's cut): north keeps its ace of
    clubs and leads a small spade."""
    state = in_play(
        "H",
        "E",
        "W",
        N="8C 9C AC AD KD QD 7S 8S",
        S="JH 7D 9H TH AS TS TD JD",
        E="7H 8D 8H QH KH AH 9S JS",
        W="7C TC JC QC KC 9D QS KS",
    )
    state = play_tricks(state, ["W:7C S:JH E:7H N:8C", "S:7D E:8D N:AD W:9D"])
    assert SEATS[state.turn] == "N"
    assert bot(state) == "play 7S"


def belote_kept(north_trumps: str):
    """East took hearts. Five tricks in, north, defending, leads its last three cards:
    ``north_trumps`` (the queen of hearts with the king or the ace, east holding the
    other) and the ace of clubs, a suit east cuts."""
    east_trump = "AH" if north_trumps == "KH QH" else "KH"
    state = in_play(
        "H",
        "E",
        "N",
        N=f"AS 7C AD TS TD AC {north_trumps}",
        W="7S 8C 8D JS QD 8H JC QC",
        S="8S 9C 9D QS JD KC TC TH",
        E=f"9S 7H 7D KS KD JH 9H {east_trump}",
    )
    state = play_tricks(
        state,
        [
            "N:AS W:7S S:8S E:9S",
            "N:7C W:8C S:9C E:7H",  # east cuts: it has no clubs, and trumps left
            "E:7D N:AD W:8D S:9D",
            "N:TS W:JS S:QS E:KS",
            "N:TD W:QD S:JD E:KD",
        ],
    )
    assert SEATS[state.turn] == "N"
    return state


@pytest.mark.parametrize(
    ("north_trumps", "lead"),
    [("KH QH", "play AC"), ("AH QH", "play QH")],
    ids=["belote", "no-belote"],
)
def test_keeps_the_king_and_queen_of_trumps_together(north_trumps, lead):
    """The heuristic counts the king and queen of trumps dearer while both are in hand
    (``keep_value``: "keep the belote pair together"). With nothing safe to lead, north
    gives its ace of clubs to east's cut rather than part the belote; with the ace of
    trumps beside the queen instead of the king, the queen is its cheapest lead."""
    assert bot(belote_kept(north_trumps)) == lead


# ---------------------------------------------------------------------------------------
# Strength


def points_share(levels: tuple[str, ...], team: int, hands: int) -> float:
    """``team``'s share of the points scored over ``hands`` seeded hands of classique,
    each seat played at its level."""
    won = [0, 0]
    for seed in range(hands):
        result = score(self_play(CLASSIQUE, seed, levels))
        won[0] += result.points[0]
        won[1] += result.points[1]
    return won[team] / (won[0] + won[1])


@pytest.mark.parametrize("team", [0, 1], ids=["NS", "EW"])
def test_the_heuristic_team_scores_clearly_more_than_a_random_one(team):
    levels = tuple("heuristic" if s & 1 == team else "random" for s in range(4))
    assert points_share(levels, team, hands=300) > 0.6


def test_the_beginner_sits_between_the_random_and_the_heuristic_players():
    """The beginner bids like the heuristic but slips at the cards: it scores clearly less
    than the heuristic and clearly more than the random player."""
    assert points_share(("beginner", "heuristic") * 2, 0, hands=100) < 0.45
    assert points_share(("beginner", "random") * 2, 0, hands=100) > 0.55


def test_the_beginner_bids_like_the_heuristic():
    def check(state, action):
        if state.phase != PLAYING:
            assert action == heuristic_action(knowledge_of(state))

    for seed in range(30):
        self_play(PRESETS["moderne"], seed, ("beginner",) * 4, check)


def test_an_exact_decision_capped_in_nodes_is_legal_and_seeded():
    """Exact from the first card, the deals of a decision stopped by the node cap after
    two: every action legal, and the same seed replays the same hand."""
    before = expert.current_budget()
    expert.configure(
        expert.Budget(samples=8, bid_samples=2, exact_tricks=8, exact_nodes=1, exact_min_samples=2)
    )
    try:
        for preset in ("classique", "moderne"):

            def check(state, action):
                assert action in legal_actions(state)

            first = self_play(PRESETS[preset], 3, ("expert",) * 4, check)
            again = self_play(PRESETS[preset], 3, ("expert",) * 4)
            assert first.actions == again.actions
    finally:
        expert.configure(before)


def test_the_expert_weighs_a_pass_by_the_bidding_and_play_that_follow():
    """Passing is not worth nothing: in a drawn deal, the next seat with the jack and
    nine of the turned suit takes after the pass, and the hand is played out."""
    state = first_speaker("classique", "7D 8D 7C 8C 7S", "8H")
    after_me = apply(state, PASS).turn
    state = bidding(
        "classique",
        "8H",
        **{SEATS[state.turn]: "7D 8D 7C 8C 7S", SEATS[after_me]: "JH 9H AS AC AD"},
    )
    dealt_cards = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
    rest = [c for c in range(32) if not dealt_cards >> c & 1 and c != state.turned]

    after = expert._after_pass(state, (list(state.hands), rest))

    assert after.phase == DONE
    assert after.bids[0] == (state.turn, PASS)
    assert (after.taker, after.contract) == (after_me, state.turned >> 3)
    assert len(after.tricks) == 8
