"""The models of a table's life, in the Django app ``games``: ``table`` (the table, its
seats, invitations and visits), ``play`` (games, hands, tricks, the action log), ``chat``
(its messages and mutes) and ``analysis`` (a finished hand's analysis)."""

from games.tables.models.analysis import HandAnalysis
from games.tables.models.chat import MAX_CHAT_CHARS, ChatMessage, ChatMute
from games.tables.models.play import Action, Game, Hand, Trick
from games.tables.models.table import (
    ASYNC_MOVE_SECONDS,
    CHAT_FIELDS,
    FORFEIT_AFTER,
    LIVE_MOVE_SECONDS,
    PRESET_CHOICES,
    PRESET_LABELS,
    SEAT_CHOICES,
    SHOWN_USER_FIELDS,
    TEAM_CHOICES,
    BotLevel,
    ChatSpectators,
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
    "CHAT_FIELDS",
    "LIVE_MOVE_SECONDS",
    "MAX_CHAT_CHARS",
    "PRESET_CHOICES",
    "PRESET_LABELS",
    "SEAT_CHOICES",
    "SHOWN_USER_FIELDS",
    "TEAM_CHOICES",
    "Action",
    "BotLevel",
    "ChatMessage",
    "ChatMute",
    "ChatSpectators",
    "Game",
    "Hand",
    "HandAnalysis",
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
