"""Speed and strength of the expert bot (games/bots/expert.py, solver.py).

1. The double-dummy solver: every card of the seat to act solved exactly, from positions
   with 8 (the first card), 6, 5, 4 and 3 tricks left (random deals and contracts, random
   play up to there), by the C search (games/bots/dds.c) and the pure Python reference
   (not from the first card: seconds a solve); prints the mean and p95 milliseconds per
   solve (CPU time of the process) and the search nodes per CPU second of each.
2. The expert level against the heuristic over a few duplicate deals of each preset
   (games/bots/arena.py): the mean difference per deal, its 95% interval, and the mean and
   p95 time per expert decision, hence the expert decisions one core serves per second.

Run it as ``python bench/bots_bench.py [--deals N] [--seed S]`` (``make bench`` runs it
with the defaults, a smoke run of a minute or two). The strength figures of the README
come from ``manage.py belote_arena`` with more deals (docs/performance.md says which).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_site.settings.test")

from games.bots.arena import play_arena  # noqa: E402
from games.bots.solver import NATIVE, Solver  # noqa: E402
from games.rules import PRESETS, apply, legal_actions  # noqa: E402
from games.rules.actions import ANNOUNCE  # noqa: E402
from games.rules.hand import start_with_contract  # noqa: E402


def position(rng: random.Random, tricks_left: int):
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [deck[i * 8 : i * 8 + 8] for i in range(4)]
    rules = PRESETS[rng.choice(sorted(PRESETS))]
    state = start_with_contract(rules, rng.randrange(4), hands, rng.randrange(6), rng.randrange(4))
    cards = 32 - 4 * tricks_left
    while cards:
        actions = legal_actions(state)
        if ANNOUNCE in actions:
            state = apply(state, ANNOUNCE)
            continue
        state = apply(state, rng.choice(actions))
        cards -= 1
    return state


def solver_speed(seed: int) -> None:
    rng = random.Random(seed)
    for left in (8, 6, 5, 4, 3):
        states = [position(rng, left) for _ in range(40)]
        for native in (True, False) if NATIVE else (False,):
            if not native and left == 8:
                continue
            sample = states if native or left < 6 else states[:8]
            nodes, times = 0, []
            for state in sample:
                started = time.process_time()  # CPU time: the machine may be shared
                solver = Solver(state, native=native)
                solver.card_values(state)
                times.append(time.process_time() - started)
                nodes += solver.nodes
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(
                f"solver ({'C' if native else 'pure Python'}), {left} tricks left: "
                f"{1000 * sum(times) / len(times):.2f} ms per solve (every legal card), "
                f"p95 {1000 * p95:.2f} ms, {nodes / sum(times) / 1000:.0f} k nodes/s "
                f"({len(sample)} positions)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    solver_speed(args.seed)
    for preset in sorted(PRESETS):
        started = time.perf_counter()
        result = play_arena(PRESETS[preset], "expert", "heuristic", args.deals, args.seed)
        a = result.a
        print(
            f"{preset}: expert - heuristic {result.mean:+.1f} ± {result.half_width:.1f} per deal "
            f"over {args.deals} deals; expert {len(a.times)} decisions, mean {a.mean_ms:.1f} ms, "
            f"p95 {a.p95_ms:.1f} ms ({1000 / a.mean_ms:.0f} decisions/s/core); "
            f"{time.perf_counter() - started:.0f} s"
        )


if __name__ == "__main__":
    main()
