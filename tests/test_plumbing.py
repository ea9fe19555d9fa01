"""The infrastructure the game will rely on: the channel layer and the task queue.

Run once on the defaults (in-memory layer, SQLite) and once by .ci/run on Redis and
PostgreSQL, so both configurations of settings/base.py are exercised.
"""

import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.tasks import TaskResultStatus, task
from django.test import override_settings


@task
def add(a: int, b: int) -> int:
    return a + b


def test_channel_layer_delivers_a_group_message():
    layer = get_channel_layer()
    group = f"table-{uuid.uuid4().hex}"
    message = {"type": "table.changed", "version": 7}

    async def round_trip():
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        await layer.group_send(group, message)
        received = await layer.receive(channel)
        await layer.group_discard(group, channel)
        return received

    assert async_to_sync(round_trip)() == message


# transaction=True: the worker checks its connection between tasks, which would end the
# wrapping transaction of an ordinary django_db test.
@pytest.mark.django_db(transaction=True)
def test_tasks_are_stored_and_run_by_the_db_worker(keep_signal_handlers):
    result = add.enqueue(2, 3)
    assert result.status == TaskResultStatus.READY

    with override_settings(DEBUG=False):
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)

    result.refresh()
    assert result.status == TaskResultStatus.SUCCESSFUL
    assert result.return_value == 5
