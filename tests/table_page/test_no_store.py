"""The pages that carry a player's cards are never stored (issue 13: "Table pages lack
Cache-Control: no-store").

A board shows its viewer's hand; a finished hand's history shows all four; the creator's
page shows the secret invitation link. Stored by a shared cache or left in the browser's
cache on a shared computer, they would show to the next person. Every page, fragment and
form answer of a table says ``no-store`` (the site's 404 page aside: it shows nothing).
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, reverse

from games.tables import urls as table_urls
from tests.table_page.helpers import (
    client_for,
    finish_hand,
    legal_texts,
    play,
    state_of,
    url,
)

pytestmark = pytest.mark.django_db


def not_stored(response) -> bool:
    directives = {d.strip() for d in response.headers.get("Cache-Control", "").split(",")}
    return "no-store" in directives


def test_the_table_page_the_board_and_the_answers_to_moves_are_not_stored(table, players):
    turn = state_of(table).turn
    client = client_for(players[turn])
    legal = legal_texts(state_of(table))[0]

    answers = {
        "page": client.get(url("table", table)),
        "board": client.get(url("board", table)),
        "board (htmx)": client.get(url("board", table), headers={"hx-request": "true"}),
        "refused move": play(client, table, "play JH"),
        "stale move": play(client, table, legal, version=table.version - 1),
        "move": play(client, table, legal),
        "move without htmx": play(
            client_for(players[state_of(table).turn]), table, "pass", htmx=False
        ),
    }

    assert {name: r.status_code for name, r in answers.items()} == {
        "page": 200,
        "board": 200,
        "board (htmx)": 200,
        "refused move": 422,
        "stale move": 409,
        "move": 200,
        "move without htmx": 302,
    }
    assert [name for name, response in answers.items() if not not_stored(response)] == []


def test_the_history_of_a_finished_hand_is_not_stored(table, players):
    finish_hand(table)

    response = client_for(players[0]).get(url("hand", table, 1, 1))

    assert response.status_code == 200
    assert not_stored(response)


def test_every_route_of_a_table_answers_no_store(table, players, creator):
    """Whatever the route, the method and the answer (a page, a refusal, a redirect).
    Only the site's 404 page, which shows nothing of any table, is left as it is (here
    the history of the hand still in play)."""
    arguments = {
        "table_id": table.pk,
        "token": table.invite_token,
        "game_number": 1,
        "hand_number": 1,
    }
    routes = [
        pattern
        for pattern in table_urls.urlpatterns
        if isinstance(pattern, URLPattern) and "table_id" in pattern.pattern.converters
    ]
    assert len(routes) >= 15
    client = client_for(creator)

    stored = []
    for route in routes:
        kwargs = {name: arguments[name] for name in route.pattern.converters}
        path = reverse(f"games:{route.name}", kwargs=kwargs)
        for method in (client.get, client.post):
            response = method(path)
            if response.status_code != 404 and not not_stored(response):
                stored.append(f"{method.__name__.upper()} {path}: {response.status_code}")

    assert stored == []


def test_a_visitor_sent_to_log_in_is_not_stored_either(client, table):
    response = client.get(url("table", table))

    assert response.status_code == 302
    assert not_stored(response)
