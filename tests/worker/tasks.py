"""Tasks for the worker tests, importable by a worker in another process."""

from django.db import OperationalError, connection
from django.tasks import task


@task()
def echo(value: str) -> str:
    return value


@task(takes_context=True)
def slow_first_time(context) -> int:
    """Waits a minute in the database on its first run (for its connection to be cut
    meanwhile); returns at once on the next."""
    if context.attempt == 1:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(60)")
    return context.attempt


@task(takes_context=True)
def fails_on_the_database(context, times: int) -> int:
    """Fails with a database error on its first ``times`` runs."""
    if context.attempt <= times:
        raise OperationalError("database is locked")
    return context.attempt


@task()
def fails() -> None:
    raise ValueError("a bug")
