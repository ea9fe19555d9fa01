"""Daphne's side of a request (belote_site/handlers.py) and the broadcasts of synchronous
code (games/live/broadcast.py): threads and event loops kept from one call to the next."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.core.signals import request_started
from django.test import override_settings

from belote_site.handlers import ReusedThreadsASGIHandler
from games.live.broadcast import _LoopThread


def http_scope(path: str = "/") -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


async def get(application, path: str = "/") -> int:
    communicator = ApplicationCommunicator(application, http_scope(path))
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(5)
    while (await communicator.receive_output(5)).get("more_body"):
        pass
    await communicator.wait(5)
    return start["status"]


@pytest.fixture
def threads_of_requests():
    """The thread of each request's synchronous code (request_started runs there)."""
    seen: list[int] = []

    def note(**kwargs):
        seen.append(threading.get_ident())

    request_started.connect(note)
    yield seen
    request_started.disconnect(note)


@pytest.mark.django_db(transaction=True)
def test_one_request_after_another_reuses_the_thread(threads_of_requests):
    handler = ReusedThreadsASGIHandler()

    async def three():
        return [await get(handler) for _ in range(3)]

    assert async_to_sync(three)() == [200, 200, 200]
    assert len(threads_of_requests) == 3
    assert len(set(threads_of_requests)) == 1
    assert threads_of_requests[0] != threading.get_ident()


@pytest.mark.django_db(transaction=True)
@override_settings(ASGI_REQUEST_THREADS=2)
def test_requests_at_once_get_threads_of_their_own_up_to_the_limit(threads_of_requests):
    handler = ReusedThreadsASGIHandler()

    async def at_once():
        return await asyncio.gather(*(get(handler) for _ in range(5)))

    assert async_to_sync(at_once)() == [200] * 5
    assert len(threads_of_requests) == 5
    assert len(set(threads_of_requests)) <= 2


def test_the_broadcast_loop_runs_coroutines_in_one_loop_of_its_own():
    sender = _LoopThread()

    async def where():
        return asyncio.get_running_loop(), threading.get_ident()

    first, second = sender.run(where()), sender.run(where())
    assert first == second
    assert first[1] != threading.get_ident()

    async def fails():
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        sender.run(fails())
