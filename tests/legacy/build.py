"""Build the legacy fixture database (tests/legacy/1215dc4.sql) with the code of commit 1215dc4.

This script belongs to the code it was written for: it imports the modules as they were
before the redesign of issue 14 (games/service.py, games/lobby.py, ...), so it runs in a
checkout of 1215dc4 only, not in the current tree:

    git worktree add /tmp/old 1215dc4
    cp tests/legacy/build.py /tmp/old/tests/legacy_build.py
    cd /tmp/old && make venv
    .venv/bin/python tests/legacy_build.py /tmp/legacy.sqlite3
    sqlite3 /tmp/legacy.sqlite3 .dump > <this tree>/tests/legacy/1215dc4.sql

and for PostgreSQL (tests/legacy/1215dc4.postgres.sql), in an empty database:

    createdb -h 127.0.0.1 -U postgres belote_legacy
    .venv/bin/python tests/legacy_build.py postgres://postgres@127.0.0.1:5432/belote_legacy
    pg_dump -h 127.0.0.1 -U postgres --inserts --no-owner --no-privileges belote_legacy \
        > <this tree>/tests/legacy/1215dc4.postgres.sql

Everything is made through the services of that code, as a real site would have made it:
players (one on vacation), a club, tables in the lobby, in play and finished (humans only,
so that ratings moved; and a finished bot game), a rematch, a tournament with its first
round opened, in-app notifications, and the tasks the worker had queued. The decks are
shuffled as on a real site, so the number of hands and actions differs from one build to
the next.
"""

from __future__ import annotations

import datetime
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(out: str) -> None:
    """``out`` is a SQLite file (made anew) or a database URL (an empty database)."""
    if "://" in out:
        os.environ["DATABASE_URL"] = out
    else:
        Path(out).unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{out}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "belote_site.settings.dev"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    build()


def build() -> None:
    from django.db.models import Max
    from django_tasks_db.models import DBTaskResult

    from accounts import clubs, vacations
    from accounts.models import ClubRole, User
    from games import lobby, notifications, service, tournaments
    from games.bots import choose_action
    from games.models import BotLevel, Notification, Pace, Table, Tournament
    from games.selectors import hand_state

    def user(name: str, **fields) -> User:
        made = User.objects.create_user(
            username=name, email=f"{name}@example.org", password="belote-legacy", **fields
        )
        return made

    names = ["alice", "bruno", "chloe", "denis", "emma", "fanny", "gaspard", "hugo"]
    people = {name: user(name, display_name=name.capitalize()) for name in names}
    people["chloe"].display_name = "Chloé"
    people["chloe"].save(update_fields=["display_name"])
    staff = user("arbitre", is_staff=True, display_name="Arbitre")
    a, b, c, d, e, f, g, h = (people[name] for name in names)

    club = clubs.found_club(name="Club de la Place", slug="club-de-la-place", owner=a)
    clubs.add_member(club=club, by=a, user=staff, role=ClubRole.ORGANISER)
    for member in (b, c, d, e, f, g, h):
        clubs.add_member(club=club, by=a, user=member)

    rng = random.Random(14)

    def play(table_id: int, moves: int | None = None) -> None:
        """Seated humans play the heuristic bot's move until the end (or ``moves``)."""
        done = 0
        while moves is None or done < moves:
            service.play_bots(table_id)
            table = Table.objects.select_related("current_hand").get(pk=table_id)
            if table.status != Table.Status.PLAYING:
                return
            state = hand_state(table)
            seat = table.seats.get(position=state.turn)
            action = choose_action(state, BotLevel.HEURISTIC, rng)
            service.submit(
                table_id=table_id, actor=seat.user, action=action, expected_version=table.version
            )
            done += 1

    def seat_four(table, players) -> None:
        for position, player in zip((3, 0, 1), players, strict=True):
            lobby.invite_user(table=table, by=table.created_by, username=player.username)
            lobby.take_seat(table=table, user=player, position=position)

    # In the lobby: a public table with one player, a club table with bots waiting.
    lobby.create_private_table(created_by=e, preset="classique", target=1000)
    lobby.create_private_table(
        created_by=staff, preset="moderne", target=500, fill_with_bots=True, club=club
    )

    # Finished among four humans (ratings move), then a rematch in play.
    done = lobby.create_private_table(created_by=a, preset="moderne", target=500)
    seat_four(done, (b, c, d))
    lobby.start(table=done, by=a)
    play(done.pk)
    lobby.rematch(table_id=done.pk, by=a)
    play(done.pk, moves=11)

    # In play, asynchronous, a day per move: a few tricks in.
    slow = lobby.create_private_table(
        created_by=e, preset="belote_com", target=501, pace="async", move_seconds=86400
    )
    seat_four(slow, (f, g, h))
    lobby.start(table=slow, by=e)
    play(slow.pk, moves=9)

    # A finished game against the bots, and a live one waiting for its human.
    bots = lobby.create_private_table(
        created_by=b, preset="moderne", target=500, fill_with_bots=True
    )
    lobby.start(table=bots, by=b)
    play(bots.pk)
    live = lobby.create_private_table(
        created_by=c, preset="classique", target=1000, fill_with_bots=True
    )
    lobby.start(table=live, by=c)
    service.play_bots(live.pk)

    # A club tournament of four pairs, its first round open.
    cup = Tournament.objects.create(
        club=club,
        name="Coupe d'hiver",
        format=Tournament.Format.SWISS,
        preset="classique",
        options={"target": 500},
        pace=Pace.ASYNC,
        move_seconds=3600,
        round_hours=48,
        rounds=2,
    )
    for one, two in ((a, b), (c, d), (e, f), (g, h)):
        tournaments.register(tournament=cup, user=one, partner_username=two.username)
    tournaments.start(tournament=cup, by=staff)

    # Hugo is away next month.
    today = datetime.date.today()
    vacations.declare_vacation(
        user=h, start=today + datetime.timedelta(days=30), end=today + datetime.timedelta(days=33)
    )

    # The worker ran the turn notifications (they queue the reminders); one was seen.
    for table in Table.objects.filter(pace=Pace.ASYNC, status=Table.Status.PLAYING):
        notifications.notify_turn_task.call(table_id=table.pk, version=table.version)
    seen = Notification.objects.order_by("pk").first()
    notifications.table_seen(seen.user_id, seen.table_id)

    # The queue keeps one task of each kind, the latest: enough to show that every queued
    # task's path still imports after the redesign, without hundreds of rows.
    latest = DBTaskResult.objects.values("task_path").annotate(last=Max("enqueued_at"))
    keep = [
        DBTaskResult.objects.filter(task_path=row["task_path"], enqueued_at=row["last"])
        .values_list("pk", flat=True)
        .first()
        for row in latest
    ]
    DBTaskResult.objects.exclude(pk__in=keep).delete()


if __name__ == "__main__":
    main(sys.argv[1])
