"""``manage.py belote_arena``: two bot levels over duplicate deals (games/bots/arena.py)."""

import sys
from dataclasses import replace

from django.core.management.base import BaseCommand, CommandError

from games import rules as engine
from games.bots import BOT_LEVELS, expert
from games.bots.arena import play_arena


class Command(BaseCommand):
    help = (
        "Plays N duplicate deals (each twice, the teams swapped, bidding included) between "
        "two bot levels and prints the mean score difference per deal with its 95% "
        "confidence interval, the contracts made and the time per decision."
    )

    def add_arguments(self, parser):
        parser.add_argument("--a", default="expert", choices=BOT_LEVELS)
        parser.add_argument("--b", default="heuristic", choices=BOT_LEVELS)
        parser.add_argument("--deals", type=int, default=100)
        parser.add_argument("--preset", default="classique", choices=list(engine.PRESETS))
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--samples", type=int, help="expert: deals per card (default: the setting)"
        )
        parser.add_argument(
            "--bid-samples", type=int, help="expert: deals per contract weighed when bidding"
        )
        parser.add_argument(
            "--exact-tricks", type=int, help="expert: tricks left from which it solves exactly"
        )
        parser.add_argument(
            "--exact-nodes",
            type=int,
            help="expert: search nodes after which an exact decision draws no more deals (0: none)",
        )
        parser.add_argument(
            "--play-inference",
            type=int,
            help="expert: deals drawn per deal kept, the best fitting the opponents' cards",
        )
        parser.add_argument(
            "--bid-inference",
            choices=("on", "off"),
            help="expert: draw deals that fit the other seats' bids (default: the setting)",
        )
        parser.add_argument(
            "--pass-played",
            choices=("on", "off"),
            help="expert: value a pass by the bidding and play that follow, not as 0",
        )

    def handle(self, *args, **options):
        deals = options["deals"]
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        preset = options["preset"]
        budget = expert.current_budget()
        changes = {
            name: options[name]
            for name in ("samples", "bid_samples", "exact_tricks", "exact_nodes", "play_inference")
            if options[name] is not None
        }
        if any(value < 0 for value in changes.values()):
            raise CommandError("the expert's budget is counted in whole positive numbers")
        for name in ("bid_inference", "pass_played"):
            if options[name] is not None:
                changes[name] = options[name] == "on"
        expert.configure(replace(budget, **changes))
        result = play_arena(
            engine.PRESETS[preset],
            options["a"],
            options["b"],
            deals,
            options["seed"],
            progress=self._progress,
        )
        expert.configure(budget)
        used = replace(budget, **changes)
        low, high = result.mean - result.half_width, result.mean + result.half_width
        self.stdout.write(
            f"{deals} duplicate deals of {preset} (seed {options['seed']}): "
            f"{result.a.level} - {result.b.level} = {result.mean:+.1f} points per deal, "
            f"95% CI [{low:+.1f}, {high:+.1f}]"
        )
        self.stdout.write(
            f"  expert budget: {used.samples} deals per card, {used.bid_samples} per contract "
            f"when bidding, exact from {used.exact_tricks} tricks left "
            f"(at most {used.exact_nodes} nodes a decision after {used.exact_min_samples} deals), "
            f"bid inference {'on' if used.bid_inference else 'off'}, "
            f"pass played {'on' if used.pass_played else 'off'}, "
            f"play inference {used.play_inference}"
        )
        for side in (result.a, result.b):
            self.stdout.write(
                f"  {side.level}: contracts taken {side.taken}, made "
                f"{100 * side.made_rate:.0f}%; {len(side.times)} decisions, "
                f"mean {side.mean_ms:.1f} ms, p95 {side.p95_ms:.1f} ms "
                f"(CPU: mean {side.cpu_mean_ms:.1f} ms, p95 {side.cpu_p95_ms:.1f} ms)"
            )

    def _progress(self, done: int, total: int) -> None:
        if not sys.stderr.isatty() and done != total:
            return
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
