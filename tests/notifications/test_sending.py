"""How a reminder email is sent: its ``ReminderLog`` row is claimed and committed first,
the email goes after, with no transaction open (SQLite's write lock is not held during
the SMTP round trip); a failed send gives the claim back, and the next try sends once.

Real commits (transaction=True): a transaction open during the send would show.
"""

from __future__ import annotations

import smtplib

import pytest
import time_machine
from django.core import mail

from accounts.models import Notify
from games import notifications
from games.models import ReminderLog
from tests.notifications.conftest import run_tasks
from tests.notifications.mailers import RefusingBackend, WatchingBackend, mailer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel("2026-03-02 09:00Z", tick=False):
        yield


def test_the_email_goes_after_its_log_row_is_committed(start_async, settings):
    settings.MAILERS = mailer(WatchingBackend)
    WatchingBackend.seen.clear()
    start_async(Notify.IMMEDIATELY)

    run_tasks()

    assert len(mail.outbox) == 1
    assert WatchingBackend.seen == [(False, 1)]  # no transaction open; the row was there


def test_a_failed_send_leaves_no_log_row_and_the_next_try_sends_once(start_async, settings):
    working = settings.MAILERS
    table = start_async(Notify.IMMEDIATELY)
    settings.MAILERS = mailer(RefusingBackend)

    with pytest.raises(smtplib.SMTPServerDisconnected):
        notifications.notify_turn_task.call(table.pk, table.version)
    assert not ReminderLog.objects.exists()

    settings.MAILERS = working
    notifications.notify_turn_task.call(table.pk, table.version)
    notifications.notify_turn_task.call(table.pk, table.version)

    assert len(mail.outbox) == 1
    assert ReminderLog.objects.count() == 1
