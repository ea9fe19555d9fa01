"""Double round robin ("Aller-retour"): every team meets every other twice, the second
time with the sides swapped. A scratch format (where to add a tournament format)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.tournaments.formats.base import Format
from games.tournaments.formats.round_robin import round_robin_schedule
from games.tournaments.pairing import Match, Pair, Team


class DoubleRoundRobin(Format):
    name = "double_rr"
    label = gettext_lazy("Aller-retour")

    def describe(self, rounds: int | None) -> str:
        return _("Aller-retour : chaque équipe rencontre toutes les autres deux fois.")

    def planned_rounds(self, teams: int, rounds: int | None) -> int:
        return 2 * len(round_robin_schedule(list(range(teams))))

    def pairs(
        self, number: int, teams: Sequence[Team], played: Mapping[int, Sequence[Match]]
    ) -> list[Pair] | None:
        schedule = round_robin_schedule([team.id for team in teams])
        if number <= len(schedule):
            return schedule[number - 1]
        return [
            (b, a) if b is not None else (a, b) for a, b in schedule[number - 1 - len(schedule)]
        ]


FORMAT = DoubleRoundRobin()
