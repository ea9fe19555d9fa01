"""``python -m games.rules.referee``: run a hand described in JSON, print the result.

Reads one JSON object on stdin, writes one on stdout. The format is documented in the
docs/rules.md ("Referee"); in short::

    {"preset": "classique", "options": {...}, "dealer": "N",
     "deck": "JH 9H ...",                              # 32 cards, top first; or
     "hands": {"N": "...", ...}, "contract": {"mode": "H", "taker": "E"},
     "actions": ["pass", "take", "play JH", "E play 9H", ...],
     "game": {"NS": 0, "EW": 0, "held": 0}}           # optional score before the hand

Exit 0 with the state; 1 with ``{"error": {"code", "message", "index", "action"}}`` at the
first illegal action; 2 for input that is not a valid description.

``python -m games.rules.referee --verify FILE...`` verifies game records instead (a JSON
record, or a zip archive of them such as a tournament's; ``-`` reads stdin): one line per
record, exit 0 if all verify, 1 if one is refused, 2 if a file cannot be read. See
games/rules/records.py and docs/records.md.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .actions import IllegalAction
from .announces import Announce
from .cards import MODES, SEATS, TEAMS, cards_of, code_of
from .description import BadInput, run, start
from .game import Game, record_hand, score
from .hand import DONE, HandState, legal_actions


def _announce(seat: int, a: Announce) -> dict[str, Any]:
    return {"seat": SEATS[seat], **a.to_dict()}


def describe(state: HandState, game: Game | None = None) -> dict[str, Any]:
    step = state.rules.step
    out: dict[str, Any] = {
        "phase": state.phase,
        "ended": state.ended or None,
        "dealer": SEATS[state.dealer],
        "turn": SEATS[state.turn] if state.turn >= 0 else None,
        "legal": [str(a) for a in legal_actions(state)],
        "contract": (
            {"mode": MODES[state.contract], "taker": SEATS[state.taker]}
            if state.contract >= 0
            else None
        ),
        "turned": code_of(state.turned) if state.turned >= 0 else None,
        "hands": {SEATS[s]: [code_of(c) for c in cards_of(state.hands[s])] for s in range(4)},
        "bids": [f"{SEATS[s]} {a}" for s, a in state.bids],
        "trick": [code_of(c) for c in state.trick],
        "tricks": [
            {
                "leader": SEATS[t.leader],
                "cards": [code_of(c) for c in t.cards],
                "seats": [SEATS[(t.leader + i * step) % 4] for i in range(4)],
                "winner": SEATS[t.winner],
                "points": t.points,
            }
            for t in state.tricks
        ],
        "announces": [
            _announce(s, a) for s in range(4) if state.declared >> s & 1 for a in state.announces[s]
        ],
        "belote": [
            {"seat": SEATS[b.seat], "suit": "SHDC"[b.suit], "call": b.call}
            for b in state.belote_calls
        ],
        "points": {TEAMS[0]: state.won[0], TEAMS[1]: state.won[1]},
    }
    if state.phase == DONE:
        result = score(state)
        out["score"] = {
            "made": result.made,
            "litige": result.litige,
            "capot": TEAMS[result.capot] if result.capot >= 0 else None,
            "tricks": dict(zip(TEAMS, result.tricks, strict=True)),
            "belote": dict(zip(TEAMS, result.belote, strict=True)),
            "announces": dict(zip(TEAMS, result.announces, strict=True)),
            "points": dict(zip(TEAMS, result.points, strict=True)),
            "held": result.held,
            "winner": TEAMS[result.winner] if result.winner >= 0 else None,
        }
        if game is not None:
            after = record_hand(game, state)
            out["game"] = {
                **dict(zip(TEAMS, after.scores, strict=True)),
                "held": after.held,
                "winner": TEAMS[after.winner] if after.winner >= 0 else None,
                "next_dealer": SEATS[after.dealer],
            }
    return out


def _game(spec: dict[str, Any], state: HandState) -> Game:
    before = spec.get("game") or {}
    if not isinstance(before, dict):
        raise BadInput('game is an object such as {"NS": 0, "EW": 0, "held": 0}')
    scores = (before.get("NS", 0), before.get("EW", 0))
    held = before.get("held", 0)
    if any(type(n) is not int or n < 0 for n in (*scores, held)):
        raise BadInput("game scores and held points are whole numbers, 0 or more")
    return Game(state.rules, state.dealer, scores, held, (), -1)


def referee(spec: Any) -> tuple[int, dict[str, Any]]:
    """Exit code and output for a parsed description (what the command prints)."""
    try:
        state, actions = start(spec)
        game = _game(spec, state)
    except BadInput as error:
        return 2, {"error": {"code": "bad_input", "message": str(error)}}
    try:
        state = run(state, actions)
    except IllegalAction as error:
        return 1, {
            "error": {
                "code": error.code,
                "message": error.message,
                "index": error.index,
                "action": actions[error.index] if error.index is not None else None,
            }
        }
    return 0, describe(state, game)


def verify_files(paths: list[str]) -> int:
    """``--verify``: each file's records checked, one line each (games/rules/records.py,
    imported here: it builds on this module)."""
    from .records import RecordRefused, verify_bytes

    if not paths:
        sys.stderr.write("usage: python -m games.rules.referee --verify FILE.json|FILE.zip|-...\n")
        return 2
    code = 0
    for path in paths:
        try:
            if path == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as file:
                    data = file.read()
            results = verify_bytes(data)
        except OSError as error:
            sys.stdout.write(f"{path}: cannot be read: {error}\n")
            code = 2
            continue
        except RecordRefused as refused:
            results = [(path, refused)]
        for name, result in results:
            label = path if name == "record" else f"{path}:{name}"
            if isinstance(result, RecordRefused):
                sys.stdout.write(f"{label}: REFUSED: {result}\n")
                code = max(code, 1)
            else:
                sys.stdout.write(f"{label}: OK: {result.summary()}\n")
    return code


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--verify"]:
        return verify_files(argv[1:])
    try:
        spec = json.load(sys.stdin)
    except json.JSONDecodeError as error:
        code, out = 2, {"error": {"code": "bad_input", "message": f"invalid JSON: {error}"}}
    else:
        code, out = referee(spec)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
