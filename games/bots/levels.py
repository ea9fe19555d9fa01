"""The bot levels, one list: the model's choices (``games.models.BotLevel``), the forms'
choices and the worker's ``choose_action`` all read ``LEVELS``.

A level is a name (stored in ``Table.bot_level`` and ``Seat.bot_level``), a French label
(translated where it is shown) and its ``act(state, rng)``: the action of the seat to act,
``state.turn``. Every level keeps the rule of games/bots/heuristic.py: it knows what the
seat may know, through ``view`` (``knowledge_of``) or ``legal_actions``.

- ``beginner``: the heuristic player's bidding, but its card play slips: about one card
  in three is a legal card drawn at random instead of the considered one
  (``BEGINNER_SLIP``). It plays like someone who knows the rules, not yet the game.
- ``random``: a uniformly random legal action (depends on the acting seat's cards only).
  Offered last, for tests and for curiosity; it was the only beginner level once.
- ``heuristic``: the rule-based player of games/bots/heuristic.py; deterministic.
- ``expert``: the search player of games/bots/expert.py (deals drawn from what the seat
  knows, each action scored by the hand's score over them); deterministic given its rng.

The bots import the engine only, not Django: the labels are marked for translation here
(the engine's ``gettext_noop``, read by ``makemessages``) and translated by the model's choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.bots.expert import expert_action
from games.bots.heuristic import heuristic_action, knowledge_of
from games.rules import Action, HandState, legal_actions
from games.rules.actions import PLAY_, gettext_noop

__all__ = ["BOT_LEVELS", "LEVELS", "Level", "choose_action"]


@dataclass(frozen=True)
class Level:
    name: str
    label: str  # French; the models translate it
    act: Callable[[HandState, random.Random], Action]
    seat_name: str = ""  # the bot at a seat, in words ("robot confirmé"); translated too


def random_action(state: HandState, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))


def heuristic(state: HandState, rng: random.Random) -> Action:
    return heuristic_action(knowledge_of(state))


BEGINNER_SLIP = 0.35  # the share of card plays where the beginner plays at random


def beginner(state: HandState, rng: random.Random) -> Action:
    k = knowledge_of(state)
    action = heuristic_action(k)
    if action.kind == PLAY_ and rng.random() < BEGINNER_SLIP:
        return rng.choice([a for a in k.legal if a.kind == PLAY_])
    return action


LEVELS: tuple[Level, ...] = (
    Level("beginner", gettext_noop("Débutant"), beginner, gettext_noop("robot débutant")),
    Level("heuristic", gettext_noop("Confirmé"), heuristic, gettext_noop("robot confirmé")),
    Level("expert", gettext_noop("Expert"), expert_action, gettext_noop("robot expert")),
    Level("random", gettext_noop("Aléatoire"), random_action, gettext_noop("robot aléatoire")),
)
BOT_LEVELS = tuple(level.name for level in LEVELS)
_BY_NAME = {level.name: level for level in LEVELS}


def choose_action(state: HandState, level: str, rng: random.Random) -> Action:
    """The action of the seat to act (``state.turn``) at this bot level."""
    try:
        return _BY_NAME[level].act(state, rng)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; expected one of {BOT_LEVELS}") from None
