"""The double-dummy solver: the exact value of the card play when every hand is known.

The expert level (games/bots/expert.py) samples the hands it cannot see and asks this
solver, for each sample, what each of its legal cards is worth. Values are the hand's
**score** under the table's rules, not raw card points: whether the contract is made, a
litige, a capot, the belotes and the announces all count, through ``outcome``.

How the search stays exact and small:

- The score of a finished hand depends on the play only through the taker's team's card
  points ``p`` (dix de der included) and who took every trick (a capot). Folding the capot
  into one number, ``x = p + 1000`` when the taker's team took every trick and ``x = p -
  1000`` when it took none (or between, see ``defence_capot_x``), the score is a
  non-decreasing function of ``x`` (checked for every preset by the tests). Minimax
  commutes with a non-decreasing function, so the search maximises ``x`` (card points
  still to win, plus the capot term), an additive value, and ``outcome`` turns the
  result into a score at the root.
- Alpha-beta with a transposition table at the start of each trick, keyed on the cards
  left in each hand, the leader and whether each team has taken a trick yet (the points
  already won do not matter to what is still to win).
- Equivalent cards: two cards of one hand, in one suit, with the same points and no card
  still in play between them in the contract's order, win the same tricks; one is tried.

The engine's own legality rule (``legal_mask``) decides what may be played, so the
solver follows the table's rules for following, cutting and overtrumping; a differential
test (tests/bots/test_solver.py) checks the solver's tricks and scores against the engine.

The search also exists in C (games/bots/dds.c, built by ``pip install -e .``, hence
``make venv``): the same search step for step, 30 to 100 times faster. ``Solver``
uses it when the extension is importable (``NATIVE``); this Python stays the reference,
and tests/bots/test_dds.py checks that both give the same legal cards, trick winners,
values and node counts.
"""

from __future__ import annotations

from typing import NamedTuple

from games.rules import HandState
from games.rules.announces import best_team
from games.rules.cards import (
    HAND_POINTS,
    KEY,
    PLAIN_ORDER,
    POINTS,
    TA,
    TRUMP_ORDER,
)
from games.rules.hand import PLAYING, legal_mask
from games.rules.options import Rules

try:
    from games.bots import dds
except ImportError:  # not built: the pure Python search below
    dds = None

__all__ = [
    "CAPOT",
    "NATIVE",
    "Solver",
    "defence_capot_x",
    "outcome",
    "rules_flags",
    "score_context",
]

NATIVE = dds is not None  # the C search is built and used by default

CAPOT = 1000  # the capot term of ``x``: more than every card point

# ORDER[mode][suit]: the suit's cards from the weakest to the strongest under the contract.
ORDER = tuple(
    tuple(
        tuple(
            sorted(
                range(suit * 8, suit * 8 + 8),
                key=lambda c, m=mode, s=suit: (TRUMP_ORDER if m in (TA, s) else PLAIN_ORDER)[c & 7],
            )
        )
        for suit in range(4)
    )
    for mode in range(6)
)


class ScoreContext(NamedTuple):
    """What the score of a hand needs besides the play: fixed once the play starts."""

    rules: Rules
    taker_team: int
    belote: tuple[int, int]  # per team, 20 a belote held
    announces: tuple[int, int]  # per team, what its declared announces are worth
    best: int  # the team whose announces score (-1 none), before a capot strikes them


def score_context(state: HandState, declared: int | None = None) -> ScoreContext:
    """The score's fixed part for a hand in play (``declared`` overrides who announced)."""
    declared = state.declared if declared is None else declared
    belote = [0, 0]
    for seat in range(4):
        belote[seat & 1] += 20 * state.belotes[seat].bit_count()
    announces = [0, 0]
    best = -1
    if declared:
        best = best_team(state.announces, declared, state.taker & 1, state.rules.announce_tie)
        if best >= 0:
            announces[best] = sum(
                a.points
                for seat in range(4)
                if seat & 1 == best and declared >> seat & 1
                for a in state.announces[seat]
            )
    return ScoreContext(state.rules, state.taker & 1, tuple(belote), tuple(announces), best)


def defence_capot_x(ctx: ScoreContext) -> float:
    """Where a capot against the taker's team sits among the ``x`` values.

    Usually below everything (``-CAPOT``). But a team without a trick loses its announces
    where a team that merely fails gives them to the defence: with the best announces, the
    taker's team may score more by taking no trick than by taking a small one. The capot
    then sits between the card points that score less and those that score more, as a
    half point, so that the score stays a non-decreasing function of ``x``.
    """
    capot = _score(ctx, 0, 1 - ctx.taker_team)
    if capot <= _score(ctx, 0, -1):
        return -CAPOT
    p = 0
    while p < HAND_POINTS and _score(ctx, p + 1, -1) <= capot:
        p += 1
    return p + 0.5


def outcome(ctx: ScoreContext, x: float) -> int:
    """The taker's team's score minus the defence's for a final ``x`` (see the module).

    The same arithmetic as ``games.rules.game.score``; a litige's points set aside count
    for nobody.
    """
    if x >= CAPOT:
        return _score(ctx, int(x) - CAPOT, ctx.taker_team)
    if x != int(x) or x < 0:
        return _score(ctx, 0, 1 - ctx.taker_team)
    return _score(ctx, int(x), -1)


def _score(ctx: ScoreContext, p: int, capot: int) -> int:
    rules, t = ctx.rules, ctx.taker_team
    d = 1 - t
    tricks = (p, HAND_POINTS - p) if t == 0 else (HAND_POINTS - p, p)
    belote = ctx.belote
    announces = [0, 0]
    if ctx.best >= 0 and ctx.best != 1 - capot:
        announces[ctx.best] = ctx.announces[ctx.best]

    def counted(team: int) -> int:
        total = tricks[team]
        if rules.contract_counts_belote:
            total += belote[team]
        if rules.contract_counts_announces:
            total += announces[team]
        return total

    litige = False
    if capot >= 0:
        made = capot == t
    else:
        if rules.contract == "beat_defence":
            made = counted(t) > counted(d)
        else:
            made = counted(t) >= rules.contract_points
        if made and rules.belote_contract_points and (belote[0] or belote[1]):
            made = tricks[t] + belote[t] >= rules.belote_contract_points
        litige = not made and counted(t) == counted(d)
    kept = belote[t] if rules.belote_kept else 0
    if litige and rules.litige == "held":
        return kept - (tricks[d] + belote[d] + announces[d])
    if made:
        mine = (rules.capot_points if capot == t else tricks[t]) + belote[t] + announces[t]
        return mine - (tricks[d] + belote[d] + announces[d])
    base = rules.capot_points if capot == d else HAND_POINTS
    return kept - (base + belote[d] + announces[0] + announces[1] + belote[t] - kept)


def equivalent_free(moves: int, in_play: int, mode: int) -> list[int]:
    """The cards of ``moves`` to try: one of each run of equivalent cards.

    ``in_play`` holds every card still in a hand or on the table: a card between two of
    ours in the contract's order breaks the run.
    """
    out = []
    points = POINTS[mode]
    for suit in range(4):
        if not moves >> (suit * 8) & 0xFF:
            continue
        prev = -1
        for card in ORDER[mode][suit]:
            if not in_play >> card & 1:
                continue
            if moves >> card & 1:
                if prev < 0 or points[prev] != points[card]:
                    out.append(card)
                prev = card
            else:
                prev = -1
    return out


def rules_flags(rules: Rules) -> int:
    """The legality options of ``rules`` as the C search's flags."""
    return (
        rules.overtrump_partner * _FLAG_BITS[0]
        | rules.partner_master_frees * _FLAG_BITS[1]
        | rules.free_trumps_go_higher * _FLAG_BITS[2]
        | rules.must_undertrump * _FLAG_BITS[3]
    )


_FLAG_BITS = (1, 2, 4, 8)  # the order of dds.c's flags


class Solver:
    """Exact values of the card play of one deal (every hand known), from any point.

    ``native``: use the C search (the default when it is built) or the pure Python one
    (``False``); both give the same values.
    """

    def __init__(
        self, state: HandState, ctx: ScoreContext | None = None, native: bool | None = None
    ) -> None:
        if state.phase != PLAYING:
            raise ValueError("the solver plays the cards: the hand must be in play")
        self.ctx = ctx or score_context(state)
        self.defence_capot = defence_capot_x(self.ctx)
        self.rules = state.rules
        self.mode = state.contract
        self.step = state.rules.step
        self.taker_team = state.taker & 1
        self.tt: dict[int, tuple[int, int]] = {}
        self.nodes = 0
        if native is None:
            native = NATIVE
        if native and dds is None:
            raise RuntimeError("the solver's C extension is not built (make venv builds it)")
        self._core = None
        if native:
            self._core = dds.Core(
                self.mode,
                self.step,
                self.taker_team,
                rules_flags(self.rules),
                int(2 * self.defence_capot),
            )

    @property
    def native(self) -> bool:
        return self._core is not None

    # -- public -------------------------------------------------------------------------

    def future(self, state: HandState) -> int:
        """The best ``x`` still to come (card points for the taker's team from here, with
        the cards already on the table, plus the capot term) under perfect play."""
        if self._core is not None:
            value = self._core.future(*self._position(state))
            self.nodes = self._core.nodes
            return value
        return self._from_state(state, -(10**6), 10**6)

    def card_values(self, state: HandState) -> dict[int, int]:
        """For each legal card of the seat to act, the final ``x`` of the hand after it
        with perfect play by everyone from there (the taker's team's view)."""
        if self._core is not None:
            done = state.won[self.taker_team]
            values = self._core.card_values(*self._position(state))
            self.nodes = self._core.nodes
            return {card: done + value for card, value in values}
        hands = list(state.hands)
        seat = state.turn
        trick = list(state.trick)
        moves = legal_mask(self.rules, self.mode, hands[seat], state.trick)
        done = state.won[self.taker_team]
        out = {}
        taken = [0, 0]
        for t in state.tricks:
            taken[t.winner & 1] += 1
        tk, dk = taken[self.taker_team] > 0, taken[1 - self.taker_team] > 0
        ntricks = len(state.tricks)
        for card in _cards(moves):
            hands[seat] &= ~(1 << card)
            trick.append(card)
            value = self._after_card(
                hands, trick, state.leader, seat, ntricks, tk, dk, -(10**6), 10**6
            )
            trick.pop()
            hands[seat] |= 1 << card
            out[card] = done + value
        return out

    def _position(self, state: HandState) -> tuple:
        """The C search's arguments for the state: hands, trick, leader, seat to act, tricks
        done, whether the taker's team and the defence have taken a trick."""
        taken = [0, 0]
        for t in state.tricks:
            taken[t.winner & 1] += 1
        return (
            state.hands,
            state.trick,
            state.leader,
            state.turn,
            len(state.tricks),
            taken[self.taker_team] > 0,
            taken[1 - self.taker_team] > 0,
        )

    # -- search -------------------------------------------------------------------------

    def _from_state(self, state: HandState, alpha: int, beta: int) -> int:
        taken = [0, 0]
        for t in state.tricks:
            taken[t.winner & 1] += 1
        return self._search(
            list(state.hands),
            list(state.trick),
            state.leader,
            state.turn,
            len(state.tricks),
            taken[self.taker_team] > 0,
            taken[1 - self.taker_team] > 0,
            alpha,
            beta,
        )

    def _after_card(self, hands, trick, leader, seat, ntricks, tk, dk, alpha, beta) -> int:
        """The value once ``seat`` has put the last card of ``trick`` down."""
        if len(trick) < 4:
            return self._search(
                hands, trick, leader, (seat + self.step) % 4, ntricks, tk, dk, alpha, beta
            )
        mode = self.mode
        key = KEY[mode][trick[0] >> 3]
        best_i, best_k = 0, key[trick[0]]
        for i in (1, 2, 3):
            k = key[trick[i]]
            if k > best_k:
                best_i, best_k = i, k
        points = POINTS[mode]
        worth = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        winner = (leader + best_i * self.step) % 4
        ours = winner & 1 == self.taker_team
        if ntricks == 7:
            worth += 10
            if ours:
                return worth + (CAPOT if not dk else 0)
            return self.defence_capot if not tk else 0
        saved = trick[:]
        trick.clear()
        if ours:
            value = worth + self._search(
                hands, trick, winner, winner, ntricks + 1, True, dk, alpha - worth, beta - worth
            )
        else:
            value = self._search(hands, trick, winner, winner, ntricks + 1, tk, True, alpha, beta)
        trick.extend(saved)
        return value

    def _search(self, hands, trick, leader, seat, ntricks, tk, dk, alpha, beta) -> int:
        self.nodes += 1
        if not trick:
            key = (
                (hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96) << 4
                | leader << 2
                | tk << 1
                | dk
            )
            entry = self.tt.get(key)
            if entry is not None:
                lo, hi = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                if alpha >= beta:
                    return alpha
            else:
                lo, hi = -(10**6), 10**6
            value = self._expand(hands, trick, leader, seat, ntricks, tk, dk, alpha, beta)
            if value <= alpha:
                hi = min(hi, value)
            elif value >= beta:
                lo = max(lo, value)
            else:
                lo = hi = value
            self.tt[key] = (lo, hi)
            return value
        return self._expand(hands, trick, leader, seat, ntricks, tk, dk, alpha, beta)

    def _expand(self, hands, trick, leader, seat, ntricks, tk, dk, alpha, beta) -> int:
        mode = self.mode
        hand = hands[seat]
        moves = legal_mask(self.rules, mode, hand, tuple(trick))
        in_play = hands[0] | hands[1] | hands[2] | hands[3]
        for c in trick:
            in_play |= 1 << c
        cards = equivalent_free(moves, in_play, mode)
        maximizing = seat & 1 == self.taker_team
        if len(cards) > 1:
            cards = self._order(cards, trick, seat, maximizing)
        best = -(10**6) if maximizing else 10**6
        for card in cards:
            hands[seat] = hand & ~(1 << card)
            trick.append(card)
            value = self._after_card(hands, trick, leader, seat, ntricks, tk, dk, alpha, beta)
            trick.pop()
            if maximizing:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            elif value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        hands[seat] = hand
        return best

    def _order(self, cards: list[int], trick: list[int], seat: int, maximizing: bool) -> list:
        """Likely best first: on a lead, strong cards; following, take the trick with the
        most points when it can be taken, else give the fewest."""
        mode = self.mode
        points = POINTS[mode]
        if not trick:
            key = KEY[mode]
            return sorted(cards, key=lambda c: -key[c >> 3][c])
        key = KEY[mode][trick[0] >> 3]
        best = max(key[c] for c in trick)
        return sorted(
            cards, key=lambda c: (key[c] < best, -points[c] if key[c] > best else points[c])
        )


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
