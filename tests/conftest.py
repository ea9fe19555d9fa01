"""Shared test setup: Hypothesis profiles and the database-dependent markers.

HYPOTHESIS_PROFILE picks the profile: "dev" (default, quick) or "ci" (more examples,
derandomized so that a CI failure replays identically).
"""

import os
import signal

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.utils import translation
from hypothesis import settings

settings.register_profile("dev", max_examples=100)
settings.register_profile(
    "ci",
    max_examples=500,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_collection_modifyitems(config, items):
    """Skip tests marked ``postgres`` unless the suite runs on PostgreSQL."""
    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL=postgres://...)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _french_again():
    """A request activates its user's language in the thread and leaves it there (the
    next request activates its own): a test that rendered a page in English must not
    leave the following test, which may render outside any request, in English."""
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_memos():
    """Row ids and fixed decks come again from test to test: no memo of a table version
    (games/tables/memo.py) may outlive its test."""
    from games.tables import memo

    memo.clear_all()
    yield
    memo.clear_all()


@pytest.fixture
def keep_signal_handlers():
    """db_worker installs its own SIGINT/SIGTERM handlers; give pytest its own back."""
    signals = [signal.SIGINT, signal.SIGTERM, signal.SIGQUIT]
    saved = {sig: signal.getsignal(sig) for sig in signals}
    yield
    for sig, handler in saved.items():
        signal.signal(sig, handler)


@pytest.fixture
def at_the_table():
    """``at_the_table(table, *users)``: the users have the table's page open, their
    sockets counted in the presence cache as the table's websocket counts them
    (games/tables/presence.py), so that a live table does not wait for its players
    (games/tables/attendance.py). Their pages close when the test ends."""
    from asgiref.sync import async_to_sync

    from games.tables import presence

    opened = []

    def open_pages(table, *users) -> None:
        for user in users:
            async_to_sync(presence.arrive)(table.pk, user.pk)
            opened.append((table.pk, user.pk))

    yield open_pages
    for table_id, user_id in opened:
        async_to_sync(presence.leave)(table_id, user_id)
