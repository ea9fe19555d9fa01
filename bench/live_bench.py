"""How fast a move shows on the other players' pages: POST to the board on the other pages.

Starts Daphne (``daphne -b 127.0.0.1 -p 0 belote_site.asgi:application``, test settings)
against a throwaway database, seats four users at a table and plays random legal moves as
their pages would: each client opens the table page (which sets the CSRF cookie), its
board fragment and ``/ws/tables/<id>/``; the player to act POSTs ``/tables/<id>/jouer/``
(htmx headers, CSRF token, session cookie), and each of the three other clients takes the
board its socket brings (games/tables/boards.py), or refetches ``/tables/<id>/plateau/`` when the
socket says a version without a board, as static/js/table.js does. The latency of a move
for one page is the time from sending the POST to that page having the board that shows
the new version. p50 and p99 are over every (move, other page) pair.

Three scenarios, one Daphne process each:

1. one table, the in-memory channel layer (development's setup);
2. one table, the Redis channel layer;
3. the same table while ``--bot-tables`` (100) tables of four bots play in the background,
   one move per table every ``--bot-interval`` seconds (1 s, the pace of a live table), by
   two bot processes calling ``games.tables.service.play_bot_move`` on the same database (the
   HTTP-less path of the task worker), each table watched by one page (websocket and
   refetch, like the human at a bot table; ``--unwatched``: no page there). The bots'
   broadcasts must reach Daphne from other processes, which only a shared channel layer
   does: Redis, for Daphne and the bot processes alike, as in production.

Scenarios 2 and 3 need Redis at ``--redis-url`` (default ``redis://127.0.0.1:6379/14``, a
database number for the bench alone: it is emptied before and after, since groups left
by an earlier run would receive the messages); without Redis they are skipped.

Bounded: a scenario measures ``--moves`` (300) moves after 20 of warm-up, for at most
120 s; it stops early when three moves are not shown within 5 s (a saturated server),
and such moves are counted apart, not in the figures.

The database: an SQLite file (WAL, immediate transactions, as in the settings) in a
temporary directory by default; with ``--postgres``, a throwaway database
``belote_livebench_<pid>`` on ``postgres://postgres@127.0.0.1:5432`` (``--postgres-url``),
created and dropped by Django's test utilities. Everything listens on 127.0.0.1 only; the
clients are our own (asyncio streams: HTTP/1.1 keep-alive, RFC 6455 frames), no
dependency added.

``--daphne N`` runs the Redis scenarios on N Daphne processes, as production does (one per
core behind a proxy): each page, its refetches and its socket go to one of them in turn,
so the moves of one table reach the other pages through Redis.

Run it as ``python bench/live_bench.py [--moves N] [--bot-tables N] [--bot-interval S]
[--unwatched] [--daphne N] [--postgres] [--redis-url URL] [--log-dir DIR]``.
Goal: p99 under 50 ms with 100 bot tables.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

# The parts, in this script's folder (on sys.path); live_http first: it puts the measured
# checkout on sys.path. Re-exported for the other benches, which import them from here.
from live_http import (  # noqa: F401
    BOT_PROCESSES,
    P99_GOAL_MS,
    POSTGRES_URL,
    REDIS_URL,
    ROOT,
    CpuClock,
    Http,
    Socket,
)
from live_pages import CSRF_INPUT, Page, measure_moves, next_mover, watch_tables  # noqa: F401
from live_setup import (  # noqa: F401
    Processes,
    bot_versions,
    empty_redis,
    four_players,
    last_json,
    percentile,
    prepare,
    project_module,
    redis_reachable,
    report,
    server_errors,
)

WATCHERS_TIMEOUT = 120  # seconds for the watching pages to load and connect

# ---------------------------------------------------------------------------------------
# Background roles, each in a process of its own (``--role``)


def run_watchers(args) -> int:
    table_ids = [int(n) for n in args.tables.split(",")]

    async def main() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        ports = [int(n) for n in args.ports.split(",")]
        ready = Path(args.ready_file).touch if args.ready_file else None
        outcome = await watch_tables(ports, table_ids, args.session, stop, ready)
        print(json.dumps(outcome))
        return 0

    return asyncio.run(main())


def run_bots(args) -> int:
    """Play the bots' moves of ``--tables``, one move per table every ``--bot-interval``."""
    import django

    django.setup()
    from django.db import OperationalError, close_old_connections

    from games.models import Table

    service = project_module("games.tables.service")

    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    rng = random.Random(args.seed)
    now = time.monotonic()
    due = [(now + rng.uniform(0, args.bot_interval), int(n)) for n in args.tables.split(",")]
    heapq.heapify(due)
    moves = errors = finished = 0
    versions: dict[int, int] = {}  # table id -> its version after this process's last move
    late: list[float] = []
    started = time.monotonic()
    while not stopping and due:
        when, table_id = heapq.heappop(due)
        wait = when - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        else:
            late.append(-wait)
        try:
            # The version the table's last move here left, as the task of the next move
            # knows it; read only when unknown, or when the move was refused (another
            # bot process played first, the table finished).
            version = versions.get(table_id)
            played = version is not None and service.play_bot_move(
                table_id, version, notify_bots=False
            )
            if not played:
                status, version = Table.objects.values_list("status", "version").get(pk=table_id)
                if status != Table.Status.PLAYING:
                    finished += 1
                    continue
                played = service.play_bot_move(table_id, version, notify_bots=False)
            if played:
                moves += 1
                versions[table_id] = played.version
            else:
                versions.pop(table_id, None)
        except OperationalError:
            errors += 1
            close_old_connections()
        heapq.heappush(due, (when + args.bot_interval, table_id))
    late.sort()
    print(
        json.dumps(
            {
                "moves": moves,
                "errors": errors,
                "finished": finished,
                "seconds": time.monotonic() - started,
                "late_p99_ms": late[int(0.99 * (len(late) - 1))] * 1000 if late else 0.0,
            }
        )
    )
    return 0


def conduct(args) -> int:
    import django

    if args.postgres:
        os.environ["DATABASE_URL"] = args.postgres_url
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)  # this process does not broadcast to anyone
    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    parts = urlsplit(args.postgres_url)
    with tempfile.TemporaryDirectory(prefix="belote-live-bench-") as folder:
        folder = Path(folder)
        test = connection.settings_dict.setdefault("TEST", {})
        if connection.vendor == "sqlite":
            test["NAME"] = str(folder / "live_bench.sqlite3")
            where = f"SQLite file {test['NAME']} (WAL, immediate transactions)"
        else:
            test["NAME"] = f"belote_livebench_{os.getpid()}"
            where = f"PostgreSQL {parts.hostname}:{parts.port or 5432}, database {test['NAME']}"
        created = setup_databases(verbosity=0, interactive=False)
        processes = Processes(folder)
        try:
            data = prepare(args)
            db = connection.settings_dict
            if connection.vendor == "sqlite":
                database_url = f"sqlite:///{db['NAME']}"
            else:
                database_url = parts._replace(path=f"/{db['NAME']}").geturl()
            env = {
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "belote_site.settings.test",
                "DATABASE_URL": database_url,
                "PYTHONUNBUFFERED": "1",
            }
            for name in ("REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"):
                env.pop(name, None)
            print(f"Python {platform.python_version()}, {platform.machine()}, seed {args.seed}")
            print(f"database: {where}; server: one Daphne process, test settings")
            print(
                "latency: from sending POST /tables/<id>/jouer/ to another player's client"
                " having the board of the new version (pushed on its websocket, or refetched"
                " from /plateau/ when the socket told the version alone)"
            )
            sys.stdout.flush()
            return run_scenarios(args, data, env, processes)
        finally:
            processes.stop_all()
            if not redis_reachable(args.redis_url):
                empty_redis(args.redis_url)
            if args.log_dir:
                args.log_dir.mkdir(parents=True, exist_ok=True)
                for log in folder.glob("*.log"):
                    shutil.copy(log, args.log_dir / log.name)
            connection.close()
            teardown_databases(created, verbosity=0)


def run_scenarios(args, data: dict, env: dict, processes: Processes) -> int:
    from django.db import connection

    database = connection.settings_dict["NAME"] if connection.vendor == "postgresql" else None

    def measure(ports: list[int], seed: int, cpu: CpuClock | None = None) -> dict:
        moves = measure_moves(
            ports, data["table"], data["sessions"], args.moves, seed, args.pause, cpu
        )
        return asyncio.run(moves)

    human_move = "move at the table of four (its POST, the pushed boards)"
    port = processes.daphne(env)
    cpu = CpuClock(processes.pids("daphne"), database, processes.roles())
    result = measure([port], args.seed, cpu)
    errors = server_errors(processes.stop("daphne"))
    extra = "\n  ".join(filter(None, [cpu.report(human_move), errors]))
    report("1 table, in-memory channel layer", result, extra)

    why_not = redis_reachable(args.redis_url)
    if why_not:
        print(f"Redis scenarios skipped: {args.redis_url} is unreachable ({why_not})")
        return 0
    redis_env = {**env, "REDIS_URL": args.redis_url}
    servers = f", {args.daphne} Daphne processes" if args.daphne > 1 else ""
    empty_redis(args.redis_url)  # groups left by an earlier run would get our messages
    ports = [processes.daphne(redis_env) for _ in range(args.daphne)]
    cpu = CpuClock(processes.pids("daphne"), database, processes.roles())
    result = measure(ports, args.seed + 1, cpu)
    errors = "\n  ".join(
        filter(None, [cpu.report(human_move), server_errors(processes.stop("daphne"))])
    )
    report(f"1 table, Redis channel layer ({args.redis_url}){servers}", result, errors)

    if not args.bot_tables:
        return 0
    ports = [processes.daphne(redis_env) for _ in range(args.daphne)]
    script = str(Path(__file__).resolve())
    tables = data["bot_tables"]
    ready = processes.folder / "watchers-ready"
    if not args.unwatched:
        command = [sys.executable, script, "--role", "watchers"]
        command += ["--ports", ",".join(map(str, ports))]
        command += ["--session", ",".join(data["watchers"])]
        command += ["--tables", ",".join(map(str, tables))]
        command += ["--ready-file", str(ready)]
        processes.start("watchers", command, redis_env)
    for number in range(BOT_PROCESSES):
        share = tables[number::BOT_PROCESSES]
        command = [sys.executable, script, "--role", "bots", "--tables", ",".join(map(str, share))]
        command += ["--bot-interval", str(args.bot_interval), "--seed", str(args.seed + number)]
        processes.start("bots", command, redis_env)
    # The watching pages load and connect first (a page load costs more than many bot
    # moves: counted, it would weigh on the bot move's CPU time, the more so the slower
    # the server); then the bots reach their pace.
    loading = time.monotonic()
    up = args.unwatched or ready.exists()
    while not up and time.monotonic() - loading < WATCHERS_TIMEOUT:
        if processes.exited("watchers"):
            break
        time.sleep(0.1)
        up = ready.exists()
    loading = time.monotonic() - loading
    time.sleep(2 if not args.unwatched else 3)  # the bots reach their pace
    # The bots alone first: the CPU time of a bot move with its watching page.
    cpu = CpuClock(processes.pids("daphne") + processes.pids("bots"), database, processes.roles())
    before = bot_versions(tables)
    cpu.start()
    time.sleep(args.cpu_seconds)
    cpu.stop(bot_versions(tables) - before)
    watching = "no page watching" if args.unwatched else "its watching page"
    bot_cpu = cpu.report(f"bot move ({watching}: the bot process, Daphne, the database)")
    result = measure(ports, args.seed + 2)
    bots_text = processes.stop("bots")
    watchers = last_json(processes.stop("watchers")) if not args.unwatched else {}
    errors = server_errors(processes.stop("daphne"))
    bots = [json.loads(line) for line in bots_text.splitlines() if line.startswith("{")]
    if len(bots) != BOT_PROCESSES:
        print(f"the bot processes failed:\n{bots_text[-3000:]}")
        return 1
    seconds = max(b["seconds"] for b in bots)
    bot_moves = sum(b["moves"] for b in bots)
    extra = (
        f"background: {bot_moves / seconds:.0f} bot moves/s ({sum(b['errors'] for b in bots)}"
        f" errors, {sum(b['finished'] for b in bots)} finished tables, bot schedule late"
        f" p99 {max(b['late_p99_ms'] for b in bots):.0f} ms)"
    )
    if not args.unwatched:
        if up:
            extra += f", the watching pages up in {loading:.1f} s before the count"
        else:
            extra += f", the count started with the watching pages not all up ({loading:.0f} s)"
    if watchers:
        pushed = watchers["pushes"] / watchers["seconds"]
        fetched = watchers["fetches"] / watchers["seconds"]
        extra += f", watching pages got {pushed:.0f} boards/s pushed and {fetched:.0f} refetched"
        if watchers["not_started"] or watchers["failed"]:
            extra += (
                f" ({watchers['not_started']} pages never up, {watchers['failed']} stopped"
                " following their table)"
            )
    elif not args.unwatched:
        extra += ", the watching pages' process gave no report"
    extra += f"\n  {bot_cpu}"
    if errors:
        extra += f"\n  {errors}"
    watched = "nobody watching them" if args.unwatched else "one watching page per bot table"
    p99 = report(
        f"1 table + {len(tables)} bot tables (Redis for Daphne and the {BOT_PROCESSES} bot"
        f" processes, {watched}, a move per table every {args.bot_interval:g} s{servers})",
        result,
        extra,
    )
    saturated = result["timeouts"] or result["failure"]
    verdict = "ok" if p99 < P99_GOAL_MS and not saturated else "MISSED"
    print(f"goal: p99 under {P99_GOAL_MS:g} ms at {len(tables)} tables: {verdict}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="moves timed per scenario (300)")
    parser.add_argument("--bot-tables", type=int, default=100, help="background tables (100)")
    parser.add_argument(
        "--bot-interval", type=float, default=1.0, help="seconds between moves at a bot table (1)"
    )
    parser.add_argument(
        "--pause", type=float, default=0.05, help="seconds between measured moves (0.05)"
    )
    parser.add_argument("--unwatched", action="store_true", help="no page open at the bot tables")
    parser.add_argument(
        "--cpu-seconds",
        type=float,
        default=10.0,
        help="seconds of bot moves alone whose CPU time is measured (10)",
    )
    parser.add_argument(
        "--baseline", type=Path, help="another checkout, its server measured first the same way"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL instead of SQLite")
    parser.add_argument("--postgres-url", default=POSTGRES_URL, help=f"(default {POSTGRES_URL})")
    parser.add_argument("--redis-url", default=REDIS_URL, help=f"(default {REDIS_URL})")
    parser.add_argument("--log-dir", type=Path, help="keep the processes' logs there")
    parser.add_argument("--role", choices=["bots", "watchers"], help=argparse.SUPPRESS)
    parser.add_argument("--tables", help=argparse.SUPPRESS)
    parser.add_argument(
        "--daphne",
        type=int,
        default=1,
        help="Daphne processes in the Redis scenarios, the pages spread over them (1)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --baseline: rounds of both servers, in turn first (1)",
    )
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--ready-file", help=argparse.SUPPRESS)
    parser.add_argument("--session", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.role == "bots":
        return run_bots(args)
    if args.role == "watchers":
        return run_watchers(args)
    if args.baseline:
        return compare(args.baseline, argv if argv is not None else sys.argv[1:], args.rounds)
    return conduct(args)


def compare(baseline: Path, argv: list[str], rounds: int = 1) -> int:
    """Run the whole bench on the baseline's server, then on this one's (each with its
    own ``.venv``), and set their CPU times side by side. With ``--rounds N``, N rounds,
    the one that went second going first in the next (ABBA...): this machine's speed
    drifts within minutes, and a steady drift then weighs on both alike. The CPU time of
    each side is its total over the rounds divided by its moves."""
    own, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--baseline", "--rounds"):
            skip = True
        elif not arg.startswith(("--baseline=", "--rounds=")):
            own.append(arg)
    rounds = max(1, rounds)
    this = Path(__file__).resolve().parents[1]
    codes = (baseline.resolve(), this)
    # Each side's runs, by its place in ``codes`` (the baseline may be this checkout).
    figures: list[list[list[dict]]] = [[], []]
    for number in range(rounds):
        for side in (0, 1) if number % 2 == 0 else (1, 0):
            code = codes[side]
            python = code / ".venv" / "bin" / "python"
            env = {**os.environ, "LIVE_BENCH_CODE": str(code)}
            print(f"=== round {number + 1}, server code: {code}", flush=True)
            run = subprocess.run(
                [str(python) if python.exists() else sys.executable, __file__, *own],
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
            print(run.stdout, end="", flush=True)
            figures[side].append(
                [
                    json.loads(line[4:])
                    for line in run.stdout.splitlines()
                    if line.startswith("CPU {")
                ]
            )
            if run.returncode:
                return run.returncode
    before, after = figures
    print(f"CPU time per move, baseline -> this code ({rounds} round(s)):")
    for index, new in enumerate(after[0]):
        old_runs = [r[index] for r in before if index < len(r)]
        new_runs = [r[index] for r in after if index < len(r)]
        old, new_ms = _per_move(old_runs), _per_move(new_runs)
        each = ", ".join(
            f"{n['ms_per_move'] / o['ms_per_move']:.2f}"
            for o, n in zip(old_runs, new_runs, strict=False)
        )
        per_round = f"; by round: {each}" if rounds > 1 else ""
        print(f"  {new['what']}: {old:.2f} ms -> {new_ms:.2f} ms ({new_ms / old:.2f}{per_round})")
        parts = sorted({role for run in old_runs + new_runs for role in run.get("parts", {})})
        if parts:
            split = ", ".join(
                f"{role} {_per_move(old_runs, role):.2f} -> {_per_move(new_runs, role):.2f}"
                for role in parts
            )
            print(f"    by process: {split}")
    return 0


def _per_move(runs: list[dict], role: str | None = None) -> float:
    """Milliseconds of CPU per move over several runs (of the processes of ``role``, or
    all): their total over their moves."""
    moves = sum(run["moves"] for run in runs)

    def ms(run: dict) -> float:
        return run["ms_per_move"] if role is None else run.get("parts", {}).get(role, 0.0)

    return sum(ms(run) * run["moves"] for run in runs) / moves if moves else 0.0


if __name__ == "__main__":
    sys.exit(main())
