"""The site's cache on Redis, which keeps answering while Redis is down.

Django's ``RedisCache`` raises as soon as Redis cannot be reached, and the cache is read
on the way of many requests: who has a table open (games/tables/presence.py, on every board),
allauth's rate limits (every login). ``RedisCache`` here is Django's, except that an
operation Redis does not answer (down, restarting, out of reach: a ``ConnectionError``
or a ``TimeoutError`` of redis-py, after the short timeouts of the settings) is done on
this process's own memory instead, a ``LocMemCache`` shared by its threads. So while
Redis is out:

- the rate limits count in each process (with two Daphne processes, twice the attempts
  at most): login keeps working, and keeps its limits;
- who has a table open is what this process saw (in the task worker: nobody);
- nothing is carried back to Redis when it returns, and nothing is lost that matters:
  presence heals at the next heartbeat of each page, a rate-limit count is short-lived.

Each call tries Redis first, so the cache is back as soon as Redis is. The outage is
logged once, with its end (belote_site/outage.py).

A decision that must rest on what every process wrote (a stand-in bot for a player who
may be connected through another process, games/timing/sweep.py) reads inside
``shared_answers_only()``: there a cache operation Redis does not answer raises
``CacheUnreachable`` instead. With the other backends (files, local memory: development
and tests) nothing fails that way and it changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from belote_site.outage import Outage

logger = logging.getLogger(__name__)

outage = Outage("the Redis cache", logger)

_shared_only: ContextVar[bool] = ContextVar("shared_answers_only", default=False)


class CacheUnreachable(Exception):
    """Redis did not answer a cache operation made inside ``shared_answers_only()``."""


@contextmanager
def shared_answers_only() -> Iterator[None]:
    token = _shared_only.set(True)
    try:
        yield
    finally:
        _shared_only.reset(token)


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        # One per process and location (LocMemCache keeps its entries by name).
        self._fallback = LocMemCache(
            f"redis-fallback:{server}", {**params, "OPTIONS": {"MAX_ENTRIES": 10_000}}
        )

    def _either(self, operation: str, *args, **kwargs):
        try:
            result = getattr(super(), operation)(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError) as error:
            outage.failed(error)
            if _shared_only.get():
                raise CacheUnreachable(str(error)) from error
            return getattr(self._fallback, operation)(*args, **kwargs)
        outage.worked()
        return result

    # Django's RedisCache defines these; BaseCache builds the others on them (decr,
    # get_or_set, and every async method, which runs the sync one in a thread).

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("add", key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._either("get", key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set", key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("touch", key, timeout, version)

    def delete(self, key, version=None):
        return self._either("delete", key, version)

    def get_many(self, keys, version=None):
        return self._either("get_many", list(keys), version)

    def has_key(self, key, version=None):
        return self._either("has_key", key, version)

    def incr(self, key, delta=1, version=None):
        return self._either("incr", key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set_many", data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._either("delete_many", list(keys), version)

    def clear(self):
        return self._either("clear")
