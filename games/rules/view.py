"""What one seat may see of a hand: the only way a state leaves the engine for a player.

``view(state, seat)`` holds that seat's own cards and everything public: bids, the
turned card, the cards on the table, finished tricks, belote calls and the kind of
each announce. Other hands appear only as card counts. Announced cards are shown once the
hand is over, when every card has been played; ``seat=None`` is a spectator's view.
"""

from __future__ import annotations

from typing import Any

from .cards import MODES, SEATS, TEAMS, cards_of, code_of
from .hand import DONE, PLAYING, HandState, legal_actions


def _codes(mask: int) -> list[str]:
    return [code_of(c) for c in cards_of(mask)]


def view(state: HandState, seat: int | None) -> dict[str, Any]:
    step = state.rules.step
    over = state.phase == DONE
    out: dict[str, Any] = {
        "phase": state.phase,
        "ended": state.ended or None,
        "dealer": SEATS[state.dealer],
        "turn": SEATS[state.turn] if state.turn >= 0 else None,
        "seat": SEATS[seat] if seat is not None else None,
        "hand": _codes(state.hands[seat]) if seat is not None else [],
        "hand_sizes": {SEATS[s]: state.hands[s].bit_count() for s in range(4)},
        "turned": code_of(state.turned) if state.turned >= 0 else None,
        "bid_round": state.bid_round,
        "bids": [{"seat": SEATS[s], "action": str(a)} for s, a in state.bids],
        "contract": (
            {"mode": MODES[state.contract], "taker": SEATS[state.taker]}
            if state.contract >= 0
            else None
        ),
        "leader": SEATS[state.leader] if state.leader >= 0 else None,
        "trick": [
            {"seat": SEATS[(state.leader + i * step) % 4], "card": code_of(c)}
            for i, c in enumerate(state.trick)
        ],
        "tricks": [
            {
                "leader": SEATS[t.leader],
                "cards": [
                    {"seat": SEATS[(t.leader + i * step) % 4], "card": code_of(c)}
                    for i, c in enumerate(t.cards)
                ],
                "winner": SEATS[t.winner],
                "points": t.points,
            }
            for t in state.tricks
        ],
        "points": {TEAMS[0]: state.won[0], TEAMS[1]: state.won[1]},
        "belote": [
            {"seat": SEATS[b.seat], "suit": "SHDC"[b.suit], "call": b.call}
            for b in state.belote_calls
        ],
        "announces": [
            dict(
                seat=SEATS[s],
                kind=a.kind,
                points=a.points,
                **({"cards": _codes(a.cards)} if over else {}),
            )
            for s in range(4)
            if state.declared >> s & 1
            for a in state.announces[s]
        ],
        "legal": [],
    }
    if seat is not None and seat == state.turn:
        out["legal"] = [str(a) for a in legal_actions(state)]
        if state.phase == PLAYING and state.announces[seat] and not state.declared >> seat & 1:
            out["my_announces"] = [a.kind for a in state.announces[seat]]
    if over:
        from .game import score

        result = score(state)
        out["score"] = {
            "made": result.made,
            "litige": result.litige,
            "capot": TEAMS[result.capot] if result.capot >= 0 else None,
            "points": {TEAMS[0]: result.points[0], TEAMS[1]: result.points[1]},
            "held": result.held,
        }
    return out
