"""Tournaments: pairing rounds, creating their tables, taking results. To be written."""

from __future__ import annotations

from games.models import Game


def game_finished(game: Game) -> None:
    """A tournament table's game ended: record the match result, pair the next round."""
