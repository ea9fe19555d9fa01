"""The models of the app ``games``, each concern's in its own package; Django loads them
from here, and ``games.models`` still names them all (tests, the benches, the admin).

games/tables/models/ (tables, seats, games, hands, tricks, the action log, visits),
games/notifications/models.py, games/ratings/models.py, games/tournaments/models.py.
"""

from games.notifications.models import Notification, NotificationKind, ReminderKind, ReminderLog
from games.ratings.models import RatingChange
from games.tables.models import *  # noqa: F403
from games.tables.models import __all__ as _table_names
from games.tournaments.models import (
    ROUND_HOURS,
    MatchResult,
    Tournament,
    TournamentFormat,
    TournamentMatch,
    TournamentRound,
    TournamentStatus,
    TournamentTeam,
)

__all__ = [
    *_table_names,
    "ROUND_HOURS",
    "MatchResult",
    "Notification",
    "NotificationKind",
    "RatingChange",
    "ReminderKind",
    "ReminderLog",
    "Tournament",
    "TournamentFormat",
    "TournamentMatch",
    "TournamentRound",
    "TournamentStatus",
    "TournamentTeam",
]
