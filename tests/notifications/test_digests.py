"""The daily digest goes by itself: the worker's periodic sweep queues it once a day, once
DIGEST_HOUR (8 by default, the site's time zone) has passed. No cron is needed.

Real commits (transaction=True) and the real worker (``db_worker --batch``), as in
production; time is travelled.
"""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from accounts.models import Notify
from games import notifications
from games.models import ReminderLog
from tests.notifications.conftest import DAY
from tests.notifications.mailers import RefusingBackend, mailer
from tests.timing.helpers import run_worker

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("keep_signal_handlers"),
]


def local(*moment) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime(*moment))


def digests() -> list:
    return [m for m in mail.outbox if m.subject == "[Belote] Une table vous attend"]


@pytest.fixture
def traveller():
    with time_machine.travel(local(2026, 3, 2, 7, 0), tick=False) as traveller:
        yield traveller


@pytest.fixture
def waiting(start_async, traveller):
    """A table waits for a player who chose the digest (three days per move: no timeout
    on the way); the worker's sweep cycle is started, as scripts/run-dev does."""
    table = start_async(Notify.DAILY, move_seconds=3 * DAY)
    call_command("belote_sweep", "--schedule", verbosity=0)
    return table


def test_the_sweep_sends_the_digest_once_a_day_after_the_hour(waiting, traveller):
    traveller.move_to(local(2026, 3, 2, 7, 59))
    run_worker()
    assert digests() == []  # before 8:00, nothing

    traveller.move_to(local(2026, 3, 2, 8, 1))
    run_worker()
    (digest,) = digests()
    assert f"Table n° {waiting.pk}" in digest.body

    traveller.move_to(local(2026, 3, 2, 8, 3))
    run_worker()  # another sweep the same day
    traveller.move_to(local(2026, 3, 2, 20, 0))
    run_worker()
    assert len(digests()) == 1

    traveller.move_to(local(2026, 3, 3, 8, 1))
    run_worker()
    assert len(digests()) == 2  # the next day's


def test_the_hour_of_the_digest_is_a_setting(waiting, traveller, settings):
    settings.DIGEST_HOUR = 20

    traveller.move_to(local(2026, 3, 2, 19, 59))
    assert not notifications.schedule_digests()
    traveller.move_to(local(2026, 3, 2, 20, 0))
    assert notifications.schedule_digests()
    assert not notifications.schedule_digests()  # one is queued already
    run_worker()

    assert len(digests()) == 1


def test_a_digest_the_mail_server_refused_goes_with_a_later_sweep_once(
    waiting, traveller, settings
):
    working = settings.MAILERS
    settings.MAILERS = mailer(RefusingBackend)
    traveller.move_to(local(2026, 3, 2, 8, 1))
    run_worker()
    assert digests() == []
    assert not ReminderLog.objects.exists()  # the claim went with the failure

    settings.MAILERS = working
    traveller.move_to(local(2026, 3, 2, 8, 3))
    run_worker()
    traveller.move_to(local(2026, 3, 2, 8, 5))
    run_worker()

    assert len(digests()) == 1
    assert ReminderLog.objects.filter(kind=ReminderLog.Kind.DIGEST).count() == 1


def test_belote_digest_still_sends_it_by_hand(waiting, traveller):
    call_command("belote_digest", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    traveller.move_to(local(2026, 3, 2, 8, 1))
    run_worker()  # the sweep's digest finds it sent

    assert len(digests()) == 1
