"""Random self-play speed of the rules engine, preset by preset.

For each preset, plays random legal hands (``random.Random(seed)``, ``random.choice``
over ``legal_actions``, the dealer moving as the preset says) for a few seconds and
prints the hands per second: complete hands (played to the eighth trick) and all hands
(redeals and passed-out hands included). Then, over the states those hands went
through, the mean cost of one ``legal_actions`` call and of one ``apply``.

Run it as ``python bench/rules_bench.py [--seconds N] [--seed S]``. Goal: at least
5,000 complete random hands per second on one core.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import DONE, PRESETS, apply, deal, legal_actions  # noqa: E402
from games.rules.hand import next_dealer  # noqa: E402

GOAL = 5_000  # complete hands per second per core
SAMPLE_STATES = 100_000  # states visited, for the per-call timings


def self_play(rules, seconds: float, seed: int) -> tuple[int, int, float]:
    """Hands played in about ``seconds``: (complete, all, elapsed)."""
    rng = random.Random(seed)
    choice, shuffle = rng.choice, rng.shuffle
    deck = list(range(32))
    dealer = 0
    complete = hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        shuffle(deck)
        state = deal(rules, dealer, deck)
        while state.phase != DONE:
            state = apply(state, choice(legal_actions(state)))
        hands += 1
        if len(state.tricks) == 8:
            complete += 1
        dealer = next_dealer(rules, dealer)
        if hands % 64 == 0 and time.perf_counter() >= deadline:
            return complete, hands, time.perf_counter() - start


def visited(rules, seed: int, limit: int) -> list[tuple[object, object]]:
    """(state, action chosen) for the states of the same random hands, up to ``limit``."""
    rng = random.Random(seed)
    deck = list(range(32))
    dealer = 0
    out: list[tuple[object, object]] = []
    while len(out) < limit:
        rng.shuffle(deck)
        state = deal(rules, dealer, deck)
        while state.phase != DONE:
            action = rng.choice(legal_actions(state))
            out.append((state, action))
            state = apply(state, action)
        dealer = next_dealer(rules, dealer)
    return out


def per_call(sample) -> tuple[float, float]:
    """Mean µs of legal_actions and of apply over the visited states (best of 3 runs)."""
    states = [s for s, _ in sample]
    best_legal = best_apply = float("inf")
    gc.disable()  # the sample keeps many states alive; do not time the collector
    try:
        for _ in range(3):
            t0 = time.perf_counter()
            for s in states:
                legal_actions(s)
            t1 = time.perf_counter()
            for s, a in sample:
                apply(s, a)
            t2 = time.perf_counter()
            best_legal = min(best_legal, t1 - t0)
            best_apply = min(best_apply, t2 - t1)
    finally:
        gc.enable()
    n = len(sample)
    return best_legal / n * 1e6, best_apply / n * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per preset (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)

    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, {args.seconds:g} s per preset, seed {args.seed}"
    )
    header = (
        f"{'preset':<12} {'complete/s':>11} {'all/s':>10} {'complete':>9} {'all':>8}"
        f" {'legal µs':>9} {'apply µs':>9} {'states':>8}"
    )
    print(header)
    print("-" * len(header))
    slowest = float("inf")
    for name, rules in PRESETS.items():
        complete, hands, elapsed = self_play(rules, args.seconds, args.seed)
        sample = visited(rules, args.seed, SAMPLE_STATES)
        legal_us, apply_us = per_call(sample)
        del sample
        rate = complete / elapsed
        slowest = min(slowest, rate)
        print(
            f"{name:<12} {rate:>11,.0f} {hands / elapsed:>10,.0f} {complete:>9,} {hands:>8,}"
            f" {legal_us:>9.2f} {apply_us:>9.2f} {SAMPLE_STATES:>8,}"
        )
    verdict = "ok" if slowest >= GOAL else "BELOW GOAL"
    print(f"slowest preset: {slowest:,.0f} complete hands/s (goal {GOAL:,}/s per core): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
