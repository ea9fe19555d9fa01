"""Another process on the test database, as the task worker or a Daphne server is.

pytest-django's test database is a file on SQLite (belote_site/settings/test.py) and the
``test_`` database on PostgreSQL: another process opens it by ``DATABASE_URL``. Only what
a ``transaction=True`` test (or ``transactional_db``) commits is there to see.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    """The URL of the test database, for another process (dj-database-url)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        assert not connection.is_in_memory_db(), "another process cannot open it"
        return f"sqlite:///{db['NAME']}"
    if connection.vendor == "postgresql":
        auth = quote(db.get("USER") or "", safe="")
        if db.get("PASSWORD"):
            auth += ":" + quote(db["PASSWORD"], safe="")
        host = quote(db.get("HOST") or "localhost", safe="")
        port = db.get("PORT") or 5432
        return f"postgres://{auth}@{host}:{port}/{quote(db['NAME'], safe='')}"
    pytest.fail(f"no URL for the database engine {db['ENGINE']}")


def process_env() -> dict[str, str]:
    """The environment of a process of the site on the test database (test settings, the
    same REDIS_URL if any, Django's async checks on as in production)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "belote_site.settings.test",
        "DATABASE_URL": database_url(),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def run_manage(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``manage.py *args`` in another process (``env`` over ``process_env()``), as an
    operator or a monitor runs it."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**process_env(), **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def run_python(code: str, env: dict | None = None) -> str:
    """Run ``code`` in ``manage.py shell`` in another process (``env`` over
    ``process_env()``); its output."""
    done = run_manage("shell", "--no-startup", "-c", code, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@contextlib.contextmanager
def daphne_server(log_path: Path, *options: str, env: dict | None = None) -> Iterator[str]:
    """A Daphne process serving the site on a free port of 127.0.0.1, with ``options``
    (``--proxy-headers``, say) and ``env`` over ``process_env()``; yields its base URL.
    Whatever went wrong in the server (a traceback, a refused websocket) is printed after."""
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", "0", *options]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, "belote_site.asgi:application"],
            cwd=ROOT,
            env={**process_env(), **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
        )

    def log_text() -> str:
        return log_path.read_text(errors="replace")

    try:
        deadline = time.monotonic() + 30
        port = None
        while port is None:
            found = re.search(r"Listening on TCP address 127\.0\.0\.1:(\d+)", log_text())
            if found:
                port = int(found.group(1))
            elif process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Daphne did not start:\n{log_text()}", pytrace=False)
            else:
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        print(log_text()[-5000:])
