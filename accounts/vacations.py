"""Declaring, cancelling and deleting an absence (``Vacation``): at most
VACATION_DAYS_PER_YEAR days per calendar year, one absence at most that many days long,
starting at most VACATION_MAX_AHEAD_DAYS from today (``check_dates``, which the form
applies too). Each change moves the deadlines of the player's turns (the clocks stand
still during an absence: accounts.signals, heard by games/timing/vacations.py), in the same
transaction, one change of a player's absences at a time. The clock (games/tables/clock.py)
reads any stored row within the same bounds (``vacation_window``), so a row written some
other way stops no clock for longer.

Time an absence has already paused stays paused whatever becomes of it: cancelling one
under way, or deleting one in the admin, never hands back a deadline already passed (the
bot would play at once on the player's return).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, Vacation
from accounts.signals import vacations_changed, vacations_changing


def _midnight(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


# The days the clock reads a stored vacation within: far enough from datetime's limits
# that a window, a turn's time and the pauses added to it cannot overflow.
FIRST_DAY = datetime.date(1900, 1, 1)
LAST_DAY = datetime.date(9000, 1, 1)


def vacation_window(start: datetime.date, end: datetime.date) -> tuple:
    """The instants a vacation from ``start`` to ``end`` (both days included) covers, read
    within the bounds above and at most VACATION_DAYS_PER_YEAR days long."""
    first = min(max(start, FIRST_DAY), LAST_DAY).toordinal()
    longest = max(1, settings.VACATION_DAYS_PER_YEAR)
    last = max(first, min(end.toordinal(), first + longest - 1, LAST_DAY.toordinal()))
    return _midnight(datetime.date.fromordinal(first)), _midnight(
        datetime.date.fromordinal(last + 1)
    )


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


def check_dates(start: datetime.date, end: datetime.date) -> None:
    """Refuse the dates of a new absence that the rules do not allow."""
    today = timezone.localdate()
    if end < start:
        raise VacationError(_("La fin de l'absence doit suivre son début."))
    if start < today:
        raise VacationError(_("Une absence ne peut pas commencer dans le passé."))
    ahead = settings.VACATION_MAX_AHEAD_DAYS
    if (start - today).days > ahead:
        raise VacationError(
            _("Une absence ne peut pas commencer plus de %(days)s jours à l'avance.")
            % {"days": ahead}
        )
    longest = settings.VACATION_DAYS_PER_YEAR
    if (end - start).days + 1 > longest:
        raise VacationError(_("Une absence dure au plus %(days)s jours.") % {"days": longest})


def declare_vacation(*, user, start: datetime.date, end: datetime.date) -> Vacation:
    check_dates(start, end)
    with transaction.atomic():
        _lock(user)  # one change of the user's absences at a time
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
        before = _clocks(user)
        vacation = Vacation.objects.create(user=user, start=start, end=end)
        _reschedule(user, before)
    return vacation


def cancel_vacation(*, user, vacation_id: int) -> None:
    """A future absence is removed. One under way ends now: its days before today stay
    used, and the time it paused, today's included, stays paused for the turns it
    covered (their deadlines move back by the time it will not pause any more)."""
    with transaction.atomic():
        _lock(user)
        vacation = Vacation.objects.filter(user=user, pk=vacation_id).first()
        if vacation is None:
            raise VacationError(_("Cette absence n'existe pas."))
        today = timezone.localdate()
        if vacation.end < today:
            return  # over already: nothing left to cancel
        # A vacation is whole days: one under way keeps the days before today, and the
        # part of today it paused goes to the deadlines as an extra pause (_shorten).
        _shorten(vacation, end=today - datetime.timedelta(days=1))


def delete_vacation(*, vacation: Vacation) -> None:
    """Support removes an absence that should not be (the admin): its days are given
    back; the time it already paused stays paused for the turns it covered."""
    with transaction.atomic():
        _lock(vacation.user)
        vacation = Vacation.objects.filter(pk=vacation.pk).first()
        if vacation is not None:
            _shorten(vacation, end=None)


def _shorten(vacation: Vacation, *, end: datetime.date | None) -> None:
    """End ``vacation`` on ``end`` (None, or before it starts: remove it) and move the
    user's deadlines. What it covered from the new end until now was paused and stays so."""
    now = timezone.now()
    user = vacation.user
    begin, old_end = vacation_window(vacation.start, vacation.end)
    before = _clocks(user)
    if end is None or end < vacation.start:
        vacation.delete()
        kept = begin
    else:
        vacation.end = end
        vacation.save(update_fields=["end"])
        kept = vacation_window(vacation.start, end)[1]
    spent = min(old_end, now)
    _reschedule(user, before, paused=[(kept, spent)] if kept < spent else [])


def _lock(user) -> None:
    User.objects.select_for_update().get(pk=user.pk)


def _clocks(user) -> dict:
    """What the receivers of ``vacations_changing`` know before the change, by receiver."""
    return dict(vacations_changing.send(sender=Vacation, user_id=user.pk))


def _reschedule(user, before: dict, paused: list | tuple = ()) -> None:
    vacations_changed.send(sender=Vacation, user_id=user.pk, before=before, paused=paused)
