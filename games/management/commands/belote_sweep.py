"""Catch up on time: passed deadlines, stalled bot turns, absent live players, and
tournament rounds past their deadline.

``belote_sweep`` runs the sweep once (games/timing/sweep.py, then
games.tournaments.sweep_round_deadlines); running it again does nothing more.
``belote_sweep --schedule`` enqueues the periodic ``sweep_task`` instead, which the
worker (belote_worker) runs every SWEEP_SECONDS (it re-enqueues itself, once, even when one of
its steps fails), which closes the overdue tournament rounds too and queues the day's
digest after DIGEST_HOUR (games/notifications/; ``belote_digest`` sends it by hand).
Each sweep queues the next before it works, so a worker killed mid-sweep leaves it
behind; a sweep row left RUNNING by a dead worker never counts as scheduled.
"""

from django.core.management.base import BaseCommand

from games.tasks import schedule_sweep
from games.timing.sweep import sweep
from games.tournaments import service as tournaments


class Command(BaseCommand):
    help = (
        "Applique les délais dépassés, relance les robots en attente et clôt les rondes "
        "de tournoi échues."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--schedule",
            action="store_true",
            help="Programme le balayage périodique (exécuté par belote_worker) au lieu de balayer.",
        )

    def handle(self, *args, schedule: bool = False, **options):
        if schedule:
            queued = schedule_sweep()
            self.stdout.write("sweep scheduled" if queued else "sweep already scheduled")
            return
        moved = sweep()
        rounds = tournaments.sweep_round_deadlines()
        self.stdout.write(f"{moved} table(s) moved")
        self.stdout.write(f"{rounds} tournament round(s) closed")
