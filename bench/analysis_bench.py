"""How long the analysis of one finished hand takes (games/bots/analysis.py), by the first
trick weighed (BELOTE_ANALYSIS_FIRST_TRICK).

Hands bid and played by the *confirmé* (heuristic) bot at every seat, as at a table of
bots, over the five presets in turn (hands nobody took are dealt again); each is analysed
from trick 1 (the whole card play: the first card solves the whole hand), 2, 3 and 5
with a fresh solver. Prints per first trick the mean, the median, the p95 and the
longest time per hand, and the notes found (a note: a card perfect play would have
bettered). The solver is whichever games/bots/solver.py provides (pure Python, or a
compiled core behind the same API).

Run it as ``python bench/analysis_bench.py [--hands N] [--seed S] [--first 1,2,3,5]``;
``make bench`` runs it with the defaults (six hands, a minute or two in pure Python).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_site.settings.test")

from games.bots.analysis import analyse  # noqa: E402
from games.bots.levels import choose_action  # noqa: E402
from games.rules import DONE, PRESETS, apply, deal  # noqa: E402


def played_hand(preset: str, rng: random.Random):
    """A hand bid and played out by the heuristic bot at every seat, with card play."""
    while True:
        deck = list(range(32))
        rng.shuffle(deck)
        start = deal(PRESETS[preset], rng.randrange(4), deck)
        state, actions = start, []
        while state.phase != DONE:
            action = choose_action(state, "heuristic", rng)
            actions.append(action)
            state = apply(state, action)
        if state.tricks:
            return start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", default="1,2,3,5", help="first tricks weighed, e.g. 1,3")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    presets = sorted(PRESETS)
    hands = [played_hand(presets[i % len(presets)], rng) for i in range(args.hands)]
    for first in (int(f) for f in args.first.split(",")):
        times, notes = [], 0
        for start, actions in hands:
            began = time.perf_counter()
            notes += len(analyse(start, actions, first_trick=first))
            times.append(time.perf_counter() - began)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(
            f"from trick {first}: mean {statistics.mean(times):.2f} s, "
            f"median {statistics.median(times):.2f} s, p95 {p95:.2f} s, "
            f"longest {times[-1]:.2f} s per hand over {len(times)} hands; "
            f"{notes / len(times):.1f} notes per hand"
        )


if __name__ == "__main__":
    main()
