"""Play now: one click from the home page to a live game, against bots or with friends.

The choices are the player's own, read from the latest table they created: its preset and
target, and the level of its bots (classique in 1000 points against confirmed bots the
first time). Nothing new is stored for that: a table says it all.

*Jouer maintenant* creates a live table, seats the player at South and three bots, and
deals the first hand (``lobby.create_private_table`` then ``lobby.start``, one
transaction). *Jouer entre amis* creates the same table left in the lobby, its other seats
free for the friends the invitation link brings (bots take the seats still free when the
player starts).

The bound: a quick table is marked by a lobby action (``quick_bots`` or ``quick_friends``,
games/tables/writes.py's log, no new column), and while the player has an unfinished one
of that kind, another click leads back to it instead of creating a table. A player
therefore holds at most one quick game against bots and one quick table for friends at
a time, however often they click. The player's row is locked while deciding, so that two
clicks at once do not make two tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from games.rules import PRESET_TARGETS, PRESETS
from games.tables import lobby
from games.tables.models import BotLevel, Pace, Table
from games.tables.writes import append_action

DEFAULT_PRESET = "classique"
DEFAULT_TARGET = 1000
DEFAULT_LEVEL = BotLevel.HEURISTIC
BOTS = "quick_bots"
FRIENDS = "quick_friends"
UNFINISHED = (Table.Status.LOBBY, Table.Status.PLAYING)


@dataclass(frozen=True)
class Choices:
    preset: str
    target: int
    bot_level: str


@dataclass(frozen=True)
class QuickTable:
    table: Table
    created: bool  # False: the player's unfinished quick table, found again


def last_choices(user) -> Choices:
    """The preset, target and bot level of the latest table ``user`` created.

    The level is that of its bots if any sit there (chosen seat by seat), else the one the
    table fills its free seats with."""
    table = (
        Table.objects.filter(created_by=user)
        .order_by("-created_at", "-pk")
        .prefetch_related("seats")
        .first()
    )
    if table is None or table.preset not in PRESETS:
        return Choices(DEFAULT_PRESET, DEFAULT_TARGET, DEFAULT_LEVEL)
    target = table.rules.target
    if target not in PRESET_TARGETS[table.preset]:
        target = PRESETS[table.preset].target
    levels = [seat.bot_level for seat in table.seats.all() if seat.bot_level]
    level = levels[0] if levels else table.bot_level
    if level not in BotLevel.values:
        level = DEFAULT_LEVEL
    return Choices(table.preset, target, level)


def play_now(*, user) -> QuickTable:
    """A live game against three bots, its first hand dealt (or the one already going)."""
    return _quick_table(user, BOTS)


def play_with_friends(*, user) -> QuickTable:
    """A live table in the lobby for friends (or the one already waiting)."""
    return _quick_table(user, FRIENDS)


def unfinished_quick_table(user, kind: str) -> Table | None:
    return (
        Table.objects.filter(created_by=user, status__in=UNFINISHED, actions__kind=kind)
        .order_by("-pk")
        .first()
    )


def _quick_table(user, kind: str) -> QuickTable:
    with transaction.atomic():
        # Two clicks at once: the second waits here, then finds the first one's table.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        existing = unfinished_quick_table(user, kind)
        if existing is not None:
            return QuickTable(existing, created=False)
        choices = last_choices(user)
        table = lobby.create_private_table(
            created_by=user,
            preset=choices.preset,
            target=choices.target,
            pace=Pace.LIVE,
            fill_with_bots=True,
            bot_level=choices.bot_level,
            seat=lobby.SOUTH,
        )
        table.version = append_action(table, None, user, kind, {})
        table.save(update_fields=["version", "updated_at"])
        if kind == BOTS:
            lobby.start(table=table, by=user)
            table.refresh_from_db()
    return QuickTable(table, created=True)
