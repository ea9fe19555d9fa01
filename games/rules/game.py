"""Scoring a finished hand, and the game (partie): hands to the target.

``score(state)`` turns a finished hand into points for NS and EW following the preset's
contract, litige and capot rules. ``Game`` is the running total: ``start_hand`` deals the
next hand, ``record_hand`` adds a finished one, carries litige points and decides the
winner at the target.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .announces import best_team
from .cards import HAND_POINTS
from .hand import DONE, HandState, deal, next_dealer
from .options import Rules


class HandScore(NamedTuple):
    contract: int  # -1 when nobody took
    taker: int
    tricks: tuple[int, int]  # card points won by NS and EW, dix de der included
    belote: tuple[int, int]
    announces: tuple[int, int]  # what each team's announces are worth after comparison
    capot: int  # the team that took every trick, -1 if none
    made: bool
    litige: bool
    points: tuple[int, int]  # what each team scores for this hand
    held: int  # points set aside by a litige, for the winner of the next hand
    winner: int  # the team that won the hand (taker if made, else defence), -1 if none

    @property
    def passed(self) -> bool:
        return self.contract == -1


def score(state: HandState) -> HandScore:
    """The points of a finished hand for NS and EW.

    Announces: only the team with the best one scores (``best_team``), and a team without
    a trick loses its announces (000: "l'équipe capot perd ses annonces"). The best is
    found first and struck out after, so when the team without a trick held it nobody
    scores announces: the other team's were beaten by it, and stay unscored.
    """
    if state.phase != DONE:
        raise ValueError("the hand is not over")
    if state.contract == -1:
        return HandScore(-1, -1, (0, 0), (0, 0), (0, 0), -1, False, False, (0, 0), 0, -1)
    rules = state.rules
    t = state.taker & 1
    d = 1 - t
    tricks = state.won
    count = [0, 0]
    for trick in state.tricks:
        count[trick.winner & 1] += 1
    capot = 0 if count[1] == 0 else 1 if count[0] == 0 else -1
    belote = [0, 0]
    for seat in range(4):
        belote[seat & 1] += 20 * state.belotes[seat].bit_count()
    announces = [0, 0]
    if state.declared:
        team = best_team(state.announces, state.declared, t, rules.announce_tie)
        if team >= 0 and team != 1 - capot:  # 000: "l'équipe capot perd ses annonces"
            announces[team] = sum(
                a.points
                for seat in range(4)
                if seat & 1 == team and state.declared >> seat & 1
                for a in state.announces[seat]
            )

    def counted(team: int) -> int:
        total = tricks[team]
        if rules.contract_counts_belote:
            total += belote[team]
        if rules.contract_counts_announces:
            total += announces[team]
        return total

    litige = False
    if capot >= 0:
        made = capot == t
    else:
        if rules.contract == "beat_defence":
            made = counted(t) > counted(d)
        else:
            made = counted(t) >= rules.contract_points
        if made and rules.belote_contract_points and (belote[0] or belote[1]):
            # 004: a belote makes the contract 92 (the taker's own belote counting).
            made = tricks[t] + belote[t] >= rules.belote_contract_points
        litige = not made and counted(t) == counted(d)

    points = [0, 0]
    held = 0
    # What the taker keeps of its belote when it does not make its contract; the rest
    # goes with its other points (003: "l'autre équipe marque tout").
    kept = belote[t] if rules.belote_kept else 0
    if litige and rules.litige == "held":
        points[d] = tricks[d] + belote[d] + announces[d]
        points[t] = kept
        held = tricks[t] + announces[t] + belote[t] - kept
        winner = -1
    elif made:
        points[t] = (rules.capot_points if capot == t else tricks[t]) + belote[t] + announces[t]
        points[d] = tricks[d] + belote[d] + announces[d]
        winner = t
    else:
        base = rules.capot_points if capot == d else HAND_POINTS
        points[d] = base + belote[d] + announces[0] + announces[1] + belote[t] - kept
        points[t] = kept
        winner = d
    return HandScore(
        state.contract,
        state.taker,
        tuple(tricks),
        tuple(belote),
        tuple(announces),
        capot,
        made,
        litige,
        tuple(points),
        held,
        winner,
    )


class Game(NamedTuple):
    rules: Rules
    dealer: int  # who deals the next hand
    scores: tuple[int, int]
    held: int  # litige points waiting for the winner of the next hand (lost at the end)
    hands: tuple[HandScore, ...]
    winner: int  # -1 while the game goes on

    @property
    def over(self) -> bool:
        return self.winner >= 0


def new_game(rules: Rules, dealer: int) -> Game:
    return Game(rules, dealer, (0, 0), 0, (), -1)


def start_hand(game: Game, deck: Iterable[int]) -> HandState:
    if game.over:
        raise ValueError("the game is over")
    return deal(game.rules, game.dealer, deck)


def record_hand(game: Game, state: HandState) -> Game:
    """The game after a finished hand (its dealer must be the game's).

    Held litige points go to the next hand's winner; a game won on a litige hand has no
    next hand, so its held points go to nobody and stay in ``held`` (000 says only that
    they go "au vainqueur de la donne suivante").
    """
    if game.over:
        raise ValueError("the game is over")
    if state.dealer != game.dealer or state.rules != game.rules:
        raise ValueError("the hand was not dealt for this game")
    result = score(state)
    scores = list(game.scores)
    scores[0] += result.points[0]
    scores[1] += result.points[1]
    held = game.held
    if result.winner >= 0 and held:
        scores[result.winner] += held
        held = 0
    held += result.held
    rules = game.rules
    winner = -1
    if max(scores) >= rules.target:
        if scores[0] != scores[1]:
            winner = 0 if scores[0] > scores[1] else 1
        elif rules.tie_break == "last_hand_winner" and result.winner >= 0:
            winner = result.winner
    return Game(
        rules,
        next_dealer(rules, game.dealer),
        tuple(scores),
        held,
        game.hands + (result,),
        winner,
    )
