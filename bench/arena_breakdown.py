"""Where the points of an arena come from: each duplicate deal classed by who took.

Plays deal i exactly as ``play_arena`` does (the same deck, dealer and seeded rngs), so a
deal's difference is the arena's. A deal is played twice with the same cards, ``a``
holding NS the first time and EW the second. Each play has a taking seat (or none); a
deal is classed by the hands that took in its two plays: "both" when the same hand
(the same cards) took in both plays, whichever level held it, "only a" when a hand took
with ``a`` holding it and nobody took with it when ``b`` held it (and the reverse),
"other" for the rest (different hands took in the two plays), "none" when nobody took.
For each class it prints the deals, their share of the mean difference, and how often
the contracts in it were made.

Run it as ``python bench/arena_breakdown.py [--a expert] [--b heuristic] [--deals N]
[--preset P] [--seed S]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_site.settings.test")

import django  # noqa: E402

django.setup()

from games.bots.levels import choose_action  # noqa: E402
from games.rules import DONE, PRESETS, apply, deal, score  # noqa: E402


def play(rules, dealer, deck, levels, rng):
    """One play: ``levels[team]`` at each seat. (NS minus EW, taker seat or -1, made)."""
    state = deal(rules, dealer, deck)
    while state.phase != DONE:
        state = apply(state, choose_action(state, levels[state.turn & 1], rng))
    result = score(state)
    taker = result.taker if result.contract >= 0 else -1
    return result.points[0] - result.points[1], taker, bool(result.made)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="heuristic")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--preset", default="classique", choices=list(PRESETS))
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    rules = PRESETS[args.preset]
    classes = defaultdict(lambda: {"deals": 0, "sum": 0.0, "taken": 0, "made": 0})
    total = 0.0
    for i in range(args.deals):
        deck = list(range(32))
        random.Random(f"arena {args.seed} {i}").shuffle(deck)
        first = play(rules, i % 4, deck, (args.a, args.b), random.Random(f"{args.seed} {i} a"))
        second = play(rules, i % 4, deck, (args.b, args.a), random.Random(f"{args.seed} {i} b"))
        diff = (first[0] - second[0]) / 2
        total += diff
        t1, t2 = first[1], second[1]
        if t1 < 0 and t2 < 0:
            name = "none"
        elif t1 >= 0 and t1 == t2:
            name = "both: same hand took"
        elif t1 >= 0 and t2 < 0:
            name = f"only {args.a if t1 % 2 == 0 else args.b} took"
        elif t2 >= 0 and t1 < 0:
            name = f"only {args.b if t2 % 2 == 0 else args.a} took"
        else:
            name = "other: different hands took"
        entry = classes[name]
        entry["deals"] += 1
        entry["sum"] += diff
        for outcome in (first, second):
            if outcome[1] >= 0:
                entry["taken"] += 1
                entry["made"] += outcome[2]
        print(f"{i} {name} {diff:+.1f}", file=sys.stderr, flush=True)
    n = args.deals
    print(f"{n} deals of {args.preset} (seed {args.seed}): {args.a} - {args.b} = {total / n:+.1f}")
    for name, e in sorted(classes.items(), key=lambda item: -abs(item[1]["sum"])):
        made = f"{100 * e['made'] / e['taken']:.0f}% made" if e["taken"] else "-"
        print(
            f"  {name:32} {e['deals']:4} deals, {e['sum'] / n:+6.1f} of the mean "
            f"({e['sum'] / e['deals']:+6.1f} a deal), {e['taken']} contracts, {made}"
        )


if __name__ == "__main__":
    main()
