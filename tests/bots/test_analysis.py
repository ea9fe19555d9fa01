"""The analysis of a finished hand (games/bots/analysis.py): each card play that perfect
play would have bettered, by the points of the hand's score, checked against plain
minimax on the engine's own states and score."""

from __future__ import annotations

import random

import pytest

from games.bots.analysis import analyse, team_points
from games.bots.solver import CAPOT, defence_capot_x, outcome, score_context
from games.rules import DONE, PRESETS, apply, legal_actions, parse_cards, score
from games.rules.actions import ANNOUNCE, PLAY, PLAY_
from games.rules.cards import HAND_POINTS, SA
from games.rules.hand import PLAYING, start_with_contract
from tests.bots.test_solver import dealt_in_play, random_play


def best_line(state) -> tuple[int, tuple[int, int]]:
    """Plain minimax over the engine's states: the taker's team maximises its score minus
    the defence's; the (difference, points of NS and EW) of a line of perfect play."""
    if state.phase == DONE:
        points = score(state).points
        t = state.taker & 1
        return points[t] - points[1 - t], points
    lines = [best_line(apply(state, a)) for a in legal_actions(state) if a.kind == PLAY_]
    pick = max if state.turn & 1 == state.taker & 1 else min
    return pick(lines, key=lambda line: line[0])


def brute_notes(start, actions, first_trick=1):
    """The notes analyse() must give, by brute force: (index, seat, played, best cards,
    gain, spared) for each card play from ``first_trick`` a legal card would have
    bettered."""
    out = []
    state = start
    for index, action in enumerate(actions):
        if state.phase == PLAYING and action.kind == PLAY_ and len(state.tricks) >= first_trick - 1:
            team = state.turn & 1
            sign = 1 if team == state.taker & 1 else -1
            lines = {
                a.arg: best_line(apply(state, a)) for a in legal_actions(state) if a.kind == PLAY_
            }
            top = max(sign * diff for diff, _ in lines.values())
            played = lines[action.arg]
            if sign * played[0] < top:
                best = {card for card, line in lines.items() if sign * line[0] == top}
                better = lines[min(best)][1]  # every best line scores the same points
                out.append(
                    (
                        index,
                        state.turn,
                        action.arg,
                        best,
                        better[team] - played[1][team],
                        played[1][1 - team] - better[1 - team],
                    )
                )
        state = apply(state, action)
    return out


def play_out(state, rng):
    """Random legal cards to the end (announces declared); the actions played."""
    actions = []
    while state.phase != DONE:
        choices = legal_actions(state)
        action = ANNOUNCE if ANNOUNCE in choices else rng.choice(choices)
        actions.append(action)
        state = apply(state, action)
    return actions


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_notes_of_the_last_tricks_are_brute_forces(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"analysis {preset}")
    marked = 0
    for trial in range(30):
        # Three or nearly four tricks left, often with a trick under way.
        start = random_play(dealt_in_play(rules, rng, contract=trial % 6), rng, 18 + trial % 5)
        actions = play_out(start, rng)
        notes = analyse(start, actions)
        expected = brute_notes(start, actions)
        got = [(n.index, n.seat, n.played, set(n.best), n.gain, n.spared) for n in notes]
        assert got == expected, (preset, trial)
        for note in notes:
            assert note.margin > 0
            assert actions[note.index] == PLAY[note.played]
        marked += len(notes)
    assert marked  # random play blunders: the test saw notes


def test_a_blunder_in_the_last_tricks_is_named_with_the_score_it_cost():
    # Sans atout, North takes and leads six tricks of hearts and clubs it wins. Then North
    # holds the ace of spades and the 7 of diamonds, East the king of spades and the ace
    # of diamonds. Cashing the ace of spades at once gives East the last trick with its
    # ace of diamonds and the dix de der; leading the 7 of diamonds first, North takes the
    # last trick with its ace: the same cards, and 10 points more for North-South.
    rules = PRESETS["classique"]
    hands = [
        parse_cards("AH TH KH AC TC KC AS 7D"),  # N
        parse_cards("8D 9D TD JD QD KD AD KS"),  # E
        parse_cards("7C 8C 9S TS JS QS 7S 8S"),  # S
        parse_cards("9H JH QH 8H 7H 9C JC QC"),  # W
    ]
    dealer = next(d for d in range(4) if start_with_contract(rules, d, hands, SA, 0).turn == 0)
    start = start_with_contract(rules, dealer, hands, SA, 0)
    tricks = [
        "AH 8D 9S 9H",
        "TH 9D TS JH",
        "KH TD JS QH",
        "AC JD 7C 9C",
        "TC QD 8C JC",
        "KC KD QS QC",
        "AS KS 7S 8H",  # the blunder
        "7D AD 8S 7H",
    ]
    seat_cards = [set(h) for h in hands]
    actions = []
    state = start
    for trick in tricks:
        for _ in range(4):
            card = next(c for c in parse_cards(trick) if c in seat_cards[state.turn])
            actions.append(PLAY[card])
            state = apply(state, PLAY[card])
    assert state.phase == DONE and score(state).made

    notes = analyse(start, actions, first_trick=7)

    assert [(n.trick, n.seat, n.played, n.best) for n in notes] == [
        (7, 0, parse_cards("AS")[0], tuple(parse_cards("7D")))
    ]
    assert (notes[0].gain, notes[0].spared) == (10, 10)  # the dix de der, for both teams
    assert [(n.index, n.seat, n.played, set(n.best), n.gain, n.spared) for n in notes] == (
        brute_notes(start, actions, first_trick=7)
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_team_points_are_the_engines_score_and_the_solvers_outcome(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"points {preset}")
    for _ in range(40):
        final = random_play(dealt_in_play(rules, rng), rng, 32)
        assert final.phase == DONE
        ctx = score_context(final)
        t = final.taker & 1
        taken = sum(1 for trick in final.tricks if trick.winner & 1 == t)
        x = (
            final.won[t] + CAPOT
            if taken == 8
            else defence_capot_x(ctx)
            if taken == 0
            else final.won[t]
        )
        assert team_points(final, x) == score(final).points
        for v in [defence_capot_x(ctx), *range(0, HAND_POINTS + 1, 7), HAND_POINTS + CAPOT]:
            points = team_points(final, v)
            assert points[t] - points[1 - t] == outcome(ctx, v)


def test_only_a_finished_hand_is_analysed_from_its_first_trick_weighed():
    rules = PRESETS["classique"]
    rng = random.Random(5)
    start = dealt_in_play(rules, rng)
    with pytest.raises(ValueError, match="finished"):
        analyse(start, [])
    actions = play_out(start, rng)
    # Card plays of tricks before first_trick are not weighed.
    assert all(n.trick >= 7 for n in analyse(start, actions, first_trick=7))
