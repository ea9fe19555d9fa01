"""Turn reminders by email, per the player's preference, each sent at most once.

The issue: "an email when it is your turn and you have not opened the table for a while
(per user preference: immediately, after 1 hour, daily digest, never), and a reminder
before the deadline". Time is travelled (time-machine), tasks are run as the worker would.
"""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from asgiref.sync import async_to_sync
from django.core import mail
from django.core.management import call_command
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notify
from accounts.vacations import declare_vacation
from games import notifications
from games.models import Notification, Pace, ReminderLog, Table
from games.tables import presence, service
from tests.factories import make_table, make_users
from tests.notifications.conftest import queued, run_tasks, to_act

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 3, 2, 9, 0, tzinfo=datetime.UTC)


@pytest.fixture
def traveller():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def later(traveller, **delta) -> None:
    traveller.move_to(timezone.now() + datetime.timedelta(**delta))


def turn_emails(table: Table) -> list:
    return [m for m in mail.outbox if f"la table n° {table.pk}" in m.subject]


# Immediately -----------------------------------------------------------------------------


def test_immediately_sends_one_email_at_once_with_links(start_async, traveller):
    table = start_async(Notify.IMMEDIATELY)
    user = to_act(table)

    run_tasks()

    (message,) = mail.outbox
    assert message.to == [user.email]
    assert message.subject == f"[Belote] À vous de jouer à la table n° {table.pk}"
    assert f"/tables/{table.pk}/" in message.body
    (unsubscribe,) = re.findall(r"https?://\S+/comptes/desabonner/\S+/", message.body)
    assert message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe}>"
    ((html, kind),) = message.alternatives
    assert kind == "text/html" and unsubscribe in html


def test_the_email_is_in_the_players_language(start_async, traveller):
    table = start_async(Notify.IMMEDIATELY)
    user = to_act(table)
    user.language = "en"
    user.save(update_fields=["language"])

    run_tasks()

    (message,) = mail.outbox
    assert message.subject == f"[Belote] Your turn at table no. {table.pk}"


def test_running_the_task_twice_sends_one_email(start_async, traveller):
    table = start_async(Notify.IMMEDIATELY)

    notifications.notify_turn_task.call(table.pk, table.version)
    notifications.notify_turn_task.call(table.pk, table.version)

    assert len(mail.outbox) == 1
    assert Notification.objects.filter(table=table).count() == 1


def test_the_database_refuses_a_second_log_of_the_same_reminder(start_async, traveller):
    table = start_async(Notify.IMMEDIATELY)
    run_tasks()
    user = to_act(table)

    with pytest.raises(IntegrityError):
        ReminderLog.objects.create(
            user=user, table=table, version=table.version, kind=ReminderLog.Kind.TURN
        )


# After an hour ---------------------------------------------------------------------------


def test_hourly_sends_nothing_before_the_hour_then_once(start_async, traveller):
    table = start_async(Notify.HOURLY)
    run_tasks()
    assert mail.outbox == []

    later(traveller, minutes=59)
    run_tasks()
    assert mail.outbox == []

    later(traveller, minutes=2)
    assert run_tasks() == 1
    assert len(turn_emails(table)) == 1

    later(traveller, hours=3)
    notifications.hourly_reminder_task.call(table.pk, table.version)
    assert len(turn_emails(table)) == 1


def test_hourly_sends_nothing_to_a_player_who_opened_the_table(start_async, traveller):
    table = start_async(Notify.HOURLY)
    run_tasks()
    later(traveller, minutes=20)
    client = Client()
    client.force_login(to_act(table))
    assert client.get(reverse("games:table", args=[table.pk])).status_code == 200

    later(traveller, minutes=45)
    run_tasks()

    assert turn_emails(table) == []


def test_hourly_sends_nothing_once_the_move_is_in(start_async, traveller):
    table = start_async(Notify.HOURLY)
    run_tasks()
    later(traveller, minutes=30)
    service.submit(
        table_id=table.pk, actor=to_act(table), action="pass", expected_version=table.version
    )

    later(traveller, minutes=31)
    notifications.hourly_reminder_task.call(table.pk, table.version)

    assert turn_emails(table) == []


# Daily digest ----------------------------------------------------------------------------


def test_daily_sends_one_digest_a_day_listing_the_waiting_tables(start_async, traveller):
    first = start_async(Notify.DAILY)
    user = to_act(first)
    run_tasks()
    assert mail.outbox == []

    call_command("belote_digest", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("belote_digest", stdout=open("/dev/null", "w"))  # noqa: SIM115

    (digest,) = mail.outbox
    assert digest.to == [user.email]
    assert digest.subject == "[Belote] Une table vous attend"
    assert f"Table n° {first.pk}" in digest.body
    assert "desabonner" in digest.extra_headers["List-Unsubscribe"]

    later(traveller, days=1)
    assert notifications.send_digests() == 1
    assert len(mail.outbox) == 2


def test_daily_sends_nothing_when_no_table_waits(players, traveller):
    for user in players:
        user.notify = Notify.DAILY
        user.save(update_fields=["notify"])

    assert notifications.send_digests() == 0
    assert mail.outbox == []


# Never -----------------------------------------------------------------------------------


def test_never_sends_no_email_but_notifies_in_the_app(start_async, traveller):
    table = start_async(Notify.NEVER)
    user = to_act(table)
    run_tasks()
    later(traveller, hours=23)
    run_tasks()
    notifications.send_digests()

    assert mail.outbox == []
    (notification,) = Notification.objects.filter(user=user)
    assert notification.text == f"À vous de jouer à la table n° {table.pk}"
    assert notification.read_at is None


# Before the deadline ---------------------------------------------------------------------


def test_deadline_reminder_two_hours_before_once(start_async, traveller):
    table = start_async(Notify.DAILY)  # no turn email: only the deadline reminder
    deadline = notifications.table_deadline(table)
    run_tasks()
    (reminder,) = queued("deadline_reminder_task")
    assert reminder.run_after == deadline - datetime.timedelta(hours=2)

    traveller.move_to(deadline - datetime.timedelta(hours=2, minutes=1))
    run_tasks()
    assert mail.outbox == []

    traveller.move_to(deadline - datetime.timedelta(hours=1, minutes=59))
    run_tasks()
    notifications.deadline_reminder_task.call(table.pk, table.version)

    (message,) = mail.outbox
    assert "votre temps est bientôt écoulé" in message.subject


def test_deadline_reminder_at_half_time_on_a_short_clock(start_async, traveller):
    table = start_async(Notify.HOURLY, move_seconds=3600)
    run_tasks()

    (reminder,) = queued("deadline_reminder_task")
    assert reminder.run_after == notifications.table_deadline(table) - datetime.timedelta(
        minutes=30
    )


def test_a_reminder_queued_for_a_deadline_a_vacation_moved_stays_silent(
    start_async, traveller, django_capture_on_commit_callbacks
):
    """The reminder goes two hours before the deadline the player has, not the one
    they had when it was queued."""
    table = start_async(Notify.DAILY)
    old = notifications.table_deadline(table)
    run_tasks()
    user = to_act(table)
    with django_capture_on_commit_callbacks(execute=True):
        # The clock stands still all of Monday (Paris): the whole day per move is left.
        declare_vacation(user=user, start=timezone.localdate(), end=timezone.localdate())
    table.refresh_from_db()
    new = notifications.table_deadline(table)
    assert new - old == datetime.timedelta(hours=14)

    traveller.move_to(old - datetime.timedelta(hours=1, minutes=59))
    run_tasks()  # the old reminder; the turn task queues the new deadline's
    assert mail.outbox == []
    assert not ReminderLog.objects.exists()
    (reminder,) = queued("deadline_reminder_task")
    assert reminder.run_after == new - datetime.timedelta(hours=2)

    traveller.move_to(new - datetime.timedelta(hours=1, minutes=59))
    run_tasks()
    (message,) = mail.outbox
    assert "votre temps est bientôt écoulé" in message.subject


def test_a_reminder_run_early_sends_nothing(start_async, traveller):
    table = start_async(Notify.DAILY)
    run_tasks()

    notifications.deadline_reminder_task.call(table.pk, table.version)

    assert mail.outbox == []
    assert not ReminderLog.objects.exists()


def test_no_deadline_reminder_for_never(start_async, traveller):
    table = start_async(Notify.NEVER)
    run_tasks()
    traveller.move_to(notifications.table_deadline(table) - datetime.timedelta(hours=1))
    notifications.deadline_reminder_task.call(table.pk, table.version)

    assert mail.outbox == []


# Who is never reminded -------------------------------------------------------------------


def test_no_notification_while_a_bot_is_to_act(traveller, django_capture_on_commit_callbacks):
    (human,) = make_users(1)
    table = make_table(players={0: human}, bots={1: "random", 2: "random", 3: "random"})
    Table.objects.filter(pk=table.pk).update(pace=Pace.ASYNC, move_seconds=86400)
    with django_capture_on_commit_callbacks(execute=True):
        service.start_table(table_id=table.pk, first_dealer=0)

    assert Table.objects.get(pk=table.pk).turn != 0  # a bot speaks first
    assert queued("notify_turn_task") == []
    notifications.notify_turn_task.call(table.pk, Table.objects.get(pk=table.pk).version)
    assert not Notification.objects.exists()


def test_live_tables_send_nothing(players, traveller, django_capture_on_commit_callbacks):
    table = make_table(players=dict(enumerate(players)))
    for user in players:
        user.notify = Notify.IMMEDIATELY
        user.save(update_fields=["notify"])
    with django_capture_on_commit_callbacks(execute=True):
        service.start_table(table_id=table.pk, first_dealer=0)

    table.refresh_from_db()
    notifications.notify_turn_task.call(table.pk, table.version)
    run_tasks()

    assert mail.outbox == []
    assert not Notification.objects.exists()


# Nobody with the table open is emailed -----------------------------------------------------


def opens(table: Table, user) -> None:
    """The user's page of the table connects (games/tables/presence.py, as the websocket does)."""
    async_to_sync(presence.arrive)(table.pk, user.pk)


def test_no_turn_email_to_a_player_who_has_the_table_open(start_async, traveller):
    table = start_async(Notify.IMMEDIATELY)
    user = to_act(table)
    opens(table, user)

    run_tasks()

    assert mail.outbox == []
    assert Notification.objects.filter(user=user, table=table).exists()  # the bell still


def test_no_deadline_reminder_to_a_player_who_has_the_table_open(start_async, traveller):
    table = start_async(Notify.DAILY)
    run_tasks()

    traveller.move_to(notifications.table_deadline(table) - datetime.timedelta(hours=1))
    opens(table, to_act(table))
    run_tasks()

    assert mail.outbox == []


def test_the_digest_leaves_out_the_tables_the_player_has_open(start_async, traveller):
    first = start_async(Notify.DAILY)
    second = start_async(Notify.DAILY)
    user = to_act(first)
    assert to_act(second) == user
    opens(first, user)

    assert notifications.send_digests() == 1

    (digest,) = mail.outbox
    assert f"Table n° {second.pk}" in digest.body
    assert f"Table n° {first.pk} " not in digest.body


def test_no_digest_while_every_waiting_table_is_open_and_one_later(start_async, traveller):
    table = start_async(Notify.DAILY)
    user = to_act(table)
    opens(table, user)

    assert notifications.send_digests() == 0
    async_to_sync(presence.leave)(table.pk, user.pk)
    later(traveller, minutes=5)
    assert notifications.send_digests() == 1
