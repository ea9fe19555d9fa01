"""The live bench's set-up (bench/live_bench.py): the measured checkout's modules, the
server's processes, the tables and players, the report of a scenario, Redis."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

from live_http import MOVE_TIMEOUT, ROOT, SESSION_COOKIE, TABLES_PER_WATCHER


def project_module(path: str):
    """A module of the measured checkout by its path since issue 14 (``games.tables.service``),
    or by its older one (``games.service``) in a checkout from before: a bench may measure
    a baseline of either layout (``--baseline``)."""
    from importlib import import_module

    try:
        return import_module(path)
    except ModuleNotFoundError:
        return import_module(OLD_PATHS[path])


OLD_PATHS = {
    "games.tables.service": "games.service",
    "games.tables.boards": "games.live",
    "games.tables.selectors": "games.selectors",
    "games.tables.writes": "games.service",
}


# ---------------------------------------------------------------------------------------
# The conductor


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def daphne_command() -> list[str]:
    script = Path(sys.executable).parent / "daphne"
    prefix = [str(script)] if script.exists() else [sys.executable, "-m", "daphne"]
    return [*prefix, "-b", "127.0.0.1", "-p", "0", "belote_site.asgi:application"]


class Processes:
    """The processes a scenario starts (Daphne, bots, watchers); stopped in reverse order."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        self.started: list[tuple[str, subprocess.Popen, Path]] = []

    def start(self, name: str, command: list[str], env: dict) -> tuple[subprocess.Popen, Path]:
        self.count += 1
        log = self.folder / f"{self.count:02}-{name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        self.started.append((name, process, log))
        return process, log

    def daphne(self, env: dict) -> int:
        process, log = self.start("daphne", daphne_command(), env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.search(r"Listening on TCP address 127\.0\.0\.1:(\d+)", log.read_text())
            if found:
                return int(found.group(1))
            if process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"Daphne did not start:\n{log.read_text()[-3000:]}")

    def pids(self, name: str) -> list[int]:
        return [process.pid for entry_name, process, _ in self.started if entry_name == name]

    def exited(self, name: str) -> bool:
        """Whether a process of that name has stopped."""
        return any(e[0] == name and e[1].poll() is not None for e in self.started)

    def roles(self) -> dict[int, str]:
        """Each running process's name ("daphne", "bots"...), by pid."""
        return {process.pid: name for name, process, _ in self.started}

    def stop(self, name: str) -> str:
        """Stop the named processes (SIGTERM, then SIGKILL) and return their last lines."""
        output = []
        for entry in [e for e in self.started if e[0] == name]:
            _, process, log = entry
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            output.append(log.read_text(errors="replace"))
            self.started.remove(entry)
        return "\n".join(output)

    def stop_all(self) -> None:
        for name in reversed(list(dict.fromkeys(e[0] for e in self.started))):
            self.stop(name)


def server_errors(log: str) -> str:
    """A line about the errors in Daphne's log, if there are any."""
    lines = [line for line in log.splitlines() if " ERROR " in line or " WARNING " in line]
    if not lines:
        return ""
    return f"server log: {len(lines)} errors or warnings, the first: {lines[0][:300]}"


def last_json(text: str) -> dict:
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return {}


def four_players(prefix: str):
    """Four new users (``<prefix>0`` to ``<prefix>3``) seated at a new classique table in
    1000 points, in its lobby: the users and the table."""
    from accounts.models import User

    service = project_module("games.tables.service")

    players = [
        User.objects.create_user(username=f"{prefix}{p}", email=f"{prefix}{p}@example.org")
        for p in range(4)
    ]
    table = service.create_table(
        created_by=players[0],
        preset="classique",
        options={"target": 1000},
        players=dict(enumerate(players)),
    )
    return players, table


def prepare(args) -> dict:
    """Users, the measured table and the bot tables, in the throwaway database."""
    from django.db import connections
    from django.test import Client

    from accounts.models import User
    from games.models import BotLevel

    service = project_module("games.tables.service")

    def session_of(user) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies[SESSION_COOKIE].value

    players, table = four_players("live")
    service.start_table(table_id=table.pk)
    # The watching pages: TABLES_PER_WATCHER tables a user (each the creator of its
    # tables), within the sockets a user may hold (LIVE_SOCKETS_PER_USER).
    watchers = [
        User.objects.create_user(username=f"watcher{n}", email=f"watcher{n}@example.org")
        for n in range(-(-args.bot_tables // TABLES_PER_WATCHER))
    ]
    bot_tables = []
    for number in range(args.bot_tables):
        bots = service.create_table(
            created_by=watchers[number // TABLES_PER_WATCHER],
            preset="classique",
            options={"target": 1000},
            bots=dict.fromkeys(range(4), BotLevel.HEURISTIC),
        )
        service.start_table(table_id=bots.pk)
        bot_tables.append(bots.pk)
    data = {
        "table": table.pk,
        "sessions": [session_of(user) for user in players],
        "watchers": [session_of(watcher) for watcher in watchers],
        "bot_tables": bot_tables,
    }
    connections.close_all()
    return data


def bot_versions(tables: list[int]) -> int:
    """The sum of the bot tables' versions: one more at every move."""
    from django.db import connection
    from django.db.models import Sum

    from games.models import Table

    connection.close()  # a fresh read, whatever the connection saw before
    return Table.objects.filter(pk__in=tables).aggregate(total=Sum("version"))["total"]


def report(name: str, result: dict, extra: str = "") -> float:
    """Print a scenario's figures; return its p99 (infinite when nothing was measured)."""
    latencies = result["latencies"]
    print(f"{name}:")
    if latencies:
        p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
        first = [move[0] for move in result["per_move"]]
        last = [move[-1] for move in result["per_move"]]
        answers = result["answers"]
        print(
            f"  page showing the move: p50 {p50:.1f} ms, p99 {p99:.1f} ms,"
            f" max {max(latencies):.1f} ms ({len(answers)} moves x 3 other pages)"
        )
        told = result["told"] or [float("nan")]
        print(
            f"  where the time goes (p50): websocket message at {percentile(told, 0.5):.1f} ms,"
            f" first / last of the three pages showing it at {percentile(first, 0.5):.1f} /"
            f" {percentile(last, 0.5):.1f} ms; the mover's own answer (POST to fresh board)"
            f" p50 {percentile(answers, 0.5):.1f} ms, p99 {percentile(answers, 0.99):.1f} ms"
        )
    else:
        p99 = float("inf")
        print("  no move measured")
    if result["timeouts"] or result["refused"]:
        print(
            f"  {result['timeouts']} moves not shown within {MOVE_TIMEOUT:g} s (not in the"
            f" figures), {result['refused']} moves refused"
        )
    if result["failure"]:
        print(f"  measuring stopped early: {result['failure']}")
    if extra:
        print(f"  {extra}")
    sys.stdout.flush()
    return p99


def redis_reachable(url: str) -> str:
    """Empty when Redis answers at ``url``, else why not."""
    try:
        import redis
    except ImportError:
        return "the redis package is not installed"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        return str(error)
    return ""


def empty_redis(url: str) -> None:
    """Empty the bench's own Redis database (FLUSHDB of the number in ``url``)."""
    import redis

    redis.Redis.from_url(url).flushdb()
