"""Fixtures of the table page: four players at a started classique table (deck fixed),
a creator who watches without a seat, an outsider and a spectator."""

from __future__ import annotations

import pytest

from games.models import Table
from games.tables import lobby, service
from tests.factories import fixed_deck, make_user, make_users


@pytest.fixture
def players(db):
    """N, E, S, W."""
    return make_users(4)


@pytest.fixture
def creator(db):
    return make_user("claire")


@pytest.fixture
def outsider(db):
    return make_user("olivier")


@pytest.fixture
def start(players, creator):
    """Start a table of ``players`` created by ``creator`` (not seated, so they can watch
    but not play), the first hand dealt from a fixed deck (or ``deck``) by North."""

    def start(
        preset: str = "classique",
        *,
        seed: int = 0,
        options: dict | None = None,
        spectators: bool = False,
        dealer: int = 0,
        deck: list[int] | None = None,
    ) -> Table:
        table = service.create_table(
            created_by=creator,
            preset=preset,
            options=options,
            players=dict(enumerate(players)),
        )
        if spectators:
            lobby.set_spectators(table=table, by=creator, allowed=True)
        service.start_table(table_id=table.pk, first_dealer=dealer, deck=deck or fixed_deck(seed))
        table.refresh_from_db()
        return table

    return start


@pytest.fixture
def table(start) -> Table:
    return start()
