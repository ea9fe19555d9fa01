"""The site without Redis: moves are saved, answered and followed; Redis back, it heals.

Issue 13: "With Redis down for 5 seconds, 62 requests answered 500 [...]. Two moves
answered 500 had in fact been saved. Their next bot move and deadline were never queued,
because the broadcast raised first. The board fragment also failed, since it reads
presence from Redis. A committed move must always answer success and always queue its
follow-ups. The broadcast and presence are best effort: catch, log, carry on, and recover
by themselves when Redis returns. Test with a channel layer and cache that point to a
closed port."

The channel layer and the cache are the production ones (``redis_channel_layers`` and
``redis_caches`` of belote_site/settings/base.py), pointed at a closed port, or at a
Redis server of the test's own that it stops, pauses and starts again. The database is
committed for real (``transaction=True``), so that the broadcasts after the commit run.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
from contextlib import contextmanager

import pytest
import redis
import time_machine
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from redis import asyncio as aioredis

from belote_site import outage
from belote_site.settings.base import redis_caches, redis_channel_layers
from games import tasks as worker_tasks
from games.models import Action, Pace, Table
from games.tables import presence, service
from games.timing.absence import note_absent
from games.timing.sweep import sweep
from tests.accounts.conftest import PASSWORD, make_player
from tests.factories import fixed_deck, make_table, make_user, make_users
from tests.live.conftest import board_of, drain, receive, run, socket_headers
from tests.table_page.helpers import client_for, play, url
from tests.timing.helpers import after, fresh, run_worker

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("keep_signal_handlers"),
]

N, E, S, W = range(4)
CLOSED_PORT = "redis://127.0.0.1:1/0"


@contextmanager
def redis_at(url: str):
    """The site's channel layer and cache on the Redis at ``url``."""
    with override_settings(CHANNEL_LAYERS=redis_channel_layers(url), CACHES=redis_caches(url)):
        cache.clear()  # this process's stand-in memory too, while Redis is down
        outage.forget_all()
        try:
            yield
        finally:
            cache.clear()
    outage.forget_all()


@pytest.fixture
def redis_down():
    """Redis goes down: the fixtures named before this one were made without it."""
    with redis_at(CLOSED_PORT):
        yield


def live_table(players: dict, bots: dict) -> Table:
    """A live table started from a fixed deck by North: West speaks first, then South
    (the play turns to the right)."""
    table = make_table(players=players, bots=bots)
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(1))
    table = fresh(table)
    assert table.pace == Pace.LIVE and table.turn == W
    return table


@pytest.fixture
def people():
    """North, East and West; South is a bot."""
    north, east, west = make_users(3)
    return {N: north, E: east, W: west}


@pytest.fixture
def table(people) -> Table:
    return live_table(people, {S: "heuristic"})


def queued(name: str, table: Table) -> set[int]:
    """The versions of ``table`` for which a task ``name`` is queued."""
    rows = DBTaskResult.objects.filter(task_path=getattr(worker_tasks, name).module_path)
    return {
        row.args_kwargs["kwargs"]["version"]
        for row in rows
        if row.args_kwargs["kwargs"]["table_id"] == table.pk
    }


def outage_records(caplog, logger: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == logger]


# ---------------------------------------------------------------------------------------
# Redis down: a closed port


def test_a_move_is_saved_answered_and_its_bot_move_queued(table, people, redis_down):
    version = table.version

    response = play(client_for(people[W]), table, "pass")

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="board"')
    assert f'data-version="{version + 1}"' in response.text
    last = fresh(table).actions.order_by("seq").last()
    assert (last.seq, last.seat, last.payload) == (version + 1, W, {"action": "pass"})
    assert queued("play_bot_move_task", table) == {version + 1}  # South, the bot


def test_the_workers_bot_move_queues_the_next_deadline(table, people, redis_down):
    """The task worker's moves broadcast too: its bot move is played, and the clock of the
    human who acts next (East, or West to lead if South took) is started and its expiry
    queued."""
    play(client_for(people[W]), table, "pass")

    run_worker()

    table = fresh(table)
    last = table.actions.order_by("seq").last()
    assert (last.seat, last.source) == (S, Action.Source.BOT)
    assert table.turn in (E, W) and table.deadline is not None
    assert table.version in queued("check_absent_task", table)
    # The absence check, due at the grace period, cannot tell who is there while the
    # cache is down: no stand-in, but the deadline's expiry is queued.
    with time_machine.travel(table.deadline, tick=False):
        run_worker()
    assert table.version in queued("expire_deadline_task", table)
    assert not fresh(table).seats.get(position=table.turn).stand_in


def test_the_sweep_plays_a_stalled_bot_and_stands_in_for_nobody(table, people, redis_down):
    """The sweep acts on its tables as usual, but who has a page open is unknown while
    the cache is down: no stand-in replaces a player who may be watching (it comes once
    Redis answers again, at a later sweep)."""
    play(client_for(people[W]), table, "pass")
    DBTaskResult.objects.all().delete()  # the worker died with its queue

    with after(fresh(table).updated_at, settings.BOT_STALL_SECONDS):
        assert sweep() == 1  # South's stalled move
    table = fresh(table)
    assert table.turn in (E, W)  # East, or West to lead if South took
    with after(table.updated_at, settings.LIVE_GRACE_SECONDS):
        assert sweep() == 0

    assert not table.seats.get(position=table.turn).stand_in
    assert fresh(table).version == table.version


def test_a_live_table_does_not_pause_while_who_is_there_is_unknown(
    table, people, redis_down, caplog
):
    """Issue 15: a live table waits for its players when none is there, but while the
    cache is down nobody can tell: the last page closing pauses nothing, the worker's bot
    plays on, and the failure is logged (games/tables/attendance.py)."""
    play(client_for(people[W]), table, "pass")  # South, the bot, is to act

    note_absent(table.pk, people[W].pk)  # as the socket does when West's page closes
    assert fresh(table).unattended_since is None
    run_worker()

    table = fresh(table)
    bot = table.actions.filter(source=Action.Source.BOT).get()
    assert bot.seat == S and table.unattended_since is None
    assert "pause" not in table.actions.values_list("kind", flat=True)
    warnings = outage_records(caplog, "games.tables.attendance")
    assert warnings and "presence unknown" in warnings[0].getMessage()


def test_the_board_and_the_table_page_are_served(table, people, redis_down):
    play(client_for(people[W]), table, "pass")
    version = fresh(table).version
    client = client_for(people[E])

    board = client.get(url("board", table), headers={"HX-Request": "true"})
    page = client.get(url("table", table))

    assert board.status_code == 200
    assert board.text.lstrip().startswith('<section id="board"')
    assert f'data-version="{version}"' in board.text
    assert page.status_code == 200
    assert f'data-version="{version}"' in page.text


def test_presence_counts_in_the_processs_memory(table, people, redis_down):
    """The dots of the pages this process serves come and go."""
    north, west = people[N].pk, people[W].pk

    assert async_to_sync(presence.arrive)(table.pk, north) is True
    assert presence.connected(table.pk, [north, west]) == {north}
    assert async_to_sync(presence.leave)(table.pk, north) is True
    assert presence.connected(table.pk, [north, west]) == set()


def test_the_other_pages_are_served(people, redis_down):
    client = client_for(people[N])
    for name in ["home", "games:list", "notifications"]:
        assert client.get(reverse(name)).status_code == 200, name


def test_a_player_logs_in(redis_down, client):
    """allauth's rate limits count in the cache: with Redis down, in this process's
    memory. Logging in works."""
    player = make_player()

    assert client.get(reverse("account_login")).status_code == 200
    response = client.post(reverse("account_login"), {"login": player.email, "password": PASSWORD})

    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == player


def test_a_player_logs_in_by_the_emailed_code(redis_down, client):
    """The code requests are limited in the cache too (accounts/forms.py)."""
    player = make_player()

    response = client.post(reverse("account_request_login_code"), {"email": player.email})
    assert response.headers["location"] == reverse("account_confirm_login_code")
    (code,) = re.findall(r"^[A-Z0-9]{4}-[A-Z0-9]{4}$", mail.outbox[-1].body, re.MULTILINE)
    response = client.post(reverse("account_confirm_login_code"), {"code": code})

    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == player


def test_the_login_limit_still_holds_in_the_process(redis_down, client):
    """Fail-safe rather than fail-open: the 5 failures per address in 5 minutes are
    counted in this process's memory while Redis is down (README, "When Redis goes
    away")."""
    player = make_player()
    wrong = {"login": player.email, "password": "pas-le-bon"}
    for _ in range(5):
        assert client.post(reverse("account_login"), wrong).status_code == 422

    response = client.post(reverse("account_login"), {"login": player.email, "password": PASSWORD})

    assert response.status_code == 422
    assert "Trop de tentatives de connexion échouées." in response.text


def test_the_outage_is_logged_once_not_at_every_request(table, people, redis_down, caplog):
    caplog.set_level(logging.WARNING)
    client = client_for(people[E])

    play(client_for(people[W]), table, "pass")
    run_worker()
    for _ in range(3):
        client.get(url("board", table), headers={"HX-Request": "true"})

    (layer,) = outage_records(caplog, "games.live.broadcast")
    assert layer.getMessage() == "the channel layer failed, the site goes on without it"
    assert isinstance(layer.exc_info[1], redis.ConnectionError)
    (cache_down,) = outage_records(caplog, "belote_site.cache")
    assert cache_down.getMessage() == "the Redis cache failed, the site goes on without it"
    assert isinstance(cache_down.exc_info[1], redis.ConnectionError)


def test_a_long_outage_is_recalled_every_minute(table, people, redis_down, caplog):
    caplog.set_level(logging.WARNING)
    client = client_for(people[E])

    with time_machine.travel(timezone.now(), tick=False) as traveller:
        client.get(url("board", table))
        traveller.shift(outage.REMIND_SECONDS - 1)
        client.get(url("board", table))
        traveller.shift(1)
        client.get(url("board", table))

    first, reminder = outage_records(caplog, "belote_site.cache")
    assert reminder.getMessage().startswith("the Redis cache still failing: ")
    assert f"failures in {outage.REMIND_SECONDS} s" in reminder.getMessage()


# ---------------------------------------------------------------------------------------
# A Redis server of the test's own, stopped, paused and started again


class RedisServer:
    """``redis-server`` on a free port of 127.0.0.1, in ``folder``, with nothing saved."""

    def __init__(self, folder) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.folder = folder
        self.process: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Returns once the server says it accepts connections (its own log line)."""
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        for line in self.process.stdout:
            if "Ready to accept connections" in line:
                return
        raise AssertionError(f"redis-server did not start (exit {self.process.wait()})")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()
        self.process.stdout.close()

    @contextmanager
    def paused(self):
        """Stopped by SIGSTOP: connections open, nothing answers (a host out of reach)."""
        self.process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self.process.send_signal(signal.SIGCONT)


@pytest.fixture
def redis_server(tmp_path):
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is missing (apt-get install redis-server)")
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path)
    server.start()
    try:
        with redis_at(server.url):
            yield server
    finally:
        if server.process.poll() is None:
            server.stop()


async def subscribed_again(url: str, table_id: int) -> None:
    """Wait until some process subscribes to the table's group again, as Redis tells its
    MONITOR: the subscription of the page's process comes back by itself, within a
    second of Redis (channels_redis retries every second)."""
    client = aioredis.Redis.from_url(url)
    pattern = f"*__group__table-{table_id}"
    try:
        async with client.monitor() as monitor:
            if await client.pubsub_channels(pattern):
                return
            async for command in monitor.listen():
                if (
                    command["command"].startswith("SUBSCRIBE")
                    and f"table-{table_id}" in (command["command"])
                ):
                    return
    finally:
        await client.aclose()


def pass_in_turn(table: Table) -> service.Outcome:
    table = fresh(table)
    player = table.seats.get(position=table.turn).user
    return service.submit(
        table_id=table.pk, actor=player, action="pass", expected_version=table.version
    )


def test_the_pages_hear_the_moves_again_once_redis_is_back(redis_server, caplog):
    """A page open through the outage misses the move made while Redis was down, and
    hears the next one once Redis is back; the cache is Redis's again."""
    caplog.set_level(logging.WARNING)
    creator = make_user("claire")
    players = make_users(4)
    table = make_table(players=dict(enumerate(players)), created_by=creator)
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(1))
    headers = socket_headers(creator)  # watches without a seat: no move of theirs
    late_headers = socket_headers(players[N])

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        version = (await receive(socket))["version"]
        await drain(socket)

        await asyncio.to_thread(redis_server.stop)
        assert (await sync_to_async(pass_in_turn)(table)).applied
        await asyncio.to_thread(redis_server.start)
        await asyncio.wait_for(subscribed_again(redis_server.url, table.pk), 10)
        assert (await sync_to_async(pass_in_turn)(table)).applied

        message = await receive(socket, timeout=5)
        while message.get("presence"):  # its own arrival, told late: the board as it was
            message = await receive(socket, timeout=5)
        assert board_of(message, version + 2)
        late = await sockets.accepted(table.pk, late_headers)
        assert (await receive(late))["version"] == version + 2
        assert (await receive(socket))["presence"]  # North came: counted, and told
        # Counted in Redis, where every process reads it.
        client = aioredis.Redis.from_url(redis_server.url)
        assert await client.keys(f"*presence:table:{table.pk}:user:{players[N].pk}")
        await client.aclose()

    run(scenario)

    down, back = outage_records(caplog, "games.live.broadcast")
    assert back.getMessage().startswith("the channel layer works again after ")


def test_a_redis_that_does_not_answer_holds_no_move(redis_server, table, people):
    """Paused, Redis accepts connections and answers nothing: each call gives up after
    the short timeouts of the settings, and the move is saved, answered and followed."""
    version = table.version

    with redis_server.paused():
        response = play(client_for(people[W]), table, "pass")
        board = client_for(people[E]).get(url("board", table))

    assert response.status_code == 200
    assert board.status_code == 200
    assert fresh(table).version == version + 1
    assert queued("play_bot_move_task", table) == {version + 1}
