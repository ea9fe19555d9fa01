"""Vacations: a player declares days off, at most VACATION_DAYS_PER_YEAR a year; their
clocks stand still meanwhile.

Issue: "Vacation: a player can declare an absence (a number of days per year); their
tables' clocks pause."
"""

import datetime

import pytest
from django.utils import timezone

from accounts.vacations import VacationError, cancel_vacation, declare_vacation
from games import service, timing
from tests.factories import seated_user
from tests.tables.helpers import client_for
from tests.timing.helpers import after, fresh, playing_table, timeout_moves

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


def midnight(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


def test_a_vacation_stops_the_clock_of_the_player_to_act():
    table = playing_table()
    user = seated_user(table, table.turn)
    old = table.deadline
    today = timezone.localdate()

    declare_vacation(user=user, start=today, end=today + DAY)  # today and tomorrow

    new = fresh(table).deadline
    start = table.actions.get(kind="start").created_at
    # The hour of clock time runs from the end of the vacation (it began before the move).
    assert new - midnight(today + 2 * DAY) == datetime.timedelta(hours=1)
    assert abs(old - start - datetime.timedelta(hours=1)) < datetime.timedelta(seconds=1)
    with after(old):
        assert timing.sweep() == 0
        assert service.expire_deadline(table.pk, table.version) is None
    with after(new):
        assert timing.sweep() == 1
    assert len(timeout_moves(table)) == 1


def test_a_vacation_declared_in_the_database_alone_still_pauses_at_expiry():
    from accounts.models import Vacation

    table = playing_table()
    user = seated_user(table, table.turn)
    today = timezone.localdate()
    Vacation.objects.create(user=user, start=today, end=today)

    with after(table.deadline):
        assert service.expire_deadline(table.pk, table.version) is None
    assert fresh(table).deadline > midnight(today + DAY)
    assert timeout_moves(table) == []


def test_cancelling_the_vacation_gives_the_old_deadline_back():
    table = playing_table()
    user = seated_user(table, table.turn)
    old = table.deadline
    today = timezone.localdate()
    later = declare_vacation(user=user, start=today + DAY, end=today + 3 * DAY)
    # The hour is over before the vacation starts.
    assert abs(fresh(table).deadline - old) < datetime.timedelta(seconds=1)

    soon = declare_vacation(user=user, start=today, end=today)
    assert fresh(table).deadline > old
    cancel_vacation(user=user, vacation_id=soon.pk)
    cancel_vacation(user=user, vacation_id=later.pk)

    assert abs(fresh(table).deadline - old) < datetime.timedelta(seconds=1)


def test_the_days_per_year_are_limited_with_a_clear_error(settings):
    settings.VACATION_DAYS_PER_YEAR = 30
    table = playing_table()
    user = seated_user(table, 0)
    first = datetime.date(timezone.localdate().year + 1, 3, 1)
    declare_vacation(user=user, start=first, end=first + 19 * DAY)  # 20 days

    with pytest.raises(VacationError) as refused:
        declare_vacation(user=user, start=first + 30 * DAY, end=first + 40 * DAY)  # 11 days

    assert refused.value.message == (
        f"Vous avez droit à 30 jours d'absence par an : il vous en reste 10 en {first.year}."
    )
    declare_vacation(user=user, start=first + 30 * DAY, end=first + 39 * DAY)  # 10: fine


def test_the_profile_page_declares_and_refuses_vacations():
    table = playing_table()
    user = seated_user(table, 0)
    client = client_for(user)
    today = timezone.localdate()
    march = datetime.date(today.year + 1, 3, 1)

    response = client.post(
        "/comptes/profil/absences/",
        {"start": march.isoformat(), "end": (march + 40 * DAY).isoformat()},
    )
    assert response.status_code == 422
    assert "Vous avez droit à 30 jours d&#x27;absence par an" in response.text

    response = client.post(
        "/comptes/profil/absences/",
        {"start": today.isoformat(), "end": (today + 2 * DAY).isoformat()},
        follow=True,
    )
    assert "Votre absence est enregistrée." in response.text
    assert "Annuler cette absence" in response.text
    assert user.vacations.count() == 1
