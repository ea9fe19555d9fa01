"""Factories for the persistence tests: users, tables, started tables, and a move driver.

Everything goes through ``games.tables.service``, as in production: a factory never writes game
rows itself. ``play_random_move`` is the test's own stand-in for four humans (a random
legal move submitted by whoever is to act); it is not a bot and needs no ``games.bots``.
"""

from __future__ import annotations

import itertools
import random

from accounts.models import User
from games import rules as engine
from games.models import Table
from games.tables import service
from games.tables.selectors import hand_state

_numbers = itertools.count(1)


def make_user(username: str | None = None, **fields) -> User:
    username = username or f"joueur{next(_numbers)}"
    fields.setdefault("email", f"{username}@example.org")
    return User.objects.create_user(username=username, password="belote-test", **fields)


def make_users(count: int) -> list[User]:
    return [make_user() for _ in range(count)]


def make_table(
    *,
    preset: str = "classique",
    players: dict[int, User] | None = None,
    bots: dict[int, str] | None = None,
    options: dict | None = None,
    created_by: User | None = None,
) -> Table:
    """A table in the lobby; seats not in ``players`` or ``bots`` stay free."""
    return service.create_table(
        created_by=created_by, preset=preset, options=options, players=players, bots=bots
    )


def fixed_deck(seed: int = 0) -> list[int]:
    """A deck in a reproducible order (``list(range(32))`` shuffled by ``seed``)."""
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    return deck


def started_table(
    *,
    preset: str = "classique",
    players: dict[int, User] | None = None,
    bots: dict[int, str] | None = None,
    options: dict | None = None,
    deck: list[int] | None = None,
    first_dealer: int = 0,
) -> Table:
    """A table with four seats taken, its first hand dealt from ``deck`` by ``first_dealer``.

    Without ``players`` or ``bots``, four new users sit down.
    """
    if players is None and bots is None:
        players = dict(enumerate(make_users(4)))
    table = make_table(preset=preset, players=players, bots=bots, options=options)
    service.start_table(
        table_id=table.pk, first_dealer=first_dealer, deck=deck or fixed_deck(table.pk)
    )
    table.refresh_from_db()
    return table


def seated_user(table: Table, position: int) -> User:
    return table.seats.select_related("user").get(position=position).user


def play_random_move(table: Table, rng: random.Random) -> service.Outcome:
    """A random legal move by the seated user whose turn it is, through ``submit``."""
    table.refresh_from_db()
    state = hand_state(table)
    action = rng.choice(engine.legal_actions(state))
    return service.submit(
        table_id=table.pk,
        actor=seated_user(table, state.turn),
        action=str(action),
        expected_version=table.version,
    )


def play_to_the_end(table: Table, seed: int = 0, max_moves: int = 20_000) -> Table:
    """Random legal moves by the four seated users until the table is finished."""
    rng = random.Random(seed)
    for _ in range(max_moves):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return table
        assert play_random_move(table, rng).applied
    raise AssertionError(f"table {table.pk} still playing after {max_moves} moves")


def act(table: Table, *actions: str) -> None:
    """Actions in their text form (``"pass"``, ``"take D"``, ``"play JH"``), each by the
    seated user whose turn it is."""
    for action in actions:
        table.refresh_from_db()
        state = hand_state(table)
        outcome = service.submit(
            table_id=table.pk,
            actor=seated_user(table, state.turn),
            action=action,
            expected_version=table.version,
        )
        assert outcome.applied, action


def play_tricks(table: Table, tricks: list[str]) -> None:
    """Tricks written as in tests/rules/tricks.py (``"N:JH W:7H S:KH E:9H"``), each card
    played by its seat when its turn comes."""
    for trick in tricks:
        cards = {engine.SEATS.index(word[0]): word[2:] for word in trick.split()}
        for _ in range(4):
            table.refresh_from_db()
            act(table, f"play {cards[hand_state(table).turn]}")
