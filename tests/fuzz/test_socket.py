"""The fuzz test of the websocket (/ws/tables/<id>/): every role of tests/fuzz/world.py
opens its table's socket through the real ASGI application (origin check, session,
routing) and sends nasty frames; then nasty cookies, headers and paths at the handshake.

A socket may refuse (4401 not logged in, 4404 not allowed, or a refused handshake), ignore
a frame, or answer it with the version: it may never raise (Daphne closes such a socket
with 1011 and logs a traceback). After its frames, an accepted socket must still answer a
page's question with the version alone.
"""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from belote_site.asgi import application
from tests.fuzz.nasty import COOKIES, NASTY, encode
from tests.fuzz.world import WATCHERS, Role, World, build
from tests.live.conftest import ORIGIN, run, socket_headers

pytestmark = pytest.mark.django_db(transaction=True)

VERSION_KEYS = {"table", "version"}


def json_values() -> list:
    """Nasty values as JSON may carry them: the strings, and what they parse to."""
    values: list = list(NASTY)
    values += [10**300, -(2**63), 2**63, 0, -1, 1.5, True, False, None, [], {}, [1], {"a": 1}]
    return values


def frames() -> list[str | bytes]:
    found: list[str | bytes] = list(NASTY)
    for value in json_values():
        for key in ("shown", "want", "table", "version"):
            found.append(json.dumps({key: value}))
    found += [
        json.dumps(json_values()),
        "[" * 100_000 + "]" * 100_000,
        '{"shown": ' * 50_000 + "1" + "}" * 50_000,
        '{"shown": 1}' * 1000,
        "x" * (1024 * 1024),
        b"\x00\xff" * 10,
        b"{}",
        b"x" * (1024 * 1024),
    ]
    return found


class Report:
    def __init__(self) -> None:
        self.failures: list[str] = []
        self.accepted: list[str] = []

    async def step(self, what: str, coroutine):
        try:
            return await coroutine
        except Exception as error:  # the consumer raised: Daphne would close with 1011
            self.failures.append(f"{what}: {type(error).__name__}: {str(error)[:200]}")
            return None


async def open_socket(
    report: Report, what: str, path: str, headers
) -> WebsocketCommunicator | None:
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected = await report.step(f"{what}: connect", socket.connect())
    if connected is None:
        return None
    accepted, code = connected
    if not accepted:
        if code not in (1000, 4401, 4404):
            report.failures.append(f"{what}: refused with {code}")
        await report.step(f"{what}: disconnect", socket.disconnect())
        return None
    report.accepted.append(what)
    return socket


async def answers_a_question(report: Report, what: str, socket: WebsocketCommunicator) -> None:
    """The socket answers {"want": "version"} with the version alone (boards pushed
    meanwhile aside) and is still open."""
    await socket.send_json_to({"want": "version"})
    for _ in range(20):
        message = await report.step(what, socket.receive_output(2))
        if message is None:
            return
        if message["type"] == "websocket.close":
            report.failures.append(f"{what}: closed with {message.get('code')}")
            return
        content = json.loads(message["text"])
        if set(content) == VERSION_KEYS:
            return
    report.failures.append(f"{what}: no answer to a question")


def table_path(table_id) -> str:
    return f"/ws/tables/{table_id}/"


def test_nasty_frames_as_every_role():
    world: World = build()
    report = Report()
    sent = frames()

    # The handshake's cookies come from a real login (sync code: before the event loop).
    headers_of = {
        role.name: socket_headers(role.user) if role.user else [(b"origin", ORIGIN)]
        for role in world.roles
    }

    async def scenario(_sockets):
        for role in world.roles:
            headers = headers_of[role.name]
            what = f"{role.name} at table {role.table.pk}"
            socket = await open_socket(report, what, table_path(role.table.pk), headers)
            if socket is None:
                continue
            for frame in sent:
                if isinstance(frame, bytes):
                    await socket.send_to(bytes_data=frame)
                else:
                    # send_to refuses an empty text frame: a page cannot send one either.
                    await socket.send_to(text_data=frame or " ")
            await answers_a_question(report, f"{what}, after {len(sent)} nasty frames", socket)
            await report.step(f"{what}: disconnect", socket.disconnect())

    run(scenario)
    assert not report.failures, "\n".join(report.failures)
    # Whoever may watch their table got in and was fuzzed.
    assert {what.split(" at table")[0] for what in report.accepted} == WATCHERS


def test_nasty_cookies_headers_and_paths_at_the_handshake():
    world: World = build()
    report = Report()
    role: Role = world.role("card play")
    good = socket_headers(role.user)
    cookie = dict(good)[b"cookie"]

    def variants():
        for value in COOKIES:
            raw = value.encode("utf-8", "surrogatepass")
            for name in (
                settings.SESSION_COOKIE_NAME,
                settings.CSRF_COOKIE_NAME,
                settings.LANGUAGE_COOKIE_NAME,
            ):
                yield (
                    f"cookie {name}",
                    [(b"origin", ORIGIN), (b"cookie", cookie + b"; " + name.encode() + b"=" + raw)],
                )
            yield "cookie header", [(b"origin", ORIGIN), (b"cookie", raw)]
            yield "origin", [(b"origin", raw), (b"cookie", cookie)]
            yield "accept-language", [*good, (b"accept-language", raw)]
        yield "no origin", [(b"cookie", cookie)]
        yield "two cookie headers", [*good, (b"cookie", b"sessionid=; csrftoken=")]

    async def scenario(_sockets):
        for what, headers in variants():
            socket = await open_socket(report, what, table_path(role.table.pk), headers)
            if socket is not None:
                await answers_a_question(report, what, socket)
                await report.step(f"{what}: disconnect", socket.disconnect())
        for value in NASTY:
            path = table_path(encode(value))
            socket = await open_socket(report, f"path {path[:60]}", path, good)
            if socket is not None:
                await report.step("disconnect", socket.disconnect())

    run(scenario)
    assert not report.failures, "\n".join(report.failures)
