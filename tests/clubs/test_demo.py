"""The demo club of ``manage.py belote_demo``: the four demo players, one organiser."""

import pytest

from accounts.models import Club, ClubRole
from games.demo import DEMO_CLUB, ensure_demo_club
from tests.clubs.helpers import roles
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_the_demo_club_is_made_once():
    alice, *others = [make_user(name) for name in ("alice", "bob", "chloe", "david")]

    assert ensure_demo_club(alice, others) == 1
    assert ensure_demo_club(alice, others) == 0

    club = Club.objects.get(slug=DEMO_CLUB)
    assert roles(club) == {
        "alice": ClubRole.OWNER,
        "bob": ClubRole.ORGANISER,
        "chloe": ClubRole.MEMBER,
        "david": ClubRole.MEMBER,
    }
    [table] = club.tables.all()
    assert table.created_by.username == "bob" and table.status == "lobby"
