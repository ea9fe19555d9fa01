"""The table read by every move and pushed board, compiled once (games/tables/prepared.py):
the same instances as the queryset it stands for, in every state of a table, and the same
answers at the edges (no such table, a key no column holds, no transaction). The rows
every move writes, their SQL written once: the same rows as ``save`` writes."""

from __future__ import annotations

import datetime
import random

import pytest
import time_machine
from django.db import DatabaseError, connection, transaction
from django.db.models import F
from django.db.models.signals import pre_save
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Vacation
from games.models import Action, Table, Trick
from games.tables import boards, pages, selectors
from games.tables.clock import latest_leave
from games.tables.prepared import Prepared, insert, save_fields
from games.tables.writes import ServiceError, lock_table
from tests.factories import make_table, make_users, play_random_move, started_table

pytestmark = pytest.mark.django_db


def values(instance) -> list:
    return [getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields]


def assert_same(prepared: Table, orm: Table) -> None:
    """Every column of the table, of its current hand and of that hand's game."""
    assert type(prepared) is Table and not prepared._state.adding
    assert values(prepared) == values(orm)
    if orm.current_hand_id is None:
        assert prepared.current_hand is None
        return
    assert values(prepared.current_hand) == values(orm.current_hand)
    assert values(prepared.current_hand.game) == values(orm.current_hand.game)


def orm_reading(table_id: int) -> Table:
    tables = Table.objects.select_related("current_hand__game").annotate(
        latest_leave=latest_leave()
    )
    return tables.get(pk=table_id)


def orm_only(table_id: int) -> Table:
    return Table.objects.only(*pages.ACCESS_FIELDS).get(pk=table_id)


def tables_in_every_state() -> list[Table]:
    lobby = make_table(players={0: make_users(1)[0]})
    playing = started_table()
    rng = random.Random(4)
    for _ in range(40):  # into the first hand's tricks, a contract taken
        play_random_move(playing, rng)
    bots = started_table(bots={position: "heuristic" for position in range(4)})
    finished = started_table()
    Table.objects.filter(pk=finished.pk).update(status=Table.Status.FINISHED, turn=None)
    return [lobby, playing, bots, finished]


def test_the_prepared_readings_are_the_querysets_instances_in_every_state():
    for table in tables_in_every_state():
        orm = orm_reading(table.pk)
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            locked = lock_table(table.pk, clock=True)
        assert len([q for q in queries if "games_table" in q["sql"]]) == 1
        assert_same(locked, orm)
        assert locked.latest_leave == orm.latest_leave
        with transaction.atomic():
            assert_same(lock_table(table.pk), orm)
        assert_same(boards._TABLE(table.pk)[0], orm)
        to_act_at = pages._TO_ACT_AT(table.pk)[0]
        assert {f: getattr(to_act_at, f) for f in pages.ACCESS_FIELDS if f != "pk"} == {
            f: getattr(orm, f) for f in pages.ACCESS_FIELDS if f != "pk"
        }
        assert to_act_at.get_deferred_fields() == orm_only(table.pk).get_deferred_fields()
        if orm.current_hand_id is not None:
            log = Action.objects.filter(hand=orm.current_hand_id).order_by("seq")
            assert selectors._PAYLOADS(orm.current_hand_id, orm.version) == list(
                log.values_list("payload", flat=True)
            )
            middle = orm.version - 5
            assert selectors._PAYLOADS(orm.current_hand_id, middle) == list(
                log.filter(seq__lte=middle).values_list("payload", flat=True)
            )


def test_a_vacation_counts_until_its_last_day_whatever_day_the_query_was_compiled():
    """The compiled query holds no date: whether someone seated is on leave is decided
    each time, against the day it is."""
    table = started_table()
    user = table.seats.get(position=1).user
    today = timezone.localdate()
    Vacation.objects.create(user=user, start=today, end=today + datetime.timedelta(days=2))
    with transaction.atomic():
        assert lock_table(table.pk, clock=True).anyone_on_leave is True
    later = timezone.now() + datetime.timedelta(days=2)
    with time_machine.travel(later, tick=False), transaction.atomic():
        assert lock_table(table.pk, clock=True).anyone_on_leave is True
    with time_machine.travel(later + datetime.timedelta(days=1), tick=False), transaction.atomic():
        assert lock_table(table.pk, clock=True).anyone_on_leave is False
    Vacation.objects.all().delete()
    with transaction.atomic():
        assert lock_table(table.pk, clock=True).anyone_on_leave is False


@pytest.mark.parametrize("key", [0, -1, 10**6, 2**63, 2**70, -(2**70)])
def test_no_such_table_is_a_404_or_none_even_for_a_key_no_column_holds(key):
    with transaction.atomic():
        assert lock_table(key, missing_ok=True) is None
        with pytest.raises(ServiceError) as refused:
            lock_table(key)
    assert refused.value.status == 404
    assert boards._TABLE(key) == []
    assert pages._TO_ACT_AT(key) == []
    assert selectors._PAYLOADS(key, 10) == []


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_as_by_the_queryset():
    """Where the database locks rows (PostgreSQL); SQLite locks the whole database for a
    write transaction, and neither refuses there."""
    table = started_table()
    if not connection.features.has_select_for_update:
        lock_table(table.pk)
        Table.objects.select_for_update().filter(pk=table.pk).first()
        return
    with pytest.raises(TransactionManagementError):
        lock_table(table.pk)
    with pytest.raises(TransactionManagementError):
        Table.objects.select_for_update().filter(pk=table.pk).first()


def test_a_description_must_hold_each_key_once_and_give_instances_or_flat_values():
    twice = Prepared(lambda key: Table.objects.filter(pk=key, version=key))
    with pytest.raises(ValueError, match="once"):
        twice(1)
    unused = Prepared(lambda key, other: Table.objects.filter(pk=key), keys=2)
    with pytest.raises(ValueError, match="once"):
        unused(1, 2)
    pairs = Prepared(lambda key: Table.objects.filter(pk=key).values_list("pk", "version"))
    with pytest.raises(ValueError, match="flat values"):
        pairs(1)
    with pytest.raises(TypeError):
        Prepared(lambda key: Table.objects.filter(pk=key))(1, 2)


def row(model, pk, *, skip=("id", "created_at", "updated_at")) -> dict:
    found = model.objects.filter(pk=pk).values().get()
    return {name: value for name, value in found.items() if name not in skip}


def test_the_table_written_by_a_move_is_the_row_save_writes():
    """Two tables in the same state take the same changes, one through ``save``, the
    other through ``save_fields``: the same row, ``updated_at`` moved on by both."""
    written, saved = started_table(), started_table()
    fields = ["version", "turn", "deadline", "updated_at", "unattended_since"]
    deadline = timezone.now() + datetime.timedelta(days=2, microseconds=7)
    for table, write in ((written, save_fields), (saved, Table.save)):
        before = table.updated_at
        table.version += 3
        table.turn = 2
        table.deadline = deadline
        table.unattended_since = None
        if write is Table.save:
            table.save(update_fields=fields)
        else:
            with CaptureQueriesContext(connection) as queries:
                save_fields(table, fields)
            assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE")
        assert table.updated_at > before
        assert Table.objects.get(pk=table.pk).updated_at == table.updated_at
    skip = ("id", "created_at", "updated_at", "invite_token", "current_hand_id")
    assert row(Table, written.pk, skip=skip) == row(Table, saved.pk, skip=skip)
    assert Table.objects.get(pk=written.pk).deadline == deadline


def test_the_action_and_trick_written_by_a_move_are_the_rows_create_writes():
    table = started_table()
    hand = table.current_hand
    for seq, payload in ((901, {"action": "J♠", "déjà": [1, None]}), (902, {})):
        insert(
            Action(
                table=table, seq=seq, hand=hand, seat=1, source="bot", kind="play", payload=payload
            )
        )
        Action.objects.create(
            table=table, seq=seq + 50, hand=hand, seat=1, source="bot", kind="play", payload=payload
        )
        written = Action.objects.get(table=table, seq=seq)
        created = Action.objects.get(table=table, seq=seq + 50)
        assert row(Action, written.pk, skip=("id", "seq", "created_at")) == row(
            Action, created.pk, skip=("id", "seq", "created_at")
        )
        assert written.payload == payload
        assert abs(written.created_at - created.created_at) < datetime.timedelta(seconds=5)
    insert(Trick(hand=hand, number=8, leader=2, cards="7SJSASTS", winner=3, points=34))
    trick = Trick.objects.get(hand=hand, number=8)
    assert (trick.leader, trick.cards, trick.winner, trick.points) == (2, "7SJSASTS", 3, 34)


def test_a_write_with_receivers_or_an_expression_goes_through_save():
    table = started_table()
    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.seq)

    pre_save.connect(receiver, sender=Action)
    try:
        insert(Action(table=table, seq=950, hand=table.current_hand, source="bot", kind="x"))
    finally:
        pre_save.disconnect(receiver, sender=Action)
    assert heard == [950] and Action.objects.filter(table=table, seq=950).exists()
    version = table.version
    table.version = F("version") + 1
    save_fields(table, ["version"])
    assert Table.objects.get(pk=table.pk).version == version + 1


def test_a_table_gone_is_an_error_as_with_save():
    table = started_table()
    Table.objects.filter(pk=table.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        save_fields(table, ["version"])
