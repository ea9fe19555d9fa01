"""The clock of the player to act: a deadline on the table, the timeout policy when it passes.

Issue: "A time per move per table. When it runs out, the table's policy applies: the
heuristic bot plays for the absent player (default), or the player's team forfeits the
game after N timeouts. Every timeout is recorded and shown."
"""

import datetime
import random

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.models import Action, Table, TimeoutPolicy
from games.tables import service
from games.tables.verification import verify_table
from games.timing.sweep import sweep
from tests.factories import play_random_move
from tests.tables.helpers import client_for
from tests.timing.helpers import after, fresh, playing_table, timeout_moves

pytestmark = pytest.mark.django_db


def test_the_deadline_is_the_time_per_move_after_the_move_while_a_human_is_to_act():
    table = playing_table()
    start = table.actions.get(kind="start").created_at

    late = table.deadline - start - datetime.timedelta(seconds=table.move_seconds)
    assert datetime.timedelta(0) <= late < datetime.timedelta(seconds=1)


def test_no_deadline_while_a_bot_is_to_act():
    table = playing_table(bots={0: "random", 1: "random", 2: "random", 3: "random"})

    assert table.deadline is None


def test_the_expired_deadline_plays_the_heuristic_move_for_the_seat_as_a_timeout():
    table = playing_table()
    seat = table.turn

    with after(table.deadline):
        outcome = service.expire_deadline(table.pk, table.version)

    assert outcome.applied
    (move,) = timeout_moves(table)
    assert (move.seat, move.source, move.actor) == (seat, "timeout", None)
    assert fresh(table).seats.get(position=seat).timeouts == 1
    assert table.version == outcome.version and table.deadline > timezone.now()


def test_before_the_deadline_nothing_happens():
    table = playing_table()

    with after(table.deadline, seconds=-1):
        assert service.expire_deadline(table.pk, table.version) is None
        assert sweep() == 0

    assert timeout_moves(table) == []


def test_the_bot_never_moves_for_a_player_whose_move_is_already_in():
    table = playing_table()
    old_version, old_deadline = table.version, table.deadline
    with after(old_deadline, seconds=-10):  # just in time
        play_random_move(table, random.Random(1))

    with after(old_deadline):
        assert service.expire_deadline(table.pk, old_version) is None
        assert service.play_bot_move(table.pk, old_version) is None
        assert sweep() == 0

    assert timeout_moves(table) == []
    assert fresh(table).version == old_version + 1


def test_the_task_and_the_sweep_together_play_the_move_once():
    table = playing_table()

    with after(table.deadline):
        first = service.expire_deadline(table.pk, table.version)
        assert sweep() == 0  # the next deadline has not passed
        assert service.expire_deadline(table.pk, table.version) is None

    assert first.applied and len(timeout_moves(table)) == 1


def forfeit_table(after_timeouts: int) -> Table:
    table = playing_table()
    Table.objects.filter(pk=table.pk).update(
        timeout_policy=TimeoutPolicy.FORFEIT, forfeit_after=after_timeouts
    )
    return fresh(table)


def test_with_the_forfeit_policy_the_team_loses_after_n_timeouts():
    table = forfeit_table(2)
    while fresh(table).status == Table.Status.PLAYING:
        with after(table.deadline):
            assert service.expire_deadline(table.pk, table.version).applied

    forfeit = table.actions.order_by("seq").last()
    loser = forfeit.seat
    assert forfeit.kind == "forfeit" and forfeit.source == Action.Source.TIMEOUT
    assert table.seats.get(position=loser).timeouts == 2
    game = table.games.get()
    assert game.winner == 1 - loser % 2 and game.finished_at is not None
    assert (table.turn, table.deadline) == (None, None)
    # Each timeout before the last one was a move played by the bot for its seat.
    moves = [a for a in timeout_moves(table) if a.kind != "forfeit"]
    assert len(moves) == sum(seat.timeouts for seat in table.seats.all()) - 1


def test_a_forfeited_game_passes_belote_verify_and_a_forged_winner_does_not(capsys):
    table = forfeit_table(1)
    with after(table.deadline):
        service.expire_deadline(table.pk, table.version)
    assert fresh(table).status == Table.Status.FINISHED

    assert verify_table(table) == []
    call_command("belote_verify")
    game = table.games.get()
    game.winner = 1 - game.winner
    game.save()
    assert any("winner" in problem for problem in verify_table(table))


def test_the_board_shows_the_timeouts_and_the_deadline():
    table = playing_table()
    seat = table.seats.select_related("user").get(position=table.turn)
    with after(table.deadline):
        service.expire_deadline(table.pk, table.version)
    table = fresh(table)

    html = client_for(seat.user).get(f"/tables/{table.pk}/").text

    assert 'data-timeouts="1"' in html and "1 temps dépassé" in html
    assert f'data-countdown="{int(table.deadline.timestamp() * 1000)}"' in html
