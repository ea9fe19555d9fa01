"""What an outage of Redis costs the site: errors, lost follow-ups, the time to heal.

Issue 13's probe: "With Redis down for 5 seconds, 62 requests answered 500, the last one
17 s after Redis was back. Two moves answered 500 had in fact been saved. Their next bot
move and deadline were never queued". This script plays that scene again and counts.

It starts a Redis server of its own (``redis-server`` on a free port of 127.0.0.1,
nothing saved), two Daphne processes and the task worker (``manage.py db_worker``) on a
throwaway SQLite file, with the test settings plus what production has: Redis for the
channel layer and the cache, and bots that wait BOT_DELAY_SECONDS (1 s) before a move
(belote_site/settings/bench.py). Then:

- four players at a live table, their pages spread over the two Daphne processes, play
  random legal moves, ``--pace`` seconds apart: the player to act POSTs ``/jouer/``, the
  others swap in the board their socket pushes, or refetch ``/plateau/`` when the socket
  says a version alone; a player whose page shows no move for a second refetches it (a
  reload: with Redis down nothing is pushed);
- ``--bot-tables`` tables of four bots (10) are played by the task worker, each move
  queuing the next; each table is watched by a page the same way.

``--before`` seconds (5) in, Redis stops (SIGTERM; ``--pause``: SIGSTOP, a Redis that
accepts connections and answers nothing); ``--down`` seconds (5) later it comes back on
the same port, and the run goes on for ``--after`` seconds (20). Printed: the requests
answered 5xx or not at all (and the last one, counted from Redis's return); the moves so
answered that were saved all the same; the bot tables that stopped playing (a follow-up
lost); how long after Redis's return each page had a board pushed again; the warnings of
the servers' logs.

Run it as ``python bench/redis_outage_bench.py [--bot-tables N] [--before S] [--down S]
[--after S] [--pause] [--log-dir DIR]``. Needs ``redis-server`` on the PATH.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import shutil
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

import live_bench  # this script's folder is on sys.path
from live_bench import CSRF_INPUT, Http, Processes, Socket, percentile

WORKER_INTERVAL = 0.1  # seconds the worker waits when no task is due


class Log:
    """Every request's time and status (None: no answer), and the run's milestones."""

    def __init__(self) -> None:
        self.requests: list[tuple[float, str, int | None]] = []
        self.down_at = self.back_at = float("inf")

    async def request(self, http: Http, method: str, path: str, **kwargs) -> tuple[int, bytes]:
        try:
            status, body = await http.request(method, path, **kwargs)
        except (OSError, asyncio.IncompleteReadError):
            http.close()
            status, body = None, b""
        self.requests.append((time.monotonic(), f"{method} {path}", status))
        return status, body


class Page(live_bench.Page):
    """A table page as static/js/table.js drives it (live_bench.py's), each request logged,
    the boards its socket pushed timed, and no heartbeat to wait for."""

    def __init__(self, log: Log, port: int, table_id: int, session: str) -> None:
        super().__init__(port, table_id, session)
        self.log = log
        self.pushed_at: list[float] = []

    async def start(self) -> None:
        await self.log.request(self.http, "GET", f"/tables/{self.table_id}/")
        await self.fetch()
        self.socket = await Socket.open(
            self.port, f"/ws/tables/{self.table_id}/", self.http.cookies
        )
        self.tasks.append(asyncio.create_task(self._listen()))

    async def fetch(self) -> None:
        status, body = await self.log.request(
            self.http, "GET", self.board_url, headers=self.htmx_headers()
        )
        if status == 200:
            self._show(body.decode())

    async def _listen(self) -> None:
        while (message := await self.socket.receive()) is not None:
            if isinstance(message.get("html"), str):
                self.pushed_at.append(time.monotonic())
                self._show(message["html"])
            elif message.get("version", 0) > self.shown:
                await self.fetch()

    async def play(self, action: str) -> tuple[int, int | None]:
        """POST the move at the version shown; (that version, the answer's status)."""
        version = self.shown
        form = {"csrfmiddlewaretoken": CSRF_INPUT.search(self.html).group(1)}
        form |= {"version": version, "action": action}
        status, body = await self.log.request(
            self.moves_http,
            "POST",
            f"/tables/{self.table_id}/jouer/",
            form=form,
            headers=self.htmx_headers(),
        )
        if status in (200, 409, 422):
            self._show(body.decode())
        return version, status


async def play_table(pages: list[Page], pace: float, stop: asyncio.Event, seed: int) -> list:
    """The four players' moves until ``stop``: (seat, version, action, status) of each."""
    rng = random.Random(seed)
    moves = []
    idle = 0.0
    while not stop.is_set():
        mover = next((seat for seat, page in enumerate(pages) if page.choices()), None)
        if mover is None:
            await asyncio.sleep(0.05)
            idle += 0.05
            if idle >= 1:  # nothing pushed: they reload
                idle = 0.0
                for page in pages:
                    await page.fetch()
            continue
        idle = 0.0
        action = rng.choice(pages[mover].choices())
        version, status = await pages[mover].play(action)
        moves.append((mover, version, action, status))
        await asyncio.sleep(pace)
    return moves


# ---------------------------------------------------------------------------------------
# The processes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_redis(processes: Processes, port: int, folder: Path) -> None:
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""]
    command += ["--appendonly", "no", "--dir", str(folder)]
    process, log = processes.start("redis", command, dict(os.environ))
    deadline = time.monotonic() + 10
    while "Ready to accept connections" not in log.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"redis-server did not start:\n{log.read_text()[-2000:]}")
        time.sleep(0.02)


# ---------------------------------------------------------------------------------------
# The scene


async def scene(args, data: dict, ports: list[int], redis, log: Log) -> tuple[list, list]:
    """Open the pages, play, take Redis away and give it back; the players' moves and
    every page."""
    players = [
        Page(log, ports[n % len(ports)], data["table"], session)
        for n, session in enumerate(data["sessions"])
    ]
    watchers = [
        Page(log, ports[n % len(ports)], table_id, data["watcher"])
        for n, table_id in enumerate(data["bot_tables"])
    ]
    pages = players + watchers
    await asyncio.gather(*(page.start() for page in pages))
    stop = asyncio.Event()
    playing = asyncio.create_task(play_table(players, args.pace, stop, args.seed))
    await asyncio.sleep(args.before)
    log.down_at = time.monotonic()
    await asyncio.to_thread(redis.take_away)
    await asyncio.sleep(args.down)
    await asyncio.to_thread(redis.give_back)
    log.back_at = time.monotonic()
    await asyncio.sleep(args.after)
    stop.set()
    moves = await playing
    for page in pages:
        page.close()
    return moves, pages


class Redis:
    def __init__(self, processes: Processes, port: int, folder: Path, pause: bool) -> None:
        self.processes, self.port, self.folder, self.pause = processes, port, folder, pause

    def take_away(self) -> None:
        if self.pause:
            self._process().send_signal(signal.SIGSTOP)
        else:
            self.processes.stop("redis")

    def give_back(self) -> None:
        if self.pause:
            self._process().send_signal(signal.SIGCONT)
        else:
            start_redis(self.processes, self.port, self.folder)

    def _process(self):
        return next(entry[1] for entry in self.processes.started if entry[0] == "redis")


def report(data: dict, log: Log, moves: list, pages: list[Page], stalled: int, logs: str) -> None:
    from games.models import Action

    back, down = log.back_at, log.down_at
    failed = [(t, what, status) for t, what, status in log.requests if not status or status >= 500]
    during = [r for r in failed if down <= r[0] <= back]
    print(f"requests: {len(log.requests)}, answered 5xx or not at all: {len(failed)}", end="")
    if failed:
        last = max(r[0] for r in failed) - back
        print(f" ({len(during)} while Redis was out; the last {last:+.1f} s from its return)")
    else:
        print()
    saved = 0
    for seat, version, action, status in moves:
        if status is None or status >= 500:
            saved += Action.objects.filter(
                table_id=data["table"], seq=version + 1, seat=seat, payload={"action": action}
            ).exists()
    answered = sum(status == 200 for *_, status in moves)
    print(
        f"moves of the players: {len(moves)}, answered 200: {answered};"
        f" answered 5xx or not at all though saved: {saved}"
    )
    print(f"bot tables: {len(data['bot_tables'])}, stopped playing (a follow-up lost): {stalled}")
    delays = []
    never = 0
    for page in pages:
        after = [t - back for t in page.pushed_at if t > back]
        if after:
            delays.append(after[0])
        else:
            never += 1
    if delays:
        print(
            f"pages with a board pushed again after Redis's return: {len(delays)} of {len(pages)},"
            f" the first after p50 {percentile(delays, 0.5):.2f} s, max {max(delays):.2f} s"
        )
    if never:
        print(f"pages with no board pushed after Redis's return: {never}")
    warnings = [line for line in logs.splitlines() if "WARNING" in line or "ERROR" in line]
    tracebacks = logs.count("Traceback")
    print(
        f"server logs: {len(warnings)} warning or error lines, {tracebacks} tracebacks;"
        f" {logs.count('failed, the site goes on')} 'failed' and"
        f" {logs.count('works again')} 'works again' lines"
    )


def stalled_tables(table_ids: list[int]) -> int:
    """The tables still in play without a move in the last 5 seconds (their bots move
    about once a second)."""
    import datetime

    from django.db.models import Max
    from django.utils import timezone

    from games.models import Table

    since = timezone.now() - datetime.timedelta(seconds=5)
    playing = Table.objects.filter(pk__in=table_ids, status=Table.Status.PLAYING)
    return playing.annotate(last=Max("actions__created_at")).filter(last__lt=since).count()


def conduct(args) -> int:
    import django

    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)  # this process tells no page of its own changes
    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if shutil.which("redis-server") is None:
        print("skipped: redis-server is not installed")
        return 0
    with tempfile.TemporaryDirectory(prefix="belote-outage-bench-") as folder:
        folder = Path(folder)
        connection.settings_dict.setdefault("TEST", {})["NAME"] = str(folder / "db.sqlite3")
        created = setup_databases(verbosity=0, interactive=False)
        processes = Processes(folder)
        try:
            port = free_port()
            start_redis(processes, port, folder)
            data = live_bench.prepare(args)  # the bot tables' first moves are queued
            env = {
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "belote_site.settings.bench",
                "DATABASE_URL": f"sqlite:///{connection.settings_dict['NAME']}",
                "REDIS_URL": f"redis://127.0.0.1:{port}/0",
                "PYTHONUNBUFFERED": "1",
            }
            env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            ports = [processes.daphne(env) for _ in range(2)]
            worker = [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval"]
            processes.start("worker", [*worker, str(WORKER_INTERVAL)], env)
            redis = Redis(processes, port, folder, args.pause)
            how = "paused (SIGSTOP)" if args.pause else "stopped (SIGTERM)"
            print(f"Python {platform.python_version()}, {platform.machine()}, seed {args.seed}")
            print(
                f"2 Daphne processes, the task worker, Redis {how} {args.before:g} s in for"
                f" {args.down:g} s, then {args.after:g} s more; 1 table of 4 players (a move"
                f" every {args.pace:g} s at most), {args.bot_tables} bot tables played by the"
                " worker, each watched by a page"
            )
            sys.stdout.flush()
            log = Log()
            moves, pages = asyncio.run(scene(args, data, ports, redis, log))
            stalled = stalled_tables(data["bot_tables"])
            logs = processes.stop("worker") + processes.stop("daphne") + processes.stop("redis")
            report(data, log, moves, pages, stalled, logs)
            return 0
        finally:
            processes.stop_all()
            if args.log_dir:
                logs_only = shutil.ignore_patterns("*.sqlite3*", "*.rdb")
                shutil.copytree(folder, args.log_dir, ignore=logs_only, dirs_exist_ok=True)
            connection.close()
            teardown_databases(created, verbosity=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot-tables", type=int, default=10, help="bot tables (10)")
    parser.add_argument("--before", type=float, default=5, help="seconds before the outage (5)")
    parser.add_argument("--down", type=float, default=5, help="seconds without Redis (5)")
    parser.add_argument("--after", type=float, default=20, help="seconds after its return (20)")
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between moves (0.1)")
    parser.add_argument("--pause", action="store_true", help="SIGSTOP Redis instead of stopping it")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--log-dir", type=Path, help="keep the processes' logs there")
    return conduct(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
