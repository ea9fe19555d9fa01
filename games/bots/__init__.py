"""Bots: the action a computer player takes.

games/bots/levels.py lists the levels (one list for the models, the forms and the
worker); games/bots/heuristic.py is the rule-based player. Bots import the engine only.
"""

from games.bots.heuristic import Knowledge, knowledge_of, read_view
from games.bots.levels import BOT_LEVELS, LEVELS, Level, choose_action

__all__ = [
    "BOT_LEVELS",
    "LEVELS",
    "Knowledge",
    "Level",
    "choose_action",
    "knowledge_of",
    "read_view",
]
