"""The live bench's clients (bench/live_bench.py): HTTP/1.1 with keep-alive and a
websocket, in asyncio, and the CPU time of the server's processes. Also the bench's
settings, and the checkout it measures (importing this module puts it on sys.path)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import sys
import threading
from pathlib import Path
from urllib.parse import urlencode

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

    def __init__(
        self, pids: list[int], database: str | None, roles: dict[int, str] | None = None
    ) -> None:
        self.pids = pids
        self.roles = roles or {}  # pid -> what it is ("daphne", "bots"), for the split
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
        self.parts: dict[str, float] = {}
        for pid in self._last:
            role = self.roles.get(pid, "postgres" if pid not in self.pids else "other")
            self.parts[role] = self.parts.get(role, 0.0) + self._last[pid] - self._first[pid]
        self.moves = moves

    def report(self, what: str) -> str:
        if not self.moves:
            return f"CPU time: no {what} counted"
        per_move = self.seconds / self.moves * 1000
        roles = {
            role: round(seconds / self.moves * 1000, 3) for role, seconds in self.parts.items()
        }
        figures = {"what": what, "ms_per_move": round(per_move, 3), "moves": self.moves}
        print("CPU " + json.dumps(figures | {"parts": roles}))
        split = ", ".join(f"{role} {ms:.2f}" for role, ms in sorted(roles.items()))
        return (
            f"CPU time of the server's processes: {per_move:.2f} ms per {what}"
            f" ({self.seconds:.2f} s over {self.moves}; ms per move by process: {split})"
        )
