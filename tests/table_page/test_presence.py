"""Who is connected: the websocket counts each user's pages per table and pings the
table's group, without a version, when a user comes or goes (games/tables/presence.py)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from games.live.routing import websocket_urlpatterns
from games.tables import lobby, presence, service
from tests.factories import fixed_deck, make_user, make_users

N, E, S, W = range(4)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_a_user_is_connected_while_one_of_their_pages_is_open():
    arrive = async_to_sync(presence.arrive)
    leave = async_to_sync(presence.leave)

    assert arrive(7, 1) is True
    assert arrive(7, 1) is False  # a second tab
    assert presence.connected(7, [1, 2]) == {1}
    assert leave(7, 1) is False
    assert presence.connected(7, [1, 2]) == {1}
    assert leave(7, 1) is True
    assert presence.connected(7, [1, 2]) == set()
    assert leave(7, 1) is False  # a close after the counter expired


def test_a_heartbeat_brings_back_an_expired_counter():
    renew = async_to_sync(presence.renew)

    assert renew(7, 1) is True
    assert presence.connected(7, [1]) == {1}
    assert renew(7, 1) is False


@pytest.mark.django_db(transaction=True)
def test_the_consumer_pings_the_table_when_someone_comes_or_goes():
    players = make_users(4)
    watcher = make_user("eve")
    table = service.create_table(
        created_by=players[0], preset="classique", players=dict(enumerate(players))
    )
    lobby.set_spectators(table=table, by=players[0], allowed=True)
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(1))
    table.refresh_from_db()
    lobby.join_by_link(table=table, user=watcher, token=table.invite_token)  # a spectator
    path = f"/ws/tables/{table.pk}/"

    async def scenario():
        app = URLRouter(websocket_urlpatterns)
        first = WebsocketCommunicator(app, path)
        first.scope["user"] = players[S]
        connected, _ = await first.connect()
        assert connected
        assert await first.receive_json_from() == {"table": table.pk, "version": table.version}
        assert await first.receive_json_from() == {"table": table.pk, "presence": True}

        second = WebsocketCommunicator(app, path)
        second.scope["user"] = watcher  # a spectator: allowed on this table
        connected, _ = await second.connect()
        assert connected
        assert await second.receive_json_from() == {"table": table.pk, "version": table.version}
        assert await first.receive_json_from() == {"table": table.pk, "presence": True}
        assert await second.receive_json_from() == {"table": table.pk, "presence": True}

        # Any message is a heartbeat: it is answered with the version, nothing else.
        await first.send_json_to({"want": "version"})
        assert await first.receive_json_from() == {"table": table.pk, "version": table.version}

        await second.disconnect()
        assert await first.receive_json_from() == {"table": table.pk, "presence": True}
        assert await first.receive_nothing()
        await first.disconnect()

    async_to_sync(scenario)()
    assert presence.connected(table.pk, [players[S].pk, watcher.pk]) == set()


@pytest.mark.django_db(transaction=True)
def test_the_consumer_refuses_a_table_one_may_not_watch():
    players = make_users(4)
    table = service.create_table(
        created_by=players[0], preset="classique", players=dict(enumerate(players))
    )
    outsider = make_user("olivier")

    async def scenario():
        communicator = WebsocketCommunicator(
            URLRouter(websocket_urlpatterns), f"/ws/tables/{table.pk}/"
        )
        communicator.scope["user"] = outsider
        connected, code = await communicator.connect()
        assert not connected
        assert code == 4404

    async_to_sync(scenario)()
    assert presence.connected(table.pk, [outsider.pk]) == set()
