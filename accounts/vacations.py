"""Declaring and cancelling an absence (``Vacation``): at most VACATION_DAYS_PER_YEAR days
per calendar year. Each change moves the deadlines of the player's turns (the clocks stand
still during an absence, games/timing.py)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, Vacation


class VacationError(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _days_in_year(start: datetime.date, end: datetime.date, year: int) -> int:
    first = max(start, datetime.date(year, 1, 1))
    last = min(end, datetime.date(year, 12, 31))
    return max(0, (last - first).days + 1)


def days_left(user, year: int) -> int:
    used = sum(_days_in_year(v.start, v.end, year) for v in user.vacations.all())
    return max(0, settings.VACATION_DAYS_PER_YEAR - used)


def declare_vacation(*, user, start: datetime.date, end: datetime.date) -> Vacation:
    if end < start:
        raise VacationError(_("La fin de l'absence doit suivre son début."))
    if start < timezone.localdate():
        raise VacationError(_("Une absence ne peut pas commencer dans le passé."))
    with transaction.atomic():
        User.objects.select_for_update().get(pk=user.pk)  # one declaration at a time
        if user.vacations.filter(start__lte=end, end__gte=start).exists():
            raise VacationError(_("Vous avez déjà déclaré une absence sur ces jours."))
        limit = settings.VACATION_DAYS_PER_YEAR
        for year in range(start.year, end.year + 1):
            left = days_left(user, year)
            if _days_in_year(start, end, year) > left:
                raise VacationError(
                    _(
                        "Vous avez droit à %(limit)s jours d'absence par an : "
                        "il vous en reste %(left)s en %(year)s."
                    )
                    % {"limit": limit, "left": left, "year": year}
                )
        vacation = Vacation.objects.create(user=user, start=start, end=end)
    _reschedule(user)
    return vacation


def cancel_vacation(*, user, vacation_id: int) -> None:
    """A future absence is removed; one under way ends yesterday (its days are used)."""
    vacation = Vacation.objects.filter(user=user, pk=vacation_id).first()
    if vacation is None:
        raise VacationError(_("Cette absence n'existe pas."))
    today = timezone.localdate()
    if vacation.start >= today:
        vacation.delete()
    elif vacation.end >= today:
        vacation.end = today - datetime.timedelta(days=1)
        vacation.save(update_fields=["end"])
    _reschedule(user)


def _reschedule(user) -> None:
    from games.timing import reschedule_user

    reschedule_user(user.pk)
