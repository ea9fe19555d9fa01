"""A started table's seats are kept per process (games/tables/board.py ``table_seats``) by the
table's seats version: every write of a seat, or of a name a seat shows, moves it on, so
that no page, move or bot ever works from stale seats.

Each test reads the seats once (the memo keeps them once the reading's transaction
commits: the on-commit callbacks are run), changes them by one of the site's paths, and
reads them again as the next page or move would.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.models import Action, Seat, Table, TimeoutPolicy
from games.tables import lobby, service, standins
from games.tables.seats import table_seats
from games.timing import absence
from tests.factories import make_user, make_users, started_table
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def read(django_capture_on_commit_callbacks):
    """The seats as a page of the table sees them: (position, name, bot, stand-in,
    timeouts), the table read afresh."""

    def read(table_id: int) -> list[tuple]:
        table = Table.objects.select_related("current_hand__game").get(pk=table_id)
        with django_capture_on_commit_callbacks(execute=True):
            seats = table_seats(table)
        return [
            (s.position, str(s.user) if s.user_id else "", s.bot_level, s.stand_in, s.timeouts)
            for s in seats
        ]

    return read


@pytest.fixture
def table():
    return started_table(players=dict(enumerate(make_users(4))))


def user_at(table: Table, position: int):
    return Seat.objects.select_related("user").get(table=table, position=position).user


def test_the_seats_of_a_started_table_are_read_once_per_seats_version(
    table, read, django_assert_num_queries
):
    first = read(table.pk)
    with django_assert_num_queries(1):  # the table only
        assert read(table.pk) == first


def test_a_player_renamed_in_their_profile_shows_under_the_new_name(table, read):
    north = user_at(table, 0)
    viewer = client_for(user_at(table, 2))
    board = reverse("games:board", args=[table.pk])
    assert str(north) in viewer.get(board).content.decode()
    read(table.pk)
    answer = client_for(north).post(
        reverse("profile"),
        {"display_name": "Zéphyrine", "language": "fr", "notify": north.notify},
    )
    assert answer.status_code == 302
    assert read(table.pk)[0][1] == "Zéphyrine"
    assert "Zéphyrine" in viewer.get(board).content.decode()


def test_a_new_username_shows_in_the_seat(table, read):
    east = user_at(table, 1)
    read(table.pk)
    east.username = "nouveau_nom"
    east.save()
    assert read(table.pk)[1][1] == "nouveau_nom"


def test_a_deleted_user_leaves_the_seat_empty(table, read):
    read(table.pk)
    user_at(table, 3).delete()
    assert read(table.pk)[3][1] == ""


def test_a_login_does_not_move_the_seats_version(table):
    user = user_at(table, 0)
    version = Table.objects.get(pk=table.pk).seats_version
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    assert Table.objects.get(pk=table.pk).seats_version == version


def pass_the_deadline(table: Table) -> int:
    """The turn began an hour ago and its time ran out: returns the table's version."""
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Action.objects.filter(table=table).update(created_at=long_ago)
    Table.objects.filter(pk=table.pk).update(deadline=long_ago)
    return Table.objects.get(pk=table.pk).version


def test_a_timeout_shows_on_the_seat_and_a_rematch_clears_it(table, read, at_the_table):
    Table.objects.filter(pk=table.pk).update(timeout_policy=TimeoutPolicy.FORFEIT, forfeit_after=1)
    turn = Table.objects.get(pk=table.pk).turn
    at_the_table(table, user_at(table, (turn + 2) % 4))  # the live table goes on
    read(table.pk)
    service.expire_deadline(table.pk, pass_the_deadline(table))
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert read(table.pk)[turn][4] == 1
    lobby.rematch(table_id=table.pk, by=user_at(table, 0))
    assert [seat[4] for seat in read(table.pk)] == [0, 0, 0, 0]


def test_a_timeout_played_by_the_bot_shows_on_the_seat(table, read, at_the_table):
    turn = Table.objects.get(pk=table.pk).turn
    at_the_table(table, user_at(table, (turn + 2) % 4))
    read(table.pk)
    assert service.expire_deadline(table.pk, pass_the_deadline(table)).applied
    assert read(table.pk)[turn][4] == 1


def test_a_stand_in_and_the_player_taking_back_their_seat_show(table, read, at_the_table):
    live = Table.objects.get(pk=table.pk)
    at_the_table(table, user_at(table, (live.turn + 2) % 4))
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Action.objects.filter(table=table).update(created_at=long_ago)
    read(table.pk)
    assert absence.replace_absent(table.pk, live.version).applied
    assert read(table.pk)[live.turn][3] is True
    standins.take_back_seat(table_id=table.pk, user=user_at(table, live.turn))
    assert read(table.pk)[live.turn][3] is False


def test_a_seat_saved_or_deleted_anywhere_moves_the_version(table, read):
    read(table.pk)
    seat = Seat.objects.get(table=table, position=1)
    seat.stand_in = True
    seat.save()  # as the admin would
    assert read(table.pk)[1][3] is True
    Seat.objects.filter(table=table, position=1).delete()
    assert [seat[0] for seat in read(table.pk)] == [0, 2, 3]


def test_a_table_read_before_a_seat_change_never_writes_the_old_version_back(table, read):
    before = Table.objects.get(pk=table.pk)
    read(table.pk)
    user_at(table, 0).delete()
    before.allow_spectators = True
    before.save()  # every field, as the admin saves it
    saved = Table.objects.get(pk=table.pk)
    assert saved.allow_spectators is True
    assert saved.seats_version > before.seats_version
    assert read(table.pk)[0][1] == ""


@pytest.mark.django_db(transaction=True)
def test_a_change_rolled_back_leaves_nothing_stale():
    table = started_table(players=dict(enumerate(make_users(4))))

    def name_at_north() -> str:
        fresh = Table.objects.select_related("current_hand__game").get(pk=table.pk)
        return str(table_seats(fresh)[0].user)

    north = user_at(table, 0)
    with pytest.raises(RuntimeError), transaction.atomic():
        north.display_name = "Fantôme"
        north.save()
        assert name_at_north() == "Fantôme"  # seen inside, not kept: rolled back
        raise RuntimeError
    assert name_at_north() == str(user_at(table, 0))
    north.refresh_from_db()
    north.display_name = "Réel"
    north.save()  # the same seats version as the change rolled back
    assert name_at_north() == "Réel"


@pytest.mark.parametrize("change", ["take", "leave", "move", "bot", "remove_bot"])
def test_every_lobby_change_of_a_seat_moves_the_version(change):
    creator, guest = make_user(), make_user()
    table = lobby.create_private_table(created_by=creator, preset="classique", target=1000)
    lobby.set_bot(table=table, by=creator, position=1, level="heuristic")
    seat = Seat.objects.get(table=table, user=creator).position
    free = next(s.position for s in Seat.objects.filter(table=table) if s.is_free)
    before = Table.objects.get(pk=table.pk).seats_version
    if change == "take":
        lobby.join_by_link(table=table, user=guest, token=table.invite_token)
        lobby.take_seat(table=table, user=guest, position=free)
    elif change == "leave":
        lobby.leave_seat(table=table, user=creator)
    elif change == "move":
        lobby.move_player(table=table, by=creator, from_position=seat, to_position=free)
    elif change == "bot":
        lobby.set_bot(table=table, by=creator, position=free, level="random")
    else:
        lobby.remove_bot(table=table, by=creator, position=1)
    assert Table.objects.get(pk=table.pk).seats_version > before
