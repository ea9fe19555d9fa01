"""Helpers of the record tests: a finished table's records, and a record tampered with."""

from __future__ import annotations

import copy
import json

from games.tables import records
from games.tables.models import Table
from tests.factories import play_to_the_end, started_table

# Records of games played once per test run: pure data, kept after the test that played
# them is rolled back (a table committed for a whole module would leave its queued tasks
# to the other tests).
_played: dict[int, dict] = {}


def game_record(table: Table, number: int = 1) -> dict:
    return records.game_record(table, table.games.get(number=number))


def tampered(record: dict, change) -> dict:
    """A deep copy of ``record`` after ``change(copy)``."""
    other = copy.deepcopy(record)
    change(other)
    return other


def as_bytes(record: dict) -> bytes:
    return json.dumps(record).encode()


def played_record(seed: int) -> dict:
    """The record of a classique game played to the end by random moves (``seed``), as
    downloaded; the test must have the database (played once, then a copy)."""
    if seed not in _played:
        table = play_to_the_end(started_table(), seed=seed)
        _played[seed] = json.loads(records.record_bytes(game_record(table)))
    return copy.deepcopy(_played[seed])
