"""Helpers of the record tests: a finished table's records, and a record tampered with."""

from __future__ import annotations

import copy
import json

from games.tables import records
from games.tables.models import Table


def game_record(table: Table, number: int = 1) -> dict:
    return records.game_record(table, table.games.get(number=number))


def tampered(record: dict, change) -> dict:
    """A deep copy of ``record`` after ``change(copy)``."""
    other = copy.deepcopy(record)
    change(other)
    return other


def as_bytes(record: dict) -> bytes:
    return json.dumps(record).encode()
