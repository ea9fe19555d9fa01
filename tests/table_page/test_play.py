"""Every move through POST /tables/<id>/jouer/: htmx gets the fresh board, a plain POST a
redirect with a message. "A stale or repeated submission is answered with the current
state, never applied twice" (409); an illegal move is refused with the engine's French
message (422) and changes nothing; only a seated player plays (403), and a table one may
not see does not exist (404).
"""

from __future__ import annotations

import pytest
from django.test import Client

from games import rules as engine
from games.models import Action
from games.rules.cards import cards_of
from games.tables import lobby
from tests.factories import make_user
from tests.table_page.helpers import (
    board_of,
    client_for,
    legal_texts,
    play,
    play_first_legal,
    seed_where,
    snapshot,
    state_of,
    take_at_once,
    text_of,
    url,
)

pytestmark = pytest.mark.django_db

N, E, S, W = range(4)


def to_act(table, players):
    return client_for(players[state_of(table).turn])


def assert_applied(table, before: dict, action: str) -> None:
    after = snapshot(table)
    assert after["version"] == before["version"] + 1
    last = table.actions.order_by("seq").last()
    assert last.payload == {"action": action}
    assert last.source == Action.Source.PLAYER


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("action", ["pass", "take"])
def test_a_bid_is_played(table, players, action, htmx):
    client = to_act(table, players)
    before = snapshot(table)

    response = play(client, table, action, htmx=htmx)

    assert_applied(table, before, action)
    if htmx:
        assert response.status_code == 200
        assert response.text.lstrip().startswith('<section id="board"')
        table.refresh_from_db()
        assert f'data-version="{table.version}"' in response.text
    else:
        assert response.status_code == 302
        assert response.url == url("table", table)
        page = text_of(client.get(response.url))
        assert "C'est joué." in page


def test_taking_starts_the_play_and_the_board_shows_eight_cards(table, players):
    client = to_act(table, players)
    state = state_of(table)
    taker = state.turn

    response = play(client, table, "take")

    assert response.status_code == 200
    after = state_of(table)
    assert after.phase == engine.PLAYING and after.taker == taker
    assert len(board_of(response).cards) >= 8  # own hand, maybe the leader's turn


def test_naming_a_suit_in_the_second_round(table, players):
    for _ in range(4):
        play_first_legal(table)
    state = state_of(table)
    assert state.bid_round == 2
    suit = "SHDC"[((state.turned >> 3) + 1) % 4]

    response = play(to_act(table, players), table, f"take {suit}")

    assert response.status_code == 200
    assert engine.MODES[state_of(table).contract] == suit


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_card_is_played(table, players, htmx):
    take_at_once(table)
    state = state_of(table)
    card = next(a for a in legal_texts(state) if a.startswith("play"))
    before = snapshot(table)

    response = play(to_act(table, players), table, card, htmx=htmx)

    assert response.status_code == (200 if htmx else 302)
    assert_applied(table, before, card)
    assert engine.code_of(state_of(table).trick[0]) == card.split()[1]


def test_covering_in_sans_atout_then_tout_atout(start, players):
    table = start("moderne")
    take_at_once(table)  # surenchère: the others may cover
    assert "take SA" in legal_texts(state_of(table))
    client = to_act(table, players)

    assert play(client, table, "take SA").status_code == 200
    assert engine.MODES[state_of(table).contract] == "SA"
    assert play(to_act(table, players), table, "take TA").status_code == 200
    state = state_of(table)
    assert engine.MODES[state.contract] == "TA"
    assert state.phase == engine.PLAYING  # nobody covers a tout atout


def test_the_sans_atout_and_tout_atout_buttons(start, players):
    table = start("moderne")
    take_at_once(table)

    response = to_act(table, players).get(url("board", table))

    buttons = board_of(response).action_buttons
    assert {"take SA", "take TA", "pass"} <= set(buttons)
    assert "Sans atout" in response.text and "Tout atout" in response.text


def test_a_redeal_on_a_main_nulle(start, players):
    seed = seed_where("moderne", lambda s: "redeal" in legal_texts(s))
    table = start("moderne", seed=seed)
    hand = table.current_hand_id

    response = play(to_act(table, players), table, "redeal")

    assert response.status_code == 200
    table.refresh_from_db()
    assert table.current_hand_id != hand  # a new hand is dealt
    page = text_of(response)
    assert "Redonne demandée sur" in page  # the summary of the hand given up
    assert '<span class="mark mark-redonne">' in page


def test_the_seven_of_trump_is_exchanged(start, players):
    seed = seed_where("stekius", lambda s: "exchange" in legal_texts(s))
    table = start("stekius", seed=seed)
    client = to_act(table, players)
    turned = state_of(table).turned

    board = board_of(client.get(url("board", table)))
    assert "exchange" in board.action_buttons
    response = play(client, table, "exchange")

    assert response.status_code == 200
    state = state_of(table)
    assert state.exchanged and state.turned == (turned & ~7)  # the 7 is turned now
    assert f'data-card="{engine.code_of(turned)}"' in response.text  # now in this hand


def test_announces_are_declared_in_the_first_trick(start, players):
    seed = seed_where(
        "annonces", lambda s: "announce" in legal_texts(s), actions=["take"], dealer=0
    )
    table = start("annonces", seed=seed)
    take_at_once(table)
    client = to_act(table, players)
    assert "announce" in board_of(client.get(url("board", table))).action_buttons

    response = play(client, table, "announce")

    assert response.status_code == 200
    state = state_of(table)
    assert state.declared >> state.turn & 1
    assert "data-announce=" in response.text
    assert "announce" not in board_of(response).action_buttons


def test_a_stale_version_changes_nothing_and_answers_the_current_board(table, players):
    client = to_act(table, players)
    play(client, table, "pass")
    before = snapshot(table)

    # The same click again (a double submission), at the old version.
    response = play(client, table, "pass", version=before["version"] - 1)

    assert response.status_code == 409
    assert response.text.lstrip().startswith('<section id="board"')
    assert "La partie a avancé entre-temps" in text_of(response)
    assert f'data-version="{before["version"]}"' in response.text
    assert snapshot(table) == before


def test_a_stale_plain_post_redirects_with_the_notice(table, players):
    client = to_act(table, players)
    before = snapshot(table)

    response = play(client, table, "pass", version=before["version"] + 5, htmx=False)

    assert response.status_code == 302
    assert "La partie a avancé entre-temps" in text_of(client.get(response.url))
    assert snapshot(table) == before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("take H", "Au premier tour, on prend à la couleur de la retourne (« take »)."),
        ("play JH", "On ne joue pas de carte pendant les enchères."),
        ("dance", "Action inconnue : « dance »."),
    ],
)
def test_an_illegal_bid_is_refused_with_the_french_message(table, players, action, message):
    before = snapshot(table)

    response = play(to_act(table, players), table, action)

    assert response.status_code == 422
    assert message in text_of(response)
    assert 'role="alert"' in response.text
    assert response.text.lstrip().startswith('<section id="board"')
    assert snapshot(table) == before


def test_a_card_that_must_not_be_played_is_refused(table, players):
    take_at_once(table)
    for _ in range(40):
        state = state_of(table)
        hand = {engine.code_of(c) for c in cards_of(state.hands[state.turn])}
        legal = {a.split()[1] for a in legal_texts(state) if a.startswith("play")}
        if state.trick and hand - legal:
            break
        play_first_legal(table)
    else:
        pytest.fail("no constrained play found")
    wrong = sorted(hand - legal)[0]
    before = snapshot(table)

    response = play(to_act(table, players), table, f"play {wrong}")

    assert response.status_code == 422
    assert "Vous devez" in text_of(response)
    assert snapshot(table) == before


def test_playing_out_of_turn_is_refused(table, players):
    state = state_of(table)
    before = snapshot(table)

    response = play(client_for(players[(state.turn + 1) % 4]), table, "pass")

    assert response.status_code == 422
    assert "Ce n'est pas à vous de jouer." in text_of(response)
    assert snapshot(table) == before


def test_an_illegal_plain_post_redirects_with_the_message(table, players):
    client = to_act(table, players)
    before = snapshot(table)

    response = play(client, table, "take H", htmx=False)

    assert response.status_code == 302
    page = text_of(client.get(response.url))
    assert "Au premier tour, on prend à la couleur de la retourne" in page
    assert snapshot(table) == before


@pytest.mark.parametrize("data", [{}, {"action": "pass"}, {"action": "pass", "version": "x"}])
def test_a_malformed_move_is_refused(table, players, data):
    before = snapshot(table)

    response = to_act(table, players).post(url("play", table), data, headers={"hx-request": "true"})

    assert response.status_code == 422
    assert snapshot(table) == before


def test_someone_who_sees_the_table_without_a_seat_cannot_play(table, creator):
    before = snapshot(table)

    response = play(client_for(creator), table, "pass")

    assert response.status_code == 403
    assert "Vous n'avez pas de place à cette table." in text_of(response)
    assert snapshot(table) == before
    # They see the board, without any hand.
    board = board_of(client_for(creator).get(url("board", table)))
    assert board.cards == [engine.code_of(state_of(table).turned)]


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_stranger_gets_a_404_and_changes_nothing(table, outsider, htmx):
    before = snapshot(table)

    response = play(client_for(outsider), table, "pass", htmx=htmx)

    assert response.status_code == 404
    assert snapshot(table) == before
    assert client_for(outsider).get(url("board", table)).status_code == 404
    assert client_for(outsider).get(url("table", table)).status_code == 404


def test_a_logged_out_visitor_is_sent_to_the_login(table):
    before = snapshot(table)

    response = Client().post(url("play", table), {"action": "pass", "version": table.version})

    assert response.status_code == 302
    assert "/comptes/" in response.url
    assert snapshot(table) == before


def test_the_move_needs_the_csrf_token(table, players):
    client = Client(enforce_csrf_checks=True)
    client.force_login(players[state_of(table).turn])
    before = snapshot(table)

    response = client.post(url("play", table), {"action": "pass", "version": table.version})

    assert response.status_code == 403
    assert snapshot(table) == before


def test_every_action_form_carries_the_token_and_the_version(table, players):
    page = to_act(table, players).get(url("table", table)).text

    forms = page.split('action="' + url("play", table) + '"')[1:]
    assert len(forms) == 2  # pass, take
    for form in forms:
        form = form.split("</form>")[0]
        assert 'name="csrfmiddlewaretoken"' in form
        assert f'name="version" value="{table.version}"' in form


def test_an_invitee_without_a_seat_cannot_play_either(table, creator):
    invitee = make_user("ines")
    # Invitations are made in the lobby; the row alone stands for one here.
    table.invitations.create(user=invitee, invited_by=creator, via="username")
    before = snapshot(table)

    response = play(client_for(invitee), table, "pass")

    assert response.status_code == 403
    assert snapshot(table) == before


def test_a_move_at_a_table_still_in_the_lobby_is_refused_with_a_409(creator):
    """Nothing to play before the deal: the lobby comes back (the page has no board to
    replace) with the message among the seats, and nothing changes."""
    lobby_table = lobby.create_private_table(created_by=creator, preset="classique", target=1000)
    before = snapshot(lobby_table)
    client = client_for(creator)

    response = play(client, lobby_table, "pass")

    assert response.status_code == 409
    assert response.headers["HX-Retarget"] == "#table"
    assert response.headers["HX-Reswap"] == "outerHTML"
    page = text_of(response)
    assert page.lstrip().startswith('<div id="table"')
    assert "<html" not in page
    assert 'role="alert"' in page and "La partie n'a pas commencé." in page
    assert snapshot(lobby_table) == before

    plain = play(client, lobby_table, "play JH", htmx=False)
    assert plain.status_code == 302 and plain.url == url("table", lobby_table)
    assert "La partie n'a pas commencé." in text_of(client.get(plain.url))
    assert snapshot(lobby_table) == before
