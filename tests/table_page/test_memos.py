"""What the board keeps from one request to the next (games/tables/memo.py): the engine state of
a table version, the finished hands of a hand, the rendered score sheet and card faces.

A kept value is never served for another version (a move, a new hand, the end of the
game), never kept from a transaction that may still roll back, and never carries one
viewer's cards to another: the state is the whole hand, but each board is still built
from ``view(state, seat)`` of its own viewer.
"""

from __future__ import annotations

import copy
import random
import re

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from games import rules as engine
from games.models import Action, Table
from games.tables import memo, service
from games.tables.selectors import hand_actions, hand_state, table_state
from tests.table_page.helpers import (
    act,
    board_of,
    client_for,
    finish_hand,
    play_first_legal,
    state_of,
    take_at_once,
    url,
)
from tests.table_page.test_board import assert_shows_only_own_cards

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+')


def board_html(client, table: Table) -> str:
    response = client.get(url("board", table), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return CSRF.sub(r"\1", response.content.decode())


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run the on-commit callbacks of what the block does, as a real commit would: the
    memos keep nothing before that."""

    def committed():
        return django_capture_on_commit_callbacks(execute=True)

    return committed


def test_a_memo_is_kept_only_once_committed():
    kept = memo.Memo(4)
    with transaction.atomic():
        assert kept.get_or_compute("key", lambda: "value") == "value"
        assert kept.get("key") is None  # not before the commit
    # pytest's transaction never commits: the value was never kept.
    assert kept.get("key") is None
    assert kept.get_or_compute("other", lambda: 1) == 1


def test_a_memo_forgets_the_least_recently_used():
    kept = memo.Memo(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)


def test_after_each_move_the_board_shows_the_new_version_not_a_kept_one(table, players, committed):
    client = client_for(players[2])
    for _ in range(12):
        with committed():
            before = board_html(client, table)
            play_first_legal(table)
        table.refresh_from_db()
        after = board_html(client, table)
        assert f'data-version="{table.version}"' in after and after != before
        # The same as a board built from nothing.
        memo.clear_all()
        assert board_html(client, table) == after


@pytest.mark.parametrize("preset", ["annonces", "moderne"])
def test_kept_seat_boxes_make_the_same_boards_as_fresh_ones_for_a_whole_game(
    start, players, creator, committed, preset
):
    """A seat's box is kept by how it looks (games/tables/board.py ``SeatShown.look``) and shared
    by every board where a seat looks the same: for every viewer at every move of a game,
    the board with the kept boxes is the one rendered from nothing. Across viewers too:
    each player's boxes (their own "vous", the others' card backs) come before the
    others' and the spectator's in the same memo."""
    table = start(preset)
    viewers = [client_for(user) for user in [*players, creator]]
    rng = random.Random(7)
    moves = 0
    while table.status == Table.Status.PLAYING and moves < 60:
        with committed():
            action = rng.choice(engine.legal_actions(state_of(table)))
            act(table, str(action))
        table.refresh_from_db()
        moves += 1
        # With the boxes kept at the earlier moves, by any viewer ...
        kept = [board_html(client, table) for client in viewers]
        memo.clear_all()
        fresh = [board_html(client, table) for client in viewers]
        assert kept == fresh, f"move {moves}"
        # ... keep those of this move, the spectator's first (committed: kept).
        with committed():
            for client in reversed(viewers):
                board_html(client, table)
    assert moves == 60 or table.status == Table.Status.FINISHED


def test_the_kept_state_is_the_one_replayed_from_the_log(table, committed):
    for _ in range(9):
        with committed():
            play_first_legal(table)
    table.refresh_from_db()
    kept = table_state(table)
    memo.clear_all()
    assert table_state(table) == kept == state_of(table)


def _known_before(table: Table, committed) -> engine.HandState:
    """Forget every memo, then read the table's hand at the version before (as this
    process would have for the board of the previous move), committed: kept."""
    memo.clear_all()
    earlier = copy.copy(table)
    earlier.version -= 1
    with committed():
        return table_state(earlier)


@pytest.mark.parametrize("preset", ["classique", "annonces", "moderne"])
def test_a_state_built_on_the_version_before_is_the_one_replayed_from_the_log(
    start, committed, preset
):
    """Knowing the hand at the version before, ``table_state`` reads only what was logged
    since and applies it: at every move of a game, through the new hands, the state is
    the one the whole log replays, and the earlier state is left as it was."""
    table = start(preset)
    rng = random.Random(23)
    moves = 0
    hands = set()
    while table.status == Table.Status.PLAYING and moves < 80:
        with committed():
            act(table, str(rng.choice(engine.legal_actions(state_of(table)))))
        table.refresh_from_db()
        moves += 1
        hands.add(table.current_hand_id)
        before = _known_before(table, committed)
        replayed_before = copy.deepcopy(before)
        assert table.current_hand is not None  # read: only the log is counted below
        with CaptureQueriesContext(connection) as queries:
            state = table_state(table)
        assert state == hand_state(table), f"move {moves}"
        assert before == replayed_before
        # One query, of the log after the version before (the whole log has no lower bound).
        assert len(queries) == 1, [q["sql"] for q in queries]
        assert re.search(rf'"seq" > {table.version - 1}\b', queries[0]["sql"])
    assert len(hands) >= 2  # through a new hand


def test_a_version_that_logged_no_move_leaves_the_state_as_it_was(table, committed):
    """A version may log no move of the engine (a forfeit is logged with the hand, some
    changes log nothing): built on the version before, the state stays the same."""
    play_first_legal(table, 3)
    table.refresh_from_db()
    moves = hand_actions(table.current_hand)
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db()
    assert _known_before(table, committed) == table_state(table) == hand_state(table)
    service.append_action(table, table.current_hand, None, "forfeit", {"team": 0, "winner": 1})
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db()
    assert _known_before(table, committed) == table_state(table) == hand_state(table)
    assert hand_actions(table.current_hand) == moves


def test_each_viewer_still_sees_only_their_own_cards(table, players, creator, committed):
    take_at_once(table)
    play_first_legal(table, 2)
    state = state_of(table)
    with committed():
        for seat, player in enumerate(players):  # one after the other, the memos warm
            response = client_for(player).get(url("board", table), HTTP_HX_REQUEST="true")
            assert_shows_only_own_cards(response, state, seat)
        response = client_for(creator).get(url("board", table), HTTP_HX_REQUEST="true")
        assert_shows_only_own_cards(response, state, None)


def test_the_score_sheet_gets_the_finished_hand(table, players, committed):
    client = client_for(players[0])
    with committed():
        empty = board_html(client, table)
        finish_hand(table)
    assert 'data-hand="1"' not in empty
    table.refresh_from_db()
    with committed():
        sheet = board_html(client, table)
        assert 'data-hand="1"' in sheet
        assert board_html(client, table) == sheet  # the kept sheet, same HTML


def test_the_sheet_is_kept_per_language(table, players, committed):
    english = players[1]
    english.language = "en"
    english.save()
    with committed():
        finish_hand(table)
    table.refresh_from_db()
    with committed():
        french = board_html(client_for(players[0]), table)
        in_english = board_html(client_for(english), table)
    assert "Feuille de marque" in french and "Feuille de marque" not in in_english


def test_a_forfeited_game_still_shows_its_board(table, players):
    """The ``forfeit`` action is logged with the hand but is no move of the engine."""
    play_first_legal(table, 3)
    table.refresh_from_db()
    hand = table.current_hand
    moves = hand_actions(hand)
    service.append_action(table, hand, None, "forfeit", {"team": 0, "winner": 1, "timeouts": 1})
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED, version=table.version + 1, turn=None
    )
    assert Action.objects.filter(hand=hand, kind="forfeit").exists()
    assert hand_actions(hand) == moves
    response = client_for(players[0]).get(url("board", table), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert board_of(response).cards


def test_a_kept_card_form_speaks_each_viewer_s_language_and_carries_their_page_s_token(
    table, players, committed
):
    """The forms of the hand's cards are kept per card, table and language
    (games/templatetags/tables.py ``hand_card``): the same cards in another language get
    their own names, and every form still posts the board's version with its own page's
    token."""
    take_at_once(table)
    speaker = players[state_of(table).turn]
    french, english = client_for(speaker), client_for(speaker)
    english.cookies["django_language"] = "en"
    speaker.language = ""
    speaker.save(update_fields=["language"])
    with committed():
        pages = [french.get(url("board", table), HTTP_HX_REQUEST="true") for _ in range(2)]
    pages.append(english.get(url("board", table), HTTP_HX_REQUEST="true"))
    table.refresh_from_db()
    for page in pages:
        forms = page.content.decode().split('hx-post="' + url("play", table))[1:]
        assert len(forms) == 8
        token = page.wsgi_request.META["CSRF_COOKIE"]
        for form in forms:
            assert f'name="version" value="{table.version}"' in form
            sent = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
            assert sent != token and len(sent) == 64  # masked, as {% csrf_token %} does
    names = [set(board_of(page).labels.values()) for page in pages]
    assert names[0] == names[1] and names[0].isdisjoint(names[2])
    assert any(" of " in name for name in names[2])
