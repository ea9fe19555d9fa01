"""Shared setup of the live tests: the websocket as a browser opens it (the real ASGI
application, a session cookie, an allowed Origin), and an empty presence cache."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from belote_site.asgi import application

ORIGIN = b"http://testserver"


@pytest.fixture(autouse=True)
def empty_cache():
    """Presence counters live in the cache: each test starts with nobody connected."""
    cache.clear()
    yield
    cache.clear()


def logged_in_client(user) -> Client:
    """A test client with a real session for ``user`` (django.contrib.auth.login)."""
    client = Client()
    client.force_login(user)
    return client


def socket_headers(user=None, origin: bytes = ORIGIN) -> list[tuple[bytes, bytes]]:
    """The headers of the browser's websocket handshake: ``user``'s session cookie (none
    for a visitor who is not logged in) and the page's Origin."""
    headers = [(b"origin", origin)]
    if user is not None:
        session = logged_in_client(user).cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    return headers


def table_socket(table_id: int, headers) -> WebsocketCommunicator:
    """A websocket to /ws/tables/<id>/ through belote_site.asgi (origin check, session
    authentication, routing), as Daphne serves it. Build it inside the event loop."""
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)


# The only two messages a table's socket ever sends (games/consumers.py).
VERSION_KEYS = frozenset({"table", "version"})
PRESENCE_KEYS = frozenset({"table", "presence"})


async def receive(socket: WebsocketCommunicator, timeout: float = 1) -> dict:
    """The next message of ``socket``, which must be one of the two allowed shapes."""
    message = await socket.receive_json_from(timeout)
    assert frozenset(message) in (VERSION_KEYS, PRESENCE_KEYS), message
    assert isinstance(message["table"], int), message
    if "version" in message:
        assert isinstance(message["version"], int), message
    else:
        assert message["presence"] is True, message
    return message


async def drain(socket: WebsocketCommunicator, quiet: float = 0.2) -> list[dict]:
    """Every message ``socket`` has pending, until it stays quiet for ``quiet`` seconds."""
    messages = []
    while not await socket.receive_nothing(timeout=quiet):
        messages.append(await receive(socket))
    return messages


class Sockets:
    """The websockets one test opens; ``run`` closes them all, even after a failure."""

    def __init__(self) -> None:
        self.opened: list[WebsocketCommunicator] = []

    async def open(self, table_id: int, headers) -> tuple[WebsocketCommunicator, bool, int]:
        socket = table_socket(table_id, headers)
        self.opened.append(socket)
        accepted, detail = await socket.connect()
        return socket, accepted, detail

    async def accepted(self, table_id: int, headers) -> WebsocketCommunicator:
        """A socket the consumer must accept."""
        socket, accepted, code = await self.open(table_id, headers)
        assert accepted, f"refused with {code}"
        return socket

    async def close_all(self) -> None:
        for socket in self.opened:
            await socket.disconnect()


def run(scenario) -> None:
    """Run ``await scenario(sockets)`` to the end in one event loop, from a sync test.

    One loop for the whole scenario: the communicators and the in-memory channel layer
    are bound to it. The database work inside goes through sync_to_async, back to this
    thread and its test connection.
    """

    async def main() -> None:
        sockets = Sockets()
        try:
            await scenario(sockets)
        finally:
            await sockets.close_all()

    async_to_sync(main)()
