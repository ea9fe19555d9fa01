"""Server-side cost of one move through ``games.tables.service.submit``, on SQLite and PostgreSQL.

Creates a throwaway test database (``django.test.utils.setup_databases``), seats four
users at a table and plays random legal moves through ``submit`` for a few complete
games, one table per game, the presets in turn. Each ``submit`` is timed with
``time.perf_counter`` (the whole call: lock, replay, engine, writes, commit and the
after-commit broadcast on the in-memory channel layer) and its queries are counted with
``CaptureQueriesContext``. Choosing the move (a replay and ``legal_actions``) is not timed.
The move that ends a game is counted apart: it also rates the four players (5 to 7 more
queries, games/ratings/service.py), which the budget of a move leaves out.

The SQLite test database is a file in a temporary directory, with the WAL and immediate
transactions of the settings, so the figure includes real commits, not an in-memory
database. Unless ``--sqlite-only``, the script then runs itself again in a subprocess
with ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/belote`` (skipped with a message
when PostgreSQL is unreachable). Run with ``DATABASE_URL`` set to measure that database
alone.

Run it as ``python bench/service_bench.py [--games N] [--seed S] [--sqlite-only]``.
Goal: p50 under 5 ms on SQLite and under 10 ms on PostgreSQL, at most 12 queries a move.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "belote_site.settings.test"

POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/belote"
P50_GOAL_MS = {"sqlite": 5.0, "postgresql": 10.0}
MAX_QUERIES = 12
WARMUP_MOVES = 20  # played first and not counted: imports, caches, first statements


def play(games: int, seed: int) -> tuple[list[float], list[int], list[int]]:
    """Milliseconds and queries of every counted ``submit`` over ``games`` games, and the
    queries of the moves that ended a game (apart: they also rate the four players,
    games/ratings/service.py, counted outside the budget of a move)."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games import rules as engine
    from games.models import Table
    from games.tables import service
    from games.tables.selectors import hand_state

    rng = random.Random(seed)
    presets = list(engine.PRESETS)
    users = [
        User.objects.create_user(username=f"bench{i}", email=f"bench{i}@example.org")
        for i in range(4)
    ]
    millis: list[float] = []
    queries: list[int] = []
    endings: list[int] = []
    moves = 0
    for number in range(games):
        table = service.create_table(
            created_by=users[0],
            preset=presets[number % len(presets)],
            players=dict(enumerate(users)),
        )
        service.start_table(table_id=table.pk)
        table.refresh_from_db()
        while table.status == Table.Status.PLAYING:
            state = hand_state(table)
            action = str(rng.choice(engine.legal_actions(state)))
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                outcome = service.submit(
                    table_id=table.pk,
                    actor=users[state.turn],
                    action=action,
                    expected_version=table.version,
                )
                elapsed = time.perf_counter() - started
            if not outcome.applied:
                raise RuntimeError(f"move {action!r} at table {table.pk} was not applied")
            moves += 1
            table.refresh_from_db()
            if table.status != Table.Status.PLAYING:
                endings.append(len(captured))
            elif moves > WARMUP_MOVES:
                millis.append(elapsed * 1000)
                queries.append(len(captured))
            reset_queries()  # CaptureQueriesContext keeps the log; start each move afresh
    return millis, queries, endings


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(games: int, seed: int) -> None:
    """Play and report on the database of the settings (DATABASE_URL or SQLite)."""
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    vendor = connection.vendor
    with tempfile.TemporaryDirectory(prefix="belote-bench-") as folder:
        if vendor == "sqlite":
            name = str(Path(folder) / "test_belote.sqlite3")
            connection.settings_dict.setdefault("TEST", {})["NAME"] = name
            mode = connection.settings_dict["OPTIONS"].get("init_command", "")
            where = f"SQLite file {name} ({mode.strip()})"
        else:
            where = f"PostgreSQL {connection.settings_dict['HOST']}, throwaway test database"
        created = setup_databases(verbosity=0, interactive=False)
        try:
            millis, queries, endings = play(games, seed)
        finally:
            teardown_databases(created, verbosity=0)

    goal = P50_GOAL_MS[vendor]
    p50, p95 = percentile(millis, 0.50), percentile(millis, 0.95)
    print(f"{vendor}: {where}")
    print(f"  {games} games, {len(millis)} moves timed (after {WARMUP_MOVES} warm-up moves)")
    print(
        f"  submit: p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {max(millis):.2f} ms"
        f" (goal p50 < {goal:g} ms: {'ok' if p50 < goal else 'MISSED'})"
    )
    print(
        f"  queries per move: max {max(queries)}, mean {statistics.fmean(queries):.2f}"
        f" (goal <= {MAX_QUERIES}: {'ok' if max(queries) <= MAX_QUERIES else 'MISSED'});"
        f" the move that ends a game, ratings included: {max(endings)}"
    )
    sys.stdout.flush()


def postgres_reachable() -> str:
    """Empty when the PostgreSQL server of POSTGRES_URL answers, else why not. Asked on
    its maintenance database ``postgres``: the bench needs the server, where Django
    creates its throwaway database, not the database ``belote`` itself."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    server = urlsplit(POSTGRES_URL)._replace(path="/postgres").geturl()
    try:
        psycopg.connect(server, connect_timeout=3).close()
    except psycopg.Error as error:
        return str(error).strip().splitlines()[0]
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="complete games (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--sqlite-only", action="store_true", help="do not run again on PostgreSQL")
    args = parser.parse_args(argv)

    on_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    if not on_postgres:
        print(f"Python {platform.python_version()}, {platform.machine()}, seed {args.seed}")
    measure(args.games, args.seed)
    if on_postgres or args.sqlite_only:
        return 0
    why_not = postgres_reachable()
    if why_not:
        print(f"postgresql: skipped, {POSTGRES_URL} is unreachable ({why_not})")
        return 0
    child = subprocess.run(
        [sys.executable, __file__, "--games", str(args.games), "--seed", str(args.seed)],
        env={**os.environ, "DATABASE_URL": POSTGRES_URL},
        check=False,
    )
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
