"""What a started table shows: one viewer's board (the replay of a finished hand is
games/tables/replay.py).

Game state reaches these pages only through the engine's ``view(state, seat)``: the
viewer's own seat, or ``None`` for a spectator, who sees no hand at all. The table's rows
add the seats, the scores, the score sheet and who is connected (games/tables/presence.py).

Everything becomes small display values (cards with their French names, seats placed
around the square from the viewer's side, button labels) so that the templates only lay
them out. The seat of the viewer is at the bottom, the next one in the clockwise order
(their left) on the left, their partner on top.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games import rules as engine
from games.rules.hand import ALL_PASSED, FOUR_SEVENS, MAIN_NULLE
from games.tables import presence
from games.tables.memo import Memo
from games.tables.models import Game, Hand, Seat, Table
from games.tables.seats import table_seats
from games.tables.selectors import table_state
from games.tables.words import (
    SEAT_LETTERS,
    SOUTH,
    TEAM_NAMES,
    TURN_OF,
    ActionButton,
    AnnounceShown,
    BeloteShown,
    Card,
    Mode,
    Played,
    TrickShown,
    announces_shown,
    belote_shown,
    bid_text,
    buttons_for,
    name_of_seat,
    place_of,
    sort_hand,
    tricks_shown,
)


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
        return name_of_seat(self.seat.position)

    @property
    def turn_text(self) -> str:
        return TURN_OF[self.seat.position]

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
        return name_of_seat(self.hand.dealer)

    @property
    def contract(self) -> Mode | None:
        return Mode(self.hand.contract) if self.hand.contract else None

    @property
    def taker_name(self) -> str:
        return name_of_seat(self.hand.taker)

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


# The session key of the hand whose summary a viewer closed at a table ("Donne suivante").
SUMMARY_SEEN = "summary-seen-{}"


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
    """What the score sheet, the previous games and the deal's commitment depend on (the
    commitment is the hand's, fixed at the deal; a finished table shows none)."""
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
            last_bids[bid["seat"]] = bid_text(bid["action"], turned_suit)
    announces = announces_shown(view)
    belote = belote_shown(view)
    for seat in seats:
        letter = SEAT_LETTERS[seat.position]
        shown.append(
            SeatShown(
                seat=seat,
                place=place_of(seat.position, bottom),
                is_me=seat.position == my_position,
                is_dealer=view["dealer"] == letter,
                # An abandoned table keeps its last position, but nobody is to act.
                is_turn=view["turn"] == letter and table.status == Table.Status.PLAYING,
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
    tricks = tricks_shown(view, bottom)
    centre = [
        Played(c["seat"], place_of(SEAT_LETTERS.index(c["seat"]), bottom), Card(c["card"]))
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
    bids = [(name_of_seat(b["seat"]), *bid_text(b["action"], turned_suit)) for b in view["bids"]]
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
        buttons=buttons_for(legal_actions, turned_suit, view.get("my_announces", [])),
        turned=Card(view["turned"]) if view["turned"] and view["phase"] == engine.BIDDING else None,
        bid_round=view["bid_round"],
        bids=bids,
        contract=contract,
        taker_name=name_of_seat(taker),
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
        # A tournament match is one game: lobby.rematch refuses it, so no button.
        can_rematch=finished and my_position is not None and not hasattr(table, "tournament_match"),
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
