"""Small per-process memos of what a table's rows determine once and for all.

A table's version moves with every change of its game (each version is one action of
the append-only log), so what is computed from a table at one version never changes: the
engine state of its current hand (games/tables/selectors.py ``table_state``), the finished hands
of its game and its previous games while its current hand and status stay the same
(games/tables/board.py). Several pages render the same version at once (the three other
players after a move, the mover's own answer), and the finished hands are the same for
the whole hand: each is computed once per process instead of once per request.

Keys also carry the hand's deck, drawn at random for every hand, so that a row id used
again after a deletion cannot find the memo of another hand. Nothing else is kept:
values are immutable or only read, at most ``size`` entries (least recently used out).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any

from django.db import transaction

_memos: list[Memo] = []


class Memo:
    """A thread-safe least-recently-used map of at most ``size`` entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        _memos.append(self)

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def get_or_compute(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The value of ``key``; computed (outside the lock) if missing, then kept once
        what it was computed from is known to be committed (``keep``)."""
        value = self.get(key)
        if value is None:
            value = compute()
            self.keep(key, value)
        return value

    def keep(self, key: Hashable, value: Any) -> None:
        """Put ``value`` now, or when the current transaction commits if there is one:
        what a transaction read or wrote may still be rolled back, and another version
        then take its number."""
        if transaction.get_connection().in_atomic_block:
            transaction.on_commit(partial(self.put, key, value))
        else:
            self.put(key, value)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class SharedReadings:
    """What the pages of this process share when they hear one change at once: the first
    makes the reading (``make()``, kept under ``key``), the others within ``seconds`` get
    the same one; a later hearing makes a new one. At most ``size`` kept, the least
    recently used out. Thread-safe: ``make`` runs under the lock, so it should be cheap
    (the readings read the database lazily, at their first use)."""

    def __init__(self, size: int, seconds: float) -> None:
        self.seconds = seconds
        self._memo = Memo(size)
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        now = time.monotonic()
        with self._lock:
            found = self._memo.get(key)
            if found is not None and now - found[0] < self.seconds:
                return found[1]
            value = make()
            self._memo.put(key, (now, value))
            return value

    def offer(self, key: Hashable, make: Callable[[], Any]) -> None:
        """Keep ``make()`` under ``key`` unless a reading is kept there already."""
        with self._lock:
            if self._memo.get(key) is None:
                self._memo.put(key, (time.monotonic(), make()))


def clear_all() -> None:
    """Forget every memo (tests: row ids and fixed decks come again from test to test)."""
    for memo in _memos:
        memo.clear()
