"""Fixtures of the tournament tests: a club, its organiser and members, a tournament."""

from __future__ import annotations

import pytest

from games.models import Tournament
from tests.factories import make_user
from tests.tournaments.helpers import make_club, make_organiser, make_tournament, members


@pytest.fixture
def club(db):
    return make_club()


@pytest.fixture
def organiser(club):
    return make_organiser(club)


@pytest.fixture
def players(club) -> list:
    """Eight members of the club: joueur01 to joueur08."""
    return members(club, 8)


@pytest.fixture
def outsider(db):
    """A player of no club."""
    return make_user("olivier")


@pytest.fixture
def swiss(club) -> Tournament:
    return make_tournament(club, Tournament.Format.SWISS, rounds=3)


@pytest.fixture
def knockout(club) -> Tournament:
    return make_tournament(club, Tournament.Format.KNOCKOUT)
