"""What a tournament format is: how many rounds it takes, how each round is paired, and
how the pages name it. A format is pure (no database): the service hands it the teams
and the matches played so far as games/tournaments/pairing.py values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.tournaments.pairing import Match, Pair, Team


class Format:
    """One format; a subclass per module of games/tournaments/formats/, one instance
    registered in ``FORMATS`` (games/tournaments/formats/__init__.py)."""

    name: str = ""  # stored in Tournament.format
    label: str = ""  # the admin's and the pages' name (lazily translated)
    # An elimination bracket: the bracket page shows it column by column, the last rounds
    # have names, and a bye goes through to the next round. Otherwise the round grid.
    bracket: bool = False
    # The organiser chooses how many rounds (``Tournament.rounds``); otherwise the number
    # of teams decides it and ``Tournament.rounds`` stays empty.
    chosen_rounds: bool = False
    rounds_missing: str = ""  # the admin form's error when a chosen number is missing

    def describe(self, rounds: int | None) -> str:
        """The format in a sentence, for the tournament's page."""
        raise NotImplementedError

    def planned_rounds(self, teams: int, rounds: int | None) -> int:
        """How many rounds the tournament takes with ``teams`` teams (``rounds``: the
        organiser's number, for a format with ``chosen_rounds``)."""
        raise NotImplementedError

    def rounds_refusal(self, teams: int, rounds: int | None) -> str | None:
        """Why the organiser's number of rounds cannot be played by ``teams`` teams, or
        None; checked at the start."""
        return None

    def pairs(
        self, number: int, teams: Sequence[Team], played: Mapping[int, Sequence[Match]]
    ) -> list[Pair] | None:
        """The pairs of round ``number`` (at most ``planned_rounds``), or None when the
        tournament is over. ``teams`` come best seed first; ``played`` maps each earlier
        round's number to its matches in slot order."""
        raise NotImplementedError

    def round_name(self, number: int, total: int) -> str | None:
        """A round's own name ("Finale"), or None for "Ronde n"."""
        return None


def matches_of(played: Mapping[int, Sequence[Match]]) -> list[Match]:
    """Every match played, round after round."""
    return [match for number in sorted(played) for match in played[number]]
