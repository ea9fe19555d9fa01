"""Pairing and standings of tournaments: pure, deterministic, no Django.

Teams are plain ints (their ids) and a tournament's history is a list of ``Match``
values; ``games.tournaments`` turns rows into these and pairs back into rows. The same
input always gives the same pairing: nothing here is random.

- **Round robin** (``round_robin_schedule``): the circle method. The first team stays
  put and the others turn round it, so every team meets every other exactly once in
  n - 1 rounds (n rounds with a bye each when n is odd).
- **Swiss** (``swiss_pairs``): teams ranked by ``standings``; the best-placed team still
  unpaired meets the next best-placed one it has not met (top-down within the score
  groups, floating down to the next group when it has met them all: the Monrad way).
  A backtracking search over that order guarantees that no two teams meet twice when
  some pairing of the round avoids it; only when none does is the fewest-repeats greedy
  order used. With an odd number of teams the bye goes to the lowest-ranked team that
  has not had one yet (the next one up if that would force a repeat), and counts as a win.
- **Knockout** (``knockout_first_round``, ``knockout_next_round``): the standard bracket
  (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight), padded to a power of two with byes, which
  therefore go to the top seeds; the winners of slots 2k - 1 and 2k meet in slot k.
- **Standings** (``standings``): match points (a win or a bye is one point, a defeat or
  a forfeit none), then Buchholz (the sum of the match points of the teams met; a bye
  adds nothing), then the points difference (game points for minus against, over the
  matches played, forfeits with the score at the time), then the seed (1 first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Pair = tuple[int, int | None]  # (team one, team two); None: team one has a bye


@dataclass(frozen=True)
class Team:
    id: int
    seed: int  # 1 is the strongest


@dataclass(frozen=True)
class Match:
    """One match of a past (or current) round; undecided ones (``winner`` None) do not count."""

    one: int
    two: int | None  # None: a bye
    winner: int | None
    score_one: int = 0
    score_two: int = 0

    @property
    def is_bye(self) -> bool:
        return self.two is None


@dataclass(frozen=True)
class Standing:
    team: int
    seed: int
    rank: int
    played: int  # matches against a team, decided
    wins: int  # byes included
    losses: int
    byes: int
    match_points: int
    buchholz: int
    points_for: int
    points_against: int

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


# ---------------------------------------------------------------------------------------
# Standings


def standings(teams: Sequence[Team], matches: Sequence[Match]) -> list[Standing]:
    """Every team's line, best first (see the module docstring for the order)."""
    decided = [m for m in matches if m.winner is not None]
    wins = {t.id: 0 for t in teams}
    byes = dict(wins)
    played = dict(wins)
    points_for = dict(wins)
    points_against = dict(wins)
    opponents: dict[int, list[int]] = {t.id: [] for t in teams}
    for m in decided:
        wins[m.winner] += 1
        if m.is_bye:
            byes[m.one] += 1
            continue
        for me, other, mine, theirs in (
            (m.one, m.two, m.score_one, m.score_two),
            (m.two, m.one, m.score_two, m.score_one),
        ):
            played[me] += 1
            points_for[me] += mine
            points_against[me] += theirs
            opponents[me].append(other)
    buchholz = {team: sum(wins[o] for o in met) for team, met in opponents.items()}
    order = sorted(
        teams,
        key=lambda t: (
            -wins[t.id],
            -buchholz[t.id],
            -(points_for[t.id] - points_against[t.id]),
            t.seed,
            t.id,
        ),
    )
    return [
        Standing(
            team=t.id,
            seed=t.seed,
            rank=rank,
            played=played[t.id],
            wins=wins[t.id],
            losses=played[t.id] + byes[t.id] - wins[t.id],
            byes=byes[t.id],
            match_points=wins[t.id],
            buchholz=buchholz[t.id],
            points_for=points_for[t.id],
            points_against=points_against[t.id],
        )
        for rank, t in enumerate(order, start=1)
    ]


# ---------------------------------------------------------------------------------------
# Round robin


def round_robin_schedule(teams: Sequence[int]) -> list[list[Pair]]:
    """All the rounds of a round robin, by the circle method; byes last in their round.

    The fixed team changes side every round so that it does not always sit North-South.
    """
    slots: list[int | None] = list(teams)
    if len(slots) % 2:
        slots.append(None)
    count = len(slots)
    rounds = []
    for number in range(count - 1):
        pairs: list[Pair] = []
        byes: list[Pair] = []
        for i in range(count // 2):
            a, b = slots[i], slots[count - 1 - i]
            if i == 0 and number % 2:
                a, b = b, a
            if a is None or b is None:
                byes.append((a if b is None else b, None))
            else:
                pairs.append((a, b))
        rounds.append(pairs + byes)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


# ---------------------------------------------------------------------------------------
# Swiss


def swiss_pairs(teams: Sequence[Team], matches: Sequence[Match]) -> list[Pair]:
    """The next Swiss round: pairs in standings order (the leaders first), the bye last."""
    order = [s.team for s in standings(teams, matches)]
    met = {frozenset((m.one, m.two)) for m in matches if not m.is_bye}
    if len(order) % 2 == 0:
        return _pair_without_repeats(order, met) or _pair_fewest_repeats(order, met)
    had_bye = {m.one for m in matches if m.is_bye}
    lowest_first = order[::-1]
    candidates = [t for t in lowest_first if t not in had_bye] + [
        t for t in lowest_first if t in had_bye
    ]
    for bye in candidates:
        pairs = _pair_without_repeats([t for t in order if t != bye], met)
        if pairs is not None:
            return [*pairs, (bye, None)]
    bye = candidates[0]
    return [*_pair_fewest_repeats([t for t in order if t != bye], met), (bye, None)]


def _pair_without_repeats(order: list[int], met: set[frozenset]) -> list[Pair] | None:
    """Pair ``order`` (an even number of teams, best first) so that nobody meets a team
    twice, or None when that is impossible.

    Depth-first in the top-down order: the best unpaired team tries its possible
    opponents from the best down. The remaining teams are a bit mask, and a mask found
    unpairable is remembered, so the search visits each set of teams at most once.
    """
    count = len(order)
    fresh = [
        [i != j and frozenset((order[i], order[j])) not in met for j in range(count)]
        for i in range(count)
    ]
    dead: set[int] = set()

    def solve(remaining: int) -> list[tuple[int, int]] | None:
        if remaining == 0:
            return []
        if remaining in dead:
            return None
        first = (remaining & -remaining).bit_length() - 1
        rest = remaining & ~(1 << first)
        others = rest
        while others:
            low = others & -others
            other = low.bit_length() - 1
            others &= ~low
            if fresh[first][other]:
                tail = solve(rest & ~low)
                if tail is not None:
                    return [(first, other), *tail]
        dead.add(remaining)
        return None

    found = solve((1 << count) - 1)
    if found is None:
        return None
    return [(order[i], order[j]) for i, j in found]


def _pair_fewest_repeats(order: list[int], met: set[frozenset]) -> list[Pair]:
    """Top-down, each team taking the best-placed unpaired team it has not met if any,
    else the best-placed one: only used when every pairing has a repeat."""
    left = list(order)
    pairs: list[Pair] = []
    while left:
        first = left.pop(0)
        other = next((t for t in left if frozenset((first, t)) not in met), left[0])
        left.remove(other)
        pairs.append((first, other))
    return pairs


# ---------------------------------------------------------------------------------------
# Knockout


def bracket_size(count: int) -> int:
    """The power of two a bracket of ``count`` teams is padded to."""
    size = 1
    while size < count:
        size *= 2
    return size


def knockout_round_count(count: int) -> int:
    """How many rounds a knockout of ``count`` teams takes (at least one)."""
    return max(1, bracket_size(count).bit_length() - 1)


def bracket_seeds(size: int) -> list[int]:
    """The seeds in bracket order, two by two: ``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8.

    Each round of doubling puts the new seed that sums to size + 1 beside every seed, so
    that the top two seeds can only meet in the final, the top four in the semi-finals.
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(teams: Sequence[int]) -> list[Pair]:
    """The first round of a knockout of ``teams`` (best seed first), one pair per slot.

    Seeds beyond the number of teams are byes: the better seed of a slot is always
    there, so the byes go to the top seeds.
    """
    order = bracket_seeds(bracket_size(len(teams)))
    pairs: list[Pair] = []
    for k in range(0, len(order), 2):
        better, worse = order[k], order[k + 1]
        pairs.append((teams[better - 1], teams[worse - 1] if worse <= len(teams) else None))
    return pairs


def knockout_next_round(winners: Sequence[int]) -> list[Pair]:
    """The next round from the winners of the last one in slot order (2k - 1 v 2k)."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError(f"a knockout round needs an even number of winners, not {len(winners)}")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


__all__ = [
    "Match",
    "Pair",
    "Standing",
    "Team",
    "bracket_seeds",
    "bracket_size",
    "knockout_first_round",
    "knockout_next_round",
    "knockout_round_count",
    "round_robin_schedule",
    "standings",
    "swiss_pairs",
]
