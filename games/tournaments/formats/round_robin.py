"""Round robin ("Toutes rondes"): every team meets every other once.

The circle method: the first team stays put and the others turn round it, so every team
meets every other exactly once in n - 1 rounds (n rounds with a bye each when n is odd).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.tournaments.formats.base import Format
from games.tournaments.pairing import Match, Pair, Team


class RoundRobin(Format):
    name = "round_robin"
    label = gettext_lazy("Toutes rondes")

    def describe(self, rounds: int | None) -> str:
        return _("Toutes rondes : chaque équipe rencontre toutes les autres une fois.")

    def planned_rounds(self, teams: int, rounds: int | None) -> int:
        return len(round_robin_schedule(list(range(teams))))

    def pairs(
        self, number: int, teams: Sequence[Team], played: Mapping[int, Sequence[Match]]
    ) -> list[Pair] | None:
        return round_robin_schedule([team.id for team in teams])[number - 1]


FORMAT = RoundRobin()


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
