"""Positions and whole hands for the rule scenarios, written as the tricks are played.

A trick is written ``"N:JH W:7H S:8H E:9H"``: its leader first, then the other seats (the
engine decides the order they play in). The four hands are read off the eight tricks, so
a test shows the play and the points at once. Every card goes through
``apply(..., seat=...)``: a trick whose leader is not the engine's fails loudly.

First-trick positions give the hands by role (first, second, third and fourth to play),
so one position serves the clockwise and the counter-clockwise presets alike.
"""

from __future__ import annotations

from games.rules import PRESETS, SEATS, Game, Rules, apply, code_of, legal_cards, new_game
from games.rules.actions import ANNOUNCE, PLAY
from games.rules.cards import cards_of
from games.rules.hand import HandState
from tests.rules.builders import cards, playing, seat, stacked_deck


def rules_of(preset: str | Rules, **options) -> Rules:
    rules = PRESETS[preset] if isinstance(preset, str) else preset
    return rules.with_options(**options) if options else rules


def dealer_for(rules: Rules, leader: str) -> str:
    """The dealer whose first leader is ``leader``."""
    at = seat(leader)
    return SEATS[(at + 3) % 4 if rules.first_leader == "left" else (at + 1) % 4]


# The 32 cards in suit order, the deck for the deal tests: spades, hearts, diamonds, clubs.
IN_ORDER = cards(
    "7S 8S 9S TS JS QS KS AS 7H 8H 9H TH JH QH KH AH "
    "7D 8D 9D TD JD QD KD AD 7C 8C 9C TC JC QC KC AC"
)


def game_at(preset: str | Rules, scores: tuple[int, int], dealer: str = "N", **options) -> Game:
    """A game in progress with these totals for NS and EW, ``dealer`` to deal next."""
    return new_game(rules_of(preset, **options), seat(dealer))._replace(scores=scores)


def game_for(hand: HandState, scores: tuple[int, int] = (0, 0)) -> Game:
    """A game in progress whose next hand is ``hand`` (same rules and dealer)."""
    return new_game(hand.rules, hand.dealer)._replace(scores=scores)


def hands(state: HandState) -> dict[str, str]:
    """Every seat's cards, in suit order (spades, hearts, diamonds, clubs; 7 to ace)."""
    return {s: " ".join(code_of(c) for c in cards_of(state.hands[i])) for i, s in enumerate(SEATS)}


def cards_set(text: str) -> set[str]:
    """The card codes of ``"JH 7H AC"``, to compare with ``playable``."""
    return set(text.split())


def playable(state: HandState) -> set[str]:
    """The codes of the cards the player to act may play."""
    return {code_of(c) for c in cards_of(legal_cards(state))}


def play(state: HandState, codes: str) -> HandState:
    """Play cards in turn, whoever is to act."""
    for code in codes.split():
        state = apply(state, PLAY[cards(code)[0]])
    return state


# ---------------------------------------------------------------------------------------
# Whole hands


def hands_of(tricks: list[str]) -> dict[str, str]:
    """Each seat's eight cards, in the order it plays them."""
    hands: dict[str, list[str]] = {s: [] for s in SEATS}
    for trick in tricks:
        for word in trick.split():
            name, code = word.split(":")
            hands[name].append(code)
    return {s: " ".join(codes) for s, codes in hands.items()}


def deck_for_tricks(
    rules: Rules, dealer: str, tricks: list[str], turned: str, taker: str = "N"
) -> list[int]:
    """A deck that deals the hands of ``tricks``, ``taker`` taking ``turned`` (one of its
    cards): what a table started with it and bid that way then plays."""
    hands = hands_of(tricks)
    own = [c for c in hands[taker].split() if c != turned]
    hands[taker] = " ".join(own[:5] + [turned] + own[5:])
    return stacked_deck(rules, dealer, hands, turned, taker=taker)


def play_tricks(state: HandState, tricks: list[str], announce: str = "") -> HandState:
    """Play the tricks; the seats in ``announce`` ("N E") declare before their first card."""
    waiting = {seat(s) for s in announce.split()}
    for trick in tricks:
        plays = [word.split(":") for word in trick.split()]
        by_seat = {seat(name): cards(code)[0] for name, code in plays}
        leader = seat(plays[0][0])
        assert state.turn == leader, f"{trick!r}: {SEATS[state.turn]} leads, not {SEATS[leader]}"
        for _ in range(4):
            turn = state.turn
            if turn in waiting:
                state = apply(state, ANNOUNCE, seat=turn)
                waiting.discard(turn)
            state = apply(state, PLAY[by_seat[turn]], seat=turn)
    return state


def played(
    preset: str | Rules,
    contract: str,
    taker: str,
    tricks: list[str],
    announce: str = "",
    **options,
) -> HandState:
    """The finished hand: ``tricks`` played under ``contract`` taken by ``taker``.

    The dealer is the seat that makes the first trick's leader the preset's first leader.
    """
    rules = rules_of(preset, **options)
    dealer = dealer_for(rules, tricks[0].split(":")[0])
    state = playing(rules, hands_of(tricks), contract, taker, dealer=dealer)
    return play_tricks(state, tricks, announce)


def rotated(tricks: list[str], turns: int) -> list[str]:
    """The same play moved ``turns`` seats clockwise: with 1, N's cards go to E and so on.
    An odd number of turns swaps what NS and EW make."""

    def move(word: str) -> str:
        name, code = word.split(":")
        return f"{SEATS[(seat(name) + turns) % 4]}:{code}"

    return [" ".join(move(w) for w in trick.split()) for trick in tricks]


def hearts_deal(ns: int = 81, belote: str = "") -> list[str]:
    """Eight tricks at hearts, N leading: NS make ``ns`` points (88, 82, 81, 76 or 62).

    NS win the two heart tricks (62 points: 38 and 24 without a belote) and, but for
    ``ns=62``, the first spade trick; W wins the rest and the dix de der.
    ``belote="NS"`` gives S the king and queen of hearts, ``"EW"`` gives them to E. No
    hand holds an announce.
    """
    hearts = {
        "": ["N:JH W:7H S:KH E:9H", "N:AH W:8H S:TH E:QH"],
        "NS": ["N:JH W:7H S:QH E:9H", "N:AH W:8H S:KH E:TH"],
        "EW": ["N:JH W:7H S:9H E:QH", "N:AH W:8H S:TH E:KH"],
    }[belote]
    spades = {
        88: ["N:AS W:TS S:QS E:JS", "N:7S W:KS S:8S E:9S"],  # 26, then 4 to W
        82: ["N:AS W:KS S:QS E:JS", "N:7S W:TS S:8S E:9S"],  # 20, then 10 to W
        81: ["N:TS W:KS S:QS E:JS", "N:7S W:AS S:8S E:9S"],  # 19, then 11 to W
        76: ["N:TS W:KS S:8S E:9S", "N:7S W:AS S:QS E:JS"],  # 14, then 16 to W
        62: ["N:TS W:AS S:QS E:JS", "W:KS S:8S E:9S N:7S"],  # 26 to W, then 4 to W
    }[ns]
    rest = [
        "W:AD S:7D E:KD N:8D",  # 15
        "W:TD S:9D E:QD N:JD",  # 15
        "W:AC S:7C E:KC N:8C",  # 15
        "W:TC S:9C E:QC N:JC",  # 15 + 10 de der
    ]
    return hearts + spades + rest


def litige_with_the_takers_belote() -> list[str]:
    """``hearts_deal(81, "NS")`` with other spades: NS make 71 card points and S holds
    the belote, 71 + 20 against 91."""
    spades = [
        "N:KS W:JS S:QS E:9S",  # 9 to N
        "N:7S W:AS S:8S E:TS",  # 21 to W
    ]
    deal = hearts_deal(81, "NS")
    return deal[:2] + spades + deal[4:]


# N holds the four jacks (carré 200), E the four nines (carré 150). NS 79, EW 83.
CARRES_DEAL = [
    "N:JH W:7H S:KH E:9H",  # 34
    "N:AH W:8H S:TH E:QH",  # 28
    "N:TS W:KS S:QS E:9S",  # 17
    "N:JS W:AS S:8S E:7S",  # 13 to W
    "W:AD S:7D E:KD N:8D",  # 15
    "W:TD S:QD E:9D N:JD",  # 15
    "W:AC S:7C E:KC N:8C",  # 15
    "W:TC S:QC E:9C N:JC",  # 15 + 10
]


def tierces_deal(belote: str = "") -> list[str]:
    """N holds a tierce to the 9 of spades, E one to the 9 of diamonds: equal announces.

    NS make 139 points, EW 23. ``belote="EW"`` gives W the king and queen of hearts.
    """
    hearts = {
        "": ["N:JH W:7H S:9H E:8H", "N:AH W:KH S:TH E:QH"],  # 34, 28
        "EW": ["N:JH W:QH S:9H E:8H", "N:AH W:KH S:TH E:7H"],  # 37, 25
    }[belote]
    return hearts + [
        "N:7S W:AS S:TS E:JS",  # 23 to W
        "W:QD S:KD E:7D N:AD",  # 18
        "N:AC W:9C S:KC E:7C",  # 15
        "N:TC W:JC S:TD E:8C",  # 22
        "N:8S W:QC S:KS E:8D",  # 7 to S
        "S:QS W:JD E:9D N:9S",  # 5 + 10
    ]


# NS take every trick (162 points). W holds the belote, E a cinquante (7 to 10 of diamonds).
CAPOT_DEAL = [
    "N:JH W:QH S:9C E:7H",  # 23
    "N:9H W:KH S:8S E:TH",  # 28
    "N:AS W:7S S:JS E:7C",  # 13
    "N:TS W:9S S:QD E:8C",  # 13
    "N:AD W:QC S:JD E:7D",  # 16
    "N:KD W:JC S:KC E:8D",  # 10
    "N:AH W:KS S:TC E:9D",  # 25
    "N:8H W:QS S:AC E:TD",  # 24 + 10
]


# ---------------------------------------------------------------------------------------
# First-trick positions, hearts trump: hands of the first, second, third, fourth to play

# The first leads AH: the third must go over it with 9H, its only higher trump.
TRUMP_LED = (
    "JH AH AS KS QS JS TS 9S",
    "TH 7H 8S 7S AD KD QD JD",
    "9H 8H TD 9D 8D 7D AC KC",
    "KH QH QC JC TC 9C 8C 7C",
)

# Spades led; the third has none, holds JH 7H and clubs.
VOID_IN_SPADES = (
    "7S AS AH TH AD KD QD JD",
    "KS 8S 9H 8H TD 9D 8D 7D",
    "JH 7H AC KC QC JC TC 9C",
    "9S TS JS QS KH QH 8C 7C",
)

# The first holds every spade; the second and third have none.
OVERCUT = (
    "7S 8S 9S TS JS QS KS AS",
    "JH 8H AD KD QD JD TD 9D",
    "9H 7H AC KC QC JC TC 9C",
    "AH TH KH QH 8D 7D 8C 7C",
)

# Spades led; the second cuts with 9H, the third can only play 7H under it, and the
# fourth (the second's partner) holds JH and lower hearts.
PARTNER_CUTS = (
    "7S 8S 9S TS JS QS KS AS",
    "9H AD KD QD JD TD 9D 8D",
    "7H AC KC QC JC TC 9C 8C",
    "JH 8H AH TH KH QH 7D 7C",
)


def first_trick(
    preset: str | Rules, position: tuple[str, ...], plays: str = "", contract: str = "H", **options
) -> HandState:
    """``position`` dealt (N first to play, then the preset's direction), N the taker,
    and ``plays`` played."""
    rules = rules_of(preset, **options)
    order = [SEATS[(k * rules.step) % 4] for k in range(4)]
    hands = dict(zip(order, position, strict=True))
    state = playing(rules, hands, contract, "N", dealer=dealer_for(rules, "N"))
    return play(state, plays)
