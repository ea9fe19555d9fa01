"""The process that made a move gives its pages the table as the move saved it
(games/tables/boards.py ``made``): their boards are those a reading of the database gives, and
the table is not read again."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.tables import boards as live
from tests.factories import make_users, play_random_move, seated_user, started_table
from tests.table_page.helpers import timeless

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = re.compile(r'name=\\"csrfmiddlewaretoken\\" value=\\"[^"\\]+\\"')


def viewer(user) -> live.Viewer:
    scope = {"user": user, "cookies": {"csrftoken": "c" * 32}, "headers": []}
    return live.Viewer.of(scope)


def without_tokens(message: str) -> str:
    return timeless(TOKEN.sub("token", message))


def test_the_boards_of_the_mover_s_process_are_those_of_the_database_without_reading_it():
    table = started_table(players=dict(enumerate(make_users(4))))
    viewers = [viewer(seated_user(table, position)) for position in range(4)]
    rng = random.Random(5)
    for _ in range(45):  # through the first hand's end and into the next one's bidding
        outcome = play_random_move(table, rng)
        with CaptureQueriesContext(connection) as queries:
            shared = live.shared(table.pk, ("version", outcome.version))
            pushed = [shared.push_for(v).message() for v in viewers]
        assert not [q for q in queries if 'FROM "games_table"' in q["sql"]]
        fresh = live.shared(table.pk, None)  # read from the database
        read = [fresh.push_for(v).message() for v in viewers]
        assert [without_tokens(m) for m in pushed] == [without_tokens(m) for m in read]
        assert f'"version": {outcome.version}' in pushed[0]


def test_the_pages_of_the_mover_s_process_ask_the_database_nothing():
    """Whether each seated player may still watch comes from the seats this process keeps
    per seats version (``access.may_see`` through ``seats.table_seats``): a pushed board
    asks for no seat."""
    table = started_table(players=dict(enumerate(make_users(4))))
    viewers = [viewer(seated_user(table, position)) for position in range(4)]
    assert table.created_by_id not in {v.user.pk for v in viewers[1:]}
    rng = random.Random(7)
    for _ in range(10):
        outcome = play_random_move(table, rng)
        with CaptureQueriesContext(connection) as queries:
            shared = live.shared(table.pk, ("version", outcome.version))
            pushed = [shared.push_for(v) for v in viewers]
        assert all(p is not None and p.board for p in pushed)
        assert [q["sql"] for q in queries if '"games_seat"' in q["sql"]] == []


def test_a_socket_masks_its_page_s_csrf_secret_once_for_all_the_boards_it_pushes():
    """Masking the secret draws 32 random characters from the system (a system call each):
    once per socket, not once per board. Each page still has a masking of its own, and
    ``tests/live/test_many_pages.py`` posts a move with a pushed board's token."""
    table = started_table(players=dict(enumerate(make_users(4))))
    user = seated_user(table, 0)
    tab, other_tab = viewer(user), viewer(user)
    found = re.compile(r'name=\\"csrfmiddlewaretoken\\" value=\\"([^"\\]+)\\"')
    tokens, other_tokens, boards_with_forms = set(), set(), 0
    rng = random.Random(3)
    for _ in range(40):  # the whole bidding and several tricks: seat 0 acts more than once
        outcome = play_random_move(table, rng)
        shared = live.shared(table.pk, ("version", outcome.version))
        pushed = shared.push_for(tab).message()
        tokens |= set(found.findall(pushed))
        other_tokens |= set(found.findall(shared.push_for(other_tab).message()))
        boards_with_forms += bool(found.search(pushed))
    assert boards_with_forms >= 2
    assert len(tokens) == 1 and len(other_tokens) == 1
    assert tokens != other_tokens
