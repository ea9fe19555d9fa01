"""The analysis of a finished hand (games/tables/analysis.py): queued on the commit of the
move that ends the hand, run by the worker of the queue ``analysis``, stored once, shown
in the hand's replay ("Le 9 d'atout aurait gagné 14 points."), never for a hand in play
nor to someone who may not see the table."""

from __future__ import annotations

import datetime
import random
import re

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import rules as engine
from games.bots.analysis import analyse
from games.tables import analysis
from games.tables.models import Hand, HandAnalysis, Table
from games.tables.selectors import deck_cards, hand_actions
from tests.factories import make_user, play_random_move, seated_user, started_table
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick(settings):
    # The last four tricks only: a few hundredths of a second in pure Python.
    settings.BELOTE_ANALYSIS_FIRST_TRICK = 5


def first_played_hand(table: Table, seed: int) -> Hand:
    """Random legal moves until a hand with card play is over (a hand nobody took is
    dealt again); that hand."""
    rng = random.Random(seed)
    while True:
        table.refresh_from_db()
        hand = table.current_hand
        while not Hand.objects.get(pk=hand.pk).is_over:
            play_random_move(table, rng)
            table.refresh_from_db()
        hand.refresh_from_db()
        if hand.contract:
            return hand


def queued_analyses() -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=analysis.analyse_hand_task.module_path))


def run_analysis_worker(keep_signal_handlers) -> None:
    call_command(
        "belote_worker", "--batch", "--no-startup-delay", "--queue-name", "analysis", verbosity=0
    )


def replay_page(user, hand: Hand, step: int | None = None) -> str:
    table = hand.game.table
    path = f"/tables/{table.pk}/donnes/{hand.game.number}/{hand.number}/"
    if step is not None:
        path += f"?pli={step}"
    response = client_for(user).get(path)
    assert response.status_code == 200
    return response.content.decode()


# transaction=True: the worker checks its connection between tasks (real commits, so
# the analysis is queued on the commit of the move itself).
@pytest.mark.django_db(transaction=True)
def test_a_finished_hand_is_analysed_by_the_worker_of_its_own_queue(keep_signal_handlers):
    table = started_table()
    hand = first_played_hand(table, seed=4)

    rows = queued_analyses()
    assert [(r.queue_name, r.args_kwargs["kwargs"]) for r in rows] == [
        ("analysis", {"hand_id": hand.pk})
    ]
    assert rows[0].priority < 0
    # The worker of the other tasks (bots, clocks) leaves it alone.
    call_command("belote_worker", "--batch", "--no-startup-delay", verbosity=0)
    assert not HandAnalysis.objects.filter(hand=hand).exists()

    run_analysis_worker(keep_signal_handlers)

    stored = HandAnalysis.objects.get(hand=hand)
    assert DBTaskResult.objects.get(pk=rows[0].pk).status == TaskResultStatus.SUCCESSFUL
    assert stored.first_trick == 5
    # The notes are the pure analysis of the hand replayed from its log, by action seq.
    start = engine.deal(table.rules, hand.dealer, deck_cards(hand.deck))
    expected = analyse(start, hand_actions(hand), first_trick=5)
    assert [(n["trick"], n["seat"], n["gain"], n["spared"]) for n in stored.notes] == [
        (n.trick, n.seat, n.gain, n.spared) for n in expected
    ]
    seqs = dict(hand.actions.values_list("seq", "payload"))
    for note in stored.notes:
        assert seqs[note["seq"]]["action"] == f"play {note['played']}"


def test_analysing_twice_late_or_after_the_hand_went_does_nothing(
    django_capture_on_commit_callbacks,
):
    table = started_table()
    with django_capture_on_commit_callbacks(execute=True):
        hand = first_played_hand(table, seed=4)
    first = analysis.analyse_hand(hand.pk)
    assert first is not None
    assert analysis.analyse_hand(hand.pk) is None  # already there: not computed again
    assert HandAnalysis.objects.filter(hand=hand).count() == 1

    assert analysis.analyse_hand(2**62) is None  # no such hand (deleted)
    in_play = Table.objects.get(pk=table.pk).current_hand
    assert not in_play.is_over
    assert analysis.analyse_hand(in_play.pk) is None
    assert not HandAnalysis.objects.filter(hand=in_play).exists()


# transaction=True: the worker checks its connection between tasks (real commits, so
# the analysis is queued on the commit of the move itself).
@pytest.mark.django_db(transaction=True)
def test_the_queued_analysis_of_a_hand_deleted_since_does_nothing(keep_signal_handlers):
    table = started_table()
    first_played_hand(table, seed=4)
    table.delete()  # its games and hands with it

    run_analysis_worker(keep_signal_handlers)

    assert [r.status for r in queued_analyses()] == [TaskResultStatus.SUCCESSFUL]
    assert not HandAnalysis.objects.exists()


def test_a_failure_to_queue_the_analysis_never_breaks_the_move(
    django_capture_on_commit_callbacks, settings
):
    table = started_table()
    # A worker set up without the queue "analysis": queueing the task is refused.
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
    }
    with django_capture_on_commit_callbacks(execute=True):
        hand = first_played_hand(table, seed=4)

    assert Hand.objects.get(pk=hand.pk).points_ns is not None  # the move is saved
    table.refresh_from_db()
    assert table.current_hand_id != hand.pk  # and the next hand dealt
    assert queued_analyses() == []


def test_the_replay_names_the_better_card_and_the_points_it_would_have_won(
    django_capture_on_commit_callbacks,
):
    table = started_table()
    with django_capture_on_commit_callbacks(execute=True):
        hand = first_played_hand(table, seed=4)
    player = seated_user(table, 0)

    page = replay_page(player, hand)
    assert "Analyse en cours" in page  # the task has not run yet
    # It asks again by itself (htmx, every 5 s) for its own section, until it is there.
    path = f"/tables/{table.pk}/donnes/{hand.game.number}/{hand.number}/"
    assert f'hx-get="{path}?zone=analyse" hx-trigger="every 5s"' in page
    asked = client_for(player).get(f"{path}?zone=analyse", headers={"hx-request": "true"})
    assert asked.status_code == 200
    assert asked.text.lstrip().startswith('<section class="board analysis" id="analysis"')
    assert "Analyse en cours" in asked.text

    # A note as the task stores it: North played a valet at trick 6 where the 9 of the
    # trump would have won 14 points.
    trump = hand.contract if hand.contract in ("S", "H", "D", "C") else None
    best = f"9{trump}" if trump else "9H"
    played, played_words = (
        ("JD", "le valet de carreau") if trump == "S" else ("JS", "le valet de pique")
    )
    HandAnalysis.objects.create(
        hand=hand,
        first_trick=5,
        notes=[
            {
                "seq": 1,
                "seat": 0,
                "trick": 6,
                "played": played,
                "best": [best],
                "gain": 14,
                "spared": 14,
            }
        ],
    )
    page = replay_page(player, hand)
    said = (
        "Le 9 d&#x27;atout aurait gagné 14 points."
        if trump
        else "Le 9 de cœur aurait gagné 14 points."
    )
    assert f'Nord a joué {played_words}. <strong class="analysis-text">{said}</strong>' in page
    assert "à partir du pli 5" in page
    assert "Analyse en cours" not in page and "every 5s" not in page
    asked = client_for(player).get(f"{path}?zone=analyse", headers={"hx-request": "true"})
    assert said in asked.text and "hx-trigger" not in asked.text  # there: no more asking
    # The step of that trick shows it too, and the table of tricks marks the card.
    step = replay_page(player, hand, step=6)
    assert 'class="side-block analysis-step"' in step and said in step
    assert 'class="side-block analysis-step"' not in replay_page(player, hand, step=5)


def test_the_real_notes_are_shown_and_marked_in_french_and_in_english(
    django_capture_on_commit_callbacks,
):
    table = started_table()
    with django_capture_on_commit_callbacks(execute=True):
        hand = first_played_hand(table, seed=4)
    stored = analysis.analyse_hand(hand.pk)
    player = seated_user(table, 2)
    page = replay_page(player, hand)
    assert page.count('class="analysis-note"') == len(stored.notes)
    assert page.count('class="played-by is-costly"') == len(stored.notes)
    if not stored.notes:
        assert "rien à revoir" in page
    for note in stored.notes:
        assert f'data-card="{note["played"]}"' in page

    player.language = "en"
    player.save()
    english = replay_page(player, hand)
    assert "Analysis of the hand" in english and "Analyse de la donne" not in english
    said = re.findall(r'<strong class="analysis-text">([^<]*)</strong>', english)
    assert len(said) == len(stored.notes)
    assert all(
        re.fullmatch(
            r"(The .* would have won|With .*, the other team would have scored) \d+ points?\.", t
        )
        for t in said
    ), said
    assert english.count('class="analysis-note"') == len(stored.notes)


def test_nothing_is_promised_for_a_hand_long_over_without_analysis(
    django_capture_on_commit_callbacks, settings
):
    table = started_table()
    with django_capture_on_commit_callbacks(execute=True):
        hand = first_played_hand(table, seed=4)
    long_ago = timezone.now() - datetime.timedelta(seconds=settings.BELOTE_ANALYSIS_WAIT_SECONDS)
    Hand.objects.filter(pk=hand.pk).update(finished_at=long_ago)
    page = replay_page(seated_user(table, 0), hand)
    assert "Analyse en cours" not in page and 'id="analysis"' not in page


def test_no_analysis_for_a_hand_in_play_nor_for_someone_who_may_not_see_the_table(
    django_capture_on_commit_callbacks,
):
    table = started_table()
    with django_capture_on_commit_callbacks(execute=True):
        hand = first_played_hand(table, seed=4)
    analysis.analyse_hand(hand.pk)
    table.refresh_from_db()
    in_play = table.current_hand
    player = seated_user(table, 0)
    path = f"/tables/{table.pk}/donnes/1/{in_play.number}/"
    assert client_for(player).get(path).status_code == 404
    assert not HandAnalysis.objects.filter(hand=in_play).exists()
    # The table page of the hand in play says nothing of any analysis.
    board = client_for(player).get(f"/tables/{table.pk}/").content.decode()
    assert "aurait gagné" not in board and "Analyse de la donne" not in board
    # A stranger to this private table: a 404, nothing of the finished hand either.
    stranger = client_for(make_user("inconnu"))
    response = stranger.get(f"/tables/{table.pk}/donnes/1/{hand.number}/")
    assert response.status_code == 404
    assert b"aurait" not in response.content


def test_the_sweep_queues_again_an_analysis_lost_on_its_way():
    """A hand whose analysis was never queued (the queue failed at the move's commit) or
    whose worker died in the middle of it is queued again by the sweep, once; a hand
    analysed, waiting, or older than the replay waits for is left alone."""
    from games.timing.sweep import sweep

    table = started_table()
    hand = first_played_hand(table, seed=4)  # tests: on_commit callbacks never run
    assert queued_analyses() == []
    ended = hand.finished_at

    with time_machine.travel(ended + datetime.timedelta(minutes=5), tick=False):
        assert analysis.requeue_lost() == 0  # too early: its task may still come
    with time_machine.travel(ended + datetime.timedelta(minutes=11), tick=False):
        sweep()
        assert [r.args_kwargs["kwargs"] for r in queued_analyses()] == [{"hand_id": hand.pk}]
        assert analysis.requeue_lost() == 0  # waiting now: not twice

    # Its worker died while it ran: after LOST_AFTER it is queued again.
    DBTaskResult.objects.update(
        status=TaskResultStatus.RUNNING, started_at=ended + datetime.timedelta(minutes=11)
    )
    with time_machine.travel(ended + datetime.timedelta(minutes=15), tick=False):
        assert analysis.requeue_lost() == 0
    with time_machine.travel(ended + datetime.timedelta(minutes=22), tick=False):
        assert analysis.requeue_lost() == 1

    analysis.analyse_hand(hand.pk)
    DBTaskResult.objects.all().delete()
    with time_machine.travel(ended + datetime.timedelta(minutes=30), tick=False):
        assert analysis.requeue_lost() == 0  # analysed
    HandAnalysis.objects.all().delete()
    with time_machine.travel(ended + datetime.timedelta(hours=2), tick=False):
        assert analysis.requeue_lost() == 0  # older than the replay waits for


def test_the_command_queues_the_hands_older_than_the_sweep_reaches(admin_client):
    """``belote_analyse``: the finished hands of the last days without an analysis are
    queued (once), the others left alone; the admin lists the stored analyses."""
    import io

    table = started_table()
    hand = first_played_hand(table, seed=4)
    Hand.objects.filter(pk=hand.pk).update(finished_at=timezone.now() - datetime.timedelta(days=3))

    def command(*args):
        out = io.StringIO()
        call_command("belote_analyse", *args, stdout=out)
        return out.getvalue()

    assert command("--days", "2") == "0 hand(s) queued for analysis\n"
    assert command("--days", "5", "--table", str(table.pk)) == "1 hand(s) queued for analysis\n"
    assert command("--days", "5") == "0 hand(s) queued for analysis\n"  # waiting already
    assert [r.args_kwargs["kwargs"] for r in queued_analyses()] == [{"hand_id": hand.pk}]
    with pytest.raises(CommandError):
        command("--table", str(10**9))
    with pytest.raises(CommandError):
        command("--days", "-1")

    analysis.analyse_hand(hand.pk)
    listed = admin_client.get("/admin/games/handanalysis/")
    assert listed.status_code == 200 and str(hand) in listed.text
    shown = admin_client.get(f"/admin/games/handanalysis/{hand.pk}/change/")
    assert shown.status_code == 200
    assert admin_client.get("/admin/games/handanalysis/add/").status_code == 403


@pytest.fixture
def admin_client(client):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_superuser("boss", "b@example.org", "pw"))
    return client
