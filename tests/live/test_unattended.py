"""A live table waits for its players, through the real table websocket: the last seated
player's page closing pauses it, a player's page connecting again resumes it
(games/tables/attendance.py, from games/live/consumers.py through games/timing/absence.py).

Issue 15: "When no human is connected to a live table, it waits for them. Today, once
every human has closed the page, stand-in bots take the seats one by one and finish the
game alone [...]. Stand-ins keep playing for an absent player only while at least one
human is at the table. With nobody there, the clock stops and nothing is played until
someone returns."

The database is committed for real (``transaction=True``): the consumer's writes are seen
by the task worker (``run_worker``) and the sweep, which play what is queued.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone

from games.models import Action, Table
from games.tables import service
from games.timing.sweep import sweep
from tests.factories import fixed_deck
from tests.live.conftest import PATIENCE, drain, receive, run, socket_headers
from tests.timing.helpers import after, fresh, run_worker

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("keep_signal_handlers"),
]

N, E, S, W = range(4)
PAUSED = "Personne n'est à la table : la partie est en pause."


def new_table(creator, players, *, bot_at_west: bool) -> Table:
    """North deals: West acts first, a heuristic bot with ``bot_at_west``."""
    seated = {p: players[p] for p in (N, E, S, W) if p != W or not bot_at_west}
    bots = {W: "heuristic"} if bot_at_west else {}
    table = service.create_table(created_by=creator, preset="classique", players=seated, bots=bots)
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(3))
    return fresh(table)


@sync_to_async
def kinds(table: Table, after_version: int) -> list[str]:
    actions = table.actions.filter(seq__gt=after_version).order_by("seq")
    return list(actions.values_list("kind", flat=True))


@sync_to_async
def sweep_at(moment, seconds: float) -> int:
    """The sweep, run ``seconds`` after ``moment``."""
    with after(moment, seconds=seconds):
        return sweep()


@sync_to_async
def table_now(table: Table) -> Table:
    return fresh(table)


@sync_to_async
def bot_moves(table: Table) -> list[tuple[int, str]]:
    moves = table.actions.filter(source=Action.Source.BOT).order_by("seq")
    return list(moves.values_list("seat", "kind"))


@sync_to_async
def stood_in(table: Table) -> list[int]:
    return list(table.seats.filter(stand_in=True).values_list("position", flat=True))


worker = sync_to_async(run_worker)


async def board_from(socket, version: int) -> str:
    """The first board ``socket`` gets at ``version``: pushed for the change, or for the
    presence event that came with it (rendered as the table is by then)."""
    while True:
        message = await receive(socket, timeout=PATIENCE)
        if message.get("version") == version and "html" in message:
            return message["html"]
        assert message.get("version", 0) < version, message


@sync_to_async
def worker_at(moment, seconds: float) -> None:
    """The task worker, run ``seconds`` after ``moment``."""
    with after(moment, seconds=seconds):
        run_worker()


def test_nobody_left_at_the_table_nothing_is_played_until_a_player_is_back(creator, players):
    """North closes the only page of a player: the table pauses (the creator, watching
    without a seat, reads it live), the worker and the sweep play nothing, even hours
    later; North back, the bot plays again."""
    table = new_table(creator, players, bot_at_west=True)
    version = table.version
    watching, north = socket_headers(creator), socket_headers(players[N])

    async def scenario(sockets):
        watcher = await sockets.accepted(table.pk, watching)
        page = await sockets.accepted(table.pk, north)
        await drain(watcher)
        await page.disconnect()
        sockets.opened.remove(page)

        assert PAUSED in await board_from(watcher, version + 1)

        await worker()  # West's move, queued by the start
        assert await sweep_at(timezone.now(), 6 * 3600) == 0
        assert await kinds(table, version) == ["pause"] and await bot_moves(table) == []

        # North comes back: the table resumes, the board says so at once, and the worker
        # plays West's move.
        await sockets.accepted(table.pk, north)
        assert PAUSED not in await board_from(watcher, version + 2)
        await worker()
        assert (await table_now(table)).unattended_since is None
        assert (await kinds(table, version))[:2] == ["pause", "resume"]
        assert (await bot_moves(table))[0][0] == W

    run(scenario)


def test_with_a_player_still_there_a_stand_in_plays_for_the_absent(creator, players):
    """South keeps the table open; West, to act, has closed theirs: after the grace
    period the sweep stands in for West, and the stand-in plays."""
    table = new_table(creator, players, bot_at_west=False)
    version = table.version
    south, west = socket_headers(players[S]), socket_headers(players[W])

    started = table.actions.get(kind="start").created_at

    async def scenario(sockets):
        await sockets.accepted(table.pk, south)
        gone = await sockets.accepted(table.pk, west)
        await gone.disconnect()
        sockets.opened.remove(gone)
        assert (await table_now(table)).unattended_since is None

        assert await sweep_at(started, settings.LIVE_GRACE_SECONDS + 1) == 1
        await worker_at(started, settings.LIVE_GRACE_SECONDS + 2)
        assert await stood_in(table) == [W]
        assert (await kinds(table, version))[0] == "stand_in"
        assert (await bot_moves(table))[0][0] == W
        assert "pause" not in await kinds(table, version)

    run(scenario)


def test_the_last_player_leaving_during_their_turn_stops_their_clock(creator, players):
    table = new_table(creator, players, bot_at_west=False)
    west = socket_headers(players[W])
    deadline, version = table.deadline, table.version
    assert deadline is not None

    async def scenario(sockets):
        page = await sockets.accepted(table.pk, west)
        await page.disconnect()
        sockets.opened.remove(page)

        paused = await table_now(table)
        assert paused.deadline is None and paused.unattended_since is not None
        assert await sweep_at(deadline, 3600) == 0
        assert await kinds(table, version) == ["pause"]
        assert await stood_in(table) == []

    run(scenario)


def test_a_table_abandoned_for_want_of_players_stays_so_when_one_comes_back(creator, players):
    table = new_table(creator, players, bot_at_west=True)
    north = socket_headers(players[N])
    service.play_bot_move(table.pk, table.version)  # nobody there: it pauses
    since = fresh(table).unattended_since
    day = settings.LIVE_ABANDON_AFTER_SECONDS
    with after(since, seconds=day + 1):
        assert sweep() == 1
    abandoned = fresh(table)

    async def scenario(sockets):
        await sockets.accepted(table.pk, north)
        still = await table_now(table)
        assert still.status == Table.Status.ABANDONED and still.version == abandoned.version

    run(scenario)
