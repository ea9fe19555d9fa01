"""The socket of the list of open tables (games/live/open_tables.py), through the real ASGI
application: "The list updates live."

A logged-in page's socket hears ``{"changed": true}`` and nothing else whenever an open
table is created, opened or closed, changes its seats, starts or is closed; the change of
a private table says nothing. No table's data travels on it. Committed for real
(``transaction=True``) so that the on_commit broadcasts run.
"""

from __future__ import annotations

import datetime

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import timezone

from belote_site.asgi import application
from games.live.consumers import MAX_FRAME_CHARS, NOT_LOGGED_IN
from games.models import Table
from games.tables import lobby, open_tables
from games.timing.sweep import sweep
from tests.factories import make_user
from tests.live.conftest import run, socket_headers

pytestmark = pytest.mark.django_db(transaction=True)

PATH = "/ws/tables/ouvertes/"
CHANGED = {"changed": True}
WEEK = datetime.timedelta(seconds=settings.OPEN_LOBBY_CLOSE_AFTER_SECONDS + 1)


def list_socket(headers) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, PATH, headers=headers)


async def changed(socket: WebsocketCommunicator) -> None:
    """The next message is "the list changed", exactly."""
    assert await socket.receive_json_from(timeout=10) == CHANGED


def test_a_visitor_who_is_not_logged_in_is_refused():
    async def scenario(sockets):
        socket = list_socket(socket_headers())
        connected, code = await socket.connect()
        assert not connected
        assert code == NOT_LOGGED_IN

    run(scenario)


def test_each_change_of_an_open_table_is_told_and_nothing_else(creator):
    alice = make_user("alice")
    viewer = make_user("vera")

    async def scenario(sockets):
        socket = list_socket(await sync_to_async(socket_headers)(viewer))
        sockets.opened.append(socket)
        connected, _code = await socket.connect()
        assert connected

        # A private table: nothing to tell.
        await sync_to_async(lobby.create_private_table)(
            created_by=creator, preset="classique", target=1000
        )
        assert await socket.receive_nothing(timeout=0.3)

        table = await sync_to_async(lobby.create_private_table)(
            created_by=creator, preset="classique", target=1000, is_open=True, fill_with_bots=True
        )
        await changed(socket)

        await sync_to_async(open_tables.sit)(table_id=table.pk, user=alice, position=0)
        await changed(socket)

        await sync_to_async(lobby.set_open)(table=table, by=creator, is_open=False)
        await changed(socket)
        await sync_to_async(lobby.set_open)(table=table, by=creator, is_open=True)
        await changed(socket)

        await sync_to_async(lobby.start)(table=table, by=creator)
        await changed(socket)
        assert await socket.receive_nothing(timeout=0.3)

    run(scenario)


def test_a_heartbeat_is_answered_and_an_oversized_or_binary_frame_ignored(creator):
    async def scenario(sockets):
        socket = list_socket(await sync_to_async(socket_headers)(creator))
        sockets.opened.append(socket)
        connected, _code = await socket.connect()
        assert connected

        await socket.send_to(text_data="{}")
        assert await socket.receive_json_from(timeout=5) == {"alive": True}
        await socket.send_to(text_data="not json")  # short text: a heartbeat all the same
        assert await socket.receive_json_from(timeout=5) == {"alive": True}
        # Longer than any frame a page sends (MAX_FRAME_CHARS), or binary: not answered.
        await socket.send_to(text_data="x" * (MAX_FRAME_CHARS + 1))
        assert await socket.receive_nothing(timeout=0.3)
        await socket.send_to(bytes_data=b"\x00\xff")
        assert await socket.receive_nothing(timeout=0.3)
        await socket.send_to(text_data="x" * MAX_FRAME_CHARS)  # still open, still answered
        assert await socket.receive_json_from(timeout=5) == {"alive": True}

    run(scenario)


def test_a_table_the_sweep_closes_leaves_the_lists_at_once(creator):
    viewer = make_user("vera")
    table = lobby.create_private_table(
        created_by=creator,
        preset="classique",
        target=1000,
        pace="async",
        move_seconds=3600,
        is_open=True,
    )
    Table.objects.filter(pk=table.pk).update(opened_at=timezone.now() - WEEK)

    async def scenario(sockets):
        socket = list_socket(await sync_to_async(socket_headers)(viewer))
        sockets.opened.append(socket)
        connected, _code = await socket.connect()
        assert connected

        assert await sync_to_async(sweep)() == 1
        await changed(socket)

    run(scenario)


def test_the_player_whose_seat_the_creator_frees_hears_it_at_once(creator):
    stranger = make_user("sacha")
    table = lobby.create_private_table(
        created_by=creator, preset="classique", target=1000, is_open=True
    )
    lobby.take_seat(table=table, user=stranger, position=0)
    head, viewer = socket_headers(stranger), socket_headers(make_user("vera"))

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, head)
        first = await socket.receive_json_from(timeout=5)
        while not await socket.receive_nothing(timeout=0.3):
            await socket.receive_json_from()
        listing = list_socket(viewer)
        sockets.opened.append(listing)
        assert (await listing.connect())[0]

        outcome = await sync_to_async(lobby.release_seat)(table=table, by=creator, position=0)

        # The lobby's socket tells the version: the page refetches its #table and says why.
        message = await socket.receive_json_from(timeout=5)
        assert message == {"table": table.pk, "version": outcome.version}
        assert outcome.version > first["version"]
        await changed(listing)  # a seat free: the lists hear it too

    run(scenario)


@pytest.mark.usefixtures("quick_list_relay")
@pytest.mark.usefixtures("in_memory_layer")
def test_a_change_made_by_another_process_reaches_the_lists(creator):
    """The embedded default (in-memory layer, ``make run``): the sweep runs in the task
    worker's process, whose broadcast reaches no page here; the list relay hears it.
    (On Redis, the CI's second run, every process hears every broadcast: no relay.)"""
    viewer = make_user("vera")
    table = lobby.create_private_table(
        created_by=creator, preset="classique", target=1000, is_open=True
    )

    async def scenario(sockets):
        socket = list_socket(await sync_to_async(socket_headers)(viewer))
        sockets.opened.append(socket)
        connected, _code = await socket.connect()
        assert connected
        assert await socket.receive_nothing(timeout=0.5)

        # As the worker's sweep leaves it: closed, without a word to this process.
        await sync_to_async(Table.objects.filter(pk=table.pk).update)(
            status=Table.Status.ABANDONED, version=table.version + 1
        )
        await changed(socket)
        assert await socket.receive_nothing(timeout=0.5)  # told once

        # A change of this process: told by its broadcast, not once more by the relay.
        await sync_to_async(lobby.create_private_table)(
            created_by=creator, preset="classique", target=1000, is_open=True
        )
        await changed(socket)
        assert await socket.receive_nothing(timeout=0.5)

    run(scenario)


@pytest.fixture
def in_memory_layer(settings):
    """The channel layer of ``make run``, whatever the run's (Redis on the CI's second)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def quick_list_relay(settings):
    settings.OPEN_TABLES_RELAY_SECONDS = 0.1
