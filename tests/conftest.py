"""Shared test setup: Hypothesis profiles and the database-dependent markers.

HYPOTHESIS_PROFILE picks the profile: "dev" (default, quick) or "ci" (more examples,
derandomized so that a CI failure replays identically).
"""

import os
import signal

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings as django_settings
from django.db import connection
from django.utils import translation
from hypothesis import settings

from games.tables import presence

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


class OpenPages:
    """``at_the_table(table, *users)``: the users have the table's page open, their
    sockets counted in the presence cache as the table's websocket counts them
    (games/tables/presence.py), so that a live table does not wait for its players
    (games/tables/attendance.py); ``at_the_table.close(table, *users)``: they closed it;
    ``at_the_table.heartbeat(table, *users)``: their pages are still there.
    The pages still open close when the test ends."""

    def __init__(self) -> None:
        self.opened: list[tuple[int, int]] = []

    def __call__(self, table, *users) -> None:
        for user in users:
            async_to_sync(presence.arrive)(table.pk, user.pk)
            self.opened.append((table.pk, user.pk))

    def heartbeat(self, table, *users) -> None:
        """Their pages speak (every presence.HEARTBEAT seconds): still counted after a
        travel in time longer than presence.TTL."""
        for user in users:
            async_to_sync(presence.renew)(table.pk, user.pk)

    def close(self, table, *users) -> None:
        for user in users:
            self._leave(table.pk, user.pk)

    def close_all(self) -> None:
        while self.opened:
            self._leave(*self.opened[-1])

    def _leave(self, table_id: int, user_id: int) -> None:
        self.opened.remove((table_id, user_id))
        async_to_sync(presence.leave)(table_id, user_id)


@pytest.fixture
def at_the_table():
    pages = OpenPages()
    yield pages
    pages.close_all()
