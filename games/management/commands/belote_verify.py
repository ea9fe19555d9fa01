"""``manage.py belote_verify``: replay every table's log and compare with the stored rows.

Each table is read in a snapshot of its own (games/tables/verification.py): tables in play keep
moving while the command runs, and a move committed half-way through a table's rows must
not look like a mismatch."""

from django.core.management.base import BaseCommand, CommandError

from games.tables.models import Table
from games.tables.verification import verify_stored_table


class Command(BaseCommand):
    help = "Replays the action log of every table through the engine and reports mismatches."

    def add_arguments(self, parser):
        parser.add_argument("tables", nargs="*", type=int, help="table ids (default: all)")

    def handle(self, *args, **options):
        tables = Table.objects.order_by("pk")
        if options["tables"]:
            tables = tables.filter(pk__in=options["tables"])
        checked = bad = 0
        for table_id in tables.values_list("pk", flat=True):
            problems = verify_stored_table(table_id)
            if problems is None:
                continue  # deleted since the list was read
            checked += 1
            if problems:
                bad += 1
                for problem in problems:
                    self.stderr.write(f"table {table_id}: {problem}")
            elif options["verbosity"] > 1:
                self.stdout.write(f"table {table_id}: ok")
        if bad:
            raise CommandError(f"{bad} of {checked} tables differ from their action log")
        self.stdout.write(self.style.SUCCESS(f"{checked} tables checked, all match their log"))
