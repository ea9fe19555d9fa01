"""Django's ASGI handler, with the threads of the requests' synchronous code kept.

Django runs the synchronous part of each request (the middleware, the view) in a thread
made for that request and dropped after it (``asgiref.sync.ThreadSensitiveContext``). A
database connection belongs to a thread, so every request used to open its own: on
SQLite a new connection reads the schema again and starts with an empty page cache, on
PostgreSQL it is a new server process. ``ReusedThreadsASGIHandler`` gives each request a
thread of a set of idle ones instead (or a new one when all are busy, as before), so that
a thread's connection serves one request after another, kept open by ``CONN_MAX_AGE``
(belote_site/settings/base.py). The middleware and the view run there in one go,
synchronously, as under WSGI (``load_middleware``).

At most ``ASGI_REQUEST_THREADS`` requests run their synchronous code at once; the others
wait their turn in the event loop, without a thread. The views need the GIL most of the
time, so more threads would not serve more requests: they take turns at the GIL (and at
the locks of ``asgiref.local``, which every translated string goes through), and every
request in flight finishes late (bench/live_bench.py: with 100 live tables, one Daphne
process answered half the boards it answers with a few threads).

One request at a time per thread, as before; a thread whose request failed or whose
client went away (its view may still be running) is not kept. At most ``max_idle``
threads wait; the others close their connections and stop.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.db import connections


class ReusedThreadsASGIHandler(ASGIHandler):
    max_idle = 32

    def __init__(self) -> None:
        super().__init__()
        # Only touched from the event loop's thread: no lock needed.
        self._idle: list[ThreadPoolExecutor] = []
        self._running: asyncio.Semaphore | None = None

    def load_middleware(self, is_async: bool = False) -> None:
        """The whole middleware stack and the view, synchronous, in the request's thread.

        Our views are synchronous, and so is a middleware of ours: Django's async stack
        would go from the event loop to the thread and back several times a request,
        each time waiting for the other side to get the GIL.
        """
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        if self._running is None:
            self._running = asyncio.Semaphore(settings.ASGI_REQUEST_THREADS)
        async with self._running:
            await self._handle_in_thread(scope, receive, send)

    async def _handle_in_thread(self, scope, receive, send) -> None:
        executor = self._idle.pop() if self._idle else self._new_thread()
        disconnected = False

        async def tracked_receive():
            nonlocal disconnected
            message = await receive()
            disconnected = disconnected or message["type"] == "http.disconnect"
            return message

        keep = False
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, tracked_receive, send)
            keep = not disconnected
        finally:
            if keep and len(self._idle) < self.max_idle:
                self._idle.append(executor)
            else:
                self._retire(executor)

    @staticmethod
    def _new_thread() -> ThreadPoolExecutor:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="django-request")

    @staticmethod
    def _retire(executor: ThreadPoolExecutor) -> None:
        """The thread closes its connections once its work is done, then stops."""
        executor.submit(connections.close_all)
        executor.shutdown(wait=False)


def get_asgi_application() -> ReusedThreadsASGIHandler:
    """Like ``django.core.asgi.get_asgi_application``, with the handler above."""
    import django

    django.setup(set_prefix=False)
    return ReusedThreadsASGIHandler()
