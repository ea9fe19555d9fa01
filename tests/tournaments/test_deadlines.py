"""Round deadlines: past ``round_hours`` the sweep decides every unfinished match by
forfeit (more timeouts loses; else behind in the game loses; else the better seed wins),
abandons its table and pairs the next round; a second sweep does nothing more. Also: a
game lost on time at its table is a forfeit, an organiser may close a round early, and
a tournament table is not replayed.

Time is travelled with time_machine (tests/timing/helpers.after), never waited for.
"""

from __future__ import annotations

import datetime
import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.bots import choose_action
from games.models import Action, Table, TimeoutPolicy, Tournament, TournamentMatch
from games.tables import lobby, service
from games.tables.selectors import hand_state
from games.tables.service import ServiceError
from games.tables.verification import verify_table
from games.tournaments import service as tournaments
from tests.tables.helpers import client_for
from tests.timing.helpers import after
from tests.tournaments.helpers import matches_of, play_table, started

pytestmark = pytest.mark.django_db


def snapshot(tournament: Tournament) -> list[tuple]:
    """What a second sweep must leave as it is."""
    rows = TournamentMatch.objects.filter(round__tournament=tournament).order_by("pk")
    tables = Table.objects.filter(tournament_match__round__tournament=tournament)
    return [
        list(rows.values_list("pk", "winner_id", "result", "score_one", "score_two")),
        list(tables.order_by("pk").values_list("pk", "status", "version")),
        list(tournament.round_set.values_list("number", "finished_at", "deadline")),
    ]


def play_until_one_team_leads(table: Table) -> None:
    """The seated players (moved by the bot) play hands until the game score differs."""
    rng = random.Random(1)
    users = {seat.position: seat.user for seat in table.seats.select_related("user")}
    while len(set(table.games.get().scores)) == 1:
        table.refresh_from_db()
        state = hand_state(table)
        service.submit(
            table_id=table.pk,
            actor=users[state.turn],
            action=choose_action(state, "heuristic", rng),
            expected_version=table.version,
        )


def test_the_sweep_closes_an_overdue_round_by_forfeits_and_pairs_the_next():
    tournament, _ = started(Tournament.Format.SWISS, teams=4, rounds=2, round_hours=24)
    first, second = matches_of(tournament)
    deadline = tournament.round_set.get().deadline
    # Match 1: the clock of the seat to act runs out once, a timeout for its team.
    with after(first.table.deadline):
        service.expire_deadline(first.table.pk, first.table.version)
    late = first.table.actions.get(source=Action.Source.TIMEOUT).seat
    # Match 2: no timeout, hands played until one team is ahead.
    play_until_one_team_leads(second.table)
    second.table.refresh_from_db()
    score = second.table.games.get().scores
    assert score[0] != score[1]

    with after(deadline):
        assert tournaments.sweep_round_deadlines() == 1
        first.refresh_from_db()
        second.refresh_from_db()

    assert first.result == second.result == TournamentMatch.Result.FORFEIT
    late_team = first.team_one_id if late % 2 == 0 else first.team_two_id
    assert first.winner_id != late_team, "the team with more timeouts loses"
    ahead = second.team_one_id if score[0] > score[1] else second.team_two_id
    assert second.winner_id == ahead, "then the team ahead in the game wins"
    assert (second.score_one, second.score_two) == score
    for match in (first, second):
        table = Table.objects.get(pk=match.table_id)
        assert table.status == Table.Status.ABANDONED
        assert (table.turn, table.deadline) == (None, None)
        assert table.actions.order_by("-seq").first().kind == "abandon"
        assert verify_table(table) == []
    tournament.refresh_from_db()
    round_one, round_two = tournament.round_set.order_by("number")
    assert round_one.finished_at == deadline + datetime.timedelta(seconds=1)
    assert round_two.deadline == round_one.finished_at + datetime.timedelta(hours=24)
    assert round_two.matches.count() == 2
    assert all(m.table.status == Table.Status.PLAYING for m in round_two.matches.all())


def test_equal_timeouts_and_score_the_better_seed_wins():
    tournament, _ = started(Tournament.Format.KNOCKOUT, teams=2)
    (match,) = matches_of(tournament)
    # Seed 1 plays as team one: swap the teams' seeds to see the rule, not the side.
    one, two = match.team_one, match.team_two
    one.seed, two.seed = 2, 1
    one.save(), two.save()

    with after(match.round.deadline):
        tournaments.sweep_round_deadlines()

    match.refresh_from_db()
    assert (match.winner_id, match.result) == (two.pk, TournamentMatch.Result.FORFEIT)
    assert (match.score_one, match.score_two) == (0, 0)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_the_sweep_twice_does_nothing_more():
    tournament, _ = started(Tournament.Format.SWISS, teams=4, rounds=3)
    deadline = tournament.round_set.get().deadline

    with after(deadline):
        assert tournaments.sweep_round_deadlines() == 1
        once = snapshot(tournament)
        assert tournaments.sweep_round_deadlines() == 0
        call_command("belote_sweep", verbosity=0)

    assert snapshot(tournament) == once
    assert tournament.round_set.count() == 2


def test_before_the_deadline_the_sweep_does_nothing():
    tournament, _ = started(Tournament.Format.SWISS, teams=4, rounds=3)
    before = snapshot(tournament)
    deadline = tournament.round_set.get().deadline

    with after(deadline, seconds=-60):
        assert tournaments.sweep_round_deadlines() == 0

    assert snapshot(tournament) == before


def test_belote_sweep_closes_overdue_rounds(capsys):
    tournament, _ = started(Tournament.Format.KNOCKOUT, teams=4)
    deadline = tournament.round_set.get().deadline

    with after(deadline):
        call_command("belote_sweep")

    assert "1 tournament round(s) closed" in capsys.readouterr().out
    assert tournament.round_set.count() == 2


def test_an_abandoned_table_takes_no_more_moves():
    tournament, _ = started(Tournament.Format.KNOCKOUT, teams=2)
    (match,) = matches_of(tournament)
    with after(match.round.deadline):
        tournaments.sweep_round_deadlines()
    table = Table.objects.get(pk=match.table_id)
    state = hand_state(table)
    seated = table.seats.get(position=state.turn).user

    with pytest.raises(ServiceError) as refused:
        service.submit(
            table_id=table.pk,
            actor=seated,
            action=choose_action(state, "heuristic", random.Random(0)),
            expected_version=table.version,
        )
    assert refused.value.status == 409
    page = client_for(seated).get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 200
    assert "Abandonnée" in page.text


def test_a_game_lost_on_time_at_the_table_is_a_forfeit():
    """A table whose timeout policy is "forfeit": the team whose clock runs out loses the
    game (games.tables.service), and the match records a forfeit with that winner."""
    tournament, _ = started(Tournament.Format.KNOCKOUT, teams=2)
    (match,) = matches_of(tournament)
    Table.objects.filter(pk=match.table_id).update(
        timeout_policy=TimeoutPolicy.FORFEIT, forfeit_after=1
    )
    table = Table.objects.get(pk=match.table_id)

    with after(table.deadline):
        service.expire_deadline(table.pk, table.version)

    match.refresh_from_db()
    late = table.turn % 2
    assert match.result == TournamentMatch.Result.FORFEIT
    assert match.winner_id == (match.team_two_id if late == 0 else match.team_one_id)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_the_organiser_closes_the_round_early():
    tournament, organiser = started(Tournament.Format.SWISS, teams=4, rounds=2)
    first, second = matches_of(tournament)
    play_table(first.table)

    closed = tournaments.close_round(tournament=tournament, by=organiser)

    assert closed.number == 1
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.result == TournamentMatch.Result.PLAYED  # already decided, kept
    assert second.result == TournamentMatch.Result.FORFEIT
    assert tournament.round_set.count() == 2


def test_closing_a_round_is_for_organisers():
    tournament, _ = started(Tournament.Format.SWISS, teams=4, rounds=2)
    player = matches_of(tournament)[0].team_one.player_one
    before = snapshot(tournament)

    with pytest.raises(ServiceError) as refused:
        tournaments.close_round(tournament=tournament, by=player)

    assert refused.value.status == 403
    assert snapshot(tournament) == before


def test_a_finished_tournament_has_no_round_to_close():
    tournament, organiser = started(Tournament.Format.KNOCKOUT, teams=2)
    tournaments.close_round(tournament=tournament, by=organiser)
    tournament.refresh_from_db()

    with pytest.raises(ServiceError) as refused:
        tournaments.close_round(tournament=tournament, by=organiser)
    assert refused.value.code == "not_running"


def test_a_tournament_table_is_not_replayed():
    tournament, _ = started(Tournament.Format.KNOCKOUT, teams=2)
    table = play_table(matches_of(tournament)[0].table)
    seated = table.seats.get(position=0).user

    with pytest.raises(ServiceError) as refused:
        lobby.rematch(table_id=table.pk, by=seated)

    assert (refused.value.code, refused.value.status) == ("tournament_table", 409)
    assert table.games.count() == 1
