"""Game records (``belote-record/1``, games/rules/records.py, docs/records.md) of stored
hands and games, and a tournament's archive of them.

Only finished hands go in a record: a hand still being played (or cut short by a
forfeit) is neither in a game's record nor downloadable, so a record never reveals a deck
before its hand is over. Who may download one is the views' business (``may_see``).
"""

from __future__ import annotations

import io
import json
import zipfile
from collections import defaultdict
from collections.abc import Iterable

from games import rules as engine
from games.tables.models import Action, Game, Hand, Table

# A tournament's archive is built in memory: this many games at most (a game's record is
# a few tens of kilobytes).
MAX_ARCHIVE_GAMES = 2_000


def _actions_by_hand(hands: list[Hand]) -> dict[int, list[str]]:
    """Each hand's moves, in order, as the referee writes them: the seat, then the move."""
    rows = (
        Action.objects.filter(hand__in=hands)
        .order_by("seq")
        .values_list("hand_id", "seat", "payload")
    )
    moves: dict[int, list[str]] = defaultdict(list)
    for hand_id, seat, payload in rows:
        if "action" in payload:
            prefix = f"{engine.SEATS[seat]} " if seat is not None else ""
            moves[hand_id].append(prefix + payload["action"])
    return moves


def _hand(hand: Hand, actions: list[str]) -> dict:
    return {
        "number": hand.number,
        "dealer": engine.SEATS[hand.dealer],
        "deck": hand.deck_list,
        "salt": hand.salt or None,
        "commitment": hand.commitment or None,
        "actions": actions,
        "result": {
            "ended": hand.ended,
            "points": {"NS": hand.points_ns, "EW": hand.points_ew},
            "made": hand.made,
            "litige": hand.litige,
            "capot": engine.TEAMS[hand.capot] if hand.capot is not None else None,
            "held": hand.held,
        },
    }


def _header(table: Table, game: Game, kind: str) -> dict:
    return {
        "format": engine.RECORD_FORMAT,
        "kind": kind,
        "table": table.pk,
        "game": game.number,
        "preset": table.preset,
        "options": table.options or {},
        "rules": table.rules.to_dict(),
    }


def hand_record(table: Table, hand: Hand) -> dict:
    """The record of one finished hand."""
    if not hand.is_over:
        raise ValueError("only a finished hand has a record")
    return {
        **_header(table, hand.game, "hand"),
        "hands": [_hand(hand, _actions_by_hand([hand])[hand.pk])],
    }


def game_record(table: Table, game: Game) -> dict:
    """The record of a game: its finished hands, and its score after them."""
    hands = list(game.hands.exclude(ended="").order_by("number"))
    moves = _actions_by_hand(hands)
    over = game.winner is not None
    # A game lost on time ends during a hand that is never finished (service._forfeit).
    forfeit = over and game.hands.filter(ended="").exists()
    return {
        **_header(table, game, "game"),
        "first_dealer": engine.SEATS[game.first_dealer],
        "before": {"NS": 0, "EW": 0, "held": 0},
        "hands": [_hand(hand, moves[hand.pk]) for hand in hands],
        "after": {
            "NS": game.score_ns,
            "EW": game.score_ew,
            "held": game.held,
            "winner": engine.TEAMS[game.winner] if over else None,
            "forfeit": forfeit,
        },
    }


def record_bytes(record: dict) -> bytes:
    return json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")


def game_file_name(table: Table, game: Game) -> str:
    return f"table-{table.pk}-partie-{game.number}.json"


def hand_file_name(table: Table, hand: Hand) -> str:
    return f"table-{table.pk}-partie-{hand.game.number}-donne-{hand.number}.json"


def archive(games: Iterable[tuple[Table, Game]]) -> bytes:
    """A zip of the records of ``games`` (at most ``MAX_ARCHIVE_GAMES``)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        for count, (table, game) in enumerate(games):
            if count >= MAX_ARCHIVE_GAMES:
                break
            zipped.writestr(game_file_name(table, game), record_bytes(game_record(table, game)))
    return buffer.getvalue()
