"""Game records (belote-record/1): they replay through the engine to the stored scores
for every preset, a tampered record is refused saying what does not match, a game in
play reveals no unfinished hand, and only who may see the table downloads them."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import rules as engine
from games.rules.records import RecordRefused, verify_record
from games.tables import records
from tests.factories import act, make_user, play_to_the_end, seated_user, started_table
from tests.records.helpers import game_record, played_record, tampered
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(db):
    """A classique table played to the end, and its game's record."""
    table = play_to_the_end(started_table(), seed=7)
    return table, game_record(table)


@pytest.fixture
def record(db) -> dict:
    return played_record(7)


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
def test_a_finished_games_record_replays_to_its_stored_scores(preset):
    table = play_to_the_end(started_table(preset=preset), seed=1)
    game = table.games.get()
    record = json.loads(records.record_bytes(game_record(table)))

    verified = verify_record(record)

    assert record["format"] == "belote-record/1"
    assert verified.hands == game.hands.count() == len(record["hands"])
    assert verified.committed == verified.hands and verified.uncommitted == []
    assert verified.scores == (game.score_ns, game.score_ew)
    assert verified.winner == engine.TEAMS[game.winner]
    for hand in game.hands.all():
        one = verify_record(records.hand_record(table, hand))
        assert one.kind == "hand" and one.committed == 1


def test_every_action_carries_its_seat(record):
    first = record["hands"][0]
    assert all(action.split()[0] in engine.SEATS for action in first["actions"])
    assert first["deck"][0] in first["deck"] and len(first["deck"]) == 32


def swap_two_cards(record):
    deck = record["hands"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]


def change_salt(record):
    record["hands"][0]["salt"] = "00" * 16


def other_seat(record):
    seat, *rest = record["hands"][0]["actions"][0].split()
    record["hands"][0]["actions"][0] = " ".join(
        [engine.SEATS[(engine.SEATS.index(seat) + 1) % 4], *rest]
    )


def more_points(record):
    record["hands"][0]["result"]["points"]["NS"] += 10


def other_winner(record):
    record["after"]["winner"] = "EW" if record["after"]["winner"] == "NS" else "NS"


def other_game_score(record):
    record["after"]["NS"] += 1


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (swap_two_cards, "donne 1 : le paquet et le sel ne correspondent pas à l'empreinte"),
        (change_salt, "donne 1 : le paquet et le sel ne correspondent pas à l'empreinte"),
        (other_seat, "donne 1 : l'action 1 ("),
        (more_points, "donne 1 : points : ("),
        (other_winner, "partie : gagnant :"),
        (other_game_score, "partie : score :"),
    ],
)
def test_a_tampered_record_is_refused_saying_what_does_not_match(record, change, says):
    with pytest.raises(RecordRefused) as refused:
        verify_record(tampered(record, change))
    assert says in str(refused.value)


def test_a_changed_card_played_is_refused(record):

    def play_another(record):
        actions = record["hands"][0]["actions"]
        index = next(i for i, a in enumerate(actions) if " play " in a)
        seat, _, card = actions[index].split()
        other = next(c for c in record["hands"][0]["deck"] if c != card)
        actions[index] = f"{seat} play {other}"

    with pytest.raises(RecordRefused, match="donne 1 : l'action .* n'est pas légale"):
        verify_record(tampered(record, play_another))


def test_a_game_in_play_reveals_no_unfinished_hand():
    table = started_table()
    act(table, *["pass"] * 8)  # hand 1 over (all passed): hand 2 is being played
    act(table, "pass")
    table.refresh_from_db()
    current = table.current_hand
    assert current.number == 2 and not current.is_over
    client = client_for(seated_user(table, 0))

    answer = client.get(f"/tables/{table.pk}/parties/1/enregistrement.json")

    assert answer.status_code == 200
    assert answer["Content-Disposition"] == f'attachment; filename="table-{table.pk}-partie-1.json"'
    record = json.loads(answer.content)
    assert [hand["number"] for hand in record["hands"]] == [1]
    text = answer.content.decode()
    assert current.salt not in text and current.deck not in text
    assert " ".join(current.deck_list) not in text and json.dumps(current.deck_list) not in text
    assert record["after"] == {"NS": 0, "EW": 0, "held": 0, "winner": None, "forfeit": False}
    assert verify_record(record).hands == 1
    assert client.get(f"/tables/{table.pk}/donnes/1/2/enregistrement.json").status_code == 404


def test_only_who_may_see_the_table_downloads_its_records_linked_from_the_history(finished):
    table, _ = finished
    paths = [
        f"/tables/{table.pk}/parties/1/enregistrement.json",
        f"/tables/{table.pk}/donnes/1/1/enregistrement.json",
    ]
    stranger = client_for(make_user())
    player = client_for(seated_user(table, 2))
    for path in paths:
        assert stranger.get(path).status_code == 404
        assert player.get(path).status_code == 200
        anonymous = Client().get(path)
        assert anonymous.status_code == 302 and "/comptes/" in anonymous["Location"]
    assert stranger.get(f"/tables/{table.pk}/parties/2/enregistrement.json").status_code == 404
    assert player.get(f"/tables/{table.pk}/parties/2/enregistrement.json").status_code == 404
    # The finished hand's history links both.
    page = client_for(seated_user(table, 0)).get(f"/tables/{table.pk}/donnes/1/1/").content.decode()
    assert f'href="/tables/{table.pk}/donnes/1/1/enregistrement.json"' in page
    assert f'href="/tables/{table.pk}/parties/1/enregistrement.json"' in page
