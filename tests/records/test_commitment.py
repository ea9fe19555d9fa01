"""A commitment to each deal, published before the bidding, never changed afterwards,
and the deck and salt revealed only once the hand is over (games/rules/records.py)."""

from __future__ import annotations

import pytest

from games import rules as engine
from games.tables.models import Hand
from games.tables.verification import verify_table
from tests.factories import act, play_to_the_end, seated_user, started_table
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db


def test_a_dealt_hand_commits_to_its_exact_deck_with_a_fresh_salt():
    table = started_table()
    hand = table.current_hand

    assert len(hand.salt) == 32 and len(hand.commitment) == 64
    assert hand.commitment == engine.commitment(hand.deck_list, hand.salt)
    other = started_table()  # the same fixed deck would give the same hash without a salt
    assert other.current_hand.salt != hand.salt


def test_the_commitment_is_on_the_table_page_before_anyone_bids_and_the_salt_is_not():
    table = started_table()
    hand = table.current_hand
    page = client_for(seated_user(table, 0)).get(f"/tables/{table.pk}/").content.decode()

    assert 'data-phase="bidding"' in page
    assert f'<code class="commitment-short">{hand.commitment[:12]}</code>' in page
    assert f'<code class="commitment-full">{hand.commitment}</code>' in page
    assert hand.salt not in page
    board = client_for(seated_user(table, 1)).get(f"/tables/{table.pk}/plateau/").content
    assert hand.commitment.encode() in board and hand.salt.encode() not in board


def test_commitments_never_change_while_the_game_is_played():
    table = started_table()
    first = table.current_hand
    act(table, "pass")  # a move saves the table, and the hand once the contract is known
    play_to_the_end(table, seed=3)

    hands = list(Hand.objects.filter(game__table=table).order_by("number"))
    assert len(hands) > 1
    assert (hands[0].salt, hands[0].commitment) == (first.salt, first.commitment)
    for hand in hands:
        assert hand.commitment == engine.commitment(hand.deck_list, hand.salt)
    assert verify_table(table) == []


def test_the_model_refuses_to_save_a_deal_again():
    hand = started_table().current_hand
    hand.commitment = "0" * 64
    with pytest.raises(ValueError, match="never changed"):
        hand.save()
    with pytest.raises(ValueError, match="never changed"):
        hand.save(update_fields=["commitment"])
    with pytest.raises(ValueError, match="never changed"):
        hand.save(update_fields=["deck", "ended"])


def test_belote_verify_names_a_hand_whose_salt_no_longer_matches():
    table = started_table()
    Hand.objects.filter(pk=table.current_hand_id).update(salt="ab" * 16)

    assert verify_table(table) == [
        "game 1 hand 1: the stored deck and salt do not match its commitment"
    ]


def test_a_hand_dealt_before_commitments_says_so_honestly():
    table = started_table()
    Hand.objects.filter(pk=table.current_hand_id).update(salt="", commitment="")
    page = client_for(seated_user(table, 0)).get(f"/tables/{table.pk}/").content.decode()

    assert "Donne distribuée avant la vérification" in page
    assert verify_table(table) == []


def test_the_deck_and_salt_are_revealed_in_the_history_once_the_hand_is_over_only():
    table = started_table()
    hand = table.current_hand
    client = client_for(seated_user(table, 0))
    assert client.get(f"/tables/{table.pk}/donnes/1/1/").status_code == 404
    assert client.get(f"/tables/{table.pk}/donnes/1/1/enregistrement.json").status_code == 404

    act(table, "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass")  # all pass
    page = client.get(f"/tables/{table.pk}/donnes/1/1/").content.decode()

    assert f'<code id="revealed-salt">{hand.salt}</code>' in page
    assert f'<code id="revealed-commitment">{hand.commitment}</code>' in page
    assert " ".join(hand.deck_list) in page
