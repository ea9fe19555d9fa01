"""Send the daily digest: every player with ``notify = daily`` gets one email listing the
tables waiting for their move, at most once per day (however often this runs).

Schedule it once a day (cron ``0 8 * * * manage.py belote_digest``); running it more often
is harmless, the second run of a day sends nothing.
"""

from django.core.management.base import BaseCommand

from games.notifications import send_digests


class Command(BaseCommand):
    help = "Send the daily digest of tables waiting for each player (once per day)."

    def handle(self, *args, **options) -> None:
        sent = send_digests()
        self.stdout.write(f"{sent} digest(s) sent.")
