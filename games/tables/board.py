"""What a started table shows: one viewer's board, and the replay of a finished hand.

Game state reaches these pages only through the engine's ``view(state, seat)``: the
viewer's own seat, or ``None`` for a spectator, who sees no hand at all. A finished hand
is public, so its replay asks the engine for each seat's view in turn. The table's rows
add the seats, the scores, the score sheet and who is connected (games/tables/presence.py).

Everything becomes small display values (cards with their French names, seats placed
around the square from the viewer's side, button labels) so that the templates only lay
them out. The seat of the viewer is at the bottom, the next one in the clockwise order
(their left) on the left, their partner on top.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from games import rules as engine
from games.rules.hand import ALL_PASSED, FOUR_SEVENS, MAIN_NULLE
from games.tables import presence
from games.tables.memo import Memo
from games.tables.models import SEAT_CHOICES, TEAM_CHOICES, Game, Hand, Seat, Table
from games.tables.selectors import deck_cards, hand_actions, table_state

SEAT_LETTERS = engine.SEATS  # "NESW": N=0 E=1 S=2 W=3
SEAT_NAMES = dict(SEAT_CHOICES)
TEAM_NAMES = dict(TEAM_CHOICES)
SOUTH = 2
# Where each seat sits on the screen, counted from the viewer's seat in clockwise order.
PLACES = ("bottom", "left", "top", "right")

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
# The engine's vocabulary (games.rules.cards.name_fr), translatable: in French a card's
# name is exactly the engine's ("valet de coeur"), which the tests check.
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
    "H": gettext_lazy("coeur"),
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
    """What a screen reader says for a card: ``valet de coeur``."""
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


def _seat_name(letter_or_position: str | int | None) -> str:
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


def _bid_text(action: str, turned_suit: str | None) -> tuple[str, Mode | None]:
    """A bid as the history tells it: ``Passe``, ``Prend à coeur``, ``Sans atout``."""
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


def _buttons(legal: list[str], turned_suit: str | None, announces: list[str]) -> list:
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
        return _seat_name(self.letter)


@dataclass(frozen=True)
class TrickShown:
    number: int
    cards: list[Played]
    winner: str  # seat letter
    points: int

    @property
    def winner_name(self) -> str:
        return _seat_name(self.winner)


@dataclass(frozen=True)
class AnnounceShown:
    letter: str
    kind: str
    points: int
    cards: list[Card] = field(default_factory=list)

    @property
    def seat_name(self) -> str:
        return _seat_name(self.letter)

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
        return _seat_name(self.letter)

    @property
    def label(self) -> str:
        return _("Belote") if self.call == "belote" else _("Rebelote")

    @property
    def mode(self) -> Mode:
        return Mode(self.suit)


@dataclass
class SeatShown:
    seat: Seat
    place: str
    is_me: bool = False
    is_dealer: bool = False
    is_turn: bool = False
    is_taker: bool = False
    connected: bool | None = None  # None for a bot
    card_count: int = 0
    bid: tuple[str, Mode | None] | None = None
    announces: list[AnnounceShown] = field(default_factory=list)
    belote: list[BeloteShown] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)  # face up: the replay only

    @property
    def letter(self) -> str:
        return SEAT_LETTERS[self.seat.position]

    @property
    def name(self) -> str:
        return _seat_name(self.seat.position)

    @property
    def team(self) -> str:
        return "NS" if self.seat.position % 2 == 0 else "EW"

    @property
    def backs(self) -> range:
        return range(self.card_count)

    @property
    def look(self) -> tuple:
        """Everything the seat's box shows (games/table/seat_box.html) but its place
        on the screen: two seats of the same look, in one language, have the same box,
        once the place is put in."""
        seat = self.seat
        occupant = (seat.user_id, str(seat.user) if seat.user_id else "", seat.bot_level)
        return (
            seat.position,
            self.is_me,
            self.is_dealer,
            self.is_turn,
            self.is_taker,
            self.connected,
            0 if self.is_me else self.card_count,  # the viewer's own box shows no backs
            occupant,
            seat.stand_in,
            seat.timeouts,
            self.bid,
            tuple((a.kind, a.points) for a in self.announces),
            tuple(b.call for b in self.belote),
        )


@dataclass(frozen=True)
class HandResult:
    """A finished hand as the score sheet and the summaries tell it (from its row)."""

    hand: Hand
    game_number: int
    table_id: int

    @property
    def number(self) -> int:
        return self.hand.number

    @property
    def dealer_name(self) -> str:
        return _seat_name(self.hand.dealer)

    @property
    def contract(self) -> Mode | None:
        return Mode(self.hand.contract) if self.hand.contract else None

    @property
    def taker_name(self) -> str:
        return _seat_name(self.hand.taker)

    @property
    def taker_letter(self) -> str:
        return SEAT_LETTERS[self.hand.taker] if self.hand.taker is not None else ""

    @property
    def points_ns(self) -> int:
        return self.hand.points_ns or 0

    @property
    def points_ew(self) -> int:
        return self.hand.points_ew or 0

    @property
    def url(self) -> str:
        return reverse("games:hand", args=[self.table_id, self.game_number, self.hand.number])

    @property
    def marks(self) -> list[tuple[str, str]]:
        """Short badges of the sheet: (css key, text)."""
        hand = self.hand
        if hand.ended == ALL_PASSED:
            return [("passe", _("passe"))]
        if hand.ended in (MAIN_NULLE, FOUR_SEVENS):
            return [("redonne", _("redonne"))]
        marks = []
        if hand.capot is not None:
            marks.append(("capot", _("capot")))
        if hand.litige and hand.held:
            marks.append(("litige", _("litige")))
        elif hand.made is False:  # a tie the taker loses (litige="taker_fails") too
            marks.append(("dedans", _("dedans")))
        return marks

    @property
    def outcome(self) -> str:
        hand = self.hand
        if hand.ended == ALL_PASSED:
            return _("Tout le monde a passé : on redonne.")
        if hand.ended == MAIN_NULLE:
            return _("Redonne demandée sur une main nulle.")
        if hand.ended == FOUR_SEVENS:
            return _("Redonne demandée sur un carré de 7.")
        if hand.capot is not None:
            return _("Capot : %(team)s fait tous les plis.") % {"team": TEAM_NAMES[hand.capot]}
        if hand.litige and hand.held:
            return _("Litige : %(points)s points en suspens pour la donne suivante.") % {
                "points": hand.held
            }
        if hand.made:
            return _("Contrat rempli.")
        return _("%(seat)s est dedans.") % {"seat": self.taker_name}


@dataclass
class Board:
    table: Table
    game: Game
    hand_row: Hand
    phase: str
    version: int
    my_position: int | None
    seats: list[SeatShown]
    hand: list[Card]  # the viewer's cards, sorted; empty for a spectator
    play_turn: bool  # the viewer is to play a card
    my_turn: bool
    buttons: list[ActionButton]
    turned: Card | None
    bid_round: int
    bids: list[tuple[str, str, Mode | None]]  # seat name, what they said, its contract
    contract: Mode | None
    taker_name: str
    centre: list[Played]  # the trick in progress, or the last one while none is
    centre_is_last: bool
    last_trick: TrickShown | None
    tricks_played: int
    points: dict[str, int]  # card points won so far in this hand
    announces: list[AnnounceShown]
    belote: list[BeloteShown]
    sheet: list[HandResult]
    previous_games: list[Game]
    summary: HandResult | None  # the previous hand, above the new hand's bidding
    final: HandResult | None  # the last hand, once the game is over
    winner: int | None
    my_result: str | None  # "won" / "lost" for a seated player of a finished game
    can_rematch: bool
    turn_seat: SeatShown | None
    deadline: Any = None
    history_key: tuple = ()  # what the sheet and the previous games depend on
    side_key: tuple = ()  # what the contract, score, announces and last trick show

    def hide_summary(self, closed_hand: int | None) -> None:
        """The viewer closed the summary of hand ``closed_hand`` ("Donne suivante", saved
        in their session under ``SUMMARY_SEEN``): it shows no more."""
        if self.summary is not None and self.summary.hand.pk == closed_hand:
            self.summary = None

    @property
    def is_spectator(self) -> bool:
        return self.my_position is None

    @property
    def my_letter(self) -> str:
        return SEAT_LETTERS[self.my_position] if self.my_position is not None else ""

    @property
    def target(self) -> int:
        return self.table.rules.target

    @property
    def finished(self) -> bool:
        return self.table.status == Table.Status.FINISHED

    @property
    def winner_name(self) -> str:
        return str(TEAM_NAMES.get(self.winner, ""))


def _place(position: int, bottom: int) -> str:
    return PLACES[(position - bottom) % 4]


def _tricks(view: dict, bottom: int) -> list[TrickShown]:
    return [
        TrickShown(
            number=i,
            cards=[
                Played(c["seat"], _place(SEAT_LETTERS.index(c["seat"]), bottom), Card(c["card"]))
                for c in trick["cards"]
            ],
            winner=trick["winner"],
            points=trick["points"],
        )
        for i, trick in enumerate(view["tricks"], start=1)
    ]


def _announces(view: dict) -> list[AnnounceShown]:
    return [
        AnnounceShown(
            a["seat"],
            a["kind"],
            a["points"],
            [Card(c) for c in sort_hand(a.get("cards", []), None)],
        )
        for a in view["announces"]
    ]


def _belote(view: dict) -> list[BeloteShown]:
    return [BeloteShown(b["seat"], b["suit"], b["call"]) for b in view["belote"]]


# The session key of the hand whose summary a viewer closed at a table ("Donne suivante").
SUMMARY_SEEN = "summary-seen-{}"


# A started table's seats, with their users, as this process read them last:
# (table id, created_at, seats version) -> the seats (shared: read only).
_seats = Memo(2048)


def table_seats(table: Table) -> list[Seat]:
    """The table's four seats in order, with their users: one query, none when the table
    was fetched with them (``Prefetch`` of ``seats``) or they were asked for already, nor
    for a started table whose seats this process read at the same seats version
    (``Table.seats_version``, moved on by every write of its seats or of the names shown
    in them). The seats of a started table are shared between callers: read only."""
    cache = getattr(table, "_prefetched_objects_cache", {})
    if "seats" not in cache and table.status != Table.Status.LOBBY and table.pk is not None:
        key = (table.pk, table.created_at, table.seats_version)
        return list(_seats.get_or_compute(key, lambda: _read_seats(table)))
    seats = Seat.objects.select_related("user").order_by("position")
    prefetch_related_objects([table], Prefetch("seats", queryset=seats))
    return list(table.seats.all())


def _read_seats(table: Table) -> tuple[Seat, ...]:
    rows = Seat.objects.filter(table_id=table.pk).select_related("user").order_by("position")
    return tuple(rows)


# What a table shows of the game so far, the same for the whole hand: its finished hands
# and its previous games. (table, current hand, its deck, status) -> (sheet, games).
_history = Memo(1024)


def _game_history(table: Table) -> tuple[list[HandResult], list[Game]]:
    hand_row = table.current_hand
    game = hand_row.game

    def read() -> tuple[list[HandResult], list[Game]]:
        sheet = [
            HandResult(h, game.number, table.pk)
            for h in game.hands.exclude(ended="").order_by("number")
        ]
        previous = []
        if game.number > 1:
            previous = list(table.games.exclude(pk=game.pk).order_by("number"))
        return sheet, previous

    return _history.get_or_compute(_history_key(table), read)


def _history_key(table: Table) -> tuple:
    hand_row = table.current_hand
    return (table.pk, table.created_at, hand_row.pk, hand_row.dealer, hand_row.deck, table.status)


def table_board(table: Table, user, *, online: set[int] | None = None) -> Board:
    """The board of a started table as ``user`` may see it (a spectator if not seated),
    with the summary of the previous hand during the bidding (``Board.hide_summary`` once
    the viewer closed it). ``online``: who is connected, if the caller read it already
    (games/tables/presence.py)."""
    seats = table_seats(table)
    mine = next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)
    my_position = mine.position if mine is not None else None
    bottom = my_position if my_position is not None else SOUTH
    hand_row = table.current_hand
    game = hand_row.game
    state = table_state(table)
    view = engine.view(state, my_position)

    contract = Mode(view["contract"]["mode"]) if view["contract"] else None
    taker = view["contract"]["taker"] if view["contract"] else None
    turned_suit = view["turned"][1] if view["turned"] else None
    if online is None:
        online = presence.connected(table.pk, [s.user_id for s in seats if s.user_id is not None])

    shown = []
    # What each seat said last in this round of bidding (the second round starts after
    # the four passes of the first).
    last_bids: dict[str, tuple[str, Mode | None]] = {}
    if view["phase"] == engine.BIDDING:
        passes_to_skip = 4 if view["bid_round"] == 2 else 0
        for bid in view["bids"]:
            if passes_to_skip:
                passes_to_skip -= bid["action"] == "pass"
                continue
            last_bids[bid["seat"]] = _bid_text(bid["action"], turned_suit)
    announces = _announces(view)
    belote = _belote(view)
    for seat in seats:
        letter = SEAT_LETTERS[seat.position]
        shown.append(
            SeatShown(
                seat=seat,
                place=_place(seat.position, bottom),
                is_me=seat.position == my_position,
                is_dealer=view["dealer"] == letter,
                is_turn=view["turn"] == letter,
                is_taker=taker == letter,
                connected=(
                    None if seat.is_bot else seat.position == my_position or seat.user_id in online
                ),
                card_count=view["hand_sizes"][letter],
                bid=last_bids.get(letter),
                announces=[a for a in announces if a.letter == letter],
                belote=[b for b in belote if b.letter == letter],
            )
        )

    # Only a table in play takes moves (an abandoned one keeps its last position).
    legal_actions = view["legal"] if table.status == Table.Status.PLAYING else []
    play_turn = view["phase"] == engine.PLAYING and bool(legal_actions)
    legal = set(legal_actions)
    hand = [
        Card(code, legal=play_turn and f"play {code}" in legal)
        for code in sort_hand(view["hand"], contract.code if contract else turned_suit)
    ]
    tricks = _tricks(view, bottom)
    centre = [
        Played(c["seat"], _place(SEAT_LETTERS.index(c["seat"]), bottom), Card(c["card"]))
        for c in view["trick"]
    ]
    centre_is_last = False
    if not centre and tricks and view["phase"] != engine.BIDDING:
        last = tricks[-1]
        centre = [
            Played(p.letter, p.place, p.card, won=p.letter == last.winner) for p in last.cards
        ]
        centre_is_last = True

    finished_hands, previous_games = _game_history(table)
    summary = None
    if view["phase"] == engine.BIDDING and hand_row.number > 1:
        summary = next((r for r in finished_hands if r.number == hand_row.number - 1), None)
    final = None
    my_result = None
    finished = table.status == Table.Status.FINISHED
    if finished:
        final = next((r for r in finished_hands if r.hand.pk == hand_row.pk), None)
        my_result = game.result_for(my_position)
    turn_seat = next((s for s in shown if s.is_turn), None)
    bids = [(_seat_name(b["seat"]), *_bid_text(b["action"], turned_suit)) for b in view["bids"]]
    return Board(
        table=table,
        game=game,
        hand_row=hand_row,
        phase=view["phase"],
        version=table.version,
        my_position=my_position,
        seats=shown,
        hand=hand,
        play_turn=play_turn,
        my_turn=bool(legal_actions),
        buttons=_buttons(legal_actions, turned_suit, view.get("my_announces", [])),
        turned=Card(view["turned"]) if view["turned"] and view["phase"] == engine.BIDDING else None,
        bid_round=view["bid_round"],
        bids=bids,
        contract=contract,
        taker_name=_seat_name(taker),
        centre=centre,
        centre_is_last=centre_is_last,
        last_trick=tricks[-1] if tricks else None,
        tricks_played=len(tricks),
        points=dict(view["points"]),
        announces=announces,
        belote=belote,
        sheet=finished_hands,
        previous_games=previous_games,
        summary=summary,
        final=final,
        winner=game.winner if finished else None,
        my_result=my_result,
        can_rematch=finished and my_position is not None,
        turn_seat=turn_seat,
        deadline=table.deadline,
        history_key=_history_key(table),
        side_key=_side_look(
            view, contract, taker, bids, tricks, announces, belote, hand_row, game, table
        ),
    )


def _side_look(view, contract, taker, bids, tricks, announces, belote, hand_row, game, table):
    """Everything the ``side`` partial of games/table.html shows (the contract and the
    bids, the score, the announces, the last trick), public and the same for every viewer:
    from one card played to the next within a trick, at every table in the same state, it
    looks the same, and is rendered once (games/templatetags/tables.py ``board_side``)."""
    last = tricks[-1] if tricks else None
    return (
        view["phase"],
        view["bid_round"],
        contract.code if contract else None,
        taker,
        tuple(bids),
        hand_row.number,
        tuple(sorted(view["points"].items())),
        game.number,
        table.rules.target,
        game.score_ns,
        game.score_ew,
        game.held,
        tuple((a.letter, a.kind, a.points, tuple(c.code for c in a.cards)) for a in announces),
        tuple((b.letter, b.suit, b.call) for b in belote),
        None
        if last is None
        else (
            last.number,
            last.winner,
            last.points,
            tuple((p.letter, p.card.code) for p in last.cards),
        ),
    )


# ---------------------------------------------------------------------------------------
# Replaying a finished hand


@dataclass
class Replay:
    table: Table
    game_number: int
    result: HandResult
    step: int  # 0: the deal, n: after the n-th trick
    steps: int  # number of tricks played
    seats: list[SeatShown]  # with the cards each holds at this step
    starting: list[tuple[str, str, list[Card]]]  # seat letter, name, the dealt hand
    turned: Card | None
    bids: list[tuple[str, str, Mode | None]]
    contract: Mode | None
    trick: TrickShown | None  # the trick of this step
    tricks: list[TrickShown]
    announces: list[AnnounceShown]
    belote: list[BeloteShown]
    score: dict | None

    @property
    def previous_step(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next_step(self) -> int | None:
        return self.step + 1 if self.step < self.steps else None

    @property
    def step_numbers(self) -> range:
        return range(self.steps + 1)


def hand_replay(table: Table, hand: Hand, step: int, viewer=None) -> Replay:
    """A finished hand trick by trick: the four dealt hands, then each trick.

    Only for a finished hand (the caller checks it): then every card has been seen, and
    each seat's cards come from the engine's view of that seat.
    """
    if not hand.is_over:
        raise ValueError("only a finished hand is replayed")
    rules = table.rules
    state = engine.deal(rules, hand.dealer, deck_cards(hand.deck))
    first_turned = engine.code_of(state.turned)
    dealt = None  # the state when the play starts: every hand complete
    snapshots = []  # the state after each trick
    for action in hand_actions(hand):
        state = engine.apply(state, action)
        if dealt is None and state.phase == engine.PLAYING:
            dealt = state
        if len(state.tricks) > len(snapshots):
            snapshots.append(state)
    if dealt is None:  # nobody took, or a redeal: the hands as they were dealt
        dealt = state
    final = engine.view(state, None)
    steps = len(snapshots)
    step = max(0, min(step, steps))
    at_step = dealt if step == 0 else snapshots[step - 1]
    mode = final["contract"]["mode"] if final["contract"] else None

    seats = list(table.seats.select_related("user").order_by("position"))
    mine = None
    if viewer is not None:
        mine = next((s.position for s in seats if s.user_id and s.user_id == viewer.pk), None)
    bottom = mine if mine is not None else SOUTH
    taker = final["contract"]["taker"] if final["contract"] else None
    tricks = _tricks(final, bottom)
    trick = tricks[step - 1] if step else None
    announces = _announces(final)
    belote = _belote(final)
    shown = []
    starting = []
    for seat in seats:
        letter = SEAT_LETTERS[seat.position]
        cards = [Card(c) for c in sort_hand(engine.view(at_step, seat.position)["hand"], mode)]
        shown.append(
            SeatShown(
                seat=seat,
                place=_place(seat.position, bottom),
                is_me=seat.position == mine,
                is_dealer=final["dealer"] == letter,
                is_taker=taker == letter,
                card_count=len(cards),
                announces=[a for a in announces if a.letter == letter],
                belote=[b for b in belote if b.letter == letter],
                cards=cards,
            )
        )
        dealt_cards = sort_hand(engine.view(dealt, seat.position)["hand"], mode)
        starting.append((letter, _seat_name(letter), [Card(c) for c in dealt_cards]))
    if trick is not None:
        trick = TrickShown(
            trick.number,
            [Played(p.letter, p.place, p.card, won=p.letter == trick.winner) for p in trick.cards],
            trick.winner,
            trick.points,
        )
    turned_suit = first_turned[1]
    return Replay(
        table=table,
        game_number=hand.game.number,
        result=HandResult(hand, hand.game.number, table.pk),
        step=step,
        steps=steps,
        seats=shown,
        starting=starting,
        turned=Card(first_turned),
        bids=[(_seat_name(b["seat"]), *_bid_text(b["action"], turned_suit)) for b in final["bids"]],
        contract=Mode(mode) if mode else None,
        trick=trick,
        tricks=tricks,
        announces=announces,
        belote=belote,
        score=final.get("score"),
    )
