"""Send the daily digest: every player with ``notify = daily`` gets one email listing the
tables waiting for their move (those they do not have open), at most once per day
(however often this runs).

The worker's periodic sweep sends it by itself once DIGEST_HOUR has passed (8 by default,
games/notifications/); this command is for a site without a worker, or to send it at
once. A cron line calling it is harmless: the second run of a day sends nothing more.
"""

from django.core.management.base import BaseCommand, CommandError

from games.notifications.digest import DigestsNotSent, send_digests


class Command(BaseCommand):
    help = "Send the daily digest of tables waiting for each player (once per day)."

    def handle(self, *args, **options) -> None:
        try:
            sent = send_digests()
        except DigestsNotSent as error:
            self.stdout.write(f"{error.sent} digest(s) sent.")
            raise CommandError(f"{error.failed} digest(s) could not be sent.") from error
        self.stdout.write(f"{sent} digest(s) sent.")
