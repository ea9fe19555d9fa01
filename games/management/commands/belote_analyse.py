"""``manage.py belote_analyse``: queue the analysis of finished hands that have none.

The move that ends a hand queues its analysis, and the sweep queues again one lost on its
way within the hour (games/tables/analysis.py). This command reaches further back: the
hands finished in the last ``--days`` days (of one ``--table``, or all) with cards played
and no analysis, none waiting or running, are queued for the analysis worker
(``belote_worker --queue-name analysis``), the oldest first, at most ``--limit``.
"""

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from games.tables import analysis
from games.tables.models import Hand, Table


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 0 < value <= 100_000:
        raise ValueError(text)
    return value


class Command(BaseCommand):
    help = (
        "Met en file l'analyse des donnes terminées qui n'en ont pas (exécutée par "
        "belote_worker --queue-name analysis)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--days", type=_positive, default=7, help="donnes finies depuis N jours (7)"
        )
        parser.add_argument("--table", type=_positive, help="les donnes d'une seule table")
        parser.add_argument("--limit", type=_positive, default=1000, help="au plus N donnes (1000)")

    def handle(self, *args, days: int, table: int | None, limit: int, **options):
        now = timezone.now()
        hands = Hand.objects.filter(finished_at__gte=now - datetime.timedelta(days=days))
        if table is not None:
            if not Table.objects.filter(pk=table).exists():
                raise CommandError(f"no table {table}")
            hands = hands.filter(game__table_id=table)
        queued = analysis.queue_missing(hands, now, limit)
        self.stdout.write(f"{queued} hand(s) queued for analysis")
