"""A stand-in bot plays for an absent live player (games/timing/absence.py decides when
one comes) while another player is at the table (games/tables/attendance.py); the player
takes their seat back here, from the table page or by opening it again."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.tables import attendance, service
from games.tables.clock import turn_deadline
from games.tables.models import Seat
from games.tables.seats import table_seats


def take_back_seat(*, table_id: int, user) -> service.Outcome:
    """The player is back: their stand-in stops and their clock starts again (a table
    that was waiting for its players resumes first)."""
    with transaction.atomic():
        table = service.lock_table(table_id)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise service.ServiceError(
                "not_seated", _("Vous n'avez pas de place à cette table."), 403
            )
        if not seat.stand_in:
            return service.Outcome(table.version, False)
        if table.unattended_since is not None:
            attendance.resume(table, table_seats(table), by=user)
        seat.stand_in = False
        seat.save(update_fields=["stand_in"])
        payload = {"seat": seat.position}
        table.version = service.append_action(
            table, None, user, "take_back", payload, seat=seat.position
        )
        table.deadline = turn_deadline(table, list(table.seats.all()))
        table.save(update_fields=["version", "deadline", "updated_at"])
        service.follow_up(table.pk, table.version, False, clock=table)
    return service.Outcome(table.version, True)
