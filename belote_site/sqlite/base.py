"""Django's SQLite backend, whose writers take the write lock as soon as it is free.

SQLite lets one connection write at a time; our transactions take that lock up front
(``BEGIN IMMEDIATE``, ``transaction_mode`` in belote_site/settings/base.py). A connection
that finds it taken waits in SQLite's busy handler, which sleeps 1, 2, 5, 10, 15, 20 ms...
between its tries: behind a transaction of one or two milliseconds (a bot's move in the
task worker), a player's move would sleep 3, 8, even 18 ms, and so would the pages waiting
for it to show. Here the ``BEGIN IMMEDIATE`` of a transaction is retried every fraction of
a millisecond instead, until the busy timeout (``OPTIONS["timeout"]``, 5 s by default)
runs out; then it fails as before, with "database is locked". Statements outside a
transaction (autocommit) keep SQLite's own busy handler.
"""

from __future__ import annotations

import sqlite3
import time

from django.db import OperationalError
from django.db.backends.sqlite3 import base

FIRST_PAUSE = 0.0002  # seconds between two tries, doubled each time up to LONGEST_PAUSE
LONGEST_PAUSE = 0.002
DEFAULT_TIMEOUT = 5.0  # seconds, as Python's sqlite3.connect


class DatabaseWrapper(base.DatabaseWrapper):
    def _start_transaction_under_autocommit(self) -> None:
        if self.transaction_mode != "IMMEDIATE":
            super()._start_transaction_under_autocommit()
            return
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", DEFAULT_TIMEOUT))
        give_up = time.monotonic() + timeout
        pause = FIRST_PAUSE
        # The connection's busy timeout, off while we try (a taken lock fails at once).
        self.connection.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    self.cursor().execute("BEGIN IMMEDIATE")
                    return
                except OperationalError as error:
                    busy = getattr(error.__cause__, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY
                    if not busy or time.monotonic() >= give_up:
                        raise
                time.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)
        finally:
            self.connection.execute(f"PRAGMA busy_timeout = {round(timeout * 1000)}")
