"""How long a move waits for SQLite's write lock while bots play elsewhere.

On a throwaway SQLite file (WAL, immediate transactions, as in the settings), two writer
processes play the bots of ``--bot-tables`` (100) tables through
``games.tables.service.play_bot_move``, one move per table every second (the task worker of a
busy evening). Meanwhile this process times ``--writes`` (1000) small write transactions
(``transaction.atomic()`` and a one-row update of another table, as a player's move
begins), 10 ms apart, and prints their p50 / p90 / p99 / max and how many waited more
than 3 ms: nearly all of a longer time is the wait for the lock, which a bot's move holds
for a millisecond or two.

Twice: with Django's own SQLite backend, whose waiting connection sleeps in SQLite's busy
handler (1, 2, 5, 10, 15, 20 ms... between tries), then with ours (belote_site/sqlite:
the transaction's ``BEGIN IMMEDIATE`` tried again every 0.2 to 2 ms). The writers use the
same backend as the timed process.

Run it as ``python bench/lock_bench.py [--writes N] [--bot-tables N]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "belote_site.settings.test"

ENGINES = {
    "Django's sqlite3 backend": "django.db.backends.sqlite3",
    "belote_site.sqlite": "belote_site.sqlite",
}
WRITERS = 2
SLOW_MS = 3.0


def setup_django(engine: str | None = None) -> None:
    """Django on the SQLite database of DATABASE_URL (or the test settings' default),
    with ``engine`` as its backend, chosen before any connection is made."""
    os.environ.pop("REDIS_URL", None)  # nobody listens: no broadcast to send
    import django
    from django.conf import settings

    if engine:
        settings.DATABASES["default"]["ENGINE"] = engine
    django.setup()


def run_writer(args) -> int:
    """Play the bots of ``--tables`` as live_bench.py's bot processes do, a move per table
    every second, on the backend ``--engine``."""
    setup_django(args.engine)
    from live_bench import run_bots  # this script's folder is on sys.path

    args.bot_interval = 1.0
    return run_bots(args)


def prepare(bot_tables: int) -> tuple[int, list[int]]:
    """A table to write to and the bots' tables, started."""
    from accounts.models import User
    from games.models import BotLevel
    from games.tables import service

    owner = User.objects.create_user(username="owner", email="owner@example.org")
    tables = []
    for _ in range(bot_tables + 1):
        table = service.create_table(
            created_by=owner,
            preset="classique",
            options={"target": 1000},
            bots=dict.fromkeys(range(4), BotLevel.HEURISTIC),
        )
        service.start_table(table_id=table.pk)
        tables.append(table.pk)
    return tables[0], tables[1:]


def time_writes(table_id: int, writes: int) -> list[float]:
    from django.db import transaction
    from django.db.models import F

    from games.models import Table

    millis = []
    for _ in range(writes):
        started = time.perf_counter()
        with transaction.atomic():
            Table.objects.filter(pk=table_id).update(version=F("version"))
        millis.append((time.perf_counter() - started) * 1000)
        time.sleep(0.01)
    return millis


def run_timed(args) -> int:
    """One backend: its writers in the background, the timed writes here."""
    setup_django(args.engine)
    from django.db import connection, connections

    backend = type(connections["default"]).__module__
    if not backend.startswith(args.engine):
        raise SystemExit(f"lock_bench: the backend is {backend}, not {args.engine}")
    table_id = int(args.table)
    env = {**os.environ, "DATABASE_URL": os.environ["DATABASE_URL"]}
    bots = args.tables.split(",")
    writers = [
        subprocess.Popen(
            [sys.executable, __file__, "--role", "writer", "--engine", args.engine]
            + ["--tables", ",".join(bots[number::WRITERS]), "--seed", str(number)],
            env=env,
            stdout=subprocess.DEVNULL,  # the writer's own summary: not this bench's figures
        )
        for number in range(WRITERS)
    ]
    try:
        time.sleep(3)  # the writers start and spread their moves over the second
        millis = sorted(time_writes(table_id, args.writes))
    finally:
        for writer in writers:
            writer.send_signal(signal.SIGTERM)
        for writer in writers:
            writer.wait()
        connection.close()

    def at(fraction: float) -> float:
        return millis[min(len(millis) - 1, round(fraction * (len(millis) - 1)))]

    slow = sum(m > SLOW_MS for m in millis)
    print(
        f"  p50 {at(0.5):.2f} ms, p90 {at(0.9):.2f} ms, p99 {at(0.99):.2f} ms,"
        f" max {millis[-1]:.2f} ms; over {SLOW_MS:g} ms: {slow} of {len(millis)}"
        f" ({100 * slow / len(millis):.1f} %)"
    )
    return 0


def conduct(args) -> int:
    setup_django()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.vendor != "sqlite":
        print("lock_bench: SQLite only (unset DATABASE_URL)")
        return 0
    with tempfile.TemporaryDirectory(prefix="belote-lock-bench-") as folder:
        name = str(Path(folder) / "lock_bench.sqlite3")
        connection.settings_dict.setdefault("TEST", {})["NAME"] = name
        created = setup_databases(verbosity=0, interactive=False)
        try:
            table_id, bots = prepare(args.bot_tables)
            connection.close()
            print(f"Python {platform.python_version()}, {platform.machine()}")
            print(
                f"SQLite file {name} (WAL, immediate transactions); {WRITERS} processes"
                f" play a bot move at each of {len(bots)} tables every second; {args.writes}"
                " write transactions timed, 10 ms apart"
            )
            for label, engine in ENGINES.items():
                print(f"{label}:", flush=True)
                command = [sys.executable, __file__, "--role", "timed", "--engine", engine]
                command += ["--table", str(table_id), "--tables", ",".join(map(str, bots))]
                command += ["--writes", str(args.writes)]
                env = {**os.environ, "DATABASE_URL": f"sqlite:///{name}"}
                if subprocess.run(command, env=env, check=False).returncode:
                    return 1
        finally:
            teardown_databases(created, verbosity=0)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=1000, help="timed writes (1000)")
    parser.add_argument("--bot-tables", type=int, default=100, help="bots' tables (100)")
    parser.add_argument("--role", choices=["timed", "writer"], help=argparse.SUPPRESS)
    parser.add_argument("--engine", help=argparse.SUPPRESS)
    parser.add_argument("--table", help=argparse.SUPPRESS)
    parser.add_argument("--tables", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.role == "writer":
        return run_writer(args)
    if args.role == "timed":
        return run_timed(args)
    return conduct(args)


if __name__ == "__main__":
    sys.exit(main())
