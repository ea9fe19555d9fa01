"""Who has a table's page open right now: the "connected" dot of each seat.

The table websocket (games/live/consumers.py) counts its connections per (table, user) in
Django's cache: one more when a page connects, one less when it closes. A counter lives
``TTL`` seconds and every message of the page renews it (static/js/table.js asks for the
version every ``HEARTBEAT`` seconds), so a connection that vanished without closing (a
crashed process, a dead network) stops counting within ``TTL``. A user is connected
while their counter is above zero, whatever the number of tabs.

Nothing here is game state and nothing depends on it being exact: a lost update heals at
the next heartbeat. The cache must be shared by every process serving websockets (Redis
as soon as REDIS_URL is set, see belote_site/settings/base.py). While Redis is down, each
process counts in its own memory (belote_site/cache.py): a page shows the dots of the
pages its process serves, and the stand-in bots wait for Redis (games/timing/sweep.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

HEARTBEAT = 30  # seconds between two messages of an open page
# Close codes of the table's socket that end it for good (the 4000-4999 range is left to
# applications by RFC 6455): told to static/js/table.js by the table page.
NOT_LOGGED_IN = 4401
NOT_ALLOWED = 4404
TOO_MANY_SOCKETS = 4429  # this user has too many pages open (at this table)
TTL = 90  # a counter not renewed for this long is gone


def _key(table_id: int, user_id: int) -> str:
    return f"presence:table:{table_id}:user:{user_id}"


async def arrive(table_id: int, user_id: int) -> bool:
    """Count one more connection; True when the user was not connected before."""
    key = _key(table_id, user_id)
    await cache.aadd(key, 0, TTL)
    try:
        count = await cache.aincr(key)
    except ValueError:  # expired between the two calls
        await cache.aset(key, 1, TTL)
        count = 1
    await cache.atouch(key, TTL)
    return count == 1


async def leave(table_id: int, user_id: int) -> bool:
    """Count one connection less; True when it was the user's last one."""
    key = _key(table_id, user_id)
    try:
        count = await cache.adecr(key)
    except ValueError:  # already expired: they were gone for the others anyway
        return False
    if count <= 0:
        await cache.adelete(key)
        return True
    return False


async def renew(table_id: int, user_id: int) -> bool:
    """Keep the user's counter alive; True when it had expired (they are back)."""
    key = _key(table_id, user_id)
    if await cache.atouch(key, TTL):
        return False
    return await cache.aadd(key, 1, TTL)


def connected(table_id: int, user_ids: Iterable[int]) -> set[int]:
    """Those of ``user_ids`` who have the table open."""
    keys = {_key(table_id, user_id): user_id for user_id in user_ids}
    if not keys:
        return set()
    found = cache.get_many(list(keys))
    return {keys[key] for key, count in found.items() if count and count > 0}
