"""Demo tables for local development (``manage.py belote_demo``), made through the service.

Alice gets a live table with three bots waiting for her move, an asynchronous table with
the other demo players, and a finished game whose hands can be replayed. The four demo
players form a club (Alice owns it, Bob organises it) with a club table of Bob's waiting
for players. Nothing is created twice: the tables are recognised by their creator, the
club by its address.
"""

from __future__ import annotations

import random

from accounts.clubs import service as clubs
from accounts.models import Club, ClubRole
from games.bots import choose_action
from games.tables import lobby, service
from games.tables.models import BotLevel, Table
from games.tables.selectors import hand_state

SOUTH = 2
DEMO_CLUB = "club-des-quatre"


def ensure_demo_tables(alice, others) -> int:
    """Create the demo tables if Alice has none; returns how many were created."""
    if Table.objects.filter(created_by=alice).exists():
        return 0
    # A live table with three bots: the bots play until it is Alice's turn.
    live = lobby.create_private_table(
        created_by=alice, preset="classique", target=1000, fill_with_bots=True
    )
    lobby.start(table=live, by=alice)
    service.play_bots(live.pk)

    # An asynchronous table among friends, a day per move.
    friends = lobby.create_private_table(
        created_by=alice, preset="belote_com", target=501, pace="async", move_seconds=86400
    )
    for position, user in zip((3, 0, 1), others, strict=False):
        lobby.invite_user(table=friends, by=alice, username=user.username)
        lobby.take_seat(table=friends, user=user, position=position)
    lobby.start(table=friends, by=alice)

    # A finished game against bots, Alice's moves chosen by the heuristic bot.
    done = lobby.create_private_table(
        created_by=alice, preset="moderne", target=500, fill_with_bots=True
    )
    lobby.start(table=done, by=alice)
    _play_to_the_end(done.pk, alice)
    return 3


def ensure_demo_club(alice, others) -> int:
    """The demo club and its club table, if missing; returns how many clubs were made."""
    if Club.objects.filter(slug=DEMO_CLUB).exists():
        return 0
    bob, *members = others
    club = clubs.found_club(
        name="Club des Quatre",
        slug=DEMO_CLUB,
        owner=alice,
        description="Le club des joueurs de démonstration : une table de club vous attend.",
    )
    clubs.add_member(club=club, by=alice, user=bob, role=ClubRole.ORGANISER)
    for user in members:
        clubs.add_member(club=club, by=bob, user=user)
    lobby.create_private_table(
        created_by=bob, preset="classique", target=1000, fill_with_bots=True, club=club
    )
    return 1


def _play_to_the_end(table_id: int, user) -> None:
    rng = random.Random(2026)
    while True:
        service.play_bots(table_id)
        table = Table.objects.select_related("current_hand").get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return
        action = choose_action(hand_state(table), BotLevel.HEURISTIC, rng)
        service.submit(
            table_id=table_id,
            actor=user,
            action=action,
            expected_version=table.version,
            notify_bots=False,
        )
