"""Tables started before the presets changed (issue 12) keep their rules: migration 0008.

The database is filled the way the code before the change filled it: tables created from
the old presets (a table stores only what differs from its preset, so none of the changed
options), started, and hands played whose replay depends on the old values (a second-round
take of the turned suit in classique and moderne, 81 against 81 in annonces, a stekius
taker dedans with its belote). The rows are written through ``games.tables.service`` with
the old values given as options, then stored in the old shape: the diff against the old
presets, which is what the old code wrote. Replayed under today's presets, those hands
differ from their rows; once migration 0008's data step has run (``pin``, and ``unpin``
for its reverse), the old values are pinned in the options of every table that left the
lobby and every tournament past its registration, and ``belote_verify`` passes.

The schema is today's: later migrations add columns (``Table.seats_version``) that the
models write, so the database cannot be taken back to 0007 and filled through them. The
data step reads and writes only ``options`` and ``status``, which 0007 already had.
tests/legacy migrates a whole database of older code for real.
"""

from __future__ import annotations

import random
from importlib import import_module
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from games import rules as engine
from games.models import Table, Tournament
from games.rules import PRESETS
from games.tables import lobby, service
from games.tables.selectors import hand_state
from games.tables.verification import verify_table
from tests.factories import (
    act,
    make_table,
    make_users,
    play_random_move,
    play_tricks,
    seated_user,
)
from tests.rules.builders import seat
from tests.rules.tricks import deck_for_tricks, hearts_deal
from tests.tournaments.helpers import current_matches, make_tournament, play_round, started

pytestmark = pytest.mark.django_db(transaction=True)

# The presets' values before issue 12, written out (not read from the migration).
OLD_VALUES = {
    "classique": {"second_round_excludes_turned": False},
    "moderne": {"second_round_excludes_turned": False},
    "stekius": {"second_round_excludes_turned": False, "belote_kept": True},
    "annonces": {"litige": "held"},
}
OLD_PRESETS = {name: PRESETS[name].with_options(**old) for name, old in OLD_VALUES.items()}
SORTED_DECK = list(range(32))  # dealt by N: JD turned (see tests/games/test_service.py)


PINNING = import_module("games.migrations.0008_pin_rules_of_started_tables")


def pin() -> None:
    """Migration 0008's data step, forwards."""
    with connection.schema_editor() as editor:
        PINNING.pin(apps, editor)


def unpin() -> None:
    """Migration 0008's data step, backwards."""
    with connection.schema_editor() as editor:
        PINNING.unpin(apps, editor)


def old_table(preset: str, *, deck, first_dealer: int, options: dict | None = None) -> Table:
    """A table started as the old code started it: its rules are the old preset's."""
    options = {**OLD_VALUES[preset], **(options or {})}
    table = make_table(preset=preset, players=dict(enumerate(make_users(4))), options=options)
    service.start_table(table_id=table.pk, first_dealer=first_dealer, deck=deck)
    return table


def store_in_the_old_shape(model, pk: int) -> None:
    """The options the old code stored: what differs from the old preset."""
    row = model.objects.get(pk=pk)
    old_options = row.rules.diff(OLD_PRESETS[row.preset])
    model.objects.filter(pk=pk).update(options=old_options)


def finish_hand(table: Table, rng: random.Random) -> None:
    """Random legal moves until the table's current hand is over and the next dealt."""
    table.refresh_from_db()
    hand = table.current_hand_id
    while table.current_hand_id == hand and table.status == Table.Status.PLAYING:
        assert play_random_move(table, rng).applied
        table.refresh_from_db()


def turned_suit_in_round_two(preset: str, bids: list[str]) -> Table:
    """N deals the sorted deck (JD turned); W names diamonds in the second round."""
    table = old_table(preset, deck=SORTED_DECK, first_dealer=seat("N"))
    act(table, *bids)
    table.refresh_from_db()
    assert (table.current_hand.contract, table.current_hand.taker) == ("D", seat("W"))
    finish_hand(table, random.Random(table.pk))
    return table


def annonces_81_each() -> Table:
    """W deals; S and W pass, N takes JH; NS make 81 against 81: the old litige."""
    tricks = hearts_deal(81)
    deck = deck_for_tricks(OLD_PRESETS["annonces"], "W", tricks, "JH")
    table = old_table("annonces", deck=deck, first_dealer=seat("W"))
    act(table, "pass", "pass", "take")
    play_tricks(table, tricks)
    table.refresh_from_db()
    game = table.current_hand.game
    assert [game.scores, game.held] == [(0, 81), 81]
    return table


def stekius_dedans_with_belote() -> Table:
    """E deals; N takes JH and makes 62 and the belote against 100: dedans, and the old
    stekius left NS their belote."""
    tricks = hearts_deal(62, "NS")
    deck = deck_for_tricks(OLD_PRESETS["stekius"], "E", tricks, "JH")
    table = old_table("stekius", deck=deck, first_dealer=seat("E"))
    act(table, "take")
    play_tricks(table, tricks)
    table.refresh_from_db()
    assert table.current_hand.game.scores == (20, 162)
    return table


def test_started_tables_keep_the_rules_they_started_with():
    classique = turned_suit_in_round_two("classique", ["pass"] * 4 + ["take D"])
    moderne = turned_suit_in_round_two("moderne", ["pass"] * 4 + ["take D"] + ["pass"] * 3)
    annonces = annonces_81_each()
    stekius = stekius_dedans_with_belote()
    # A finished classique game, and a table still in the lobby.
    finished = old_table("classique", deck=SORTED_DECK, first_dealer=0, options={"target": 501})
    act(finished, *["pass"] * 4, "take D")
    rng = random.Random(7)
    while finished.status == Table.Status.PLAYING:
        assert play_random_move(finished, rng).applied
        finished.refresh_from_db()
    waiting = make_table(preset="classique", players=dict(enumerate(make_users(4))))
    started_tables = [classique, moderne, annonces, stekius, finished]
    for table in started_tables:
        store_in_the_old_shape(Table, table.pk)
    assert Table.objects.get(pk=classique.pk).options == {}
    assert Table.objects.get(pk=finished.pk).options == {"target": 501}

    # Read with today's presets, the old rows no longer replay.
    for table in [classique, moderne, annonces, stekius]:
        assert verify_table(Table.objects.get(pk=table.pk)), table.preset
    with pytest.raises(CommandError):
        call_command("belote_verify", stdout=StringIO(), stderr=StringIO())

    pin()

    options = dict(Table.objects.values_list("pk", "options"))
    assert options[classique.pk] == {"second_round_excludes_turned": False}
    assert options[moderne.pk] == {"second_round_excludes_turned": False}
    assert options[annonces.pk] == {"litige": "held"}
    assert options[stekius.pk] == {"second_round_excludes_turned": False, "belote_kept": True}
    assert options[finished.pk] == {"target": 501, "second_round_excludes_turned": False}
    assert options[waiting.pk] == {}, "a table in the lobby plays today's preset"
    for table in Table.objects.all():
        assert verify_table(table) == [], table.preset
    call_command("belote_verify", stdout=StringIO())

    # The tables in play go on under their old rules, and a rematch keeps them.
    for table in [classique, annonces]:
        finish_hand(table, random.Random(table.pk + 1))
        assert verify_table(Table.objects.get(pk=table.pk)) == []
    lobby.rematch(table_id=finished.pk, by=seated_user(finished, 0), deck=SORTED_DECK)
    finished.refresh_from_db()
    assert finished.status == Table.Status.PLAYING
    assert not finished.rules.second_round_excludes_turned
    act(finished, *["pass"] * 4, "take D")  # the sorted deck turns JD, whoever deals

    # The table from the lobby starts with today's classique: diamonds are out in round two.
    service.start_table(table_id=waiting.pk, first_dealer=seat("N"), deck=SORTED_DECK)
    act(waiting, *["pass"] * 4)
    waiting.refresh_from_db()
    assert "take D" not in [str(a) for a in engine.legal_actions(hand_state(waiting))]
    call_command("belote_verify", stdout=StringIO())


def test_running_tournaments_keep_their_rules_registering_ones_take_todays():
    running, organiser = started(teams=4, options={"target": 500, **OLD_VALUES["classique"]})
    registering = make_tournament(running.club, name="Printemps", options={"target": 500})
    tables = [match.table for match in current_matches(running)]
    for table in tables:
        store_in_the_old_shape(Table, table.pk)
    store_in_the_old_shape(Tournament, running.pk)
    assert Tournament.objects.get(pk=running.pk).options == {"target": 500}

    pin()

    running.refresh_from_db()
    registering.refresh_from_db()
    pinned = {"target": 500, "second_round_excludes_turned": False}
    assert running.options == pinned
    assert registering.options == {"target": 500}
    assert [Table.objects.get(pk=t.pk).options for t in tables] == [pinned] * len(tables)
    # Reversed, the migration gives the old code back the options it wrote.
    unpin()
    assert Tournament.objects.get(pk=running.pk).options == {"target": 500}
    assert [Table.objects.get(pk=t.pk).options for t in tables] == [{"target": 500}] * len(tables)
    pin()
    running.refresh_from_db()
    assert running.options == pinned
    # The next round's tables are made from the tournament's options: the old rules still.
    play_round(running)
    following = [match.table for match in current_matches(running)]
    assert following
    assert all(not table.rules.second_round_excludes_turned for table in following)
    call_command("belote_verify", stdout=StringIO())
