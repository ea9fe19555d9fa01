"""``manage.py belote_ratings [--rebuild]``: the ratings' state, or recompute them all."""

from django.core.management.base import BaseCommand

from accounts.models import Rating
from games.ratings.service import rebuild_ratings
from games.tables.models import Game


class Command(BaseCommand):
    help = (
        "Shows how many games and players are rated; with --rebuild, recomputes every "
        "rating from the rated games in the order they finished (same figures as the "
        "updates after each game)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="recompute every rating from scratch from the rated games",
        )

    def handle(self, *args, **options):
        if not options["rebuild"]:
            games = Game.objects.filter(rated=True).count()
            players = Rating.objects.count()
            self.stdout.write(
                f"{games} rated games, {players} rated players (--rebuild to recompute)"
            )
            return
        summary = rebuild_ratings()
        if summary.dropped:
            self.stderr.write(
                f"{summary.dropped} rated games no longer have four players (account deleted): "
                "now unrated"
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"ratings rebuilt: {summary.games} rated games, {summary.players} players"
            )
        )
