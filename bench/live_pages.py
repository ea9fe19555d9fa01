"""A table page as static/js/table.js drives it, for the live bench (bench/live_bench.py):
its moves measured from the POST to the other pages showing them, and the pages that
watch the bot tables."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable

from live_http import (
    CATCH_UP_SECONDS,
    MAX_TIMEOUTS,
    MOVE_TIMEOUT,
    SCENARIO_SECONDS,
    SESSION_COOKIE,
    TABLES_PER_WATCHER,
    WARMUP_MOVES,
    CpuClock,
    Http,
    Socket,
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
    ports: list[int],
    table_ids: list[int],
    session: str,
    stop: asyncio.Event,
    ready: Callable[[], None] | None = None,
) -> dict:
    """One page per table, refetching its board at every version, until ``stop``; the
    pages spread over the Daphne processes. ``session``: the watchers' sessions, comma
    separated, each for TABLES_PER_WATCHER tables in turn. ``ready()`` is called once
    every page is up (loaded, its socket open), or could not be."""
    sessions = session.split(",")
    pages = [
        Page(ports[number % len(ports)], table_id, sessions[number // TABLES_PER_WATCHER])
        for number, table_id in enumerate(table_ids)
    ]
    starting = asyncio.gather(*(page.start() for page in pages), return_exceptions=True)
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait([starting, stopping], return_when=asyncio.FIRST_COMPLETED)
    not_started = len(pages)
    # Counted once every page is up (before, the pages were loading): the boards their
    # sockets brought, and those a page fetched because its socket brought none.
    fetched = pushed = 0
    up = time.monotonic()
    if starting.done():
        not_started = sum(isinstance(outcome, BaseException) for outcome in starting.result())
        fetched = sum(page.fetches for page in pages)
        pushed = sum(page.pushes for page in pages)
        up = time.monotonic()
        if ready is not None:
            ready()
    else:  # stopped before every page was up (a saturated server)
        starting.cancel()
    await stopping
    for page in pages:
        page.close()
    return {
        "fetches": sum(page.fetches for page in pages) - fetched,
        "pushes": sum(page.pushes for page in pages) - pushed,
        "seconds": time.monotonic() - up,
        "not_started": not_started,
        "failed": sum(bool(page.failure) for page in pages),
    }
