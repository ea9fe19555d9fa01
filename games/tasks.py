"""Background work (Django tasks, django-tasks-db backend, run by ``manage.py db_worker``).

Every task re-reads the table and checks its version, so running one twice or late is
harmless.
"""

from __future__ import annotations

from django.tasks import task

from games import service


@task()
def play_bot_move_task(table_id: int, version: int) -> None:
    service.play_bot_move(table_id, version)
