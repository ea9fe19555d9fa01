"""Shared setup of the live tests: the websocket as a browser opens it (the real ASGI
application, a session cookie, an allowed Origin), and an empty presence cache."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from belote_site.asgi import application
from tests.factories import make_user, make_users

ORIGIN = b"http://testserver"


@pytest.fixture(autouse=True)
def empty_cache():
    """Presence counters live in the cache: each test starts with nobody connected."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def players():
    """N, E, S, W."""
    return make_users(4)


@pytest.fixture
def creator():
    """Creates the tables without sitting at them: may watch, may not play."""
    return make_user("claire")


def logged_in_client(user) -> Client:
    """A test client with a real session for ``user`` (django.contrib.auth.login)."""
    client = Client()
    client.force_login(user)
    return client


def socket_headers(
    user=None, origin: bytes = ORIGIN, *, client: Client | None = None, language: str = ""
) -> list[tuple[bytes, bytes]]:
    """The headers of the browser's websocket handshake: the cookies of ``user``'s page
    (the session of a real login and the CSRF cookie every page of ours sets; none for a
    visitor who is not logged in) and the page's Origin. ``client``: the page's cookies
    are that client's; ``language``: its Accept-Language."""
    headers = [(b"origin", origin)]
    if language:
        headers.append((b"accept-language", language.encode()))
    if user is not None or client is not None:
        client = client or logged_in_client(user)
        client.get(reverse("home"))  # a page: it sets the CSRF cookie
        cookies = [settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME]
        jar = "; ".join(f"{name}={client.cookies[name].value}" for name in cookies)
        headers.append((b"cookie", jar.encode()))
    return headers


def table_socket(table_id: int, headers) -> WebsocketCommunicator:
    """A websocket to /ws/tables/<id>/ through belote_site.asgi (origin check, session
    authentication, routing), as Daphne serves it. Build it inside the event loop."""
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)


# The only messages a table's socket ever sends (games/live/consumers.py): the version with the
# viewer's board (marked "presence" when someone came or went), the version alone, a
# presence ping (the last two in the lobby, or as the answer to a page's question).
BOARD_KEYS = frozenset({"table", "version", "html"})
PRESENCE_BOARD_KEYS = frozenset({"table", "version", "html", "presence"})
VERSION_KEYS = frozenset({"table", "version"})
PRESENCE_KEYS = frozenset({"table", "presence"})


async def receive(socket: WebsocketCommunicator, timeout: float = 1) -> dict:
    """The next message of ``socket``, which must be one of the three allowed shapes."""
    message = await socket.receive_json_from(timeout)
    shapes = (BOARD_KEYS, PRESENCE_BOARD_KEYS, VERSION_KEYS, PRESENCE_KEYS)
    assert frozenset(message) in shapes, message
    assert isinstance(message["table"], int), message
    if "version" in message:
        assert isinstance(message["version"], int), message
    else:
        assert message["presence"] is True, message
    if "html" in message:
        board = BOARD_VERSION.search(message["html"])
        assert board and int(board.group(1)) == message["version"], message["html"][:300]
    return message


BOARD_VERSION = re.compile(r'^<section id="board"[^>]*?\sdata-version="(\d+)"')


def board_of(message: dict, version: int, *, presence: bool = False) -> str:
    """The board a message brought, which must be at ``version``; ``presence``: brought
    because someone came or went."""
    assert frozenset(message) == (PRESENCE_BOARD_KEYS if presence else BOARD_KEYS), message
    assert message["version"] == version, message
    return message["html"]


# How long a socket may take to bring the message a test waits for (a loaded machine);
# the wait ends as soon as it comes.
PATIENCE = 10.0


async def board_at(socket: WebsocketCommunicator, version: int) -> tuple[dict, list[dict]]:
    """The board a change brought ``socket`` at ``version`` (not marked "presence"),
    waited for as such rather than for quiet; and the boards marked "presence" that came
    before it: those of pages that opened before the change, late on a loaded machine
    (their consumers still telling that they came), at ``version`` at the latest. Any
    other message fails."""
    echoes = []
    while True:
        message = await receive(socket, timeout=PATIENCE)
        if message.get("presence") is True and "html" in message:
            assert message["version"] <= version, message
            echoes.append(message)
            continue
        board_of(message, version)
        return message, echoes


async def version_at(socket: WebsocketCommunicator, table_id: int, version: int) -> dict:
    """The version alone a change brought ``socket`` (a lobby has no board), waited for as
    such; presence pings before it (its own arrival, told late on a loaded machine) are
    skipped. Any other message fails."""
    while True:
        message = await receive(socket, timeout=PATIENCE)
        if frozenset(message) != PRESENCE_KEYS:
            assert message == {"table": table_id, "version": version}
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
