"""The expert level: a search bot that weighs its actions over the deals it cannot rule out.

At each decision it draws deals consistent with everything its seat knows, through
``view(state, seat)`` only (``Seen``): its own cards, the cards each seat played, the
suits each seat showed it lacks, the number of cards in each hand, the turned card (the
taker holds it once the deal is complete), the belote calls (a seat that played a king
or queen of a trump without calling does not hold the other; a call means it did) and the
announces (a declared announce is in that hand; in ``auto`` tables a seat that declared
nothing holds none); and what the bidding tells: the taker of a trump contract is drawn
with its jack or its nine (no bot level takes without one, few players do). Two softer
readings model the other players as the heuristic (*confirmé*) player, a fair model of a
sound player: the deals kept are first those where each other seat's bids and passes are
what the heuristic bidder would have said with its first five cards, and, for a card,
the best fitting third of three times as many draws, where the opponents' past cards
are those the heuristic player would have chosen with the drawn hands (the partner's
cards are not read that way: an expert partner plays otherwise). Then it scores each
candidate action over those deals by **the hand's score under the table's rules**
(contract made or not, litige, capot, belote, announces, dix de der), from its
team's side:

- card play from 7 tricks left (all but the first trick's cards, at the default
  budget): the exact double-dummy value (games/bots/solver.py, its C search); a long
  ending draws fewer deals, down to 6, once its solves have searched 1.5 million nodes;
- card play earlier (the first trick): the candidate played, then the rest of the hand
  played out by the heuristic player at every seat (a rollout in the sampled deal);
- bidding: for each contract it may name or cover with, the hand dealt out and played by
  rollouts with itself as the taker; it takes the best if it scores above passing. A
  pass, before anyone has bid, is weighed the same way: the bidding goes on by the
  heuristic bidder's rules at every seat, then the contract, if any, is played out (an
  opponent who takes after it counts against it); after a bid, a pass is that contract
  played as it stands.

Its budget (``Budget``: samples per decision, the tricks left from which the play is
solved exactly, the node cap of an exact decision) is a setting
(``BELOTE_EXPERT_BUDGET``); all randomness comes from the ``rng`` it is given, so a seeded
rng gives the same decisions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from games.bots.heuristic import (
    PARTNER_COVER_MARGIN,
    SA_THRESHOLD,
    TA_THRESHOLD,
    TAKE_THRESHOLD,
    choose_bid,
    heuristic_action,
    knowledge_of,
    sans_atout_strength,
    tout_atout_strength,
    trump_strength,
    voids_shown,
)
from games.bots.heuristic import choose_card as heuristic_card
from games.bots.solver import Solver, outcome, score_context
from games.rules import Action, HandState, apply, card_of, score, view
from games.rules.actions import ANNOUNCE, EXCHANGE, PASS, PASS_, PLAY, PLAY_, REDEAL, TAKE_
from games.rules.announces import find_announces
from games.rules.cards import ALL_CARDS, JACK, KING, NINE, QUEEN, SA, SEATS, TA
from games.rules.hand import BIDDING, DONE, PLAYING, legal_mask, start_with_contract

__all__ = ["DEFAULT_BUDGET", "Budget", "Seen", "expert_action", "sample_hands", "seen_by"]


@dataclass(frozen=True)
class Budget:
    samples: int = 24  # deals drawn for a card decision
    bid_samples: int = 32  # deals drawn for each contract weighed when bidding
    exact_tricks: int = 7  # from this many tricks left, the play is solved exactly
    tries: int = 40  # draws per sample before a deal that breaks a soft rule is kept
    # An exact decision stops drawing deals once its solves have searched this many nodes
    # (0: no limit), after ``exact_min_samples`` deals at least: long endings get fewer
    # deals. Counted in nodes, not time, so that a seeded rng gives the same decisions.
    exact_nodes: int = 1_500_000
    exact_min_samples: int = 6
    taker_trumps: bool = True  # draw deals where the taker holds its trump jack or nine
    # Prefer deals where every other seat's bids are those the heuristic bidder would
    # have made with its first five cards (a pass says a hand is weak in the suit).
    bid_inference: bool = True
    # Value passing, when nobody has bid yet, by the bidding going on (heuristic bidders)
    # and the play that follows, instead of as nothing.
    pass_played: bool = True
    # Draw this many times ``samples`` deals, and weigh first those where the opponents'
    # past cards are those the heuristic player would have played (0: no such inference).
    play_inference: int = 3


DEFAULT_BUDGET = Budget()
_budget = DEFAULT_BUDGET


def configure(budget: Budget) -> None:
    """Set the budget of every expert decision (the worker reads it from the settings)."""
    global _budget
    _budget = budget


def current_budget() -> Budget:
    return _budget


# ---------------------------------------------------------------------------------------
# What the seat knows


@dataclass(frozen=True)
class Seen:
    seat: int
    hand: int
    sizes: tuple[int, int, int, int]
    played_by: tuple[int, int, int, int]  # per seat, the cards it played
    voids: tuple[int, int, int, int]  # per seat, suits it showed it lacks (a mask)
    holds: tuple[int, int, int, int]  # per seat, cards it must hold (the turned card)
    on_table: int  # the turned card during the bidding: in no hand
    mode: int
    taker: int
    phase: str
    belote_called: frozenset  # (seat, suit) pairs that called belote
    announced: tuple[tuple[tuple[str, int], ...] | None, ...]  # per seat, declared or None
    auto_announces: bool
    in_play: bool
    # What each other seat's bids say of its first five cards: per bid, (seat, the test).
    bid_tests: tuple[tuple[int, tuple], ...] = ()
    turned: int = -1  # the turned card, -1 none

    @property
    def unseen(self) -> int:
        played = self.played_by[0] | self.played_by[1] | self.played_by[2] | self.played_by[3]
        return ALL_CARDS & ~self.hand & ~played & ~self.on_table


def seen_by(state: HandState) -> Seen:
    """The acting seat's knowledge, read from ``view(state, state.turn)`` only."""
    seen: dict[str, Any] = view(state, state.turn)
    rules = state.rules
    k = knowledge_of(state)
    seat = SEATS.index(seen["seat"])
    played = [0, 0, 0, 0]
    for trick in seen["tricks"]:
        for entry in trick["cards"]:
            played[SEATS.index(entry["seat"])] |= 1 << card_of(entry["card"])
    for entry in seen["trick"]:
        played[SEATS.index(entry["seat"])] |= 1 << card_of(entry["card"])
    sizes = tuple(seen["hand_sizes"][name] for name in SEATS)
    holds = [0, 0, 0, 0]
    contract = seen["contract"]
    in_play = seen["phase"] == PLAYING
    if in_play and seen["turned"]:
        turned = card_of(seen["turned"])
        taker = SEATS.index(contract["taker"])
        if not (played[0] | played[1] | played[2] | played[3]) >> turned & 1:
            holds[taker] |= 1 << turned
    announced: list = [None, None, None, None]
    for a in seen["announces"]:
        at = SEATS.index(a["seat"])
        announced[at] = (*(announced[at] or ()), (a["kind"], a["points"]))
    return Seen(
        seat=seat,
        hand=k.hand,
        sizes=sizes,
        played_by=tuple(played),
        voids=k.voids,
        holds=tuple(holds),
        on_table=1 << card_of(seen["turned"]) if seen["turned"] and not in_play else 0,
        mode=k.mode,
        taker=k.taker,
        phase=seen["phase"],
        belote_called=frozenset(
            (SEATS.index(b["seat"]), "SHDC".index(b["suit"])) for b in seen["belote"]
        ),
        announced=tuple(tuple(sorted(a)) if a is not None else None for a in announced),
        auto_announces=rules.announces == "auto",
        in_play=in_play,
        bid_tests=_bid_tests(k.bids, k.turned, seat, rules.second_round_excludes_turned),
        turned=k.turned,
    )


def _bid_tests(bids, turned: int, me: int, excludes_turned: bool) -> tuple:
    """What the heuristic bidder (games/bots/heuristic.choose_bid) would have needed in
    hand to bid as each other seat did: per bid, (seat, (kind, modes, threshold, at
    least)): the best strength over ``modes`` is at least (or below) the threshold, where
    a strength is the trump strength of a suit, or that of sans atout or tout atout. The
    bidder's hand counts the turned card, as the heuristic's does."""
    if turned < 0:
        return ()
    tests = []
    round_, passes, contract, taker = 1, 0, -1, -1
    other_suits = tuple(m for m in range(4) if not (excludes_turned and m == turned >> 3))
    for seat, action in bids:
        kind = action.kind
        if kind not in (PASS_, TAKE_):
            continue  # an exchange or a redeal says nothing the draw must respect
        test = None
        if contract == -1:
            if round_ == 1:
                test = ("trump", (turned >> 3,), TAKE_THRESHOLD, kind == TAKE_)
            elif kind == PASS_:
                test = ("trump", other_suits, TAKE_THRESHOLD, False)
            else:
                test = ("trump", (action.arg,), TAKE_THRESHOLD, True)
        else:
            margin = PARTNER_COVER_MARGIN if taker == (seat + 2) % 4 else 0.0
            if kind == TAKE_:
                mode = action.arg
                test = (mode, (), (TA_THRESHOLD if mode == TA else SA_THRESHOLD) + margin, True)
            elif contract < TA:  # a pass over a bid it could have covered
                covers = (TA, SA) if contract < SA else (TA,)
                for mode in covers:
                    threshold = (TA_THRESHOLD if mode == TA else SA_THRESHOLD) + margin
                    if seat != me:
                        tests.append((seat, (mode, (), threshold, False)))
        if test is not None and seat != me:
            tests.append((seat, test))
        if kind == PASS_:
            passes += 1
            if contract == -1 and passes == 4:
                round_, passes = 2, 0
        else:
            contract = turned >> 3 if action.arg == -1 else action.arg
            taker, passes = seat, 0
    return tuple(tests)


def _strength(cards: int, kind, modes) -> float:
    if kind == "trump":
        return max(trump_strength(cards, m) for m in modes)
    return tout_atout_strength(cards) if kind == TA else sans_atout_strength(cards)


def _bid_misfits(s: Seen, hands, rng: random.Random) -> int:
    """How many of the other seats' bids the heuristic bidder would not have made with
    the first five cards of ``hands`` (which five of a hand's eight were dealt first is
    unknown once the deal is complete: a random five, as the deck would have it)."""
    if not s.bid_tests:
        return 0
    turned = 1 << s.turned
    first: dict[int, int] = {}
    misfits = 0
    for seat, (kind, modes, threshold, at_least) in s.bid_tests:
        cards = first.get(seat)
        if cards is None:
            cards = _first_five(s, hands, seat, turned, rng)
            first[seat] = cards
        if (_strength(cards | turned, kind, modes) >= threshold) != at_least:
            misfits += 1
    return misfits


def _first_five(s: Seen, hands, seat: int, turned: int, rng: random.Random) -> int:
    cards = (hands[seat] | s.played_by[seat]) & ~turned
    if cards.bit_count() <= 5:
        return cards
    return sum(1 << c for c in rng.sample([c for c in range(32) if cards >> c & 1], 5))


# ---------------------------------------------------------------------------------------
# Drawing the hidden hands


def sample_hands(
    s: Seen,
    rng: random.Random,
    tries: int = 40,
    taker_trumps: bool = True,
    bid_inference: bool = False,
) -> tuple[int, int, int, int]:
    """Hands for the four seats consistent with ``s``: own hand kept, sizes and voids
    always respected, belote calls and announces respected unless ``tries`` draws failed,
    and so is, with ``taker_trumps``, what the bidding tells: the taker of a trump
    contract held its jack or its nine (no bot level takes without one, few players do).
    With ``bid_inference``, a deal that fits the other seats' bids is preferred to one that
    does not (``_bid_misfits``), within the same ``tries``."""
    best, best_key = None, None
    infer = bid_inference and bool(s.bid_tests)
    # The bidding's hints yield first to what the seats showed (belote calls, announces).
    for hint in (True, False) if taker_trumps else (False,):
        for _ in range(max(1, tries)):
            hands = _draw(s, rng, hint)
            if hands is None:
                continue
            implausible = not _plausible(s, hands)
            if implausible and best_key is not None and not best_key[0]:
                continue  # a plausible deal is kept already
            key = (implausible, _bid_misfits(s, hands, rng) if infer else 0)
            if key == (False, 0):
                return hands
            if best_key is None or key < best_key:
                best, best_key = hands, key
    while best is None:  # cannot happen with a real hand's voids; sizes only then
        best = _draw(replace(s, voids=(0, 0, 0, 0)), rng)
    return best


def _draw(
    s: Seen, rng: random.Random, taker_trumps: bool = False
) -> tuple[int, int, int, int] | None:
    hands = [0, 0, 0, 0]
    hands[s.seat] = s.hand
    need = list(s.sizes)
    need[s.seat] = 0
    pool = s.unseen
    for seat in range(4):
        if seat != s.seat and s.holds[seat]:
            hands[seat] |= s.holds[seat] & pool
            need[seat] -= (s.holds[seat] & pool).bit_count()
            pool &= ~s.holds[seat]
    if taker_trumps and s.in_play and s.mode < SA and s.taker != s.seat:
        # The taker's jack or nine of trumps, unless it holds one already or played one.
        honours = 1 << (s.mode * 8 + JACK) | 1 << (s.mode * 8 + NINE)
        t = s.taker
        free = pool & honours
        held = (hands[t] | s.played_by[t]) & honours
        if not held and free and need[t] > 0 and not s.voids[t] >> s.mode & 1:
            card = rng.choice([c for c in (s.mode * 8 + JACK, s.mode * 8 + NINE) if free >> c & 1])
            hands[t] |= 1 << card
            need[t] -= 1
            pool &= ~(1 << card)
    cards = [c for c in range(32) if pool >> c & 1]
    rng.shuffle(cards)
    others = [seat for seat in range(4) if seat != s.seat]
    # The most constrained cards first: those only one or two seats may hold.
    allowed = {c: [seat for seat in others if not s.voids[seat] >> (c >> 3) & 1] for c in cards}
    cards.sort(key=lambda c: len(allowed[c]))
    for c in cards:
        seats = [seat for seat in allowed[c] if need[seat] > 0]
        if not seats:
            continue  # in no hand yet (the bidding's undealt cards), or a dead end
        # Weighted by room left, as a uniform deal would.
        total = sum(need[seat] for seat in seats)
        pick = rng.randrange(total)
        for seat in seats:
            pick -= need[seat]
            if pick < 0:
                break
        hands[seat] |= 1 << c
        need[seat] -= 1
    if any(need):
        return None
    return tuple(hands)


def _plausible(s: Seen, hands) -> bool:
    if not s.in_play:
        return True
    trumps = () if s.mode == SA else range(4) if s.mode == TA else (s.mode,)
    for seat in range(4):
        if seat == s.seat:
            continue
        original = hands[seat] | s.played_by[seat]
        for suit in trumps:
            king, queen = suit * 8 + KING, suit * 8 + QUEEN
            shown = s.played_by[seat] >> king & 1 or s.played_by[seat] >> queen & 1
            if shown:
                both = original >> king & 1 and original >> queen & 1
                if bool(both) != ((seat, suit) in s.belote_called):
                    return False
        if s.announced[seat] is not None or s.auto_announces:
            held = tuple(sorted((a.kind, a.points) for a in find_announces(original)))
            if s.announced[seat] is not None and held != s.announced[seat]:
                return False
            if s.announced[seat] is None and held:
                return False
    return True


def sampled_state(state: HandState, hands) -> HandState:
    """The state with its hidden parts replaced by a drawn deal: hands, deck, belotes and
    announces (the last two follow from the hands the seats started the play with)."""
    played = [0, 0, 0, 0]
    step = state.rules.step
    for trick in state.tricks:
        for i, c in enumerate(trick.cards):
            played[trick.seat_of(i, step)] |= 1 << c
    for i, c in enumerate(state.trick):
        played[(state.leader + i * step) % 4] |= 1 << c
    originals = [hands[seat] | played[seat] for seat in range(4)]
    mode = state.contract
    suits = () if mode == SA else range(4) if mode == TA else (mode,)
    belotes = tuple(
        sum(1 << t for t in suits if h >> (t * 8 + KING) & 1 and h >> (t * 8 + QUEEN) & 1)
        for h in originals
    )
    announces, declared = state.announces, state.declared
    if state.rules.announces != "off":
        announces = tuple(find_announces(h) for h in originals)
    if state.rules.announces == "auto":  # declared for every seat holding one
        declared = sum(1 << seat for seat in range(4) if announces[seat])
    return state._replace(
        hands=tuple(hands), deck=None, belotes=belotes, announces=announces, declared=declared
    )


# ---------------------------------------------------------------------------------------
# Deciding


def expert_action(state: HandState, rng: random.Random, budget: Budget | None = None) -> Action:
    budget = budget or _budget
    if state.phase == PLAYING:
        k = knowledge_of(state)
        if ANNOUNCE in k.legal:  # announces only ever score
            return ANNOUNCE
        cards = [a.arg for a in k.legal if a.kind == PLAY_]
        if len(cards) == 1:
            return PLAY[cards[0]]
        return PLAY[choose_card(state, cards, rng, budget)]
    return choose_bid_by_sampling(state, rng, budget)


def _team_value(state: HandState, team: int) -> int:
    result = score(state)
    return result.points[team] - result.points[1 - team]


def rollout(state: HandState) -> HandState:
    """The hand played out to its end by the heuristic player at every seat."""
    while state.phase != DONE:
        state = apply(state, heuristic_action(knowledge_of(state)))
    return state


def choose_card(state: HandState, cards: list[int], rng: random.Random, budget: Budget) -> int:
    s = seen_by(state)
    team = s.seat & 1
    totals = dict.fromkeys(cards, 0)
    exact = s.hand.bit_count() <= budget.exact_tricks
    nodes = 0
    for drawn, hands in enumerate(_draws(state, s, rng, budget)):
        limited = exact and budget.exact_nodes and drawn >= budget.exact_min_samples
        if limited and nodes >= budget.exact_nodes:
            break
        sample = sampled_state(state, hands)
        if exact:
            ctx = score_context(sample)
            sign = 1 if ctx.taker_team == team else -1
            solver = Solver(sample, ctx)
            values = solver.card_values(sample)
            nodes += solver.nodes
            for card in cards:
                totals[card] += sign * outcome(ctx, values[card])
        else:
            for card in cards:
                end = rollout(apply(sample, PLAY[card]))
                totals[card] += _team_value(end, team)
    return max(cards, key=lambda c: totals[c])


def _draws(state: HandState, s: Seen, rng: random.Random, budget: Budget):
    """``budget.samples`` deals for a card decision. With ``play_inference`` (a factor f),
    once the opponents have played: by batches of 8, the 8 best fitting of 8 f draws,
    fewest misfits first (their bids and their cards, ``_bid_misfits`` and
    ``_play_misfits``); by batches, so that a decision the node cap stops early has not
    drawn for nothing."""
    plays = _opponent_plays(state) if budget.play_inference > 1 else []
    if not plays:
        for _ in range(budget.samples):
            yield sample_hands(s, rng, budget.tries, budget.taker_trumps, budget.bid_inference)
        return
    base = knowledge_of(state)
    left = budget.samples
    while left > 0:
        n = min(_BATCH, left)
        pool = [
            sample_hands(s, rng, budget.tries, budget.taker_trumps)
            for _ in range(n * budget.play_inference)
        ]
        misfits = [
            (_bid_misfits(s, hands, rng) if budget.bid_inference else 0)
            + _play_misfits(plays, hands, base)
            for hands in pool
        ]
        for i in sorted(range(len(pool)), key=misfits.__getitem__)[:n]:
            yield pool[i]
        left -= n


_BATCH = 8


class _Play(NamedTuple):
    """A past card of an opponent, with what that seat knew when it played it."""

    seat: int
    card: int
    later: int  # the cards the seat played from this one on
    trick: tuple[tuple[int, int], ...]  # (seat, card) before it in its trick
    played: int  # the cards on the table or in tricks before it
    voids: tuple[int, int, int, int]


def _opponent_plays(state: HandState) -> list[_Play]:
    """The opponents' past cards that were a choice (for any hand: the check drops those
    with one legal card later), from the public record only."""
    rules, step, mode, me = state.rules, state.rules.step, state.contract, state.turn
    tricks = [tuple((t.seat_of(i, step), c) for i, c in enumerate(t.cards)) for t in state.tricks]
    tricks.append(tuple(((state.leader + i * step) % 4, c) for i, c in enumerate(state.trick)))
    out, played = [], 0
    for index, trick in enumerate(tricks):
        for pos, (seat, card) in enumerate(trick):
            if (seat - me) & 1:
                before = [*tricks[:index], trick[:pos]]
                voids = voids_shown(rules, mode, before)
                out.append(_Play(seat, card, 0, trick[:pos], played, voids))
            played |= 1 << card
    later = [0, 0, 0, 0]
    for i in range(len(out) - 1, -1, -1):
        p = out[i]
        later[p.seat] |= 1 << p.card
        out[i] = p._replace(later=later[p.seat])
    return out


def _play_misfits(plays: list[_Play], hands, base) -> int:
    """How many of ``plays`` the heuristic player would not have made with the seat's
    hand of the drawn deal at the time."""
    rules, mode, misfits = base.rules, base.mode, 0
    for p in plays:
        hand = hands[p.seat] | p.later
        mask = legal_mask(rules, mode, hand, tuple(c for _, c in p.trick))
        if not mask & (mask - 1):
            continue  # one legal card: no choice
        legal = tuple(PLAY[c] for c in range(32) if mask >> c & 1)
        k = base._replace(
            seat=p.seat, hand=hand, legal=legal, trick=p.trick, played=p.played, voids=p.voids
        )
        if heuristic_card(k) != p.card:
            misfits += 1
    return misfits


# ---------------------------------------------------------------------------------------
# Bidding


def choose_bid_by_sampling(state: HandState, rng: random.Random, budget: Budget) -> Action:
    k = knowledge_of(state)
    if REDEAL in k.legal or EXCHANGE in k.legal:
        return choose_bid(k)  # the redeal and the exchange follow the heuristic's rules
    bids = [a for a in k.legal if a.kind == TAKE_]
    if not bids:
        return PASS
    s = seen_by(state)
    team = s.seat & 1
    turned = state.turned
    # What passing is worth: nothing, or the contract already bid played as it stands.
    options: list[tuple[Action, int, int]] = [(PASS, k.mode, k.taker)]
    for bid in bids:
        mode = turned >> 3 if bid.arg == -1 else bid.arg
        options.append((bid, mode, s.seat))
    totals = [0] * len(options)
    for _ in range(budget.bid_samples):
        hands = _deal_rest(state, s, rng, budget)
        for i, (_, mode, taker) in enumerate(options):
            if mode < 0:
                if budget.pass_played:
                    totals[i] += _team_value(_after_pass(state, hands), team)
                continue  # else: nobody takes, the hand is dealt again, 0 for both
            full = _complete(hands, turned, taker, state, rng)
            play = start_with_contract(state.rules, state.dealer, full, mode, taker)
            totals[i] += _team_value(rollout(play), team)
    best = max(range(len(options)), key=lambda i: totals[i])
    return options[best][0]


def _after_pass(state: HandState, drawn) -> HandState:
    """The hand after passing now, in a drawn deal: the bidding goes on by the heuristic
    bidder's rules at every seat (what it would have bid is what the draw assumed of the
    others), then the contract, if any, is played out by rollouts."""
    hands, rest = drawn
    first = [c for c in range(32) if (hands[0] | hands[1] | hands[2] | hands[3]) >> c & 1]
    deck = (*first, state.turned, *rest)  # the second distribution deals from deck[21:]
    sim = apply(state._replace(hands=tuple(hands), deck=deck), PASS)
    while sim.phase == BIDDING:
        sim = apply(sim, choose_bid(knowledge_of(sim)))
    return rollout(sim)


def _deal_rest(state: HandState, s: Seen, rng: random.Random, budget: Budget):
    """The other hands' first cards (a draw), and the rest of the deck (a list)."""
    hands = list(sample_hands(s, rng, budget.tries, bid_inference=budget.bid_inference))
    turned = state.turned
    dealt = hands[0] | hands[1] | hands[2] | hands[3] | (1 << turned if turned >= 0 else 0)
    rest = [c for c in range(32) if not dealt >> c & 1]
    rng.shuffle(rest)
    return hands, rest


def _complete(drawn, turned: int, taker: int, state: HandState, rng) -> list[list[int]]:
    """Eight cards each: the taker gets the turned card and two, the others three."""
    hands, rest = drawn
    out = [[c for c in range(32) if hands[seat] >> c & 1] for seat in range(4)]
    out[taker].append(turned)
    i = 0
    for seat in range(4):
        n = 8 - len(out[seat])
        out[seat].extend(rest[i : i + n])
        i += n
    return out
