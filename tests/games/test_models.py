"""The database itself refuses what the code must never write (constraints on the models)."""

import pytest
from django.db import IntegrityError, transaction

from games.models import Action, Seat, Table
from tests.factories import make_table, make_user, started_table

pytestmark = pytest.mark.django_db


def refused(write) -> None:
    """``write`` fails with IntegrityError, and the test's transaction goes on."""
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def test_an_action_number_is_used_once_per_table():
    table = started_table()
    first = table.actions.get()

    refused(lambda: Action.objects.create(table=table, seq=first.seq, source="system", kind="x"))

    # The same number at another table is fine: the log is per table.
    other = make_table()
    Action.objects.create(table=other, seq=first.seq, source="system", kind="start")


def test_a_seat_holds_a_user_or_a_bot_not_both():
    table = make_table()
    seat = table.seats.get(position=0)
    seat.user, seat.bot_level = make_user(), "random"

    refused(seat.save)


def test_two_seats_cannot_share_a_position():
    table = make_table()

    refused(lambda: Seat.objects.create(table=table, position=2))


def test_a_position_is_between_0_and_3():
    table = make_table()
    table.seats.filter(position=3).delete()

    refused(lambda: Seat.objects.create(table=table, position=4))


def test_a_user_sits_once_at_a_table():
    user = make_user()
    table = make_table(players={0: user})

    refused(lambda: table.seats.filter(position=1).update(user=user))


def test_a_bot_level_must_be_known():
    table = make_table()

    refused(lambda: table.seats.filter(position=1).update(bot_level="master"))


def test_a_table_status_must_be_known():
    table = make_table()

    refused(lambda: Table.objects.filter(pk=table.pk).update(status="paused"))


def test_an_action_is_never_changed_nor_deleted_alone():
    """The hands are replayed from the log: an action written stays as it was."""
    table = started_table()
    action = table.actions.get()
    before = (action.kind, action.payload)

    action.kind = "forged"
    with pytest.raises(ValueError, match="append-only"):
        action.save()
    with pytest.raises(ValueError, match="append-only"):
        action.delete()

    stored = Action.objects.get(pk=action.pk)
    assert (stored.kind, stored.payload) == before


def test_the_log_goes_with_its_table_and_forgets_a_deleted_player():
    table = started_table()
    player = table.seats.get(position=0).user
    Action.objects.create(table=table, seq=99, source="player", kind="x", actor=player)

    player.delete()
    assert Action.objects.get(table=table, seq=99).actor is None

    table.delete()
    assert not Action.objects.filter(table_id=table.pk).exists()
