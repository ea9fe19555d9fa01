"""Helpers of the ratings tests: games that end with a chosen winner, through the service.

``forfeit_game`` is the quick way to a result: a table whose time per move is up after
one timeout, the team that should lose being the one to act. ``play_out`` plays a table
to its end by random legal moves, its bots (and stand-ins) moving through
``service.play_bot_move`` as the worker would.
"""

from __future__ import annotations

import random

from accounts.models import Rating, User
from games.models import Game, Pace, Table, TimeoutPolicy
from games.tables import service
from tests.factories import fixed_deck, make_table, play_random_move, seated_user
from tests.timing.helpers import after, fresh


def forfeit_table(players: dict[int, User], bots: dict[int, str] | None = None) -> Table:
    """A started asynchronous table where the first timeout loses the game."""
    table = make_table(players=players, bots=bots)
    Table.objects.filter(pk=table.pk).update(
        pace=Pace.ASYNC,
        move_seconds=3600,
        timeout_policy=TimeoutPolicy.FORFEIT,
        forfeit_after=1,
    )
    service.start_table(table_id=table.pk, first_dealer=0, deck=fixed_deck(table.pk))
    return fresh(table)


def forfeit_game(players: list[User], winner: int) -> Game:
    """``players`` (N E S W) play a game won by team ``winner`` (0 Nord-Sud, 1 Est-Ouest):
    the other team runs out of time at once."""
    table = forfeit_table(dict(enumerate(players)))
    if table.turn % 2 == winner:
        # The winners pass: the turn goes to the team that is to lose.
        service.submit(
            table_id=table.pk,
            actor=seated_user(table, table.turn),
            action="pass",
            expected_version=table.version,
        )
        table = fresh(table)
    with after(table.deadline):
        assert service.expire_deadline(table.pk, table.version).applied
    game = table.games.get()
    assert game.winner == winner
    return game


def play_out(table: Table, seed: int = 0, max_moves: int = 20_000) -> Table:
    """Random legal moves until the table is finished; bots and stand-ins move as bots."""
    rng = random.Random(seed)
    for _ in range(max_moves):
        table = fresh(table)
        if table.status != Table.Status.PLAYING:
            return table
        seat = table.seats.get(position=table.turn)
        if seat.bot_plays:
            outcome = service.play_bot_move(table.pk, table.version, notify_bots=False)
        else:
            outcome = play_random_move(table, rng)
        assert outcome.applied
    raise AssertionError(f"table {table.pk} still playing after {max_moves} moves")


def figures(users: list[User]) -> list[tuple[float, float, float, int] | None]:
    """Each user's stored rating as (mu, sigma, ordinal, games), None without one."""
    ratings = {r.user_id: r for r in Rating.objects.filter(user__in=users)}
    return [
        (r.mu, r.sigma, r.ordinal, r.games) if (r := ratings.get(u.pk)) else None for u in users
    ]
