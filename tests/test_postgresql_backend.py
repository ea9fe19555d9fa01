"""The PostgreSQL backend (belote_site/postgresql): a kept connection is checked before
reuse without a query to the server, and a connection the server ended, or one left in a
failed transaction, is found unusable, closed and replaced before the next request's
query."""

from __future__ import annotations

import time

import pytest
from django.db import DatabaseError, close_old_connections, connection, connections

from accounts.models import User

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TIMEOUT = 10  # seconds: far more than the server takes to end a connection


@pytest.fixture
def kept():
    """Another connection of the site's settings (health checks on, kept between
    requests), as a request thread of Daphne or the task worker holds it."""
    other = connections.create_connection("default")
    assert other.settings_dict["CONN_HEALTH_CHECKS"]
    other.ensure_connection()
    yield other
    other.close()


def backend_pid(wrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def last_query(pid: int) -> str | None:
    """What the server says the backend ``pid`` ran last (None once it is gone)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row[0] if row else None


def next_request(wrapper) -> None:
    """What Django does between two requests on a kept connection, then the check before
    the first query of the next one."""
    wrapper.close_if_unusable_or_obsolete()
    wrapper.close_if_health_check_failed()


def test_a_healthy_connection_is_checked_without_a_query_to_the_server(kept):
    pid = backend_pid(kept)
    with kept.cursor() as cursor:
        cursor.execute("SELECT 'the last query of this request'")
    for _ in range(3):
        next_request(kept)
        assert kept.connection is not None and kept.health_check_done
    assert last_query(pid) == "SELECT 'the last query of this request'"
    assert backend_pid(kept) == pid  # the same connection served on


def test_a_connection_the_server_ended_is_replaced_before_the_next_query(kept):
    pid = backend_pid(kept)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    # Found out by the socket alone (no query: it could be tried again and again) once the
    # server's last message and the end of the stream reach it.
    give_up = time.monotonic() + TIMEOUT
    while kept.is_usable():
        assert time.monotonic() < give_up, "the ended connection still looks usable"
        time.sleep(0.01)
    assert last_query(pid) is None
    next_request(kept)
    assert kept.connection is None  # closed, not tried
    with kept.cursor() as cursor:  # a new one
        cursor.execute("SELECT count(*) FROM accounts_user")
        assert cursor.fetchone() == (User.objects.count(),)
    assert backend_pid(kept) != pid


def test_a_connection_left_in_a_failed_transaction_is_not_kept(kept):
    kept.set_autocommit(False)
    with pytest.raises(DatabaseError), kept.cursor() as cursor:
        cursor.execute("SELECT 1 / 0")
    assert not kept.is_usable()
    kept.rollback()  # usable again
    assert kept.is_usable()
    kept.rollback()
    kept.set_autocommit(True)


def test_the_site_s_connection_serves_request_after_request(client):
    """The whole round, through Django's request signals on the test client's requests."""
    for _ in range(3):
        close_old_connections()
        assert client.get("/").status_code == 200
    pid = backend_pid(connection)
    close_old_connections()
    assert client.get("/").status_code == 200
    assert backend_pid(connection) == pid
