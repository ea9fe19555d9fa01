"""games.tables.lobby called directly: what the forms cannot send is still refused, and the
database refuses what the code must never write."""

import pytest
from django.db import IntegrityError, transaction

from games.models import Invitation, Table
from games.tables import lobby
from games.tables.service import ServiceError

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"preset": "tarot", "target": 1000}, "unknown_preset"),
        ({"preset": "belote_com", "target": 1000}, "bad_target"),
        ({"target": 1000, "options": {"seven_exchange": True}}, "bad_option"),
        ({"target": 1000, "options": {"announces": "declared"}}, "bad_option"),
        ({"target": 1000, "options": {"announces": 1}}, "bad_option"),
        ({"target": 1000, "pace": "slow"}, "bad_pace"),
        ({"target": 1000, "pace": "live", "move_seconds": 3600}, "bad_move_time"),
        ({"target": 1000, "pace": "async", "move_seconds": 600}, "bad_move_time"),
        ({"target": 1000, "pace": "async", "move_seconds": 8 * 86400}, "bad_move_time"),
        ({"target": 1000, "bot_level": "genius"}, "unknown_bot"),
        ({"target": 1000, "seat": 4}, "bad_seat"),
    ],
)
def test_create_refuses_what_the_preset_does_not_offer(creator, arguments, code):
    arguments = {"preset": "classique", **arguments}

    with pytest.raises(ServiceError) as refused:
        lobby.create_private_table(created_by=creator, **arguments)

    assert refused.value.code == code
    assert refused.value.status == 422
    assert not Table.objects.exists()


def test_the_database_keeps_the_time_per_move_within_its_pace(table):
    table.pace = "async"
    with pytest.raises(IntegrityError), transaction.atomic():
        table.save()  # still 120 s: too short to play by correspondence


def test_the_database_records_one_invitation_per_player(table, alice):
    Invitation.objects.create(table=table, user=alice, via="link")
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(table=table, user=alice, via="username")


def test_a_swap_keeps_each_player_once(table, alice):
    lobby.invite_user(table=table, by=table.created_by, username="alice")
    lobby.take_seat(table=table, user=alice, position=0)

    lobby.move_player(table=table, by=table.created_by, from_position=0, to_position=2)

    seats = dict(table.seats.values_list("position", "user__username"))
    assert seats == {0: "claire", 1: None, 2: "alice", 3: None}


def test_lobby_changes_are_logged_in_order(table, alice):
    lobby.invite_user(table=table, by=table.created_by, username="alice")
    lobby.take_seat(table=table, user=alice, position=0)
    lobby.leave_seat(table=table, user=alice)
    lobby.revoke_link(table=table, by=table.created_by)

    table.refresh_from_db()
    log = list(table.actions.values_list("seq", "kind"))
    assert log == [(1, "invite"), (2, "take_seat"), (3, "leave_seat"), (4, "revoke_link")]
    assert table.version == 4
    assert all(hand is None for hand in table.actions.values_list("hand", flat=True))
