"""SCRATCH: a concern above the tables that hears the end of each game."""

ended: list[int] = []


def game_ended(sender, *, game, **kwargs) -> None:
    ended.append(game.pk)
