"""The log of an outage of something the site can do without for a while: Redis, as the
cache (belote_site/cache.py) and as the channel layer (games/live/broadcast.py).

While Redis is down, every request that would have used it fails over to a fallback, and
each would otherwise log a traceback: hundreds a minute, which bury the one line that
matters. ``Outage`` tells the story once per process instead: a warning with the first
error, a reminder every ``REMIND_SECONDS`` while it lasts (with the number of failures),
and a warning when it works again (with how long it was out).
"""

from __future__ import annotations

import logging
import threading
import time

REMIND_SECONDS = 60

_outages: list[Outage] = []


class Outage:
    """The failures of one service in this process (thread-safe)."""

    def __init__(self, service: str, logger: logging.Logger) -> None:
        self.service = service
        self.logger = logger
        self._lock = threading.Lock()
        # time.time() of the first failure (the wall clock: tests travel it)
        self._since: float | None = None
        self._logged = 0.0
        self._failures = 0
        _outages.append(self)

    def failed(self, error: BaseException) -> None:
        now = time.time()
        with self._lock:
            self._failures += 1
            first = self._since is None
            if first:
                self._since = now
            elif now - self._logged < REMIND_SECONDS:
                return
            self._logged = now
            failures, since = self._failures, self._since
        if first:
            self.logger.warning(
                "%s failed, the site goes on without it", self.service, exc_info=error
            )
        else:
            self.logger.warning(
                "%s still failing: %d failures in %.0f s (last: %r)",
                self.service,
                failures,
                now - since,
                error,
            )

    def worked(self) -> None:
        if self._since is None:  # the usual case: no lock taken
            return
        with self._lock:
            if self._since is None:
                return
            failures, lasted = self._failures, time.time() - self._since
            self._since, self._failures = None, 0
        self.logger.warning(
            "%s works again after %.1f s (%d failures)", self.service, lasted, failures
        )


def forget_all() -> None:
    """Tests: an outage of one test (a Redis on a closed port) is not the next test's."""
    for outage in _outages:
        with outage._lock:
            outage._since, outage._failures = None, 0
