"""The tournament formats, one module each; ``FORMATS`` lists them in the admin's order.

``Tournament.format``'s choices (games/tournaments/models.py), the service's rounds and pairings,
the pages' words and the admin form all read this list: a new format is a new module
here (a ``Format`` subclass, see base.py) added to ``FORMATS``, and a migration for the
new choice.
"""

from __future__ import annotations

from games.tournaments.formats import knockout, round_robin, swiss
from games.tournaments.formats.base import Format

FORMATS: tuple[Format, ...] = (round_robin.FORMAT, swiss.FORMAT, knockout.FORMAT)
FORMATS_BY_NAME = {format.name: format for format in FORMATS}


def format_of(name: str) -> Format:
    """The format stored as ``name`` (``Tournament.format``)."""
    return FORMATS_BY_NAME[name]


__all__ = ["FORMATS", "FORMATS_BY_NAME", "Format", "format_of"]
