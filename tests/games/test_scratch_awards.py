import pytest

from games import scratch_awards
from games.models import Game
from tests.factories import play_to_the_end, started_table

pytestmark = pytest.mark.django_db


def test_a_finished_game_is_heard_once():
    table = play_to_the_end(started_table(options={"target": 500}, preset="moderne"))
    assert scratch_awards.ended == [Game.objects.get(table=table).pk]
