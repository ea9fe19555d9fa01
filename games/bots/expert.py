"""The expert level: a search bot that weighs its actions over the deals it cannot rule out.

At each decision it draws deals consistent with everything its seat knows, through
``view(state, seat)`` only (``Seen``): its own cards, the cards each seat played, the
suits each seat showed it lacks, the number of cards in each hand, the turned card (the
taker holds it once the deal is complete), the belote calls (a seat that played a king
or queen of a trump without calling does not hold the other; a call means it did) and the
announces (a declared announce is in that hand; in ``auto`` tables a seat that declared
nothing holds none); and what the bidding tells: the taker of a trump contract is drawn
with its jack or its nine (no bot level takes without one, few players do). Then it
scores each candidate action over those deals by **the hand's score under the table's
rules** (contract made or not, litige, capot, belote, announces, dix de der), from its
team's side:

- card play from 7 tricks left (all but the first trick's cards, at the default
  budget): the exact double-dummy value (games/bots/solver.py, its C search); a long
  ending draws fewer deals, down to 6, once its solves have searched 1.5 million nodes;
- card play earlier (the first trick): the candidate played, then the rest of the hand
  played out by the heuristic player at every seat (a rollout in the sampled deal);
- bidding: for each contract it may name or cover with, the hand dealt out and played by
  rollouts with itself as the taker; it takes the best if it scores above passing
  (nothing, or the contract already bid when it is a cover).

Its budget (``Budget``: samples per decision, the tricks left from which the play is
solved exactly, the node cap of an exact decision) is a setting
(``BELOTE_EXPERT_BUDGET``); all randomness comes from the ``rng`` it is given, so a seeded
rng gives the same decisions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from games.bots.heuristic import choose_bid, heuristic_action, knowledge_of
from games.bots.solver import Solver, outcome, score_context
from games.rules import Action, HandState, apply, card_of, score, view
from games.rules.actions import ANNOUNCE, EXCHANGE, PASS, PLAY, PLAY_, REDEAL, TAKE_
from games.rules.announces import find_announces
from games.rules.cards import ALL_CARDS, JACK, KING, NINE, QUEEN, SA, SEATS, TA
from games.rules.hand import DONE, PLAYING, start_with_contract

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
    )


# ---------------------------------------------------------------------------------------
# Drawing the hidden hands


def sample_hands(
    s: Seen, rng: random.Random, tries: int = 40, taker_trumps: bool = True
) -> tuple[int, int, int, int]:
    """Hands for the four seats consistent with ``s``: own hand kept, sizes and voids
    always respected, belote calls and announces respected unless ``tries`` draws failed,
    and so is, with ``taker_trumps``, what the bidding tells: the taker of a trump
    contract held its jack or its nine (no bot level takes without one, few players do)."""
    fallback = None
    # The bidding's hint yields first to what the seats showed (belote calls, announces).
    for hint in (True, False) if taker_trumps else (False,):
        for _ in range(max(1, tries)):
            hands = _draw(s, rng, hint)
            if hands is None:
                continue
            if _plausible(s, hands):
                return hands
            fallback = fallback or hands
    while fallback is None:  # cannot happen with a real hand's voids; sizes only then
        fallback = _draw(replace(s, voids=(0, 0, 0, 0)), rng)
    return fallback


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
    for drawn in range(budget.samples):
        limited = exact and budget.exact_nodes and drawn >= budget.exact_min_samples
        if limited and nodes >= budget.exact_nodes:
            break
        sample = sampled_state(state, sample_hands(s, rng, budget.tries, budget.taker_trumps))
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
        hands = _deal_rest(state, s, rng, budget.tries)
        for i, (_, mode, taker) in enumerate(options):
            if mode < 0:
                continue  # nobody takes: the hand is dealt again, 0 for both
            full = _complete(hands, turned, taker, state, rng)
            play = start_with_contract(state.rules, state.dealer, full, mode, taker)
            totals[i] += _team_value(rollout(play), team)
    best = max(range(len(options)), key=lambda i: totals[i])
    return options[best][0]


def _deal_rest(state: HandState, s: Seen, rng: random.Random, tries: int):
    """The other hands' first cards (a draw), and the rest of the deck (a list)."""
    hands = list(sample_hands(s, rng, tries))
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
