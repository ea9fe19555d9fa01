"""Knockout ("Élimination directe"): the winner of each match goes through.

The standard bracket (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight), padded to a power of two
with byes, which therefore go to the top seeds; the winners of slots 2k - 1 and 2k meet
in slot k. Over when one team is left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.tournaments.formats.base import Format
from games.tournaments.pairing import Match, Pair, Team

# The last rounds by their names: how many rounds are still to come after them.
ROUND_NAMES = {
    0: gettext_lazy("Finale"),
    1: gettext_lazy("Demi-finales"),
    2: gettext_lazy("Quarts de finale"),
    3: gettext_lazy("Huitièmes de finale"),
}


class Knockout(Format):
    name = "knockout"
    label = gettext_lazy("Élimination directe")
    bracket = True

    def describe(self, rounds: int | None) -> str:
        return _(
            "Élimination directe : le vainqueur de chaque match passe au tour suivant ; les "
            "meilleures têtes de série sont exemptes du premier tour s'il le faut."
        )

    def planned_rounds(self, teams: int, rounds: int | None) -> int:
        return knockout_round_count(teams)

    def pairs(
        self, number: int, teams: Sequence[Team], played: Mapping[int, Sequence[Match]]
    ) -> list[Pair] | None:
        if number == 1:
            return knockout_first_round([team.id for team in teams])
        winners = [match.winner for match in played.get(number - 1, ())]
        return knockout_next_round(winners) if len(winners) > 1 else None

    def round_name(self, number: int, total: int) -> str | None:
        name = ROUND_NAMES.get(total - number)
        return None if name is None else str(name)


FORMAT = Knockout()


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
