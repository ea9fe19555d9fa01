"""``manage.py belote_simulate``: play all-bot games to the end and print the results."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from games import rules as engine
from games.tables import service
from games.tables.models import BotLevel, Hand, Table


class Command(BaseCommand):
    help = "Plays N games with four bots to the end (demo data, benchmarks)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--preset", default="classique", choices=list(engine.PRESETS))
        parser.add_argument("--level", default=BotLevel.HEURISTIC, choices=BotLevel.values)
        parser.add_argument(
            "--ew-level", choices=BotLevel.values, help="EW bots' level (default: --level)"
        )

    def handle(self, *args, **options):
        count = options["games"]
        if count < 1:
            raise CommandError("--games must be at least 1")
        ns, ew = options["level"], options["ew_level"] or options["level"]
        wins = [0, 0]
        moves = 0
        tables = []
        started = time.perf_counter()
        for i in range(count):
            table = service.create_table(
                created_by=None, preset=options["preset"], bots={0: ns, 1: ew, 2: ns, 3: ew}
            )
            service.start_table(table_id=table.pk)
            moves += service.play_bots(table.pk)
            table.refresh_from_db()
            if table.status != Table.Status.FINISHED:
                raise CommandError(f"table {table.pk} did not finish")
            wins[table.games.get().winner] += 1
            tables.append(table.pk)
            self._progress(i + 1, count)
        elapsed = time.perf_counter() - started
        hands = Hand.objects.filter(game__table__in=tables).count()
        self.stdout.write(
            f"{count} games of {options['preset']} ({ns} NS vs {ew} EW): "
            f"NS won {wins[0]}, EW won {wins[1]}; {hands} hands, {moves} moves "
            f"in {elapsed:.1f} s ({moves / elapsed:.0f} moves/s)"
        )
        self.stdout.write(f"tables {tables[0]} to {tables[-1]}")

    def _progress(self, done: int, total: int) -> None:
        if not sys.stderr.isatty() and done != total:
            return
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
