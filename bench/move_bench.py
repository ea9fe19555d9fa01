"""The cost of one move at a table of four humans, counted in instructions (callgrind).

One process plays the same moves every run: four users at a table whose hands come from
a seeded deck, moves drawn from the engine's legal actions with a seeded generator. A
counted move is ``games.tables.service.submit`` (the lock, the replay, the writes, the commit,
what runs after it) plus the boards pushed to the four players' pages, as their sockets'
consumers make them (games/live/boards.py). The process runs under ``valgrind
--tool=callgrind``, instrumented from the first counted move on and collecting only in
the counted part of each move (callgrind's client requests, from a small C library
compiled with ``gcc`` at the start): the instructions it prints per move do not depend
on the machine's speed or load, and repeat from run to run (``PYTHONHASHSEED`` fixed;
what still varies, such as timestamps and random CSRF masks, is a small part).

The database is prepared without valgrind (migrations, users, sessions, the started
table), by the checkout measured, in a process of its own: an SQLite file in a temporary
directory, and unless ``--sqlite-only`` a throwaway PostgreSQL database
``belote_movebench_<pid>`` on ``--postgres-url``. Queries to PostgreSQL are counted on the
client's side only (its server's work is another process: see bench/live_bench.py for
the CPU time of every process).

``--baseline PATH`` measures another checkout of the project the same way, in the same
run, with its own ``.venv``: today's code against the code it started from. ``--native``
runs the moves without valgrind, timed, and with ``--profile`` prints a cProfile of them.

Run it as ``python bench/move_bench.py [--baseline PATH] [--moves N] [--sqlite-only]
[--postgres-url URL] [--native [--profile]]``.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/belote"
CSRF_SECRET = "benchcsrfsecret0123456789abcdefg"  # 32 characters, as Django makes them
WARMUP_MOVES = 12  # played first and not counted: imports, first statements, memos


# ---------------------------------------------------------------------------------------
# Inside the measured checkout's process (``--role``)


def code_root() -> Path:
    return Path(os.environ.get("MOVE_BENCH_CODE", ROOT))


def setup_django() -> None:
    sys.path.insert(0, str(code_root()))
    os.environ["DJANGO_SETTINGS_MODULE"] = "belote_site.settings.test"
    import django

    django.setup()


def prepare(args) -> int:
    """Migrate the database named by ``--db-name`` and fill it; print its ids as JSON."""
    setup_django()
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_databases

    os.environ["LIVE_BENCH_CODE"] = str(code_root())  # live_bench: the same checkout
    from live_bench import four_players, project_module

    service = project_module("games.tables.service")

    connection.settings_dict.setdefault("TEST", {})["NAME"] = args.db_name
    setup_databases(verbosity=0, interactive=False)
    players, table = four_players("move")
    deck = list(range(32))
    random.Random(args.seed).shuffle(deck)
    service.start_table(table_id=table.pk, first_dealer=0, deck=deck)
    sessions = []
    for user in players:
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies["sessionid"].value)
    print(json.dumps({"table": table.pk, "users": [u.pk for u in players], "sessions": sessions}))
    connection.close()
    return 0


def play(args) -> int:
    """Play the warm-up and the counted moves (collection toggled around the latter)."""
    setup_django()
    from games import rules as engine
    from games.models import Table

    os.environ["LIVE_BENCH_CODE"] = str(code_root())  # live_bench: the same checkout
    from live_bench import project_module

    live = project_module("games.tables.boards")
    service = project_module("games.tables.service")
    table_state = project_module("games.tables.selectors").table_state

    data = json.loads(args.data)
    table_id = data["table"]
    users = {user.pk: user for user in _users(data["users"])}
    seated = [users[pk] for pk in data["users"]]
    deck_rng = random.Random(args.seed + 1)

    def seeded_deck() -> list[int]:
        deck = list(range(32))
        deck_rng.shuffle(deck)
        return deck

    # The next hands' decks, the same every run (where the deal lives: games.tables.writes,
    # games.service in a checkout of before issue 14).
    project_module("games.tables.writes").shuffled_deck = seeded_deck
    viewers = [
        _viewer(live, user, session) for user, session in zip(seated, data["sessions"], strict=True)
    ]
    push = _pusher(live, viewers, table_id)
    rng = random.Random(args.seed)

    def move(played: int):
        table = Table.objects.select_related("current_hand").get(pk=table_id)
        state = table_state(table)
        action = rng.choice(engine.legal_actions(state))
        counted = lambda: _move(service, table, seated[state.turn], str(action), push)  # noqa: E731
        if played >= WARMUP_MOVES:
            return counted
        counted()
        return None

    timings = []
    callgrind = None if args.native else Callgrind(os.environ["MOVE_BENCH_LIBRARY"])
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    for played in range(WARMUP_MOVES + args.moves):
        counted = move(played)
        if counted is None:
            continue
        if args.native:
            started = time.perf_counter()
            if profiler is not None:
                profiler.runcall(counted)
            else:
                counted()
            timings.append(time.perf_counter() - started)
        else:
            callgrind.count(counted)
    if timings:
        timings.sort()
        print(
            f"native: {len(timings)} moves, p50 {timings[len(timings) // 2] * 1000:.2f} ms,"
            f" mean {sum(timings) / len(timings) * 1000:.2f} ms"
        )
    if profiler is not None:
        import pstats

        stats = pstats.Stats(profiler).sort_stats(os.environ.get("MOVE_BENCH_SORT", "cumulative"))
        stats.print_stats(int(os.environ.get("MOVE_BENCH_LINES", "45")))
    return 0


def _users(ids):
    from accounts.models import User

    return list(User.objects.filter(pk__in=ids))


def _viewer(live, user, session_key: str):
    """A player's socket as its consumer sees it: the session, the CSRF cookie."""
    from django.contrib.sessions.backends.db import SessionStore

    scope = {
        "user": user,
        "cookies": {"sessionid": session_key, "csrftoken": CSRF_SECRET},
        "headers": [(b"accept-language", b"fr")],
        "session": SessionStore(session_key),
    }
    return live.Viewer.of(scope)


def _pusher(live, viewers, table_id: int):
    """What the four consumers do after a move: each page's board. The code of
    2026-12-04 renders each page's board alone (``board_for``); later code shares what
    the pages have in common (``Boards``)."""
    if hasattr(live, "Boards"):

        def push(version: int) -> list[str]:
            boards = live.shared(table_id, ("version", version))
            return [boards.push_for(viewer).message() for viewer in viewers]

    else:

        def push(version: int) -> list[str]:
            messages = []
            for viewer in viewers:
                pushed = live.board_for(viewer, table_id)
                message = {"table": table_id, "version": pushed.version, "html": pushed.html}
                messages.append(json.dumps(message))
            return messages

    return push


def _move(service, table, user, action: str, push) -> None:
    outcome = service.submit(
        table_id=table.pk, actor=user, action=action, expected_version=table.version
    )
    assert outcome.applied, action
    for message in push(outcome.version):
        assert '"html"' in message


# Callgrind's client requests (valgrind/callgrind.h), in a library the conductor compiles:
# outside valgrind they do nothing.
CLIENT_REQUESTS = """
#include <valgrind/callgrind.h>
void bench_instrument(void) { CALLGRIND_START_INSTRUMENTATION; }
void bench_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
"""


class Callgrind:
    """Instrumentation from the first counted move on, collection around each."""

    def __init__(self, library: str) -> None:
        self.library = ctypes.CDLL(library)
        self.started = False

    def count(self, work) -> None:
        if not self.started:
            self.library.bench_instrument()
            self.started = True
        self.library.bench_toggle()
        try:
            work()
        finally:
            self.library.bench_toggle()


def compile_client_requests(folder: Path) -> str:
    source = folder / "client_requests.c"
    source.write_text(CLIENT_REQUESTS)
    library = folder / "client_requests.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(library), str(source)], check=True)
    return str(library)


# ---------------------------------------------------------------------------------------
# The conductor


def python_of(code: Path) -> str:
    python = code / ".venv" / "bin" / "python"
    return str(python) if python.exists() else sys.executable


def measure(code: Path, database: str, args, folder: Path) -> dict:
    """Instructions per move of the checkout ``code`` on ``database`` (sqlite/postgres)."""
    env = {**os.environ, "MOVE_BENCH_CODE": str(code), "PYTHONHASHSEED": "0"}
    if not args.native:
        env["MOVE_BENCH_LIBRARY"] = compile_client_requests(folder)
    env.pop("REDIS_URL", None)
    label = f"{code.name}-{database}"
    if database == "sqlite":
        name = str(folder / f"{label}.sqlite3")
        env.pop("DATABASE_URL", None)
        db_url = f"sqlite:///{name}"
    else:
        name = f"belote_movebench_{os.getpid()}_{len(list(folder.iterdir()))}"
        env["DATABASE_URL"] = args.postgres_url
        db_url = urlsplit(args.postgres_url)._replace(path=f"/{name}").geturl()
    script = str(Path(__file__).resolve())
    command = [python_of(code), script, "--seed", str(args.seed)]
    prepared = subprocess.run(
        [*command, "--role", "prepare", "--db-name", name],
        cwd=code,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    data = prepared.stdout.strip().splitlines()[-1]
    env["DATABASE_URL"] = db_url
    play_command = [*command, "--role", "play", "--data", data, "--moves", str(args.moves)]
    try:
        if args.native:
            if args.profile:
                play_command.append("--profile")
            run = subprocess.run(
                [*play_command, "--native"], cwd=code, env=env, capture_output=True, text=True
            )
            if run.returncode:
                raise RuntimeError(run.stderr[-3000:])
            return {"text": run.stdout}
        out = folder / f"callgrind.{label}.out"
        valgrind = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            "--collect-atstart=no",
            f"--callgrind-out-file={out}",
        ]
        run = subprocess.run(
            [*valgrind, *play_command], cwd=code, env=env, capture_output=True, text=True
        )
        if run.returncode:
            raise RuntimeError(run.stderr[-3000:])
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
        return {"instructions": int(totals.group(1)) / args.moves}
    finally:
        if database == "postgres":
            drop_postgres(args.postgres_url, name)


def drop_postgres(url: str, name: str) -> None:
    import psycopg

    base = urlsplit(url)._replace(path="/postgres").geturl()
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def conduct(args) -> int:
    codes = [ROOT]
    if args.baseline:
        codes.insert(0, args.baseline.resolve())
    databases = ["sqlite"] if args.sqlite_only else ["sqlite", "postgres"]
    what = "native timing" if args.native else "instructions per move (callgrind)"
    print(
        f"{what}: {args.moves} moves after {WARMUP_MOVES} of warm-up, seed {args.seed};"
        " a move is submit plus the boards pushed to the four players' pages"
    )
    results: dict[tuple[str, str], dict] = {}
    with tempfile.TemporaryDirectory(prefix="belote-move-bench-") as folder:
        for database in databases:
            for code in codes:
                started = time.monotonic()
                result = measure(code, database, args, Path(folder))
                results[code, database] = result
                seconds = time.monotonic() - started
                if "instructions" in result:
                    print(
                        f"  {database:8} {str(code):32} {result['instructions'] / 1e6:8.2f}"
                        f" M instructions per move ({seconds:.0f} s)"
                    )
                else:
                    print(f"  {database:8} {code}\n{result['text']}")
                sys.stdout.flush()
        if args.baseline and not args.native:
            for database in databases:
                before = results[codes[0], database]["instructions"]
                after = results[codes[1], database]["instructions"]
                print(
                    f"  {database}: {after / before:.2f} of the baseline's instructions"
                    f" ({before / 1e6:.2f} M -> {after / 1e6:.2f} M per move)"
                )
        if args.keep:
            for out in Path(folder).glob("callgrind.*"):
                shutil.copy(out, args.keep)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="counted moves (40)")
    parser.add_argument("--seed", type=int, default=13, help="seed of the decks and moves (13)")
    parser.add_argument("--baseline", type=Path, help="another checkout, measured the same way")
    parser.add_argument("--sqlite-only", action="store_true", help="no PostgreSQL run")
    parser.add_argument("--postgres-url", default=POSTGRES_URL, help=f"(default {POSTGRES_URL})")
    parser.add_argument("--native", action="store_true", help="timed, without valgrind")
    parser.add_argument("--profile", action="store_true", help="with --native: a cProfile")
    parser.add_argument("--keep", type=Path, help="copy the callgrind files to this folder")
    parser.add_argument("--role", choices=["prepare", "play"], help=argparse.SUPPRESS)
    parser.add_argument("--db-name", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.role == "prepare":
        return prepare(args)
    if args.role == "play":
        return play(args)
    return conduct(args)


if __name__ == "__main__":
    sys.exit(main())
