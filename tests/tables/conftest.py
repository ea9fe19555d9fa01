"""Fixtures of the table pages: a creator with a private table, its invitees, outsiders."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Table
from games.tables import lobby
from tests.factories import make_user
from tests.tables.helpers import client_for


@pytest.fixture
def creator(db):
    return make_user("claire")


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def outsider(db):
    return make_user("olivier")


@pytest.fixture
def table(creator) -> Table:
    """A classique table in the lobby, its creator at South."""
    return lobby.create_private_table(created_by=creator, preset="classique", target=1000)


@pytest.fixture
def as_creator(creator) -> Client:
    return client_for(creator)
