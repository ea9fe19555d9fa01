"""Many pages of one user at a table: bounded, and rendered once (games/live/socket_limits.py,
games/tables/boards.py).

A user may open a table in several tabs, but not without bound: past
LIVE_SOCKETS_PER_TABLE sockets at a table, or LIVE_SOCKETS_PER_USER in all, over every
process, one more is closed with 4429. And the sockets they keep cost one rendering per
move between them, whatever their number: a board is rendered once per seat (or the
spectators' view) and language, each page getting it with a token of its own CSRF cookie.
Renderings are counted with Django's ``template_rendered`` signal, as the test runner
sends it for every template rendered.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from asgiref.sync import sync_to_async
from django.test.signals import template_rendered
from django.urls import reverse

from games import rules as engine
from games.live.consumers import TOO_MANY_SOCKETS
from games.live.socket_limits import Counts
from games.models import Table
from games.tables import lobby, service
from games.tables.selectors import hand_state
from tests.factories import make_user, play_random_move
from tests.live.conftest import board_of, drain, logged_in_client, receive, run, socket_headers
from tests.live.test_consumer import new_table as spectated_table

pytestmark = pytest.mark.django_db(transaction=True)

N, E, S, W = range(4)
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def new_table(creator, players) -> Table:
    return spectated_table(creator, players, spectators=True)


@contextmanager
def board_renderings():
    """The boards rendered meanwhile (games/table/board.html)."""
    rendered: list[str] = []

    def count(sender, template, context, **kwargs):
        if template.name == "games/table/board.html":
            rendered.append(template.name)

    template_rendered.connect(count)
    try:
        yield rendered
    finally:
        template_rendered.disconnect(count)


def test_many_pages_of_one_user_cost_one_rendering_per_move(creator, players):
    """Six tabs of the player to act next (each its own login, its own CSRF cookie), one
    of the player after them, the creator and a spectator: three renderings for the nine
    pages, and a move from any tab's board passes the CSRF check."""
    table = new_table(creator, players)
    spectator = make_user("sacha")
    lobby.join_by_link(table=table, user=spectator, token=table.invite_token)
    table.refresh_from_db()
    mover = players[table.turn]
    state = hand_state(table)
    following = engine.apply(state, engine.Action.parse("pass"), state.turn).turn
    next_player = players[following]
    after = next(p for p in players if p not in (mover, next_player))
    tabs = [logged_in_client(next_player) for _ in range(6)]
    for client in tabs:
        client.handler.enforce_csrf_checks = True
    others = [after, creator, spectator]
    headers = [socket_headers(client=client) for client in tabs]
    headers += [socket_headers(user) for user in others]

    async def scenario(sockets):
        opened = [await sockets.accepted(table.pk, h) for h in headers]
        for socket in opened:
            await drain(socket)
        with board_renderings() as rendered:
            outcome = await sync_to_async(service.submit)(
                table_id=table.pk,
                actor=mover,
                action="pass",
                expected_version=table.version,
            )
            boards = [board_of(await receive(socket), outcome.version) for socket in opened]
        assert len(rendered) == 3  # the next player's seat, the other's, the spectators'
        mine = boards[:6]
        assert len({TOKEN.sub("", board) for board in mine}) == 1
        assert len({tuple(TOKEN.findall(board)) for board in mine}) == 6  # a token each
        assert 'data-my-seat="' + "NESW"[following] + '"' in mine[0]
        assert all("board-spectator" in board for board in boards[7:])
        # The fourth tab plays from its own board: its token is its page's.
        token = TOKEN.search(mine[3]).group(1)
        action = re.search(r'name="action" value="([^"]+)"', mine[3]).group(1)
        response = await sync_to_async(tabs[3].post)(
            reverse("games:play", args=[table.pk]),
            {"csrfmiddlewaretoken": token, "action": action, "version": outcome.version},
            headers={"hx-request": "true"},
        )
        assert response.status_code == 200
        # Another tab's token does not pass with this tab's cookie.
        stolen = TOKEN.search(mine[0]).group(1)
        response = await sync_to_async(tabs[3].post)(
            reverse("games:play", args=[table.pk]),
            {"csrfmiddlewaretoken": stolen, "action": "pass", "version": outcome.version + 1},
            headers={"hx-request": "true"},
        )
        assert response.status_code == 403

    run(scenario)


def test_a_move_costs_one_rendering_per_seat_however_many_tabs(creator, players):
    """A player has the table open eight times: every move renders their board once, and
    each of the eight sockets gets it (a moment later when the move is theirs)."""
    table = new_table(creator, players)
    watcher = players[W]
    headers = [socket_headers(watcher) for _ in range(8)]

    async def scenario(sockets):
        opened = [await sockets.accepted(table.pk, h) for h in headers]
        for socket in opened:
            await drain(socket)
        for seed in range(3):
            fresh = await sync_to_async(Table.objects.get)(pk=table.pk)
            with board_renderings() as rendered:
                outcome = await sync_to_async(play_random_move)(fresh, _Seeded(seed))
                for socket in opened:
                    board_of(await receive(socket), outcome.version)
            assert len(rendered) == 1

    run(scenario)


class _Seeded:
    """A random generator that picks the first of the legal moves (the same every run)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choice(self, options):
        return options[self.seed % len(options)]


# ---------------------------------------------------------------------------------------
# Bounds


@pytest.fixture
def small_bounds(settings):
    settings.LIVE_SOCKETS_PER_TABLE = 2
    settings.LIVE_SOCKETS_PER_USER = 3


def test_one_socket_too_many_at_a_table_is_closed_with_4429(creator, players, small_bounds):
    """The third page of a user at one table is refused; once one closes, a page may
    open again. Another user of the table is not concerned."""
    table = new_table(creator, players)
    mine, theirs = socket_headers(players[N]), socket_headers(players[E])

    async def scenario(sockets):
        first = await sockets.accepted(table.pk, mine)
        await sockets.accepted(table.pk, mine)
        _socket, accepted, code = await sockets.open(table.pk, mine)
        assert (accepted, code) == (False, TOO_MANY_SOCKETS)
        await sockets.accepted(table.pk, theirs)
        await first.disconnect()
        await sockets.accepted(table.pk, mine)

    run(scenario)


def test_past_the_bound_of_a_user_in_all_a_socket_is_closed_with_4429(
    creator, players, small_bounds
):
    """Three pages in all: two at one table, one at another, then none more anywhere."""
    tables = [new_table(creator, players), new_table(creator, players)]
    mine = socket_headers(players[N])

    async def scenario(sockets):
        await sockets.accepted(tables[0].pk, mine)
        await sockets.accepted(tables[0].pk, mine)
        await sockets.accepted(tables[1].pk, mine)
        _socket, accepted, code = await sockets.open(tables[1].pk, mine)
        assert (accepted, code) == (False, TOO_MANY_SOCKETS)

    run(scenario)


def test_the_pages_a_user_holds_in_another_process_count_too(creator, players, small_bounds):
    """Another Daphne process publishes its counts in the shared cache: a user with two
    pages of the table there gets none more here."""
    table = new_table(creator, players)
    user = players[N]
    elsewhere = Counts("another-process")
    headers = socket_headers(user)

    async def scenario(sockets):
        assert await elsewhere.admit(user.pk, table.pk)
        assert await elsewhere.admit(user.pk, table.pk)
        _socket, accepted, code = await sockets.open(table.pk, headers)
        assert (accepted, code) == (False, TOO_MANY_SOCKETS)
        await elsewhere.release(user.pk, table.pk)
        await sockets.accepted(table.pk, headers)

    run(scenario)
