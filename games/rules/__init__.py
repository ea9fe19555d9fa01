"""The pure rules engine of belote: no Django, no I/O, no randomness.

The deck comes in shuffled; everything else follows from (rules, dealer, deck, actions).
"""

from .actions import Action, IllegalAction
from .announces import Announce
from .cards import MODES, SEATS, SUITS, TEAMS, card_of, code_of, name_fr, parse_cards
from .game import Game, HandScore, new_game, record_hand, score, start_hand
from .hand import (
    BIDDING,
    DONE,
    PLAYING,
    HandState,
    Trick,
    apply,
    apply_all,
    deal,
    legal_actions,
    legal_cards,
    replay,
    start_with_contract,
)
from .options import InvalidOptions, Rules
from .presets import PRESET_DOCS, PRESET_TARGETS, PRESETS, rules_for
from .records import FORMAT as RECORD_FORMAT
from .records import RecordRefused, Verified, commitment, verify_bytes, verify_record
from .view import view

__all__ = [
    "BIDDING",
    "DONE",
    "MODES",
    "PLAYING",
    "PRESETS",
    "PRESET_DOCS",
    "PRESET_TARGETS",
    "RECORD_FORMAT",
    "SEATS",
    "SUITS",
    "TEAMS",
    "Action",
    "Announce",
    "Game",
    "HandScore",
    "HandState",
    "IllegalAction",
    "InvalidOptions",
    "RecordRefused",
    "Rules",
    "Trick",
    "Verified",
    "apply",
    "apply_all",
    "card_of",
    "commitment",
    "code_of",
    "deal",
    "legal_actions",
    "legal_cards",
    "name_fr",
    "new_game",
    "parse_cards",
    "record_hand",
    "replay",
    "rules_for",
    "score",
    "start_hand",
    "start_with_contract",
    "verify_bytes",
    "verify_record",
    "view",
]
