"""A database made by the code of before the redesign (commit 1215dc4, issue 14) migrates
forward with the code of today, keeps every row, reads back through today's models, and
passes ``belote_verify``.

The fixtures are dumps of real databases built by that code (tests/legacy/build.py says
how): 1215dc4.sql for SQLite, 1215dc4.postgres.sql for PostgreSQL. Each test loads one into
a database of its own and runs ``manage.py`` on it in a subprocess, as an upgrade would.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from django.tasks import Task
from django.utils.module_loading import import_string

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# What the old code stored, read back through today's models (see READ_BACK); the number
# of hands and actions depends on the shuffles, it is the dump's own.
EXPECTED = {
    "users": 9,
    "clubs": 1,
    "memberships": 9,
    "tables": {"finished": 1, "lobby": 2, "playing": 5},
    "games": 7,
    "rating_changes": 4,
    "ratings": 4,
    "tournaments": {"running": 1},
    "matches": 2,
    "notifications": {"read": 1, "unread": 2},
    "vacations": ["hugo"],
    "chloe": "Chloé",
    "club": "Club de la Place",
}

READ_BACK = """
import json
from django.db.models import Count
from accounts.models import Club, Membership, Rating, User, Vacation
from games.models import (
    Action, Game, Hand, Notification, RatingChange, Table, Tournament, TournamentMatch,
)
def by(qs, field):
    return dict(qs.values_list(field).annotate(n=Count("pk")).order_by(field))
print(json.dumps({
    "users": User.objects.count(),
    "clubs": Club.objects.count(),
    "memberships": Membership.objects.count(),
    "tables": by(Table.objects, "status"),
    "games": Game.objects.count(),
    "hands": Hand.objects.count(),
    "actions": Action.objects.count(),
    "rating_changes": RatingChange.objects.count(),
    "ratings": Rating.objects.count(),
    "tournaments": by(Tournament.objects, "status"),
    "matches": TournamentMatch.objects.count(),
    "notifications": {
        "read": Notification.objects.exclude(read_at=None).count(),
        "unread": Notification.objects.filter(read_at=None).count(),
    },
    "vacations": list(Vacation.objects.values_list("user__username", flat=True)),
    "chloe": User.objects.get(username="chloe").display_name,
    "club": Club.objects.get().name,
}))
"""


def manage(database_url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": ""}
    env.pop("DJANGO_SETTINGS_MODULE")
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def upgrade_and_check(database_url: str, rows_before) -> None:
    """Migrate, compare the rows of every old table, read back, verify every log."""
    migrated = manage(database_url, "migrate", "--no-input")
    assert migrated.returncode == 0, migrated.stderr
    before = LEGACY_ROWS[database_url.split(":")[0]]
    after = rows_before()
    # Every row of every old table is still there. Only the migrations' own log grows, and
    # the content types and permissions of the models added since (post_migrate's rows).
    assert after["django_migrations"] > before["django_migrations"]
    grown = ("django_migrations", "django_content_type", "auth_permission")
    for name in grown[1:]:
        assert after[name] >= before[name], name
    assert {**after, **dict.fromkeys(grown, 0)} == {**before, **dict.fromkeys(grown, 0)}
    read = manage(database_url, "shell", "--no-imports", "-c", READ_BACK)
    assert read.returncode == 0, read.stderr
    legacy = LEGACY_ROWS[database_url.split(":")[0]]
    expected = {**EXPECTED, "hands": legacy["games_hand"], "actions": legacy["games_action"]}
    assert json.loads(read.stdout) == expected
    verified = manage(database_url, "belote_verify")
    assert verified.returncode == 0, verified.stderr
    assert "8 tables checked, all match their log" in verified.stdout


LEGACY_ROWS: dict[str, dict[str, int]] = {}


def queued_task_paths(rows: list[tuple[str]]) -> None:
    """Every task the old code queued must still be found by the worker."""
    assert rows
    for (path,) in rows:
        assert isinstance(import_string(path), Task), path


def test_a_sqlite_database_of_before_the_redesign_migrates_and_verifies(tmp_path):
    path = tmp_path / "legacy.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript((HERE / "1215dc4.sql").read_text())
    tables = _sqlite_tables(path)

    def rows() -> dict[str, int]:
        with sqlite3.connect(path) as db:
            return {t: db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}

    LEGACY_ROWS["sqlite"] = rows()
    with sqlite3.connect(path) as db:
        queued_task_paths(db.execute("SELECT task_path FROM django_tasks_database_dbtaskresult"))
    upgrade_and_check(f"sqlite:///{path}", rows)


def _sqlite_tables(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        names = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return sorted(name for (name,) in names if not name.startswith("sqlite_"))


@pytest.mark.postgres
def test_a_postgres_database_of_before_the_redesign_migrates_and_verifies():
    settings = connection.settings_dict
    server = {
        "host": settings["HOST"] or "127.0.0.1",
        "port": settings["PORT"] or 5432,
        "user": settings["USER"],
        "password": settings["PASSWORD"] or None,
    }
    name = f"belote_legacy_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        dump = (HERE / "1215dc4.postgres.sql").read_text()
        # psql's own commands (\restrict) are not SQL; the rest runs as one script.
        script = "\n".join(line for line in dump.splitlines() if not line.startswith("\\"))
        with psycopg.connect(dbname=name, autocommit=True, **server) as db:
            db.execute(script)

        with psycopg.connect(dbname=name, **server) as db:
            listed = db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            tables = sorted(t for (t,) in listed)

        def rows() -> dict[str, int]:
            with psycopg.connect(dbname=name, **server) as db:
                return {t: db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}

        LEGACY_ROWS["postgres"] = rows()
        with psycopg.connect(dbname=name, **server) as db:
            queued_task_paths(
                db.execute("SELECT task_path FROM django_tasks_database_dbtaskresult").fetchall()
            )
        password = f":{server['password']}" if server["password"] else ""
        url = f"postgres://{server['user']}{password}@{server['host']}:{server['port']}/{name}"
        upgrade_and_check(url, rows)
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
