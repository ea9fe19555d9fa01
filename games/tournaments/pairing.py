"""What tournament pairings are made of, and the standings: pure, deterministic, no Django.

Teams are plain ints (their ids) and a tournament's history is a list of ``Match``
values; games/tournaments/service.py turns rows into these and pairs back into rows. Each
format pairs its rounds in its own module (games/tournaments/formats/: round robin,
Swiss, knockout). The same input always gives the same pairing: nothing here is random.

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


__all__ = [
    "Match",
    "Pair",
    "Standing",
    "Team",
    "standings",
]
