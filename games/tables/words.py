"""The display vocabulary of the table pages: seats and teams by name, cards with their
French names and faces, hands sorted for the eye, bids and buttons in words, and the small
values a board shows of cards played, tricks, announces and belotes (games/tables/board.py
and games/tables/replay.py lay them out)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from games import rules as engine
from games.tables.models import SEAT_CHOICES, TEAM_CHOICES

SEAT_LETTERS = engine.SEATS  # "NESW": N=0 E=1 S=2 W=3
SEAT_NAMES = dict(SEAT_CHOICES)
TEAM_NAMES = dict(TEAM_CHOICES)
SOUTH = 2
# Where each seat sits on the screen, counted from the viewer's seat in clockwise order.
PLACES = ("bottom", "left", "top", "right")

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
# The engine's vocabulary (games.rules.cards.name_fr), translatable: in French a card's
# name is exactly the engine's ("valet de cœur"), which the tests check.
RANK_NAMES = {
    "7": gettext_lazy("sept"),
    "8": gettext_lazy("huit"),
    "9": gettext_lazy("neuf"),
    "T": gettext_lazy("dix"),
    "J": gettext_lazy("valet"),
    "Q": gettext_lazy("dame"),
    "K": gettext_lazy("roi"),
    "A": gettext_lazy("as"),
}
SUIT_NAMES = {
    "S": gettext_lazy("pique"),
    "H": gettext_lazy("cœur"),
    "D": gettext_lazy("carreau"),
    "C": gettext_lazy("trèfle"),
}
# What the corner of a card shows: 10 for the ten, French initials for the heads.
RANK_LABELS = {
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    "J": pgettext_lazy("rang de carte (valet)", "V"),
    "Q": pgettext_lazy("rang de carte (dame)", "D"),
    "K": pgettext_lazy("rang de carte (roi)", "R"),
    "A": pgettext_lazy("rang de carte (as)", "A"),
}
# Whose turn it is, one phrase per seat: French elides "de" before Est and Ouest.
TURN_OF = {
    0: gettext_lazy("Au tour de Nord"),
    1: gettext_lazy("Au tour d'Est"),
    2: gettext_lazy("Au tour de Sud"),
    3: gettext_lazy("Au tour d'Ouest"),
}
ANNOUNCE_NAMES = {
    "tierce": gettext_lazy("Tierce"),
    "cinquante": gettext_lazy("Cinquante"),
    "cent": gettext_lazy("Cent"),
    "carre": gettext_lazy("Carré"),
}

# Suits in the hand alternate colours (black, red, black, red), the trump first.
SUIT_CYCLE = "SHCD"
PLAIN_ORDER = "ATKQJ987"  # strongest first, outside trump and in sans atout
TRUMP_ORDER = "J9ATKQ87"


def card_name(code: str) -> str:
    """What a screen reader says for a card: ``valet de cœur``."""
    return _card_words(code, get_language())[0]


@functools.cache
def _card_words(code: str, language: str) -> tuple[str, str]:
    """A card's name and the rank in its corner, in ``language`` (the active one): the
    translations are looked up once per card and language."""
    name = _("%(rank)s de %(suit)s") % {
        "rank": RANK_NAMES[code[0]],
        "suit": SUIT_NAMES[code[1]],
    }
    return name, str(RANK_LABELS[code[0]])


@dataclass(frozen=True)
class Card:
    code: str  # "JH"
    legal: bool = False

    @property
    def suit(self) -> str:
        return self.code[1]

    @property
    def rank(self) -> str:
        return _card_words(self.code, get_language())[1]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.code[1]]

    @property
    def red(self) -> bool:
        return self.code[1] in RED_SUITS

    @property
    def name(self) -> str:
        return card_name(self.code)

    @property
    def action(self) -> str:
        return f"play {self.code}"


def sort_hand(codes: list[str], mode: str | None) -> list[str]:
    """A hand by suit, colours alternating and the trump first, strongest card first."""
    first = mode if mode in SUIT_SYMBOLS else "S"
    start = SUIT_CYCLE.index(first)
    cycle = SUIT_CYCLE[start:] + SUIT_CYCLE[:start]

    def key(code: str) -> tuple[int, int]:
        trump = mode == "TA" or code[1] == mode
        order = TRUMP_ORDER if trump else PLAIN_ORDER
        return cycle.index(code[1]), order.index(code[0])

    return sorted(codes, key=key)


@dataclass(frozen=True)
class Mode:
    """A contract: a trump suit, sans atout or tout atout."""

    code: str  # "S" "H" "D" "C" "SA" "TA"

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS.get(self.code, "")

    @property
    def red(self) -> bool:
        return self.code in RED_SUITS

    @property
    def is_suit(self) -> bool:
        return self.code in SUIT_SYMBOLS

    @property
    def name(self) -> str:
        if self.code == "SA":
            return _("sans atout")
        if self.code == "TA":
            return _("tout atout")
        return str(SUIT_NAMES[self.code])


def name_of_seat(letter_or_position: str | int | None) -> str:
    if letter_or_position is None:
        return ""
    position = (
        SEAT_LETTERS.index(letter_or_position)
        if isinstance(letter_or_position, str)
        else letter_or_position
    )
    return _seat_label(position, get_language())


@functools.cache
def _seat_label(position: int, language: str) -> str:
    return str(SEAT_NAMES[position])


def bid_text(action: str, turned_suit: str | None) -> tuple[str, Mode | None]:
    """A bid as the history tells it: ``Passe``, ``Prend à cœur``, ``Sans atout``."""
    words = action.split()
    if action == "pass":
        return _("Passe"), None
    if action == "exchange":
        return _("Échange le 7"), None
    if action == "redeal":
        return _("Fait redonner"), None
    if words[0] == "take":
        mode = Mode(words[1] if len(words) == 2 else (turned_suit or "S"))
        if mode.code == "SA":
            return _("Sans atout"), mode
        if mode.code == "TA":
            return _("Tout atout"), mode
        return _("Prend à %(suit)s") % {"suit": mode.name}, mode
    return action, None


@dataclass(frozen=True)
class ActionButton:
    """One button of the board: its engine action, what it says (and says aloud)."""

    value: str  # "take H"
    text: str
    hidden: str = ""  # read by screen readers only, after the text
    mode: Mode | None = None
    primary: bool = False

    @property
    def id(self) -> str:
        return "act-" + self.value.replace(" ", "-")


# Buttons in the order one thinks of them: the exchange of the 7 first, then the takes (and
# the announce), then the redeal, "Passer" last.
_BUTTON_ORDER = {"exchange": 0, "take": 1, "announce": 1, "redeal": 2, "pass": 3}


def buttons_for(legal: list[str], turned_suit: str | None, announces: list[str]) -> list:
    buttons = []
    for value in sorted(legal, key=lambda v: _BUTTON_ORDER.get(v.split()[0], 1)):
        words = value.split()
        if words[0] == "play":
            continue
        if value == "take":
            mode = Mode(turned_suit)
            buttons.append(
                ActionButton(
                    value,
                    _("Prendre"),
                    _("à %(suit)s") % {"suit": mode.name},
                    mode,
                    primary=True,
                )
            )
        elif words[0] == "take" and words[1] == "SA":
            buttons.append(ActionButton(value, _("Sans atout"), primary=True))
        elif words[0] == "take" and words[1] == "TA":
            buttons.append(ActionButton(value, _("Tout atout"), primary=True))
        elif words[0] == "take":
            mode = Mode(words[1])
            buttons.append(ActionButton(value, _("Prendre à"), mode.name, mode, primary=True))
        elif value == "pass":
            buttons.append(ActionButton(value, _("Passer")))
        elif value == "exchange":
            buttons.append(ActionButton(value, _("Échanger le 7"), _("contre la carte retournée")))
        elif value == "redeal":
            buttons.append(ActionButton(value, _("Redonner")))
        elif value == "announce":
            kinds = ", ".join(str(ANNOUNCE_NAMES.get(k, k)).lower() for k in announces)
            text = _("Annoncer : %(kinds)s") % {"kinds": kinds} if kinds else _("Annoncer")
            buttons.append(ActionButton(value, text, primary=True))
    return buttons


@dataclass(frozen=True)
class Played:
    """A card on the table, and who played it."""

    letter: str
    place: str
    card: Card
    won: bool = False

    @property
    def seat_name(self) -> str:
        return name_of_seat(self.letter)


@dataclass(frozen=True)
class TrickShown:
    number: int
    cards: list[Played]
    winner: str  # seat letter
    points: int

    @property
    def winner_name(self) -> str:
        return name_of_seat(self.winner)


@dataclass(frozen=True)
class AnnounceShown:
    letter: str
    kind: str
    points: int
    cards: list[Card] = field(default_factory=list)

    @property
    def seat_name(self) -> str:
        return name_of_seat(self.letter)

    @property
    def label(self) -> str:
        return str(ANNOUNCE_NAMES.get(self.kind, self.kind))


@dataclass(frozen=True)
class BeloteShown:
    letter: str
    suit: str
    call: str  # "belote" or "rebelote"

    @property
    def seat_name(self) -> str:
        return name_of_seat(self.letter)

    @property
    def label(self) -> str:
        return _("Belote") if self.call == "belote" else _("Rebelote")

    @property
    def mode(self) -> Mode:
        return Mode(self.suit)


def place_of(position: int, bottom: int) -> str:
    return PLACES[(position - bottom) % 4]


def tricks_shown(view: dict, bottom: int) -> list[TrickShown]:
    return [
        TrickShown(
            number=i,
            cards=[
                Played(c["seat"], place_of(SEAT_LETTERS.index(c["seat"]), bottom), Card(c["card"]))
                for c in trick["cards"]
            ],
            winner=trick["winner"],
            points=trick["points"],
        )
        for i, trick in enumerate(view["tricks"], start=1)
    ]


def announces_shown(view: dict) -> list[AnnounceShown]:
    return [
        AnnounceShown(
            a["seat"],
            a["kind"],
            a["points"],
            [Card(c) for c in sort_hand(a.get("cards", []), None)],
        )
        for a in view["announces"]
    ]


def belote_shown(view: dict) -> list[BeloteShown]:
    return [BeloteShown(b["seat"], b["suit"], b["call"]) for b in view["belote"]]
