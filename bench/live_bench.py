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
import base64
import hashlib
import heapq
import json
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

# The checkout whose server runs: this one, or the baseline's (``--baseline``).
ROOT = Path(os.environ.get("LIVE_BENCH_CODE") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "belote_site.settings.test"

POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/belote"
REDIS_URL = "redis://127.0.0.1:6379/14"
P99_GOAL_MS = 50.0
WARMUP_MOVES = 20  # played first and not counted
MOVE_TIMEOUT = 5.0  # seconds for the other pages to show a move
TABLES_PER_WATCHER = 8  # bot tables watched by one user (settings.LIVE_SOCKETS_PER_USER)
MAX_TIMEOUTS = 3  # then the server is saturated: the scenario stops
CATCH_UP_SECONDS = 30  # for the pages to agree on the version again after a timeout
SCENARIO_SECONDS = 120  # a scenario stops measuring after this, whatever --moves says
BOT_PROCESSES = 2
SESSION_COOKIE = "sessionid"


# ---------------------------------------------------------------------------------------
# Minimal asyncio clients: HTTP/1.1 with keep-alive, and a websocket


class Http:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1:port, one request at a time.

    ``cookies`` is the jar, shared by reference with the page's other connections.
    """

    def __init__(self, port: int, cookies: dict[str, str]) -> None:
        self.port = port
        self.cookies = cookies
        self.lock = asyncio.Lock()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, *, form: dict | None = None, headers: dict | None = None
    ) -> tuple[int, bytes]:
        async with self.lock:
            return await self._request(method, path, form, headers)

    async def _request(self, method, path, form, headers) -> tuple[int, bytes]:
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                return await self._exchange(method, path, form, headers or {})
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2 or method != "GET":
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, method, path, form, headers) -> tuple[int, bytes]:
        body = urlencode(form).encode() if form is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if form is not None:
            lines.append("Content-Type: application/x-www-form-urlencoded")
        lines.append(f"Content-Length: {len(body)}")
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()

        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("connection closed")
        status = int(status_line.split()[1])
        received: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                cookie, _, _ = value.partition(";")
                key, _, val = cookie.partition("=")
                self.cookies[key.strip()] = val.strip()
            received[name] = value
        if received.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readline()
            while (await self.reader.readline()) not in (b"\r\n", b"\n", b""):
                pass  # trailers
            content = b"".join(chunks)
        elif "content-length" in received:
            content = await self.reader.readexactly(int(received["content-length"]))
        else:
            content = await self.reader.read()
            self.close()
        if received.get("connection", "").lower() == "close":
            self.close()
        return status, content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Socket:
    """A websocket client: text messages in (as JSON), text messages out (masked)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, path: str, cookies: dict[str, str]) -> Socket:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        handshake = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\r\n"
        )
        writer.write(handshake.encode())
        await writer.drain()
        status = await reader.readline()
        accept = ""
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "sec-websocket-accept":
                accept = value.strip()
        expected = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        if b" 101 " not in status or accept != expected:
            writer.close()
            raise ConnectionError(f"websocket {path} refused: {status.decode().strip()}")
        return cls(reader, writer)

    async def receive(self) -> dict | None:
        """The next text message, or None once the server closed the socket."""
        parts: list[bytes] = []
        while True:
            try:
                head = await self.reader.readexactly(2)
                length = head[1] & 0x7F
                if length == 126:
                    length = int.from_bytes(await self.reader.readexactly(2), "big")
                elif length == 127:
                    length = int.from_bytes(await self.reader.readexactly(8), "big")
                mask = await self.reader.readexactly(4) if head[1] & 0x80 else b""
                payload = await self.reader.readexactly(length)
            except (asyncio.IncompleteReadError, ConnectionError):
                return None
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = head[0] & 0x0F
            if opcode == 0x8:  # close
                await self._send_frame(0x8, payload[:2])
                return None
            if opcode == 0x9:  # ping
                await self._send_frame(0xA, payload)
                continue
            if opcode in (0x1, 0x0):
                parts.append(payload)
                if head[0] & 0x80:  # final fragment
                    return json.loads(b"".join(parts))
            # pong, binary: ignored

    async def send(self, message: dict) -> None:
        await self._send_frame(0x1, json.dumps(message).encode())

    async def _send_frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            head = bytes([0x80 | opcode, 0x80 | length])
        elif length < 1 << 16:
            head = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
        else:
            head = bytes([0x80 | opcode, 0x80 | 127]) + length.to_bytes(8, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        try:
            self.writer.write(head + mask + masked)
            await self.writer.drain()
        except ConnectionError:
            pass

    def close(self) -> None:
        self.writer.close()


# ---------------------------------------------------------------------------------------
# CPU time of the server's processes, from their own accounting


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of a process (/proc/<pid>/stat), in seconds; None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuClock:
    """The CPU time that the server's processes spend over a stretch of the bench: the
    Daphne and bot processes (``pids``), and on PostgreSQL the backends serving the
    bench's database (found in ``pg_stat_activity`` when the stretch starts and ends, and
    every half second in between, so that a backend that comes and goes counts too). The
    bench's own clients and this process are not counted."""

    def __init__(self, pids: list[int], database: str | None) -> None:
        self.pids = pids
        self.database = database
        self.started = False
        self.seconds = 0.0
        self.moves = 0
        self._first: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._sampler: threading.Thread | None = None
        self._stop = threading.Event()

    def _backends(self) -> list[int]:
        """The PostgreSQL backends of the bench's database. Asked from a thread of its own:
        start() and stop() run in the event loop, where Django refuses a query."""
        if self.database is None:
            return []
        found: list[int] = []

        def query() -> None:
            import django.db

            try:
                with django.db.connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT pid FROM pg_stat_activity"
                        " WHERE datname = %s AND pid <> pg_backend_pid()",
                        [self.database],
                    )
                    found.extend(row[0] for row in cursor.fetchall())
            finally:
                django.db.connections.close_all()

        asking = threading.Thread(target=query)
        asking.start()
        asking.join()
        return found

    def _sample(self, backends: list[int], *, first: bool = False) -> None:
        for pid in [*self.pids, *backends]:
            seconds = cpu_seconds(pid)
            if seconds is None:
                continue
            if pid not in self._first:
                # A backend born during the stretch counts from zero.
                self._first[pid] = seconds if first or pid in self.pids else 0.0
            self._last[pid] = seconds

    def start(self) -> None:
        self.started = True
        self._sample(self._backends(), first=True)
        if self.database is not None:
            backends = self._backends

            def sample() -> None:
                while not self._stop.wait(0.5):
                    self._sample(backends())

            self._sampler = threading.Thread(target=sample, daemon=True)
            self._sampler.start()

    def stop(self, moves: int) -> None:
        self._stop.set()
        if self._sampler is not None:
            self._sampler.join()
        self._sample(self._backends())
        self.seconds = sum(self._last[pid] - self._first[pid] for pid in self._last)
        self.moves = moves

    def report(self, what: str) -> str:
        if not self.moves:
            return f"CPU time: no {what} counted"
        per_move = self.seconds / self.moves * 1000
        print(
            "CPU "
            + json.dumps({"what": what, "ms_per_move": round(per_move, 3), "moves": self.moves})
        )
        return (
            f"CPU time of the server's processes: {per_move:.2f} ms per {what}"
            f" ({self.seconds:.2f} s over {self.moves})"
        )


# ---------------------------------------------------------------------------------------
# A page of the table, as static/js/table.js drives it

BOARD_VERSION = re.compile(r'<section id="board"[^>]*?\sdata-version="(\d+)"')
ACTION_BUTTON = re.compile(r'<button\b[^>]*\sname="action"[^>]*>')
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Page:
    """One player's (or watcher's) table page: its board fragment, its socket, and when it
    came to show each version."""

    def __init__(self, port: int, table_id: int, session: str) -> None:
        self.port = port
        self.table_id = table_id
        # Two connections, as a browser opens several: the refetches, and the moves.
        cookies = {SESSION_COOKIE: session}
        self.http = Http(port, cookies)
        self.moves_http = Http(port, cookies)
        self.socket: Socket | None = None
        self.html = ""
        self.shown = 0
        self.heard = 0
        self.presence_moved = False
        self.pending = 0  # own moves in flight: their answer is the fresh board
        self.wake = asyncio.Event()
        self.waiters: dict[int, list[asyncio.Future]] = {}
        self.fetches = 0
        self.pushes = 0  # boards the socket brought, swapped in without a refetch
        self.pushed: tuple[int, str] | None = None
        self.told = 0  # the newest version the server knows this page has
        self.heard_at: dict[int, float] = {}  # when the socket told each version
        self.failure = ""  # why this page stopped following the table, if it did
        self.tasks: list[asyncio.Task] = []

    @property
    def board_url(self) -> str:
        return f"/tables/{self.table_id}/plateau/"

    def htmx_headers(self) -> dict[str, str]:
        return {
            "HX-Request": "true",
            "HX-Current-URL": f"http://127.0.0.1:{self.port}/tables/{self.table_id}/",
            "Origin": f"http://127.0.0.1:{self.port}",
        }

    async def start(self) -> None:
        # The whole page first, as a browser opens it (it sets the CSRF cookie).
        status, body = await self.http.request("GET", f"/tables/{self.table_id}/")
        if status != 200:
            raise RuntimeError(f"GET /tables/{self.table_id}/: {status}")
        await self.fetch()
        self.socket = await Socket.open(
            self.port, f"/ws/tables/{self.table_id}/", self.http.cookies
        )
        await self.socket.send({"want": "version"})
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._refresh())]

    def _show(self, html: str) -> None:
        found = BOARD_VERSION.search(html)
        if found is None:
            raise RuntimeError(f"no board in the answer: {html[:300]!r}")
        now = time.perf_counter()
        self.html = html
        self.shown = max(self.shown, int(found.group(1)))
        for version in [v for v in self.waiters if v <= self.shown]:
            for future in self.waiters.pop(version):
                if not future.done():
                    future.set_result(now)

    def reached(self, version: int) -> asyncio.Future:
        """Resolves to the perf_counter time at which this page shows ``version``."""
        future = asyncio.get_running_loop().create_future()
        self.waiters.setdefault(version, []).append(future)
        return future

    async def fetch(self) -> None:
        status, body = await self.http.request("GET", self.board_url, headers=self.htmx_headers())
        if status != 200:
            raise RuntimeError(f"GET {self.board_url}: {status}")
        self.fetches += 1
        self._show(body.decode())
        await self.tell_shown()

    async def _listen(self) -> None:
        while (message := await self.socket.receive()) is not None:
            if isinstance(message.get("version"), int):
                self.heard = max(self.heard, message["version"])
                self.heard_at.setdefault(message["version"], time.perf_counter())
                if isinstance(message.get("html"), str):
                    self.pushed = (message["version"], message["html"])
                    self.told = max(self.told, message["version"])
            if message.get("presence"):
                self.presence_moved = True
            self.wake.set()
        self.failure = self.failure or "the server closed the websocket"

    async def _refresh(self) -> None:
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                while not self.pending and (self.presence_moved or self.heard > self.shown):
                    self.presence_moved = False
                    pushed, self.pushed = self.pushed, None
                    if pushed is not None and pushed[0] >= max(self.heard, self.shown):
                        self.pushes += 1
                        self._show(pushed[1])
                    else:
                        await self.fetch()
        except (OSError, RuntimeError, asyncio.IncompleteReadError) as error:
            self.failure = f"refetch failed: {error!r}"

    def choices(self) -> list[str]:
        """The actions this page lights: its enabled action and card buttons."""
        values = []
        for tag in ACTION_BUTTON.findall(self.html):
            if re.search(r"\sdisabled[\s>]", tag):
                continue
            value = re.search(r'\svalue="([^"]*)"', tag)
            if value:
                values.append(value.group(1))
        return values

    async def play(self, action: str) -> int:
        csrf = CSRF_INPUT.search(self.html).group(1)
        form = {"csrfmiddlewaretoken": csrf, "version": self.shown, "action": action}
        self.pending += 1
        try:
            status, body = await self.moves_http.request(
                "POST", f"/tables/{self.table_id}/jouer/", form=form, headers=self.htmx_headers()
            )
        finally:
            self.pending -= 1
        if status in (200, 409, 422):
            self._show(body.decode())
            await self.tell_shown()
        self.wake.set()  # what the socket said meanwhile
        return status

    async def tell_shown(self) -> None:
        """As the page does after a board the socket did not bring: the socket need not
        render that version for it."""
        if self.shown > self.told and self.socket is not None:
            self.told = self.shown
            await self.socket.send({"shown": self.shown})

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        if self.socket is not None:
            self.socket.close()
        self.http.close()
        self.moves_http.close()


async def measure_moves(
    ports: list[int],
    table_id: int,
    sessions: list[str],
    moves: int,
    seed: int,
    pause: float,
    cpu: CpuClock | None = None,
) -> dict:
    """Play ``moves`` (after the warm-up) at the table, the four pages open, spread over the
    Daphne processes as a proxy would (page i on ``ports[i % len(ports)]``)."""
    rng = random.Random(seed)
    pages = [
        Page(ports[number % len(ports)], table_id, session)
        for number, session in enumerate(sessions)
    ]
    for page in pages:
        await page.start()
    await asyncio.sleep(0.5)  # the presence pings of the four arrivals settle
    per_move: list[list[float]] = []  # the three other pages' latencies of each move, ms
    answers: list[float] = []
    told: list[float] = []  # when the websocket message reached each other page, ms
    timeouts = refused = played = 0
    failure = ""
    stop_at = time.monotonic() + SCENARIO_SECONDS
    try:
        while played < WARMUP_MOVES + moves and not failure:
            mover = await next_mover(pages)
            failure = next((f"page {n}: {p.failure}" for n, p in enumerate(pages) if p.failure), "")
            if mover is None:
                failure = failure or f"the pages did not catch up within {CATCH_UP_SECONDS} s"
            elif time.monotonic() > stop_at:
                failure = f"stopped after {SCENARIO_SECONDS} s"
            if failure:
                break
            played += 1
            if played == WARMUP_MOVES + 1 and cpu is not None:
                cpu.start()
            action = rng.choice(mover.choices())
            others = [page for page in pages if page is not mover]
            target = mover.shown + 1
            waits = [page.reached(target) for page in others]
            started = time.perf_counter()
            status = await mover.play(action)
            answered = time.perf_counter()
            if status != 200:
                refused += 1
                for future in waits:
                    future.cancel()
            else:
                try:
                    shown = await asyncio.wait_for(asyncio.gather(*waits), MOVE_TIMEOUT)
                except TimeoutError:
                    timeouts += 1
                    if timeouts >= MAX_TIMEOUTS:
                        failure = f"{timeouts} moves not shown within {MOVE_TIMEOUT:g} s"
                    continue
                if played > WARMUP_MOVES:
                    answers.append((answered - started) * 1000)
                    per_move.append(sorted((at - started) * 1000 for at in shown))
                    told += [
                        (page.heard_at[target] - started) * 1000
                        for page in others
                        if target in page.heard_at
                    ]
            await asyncio.sleep(pause)
    finally:
        for page in pages:
            page.close()
    if cpu is not None and cpu.started:
        cpu.stop(len(answers))
    return {
        "per_move": per_move,
        "latencies": [ms for move in per_move for ms in move],
        "answers": answers,
        "told": told,
        "timeouts": timeouts,
        "refused": refused,
        "failure": failure,
    }


async def next_mover(pages: list[Page]) -> Page | None:
    """The page that lights a move, once the pages agree on the version; None if they
    do not within CATCH_UP_SECONDS (after a timeout, the others are still behind)."""
    deadline = time.monotonic() + CATCH_UP_SECONDS
    while time.monotonic() < deadline:
        if len({page.shown for page in pages}) == 1:
            mover = next((page for page in pages if page.choices()), None)
            if mover is not None:
                return mover
        if any(page.failure for page in pages):
            return None
        await asyncio.sleep(0.02)
    return None


async def watch_tables(
    ports: list[int], table_ids: list[int], session: str, stop: asyncio.Event
) -> dict:
    """One page per table, refetching its board at every version, until ``stop``; the
    pages spread over the Daphne processes. ``session``: the watchers' sessions, comma
    separated, each for TABLES_PER_WATCHER tables in turn."""
    sessions = session.split(",")
    pages = [
        Page(ports[number % len(ports)], table_id, sessions[number // TABLES_PER_WATCHER])
        for number, table_id in enumerate(table_ids)
    ]
    starting = asyncio.gather(*(page.start() for page in pages), return_exceptions=True)
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait([starting, stopping], return_when=asyncio.FIRST_COMPLETED)
    not_started = len(pages)
    if starting.done():
        not_started = sum(isinstance(outcome, BaseException) for outcome in starting.result())
    else:  # stopped before every page was up (a saturated server)
        starting.cancel()
    await stopping
    for page in pages:
        page.close()
    return {
        "fetches": sum(page.fetches for page in pages),
        "pushes": sum(page.pushes for page in pages),
        "not_started": not_started,
        "failed": sum(bool(page.failure) for page in pages),
    }


# ---------------------------------------------------------------------------------------
# Background roles, each in a process of its own (``--role``)


def run_watchers(args) -> int:
    table_ids = [int(n) for n in args.tables.split(",")]

    async def main() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        started = time.monotonic()
        ports = [int(n) for n in args.ports.split(",")]
        outcome = await watch_tables(ports, table_ids, args.session, stop)
        print(json.dumps({**outcome, "seconds": time.monotonic() - started}))
        return 0

    return asyncio.run(main())


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
            status, version = Table.objects.values_list("status", "version").get(pk=table_id)
            if status != Table.Status.PLAYING:
                finished += 1
                continue
            moves += service.play_bot_move(table_id, version, notify_bots=False) is not None
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
    cpu = CpuClock(processes.pids("daphne"), database)
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
    cpu = CpuClock(processes.pids("daphne"), database)
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
    if not args.unwatched:
        command = [sys.executable, script, "--role", "watchers"]
        command += ["--ports", ",".join(map(str, ports))]
        command += ["--session", ",".join(data["watchers"])]
        command += ["--tables", ",".join(map(str, tables))]
        processes.start("watchers", command, redis_env)
    for number in range(BOT_PROCESSES):
        share = tables[number::BOT_PROCESSES]
        command = [sys.executable, script, "--role", "bots", "--tables", ",".join(map(str, share))]
        command += ["--bot-interval", str(args.bot_interval), "--seed", str(args.seed + number)]
        processes.start("bots", command, redis_env)
    time.sleep(3)  # the watchers connect, the bots reach their pace
    # The bots alone first: the CPU time of a bot move with its watching page.
    cpu = CpuClock(processes.pids("daphne") + processes.pids("bots"), database)
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
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    parser.add_argument("--session", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.role == "bots":
        return run_bots(args)
    if args.role == "watchers":
        return run_watchers(args)
    if args.baseline:
        return compare(args.baseline, argv if argv is not None else sys.argv[1:])
    return conduct(args)


def compare(baseline: Path, argv: list[str]) -> int:
    """Run the whole bench on the baseline's server, then on this one's, one after the
    other (each with its own ``.venv``), and set their CPU times side by side."""
    own = [a for i, a in enumerate(argv) if a != "--baseline" and argv[i - 1 : i] != ["--baseline"]]
    own = [a for a in own if not a.startswith("--baseline=")]
    figures = {}
    for code in (baseline.resolve(), Path(__file__).resolve().parents[1]):
        python = code / ".venv" / "bin" / "python"
        env = {**os.environ, "LIVE_BENCH_CODE": str(code)}
        print(f"=== server code: {code}", flush=True)
        run = subprocess.run(
            [str(python) if python.exists() else sys.executable, __file__, *own],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        print(run.stdout, end="", flush=True)
        figures[code] = [
            json.loads(line[4:]) for line in run.stdout.splitlines() if line.startswith("CPU {")
        ]
        if run.returncode:
            return run.returncode
    (before, after) = figures.values()
    print("CPU time per move, baseline -> this code:")
    for old, new in zip(before, after, strict=False):
        print(
            f"  {new['what']}: {old['ms_per_move']:.2f} ms -> {new['ms_per_move']:.2f} ms"
            f" ({new['ms_per_move'] / old['ms_per_move']:.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
