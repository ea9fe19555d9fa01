"""Helpers of the timing tests: travel past a deadline, count the timeouts, run the worker."""

from __future__ import annotations

import datetime

import time_machine
from django.core.management import call_command
from django.test import override_settings

from games.models import Action, Pace, Table
from games.tables import service
from tests.factories import fixed_deck, make_table, make_users


def after(moment: datetime.datetime, seconds: float = 1):
    """Travel (clock stopped) to ``seconds`` after ``moment``."""
    return time_machine.travel(moment + datetime.timedelta(seconds=seconds), tick=False)


def fresh(table: Table) -> Table:
    table.refresh_from_db()
    return table


def timeout_moves(table: Table) -> list[Action]:
    return list(table.actions.filter(source=Action.Source.TIMEOUT).order_by("seq"))


def run_worker() -> None:
    with override_settings(DEBUG=False):
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)


def playing_table(*, pace: str = Pace.ASYNC, move_seconds: int = 3600, **seats) -> Table:
    """A started table (four new users unless ``players``/``bots``), at ``pace``."""
    if not seats:
        seats = {"players": dict(enumerate(make_users(4)))}
    table = make_table(**seats)
    Table.objects.filter(pk=table.pk).update(pace=pace, move_seconds=move_seconds)
    service.start_table(table_id=table.pk, first_dealer=0, deck=fixed_deck(table.pk))
    return fresh(table)
