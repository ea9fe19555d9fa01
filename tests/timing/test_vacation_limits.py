"""A vacation's dates are bounded, and no stored vacation, however far or long, can stop
the clock arithmetic, another player's move, the worker or the sweep.

Issue 13: "`POST /comptes/profil/absences/` with `start=9999-12-30, end=9999-12-31` is
accepted. From then on, every move that passes the turn to that player crashes
(`OverflowError` in `games/tables/clock.py`). [...] Bound the dates in the form and in the
service. Make the clock arithmetic safe at the edges. No single user's stored data may
break another player's move. Also give existing bad rows a way out."
"""

from __future__ import annotations

import datetime
import importlib

import pytest
import time_machine
from django.apps import apps
from django.core.management import call_command
from django.utils import timezone
from django.utils.html import escape
from django_tasks_db.models import DBTaskResult

from accounts.models import Notify, User, Vacation
from accounts.vacations import VacationError, declare_vacation
from games import rules as engine
from games.models import Pace, Table
from games.tables.clock import clock_deadline, vacation_end
from games.tables.selectors import hand_state
from tests.factories import make_user, seated_user
from tests.tables.helpers import client_for
from tests.timing.helpers import after, fresh, playing_table, run_worker, timeout_moves

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)
HOUR = datetime.timedelta(hours=1)
FAR = (datetime.date(9999, 12, 30), datetime.date(9999, 12, 31))  # the probe's dates


def local(*moment) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime(*moment))


@pytest.fixture(autouse=True)
def tuesday():
    """Tuesday 3 March 2026, 10:00 in Paris, the clock standing still."""
    with time_machine.travel(local(2026, 3, 3, 10), tick=False) as traveller:
        yield traveller


def declare(client, start: datetime.date, end: datetime.date, **extra):
    data = {"start": start.isoformat(), "end": end.isoformat()}
    return client.post("/comptes/profil/absences/", data, **extra)


def next_to_act(table) -> int:
    """The seat that gets the turn when the player to act passes."""
    return engine.apply(hand_state(table), engine.Action.parse("pass")).turn


def pass_through_the_page(table):
    """The player to act passes, through POST /tables/<id>/jouer/ as the board sends it."""
    client = client_for(seated_user(table, table.turn))
    data = {"action": "pass", "version": table.version}
    return client.post(f"/tables/{table.pk}/jouer/", data, headers={"hx-request": "true"})


# The form and the service refuse what the clock cannot honour ----------------------------


def test_the_far_future_dates_of_the_probe_are_refused_with_a_message():
    user = make_user()

    response = declare(client_for(user), *FAR)

    assert response.status_code == 422
    assert escape("Une absence ne peut pas commencer plus de 365 jours à l'avance.") in (
        response.text
    )
    assert not Vacation.objects.exists()


def test_a_start_a_year_ahead_is_the_last_accepted():
    user = make_user()
    today = timezone.localdate()
    client = client_for(user)

    assert declare(client, today + 366 * DAY, today + 366 * DAY).status_code == 422
    assert declare(client, today + 365 * DAY, today + 365 * DAY).status_code == 302
    assert user.vacations.count() == 1


def test_an_absence_longer_than_the_days_of_a_year_is_refused_across_new_year():
    """40 days from 10 December: 22 days one year and 18 the next, each under the yearly
    allowance, but one absence is at most VACATION_DAYS_PER_YEAR days."""
    user = make_user()
    start = datetime.date(2026, 12, 10)

    response = declare(client_for(user), start, start + 39 * DAY)

    assert response.status_code == 422
    assert "Une absence dure au plus 30 jours." in response.text
    assert not Vacation.objects.exists()


def test_the_refusal_is_in_english_for_an_english_player():
    user = make_user(language="en")

    response = declare(client_for(user), *FAR)

    assert "An absence cannot start more than 365 days ahead." in response.text


def test_the_date_fields_say_their_bounds_to_the_browser():
    html = client_for(make_user()).get("/comptes/profil/").text

    assert 'type="date" name="start" min="2026-03-03" max="2027-03-03"' in html


@pytest.mark.parametrize(
    "start, end, message",
    [
        (*FAR, "Une absence ne peut pas commencer plus de 365 jours à l'avance."),
        (datetime.date(2026, 3, 10), datetime.date(2026, 4, 30), "Une absence dure au plus"),
    ],
)
def test_the_service_refuses_them_too(start, end, message):
    with pytest.raises(VacationError) as refused:
        declare_vacation(user=make_user(), start=start, end=end)

    assert refused.value.message.startswith(message)
    assert not Vacation.objects.exists()


# Rows the limits would refuse, written straight into the database ------------------------

BAD_ROWS = {
    "year-9999": FAR,
    "until-the-end-of-time": (datetime.date(2026, 3, 3), datetime.date.max),
    "all-of-time": (datetime.date.min, datetime.date.max),
    "last-day": (datetime.date.max, datetime.date.max),
}


@pytest.fixture(params=list(BAD_ROWS), ids=list(BAD_ROWS))
def bad_row(request):
    """Write the vacation row for ``user``, bypassing the form and the service."""
    start, end = BAD_ROWS[request.param]

    def write(user) -> Vacation:
        return Vacation.objects.create(user=user, start=start, end=end)

    write.dates = (start, end)
    return write


def test_the_clock_arithmetic_never_overflows(bad_row):
    user = make_user()
    bad_row(user)
    now = timezone.now()

    deadline = clock_deadline(user.pk, now, 3600)

    # A stored absence stops a clock for at most what the service lets one last.
    assert now + HOUR <= deadline <= now + HOUR + 31 * DAY
    vacation_end(user.pk, now)


def test_overlapping_rows_pause_the_clock_once():
    user = make_user()
    today = timezone.localdate()
    for _ in range(3):
        Vacation.objects.create(user=user, start=today, end=today + DAY)

    deadline = clock_deadline(user.pk, timezone.now(), 3600)

    assert deadline == local(2026, 3, 5, 1)  # two days paused from midnight, then an hour


def test_an_opponents_move_passes_the_turn_to_the_player_with_a_bad_row(bad_row):
    table = playing_table()
    absent = seated_user(table, next_to_act(table))
    bad_row(absent)

    response = pass_through_the_page(table)

    assert response.status_code == 200
    table = fresh(table)
    assert table.version == 2 and seated_user(table, table.turn) == absent
    assert timezone.now() + HOUR <= table.deadline <= timezone.now() + HOUR + 31 * DAY


def test_the_player_with_the_bad_row_can_still_cancel_it(bad_row):
    table = playing_table()
    absent = seated_user(table, table.turn)
    vacation = bad_row(absent)

    response = client_for(absent).post(
        f"/comptes/profil/absences/{vacation.pk}/annuler/", follow=True
    )

    assert response.status_code == 200
    assert "Votre absence est annulée." in response.text
    assert not Vacation.objects.filter(pk=vacation.pk, end__gt=timezone.localdate()).exists()
    assert fresh(table).deadline <= timezone.now() + HOUR


def test_the_admin_lists_and_deletes_a_bad_row(bad_row, admin_client):
    table = playing_table()
    vacation = bad_row(seated_user(table, table.turn))

    assert admin_client.get("/admin/accounts/vacation/").status_code == 200
    for year in (vacation.start.year, vacation.end.year):  # the date hierarchy's links
        drill_down = admin_client.get(f"/admin/accounts/vacation/?start__year={year}")
        assert drill_down.status_code in (200, 302)  # the rows, or the list again
    assert admin_client.get(f"/admin/accounts/vacation/{vacation.pk}/change/").status_code == 200
    response = admin_client.post(f"/admin/accounts/vacation/{vacation.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not Vacation.objects.exists()
    assert fresh(table).deadline <= timezone.now() + HOUR


def test_a_deadline_stored_in_the_far_future_does_not_break_a_change_of_vacations():
    table = playing_table()
    user = seated_user(table, table.turn)
    far = timezone.make_aware(datetime.datetime(9999, 12, 30))
    Table.objects.filter(pk=table.pk).update(deadline=far)
    today = timezone.localdate()

    declare_vacation(user=user, start=today + DAY, end=today + DAY)

    # The vacation's day, and no more than what a removed vacation could have paused.
    deadline = fresh(table).deadline
    assert timezone.now() + HOUR + DAY <= deadline <= timezone.now() + HOUR + 33 * DAY


# The worker and the sweep -----------------------------------------------------------------


def tasks(status: str):
    return DBTaskResult.objects.filter(status=status)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("keep_signal_handlers")
def test_the_worker_plays_the_bots_up_to_the_player_with_a_bad_row_and_the_sweep_times_out(
    bad_row,
):
    """Three bots and one human who is notified at once: the bots' moves, the turn
    notice, the deadline and the sweep all run, none fails."""
    human = make_user(notify=Notify.IMMEDIATELY)
    bad_row(human)
    table = playing_table(players={0: human}, bots={1: "random", 2: "random", 3: "random"})
    assert table.turn == 3  # a bot, right of the dealer

    for _ in range(4):
        run_worker()
    table = fresh(table)

    assert table.turn == 0 and table.deadline is not None
    assert not tasks("FAILED").exists()
    with after(table.deadline):
        call_command("belote_sweep", verbosity=0)
        run_worker()
    assert len(timeout_moves(table)) == 1
    assert not tasks("FAILED").exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("keep_signal_handlers")
def test_the_sweep_does_not_stall_on_a_bad_row():
    """The sweep's expiry of a passed deadline re-reads the clock (a vacation may have
    been declared meanwhile): a bad row there must not make it fail every minute."""
    table = playing_table(pace=Pace.ASYNC)
    Vacation.objects.create(user=seated_user(table, table.turn), start=FAR[0], end=FAR[1])
    DBTaskResult.objects.all().delete()

    with after(table.deadline):
        call_command("belote_sweep", "--schedule", verbosity=0)
        call_command("belote_sweep", verbosity=0)

    assert len(timeout_moves(table)) == 1


# Rows written before the limits ------------------------------------------------------------


def test_the_migration_removes_or_shortens_the_rows_out_of_bounds():
    migration = importlib.import_module("accounts.migrations.0007_vacation_bounds")
    users = [make_user() for _ in range(5)]
    today = timezone.localdate()
    rows = [
        (today + 10 * DAY, today + 12 * DAY),  # fine: kept as it is
        FAR,  # starts too far ahead: removed
        (today, datetime.date.max),  # too long: its first 30 days are kept
        (today + 365 * DAY, today + 365 * DAY),  # the last start allowed: kept
        (today - 400 * DAY, datetime.date(3000, 1, 1)),  # too long, and over: kept short
    ]
    Vacation.objects.bulk_create(
        Vacation(user=user, start=start, end=end)
        for user, (start, end) in zip(users, rows, strict=True)
    )

    migration.bound_vacations(apps, None)

    left = dict(Vacation.objects.values_list("user_id", "end"))
    assert left == {
        users[0].pk: today + 12 * DAY,
        users[2].pk: today + 29 * DAY,
        users[3].pk: today + 365 * DAY,
        users[4].pk: today - 371 * DAY,
    }
    assert User.objects.count() == 5
