"""Bots: the action a computer player takes (see games/bots/heuristic.py)."""

from games.bots.heuristic import BOT_LEVELS, Knowledge, choose_action, knowledge_of, read_view

__all__ = ["BOT_LEVELS", "Knowledge", "choose_action", "knowledge_of", "read_view"]
