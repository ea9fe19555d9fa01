"""Hand history: "every finished hand can be replayed trick by trick (all four hands
revealed after the hand), from the table and from the dashboard". Only finished hands:
the hand in progress is a 404, like a table one may not see.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules as engine
from games.rules.cards import cards_of
from games.tables.selectors import deck_cards, hand_actions, replay_hand
from tests.table_page.helpers import (
    act,
    board_of,
    client_for,
    finish_hand,
    htmx_post,
    spectator_client,
    state_of,
    take_at_once,
    text_of,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(table):
    """A table whose first hand is over (taken at once, then played out)."""
    take_at_once(table)
    finish_hand(table)
    table.refresh_from_db()
    return table


def first_hand(table):
    return table.games.get(number=1).hands.get(number=1)


def final_state(table):
    hand = first_hand(table)
    return replay_hand(table.rules, hand, hand_actions(hand))


def test_the_deal_shows_the_four_starting_hands(played, players):
    hand = first_hand(played)
    dealt = engine.deal(played.rules, hand.dealer, deck_cards(hand.deck))
    dealt = engine.apply(dealt, engine.Action.parse("take"))  # the hands are complete now

    response = client_for(players[0]).get(url("hand", played, 1, 1))

    assert response.status_code == 200
    page = text_of(response)
    assert "Les mains du départ" in page
    for seat in range(4):
        for card in cards_of(dealt.hands[seat]):
            assert engine.name_fr(card) in page
    assert 'aria-current="step"' in page


def test_each_step_shows_a_trick_and_what_is_left_in_every_hand(played, players):
    state = final_state(played)
    client = client_for(players[2])

    for step in (1, 5, 8):
        response = client.get(url("hand", played, 1, 1) + f"?pli={step}")
        assert response.status_code == 200
        page = text_of(response)
        assert f"Pli {step} sur 8" in page
        trick = state.tricks[step - 1]
        replay = page.split('id="replay"')[1].split("</section>\n  \n")[0]
        for card in trick.cards:
            assert f'data-card="{engine.code_of(card)}"' in replay
        # Cards in the seats: 8 - step each.
        square = replay.split('class="square replay-square"')[1]
        assert square.count('class="card') >= 4 * (8 - step)


def test_the_stepper_works_with_htmx_and_clamps_the_step(played, players):
    client = client_for(players[1])

    response = client.get(url("hand", played, 1, 1) + "?pli=3", headers={"hx-request": "true"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="replay"')
    assert "?pli=2" in response.text and "?pli=4" in response.text

    assert "Pli 8 sur 8" in text_of(client.get(url("hand", played, 1, 1) + "?pli=99"))
    assert "La distribution" in text_of(client.get(url("hand", played, 1, 1) + "?pli=x"))


def test_the_hand_in_progress_is_not_replayed(played, players):
    current = played.current_hand
    assert current.number == 2

    response = client_for(players[0]).get(url("hand", played, 1, 2))

    assert response.status_code == 404
    assert client_for(players[0]).get(url("hand", played, 1, 9)).status_code == 404
    assert client_for(players[0]).get(url("hand", played, 2, 1)).status_code == 404


def test_strangers_do_not_see_the_history(played, outsider):
    assert client_for(outsider).get(url("hand", played, 1, 1)).status_code == 404


def test_spectators_see_the_history_of_a_watched_table(start, outsider):
    table = start(spectators=True)
    take_at_once(table)
    finish_hand(table)
    assert client_for(outsider).get(url("hand", table, 1, 1)).status_code == 404

    spectator = spectator_client(outsider, table)

    assert spectator.get(url("hand", table, 1, 1)).status_code == 200


def test_the_history_is_a_read_only_page(played, players):
    response = htmx_post(client_for(players[0]), url("hand", played, 1, 1), {})
    assert response.status_code == 200  # a GET page: a POST reads it too, changes nothing
    assert board_of(response).action_buttons == {}


def test_the_score_sheet_and_the_dashboard_link_to_the_last_finished_hand(played, players):
    board = text_of(client_for(players[0]).get(url("board", played)))
    assert f'href="{url("hand", played, 1, 1)}"' in board

    dashboard = text_of(client_for(players[0]).get(reverse("games:list")))
    assert "Dernière donne" in dashboard
    assert f'href="{url("hand", played, 1, 1)}"' in dashboard


def test_no_dashboard_link_before_a_hand_is_over(table, players):
    assert "Dernière donne" not in text_of(client_for(players[0]).get(reverse("games:list")))


def test_a_hand_where_everybody_passed_shows_the_dealt_cards(table, players):
    dealt = state_of(table)
    for _ in range(8):
        act(table, "pass")
    table.refresh_from_db()
    assert table.current_hand.number == 2

    response = client_for(players[0]).get(url("hand", table, 1, 1))

    assert response.status_code == 200
    page = text_of(response)
    assert "Tout le monde a passé" in page
    assert page.count("Passe") == 8
    for seat in range(4):
        for card in cards_of(dealt.hands[seat]):
            assert engine.name_fr(card) in page
