"""Ratings: an OpenSkill team rating per player, moved by every finished rated game.

Issue 7: "Ratings: an OpenSkill team rating per player, updated after every finished
rated game (bot-filled games unrated) [...]". Test required: "rating updates are
deterministic for a given sequence of results."
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command

from accounts.models import Rating
from games.models import Game, Pace, RatingChange, Table
from games.ratings import service as ratings
from games.ratings.service import DEFAULT_SKILL, Skill, rate_game, rebuild_ratings, updated_skills
from games.tables import lobby
from games.timing.absence import replace_absent
from tests.factories import make_users, play_to_the_end, seated_user, started_table
from tests.ratings.helpers import figures, forfeit_game, forfeit_table, play_out
from tests.timing.helpers import after, fresh, playing_table

pytestmark = pytest.mark.django_db

NS, EW = 0, 1

# Six players, six results: (who sits N E S W, by index, and the winning team).
SEQUENCE = [
    ((0, 1, 2, 3), NS),
    ((0, 4, 2, 5), EW),
    ((1, 2, 3, 4), NS),
    ((5, 0, 4, 1), NS),
    ((2, 3, 0, 1), EW),
    ((0, 1, 2, 3), NS),
]


def play_sequence(users, sequence=SEQUENCE) -> list[Game]:
    return [forfeit_game([users[i] for i in seats], winner) for seats, winner in sequence]


def changes_of(users) -> list[tuple]:
    """Every RatingChange of ``users``, as (game number in play order, user index, figures)."""
    index = {u.pk: i for i, u in enumerate(users)}
    rows = RatingChange.objects.filter(user__in=users).order_by("game__finished_at", "user_id")
    games: dict[int, int] = {}
    return [
        (
            games.setdefault(c.game_id, len(games)),
            index[c.user_id],
            c.mu_before,
            c.sigma_before,
            c.mu_after,
            c.sigma_after,
        )
        for c in rows
    ]


# ---------------------------------------------------------------------------------------
# The model: fixed parameters, nothing random


def test_the_first_game_of_four_newcomers_gives_the_same_figures_every_time():
    """Plackett-Luce with fixed parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300): the
    figures are pinned, so a change of model or of its defaults cannot go unnoticed."""
    after_game = updated_skills([DEFAULT_SKILL] * 4, winner=NS)

    winner = Skill(26.964294621803063, 8.177962604389991)
    loser = Skill(23.035705378196937, 8.177962604389991)
    assert after_game == [winner, loser, winner, loser]
    assert updated_skills([DEFAULT_SKILL] * 4, winner=NS) == after_game
    assert winner.ordinal == pytest.approx(2.4304068, abs=1e-6)


def test_the_same_sequence_of_results_gives_exactly_the_same_ratings_twice():
    first, second = make_users(6), make_users(6)

    play_sequence(first)
    play_sequence(second)

    assert figures(first) == figures(second)
    assert changes_of(first) == changes_of(second)
    assert all(games for *_, games in figures(first))


def test_rebuilding_from_scratch_gives_the_figures_of_the_incremental_updates():
    users = make_users(6)
    play_sequence(users)
    incremental, history = figures(users), changes_of(users)
    # Spoil the stored figures: the rebuild starts from the prior, not from them.
    Rating.objects.filter(user__in=users).update(mu=1.0, sigma=1.0, ordinal=-2.0, games=99)
    RatingChange.objects.filter(user=users[0]).delete()

    summary = rebuild_ratings()

    assert figures(users) == incremental
    assert changes_of(users) == history
    assert (summary.games, summary.players, summary.dropped) == (len(SEQUENCE), 6, 0)
    assert rebuild_ratings() == summary
    assert figures(users) == incremental


def test_the_rebuild_command_recomputes_and_reports():
    users = make_users(6)
    play_sequence(users)
    incremental = figures(users)
    Rating.objects.update(mu=30.0)
    out = StringIO()

    call_command("belote_ratings", "--rebuild", stdout=out)

    assert f"ratings rebuilt: {len(SEQUENCE)} rated games, 6 players" in out.getvalue()
    assert figures(users) == incremental
    status = StringIO()
    call_command("belote_ratings", stdout=status)
    assert f"{len(SEQUENCE)} rated games, 6 rated players" in status.getvalue()


def test_the_rebuild_unrates_a_game_whose_player_deleted_their_account():
    users = make_users(5)
    kept = forfeit_game(users[:4], NS)
    gone = forfeit_game([users[4], users[1], users[2], users[3]], EW)

    users[4].delete()
    summary = rebuild_ratings()

    assert summary.dropped == 1
    gone.refresh_from_db()
    kept.refresh_from_db()
    assert not gone.rated and kept.rated
    assert not RatingChange.objects.filter(game=gone).exists()
    assert [games for *_, games in figures(users[:4])] == [1, 1, 1, 1]


# ---------------------------------------------------------------------------------------
# What a rated game does


def test_winners_go_up_and_losers_go_down():
    users = make_users(4)
    game = forfeit_game(users, EW)

    game.refresh_from_db()
    assert game.rated
    north, east, south, west = figures(users)
    for mu, _sigma, ordinal, games in (east, west):
        assert mu > DEFAULT_SKILL.mu and ordinal > DEFAULT_SKILL.ordinal and games == 1
    for mu, _sigma, ordinal, games in (north, south):
        assert mu < DEFAULT_SKILL.mu and ordinal < DEFAULT_SKILL.ordinal and games == 1
    changes = RatingChange.objects.filter(game=game)
    assert sorted(c.user_id for c in changes) == sorted(u.pk for u in users)
    assert all(c.sigma_after < c.sigma_before for c in changes)


def test_an_upset_moves_the_ratings_more_than_the_favourites_winning():
    strong, weak = Skill(30.0, 5.0), Skill(20.0, 5.0)
    table = [strong, weak, strong, weak]

    favourites_gain = updated_skills(table, winner=NS)[0].mu - strong.mu
    upset_gain = updated_skills(table, winner=EW)[1].mu - weak.mu

    assert 0 < favourites_gain < upset_gain


def test_a_forfeit_is_a_loss_for_the_team_that_ran_out_of_time():
    """A forfeit on time: the seat's team loses the game (games.tables.service._forfeit)."""
    users = make_users(4)
    game = forfeit_game(users, NS)

    forfeit = game.table.actions.get(kind="forfeit")
    assert forfeit.seat % 2 == EW
    north, east, south, west = figures(users)
    assert east[0] < DEFAULT_SKILL.mu and west[0] < DEFAULT_SKILL.mu
    assert north[0] > DEFAULT_SKILL.mu and south[0] > DEFAULT_SKILL.mu


def test_rating_a_game_twice_changes_nothing():
    users = make_users(4)
    game = forfeit_game(users, NS)
    rated = figures(users)

    assert rate_game(game) is False
    assert rate_game(Game.objects.get(pk=game.pk)) is False
    stale = Game.objects.get(pk=game.pk)
    stale.rated = False  # a copy read before the game was rated
    assert rate_game(stale) is False

    assert figures(users) == rated
    assert RatingChange.objects.filter(game=game).count() == 4


def test_a_game_with_a_bot_seat_is_not_rated():
    """Issue 7: "bot-filled games unrated"."""
    humans = make_users(2)
    table = forfeit_table({0: humans[0], 2: humans[1]}, bots={1: "random", 3: "heuristic"})
    play_out(table, seed=4)

    game = table.games.get()
    assert game.winner is not None and not game.rated
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_an_unfinished_game_is_not_rated():
    table = started_table()
    game = table.current_hand.game

    assert rate_game(game) is False
    assert not Rating.objects.exists()


def test_a_game_where_a_bot_stood_in_for_an_absent_player_is_still_rated(at_the_table):
    """The stand-in plays for the seat, while another player is at the table; the seat,
    and the result, stay the player's."""
    cache.clear()
    table = playing_table(pace=Pace.LIVE, move_seconds=300)
    at_the_table(table, seated_user(table, (table.turn + 2) % 4))
    started = table.actions.get(kind="start").created_at
    with after(started, seconds=61):
        assert replace_absent(table.pk, table.version).applied
    absent = fresh(table).seats.get(stand_in=True)

    table = play_out(table, seed=6)
    cache.clear()

    game = table.games.get()
    assert game.rated and table.seats.get(pk=absent.pk).stand_in
    assert RatingChange.objects.filter(game=game, user=absent.user).exists()
    assert Rating.objects.get(user=absent.user).games == 1


# ---------------------------------------------------------------------------------------
# The whole path: a game played to its end through games.tables.service


def test_a_game_played_to_the_end_moves_the_four_ratings():
    table = play_to_the_end(started_table(options={"target": 501}), seed=7)

    game = table.games.get()
    assert table.status == Table.Status.FINISHED and game.rated
    players = [seat.user for seat in table.seats.order_by("position")]
    for position, (mu, sigma, ordinal, games) in enumerate(figures(players)):
        assert games == 1 and sigma < DEFAULT_SKILL.sigma
        won = position % 2 == game.winner
        assert (mu > DEFAULT_SKILL.mu) is won
        assert ordinal == pytest.approx(mu - 3 * sigma)
    assert RatingChange.objects.filter(game=game).count() == 4


def test_a_rematch_moves_the_ratings_again():
    table = play_to_the_end(started_table(options={"target": 501}), seed=8)
    players = [seat.user for seat in table.seats.order_by("position")]
    after_one = figures(players)
    lobby.rematch(table_id=table.pk, by=players[0])
    table = play_to_the_end(fresh(table), seed=9)

    assert [games for *_, games in figures(players)] == [2, 2, 2, 2]
    assert figures(players) != after_one
    assert Game.objects.filter(table=table, rated=True).count() == 2


def test_the_rated_players_are_read_from_the_seats():
    assert ratings.rated_players([(0, 1, ""), (1, 2, ""), (2, 3, ""), (3, 4, "")]) == [1, 2, 3, 4]
    assert ratings.rated_players([(0, 1, ""), (1, None, "random"), (2, 3, ""), (3, 4, "")]) is None
    assert ratings.rated_players([(0, 1, ""), (1, None, ""), (2, 3, ""), (3, 4, "")]) is None
    assert ratings.rated_players([(0, 1, ""), (1, 2, ""), (2, 3, "")]) is None
