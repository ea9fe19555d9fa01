"""One hand (donne): the deal, the bidding and the eight tricks, as an immutable state.

``deal(rules, dealer, deck)`` starts a hand, ``legal_actions(state)`` lists what the
player to act may do, ``apply(state, action)`` returns the next state or raises
``IllegalAction``. A state is fully determined by (rules, dealer, deck, actions): replaying
``state.actions`` from the deal gives an equal state, the base of every consistency check.

States are named tuples rebuilt from a list on each move, which keeps ``apply`` cheap;
nothing here allocates more than the new tuple and what changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .actions import (
    ANNOUNCE,
    ANNOUNCE_,
    EXCHANGE,
    EXCHANGE_,
    PASS,
    PASS_,
    PLAY,
    PLAY_,
    REDEAL,
    REDEAL_,
    TAKE,
    TAKE_,
    TAKE_MODE,
    Action,
    IllegalAction,
    gettext_noop,
)
from .announces import Announce, find_announces
from .cards import (
    KEY,
    KING,
    PLAIN_POINTS,
    POINTS,
    QUEEN,
    SA,
    SEATS,
    SEVEN,
    STRONGER,
    SUIT_MASK,
    TA,
    cards_of,
    code_of,
    mask_of,
)
from .options import Rules

BIDDING, PLAYING, DONE = "bidding", "playing", "done"
PLAYED, ALL_PASSED, MAIN_NULLE, FOUR_SEVENS = "played", "all_passed", "main_nulle", "four_sevens"


class Trick(NamedTuple):
    leader: int
    cards: tuple[int, ...]  # in the order played, starting with the leader's
    winner: int
    points: int  # card points, with the dix de der on the last trick

    def seat_of(self, index: int, step: int) -> int:
        return (self.leader + index * step) % 4


class BeloteCall(NamedTuple):
    seat: int
    suit: int
    call: str  # "belote" with the first of the king and queen, "rebelote" with the second


class HandState(NamedTuple):
    rules: Rules
    dealer: int
    deck: tuple[int, ...] | None  # None when started from dealt hands and a contract
    phase: str
    turn: int  # seat to act, -1 when the hand is over
    hands: tuple[int, int, int, int]  # card masks
    turned: int  # the turned card, -1 when there is none
    bid_round: int
    passes: int  # passes in a row since the round began or since the last bid
    bids: tuple[tuple[int, Action], ...]
    contract: int  # mode (suit, SA, TA) of the highest bid, -1 none
    taker: int
    exchanged: bool
    trick: tuple[int, ...]  # cards of the trick in progress
    leader: int
    tricks: tuple[Trick, ...]
    won: tuple[int, int]  # card points won by NS and EW so far
    belotes: tuple[int, int, int, int]  # per seat, a mask of suits held king and queen
    belote_calls: tuple[BeloteCall, ...]
    announces: tuple[tuple[Announce, ...], ...]  # per seat, what the dealt hand holds
    declared: int  # mask of seats whose announces are made
    ended: str  # "" until the hand is over, then why it ended
    actions: tuple[Action, ...]

    @property
    def taker_team(self) -> int:
        return self.taker & 1 if self.taker >= 0 else -1


_new = tuple.__new__
# Field positions, for rebuilding a state from a list.
(
    _RULES,
    _DEALER,
    _DECK,
    _PHASE,
    _TURN,
    _HANDS,
    _TURNED,
    _ROUND,
    _PASSES,
    _BIDS,
    _CONTRACT,
    _TAKER,
    _EXCHANGED,
    _TRICK,
    _LEADER,
    _TRICKS,
    _WON,
    _BELOTES,
    _CALLS,
    _ANNOUNCES,
    _DECLARED,
    _ENDED,
    _ACTIONS,
) = range(len(HandState._fields))


def seat_beside(rules: Rules, seat: int, side: str) -> int:
    """The seat on the left (clockwise) or on the right of ``seat``."""
    return (seat + 1) % 4 if side == "left" else (seat + 3) % 4


def next_dealer(rules: Rules, dealer: int) -> int:
    return seat_beside(rules, dealer, rules.next_dealer)


def _deal_order(rules: Rules, dealer: int) -> list[int]:
    step = rules.step
    return [(dealer + step * k) % 4 for k in range(1, 5)]


def deal(rules: Rules, dealer: int, deck: Iterable[int]) -> HandState:
    """Deal the first five cards each (in the preset's packets) and turn the next one."""
    deck = tuple(deck)
    if len(deck) != 32 or set(deck) != set(range(32)):
        raise ValueError("a deck holds the 32 cards once each")
    if dealer not in range(4):
        raise ValueError("the dealer is a seat 0..3")
    hands = [0, 0, 0, 0]
    i = 0
    order = _deal_order(rules, dealer)
    for packet in rules.deal_pattern:
        for seat in order:
            for c in deck[i : i + packet]:
                hands[seat] |= 1 << c
            i += packet
    return _new(
        HandState,
        (
            rules,
            dealer,
            deck,
            BIDDING,
            seat_beside(rules, dealer, rules.first_speaker),
            tuple(hands),
            deck[20],
            1,
            0,
            (),
            -1,
            -1,
            False,
            (),
            -1,
            (),
            (0, 0),
            (0, 0, 0, 0),
            (),
            ((), (), (), ()),
            0,
            "",
            (),
        ),
    )


def start_with_contract(
    rules: Rules, dealer: int, hands: Iterable[Iterable[int]], contract: int, taker: int
) -> HandState:
    """A hand already dealt (four 8-card hands) and bid: to test the play alone."""
    masks = tuple(mask_of(h) for h in hands)
    if len(masks) != 4 or any(m.bit_count() != 8 for m in masks):
        raise ValueError("four hands of 8 cards")
    if masks[0] | masks[1] | masks[2] | masks[3] != (1 << 32) - 1:
        raise ValueError("the four hands hold the 32 cards once each")
    if contract not in range(6) or taker not in range(4) or dealer not in range(4):
        raise ValueError("contract is a mode 0..5, taker and dealer are seats 0..3")
    state = _new(
        HandState,
        (rules, dealer, None, BIDDING, -1, masks, -1, 1, 0, (), contract, taker, False)
        + ((), -1, (), (0, 0), (0, 0, 0, 0), (), ((), (), (), ()), 0, "", ()),
    )
    return _start_play(list(state), masks)


# ---------------------------------------------------------------------------------------
# Legal actions


def _trick_master(mode: int, trick: tuple[int, ...]) -> int:
    """Index in the trick of the card winning it so far."""
    key = KEY[mode][trick[0] >> 3]
    best_i, best_k = 0, key[trick[0]]
    for i in range(1, len(trick)):
        k = key[trick[i]]
        if k > best_k:
            best_i, best_k = i, k
    return best_i


def legal_cards(state: HandState) -> int:
    """The mask of cards the player to act may play (0 outside the play)."""
    if state.phase != PLAYING:
        return 0
    return legal_mask(state.rules, state.contract, state.hands[state.turn], state.trick)


def legal_mask(rules: Rules, mode: int, hand: int, trick: tuple[int, ...]) -> int:
    if not trick:
        return hand
    led = trick[0] >> 3
    follow = hand & SUIT_MASK[led]
    if mode == SA:
        return follow or hand
    best_i = _trick_master(mode, trick)
    best = trick[best_i]
    if mode == TA:
        # 002: "chaque couleur se joue comme un atout ... il faut toujours monter".
        if follow:
            return (follow & STRONGER[TA][best]) or follow
        return hand
    partner_master = best_i == len(trick) - 2
    if led == mode:
        if not follow:
            return hand
        if partner_master and not rules.overtrump_partner:
            return follow
        return (follow & STRONGER[mode][best]) or follow
    if follow:
        return follow
    trumps = hand & SUIT_MASK[mode]
    if partner_master and rules.partner_master_frees:
        if rules.free_trumps_go_higher and best >> 3 == mode:
            # 004: "les joueurs jouant atout doivent obligatoirement monter".
            higher = trumps & STRONGER[mode][best]
            if higher:
                return (hand & ~trumps) | higher
        return hand
    if not trumps:
        return hand
    if best >> 3 == mode:  # somebody has cut already
        if partner_master and not rules.overtrump_partner:
            return trumps
        higher = trumps & STRONGER[mode][best]
        if higher:
            return higher
        return trumps if rules.must_undertrump else hand
    return trumps


def _can_redeal(rules: Rules, state: HandState, seat: int) -> str:
    if state.contract != -1:
        return ""
    hand = state.hands[seat]
    if rules.redeal_four_sevens:
        sevens = sum(1 << (s * 8 + SEVEN) for s in range(4))
        if hand & sevens == sevens:
            return FOUR_SEVENS
    if (
        rules.redeal_main_nulle
        and not hand & SUIT_MASK[state.turned >> 3]
        and sum(PLAIN_POINTS[c & 7] for c in cards_of(hand)) < 11
    ):
        return MAIN_NULLE
    return ""


def _can_exchange(state: HandState, seat: int) -> bool:
    return (
        state.rules.seven_exchange
        and state.bid_round == 1
        and not state.exchanged
        and state.contract == -1
        and bool(state.hands[seat] >> ((state.turned & ~7) + SEVEN) & 1)
    )


def _bids(state: HandState) -> list[Action]:
    rules, seat = state.rules, state.turn
    out = []
    if _can_exchange(state, seat):
        out.append(EXCHANGE)
    if (rules.redeal_main_nulle or rules.redeal_four_sevens) and _can_redeal(rules, state, seat):
        out.append(REDEAL)
    out.append(PASS)
    if state.contract == -1:
        if state.bid_round == 1:
            out.append(TAKE)
        else:
            turned_suit = state.turned >> 3
            out.extend(
                TAKE_MODE[s]
                for s in range(4)
                if not (rules.second_round_excludes_turned and s == turned_suit)
            )
    elif state.taker != seat:  # surenchère: cover, never one's own bid
        out.extend(TAKE_MODE[m] for m in (SA, TA) if m > state.contract)
    return out


_PLAYS_BY_BYTE = tuple(
    tuple(tuple(PLAY[s * 8 + r] for r in range(8) if b >> r & 1) for b in range(256))
    for s in range(4)
)


def legal_actions(state: HandState) -> list[Action]:
    """What the player to act may do; empty only when the hand is over."""
    phase = state.phase
    if phase == PLAYING:
        mask = legal_mask(state.rules, state.contract, state.hands[state.turn], state.trick)
        out = [
            *_PLAYS_BY_BYTE[0][mask & 0xFF],
            *_PLAYS_BY_BYTE[1][(mask >> 8) & 0xFF],
            *_PLAYS_BY_BYTE[2][(mask >> 16) & 0xFF],
            *_PLAYS_BY_BYTE[3][mask >> 24],
        ]
        if (
            not state.tricks
            and state.announces[state.turn]
            and not state.declared >> state.turn & 1
        ):
            out.append(ANNOUNCE)
        return out
    if phase == BIDDING:
        return _bids(state)
    return []


# ---------------------------------------------------------------------------------------
# Applying an action


def apply(state: HandState, action: Action, seat: int | None = None) -> HandState:
    """The state after ``action`` by the player to act (``seat``, when given, is checked).

    Raises ``IllegalAction`` and leaves nothing changed when the rules refuse it.
    """
    if state.phase == DONE:
        raise IllegalAction("hand_over", gettext_noop("La donne est terminée."))
    if seat is not None and seat != state.turn:
        raise IllegalAction("not_your_turn", gettext_noop("Ce n'est pas à vous de jouer."))
    kind = action.kind
    if state.phase == PLAYING:
        if kind == PLAY_:
            return _play(state, action.arg, action)
        if kind == ANNOUNCE_:
            return _announce(state, action)
        raise IllegalAction(
            "wrong_phase", gettext_noop("Les enchères sont terminées : jouez une carte.")
        )
    if kind == PLAY_:
        raise IllegalAction(
            "wrong_phase", gettext_noop("On ne joue pas de carte pendant les enchères.")
        )
    if kind == ANNOUNCE_:
        raise IllegalAction(
            "wrong_phase", gettext_noop("Les annonces se font pendant le premier pli.")
        )
    return _bid(state, action)


def _play(state: HandState, card: int, action: Action) -> HandState:
    seat = state.turn
    hand = state.hands[seat]
    if not (0 <= card < 32 and hand >> card & 1):
        raise IllegalAction("card_not_in_hand", gettext_noop("Vous n'avez pas cette carte."))
    rules, mode, trick = state.rules, state.contract, state.trick
    if trick and not legal_mask(rules, mode, hand, trick) >> card & 1:
        raise _why_illegal(rules, mode, hand, trick, card)
    s = list(state)
    hands = list(state.hands)
    hands[seat] = hand & ~(1 << card)
    s[_HANDS] = tuple(hands)
    s[_ACTIONS] = state.actions + (action,)
    belote_suits = state.belotes[seat]
    if belote_suits and (card & 7) in (KING, QUEEN) and belote_suits >> (card >> 3) & 1:
        other = card ^ (KING ^ QUEEN)  # the queen for the king and back
        call = "belote" if hand >> other & 1 else "rebelote"
        s[_CALLS] = state.belote_calls + (BeloteCall(seat, card >> 3, call),)
    trick = trick + (card,)
    step = rules.step
    if len(trick) < 4:
        s[_TRICK] = trick
        s[_TURN] = (seat + step) % 4
        return _new(HandState, s)
    # The trick is complete.
    points = POINTS[mode]
    worth = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
    last = len(state.tricks) == 7
    if last:
        worth += 10  # dix de der
    winner = (state.leader + _trick_master(mode, trick) * step) % 4
    won = list(state.won)
    won[winner & 1] += worth
    s[_WON] = tuple(won)
    s[_TRICKS] = state.tricks + (Trick(state.leader, trick, winner, worth),)
    s[_TRICK] = ()
    s[_LEADER] = winner
    if last:
        s[_PHASE] = DONE
        s[_TURN] = -1
        s[_ENDED] = PLAYED
    else:
        s[_TURN] = winner
    return _new(HandState, s)


def _why_illegal(rules: Rules, mode: int, hand: int, trick: tuple[int, ...], card: int):
    led = trick[0] >> 3
    if hand & SUIT_MASK[led] and card >> 3 != led:
        return IllegalAction(
            "must_follow_suit", gettext_noop("Vous devez fournir à la couleur demandée.")
        )
    if card >> 3 == led or mode == TA:
        return IllegalAction("must_overtrump", gettext_noop("Vous devez monter à l'atout."))
    trumps = hand & SUIT_MASK[mode]
    best = trick[_trick_master(mode, trick)]
    if best >> 3 == mode and trumps & STRONGER[mode][best]:
        return IllegalAction("must_overtrump", gettext_noop("Vous devez surcouper."))
    if best >> 3 == mode:
        return IllegalAction(
            "must_undertrump", gettext_noop("Vous devez sous-couper : jouez un atout.")
        )
    return IllegalAction("must_trump", gettext_noop("Vous devez couper : jouez un atout."))


def _announce(state: HandState, action: Action) -> HandState:
    seat = state.turn
    if state.rules.announces != "declared":
        raise IllegalAction(
            "announce_not_allowed", gettext_noop("Les annonces ne se déclarent pas à cette table.")
        )
    if state.tricks:
        raise IllegalAction(
            "announce_too_late", gettext_noop("Les annonces se font pendant le premier pli.")
        )
    if state.declared >> seat & 1:
        raise IllegalAction("already_announced", gettext_noop("Vous avez déjà annoncé."))
    if not state.announces[seat]:
        raise IllegalAction("nothing_to_announce", gettext_noop("Vous n'avez rien à annoncer."))
    s = list(state)
    s[_DECLARED] = state.declared | 1 << seat
    s[_ACTIONS] = state.actions + (action,)
    return _new(HandState, s)


def _bid(state: HandState, action: Action) -> HandState:
    rules, seat = state.rules, state.turn
    kind = action.kind
    s = list(state)
    s[_ACTIONS] = state.actions + (action,)
    if kind == EXCHANGE_:
        if not _can_exchange(state, seat):
            raise IllegalAction("exchange_not_allowed", _exchange_refusal(state))
        seven = (state.turned & ~7) + SEVEN
        hands = list(state.hands)
        hands[seat] = (hands[seat] & ~(1 << seven)) | 1 << state.turned
        s[_HANDS] = tuple(hands)
        s[_TURNED] = seven
        s[_EXCHANGED] = True
        s[_BIDS] = state.bids + ((seat, action),)
        return _new(HandState, s)
    if kind == REDEAL_:
        why = (
            _can_redeal(rules, state, seat)
            if (rules.redeal_main_nulle or rules.redeal_four_sevens)
            else ""
        )
        if not why:
            raise IllegalAction(
                "redeal_not_allowed", gettext_noop("Votre main ne permet pas de faire redonner.")
            )
        s[_BIDS] = state.bids + ((seat, action),)
        return _finish(s, why)
    if kind == PASS_:
        s[_BIDS] = state.bids + ((seat, action),)
        passes = state.passes + 1
        if state.contract != -1:
            if passes == 3:  # 002: "après une prise suivie de trois passe"
                return _start_play(s, _complete_deal(state, state.taker))
        elif passes == 4:
            if state.bid_round == 2:
                return _finish(s, ALL_PASSED)
            s[_ROUND] = 2
            s[_PASSES] = 0
            s[_TURN] = seat_beside(rules, state.dealer, rules.first_speaker)
            return _new(HandState, s)
        s[_PASSES] = passes
        s[_TURN] = (seat + rules.step) % 4
        return _new(HandState, s)
    if kind != TAKE_:
        raise IllegalAction("unknown_action", gettext_noop("Action inconnue."))
    mode = action.arg
    if type(mode) is not int or not -1 <= mode <= TA:
        raise IllegalAction("unknown_action", gettext_noop("Action inconnue."))
    if state.contract == -1:
        if state.bid_round == 1:
            if mode != -1:
                raise IllegalAction(
                    "wrong_suit",
                    gettext_noop(
                        "Au premier tour, on prend à la couleur de la retourne (« take »)."
                    ),
                )
            mode = state.turned >> 3
        elif mode == -1:
            raise IllegalAction(
                "name_a_suit", gettext_noop("Au second tour, nommez la couleur d'atout.")
            )
        elif mode >= SA:
            raise IllegalAction(
                "cover_only",
                gettext_noop("Le sans atout et le tout atout ne font que couvrir une prise."),
            )
        elif mode == state.turned >> 3 and rules.second_round_excludes_turned:
            raise IllegalAction(
                "wrong_suit",
                gettext_noop(
                    "Au second tour, la couleur de la retourne ne peut plus être choisie."
                ),
            )
    else:
        if state.taker == seat:
            raise IllegalAction(
                "own_bid", gettext_noop("Vous ne pouvez pas couvrir votre propre prise.")
            )
        if mode < SA or mode <= state.contract:
            raise IllegalAction(
                "bid_too_low",
                gettext_noop("Il faut couvrir la prise en tout atout.")
                if state.contract == SA
                else gettext_noop("Il faut couvrir la prise en sans atout."),
            )
    s[_BIDS] = state.bids + ((seat, action),)
    s[_CONTRACT] = mode
    s[_TAKER] = seat
    if rules.bidding == "classic" or mode == TA:
        return _start_play(s, _complete_deal(state, seat))
    s[_PASSES] = 0
    s[_TURN] = (seat + rules.step) % 4
    return _new(HandState, s)


def _exchange_refusal(state: HandState) -> str:
    if not state.rules.seven_exchange:
        return gettext_noop("L'échange du 7 d'atout n'est pas prévu à cette table.")
    if state.bid_round != 1 or state.contract != -1:
        return gettext_noop("Le 7 d'atout ne s'échange qu'au premier tour, avant la prise.")
    if state.exchanged:
        return gettext_noop("La retourne a déjà été échangée.")
    return gettext_noop("Vous n'avez pas le 7 d'atout.")


def _finish(s: list, why: str) -> HandState:
    s[_PHASE] = DONE
    s[_TURN] = -1
    s[_ENDED] = why
    return _new(HandState, s)


def _complete_deal(state: HandState, taker: int) -> tuple[int, ...]:
    """The second distribution: the taker gets the turned card and 2, the others 3."""
    deck = state.deck
    hands = list(state.hands)
    hands[taker] |= 1 << state.turned
    i = 21
    for seat in _deal_order(state.rules, state.dealer):
        n = 2 if seat == taker else 3
        for c in deck[i : i + n]:
            hands[seat] |= 1 << c
        i += n
    return tuple(hands)


def _start_play(s: list, hands: tuple[int, ...]) -> HandState:
    rules: Rules = s[_RULES]
    mode = s[_CONTRACT]
    s[_HANDS] = hands
    s[_PHASE] = PLAYING
    leader = seat_beside(rules, s[_DEALER], rules.first_leader)
    s[_LEADER] = leader
    s[_TURN] = leader
    if mode != SA:
        suits = range(4) if mode == TA else (mode,)
        s[_BELOTES] = tuple(
            sum(1 << t for t in suits if h >> (t * 8 + KING) & 1 and h >> (t * 8 + QUEEN) & 1)
            for h in hands
        )
    if rules.announces != "off":
        found = tuple(find_announces(h) for h in hands)
        s[_ANNOUNCES] = found
        if rules.announces == "auto":
            s[_DECLARED] = sum(1 << seat for seat in range(4) if found[seat])
    return _new(HandState, s)


def replay(
    rules: Rules, dealer: int, deck: Iterable[int], actions: Iterable[Action | str]
) -> HandState:
    """The state after a deal and a list of actions; IllegalAction carries the index."""
    state = deal(rules, dealer, deck)
    return apply_all(state, actions)


def apply_all(state: HandState, actions: Iterable[Action | str]) -> HandState:
    for index, action in enumerate(actions):
        try:
            if isinstance(action, str):
                action = Action.parse(action)
            state = apply(state, action)
        except IllegalAction as error:
            error.index = index
            raise
    return state


def describe_seat(seat: int) -> str:
    return SEATS[seat] if seat >= 0 else "-"


def card_codes(mask: int) -> list[str]:
    return [code_of(c) for c in cards_of(mask)]
