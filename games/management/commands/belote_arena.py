"""``manage.py belote_arena``: two bot levels over duplicate deals (games/bots/arena.py)."""

import sys

from django.core.management.base import BaseCommand, CommandError

from games import rules as engine
from games.bots import BOT_LEVELS
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

    def handle(self, *args, **options):
        deals = options["deals"]
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        preset = options["preset"]
        result = play_arena(
            engine.PRESETS[preset],
            options["a"],
            options["b"],
            deals,
            options["seed"],
            progress=self._progress,
        )
        low, high = result.mean - result.half_width, result.mean + result.half_width
        self.stdout.write(
            f"{deals} duplicate deals of {preset} (seed {options['seed']}): "
            f"{result.a.level} - {result.b.level} = {result.mean:+.1f} points per deal, "
            f"95% CI [{low:+.1f}, {high:+.1f}]"
        )
        for side in (result.a, result.b):
            self.stdout.write(
                f"  {side.level}: contracts taken {side.taken}, made "
                f"{100 * side.made_rate:.0f}%; {len(side.times)} decisions, "
                f"mean {side.mean_ms:.1f} ms, p95 {side.p95_ms:.1f} ms"
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
