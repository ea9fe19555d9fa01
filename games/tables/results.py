"""What follows the end of a game, inside the transaction that ends it.

``games.tables.service`` calls ``game_finished`` once per game, whichever way it ended (the
target reached, or a forfeit on time), once the game's winner and end time are saved and
before the table's lock is released (the table row itself may not be saved yet: read the
result from the game): the ratings move (games/ratings/service.py) and a tournament match takes
its result (games/tournaments/service.py) atomically with the last move.
"""

from __future__ import annotations

from games.models import Game


def game_finished(game: Game) -> None:
    from games.ratings import service as ratings
    from games.tournaments import service as tournaments

    ratings.rate_game(game)
    tournaments.game_finished(game)
