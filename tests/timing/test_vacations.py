"""Vacations: a player declares days off, at most VACATION_DAYS_PER_YEAR a year; their
clocks stand still meanwhile.

Issue: "Vacation: a player can declare an absence (a number of days per year); their
tables' clocks pause."
"""

import datetime

import pytest
import time_machine
from django.utils import timezone

from accounts.models import Vacation
from accounts.vacations import VacationError, cancel_vacation, declare_vacation
from games.tables import service
from games.timing.sweep import sweep
from tests.factories import seated_user
from tests.tables.helpers import client_for
from tests.timing.helpers import after, fresh, playing_table, timeout_moves

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)
MONDAY = datetime.date(2026, 3, 2)


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
        assert sweep() == 0
        assert service.expire_deadline(table.pk, table.version) is None
    with after(new):
        assert sweep() == 1
    assert len(timeout_moves(table)) == 1


def test_a_vacation_declared_in_the_database_alone_still_pauses_at_expiry():
    table = playing_table()
    user = seated_user(table, table.turn)
    today = timezone.localdate()
    Vacation.objects.create(user=user, start=today, end=today)

    with after(table.deadline):
        assert service.expire_deadline(table.pk, table.version) is None
    assert fresh(table).deadline > midnight(today + DAY)
    assert timeout_moves(table) == []


def local(*moment) -> datetime.datetime:
    """A moment in the site's time zone (Europe/Paris), where vacations are whole days."""
    return timezone.make_aware(datetime.datetime(*moment))


@pytest.fixture
def monday_turn():
    """A day per move; the player to act got the turn on Monday 2 March 2026 at 9:00,
    the clock standing still at that moment, and time travels with ``.move_to``."""
    with time_machine.travel(local(2026, 3, 2, 9), tick=False) as traveller:
        table = playing_table(move_seconds=24 * 3600)
        assert table.deadline == local(2026, 3, 3, 9)
        yield table, seated_user(table, table.turn), traveller


def test_cancelling_a_vacation_not_yet_begun_gives_the_old_deadline_back(monday_turn):
    table, user, traveller = monday_turn
    vacation = declare_vacation(user=user, start=MONDAY + DAY, end=MONDAY + 3 * DAY)
    # 15 hours of the day run on Monday, the 9 others after the vacation.
    assert fresh(table).deadline == local(2026, 3, 6, 9)

    traveller.move_to(local(2026, 3, 2, 20))
    cancel_vacation(user=user, vacation_id=vacation.pk)

    assert fresh(table).deadline == local(2026, 3, 3, 9)
    assert not Vacation.objects.exists()


def test_cancelling_a_vacation_under_way_keeps_the_time_it_paused(monday_turn):
    """The time already spent on vacation stays paused; the vacation ends now, and the
    deadline moves back by the time it will not pause any more, never into the past."""
    table, user, traveller = monday_turn
    vacation = declare_vacation(user=user, start=MONDAY + DAY, end=MONDAY + 3 * DAY)
    traveller.move_to(local(2026, 3, 4, 12))  # Wednesday noon: 36 hours of it spent

    cancel_vacation(user=user, vacation_id=vacation.pk)

    # 15 hours of the day ran on Monday before the vacation: 9 are left from now.
    deadline = fresh(table).deadline
    assert deadline == local(2026, 3, 4, 21)
    assert Vacation.objects.get(pk=vacation.pk).end == MONDAY + DAY  # Tuesday stays used
    traveller.move_to(deadline - datetime.timedelta(minutes=1))
    assert sweep() == 0 and timeout_moves(table) == []  # no bot on the return
    traveller.move_to(deadline + datetime.timedelta(seconds=1))
    assert sweep() == 1 and len(timeout_moves(table)) == 1


def test_cancelling_a_vacation_begun_today_keeps_the_hours_it_paused(monday_turn):
    table, user, traveller = monday_turn
    vacation = declare_vacation(user=user, start=MONDAY + DAY, end=MONDAY + 2 * DAY)
    traveller.move_to(local(2026, 3, 3, 15))  # Tuesday, 15:00: its first day

    cancel_vacation(user=user, vacation_id=vacation.pk)

    # Paused since midnight: the 9 hours left of the day run from now.
    assert fresh(table).deadline == local(2026, 3, 4, 0)
    assert not Vacation.objects.exists()  # its only day used was today, given back


def test_a_later_change_keeps_the_time_a_cancelled_vacation_paused(monday_turn):
    table, user, traveller = monday_turn
    vacation = declare_vacation(user=user, start=MONDAY + DAY, end=MONDAY + 3 * DAY)
    traveller.move_to(local(2026, 3, 4, 12))
    cancel_vacation(user=user, vacation_id=vacation.pk)

    # No vacation row says the Wednesday morning was paused; the deadline remembers it.
    declare_vacation(user=user, start=MONDAY + 3 * DAY, end=MONDAY + 4 * DAY)
    assert fresh(table).deadline == local(2026, 3, 4, 21)  # before Thursday: unchanged


# The admin -------------------------------------------------------------------------------


def test_deleting_a_vacation_under_way_in_the_admin_moves_the_deadline(monday_turn, admin_client):
    table, user, traveller = monday_turn
    vacation = declare_vacation(user=user, start=MONDAY + DAY, end=MONDAY + 3 * DAY)
    traveller.move_to(local(2026, 3, 4, 12))

    response = admin_client.post(f"/admin/accounts/vacation/{vacation.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not Vacation.objects.exists()  # its days are given back
    assert fresh(table).deadline == local(2026, 3, 4, 21)  # what it paused stays paused


def test_deleting_vacations_in_bulk_in_the_admin_gives_each_player_their_old_deadline(
    admin_client,
):
    with time_machine.travel(local(2026, 3, 2, 9), tick=False) as traveller:
        tables = [playing_table(move_seconds=24 * 3600) for _ in range(2)]
        users = [seated_user(table, table.turn) for table in tables]
        declared = [
            declare_vacation(user=user, start=MONDAY + DAY, end=MONDAY + DAY) for user in users
        ]
        assert [fresh(table).deadline for table in tables] == [local(2026, 3, 4, 9)] * 2
        traveller.move_to(local(2026, 3, 2, 20))

        response = admin_client.post(
            "/admin/accounts/vacation/",
            {
                "action": "delete_selected",
                "_selected_action": [vacation.pk for vacation in declared],
                "post": "yes",
            },
        )

    assert response.status_code == 302
    assert not Vacation.objects.exists()
    assert [fresh(table).deadline for table in tables] == [local(2026, 3, 3, 9)] * 2


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


@time_machine.travel(datetime.datetime(2026, 1, 5, 9, tzinfo=datetime.UTC), tick=False)
def test_the_profile_page_declares_and_refuses_vacations():
    table = playing_table()
    user = seated_user(table, 0)
    client = client_for(user)
    today = timezone.localdate()
    march = datetime.date(2026, 3, 1)
    declare_vacation(user=user, start=march - 20 * DAY, end=march - DAY)  # 20 days

    response = client.post(
        "/comptes/profil/absences/",
        {"start": march.isoformat(), "end": (march + 14 * DAY).isoformat()},
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
    assert user.vacations.count() == 2
