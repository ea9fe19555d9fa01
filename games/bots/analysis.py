"""The analysis of a finished hand: which cards the exact double-dummy play would have
bettered, and by how many points.

Once a hand is over every card is known, so each card play can be weighed exactly: for
the seat that played, the double-dummy solver (games/bots/solver.py) gives the value of
every legal card with perfect play by all four seats afterwards. A card is marked when
another legal card would have given its team a better **score** for the hand (the points
written on the score sheet, under the table's rules: contract made or not, litige, capot,
belote, announces, dix de der), not merely more card points: winning 14 more card points
in a contract that is made anyway is worth 14, the 2 points that make a failing contract
are worth the whole hand.

What a note says:

- ``best``: the legal cards of best value for the team (the score difference between the
  two teams, what perfect play maximises), the most card points first;
- ``gain``: how many more points the team would have scored with the first of them;
- ``spared``: how many fewer points the other team would have scored;
- ``margin``: the difference's gain, ``gain + spared`` (always above 0 in a note).

In most hands the two teams share a fixed total and ``gain == spared``; they differ when
the better card avoids a capot or a litige whose points are set aside (then ``gain`` may
be 0 while the other team scores less: the note says so).

The hand's belotes and the announces its seats declared (in the first trick) are taken as
they were in the hand, for every card. A seat with a single legal card made no choice and
is never marked. ``first_trick`` bounds the work: the first card plays solve the whole
hand, the longest part of it in pure Python (see bench/analysis_bench.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.bots.solver import CAPOT, Solver, outcome, score_context
from games.rules import Action, HandState, Trick, apply, legal_cards, score
from games.rules.actions import PLAY_
from games.rules.cards import HAND_POINTS, KEY
from games.rules.hand import DONE, PLAYING

__all__ = ["CardNote", "analyse", "team_points"]


@dataclass(frozen=True)
class CardNote:
    """A card play that perfect play would have bettered (module docstring)."""

    index: int  # the play's position in the actions analysed
    seat: int
    trick: int  # 1 to 8
    played: int
    best: tuple[int, ...]
    gain: int
    spared: int

    @property
    def margin(self) -> int:
        return self.gain + self.spared


def analyse(
    start: HandState, actions: Iterable[Action], *, first_trick: int = 1, min_margin: int = 1
) -> list[CardNote]:
    """The notes of a hand: ``actions`` applied from ``start`` (a dealt hand, or a hand in
    play) must finish it. Card plays of tricks before ``first_trick`` are not weighed;
    a note needs a score difference of at least ``min_margin``."""
    actions = list(actions)
    final = start
    for action in actions:
        final = apply(final, action)
    if final.phase != DONE:
        raise ValueError("only a finished hand is analysed")
    if final.contract < 0 or not final.tricks:
        return []  # nobody took: no card was played
    # The belotes and the declared announces of the hand as it went.
    ctx = score_context(final)
    solver: Solver | None = None
    notes = []
    state = start
    for index, action in enumerate(actions):
        if (
            state.phase == PLAYING
            and action.kind == PLAY_
            and len(state.tricks) + 1 >= first_trick
            and legal_cards(state).bit_count() > 1
        ):
            if solver is None:
                solver = Solver(state, ctx)  # one table of positions for the whole hand
            note = _weigh(state, index, action.arg, solver.card_values(state), final, ctx)
            if note is not None and note.margin >= min_margin:
                notes.append(note)
        state = apply(state, action)
    return notes


def _weigh(state, index, played, values, final, ctx) -> CardNote | None:
    seat = state.turn
    team = seat & 1
    sign = 1 if team == final.taker & 1 else -1

    def worth(card: int) -> int:
        return sign * outcome(ctx, values[card])

    best_worth = max(worth(c) for c in values)
    if worth(played) >= best_worth:
        return None
    # The best cards, the most card points for the team first, then the strongest.
    key = KEY[state.contract]
    best = sorted(
        (c for c in values if worth(c) == best_worth),
        key=lambda c: (-sign * values[c], -key[c >> 3][c], c),
    )
    better = team_points(final, values[best[0]])
    worse = team_points(final, values[played])
    return CardNote(
        index=index,
        seat=seat,
        trick=len(state.tricks) + 1,
        played=played,
        best=tuple(best),
        gain=better[team] - worse[team],
        spared=worse[1 - team] - better[1 - team],
    )


def team_points(final: HandState, x: float) -> tuple[int, int]:
    """What NS and EW score for the hand ``final`` had its play ended at the solver's
    value ``x`` (the taker's team's card points, dix de der included, with the capot
    term: see games/bots/solver.py): the engine's own score of the hand, its card points
    and the takers of its tricks replaced by what ``x`` says."""
    t = final.taker & 1
    d = 1 - t
    if x >= CAPOT:
        points, winners = int(x) - CAPOT, [t] * 8  # the taker's team took every trick
    elif x != int(x) or x < 0:
        points, winners = 0, [d] * 8  # it took none
    else:
        points, winners = int(x), [t] + [d] * 7  # each team took at least one
    won = [0, 0]
    won[t], won[d] = points, HAND_POINTS - points
    # ``score`` reads only who took each trick (a capot), not its cards.
    tricks = tuple(Trick(w, (), w, 0) for w in winners)
    return score(final._replace(won=tuple(won), tricks=tricks)).points
