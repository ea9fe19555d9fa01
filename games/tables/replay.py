"""The replay of a finished hand, step by step: a finished hand is public, so the replay
asks the engine for each seat's view in turn."""

from __future__ import annotations

from dataclasses import dataclass

from games import rules as engine
from games.tables.board import HandResult, SeatShown
from games.tables.models import Hand, Table
from games.tables.selectors import deck_cards, hand_actions
from games.tables.words import (
    SEAT_LETTERS,
    SOUTH,
    AnnounceShown,
    BeloteShown,
    Card,
    Mode,
    Played,
    TrickShown,
    announces_shown,
    belote_shown,
    bid_text,
    name_of_seat,
    place_of,
    sort_hand,
    tricks_shown,
)


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
    tricks = tricks_shown(final, bottom)
    trick = tricks[step - 1] if step else None
    announces = announces_shown(final)
    belote = belote_shown(final)
    shown = []
    starting = []
    for seat in seats:
        letter = SEAT_LETTERS[seat.position]
        cards = [Card(c) for c in sort_hand(engine.view(at_step, seat.position)["hand"], mode)]
        shown.append(
            SeatShown(
                seat=seat,
                place=place_of(seat.position, bottom),
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
        starting.append((letter, name_of_seat(letter), [Card(c) for c in dealt_cards]))
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
        bids=[
            (name_of_seat(b["seat"]), *bid_text(b["action"], turned_suit)) for b in final["bids"]
        ],
        contract=Mode(mode) if mode else None,
        trick=trick,
        tricks=tricks,
        announces=announces,
        belote=belote,
        score=final.get("score"),
    )
