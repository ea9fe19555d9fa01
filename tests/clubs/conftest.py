"""Fixtures of the club tests: a club with an owner, an organiser and a member; an
outsider; the organiser of another club."""

from __future__ import annotations

import pytest

from tests.clubs.helpers import make_club
from tests.factories import make_user


@pytest.fixture
def owner(db):
    return make_user("odile")


@pytest.fixture
def organiser(db):
    return make_user("oscar")


@pytest.fixture
def member(db):
    return make_user("marie")


@pytest.fixture
def outsider(db):
    return make_user("olivier")


@pytest.fixture
def club(owner, organiser, member):
    return make_club("Les Atouts", owners=[owner], organisers=[organiser], members=[member])


@pytest.fixture
def other_organiser(db):
    """The organiser of another club: no right at all over ``club``."""
    user = make_user("agathe")
    make_club("Belote du Port", owners=[make_user("paul")], organisers=[user])
    return user
