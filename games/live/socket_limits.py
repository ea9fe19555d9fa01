"""How many table websockets one user may hold open: per table, and in all.

A page opens one socket (games/live/consumers.py); a user with several tabs opens several.
Without a bound, one user could open hundreds at a busy table and have every move sent
to each of them. A socket beyond ``LIVE_SOCKETS_PER_TABLE`` for the same (user, table),
or beyond ``LIVE_SOCKETS_PER_USER`` in all, is refused (closed with ``TOO_MANY_SOCKETS``, 4429;
the page says so and stops retrying).

Each process counts its own sockets exactly (``Counts``). So that a user cannot pass the
bound by spreading their tabs over the Daphne processes behind the proxy, each process
also publishes its counts of a user in the shared cache (Redis in production), and a
socket is admitted only if the sum over the live processes stays within the bound. That
part is best effort: a process's counts live ``TTL`` seconds, renewed by the heartbeats
of its pages, so those of a crashed process stop counting within ``TTL``; the processes
are listed under ``PROCESSES_KEY`` (each renews its own entry). Should the cache fail,
the process's own bound still holds.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import Counter

from django.conf import settings
from django.core.cache import cache

from games.tables.presence import TTL

logger = logging.getLogger(__name__)

PROCESSES_KEY = "sockets:processes"


def per_table() -> int:
    return settings.LIVE_SOCKETS_PER_TABLE


def per_user() -> int:
    return settings.LIVE_SOCKETS_PER_USER


class Counts:
    """The open table sockets of one process, per user and table."""

    def __init__(self, process: str | None = None) -> None:
        self.process = process or uuid.uuid4().hex
        self._mine: dict[int, Counter[int]] = {}  # user id -> table id -> sockets
        self._listed_at = 0.0  # when this process last renewed its entry in the list

    def _key(self, user_id: int, process: str | None = None) -> str:
        return f"sockets:user:{user_id}:process:{process or self.process}"

    async def admit(self, user_id: int, table_id: int) -> bool:
        """Count one more socket of the user at the table, unless that passes a bound."""
        mine = self._mine.setdefault(user_id, Counter())
        if not _within(mine, table_id):
            return False
        elsewhere = await self._elsewhere(user_id)
        if not _within(mine + elsewhere, table_id):
            return False
        mine[table_id] += 1
        await self._publish(user_id)
        return True

    async def release(self, user_id: int, table_id: int) -> None:
        mine = self._mine.get(user_id)
        if mine is None or mine[table_id] <= 0:
            return
        mine[table_id] -= 1
        if mine[table_id] == 0:
            del mine[table_id]
        if not mine:
            del self._mine[user_id]
        await self._publish(user_id)

    async def renew(self, user_id: int) -> None:
        """A page of the user is alive (its heartbeat): keep their counts published."""
        if user_id in self._mine:
            await self._publish(user_id)

    def open(self, user_id: int, table_id: int | None = None) -> int:
        """This process's sockets of the user (at one table, or in all)."""
        mine = self._mine.get(user_id, Counter())
        return mine[table_id] if table_id is not None else sum(mine.values())

    async def _publish(self, user_id: int) -> None:
        try:
            mine = self._mine.get(user_id)
            if mine:
                await cache.aset(self._key(user_id), dict(mine), TTL)
            else:
                await cache.adelete(self._key(user_id))
            if time.monotonic() - self._listed_at > TTL / 3:
                await self._list_me()
        except Exception:  # the cache is down: this process's own bound still holds
            logger.warning("socket counts not published", exc_info=True)

    async def _list_me(self) -> None:
        now = time.time()
        listed = await cache.aget(PROCESSES_KEY) or {}
        listed = {p: seen for p, seen in listed.items() if now - seen < TTL}
        listed[self.process] = now
        await cache.aset(PROCESSES_KEY, listed, TTL * 2)
        self._listed_at = time.monotonic()

    async def _elsewhere(self, user_id: int) -> Counter[int]:
        """The user's sockets in the other live processes, as they published them."""
        try:
            listed = await cache.aget(PROCESSES_KEY) or {}
            now = time.time()
            others = [p for p, seen in listed.items() if p != self.process and now - seen < TTL]
            if not others:
                return Counter()
            found = await cache.aget_many([self._key(user_id, p) for p in others])
        except Exception:
            logger.warning("socket counts of the other processes not read", exc_info=True)
            return Counter()
        total: Counter[int] = Counter()
        for counts in found.values():
            total.update(counts)
        return total


def _within(counts: Counter[int], table_id: int) -> bool:
    """Whether one more socket at ``table_id`` keeps ``counts`` within both bounds."""
    return counts[table_id] < per_table() and sum(counts.values()) < per_user()


# This process's counts.
sockets = Counts()
