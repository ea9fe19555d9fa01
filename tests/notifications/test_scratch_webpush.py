import pytest

from accounts.models import Notify
from games.notifications.channels.webpush import PUSHED
from tests.notifications.conftest import run_tasks, to_act

pytestmark = pytest.mark.django_db


def test_a_turn_is_pushed_once_to_the_player_to_act(start_async):
    PUSHED.clear()
    table = start_async(Notify.NEVER)
    run_tasks()
    run_tasks()
    assert [(to_act(table).pk, table.pk, table.version)] == PUSHED
