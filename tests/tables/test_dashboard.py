"""Mes tables: every table of the player, "à vous de jouer" first, finished ones with results."""

import re

import pytest
from django.urls import reverse

from games.tables import lobby
from games.tables.selectors import Section, dashboard
from tests.factories import make_users, play_to_the_end, started_table
from tests.tables.helpers import client_for, invite

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("games:list")


def started_with(me, others, *, my_turn: bool, **options):
    """A started table where ``me`` sits at the seat to act, or just after it."""
    probe = started_table(players=dict(enumerate(make_users(4))), **options)
    turn = probe.turn
    mine = turn if my_turn else (turn + 1) % 4
    players = dict(zip([p for p in range(4) if p != mine], others, strict=True))
    players[mine] = me
    return started_table(players=players, **options)


@pytest.fixture
def me(alice):
    return alice


@pytest.fixture
def tables(me, creator):
    others = make_users(3)
    # The table waiting for my move is the oldest, yet comes first.
    my_turn = started_with(me, others, my_turn=True)
    waiting = started_with(me, others, my_turn=False)
    lobby_table = lobby.create_private_table(created_by=creator, preset="moderne", target=1000)
    invite(lobby_table, me)
    won = play_to_the_end(started_with(me, others, my_turn=False, options={"target": 501}), seed=3)
    return {"my_turn": my_turn, "waiting": waiting, "lobby": lobby_table, "finished": won}


def test_rows_come_your_turn_first_then_playing_lobby_and_finished(me, tables):
    rows = dashboard(me)

    assert [row.table for row in rows] == [
        tables["my_turn"],
        tables["waiting"],
        tables["lobby"],
        tables["finished"],
    ]
    assert [row.section for row in rows] == list(Section.ORDER)
    first = rows[0]
    assert first.your_turn
    assert first.turn_seat.user == me
    tables["my_turn"].refresh_from_db()
    assert first.deadline is not None
    assert first.deadline == tables["my_turn"].deadline
    assert first.scores == (0, 0)
    assert not rows[1].your_turn
    assert rows[1].turn_seat.user != me
    assert rows[2].invited and rows[2].deadline is None


def test_a_finished_table_shows_its_result(me, tables):
    row = dashboard(me)[-1]
    game = tables["finished"].games.get()
    my_team = row.my_position % 2

    assert row.scores == game.scores
    assert row.winner == game.winner
    assert row.result == ("won" if game.winner == my_team else "lost")


def test_the_deadline_is_the_last_move_plus_the_time_per_move(tables):
    table = tables["waiting"]
    table.refresh_from_db()
    last_move = table.actions.order_by("-seq").first().created_at

    assert table.move_seconds == 120
    assert 120 <= (table.deadline - last_move).total_seconds() < 121


def test_the_page_lists_the_tables_with_a_clear_your_turn_first(me, tables):
    response = client_for(me).get(DASHBOARD)

    assert response.status_code == 200
    html = response.text
    assert "À vous de jouer à une table." in html
    headings = re.findall(r'<h2 id="section-(\w+)"', html)
    assert headings == ["your_turn", "playing", "lobby", "finished"]
    links = re.findall(r'href="/tables/(\d+)/"', html)
    assert links == [str(tables[k].pk) for k in ("my_turn", "waiting", "lobby", "finished")]
    assert "invitation reçue : choisissez une place" in html
    assert "il vous reste " in html  # the countdown of the table where it is my turn
    assert "Gagnée" in html or "Perdue" in html


def test_a_new_player_is_told_how_to_start(client, outsider):
    html = client_for(outsider).get(DASHBOARD).text

    assert "Vous n'avez encore aucune table." in html
    assert reverse("games:create") in html


def test_other_players_tables_are_not_listed(outsider, tables):
    assert dashboard(outsider) == []


def test_the_dashboard_needs_a_login(client):
    response = client.get(DASHBOARD)

    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))


def test_the_header_links_to_my_tables_and_a_new_table(me):
    html = client_for(me).get("/").text

    assert f'href="{DASHBOARD}"' in html
    assert f'href="{reverse("games:create")}"' in html


def test_the_pages_speak_english_too(me, tables):
    me.language = "en"  # a logged-in player's preference picks the language
    me.save()
    client = client_for(me)

    dashboard_html = client.get(DASHBOARD).text
    table_html = client.get(reverse("games:table", args=[tables["lobby"].pk])).text

    assert "My tables" in dashboard_html
    assert "Your turn at one table." in dashboard_html
    assert "Mes tables" not in dashboard_html
    assert "Sit here" in table_html
    assert "Partners sit face to face" in table_html
