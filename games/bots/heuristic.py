"""Bots: the action a computer player takes for the seat to act.

The one rule of this module: **a bot knows what its seat may know, nothing more.**
A bot reads the hand as ``view(state, state.turn)`` shows it, the same filtered
view a human player gets (own cards, bids, the turned card, the cards on the table and in
finished tricks, belote calls, declared announces, other hands as card counts), plus the
table's rules, which are public. ``knowledge_of`` reads that much into a ``Knowledge``
(the same as ``read_view`` of the view, a test checks it)
and every decision helper takes a ``Knowledge`` only: no helper receives the state, so
none can read another seat's cards or the deck. The ``random`` level picks among
``legal_actions(state)``, which depends on the acting seat's own cards only.

The levels (``random`` and this heuristic player) are listed in games/bots/levels.py.
The heuristic player does rule-based bidding (count the trump jack and nine with their
support, the turned card included; cover in SA with aces and tens, in TA with jacks and
nines) and card play (card counting for master cards, throwing points on a partner's sure
trick, small cards otherwise, the taker's team drawing trumps while it holds most of them,
leads that avoid the opponents' cuts). It is deterministic: same view, same action.

The engine tables (``POINTS``, ``KEY``, ``STRONGER``, ``SUIT_MASK``) do the card
arithmetic, and the legal actions come from the engine: a bot only ranks them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.rules import Action, HandState, Rules, card_of, legal_actions
from games.rules.actions import ANNOUNCE, EXCHANGE, PASS, PLAY_, REDEAL, TAKE, TAKE_, TAKE_MODE
from games.rules.cards import (
    ACE,
    ALL_CARDS,
    JACK,
    KEY,
    KING,
    MODES,
    NINE,
    POINTS,
    QUEEN,
    SA,
    SEATS,
    SEVEN,
    STRONGER,
    SUIT_MASK,
    TA,
    TEN,
    cards_of,
    count,
)
from games.rules.hand import PLAYING

__all__ = ["Knowledge", "heuristic_action", "knowledge_of", "read_view"]


# ---------------------------------------------------------------------------------------
# What the seat knows


class Knowledge(NamedTuple):
    """What the seat to act knows: its own cards and the public record of the hand."""

    rules: Rules
    seat: int
    phase: str
    hand: int  # own cards, a mask
    legal: tuple[Action, ...]
    turned: int  # -1 when there is none
    bid_round: int
    bids: tuple[tuple[int, Action], ...]
    mode: int  # the contract (or highest bid so far), -1 none
    taker: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick in progress, in order
    played: int  # every card on the table or in a finished trick
    voids: tuple[int, int, int, int]  # per seat, a mask of the suits it showed it lacks

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def opponents(self) -> tuple[int, int]:
        return ((self.seat + 1) % 4, (self.seat + 3) % 4)

    @property
    def unseen(self) -> int:
        """Cards in the other three hands (who holds which is unknown)."""
        return ALL_CARDS & ~self.hand & ~self.played

    @property
    def taking_team(self) -> bool:
        return self.taker >= 0 and (self.taker & 1) == (self.seat & 1)

    def seats_after_me(self) -> list[int]:
        """The seats still to play in the current trick after this one."""
        step = self.rules.step
        return [(self.seat + step * i) % 4 for i in range(1, 4 - len(self.trick))]


def knowledge_of(state: HandState) -> Knowledge:
    """The acting seat's knowledge: what ``view(state, state.turn)`` shows it, read
    straight from the state's public fields and that seat's own hand (the view's dict and
    its card codes cost three quarters of a rollout). It equals
    ``read_view(view(state, state.turn), state.rules)``: tests/bots/test_knowledge.py
    checks it on random states of every preset."""
    seat, step = state.turn, state.rules.step
    mode = state.contract
    tricks = [tuple((t.seat_of(i, step), c) for i, c in enumerate(t.cards)) for t in state.tricks]
    trick = tuple(((state.leader + i * step) % 4, c) for i, c in enumerate(state.trick))
    played = 0
    for cards in (*tricks, trick):
        for _, card in cards:
            played |= 1 << card
    return Knowledge(
        rules=state.rules,
        seat=seat,
        phase=state.phase,
        hand=state.hands[seat],
        legal=tuple(legal_actions(state)),
        turned=state.turned,
        bid_round=state.bid_round,
        bids=state.bids,
        mode=mode,
        taker=state.taker if mode >= 0 else -1,
        trick=trick,
        played=played,
        voids=voids_shown(state.rules, mode, [*tricks, trick]) if mode >= 0 else (0, 0, 0, 0),
    )


def read_view(seen: dict[str, Any], rules: Rules) -> Knowledge:
    """A ``Knowledge`` from one seat's ``view`` dict (codes back to cards)."""
    contract = seen["contract"]
    mode = MODES.index(contract["mode"]) if contract else -1
    tricks = [_seat_cards(t["cards"]) for t in seen["tricks"]]
    trick = _seat_cards(seen["trick"])
    played = 0
    for cards in [*tricks, trick]:
        for _, card in cards:
            played |= 1 << card
    hand = 0
    for code in seen["hand"]:
        hand |= 1 << card_of(code)
    return Knowledge(
        rules=rules,
        seat=SEATS.index(seen["seat"]),
        phase=seen["phase"],
        hand=hand,
        legal=tuple(Action.parse(text) for text in seen["legal"]),
        turned=card_of(seen["turned"]) if seen["turned"] else -1,
        bid_round=seen["bid_round"],
        bids=tuple((SEATS.index(b["seat"]), Action.parse(b["action"])) for b in seen["bids"]),
        mode=mode,
        taker=SEATS.index(contract["taker"]) if contract else -1,
        trick=trick,
        played=played,
        voids=voids_shown(rules, mode, [*tricks, trick]) if mode >= 0 else (0, 0, 0, 0),
    )


def _seat_cards(entries: list[dict[str, str]]) -> tuple[tuple[int, int], ...]:
    return tuple((SEATS.index(e["seat"]), card_of(e["card"])) for e in entries)


def voids_shown(rules: Rules, mode: int, tricks: list[tuple[tuple[int, int], ...]]) -> tuple:
    """Per seat, the suits its plays proved it lacks.

    Not following shows a void in the led suit; in a trump contract, not trumping either
    shows no trumps, unless the rules let that player discard (partner master and
    ``partner_master_frees``, or unable to overtrump without ``must_undertrump``).
    """
    voids = [0, 0, 0, 0]
    for trick in tricks:
        if not trick:
            continue
        led = trick[0][1] >> 3
        key = KEY[mode][led]
        best_seat, best = trick[0]
        for seat, card in trick[1:]:
            suit = card >> 3
            if suit != led:
                voids[seat] |= 1 << led
                if mode < SA and led != mode and suit != mode:
                    freed = best_seat == (seat + 2) % 4 and rules.partner_master_frees
                    may_discard = best >> 3 == mode and not rules.must_undertrump
                    if not (freed or may_discard):
                        voids[seat] |= 1 << mode
            if key[card] > key[best]:
                best_seat, best = seat, card
    return tuple(voids)


# ---------------------------------------------------------------------------------------
# The heuristic player


def heuristic_action(k: Knowledge) -> Action:
    if k.phase == PLAYING:
        if ANNOUNCE in k.legal:  # announces only ever score: always declare them
            return ANNOUNCE
        return Action(PLAY_, choose_card(k))
    return choose_bid(k)


# ---------------------------------------------------------------------------------------
# Bidding

# What a trump counts for when bidding, by rank 7 8 9 T J Q K A.
TRUMP_BID_VALUE = (0.5, 0.5, 3.0, 1.5, 4.0, 1.0, 1.0, 2.0)
TAKE_THRESHOLD = 5.0  # jack + one trump + a little, or nine + two trumps, or nine + side ace
SA_THRESHOLD = 9.0  # about three aces
TA_THRESHOLD = 8.0  # two jacks and a nine
PARTNER_COVER_MARGIN = 3.0  # covering the partner's bid needs a clearly better hand


def choose_bid(k: Knowledge) -> Action:
    if REDEAL in k.legal:
        return REDEAL
    if EXCHANGE in k.legal and wants_exchange(k):
        return EXCHANGE
    if k.mode == -1:
        if k.bid_round == 1:
            return TAKE if takes_turned_suit(k) else PASS
        return named_suit(k)
    return cover_bid(k)


def wants_exchange(k: Knowledge) -> bool:
    """The turned card is a better trump than the seven held (always, in practice)."""
    seven = (k.turned & ~7) + SEVEN
    return count(STRONGER[k.turned >> 3][seven]) > count(STRONGER[k.turned >> 3][k.turned])


def takes_turned_suit(k: Knowledge) -> bool:
    trump = k.turned >> 3
    return trump_strength(k.hand | 1 << k.turned, trump) >= TAKE_THRESHOLD


def named_suit(k: Knowledge) -> Action:
    """Second round: the best suit the rules allow, if it is worth a take."""
    hand = k.hand | 1 << k.turned  # the taker receives the turned card
    choices = [a for a in k.legal if a.kind == TAKE_]
    if not choices:
        return PASS
    best = max(choices, key=lambda a: trump_strength(hand, a.arg))
    return best if trump_strength(hand, best.arg) >= TAKE_THRESHOLD else PASS


def cover_bid(k: Knowledge) -> Action:
    """Surenchère: cover with SA or TA on a hand made for it, rarely over the partner."""
    hand = k.hand | 1 << k.turned  # whoever covers becomes the taker and receives it
    margin = PARTNER_COVER_MARGIN if k.taker == k.partner else 0.0
    if TAKE_MODE[TA] in k.legal and tout_atout_strength(hand) >= TA_THRESHOLD + margin:
        return TAKE_MODE[TA]
    if TAKE_MODE[SA] in k.legal and sans_atout_strength(hand) >= SA_THRESHOLD + margin:
        return TAKE_MODE[SA]
    return PASS


def _has(cards: int, suit: int, rank: int) -> bool:
    return bool(cards >> (suit * 8 + rank) & 1)


def trump_strength(cards: int, trump: int) -> float:
    """How good ``cards`` are with ``trump`` as trumps; 0 without its jack or nine."""
    trumps = cards & SUIT_MASK[trump]
    if not (_has(cards, trump, JACK) or _has(cards, trump, NINE)):
        return 0.0
    value = sum(TRUMP_BID_VALUE[c & 7] for c in cards_of(trumps))
    length = count(trumps)
    value += max(0, length - 2)
    if _has(cards, trump, KING) and _has(cards, trump, QUEEN):
        value += 1.0  # the belote
    for suit in range(4):
        if suit == trump:
            continue
        side = cards & SUIT_MASK[suit]
        if not side and length >= 3:
            value += 0.5  # a void to cut with
        if _has(side, suit, ACE):
            value += 2.0
        if _has(side, suit, TEN):
            value += 1.0 if _has(side, suit, ACE) else 0.5
    return value


def sans_atout_strength(cards: int) -> float:
    """Aces, and tens behind them, win tricks in sans atout."""
    value = 0.0
    for suit in range(4):
        ace, ten, king = (_has(cards, suit, r) for r in (ACE, TEN, KING))
        value += 3.0 * ace
        value += 2.0 if ten and ace else 0.5 if ten and king else 0.0
        value += 0.5 if king and (ace or ten) else 0.0
    return value


def tout_atout_strength(cards: int) -> float:
    """Jacks, and nines behind them, win tricks in tout atout."""
    value = 0.0
    for suit in range(4):
        jack, nine, ace = (_has(cards, suit, r) for r in (JACK, NINE, ACE))
        value += 3.5 * jack
        value += 2.0 if nine and jack else 1.0 if nine else 0.0
        value += 1.0 if ace and (jack or nine) else 0.3 if ace else 0.0
    return value


# ---------------------------------------------------------------------------------------
# Card play: facts about a card


def is_trump(k: Knowledge, card: int) -> bool:
    """A trump that cuts other suits (tout atout has none: no suit cuts another)."""
    return k.mode < SA and card >> 3 == k.mode


def strength(k: Knowledge, card: int) -> int:
    """The card's rank in its suit under the contract, 7 the strongest."""
    return 7 - count(STRONGER[k.mode][card])


def is_master(k: Knowledge, card: int) -> bool:
    """Every stronger card of its suit has been played or is in this hand."""
    return not STRONGER[k.mode][card] & k.unseen


def known_void(k: Knowledge, seat: int, suit: int) -> bool:
    return bool(k.voids[seat] >> suit & 1) or not k.unseen & SUIT_MASK[suit]


def may_cut(k: Knowledge, seat: int, suit: int) -> bool:
    """``seat`` is known to lack ``suit`` and may still hold a trump."""
    return (
        k.mode < SA
        and suit != k.mode
        and known_void(k, seat, suit)
        and not known_void(k, seat, k.mode)
    )


def can_be_beaten(k: Knowledge, card: int, led: int, rivals: list[int] | tuple[int, ...]) -> bool:
    """Whether one of ``rivals`` (still to play) may beat ``card`` in a trick led in ``led``."""
    stronger_unseen = STRONGER[k.mode][card] & k.unseen
    for rival in rivals:
        if card >> 3 == led:
            if stronger_unseen and not known_void(k, rival, led):
                return True
            if may_cut(k, rival, led):
                return True
        elif stronger_unseen and known_void(k, rival, led) and not known_void(k, rival, k.mode):
            return True  # an overcut
    return False


def keep_value(k: Knowledge, card: int) -> float:
    """What giving the card away costs beyond its points: trumps, masters, belote, guards."""
    suit = card >> 3
    value = 0.0
    if is_trump(k, card):
        value += 15 + POINTS[k.mode][card] + 3 * strength(k, card)
        if card & 7 in (KING, QUEEN) and _has(k.hand, suit, KING) and _has(k.hand, suit, QUEEN):
            value += 6  # keep the belote pair together
    elif k.mode == TA:
        value += 2 * strength(k, card)
    if is_master(k, card) and not is_trump(k, card):
        value += 8
    ten = suit * 8 + TEN
    mine = k.hand & SUIT_MASK[suit]
    if card != ten and mine >> ten & 1 and count(mine) == 2 and not is_master(k, ten):
        value += 4  # the last guard of a ten that is not master
    return value


def points(k: Knowledge, card: int) -> int:
    return POINTS[k.mode][card]


# ---------------------------------------------------------------------------------------
# Card play: decisions

LONG_SUIT_BONUS = 1.5
CUT_PARTNER_POINTS = 10  # a partner's trick an opponent may take is worth securing with a trump


def choose_card(k: Knowledge) -> int:
    cards = [a.arg for a in k.legal if a.kind == PLAY_]
    if len(cards) == 1:
        return cards[0]
    if not k.trick:
        return choose_lead(k, cards)
    return choose_follow(k, cards)


def choose_lead(k: Knowledge, cards: list[int]) -> int:
    if should_draw_trumps(k):
        return trump_to_draw(k, cards)
    sure = [c for c in cards if not is_trump(k, c) and not can_be_beaten(k, c, c >> 3, k.opponents)]
    if sure:
        return max(sure, key=lambda c: (points(k, c), strength(k, c)))
    if k.taking_team and k.mode < SA and opponents_may_hold_trumps(k):
        master_trumps = [c for c in cards if is_trump(k, c) and is_master(k, c)]
        if master_trumps:
            return max(master_trumps, key=lambda c: strength(k, c))
    for_partner = cut_for_partner(k, cards)
    if for_partner >= 0:
        return for_partner
    return safest_small_lead(k, cards)


def opponents_may_hold_trumps(k: Knowledge) -> bool:
    return any(not known_void(k, o, k.mode) for o in k.opponents)


def should_draw_trumps(k: Knowledge) -> bool:
    """The taker's team leads trumps while it holds most of those still out."""
    if k.mode >= SA or not k.taking_team:
        return False
    mine = count(k.hand & SUIT_MASK[k.mode])
    out = count(k.unseen & SUIT_MASK[k.mode])
    return mine > 0 and out > 0 and mine >= out and opponents_may_hold_trumps(k)


def trump_to_draw(k: Knowledge, cards: list[int]) -> int:
    """The strongest master trump, else the trump that costs least."""
    trumps = [c for c in cards if is_trump(k, c)]
    masters = [c for c in trumps if is_master(k, c)]
    if masters:
        return max(masters, key=lambda c: strength(k, c))
    return min(trumps, key=lambda c: (keep_value(k, c), strength(k, c)))


def cut_for_partner(k: Knowledge, cards: list[int]) -> int:
    """A small card in a suit the partner can cut and the opponents cannot; -1 if none."""
    if k.mode >= SA:
        return -1
    options = [
        c
        for c in cards
        if not is_trump(k, c)
        and may_cut(k, k.partner, c >> 3)
        and not any(may_cut(k, o, c >> 3) for o in k.opponents)
    ]
    if not options:
        return -1
    return min(options, key=lambda c: (points(k, c) + keep_value(k, c), strength(k, c)))


def safest_small_lead(k: Knowledge, cards: list[int]) -> int:
    """The smallest card of the suit whose lead risks least."""

    def risk(card: int) -> tuple[float, int]:
        suit = card >> 3
        value = points(k, card) + keep_value(k, card)
        if any(may_cut(k, o, suit) for o in k.opponents):
            value += 20  # led into a cut
        if is_trump(k, card) and not k.taking_team:
            value += 8  # the defence keeps its trumps to cut with
        value -= 0.3 * count(k.unseen & SUIT_MASK[suit])  # the others must follow
        if k.mode >= SA:  # without cuts, a long suit makes tricks once its masters fall
            value -= LONG_SUIT_BONUS * count(k.hand & SUIT_MASK[suit])
        return value, strength(k, card)

    return min(cards, key=risk)


def trick_winner(k: Knowledge) -> tuple[int, int]:
    """(seat, card) winning the current trick so far."""
    key = KEY[k.mode][k.trick[0][1] >> 3]
    return max(k.trick, key=lambda seat_card: key[seat_card[1]])


def choose_follow(k: Knowledge, cards: list[int]) -> int:
    led = k.trick[0][1] >> 3
    key = KEY[k.mode][led]
    best_seat, best = trick_winner(k)
    rivals = [s for s in k.seats_after_me() if s & 1 != k.seat & 1]
    winners = [c for c in cards if key[c] > key[best]]
    sure = [c for c in winners if not can_be_beaten(k, c, led, rivals)]
    if best_seat == k.partner:
        if not can_be_beaten(k, best, led, rivals):
            return richest_throw(k, cards)
        plain_sure = [c for c in sure if not is_trump(k, c)]
        if plain_sure:  # make the partner's trick safe with a master
            return max(plain_sure, key=lambda c: points(k, c))
        if sure and trick_points(k) >= CUT_PARTNER_POINTS:  # worth a trump to secure
            return best_sure_winner(k, sure)
        return cheapest_loss(k, cards)
    if sure:
        return best_sure_winner(k, sure)
    partner_to_play = k.partner in k.seats_after_me()
    cheap = [c for c in winners if points(k, c) + keep_value(k, c) < 10]
    if cheap and not partner_to_play:
        return min(cheap, key=lambda c: (keep_value(k, c), strength(k, c)))
    return cheapest_loss(k, cards)


def trick_points(k: Knowledge) -> int:
    return sum(points(k, card) for _, card in k.trick)


def best_sure_winner(k: Knowledge, sure: list[int]) -> int:
    """Win with the most points of the suit, or with the smallest trump that holds."""
    plain = [c for c in sure if not is_trump(k, c)]
    if plain:
        return max(plain, key=lambda c: (points(k, c), -strength(k, c)))
    return min(sure, key=lambda c: (keep_value(k, c), strength(k, c)))


def richest_throw(k: Knowledge, cards: list[int]) -> int:
    """On a trick the partner wins: the most points that are not worth keeping."""
    return max(cards, key=lambda c: (points(k, c) - keep_value(k, c), -strength(k, c)))


def cheapest_loss(k: Knowledge, cards: list[int]) -> int:
    """On a trick the opponents may win: the card that costs least, shortening a short
    side suit when trumps could then cut it."""

    def cost(card: int) -> tuple[float, int]:
        value = points(k, card) + keep_value(k, card)
        if k.mode < SA and not is_trump(k, card) and k.hand & SUIT_MASK[k.mode]:
            value += 0.5 * count(k.hand & SUIT_MASK[card >> 3])
        return value, strength(k, card)

    return min(cards, key=cost)
