"""Announces (tierce, cinquante, cent, carrés): finding them in a hand and ranking them.

Sequences are read in the order 7 8 9 10 J Q K A in one suit: three cards are a tierce
(20), four a cinquante (50), five or more a cent (100). Four jacks are worth 200, four
nines 150, four aces, tens, kings or queens 100; four 8s or 7s nothing. A card may count
in a carré and in a sequence: no document forbids it.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import (
    ACE,
    JACK,
    KING,
    NINE,
    PLAIN_ORDER,
    QUEEN,
    RANKS,
    SUITS,
    TEN,
    code_of,
)

CARRE_POINTS = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
KIND_NAMES_FR = {"tierce": "tierce", "cinquante": "cinquante", "cent": "cent", "carre": "carré"}


class Announce(NamedTuple):
    kind: str  # "tierce", "cinquante", "cent" or "carre"
    points: int
    suit: int  # -1 for a carré
    rank: int  # the top rank of a sequence, the rank of a carré
    cards: int  # mask of the cards shown

    @property
    def key(self) -> tuple[int, int, int]:
        """Ranking: points, then a carré above a sequence, then height."""
        if self.kind == "carre":
            return (self.points, 1, PLAIN_ORDER[self.rank])
        return (self.points, 0, self.rank)

    def describe(self) -> str:
        """``tierce au roi de coeur`` style text, French (cards only at the end of a hand)."""
        if self.kind == "carre":
            return f"carré de {RANKS[self.rank]}"
        return f"{KIND_NAMES_FR[self.kind]} {RANKS[self.rank]}{SUITS[self.suit]}"

    def to_dict(self) -> dict:
        from .cards import cards_of

        return {
            "kind": self.kind,
            "points": self.points,
            "cards": [code_of(c) for c in cards_of(self.cards)],
        }


def _runs(byte: int) -> tuple[tuple[int, int], ...]:
    """Maximal runs of consecutive set bits as (length, top bit)."""
    runs = []
    r = 0
    while r < 8:
        if byte >> r & 1:
            start = r
            while r < 8 and byte >> r & 1:
                r += 1
            runs.append((r - start, r - 1))
        else:
            r += 1
    return tuple(runs)


_RUNS = tuple(_runs(b) for b in range(256))


def _sequence(length: int) -> tuple[str, int] | None:
    if length >= 5:
        return ("cent", 100)
    if length == 4:
        return ("cinquante", 50)
    if length == 3:
        return ("tierce", 20)
    return None


def find_announces(hand: int) -> tuple[Announce, ...]:
    """Every announce an 8-card hand holds."""
    found: list[Announce] = []
    for rank, points in CARRE_POINTS.items():
        mask = sum(1 << (s * 8 + rank) for s in range(4))
        if hand & mask == mask:
            found.append(Announce("carre", points, -1, rank, mask))
    for s in range(4):
        for length, top in _RUNS[(hand >> (8 * s)) & 0xFF]:
            seq = _sequence(length)
            if seq:
                mask = sum(1 << (s * 8 + r) for r in range(top - length + 1, top + 1))
                found.append(Announce(seq[0], seq[1], s, top, mask))
    return tuple(found)


def best_team(
    announces: tuple[tuple[Announce, ...], ...], declared: int, taker_team: int, tie: str
) -> int:
    """The team whose announces score (-1: nobody). ``declared`` is a mask of seats."""
    best = [None, None]
    for seat in range(4):
        if declared >> seat & 1:
            for a in announces[seat]:
                team = seat & 1
                if best[team] is None or a.key > best[team]:
                    best[team] = a.key
    if best[0] is None and best[1] is None:
        return -1
    if best[1] is None or (best[0] is not None and best[0] > best[1]):
        return 0
    if best[0] is None or best[1] > best[0]:
        return 1
    return taker_team if tie == "taker" else -1
