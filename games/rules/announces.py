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
    SUIT_NAMES_FR,
    TEN,
    cards_of,
    code_of,
)

CARRE_POINTS = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
_AT_RANK = ("au sept", "au huit", "au neuf", "au dix", "au valet", "à la dame", "au roi", "à l'as")
_CARRE_OF = ("de sept", "de huit", "de neuf", "de dix", "de valets", "de dames", "de rois", "d'as")


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
        """French words for it: ``tierce au roi de cœur``, ``carré de valets``."""
        if self.kind == "carre":
            return f"carré {_CARRE_OF[self.rank]}"
        return f"{self.kind} {_AT_RANK[self.rank]} de {SUIT_NAMES_FR[self.suit]}"

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "points": self.points,
            "cards": [code_of(c) for c in cards_of(self.cards)],
        }


def _sequences(byte: int) -> tuple[tuple[str, int, int, int], ...]:
    """The sequences of one suit's byte: (kind, points, top rank, byte mask of the run)."""
    found = []
    r = 0
    while r < 8:
        if not byte >> r & 1:
            r += 1
            continue
        start = r
        while r < 8 and byte >> r & 1:
            r += 1
        length = r - start
        if length >= 3:
            kind, points = (
                ("cent", 100)
                if length >= 5
                else ("cinquante", 50)
                if length == 4
                else ("tierce", 20)
            )
            found.append((kind, points, r - 1, ((1 << length) - 1) << start))
    return tuple(found)


_SEQUENCES = tuple(_sequences(b) for b in range(256))
_CARRES = tuple(
    (rank, points, sum(1 << (s * 8 + rank) for s in range(4)))
    for rank, points in CARRE_POINTS.items()
)


def find_announces(hand: int) -> tuple[Announce, ...]:
    """Every announce an 8-card hand holds."""
    found = [
        Announce("carre", points, -1, rank, mask)
        for rank, points, mask in _CARRES
        if hand & mask == mask
    ]
    for s in range(4):
        for kind, points, top, byte_mask in _SEQUENCES[(hand >> (8 * s)) & 0xFF]:
            found.append(Announce(kind, points, s, top, byte_mask << (8 * s)))
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
