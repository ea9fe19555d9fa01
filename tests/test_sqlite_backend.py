"""The SQLite backend of the embedded default (belote_site/sqlite): a transaction waits for
another writer's lock and goes on once it is free; after the busy timeout it fails as
Django's backend does, with nothing written."""

import sqlite3
import threading
from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection, transaction

from accounts.models import User

pytestmark = [
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's write lock"),
    # Real transactions: an ordinary django_db test runs inside one already.
    pytest.mark.django_db(transaction=True),
]


@contextmanager
def another_writer():
    """Another connection to the database file, holding its write lock (as the task
    worker does during a bot's move) until the block ends or ``release`` is called."""
    other = sqlite3.connect(
        connection.settings_dict["NAME"], isolation_level=None, check_same_thread=False
    )
    other.execute("BEGIN IMMEDIATE")
    released = threading.Event()

    def release() -> None:
        if not released.is_set():
            released.set()
            other.execute("ROLLBACK")

    try:
        yield release
    finally:
        release()
        other.close()


def busy_timeout() -> int:
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        return cursor.fetchone()[0]


def test_a_transaction_waits_for_the_other_writer_then_commits():
    with another_writer() as release:
        # The other writer finishes a moment later, from another thread.
        threading.Timer(0.2, release).start()
        with transaction.atomic():
            User.objects.create_user(username="waited", email="waited@example.org")

    assert User.objects.filter(username="waited").exists()
    assert busy_timeout() == 5000  # SQLite's own wait again for autocommit statements


@pytest.fixture
def short_timeout():
    """A busy timeout of 0.1 s for this test's connection; the next test opens a new one
    with the settings' timeout."""
    options = connection.settings_dict["OPTIONS"]
    before = options.copy()
    options["timeout"] = 0.1
    yield
    options.clear()
    options.update(before)
    connection.close()


def test_a_lock_held_past_the_timeout_fails_as_locked_with_nothing_written(short_timeout):
    refused = pytest.raises(OperationalError, match="database is locked")
    with another_writer(), refused, transaction.atomic():
        User.objects.create_user(username="refused", email="refused@example.org")

    assert not User.objects.filter(username="refused").exists()
    assert busy_timeout() == 100
