"""Cards, suits, seats and the lookup tables the engine plays with.

A card is an int from 0 to 31: ``suit * 8 + rank``. Ranks are numbered in sequence order
``7 8 9 T J Q K A`` (0 to 7), the order in which tierces and cents are read; suits are
``S H D C`` (pique, cœur, carreau, trefle). A hand is a 32-bit mask of cards. The outside
world sees card codes: rank letter then suit letter, ``JH`` is the valet de cœur.

A contract mode is a trump suit (0 to 3), ``SA`` (sans atout, 4) or ``TA`` (tout atout, 5).
Every table below is indexed by mode, so the play code never branches on it for lookups.
"""

from __future__ import annotations

RANKS = "789TJQKA"
SUITS = "SHDC"
SEATS = "NESW"
TEAMS = ("NS", "EW")
MODES = ("S", "H", "D", "C", "SA", "TA")
SA = 4
TA = 5

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

RANK_NAMES_FR = ("sept", "huit", "neuf", "dix", "valet", "dame", "roi", "as")
SUIT_NAMES_FR = ("pique", "cœur", "carreau", "trèfle")
MODE_NAMES_FR = ("pique", "cœur", "carreau", "trèfle", "sans atout", "tout atout")

ALL_CARDS = (1 << 32) - 1
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))

# Strength of a rank inside its suit, 0 the weakest.
# Atout: valet, 9, as, 10, roi, dame, 8, 7.  Hors atout and sans atout: as, 10, roi, dame,
# valet, 9, 8, 7 (the same in all five documents; 002 adds SA and TA).
TRUMP_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)
PLAIN_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)

TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)  # 62 a suit
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)  # 30 a suit
SA_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)  # 002: 38 a suit, 152 in all
TA_POINTS = (0, 0, 9, 5, 13, 2, 3, 6)  # 002: 38 a suit, 152 in all
DIX_DE_DER = 10
HAND_POINTS = 162


def card_of(code: str) -> int:
    """The card for a code such as ``JH``; raises ValueError for anything else."""
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise ValueError(f"unknown card code {code!r}")
    return SUITS.index(code[1]) * 8 + RANKS.index(code[0])


def code_of(card: int) -> str:
    return RANKS[card & 7] + SUITS[card >> 3]


def name_fr(card: int) -> str:
    """The French name a screen reader says: ``valet de cœur``."""
    return f"{RANK_NAMES_FR[card & 7]} de {SUIT_NAMES_FR[card >> 3]}"


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def parse_cards(text: str | list[str] | tuple[str, ...]) -> tuple[int, ...]:
    """Cards from ``"JH 9H AS"`` or a list of codes."""
    codes = text.split() if isinstance(text, str) else text
    return tuple(card_of(c) for c in codes)


def mask_of(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# For each suit and each byte of that suit's bits, the cards it holds, ascending.
_CARDS_IN_BYTE = tuple(
    tuple(tuple(s * 8 + r for r in range(8) if byte >> r & 1) for byte in range(256))
    for s in range(4)
)


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, ascending (suit by suit, 7 to ace)."""
    out: list[int] = []
    for s in range(4):
        byte = (mask >> (8 * s)) & 0xFF
        if byte:
            out.extend(_CARDS_IN_BYTE[s][byte])
    return out


def count(mask: int) -> int:
    return mask.bit_count()


def _is_trump(mode: int, card: int) -> bool:
    return mode == TA or (mode < 4 and card >> 3 == mode)


def _strength(mode: int, card: int) -> int:
    order = TRUMP_ORDER if _is_trump(mode, card) else PLAIN_ORDER
    return order[card & 7]


def _points(mode: int, card: int) -> int:
    if mode == SA:
        return SA_POINTS[card & 7]
    if mode == TA:
        return TA_POINTS[card & 7]
    return (TRUMP_POINTS if card >> 3 == mode else PLAIN_POINTS)[card & 7]


# POINTS[mode][card]: what a card is worth in a trick under that contract.
POINTS = tuple(tuple(_points(m, c) for c in range(32)) for m in range(6))

# KEY[mode][led_suit][card]: who wins a trick is the card with the highest key.
# A trump beats every other card; a card of the led suit beats discards, which never win.
# In tout atout no suit cuts another: only the led suit can win, in trump order.
KEY = tuple(
    tuple(
        tuple(
            (16 + _strength(m, c))
            if (m < 4 and c >> 3 == m)
            else (8 + _strength(m, c) if c >> 3 == led else 0)
            for c in range(32)
        )
        for led in range(4)
    )
    for m in range(6)
)

# STRONGER[mode][card]: the cards of the same suit that beat it under that contract.
STRONGER = tuple(
    tuple(
        mask_of((c & ~7) + r for r in range(8) if _strength(m, (c & ~7) + r) > _strength(m, c))
        for c in range(32)
    )
    for m in range(6)
)
