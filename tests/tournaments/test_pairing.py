"""games/tournaments/formats/: round robin, Swiss and knockout pairings; and the standings
(games/tournaments/pairing.py).

The Swiss promises are checked against a brute force: every way to pair a round (and,
with an odd number of teams, every bye) is enumerated for up to ten teams. For larger
fields a repeat-free round is known to exist while few rounds are played (see
``test_swiss_tournaments_never_repeat_early``), so those are checked without it.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.tournaments.formats.knockout import (
    bracket_seeds,
    knockout_first_round,
    knockout_next_round,
    knockout_round_count,
)
from games.tournaments.formats.round_robin import round_robin_schedule
from games.tournaments.formats.swiss import swiss_pairs
from games.tournaments.pairing import Match, Team, standings

# ---------------------------------------------------------------------------------------
# Helpers


def teams_of(count: int) -> list[Team]:
    """Teams 1..count, seeded in that order (ids chosen apart from seeds on purpose)."""
    return [Team(id=100 + i, seed=i) for i in range(1, count + 1)]


def ids(teams: list[Team]) -> list[int]:
    return [t.id for t in teams]


def all_pairings(players: list[int]):
    """Every way to split an even list into pairs."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def met_pairs(matches: list[Match]) -> set[frozenset]:
    return {frozenset((m.one, m.two)) for m in matches if m.two is not None}


def repeat_free_exists(players: list[int], met: set[frozenset], bye: int | None = None) -> bool:
    """Brute force: some pairing of ``players`` (minus ``bye``) repeats nobody."""
    rest = [p for p in players if p != bye]
    return any(
        all(frozenset(pair) not in met for pair in pairing) for pairing in all_pairings(rest)
    )


def play(pairs, rng: random.Random, round_no: int) -> list[Match]:
    """Results for a round: a random winner, random game scores (the winner ahead)."""
    played = []
    for one, two in pairs:
        if two is None:
            played.append(Match(one, None, one))
            continue
        winner = rng.choice((one, two))
        high, low = rng.randint(501, 700), rng.randint(0, 500)
        scores = (high, low) if winner == one else (low, high)
        played.append(Match(one, two, winner, *scores))
    return played


def check_round(pairs, team_ids: list[int]) -> None:
    """Every team exactly once, at most one bye, and nobody against itself."""
    seen = [t for pair in pairs for t in pair if t is not None]
    assert sorted(seen) == sorted(team_ids)
    assert sum(two is None for _, two in pairs) == len(team_ids) % 2
    assert all(one != two for one, two in pairs)


random_history = st.integers(2, 10).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(0, n + 1), st.randoms(use_true_random=False))
)


def arbitrary_history(count: int, rounds: int, rng: random.Random) -> list[Match]:
    """Past rounds paired at random (not by the Swiss rules): any history at all."""
    team_ids = ids(teams_of(count))
    history: list[Match] = []
    for number in range(rounds):
        shuffled = rng.sample(team_ids, count)
        pairs = [(shuffled[i], shuffled[i + 1]) for i in range(0, count - 1, 2)]
        if count % 2:
            pairs.append((shuffled[-1], None))
        history += play(pairs, rng, number)
    return history


# ---------------------------------------------------------------------------------------
# Round robin


@given(st.integers(2, 16))
def test_round_robin_meets_everyone_exactly_once(count):
    team_ids = ids(teams_of(count))
    schedule = round_robin_schedule(team_ids)

    assert len(schedule) == (count - 1 if count % 2 == 0 else count)
    meetings = [frozenset(p) for pairs in schedule for p in pairs if p[1] is not None]
    assert len(meetings) == len(set(meetings)) == count * (count - 1) // 2
    for pairs in schedule:
        check_round(pairs, team_ids)
    byes = [one for pairs in schedule for one, two in pairs if two is None]
    assert sorted(byes) == (sorted(team_ids) if count % 2 else [])


def test_round_robin_of_four():
    assert round_robin_schedule([1, 2, 3, 4]) == [
        [(1, 4), (2, 3)],
        [(3, 1), (4, 2)],
        [(1, 2), (3, 4)],
    ]


def test_round_robin_puts_the_bye_last():
    for pairs in round_robin_schedule([1, 2, 3, 4, 5]):
        assert pairs[-1][1] is None
        assert all(two is not None for _, two in pairs[:-1])


# ---------------------------------------------------------------------------------------
# Swiss


def test_swiss_first_round_pairs_top_down_by_seed():
    teams = teams_of(8)

    assert swiss_pairs(teams, []) == [(101, 102), (103, 104), (105, 106), (107, 108)]


def test_swiss_pairs_the_leaders_together_and_avoids_a_rematch():
    """After 1-2, 3-4 (the first of each won): the winners 1 and 3 meet, then the losers,
    4 first (it lost by 20 points, 2 by 300)."""
    teams = teams_of(4)
    history = [Match(101, 102, 101, 600, 300), Match(103, 104, 103, 510, 490)]

    assert swiss_pairs(teams, history) == [(101, 103), (104, 102)]


def test_swiss_floats_down_rather_than_repeat():
    """Round 3: the leader 1 has met 4 and 2 (the next two): it floats down to 3."""
    teams = teams_of(4)
    history = [Match(101, 102, 101, 600, 300), Match(103, 104, 104, 400, 520)]
    # Standings: 101 (+300) and 104 (+120) on one point, then 103 (-120) and 102 (-300).
    assert swiss_pairs(teams, history) == [(101, 104), (103, 102)]
    third = [*history, Match(101, 104, 101), Match(103, 102, 102)]
    # 101 on two points; 104 and 102 on one, Buchholz 2 each, 104 ahead on difference.
    assert swiss_pairs(teams, third) == [(101, 103), (104, 102)]


def test_swiss_bye_goes_to_the_lowest_ranked_without_one():
    teams = teams_of(5)
    first = swiss_pairs(teams, [])
    assert first[-1] == (105, None)

    history = [Match(101, 102, 101), Match(103, 104, 103), Match(105, None, 105)]
    second = swiss_pairs(teams, history)
    # Ranked 101, 103, 105 (a win each, by seed), then 102 and 104: 104 is the last, and
    # the others can still be paired without a rematch (101-103, 105-102).
    assert second == [(101, 103), (105, 102), (104, None)]


@given(random_history)
def test_swiss_never_repeats_when_a_repeat_free_round_exists(case):
    count, rounds, rng = case
    teams = teams_of(count)
    history = arbitrary_history(count, rounds, rng)
    met = met_pairs(history)

    pairs = swiss_pairs(teams, history)

    check_round(pairs, ids(teams))
    repeats = [p for p in pairs if p[1] is not None and frozenset(p) in met]
    possible = any(repeat_free_exists(ids(teams), met, bye) for bye in _bye_choices(teams))
    if possible:
        assert repeats == []


@given(random_history)
def test_swiss_bye_goes_to_a_team_without_one_while_possible(case):
    """Among the teams whose bye leaves a repeat-free round, the lowest-ranked without a
    bye gets it (the repeat-free round comes first, see games/tournaments/pairing.py)."""
    count, rounds, rng = case
    if count % 2 == 0:
        count += 1
    teams = teams_of(count)
    history = arbitrary_history(count, rounds, rng)
    met = met_pairs(history)
    had_bye = {m.one for m in history if m.two is None}
    ranked = [s.team for s in standings(teams, history)]

    bye = swiss_pairs(teams, history)[-1][0]

    fine = [t for t in reversed(ranked) if t not in had_bye and repeat_free_exists(ranked, met, t)]
    if fine:
        assert bye == fine[0]
    elif not any(repeat_free_exists(ranked, met, t) for t in ranked):
        # No bye avoids a repeat: the lowest-ranked team without a bye still gets it.
        without = [t for t in reversed(ranked) if t not in had_bye]
        assert bye == (without[0] if without else ranked[-1])


@given(st.integers(2, 16), st.randoms(use_true_random=False))
def test_swiss_tournaments_never_repeat_early(count, rng):
    """A whole Swiss played by the rules: no repeat, every team once a round, distinct
    byes. After r rounds every team has met at most r others, so while r < n/2 - 1 the
    teams that have not met form a graph where everyone has at least half the others
    left: such a graph has a perfect matching (Dirac), hence a repeat-free round."""
    teams = teams_of(count)
    even = count - count % 2
    history: list[Match] = []
    for number in range(max(1, even // 2)):
        pairs = swiss_pairs(teams, history)
        check_round(pairs, ids(teams))
        met = met_pairs(history)
        assert not [p for p in pairs if p[1] is not None and frozenset(p) in met]
        history += play(pairs, rng, number)
    byes = [m.one for m in history if m.two is None]
    assert len(byes) == len(set(byes))


@given(st.integers(2, 9), st.randoms(use_true_random=False))
def test_swiss_as_long_as_a_round_robin_never_repeats_while_avoidable(count, rng):
    """n - 1 rounds (n for an odd count): late rounds may have no repeat-free pairing
    left; whenever they have one, it is taken (brute force)."""
    teams = teams_of(count)
    rounds = count - 1 if count % 2 == 0 else count
    history: list[Match] = []
    for number in range(rounds):
        met = met_pairs(history)
        pairs = swiss_pairs(teams, history)
        check_round(pairs, ids(teams))
        if any(repeat_free_exists(ids(teams), met, bye) for bye in _bye_choices(teams)):
            assert not [p for p in pairs if p[1] is not None and frozenset(p) in met]
        history += play(pairs, rng, number)


def _bye_choices(teams: list[Team]) -> list[int | None]:
    return ids(teams) if len(teams) % 2 else [None]


def test_swiss_is_deterministic():
    rng = random.Random(3)
    teams = teams_of(9)
    history = arbitrary_history(9, 3, rng)

    assert swiss_pairs(teams, history) == swiss_pairs(list(teams), list(history))


# ---------------------------------------------------------------------------------------
# Knockout


def test_bracket_seeds_of_eight():
    assert bracket_seeds(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_seeds(2) == [1, 2]


def test_knockout_of_eight():
    teams = ids(teams_of(8))

    assert knockout_first_round(teams) == [(101, 108), (104, 105), (102, 107), (103, 106)]
    assert knockout_round_count(8) == 3


def test_knockout_byes_go_to_the_top_seeds():
    pairs = knockout_first_round(ids(teams_of(5)))

    assert pairs == [(101, None), (104, 105), (102, None), (103, None)]
    assert knockout_round_count(5) == 3


def test_knockout_next_round_pairs_slots_two_by_two():
    assert knockout_next_round([1, 4, 2, 3]) == [(1, 4), (2, 3)]
    with pytest.raises(ValueError):
        knockout_next_round([1, 2, 3])


@given(st.integers(2, 16), st.randoms(use_true_random=False))
def test_knockout_ends_with_one_winner(count, rng):
    team_ids = ids(teams_of(count))
    pairs = knockout_first_round(team_ids)
    assert sorted(t for pair in pairs for t in pair if t is not None) == team_ids
    byes = [one for one, two in pairs if two is None]
    assert sorted(byes) == team_ids[: len(byes)]  # the top seeds
    assert len(pairs) * 2 - count == len(byes)
    rounds = 1
    while True:
        winners = [m.winner for m in play(pairs, rng, rounds)]
        if len(winners) == 1:
            break
        pairs = knockout_next_round(winners)
        rounds += 1
    assert rounds == knockout_round_count(count)


@given(st.integers(2, 16))
def test_top_two_seeds_meet_only_in_the_final(count):
    """Whatever happens, seeds 1 and 2 are in different halves of the bracket."""
    pairs = knockout_first_round(ids(teams_of(count)))
    half = len(pairs) // 2 or 1
    top = [t for pair in pairs[:half] for t in pair]
    bottom = [t for pair in pairs[half:] for t in pair]
    assert 101 in top
    assert (102 in bottom) or count == 2


# ---------------------------------------------------------------------------------------
# Standings


def test_standings_by_match_points_then_buchholz_then_difference_then_seed():
    teams = teams_of(4)
    matches = [
        Match(101, 102, 102, 300, 600),  # 2 beats 1
        Match(103, 104, 103, 520, 500),  # 3 beats 4
        Match(102, 103, 102, 510, 400),  # 2 beats 3
        Match(101, 104, 101, 700, 0),  # 1 beats 4
    ]
    table = standings(teams, matches)

    # 2: two wins. 1 and 3: one win each; Buchholz 1: 2 + 0 = 2, 3: 0 + 2 = 2; difference
    # 1: -300 + 700 = 400, 3: 20 - 110 = -90. 4: no win.
    assert [s.team for s in table] == [102, 101, 103, 104]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    two, one, three, four = table
    assert (two.match_points, two.buchholz, two.difference) == (2, 2, 410)
    assert (one.match_points, one.buchholz, one.difference) == (1, 2, 400)
    assert (three.match_points, three.buchholz, three.difference) == (1, 2, -90)
    assert (four.wins, four.losses, four.played) == (0, 2, 2)


def test_seed_breaks_a_complete_tie():
    teams = teams_of(2)

    assert [s.team for s in standings(teams, [])] == [101, 102]


def test_a_bye_is_a_win_that_adds_no_buchholz_and_no_points():
    teams = teams_of(3)
    matches = [Match(101, 102, 101, 600, 400), Match(103, None, 103)]
    by_team = {s.team: s for s in standings(teams, matches)}

    assert (by_team[103].wins, by_team[103].byes, by_team[103].played) == (1, 1, 0)
    assert by_team[103].buchholz == 0
    assert by_team[103].points_for == 0
    assert by_team[102].buchholz == 1


def test_undecided_matches_do_not_count():
    teams = teams_of(2)
    line = standings(teams, [Match(101, 102, None, 300, 200)])[0]

    assert (line.played, line.points_for, line.buchholz) == (0, 0, 0)


def test_every_way_to_pair_is_enumerated():
    """The brute force itself: 2n players have (2n - 1)!! pairings."""
    assert len(list(all_pairings(list(range(6))))) == 15
    assert len(list(all_pairings(list(range(8))))) == 105
    assert len(set(map(tuple, all_pairings(list(range(4)))))) == 3
    assert list(itertools.islice(all_pairings([]), 2)) == [[]]
