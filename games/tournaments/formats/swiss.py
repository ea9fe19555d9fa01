"""Swiss system ("Système suisse"): as many rounds as the organiser chooses, each pairing
teams of the same score that have not met.

Teams are ranked by ``standings`` (games/tournaments/pairing.py); the best-placed team
still unpaired meets the next best-placed one it has not met (top-down within the score
groups, floating down to the next group when it has met them all: the Monrad way). A
backtracking search over that order guarantees that no two teams meet twice when some
pairing of the round avoids it; only when none does is the fewest-repeats greedy order
used. With an odd number of teams the bye goes to the lowest-ranked team that has not had
one yet (the next one up if that would force a repeat), and counts as a win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.tournaments.formats.base import Format, matches_of
from games.tournaments.pairing import Match, Pair, Team, standings


class Swiss(Format):
    name = "swiss"
    label = gettext_lazy("Système suisse")
    chosen_rounds = True
    rounds_missing = gettext_lazy("Un système suisse a un nombre de rondes.")

    def describe(self, rounds: int | None) -> str:
        return ngettext(
            "Système suisse en %(n)s ronde : à chaque ronde, les équipes de même score se "
            "rencontrent, jamais deux fois les mêmes.",
            "Système suisse en %(n)s rondes : à chaque ronde, les équipes de même score se "
            "rencontrent, jamais deux fois les mêmes.",
            rounds or 0,
        ) % {"n": rounds}

    def planned_rounds(self, teams: int, rounds: int | None) -> int:
        return rounds or 0

    def rounds_refusal(self, teams: int, rounds: int | None) -> str | None:
        most = max_swiss_rounds(teams)
        if rounds and 1 <= rounds <= most:
            return None
        return _("Un système suisse à %(teams)s équipes se joue en 1 à %(most)s rondes.") % {
            "teams": teams,
            "most": most,
        }

    def pairs(
        self, number: int, teams: Sequence[Team], played: Mapping[int, Sequence[Match]]
    ) -> list[Pair] | None:
        return swiss_pairs(teams, matches_of(played))


FORMAT = Swiss()


def max_swiss_rounds(teams: int) -> int:
    """As many rounds as a round robin of as many teams: beyond, a repeat is certain."""
    return teams - 1 if teams % 2 == 0 else teams


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
