"""OpenSkill team ratings. To be written (issue 7)."""

from __future__ import annotations

from games.models import Game


def rate_game(game: Game) -> None:
    """Move the four players' ratings after a rated game (four humans)."""


def club_leaderboard(club) -> list:
    """The club's members by rating, best first (rows for games/_leaderboard.html)."""
    return []
