"""Duplicate deals between two bot levels: the arena behind ``manage.py belote_arena``.

Each deal is played twice from the same shuffled deck and dealer, level ``a`` holding NS
the first time and EW the second, bidding included. The luck of the cards cancels out:
what remains is how the two levels bid and play the same cards. A deal's difference is
``a``'s team score minus ``b``'s, averaged over its two plays (a hand nobody took counts
0); the arena also counts the contracts each side took and made, and times each side's
decisions, in wall-clock time (``time.perf_counter``) and in the process's CPU time
(``time.process_time``: the decision's cost on one core, whatever else the machine runs).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from games.bots.levels import choose_action
from games.rules import DONE, Rules, apply, deal, score

__all__ = ["ArenaResult", "play_arena"]


@dataclass
class Side:
    level: str
    times: list[float] = field(default_factory=list)  # wall-clock seconds per decision
    cpu_times: list[float] = field(default_factory=list)  # the process's CPU seconds
    taken: int = 0
    made: int = 0

    @property
    def mean_ms(self) -> float:
        return _mean_ms(self.times)

    @property
    def p95_ms(self) -> float:
        return _p95_ms(self.times)

    @property
    def cpu_mean_ms(self) -> float:
        return _mean_ms(self.cpu_times)

    @property
    def cpu_p95_ms(self) -> float:
        return _p95_ms(self.cpu_times)

    @property
    def made_rate(self) -> float:
        return self.made / self.taken if self.taken else 0.0


def _mean_ms(times: list[float]) -> float:
    return 1000 * sum(times) / len(times) if times else 0.0


def _p95_ms(times: list[float]) -> float:
    if not times:
        return 0.0
    ordered = sorted(times)
    return 1000 * ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass
class ArenaResult:
    a: Side
    b: Side
    diffs: list[float] = field(default_factory=list)  # per deal, a minus b

    @property
    def mean(self) -> float:
        return sum(self.diffs) / len(self.diffs)

    @property
    def half_width(self) -> float:
        """Half the 95% confidence interval of the mean (normal approximation)."""
        n = len(self.diffs)
        if n < 2:
            return math.inf
        m = self.mean
        variance = sum((d - m) ** 2 for d in self.diffs) / (n - 1)
        return 1.96 * math.sqrt(variance / n)


def play_arena(
    rules: Rules,
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    result = ArenaResult(Side(a), Side(b))
    for i in range(deals):
        deck = list(range(32))
        random.Random(f"arena {seed} {i}").shuffle(deck)
        # NS minus EW: a holds NS in the first play, EW in the second.
        first = _play(rules, i % 4, deck, (result.a, result.b), random.Random(f"{seed} {i} a"))
        second = _play(rules, i % 4, deck, (result.b, result.a), random.Random(f"{seed} {i} b"))
        result.diffs.append((first - second) / 2)
        if progress:
            progress(i + 1, deals)
    return result


def _play(rules: Rules, dealer: int, deck, sides, rng: random.Random) -> int:
    state = deal(rules, dealer, deck)
    while state.phase != DONE:
        side = sides[state.turn & 1]
        started, cpu = time.perf_counter(), time.process_time()
        action = choose_action(state, side.level, rng)
        side.cpu_times.append(time.process_time() - cpu)
        side.times.append(time.perf_counter() - started)
        state = apply(state, action)
    result = score(state)
    if result.contract >= 0:
        side = sides[result.taker & 1]
        side.taken += 1
        side.made += result.made
    return result.points[0] - result.points[1]
