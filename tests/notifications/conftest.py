"""Fixtures of the reminder tests: an asynchronous table of four players (a day per move,
the first hand dealt by North from a fixed deck), and a stand-in for the task worker."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from accounts.models import Notify
from games.models import Pace, Table
from games.tables import service
from tests.factories import fixed_deck, make_users, seated_user

DAY = 24 * 3600


@pytest.fixture(autouse=True)
def clean_cache():
    """Presence lives in the cache: nobody is connected unless a test says so."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def players(db):
    return make_users(4)


@pytest.fixture
def start_async(players, django_capture_on_commit_callbacks):
    """Start an async table whose first player to act (East) has ``notify``."""

    def start(notify: str = Notify.IMMEDIATELY, *, move_seconds: int = DAY, **fields) -> Table:
        table = service.create_table(
            created_by=players[0], preset="classique", players=dict(enumerate(players))
        )
        Table.objects.filter(pk=table.pk).update(
            pace=Pace.ASYNC, move_seconds=move_seconds, **fields
        )
        with django_capture_on_commit_callbacks(execute=True):
            service.start_table(table_id=table.pk, first_dealer=0, deck=fixed_deck(0))
        table.refresh_from_db()
        user = to_act(table)
        user.notify = notify
        user.save(update_fields=["notify"])
        return table

    return start


def to_act(table: Table):
    table.refresh_from_db()
    return seated_user(table, table.turn)


def run_tasks() -> int:
    """What the worker would run now of the notification tasks: those due, once each."""
    due = DBTaskResult.objects.ready().filter(task_path__startswith="games.notifications.")
    count = 0
    for row in due:
        row.task.call(*row.args_kwargs["args"], **row.args_kwargs["kwargs"])
        row.status = TaskResultStatus.SUCCESSFUL
        row.save(update_fields=["status"])
        count += 1
    return count


def queued(name: str) -> list[DBTaskResult]:
    return list(
        DBTaskResult.objects.filter(
            task_path__startswith="games.notifications.",
            task_path__endswith=f".{name}",
            status=TaskResultStatus.READY,
        )
    )
