"""``manage.py belote_verify``: replay every table's log and compare with the stored rows."""

from django.core.management.base import BaseCommand, CommandError

from games.models import Table
from games.verification import verify_table


class Command(BaseCommand):
    help = "Replays the action log of every table through the engine and reports mismatches."

    def add_arguments(self, parser):
        parser.add_argument("tables", nargs="*", type=int, help="table ids (default: all)")

    def handle(self, *args, **options):
        tables = Table.objects.order_by("pk")
        if options["tables"]:
            tables = tables.filter(pk__in=options["tables"])
        checked = bad = 0
        for table in tables.iterator():
            checked += 1
            problems = verify_table(table)
            if problems:
                bad += 1
                for problem in problems:
                    self.stderr.write(f"table {table.pk}: {problem}")
            elif options["verbosity"] > 1:
                self.stdout.write(f"table {table.pk}: ok")
        if bad:
            raise CommandError(f"{bad} of {checked} tables differ from their action log")
        self.stdout.write(self.style.SUCCESS(f"{checked} tables checked, all match their log"))
