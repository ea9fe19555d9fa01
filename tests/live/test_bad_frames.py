"""Bad input on the table's websocket (issue 13): frames, cookies and paths that used to
take the consumer down (closed 1011 with a traceback) or fail the handshake with a 500.

- A frame of JSON nested 100,000 deep raised RecursionError in ``json.loads``. A frame
  longer than any message a page sends is now ignored unread, and one that cannot be
  parsed is ignored: the socket stays open and answers the next real question. (A
  board pushed because the page's own arrival was heard late, through Redis, may come
  among the answers: it is set aside.)
- A session cookie with a NUL reached PostgreSQL at the handshake; it is no session now
  (belote_site/sessions.py): closed 4401, not logged in.
- A path that no route takes (an id past Python's ``int`` limit, say) raised "No route
  found" in the router: the handshake is now refused cleanly.
"""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from belote_site.asgi import application
from games.live.consumers import MAX_FRAME_CHARS, NOT_ALLOWED, NOT_LOGGED_IN
from tests.factories import make_users, started_table
from tests.live.conftest import ORIGIN, drain, run, socket_headers

pytestmark = pytest.mark.django_db(transaction=True)

N, E, S, W = range(4)


@pytest.fixture
def table():
    return started_table(players=dict(enumerate(make_users(4))))


def player(table, position: int):
    return table.seats.get(position=position).user


DEEP = "[" * 100_000 + "]" * 100_000
DEEP_IN_A_DICT = '{"shown": ' + "[" * 100_000 + "]" * 100_000 + "}"
SHORT_BUT_DEEP = "[" * 499 + "]" * 499  # under MAX_FRAME_CHARS: parsed


BAD_FRAMES = {
    "deep": DEEP,
    "deep in a dict": DEEP_IN_A_DICT,
    "short but deep": SHORT_BUT_DEEP,
    "long": '{"shown": 1}' + " " * MAX_FRAME_CHARS,
    "huge int": '{"shown": ' + "9" * 5000 + "}",
    "nul": "\x00",
    "nul in JSON": '{"shown": "\\u0000"}',
    "lone surrogate": '"\\ud800"',
}


def test_a_bad_frame_is_ignored_or_answered_and_the_socket_stays_open(table):
    """Unreadable: ignored. Readable JSON that is no ``{"shown": n}``: a question, answered
    with the version alone. Never a close, never anything else."""
    headers = socket_headers(player(table, N))
    version = {"table": table.pk, "version": table.version}

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)

        for name, frame in BAD_FRAMES.items():
            await socket.send_to(text_data=frame)
            # Still there, and still answering: a real question gets the version.
            await socket.send_json_to({"want": "version"})
            answers = [m for m in await drain(socket) if "presence" not in m]
            assert answers and all(m == version for m in answers), (name, answers)

    run(scenario)


def test_a_frame_too_long_for_a_page_is_not_parsed(table):
    """A page sends ``{"shown": n}`` or ``{"want": "version"}``: a frame longer than
    MAX_FRAME_CHARS asks nothing, even if it is valid JSON."""
    headers = socket_headers(player(table, E))
    padded = '{"want": "version"' + " " * MAX_FRAME_CHARS + "}"

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)

        await socket.send_to(text_data=padded)
        assert await socket.receive_nothing(timeout=0.3)

    run(scenario)


BAD_SESSION_COOKIES = [
    b"abcdefgh\x00ijklmnopqrstuvwxyz012345",
    b'"abcdefgh\\000ijklmnopqrstuvwxyz0123"',  # quoted: \000 is a NUL
    b"x" * 5000,
    b"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8",
]


def test_a_session_cookie_that_is_no_session_key_is_closed_as_not_logged_in(table):
    name = settings.SESSION_COOKIE_NAME.encode()

    async def scenario(sockets):
        for cookie in BAD_SESSION_COOKIES:
            headers = [(b"origin", ORIGIN), (b"cookie", name + b"=" + cookie)]
            _socket, accepted, code = await sockets.open(table.pk, headers)
            assert (accepted, code) == (False, NOT_LOGGED_IN), cookie

    run(scenario)


def test_a_path_no_route_takes_is_refused_at_the_handshake(table):
    headers = socket_headers(player(table, S))
    paths = ["/ws/tables/" + "9" * 5000 + "/", "/ws/tables/x/", "/ws/", "/ws/tables/%00/", "/x/"]

    async def scenario(sockets):
        for path in paths:
            socket = WebsocketCommunicator(application, path, headers=headers)
            sockets.opened.append(socket)
            accepted, _code = await socket.connect()
            assert not accepted, path

    run(scenario)


def test_a_table_id_that_no_table_can_have_is_closed_as_not_allowed(table):
    headers = socket_headers(player(table, S))

    async def scenario(sockets):
        for table_id in [0, 2**63, 10**30]:
            _socket, accepted, code = await sockets.open(table_id, headers)
            assert (accepted, code) == (False, NOT_ALLOWED), table_id

    run(scenario)
