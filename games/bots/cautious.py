"""A scratch level: always the first legal action (a trial of "where to add a bot")."""

from __future__ import annotations

import random

from games.rules import Action, HandState, legal_actions


def cautious_action(state: HandState, rng: random.Random) -> Action:
    return legal_actions(state)[0]
