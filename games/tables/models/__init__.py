"""The models of a table's life, in the Django app ``games``: ``table`` (the table, its
seats, invitations and visits) and ``play`` (games, hands, tricks, the action log)."""

from games.tables.models.play import Action, Game, Hand, Trick
from games.tables.models.table import (
    ASYNC_MOVE_SECONDS,
    FORFEIT_AFTER,
    LIVE_MOVE_SECONDS,
    PRESET_CHOICES,
    SEAT_CHOICES,
    SHOWN_USER_FIELDS,
    TEAM_CHOICES,
    BotLevel,
    Invitation,
    InvitationVia,
    Pace,
    Seat,
    Table,
    TableStatus,
    TableVisit,
    TimeoutPolicy,
    new_invite_token,
    seats_changed,
)

__all__ = [
    "ASYNC_MOVE_SECONDS",
    "FORFEIT_AFTER",
    "LIVE_MOVE_SECONDS",
    "PRESET_CHOICES",
    "SEAT_CHOICES",
    "SHOWN_USER_FIELDS",
    "TEAM_CHOICES",
    "Action",
    "BotLevel",
    "Game",
    "Hand",
    "Invitation",
    "InvitationVia",
    "Pace",
    "Seat",
    "Table",
    "TableStatus",
    "TableVisit",
    "TimeoutPolicy",
    "Trick",
    "new_invite_token",
    "seats_changed",
]
