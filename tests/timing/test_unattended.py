"""A live table waits for its players (games/tables/attendance.py): with none of its seated
players there, nothing is played and no clock runs; a player back resumes it; a table
nobody comes back to is abandoned after LIVE_ABANDON_AFTER_SECONDS, unrated.

Issue 15: "When no human is connected to a live table, it waits for them. [...] With
nobody there, the clock stops and nothing is played until someone returns. Decide what
happens to a live table that nobody comes back to [...] and say it on the page. A game
that bots played while no human was present must never change a rating."

Who has the table open is the presence cache, filled here as the table's websocket fills
it (the ``at_the_table`` fixture); the sockets themselves are tests/live/test_unattended.py.
Time is travelled: the sweep runs at a moved ``now``.
"""

import datetime

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone
from django.utils.formats import date_format

from accounts.models import Rating
from games.models import Action, Pace, RatingChange, Table, Tournament
from games.ratings.service import played_by_nobody
from games.tables import service
from games.tables.verification import verify_table
from games.timing.absence import note_absent, note_back
from games.timing.sweep import sweep
from tests.factories import fixed_deck, make_table, make_user, make_users, seated_user
from tests.tables.helpers import client_for
from tests.timing.helpers import after, fresh, run_worker, timeout_moves
from tests.tournaments.helpers import matches_of, started

pytestmark = pytest.mark.django_db

N, E, S, W = range(4)
PAUSED = "Personne n'est à la table : la partie est en pause."
ABANDONED = "Partie abandonnée : aucun joueur n'est revenu à la table."
DAY = datetime.timedelta(seconds=settings.LIVE_ABANDON_AFTER_SECONDS)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def creator():
    """Created the tables and may watch them, seated at none: not a player."""
    return make_user("claire")


def live_table(creator, *, bot_to_act: bool = False, pace: str = Pace.LIVE) -> Table:
    """A table started by North's deal: West acts first, a heuristic bot with
    ``bot_to_act``, else a player like the three others."""
    users = make_users(4)
    players = {p: users[p] for p in (N, E, S, W) if p != W or not bot_to_act}
    bots = {W: "heuristic"} if bot_to_act else {}
    table = make_table(players=players, bots=bots, created_by=creator)
    move_seconds = 300 if pace == Pace.LIVE else 3600
    Table.objects.filter(pk=table.pk).update(pace=pace, move_seconds=move_seconds)
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(table.pk))
    table = fresh(table)
    assert table.turn == W
    return table


def kinds(table: Table, after_version: int = 0) -> list[str]:
    return list(
        table.actions.filter(seq__gt=after_version).order_by("seq").values_list("kind", flat=True)
    )


def bot_moves(table: Table) -> int:
    return table.actions.filter(source=Action.Source.BOT).count()


# ---------------------------------------------------------------------------------------
# Nobody there: nothing is played, no clock runs


def test_with_nobody_at_the_table_its_bot_does_not_play_and_the_table_pauses(creator):
    table = live_table(creator, bot_to_act=True)
    version = table.version

    assert service.play_bot_move(table.pk, version) is None

    table = fresh(table)
    assert table.unattended_since is not None and table.deadline is None
    assert kinds(table, version) == ["pause"] and bot_moves(table) == 0
    # The sweep, hours later, plays nothing either.
    with after(timezone.now(), seconds=3 * 3600):
        assert sweep() == 0
    assert fresh(table).version == table.version and bot_moves(table) == 0


def test_with_nobody_there_the_clock_stops_no_timeout_and_no_stand_in(creator):
    table = live_table(creator)
    version = table.version

    with after(table.deadline, seconds=1):
        assert sweep() == 0
    table = fresh(table)
    assert table.unattended_since is not None and table.deadline is None
    assert kinds(table, version) == ["pause"]

    with after(table.unattended_since, seconds=6 * 3600):
        assert sweep() == 0
    table = fresh(table)
    assert kinds(table, version) == ["pause"] and timeout_moves(table) == []
    assert not table.seats.filter(stand_in=True).exists()
    assert table.seats.get(position=W).timeouts == 0


def test_a_players_last_page_closing_pauses_the_table_at_once(creator, at_the_table):
    table = live_table(creator)
    north = seated_user(table, N)
    at_the_table(table, north)

    note_absent(table.pk, seated_user(table, W).pk)  # West closed theirs: North is there
    assert fresh(table).unattended_since is None

    at_the_table.close(table, north)
    note_absent(table.pk, north.pk)  # what the socket does when North's last page closes
    assert fresh(table).unattended_since is not None


def test_a_spectator_does_not_keep_the_table_going(creator, at_the_table):
    table = live_table(creator, bot_to_act=True)
    at_the_table(table, creator)

    assert service.play_bot_move(table.pk, table.version) is None
    assert fresh(table).unattended_since is not None


def test_while_one_player_is_there_the_bots_and_stand_ins_play(creator, at_the_table):
    table = live_table(creator)
    at_the_table(table, seated_user(table, S))

    with after(table.actions.get(kind="start").created_at, seconds=61):
        assert sweep() == 1  # West, gone, is stood in for
    table = fresh(table)
    assert table.seats.get(position=W).stand_in and table.unattended_since is None
    assert service.play_bot_move(table.pk, table.version).applied


# ---------------------------------------------------------------------------------------
# A player back: the table resumes


def test_a_player_back_resumes_the_table_with_a_fresh_turn(creator, at_the_table):
    table = live_table(creator)
    with after(table.deadline, seconds=1):
        sweep()
    paused = fresh(table)
    north = seated_user(table, N)

    back = paused.unattended_since + datetime.timedelta(hours=2)
    with after(back):
        at_the_table(table, north)
        note_back(table.pk, north)  # what the socket does when North's page connects

    table = fresh(table)
    assert table.unattended_since is None
    resumed = table.actions.get(seq=table.version)
    assert (resumed.kind, resumed.actor, resumed.source) == ("resume", north, "player")
    # The whole time per move from the return: nobody waited for the extra time.
    assert table.deadline == back + datetime.timedelta(seconds=1 + table.move_seconds)
    # North being there, West's clock now runs out as usual.
    with after(table.deadline, seconds=1):
        at_the_table.heartbeat(table, north)
        assert sweep() == 1
    assert len(timeout_moves(table)) == 1


@pytest.mark.django_db(transaction=True)  # the worker ends the test's transaction
def test_the_worker_plays_nothing_while_paused_and_the_bot_once_resumed(
    creator, at_the_table, keep_signal_handlers
):
    table = live_table(creator, bot_to_act=True)
    run_worker()  # West's move, queued by the start: nobody is there
    assert fresh(table).unattended_since is not None and bot_moves(table) == 0
    north = seated_user(table, N)

    at_the_table(table, north)
    note_back(table.pk, north)
    run_worker()

    table = fresh(table)
    assert table.unattended_since is None and bot_moves(table) >= 1
    assert table.turn != W  # West played until a player is to act
    assert kinds(table)[1:3] == ["pause", "resume"]


def test_the_sweep_resumes_a_table_whose_player_is_counted_again(creator, at_the_table):
    table = live_table(creator, bot_to_act=True)
    service.play_bot_move(table.pk, table.version)
    assert sweep() == 0  # still nobody

    at_the_table(table, seated_user(table, E))  # a page that came back without a new socket

    assert sweep() == 1
    assert fresh(table).unattended_since is None


def test_opening_the_page_resumes_the_table_a_spectator_reads_it_is_paused(creator):
    table = live_table(creator, bot_to_act=True)
    service.play_bot_move(table.pk, table.version)
    table = fresh(table)

    watching = client_for(creator).get(f"/tables/{table.pk}/").text
    assert PAUSED in watching
    date = date_format(timezone.localtime(table.unattended_since + DAY), "DATETIME_FORMAT")
    assert f"sans retour d'ici le {date}, elle sera abandonnée" in watching
    assert "sans effet sur le classement" in watching
    assert fresh(table).unattended_since is not None  # a spectator is not a player

    playing = client_for(seated_user(table, S)).get(f"/tables/{table.pk}/").text
    assert PAUSED not in playing
    assert fresh(table).unattended_since is None


def test_the_status_says_paused_on_the_table_and_in_my_tables(creator):
    table = live_table(creator, bot_to_act=True)
    service.play_bot_move(table.pk, table.version)

    page = client_for(creator).get(f"/tables/{table.pk}/").text
    assert 'id="table-status">En pause</span>' in page
    dashboard = client_for(seated_user(table, S)).get("/tables/").text
    assert "En pause" in dashboard

    client_for(seated_user(table, S)).get(f"/tables/{table.pk}/")  # back: resumed
    page = client_for(creator).get(f"/tables/{table.pk}/").text
    assert 'id="table-status">En cours</span>' in page


def test_the_paused_table_is_explained_in_english(creator):
    creator.language = "en"
    creator.save()
    table = live_table(creator, bot_to_act=True)
    service.play_bot_move(table.pk, table.version)

    page = client_for(creator).get(f"/tables/{table.pk}/").text

    assert "Nobody is at the table: the game is paused." in page
    assert "with no effect on the ratings" in page


# ---------------------------------------------------------------------------------------
# Nobody back: abandoned, unrated


def test_a_table_nobody_comes_back_to_is_abandoned_after_a_day_unrated(creator):
    table = live_table(creator)
    with after(table.deadline, seconds=1):
        sweep()
    since = fresh(table).unattended_since

    with after(since + DAY - datetime.timedelta(minutes=1)):
        assert sweep() == 0
    assert fresh(table).status == Table.Status.PLAYING
    with after(since + DAY, seconds=1):
        assert sweep() == 1
        assert sweep() == 0

    table = fresh(table)
    assert table.status == Table.Status.ABANDONED and table.turn is None
    abandon = table.actions.get(seq=table.version)
    assert (abandon.kind, abandon.payload) == ("abandon", {"reason": "unattended"})
    assert table.games.get().winner is None
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert verify_table(table) == []

    # A player back now finds it over: it says why, and stays as it is.
    page = client_for(seated_user(table, N)).get(f"/tables/{table.pk}/").text
    assert ABANDONED in page and "Elle ne compte pas pour le classement." in page
    assert PAUSED not in page and "Au tour d" not in page and "À vous de jouer" not in page
    assert fresh(table).version == table.version


@override_settings(LIVE_ABANDON_AFTER_SECONDS=3600)
def test_the_delay_before_abandoning_is_a_setting(creator):
    table = live_table(creator, bot_to_act=True)
    service.play_bot_move(table.pk, table.version)

    with after(fresh(table).unattended_since, seconds=3601):
        assert sweep() == 1

    assert fresh(table).status == Table.Status.ABANDONED


def test_a_table_abandoned_otherwise_does_not_say_nobody_came_back(creator):
    table = live_table(creator, bot_to_act=True)
    service.play_bot_move(table.pk, table.version)

    service.abandon_table(table_id=table.pk, reason="admin")

    table = fresh(table)
    assert table.status == Table.Status.ABANDONED and table.unattended_since is None
    assert ABANDONED not in client_for(creator).get(f"/tables/{table.pk}/").text


def test_a_tournaments_table_waits_for_its_round_deadline_not_a_day():
    """Its players may meet later in the round: the round's deadline decides the match,
    as for any unfinished one (games/tournaments)."""
    tournament, organiser = started(
        Tournament.Format.KNOCKOUT, teams=2, pace=Pace.LIVE, move_seconds=90, round_hours=168
    )
    table = matches_of(tournament)[0].table
    with after(table.deadline, seconds=1):
        sweep()
    table = fresh(table)
    assert table.unattended_since is not None

    with after(table.unattended_since + 3 * DAY):
        assert sweep() == 0
    assert fresh(table).status == Table.Status.PLAYING
    page = client_for(organiser).get(f"/tables/{table.pk}/").text
    assert fresh(table).unattended_since is not None  # the organiser is not a player
    assert "Elle reprend dès qu'un joueur revient." in page and "abandonnée" not in page


# ---------------------------------------------------------------------------------------
# Ratings: a game bots played with nobody there never counts


def test_a_game_that_bots_finished_for_every_player_is_not_rated(creator):
    """Four players, each stood in for (the way there is the guard's business, not this
    test's: the service never stands in for the last player there)."""
    table = live_table(creator)
    for seat in table.seats.all():
        seat.stand_in = True
        seat.save()

    assert service.play_bots(table.pk) > 0

    table = fresh(table)
    game = table.games.get()
    assert table.status == Table.Status.FINISHED and game.winner is not None
    assert not game.rated
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_game_ending_while_its_table_waits_for_its_players_is_not_rated():
    now = timezone.now()

    assert played_by_nobody(now, [False, False, False, False])
    assert played_by_nobody(None, [True, True, True, True])
    assert not played_by_nobody(None, [True, False, True, True])


# ---------------------------------------------------------------------------------------
# What does not wait


def test_an_asynchronous_table_never_waits(creator):
    table = live_table(creator, pace=Pace.ASYNC)

    with after(table.deadline, seconds=1):
        assert sweep() == 1

    table = fresh(table)
    assert table.unattended_since is None and len(timeout_moves(table)) == 1


def test_a_table_of_bots_alone_plays_on():
    table = make_table(bots=dict.fromkeys(range(4), "heuristic"))
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(1))
    table = fresh(table)

    assert service.play_bot_move(table.pk, table.version).applied
    assert fresh(table).unattended_since is None
