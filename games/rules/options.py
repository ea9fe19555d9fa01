"""The options of a game of belote, as one frozen value.

Every difference between the five rule documents of ``shared/rules`` is one field here;
``presets.py`` gives each document its values. A table stores a preset name and the
fields it overrides, and ``Rules.with_options`` rebuilds the value with validation.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

Direction = Literal["clockwise", "counterclockwise"]
Side = Literal["left", "right"]

TARGET_CHOICES = (500, 501, 1000, 1001, 1500, 1501)

_CHOICES: dict[str, tuple[Any, ...]] = {
    "direction": ("clockwise", "counterclockwise"),
    "first_speaker": ("left", "right"),
    "first_leader": ("left", "right"),
    "next_dealer": ("left", "right"),
    "deal_pattern": ((3, 2), (2, 3), (5,)),
    "bidding": ("classic", "surenchere"),
    "announces": ("off", "auto", "declared"),
    "announce_tie": ("nobody", "taker"),
    "contract": ("beat_defence", "points"),
    "litige": ("held", "taker_fails"),
    "capot_points": (250, 252),
    "tie_break": ("play_on", "last_hand_winner"),
}


def _one_of(value: Any, choices: tuple[Any, ...]) -> bool:
    """``value in choices`` without letting 1000.0 pass for 1000 or (3.0, 2.0) for (3, 2)."""
    return any(value == c and repr(value) == repr(c) for c in choices)


class InvalidOptions(ValueError):
    """An option name or value that no table may use."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that varies between belote rule sets. Defaults are the classique rules.

    Seats are named from above the table with north at the top: ``left`` of a player is
    the next seat clockwise (N -> E), ``right`` the next counter-clockwise (N -> W).
    """

    # Deal
    direction: Direction = "counterclockwise"
    first_speaker: Side = "right"  # relative to the dealer
    first_leader: Side = "right"  # relative to the dealer
    next_dealer: Side = "right"  # also who deals after a hand where everybody passed
    deal_pattern: tuple[int, ...] = (3, 2)  # cards each before the turned card

    # Bidding
    bidding: Literal["classic", "surenchere"] = "classic"
    second_round_excludes_turned: bool = True  # round two: "une autre couleur"
    seven_exchange: bool = False  # the holder of the trump 7 may take the turned card
    redeal_main_nulle: bool = False  # < 11 points and no trump: may ask for a redeal
    redeal_four_sevens: bool = False  # the four 7s: may ask for a redeal

    # Announces
    announces: Literal["off", "auto", "declared"] = "off"
    announce_tie: Literal["nobody", "taker"] = "nobody"

    # Play
    overtrump_partner: bool = True  # must go higher than a partner's trump
    partner_master_frees: bool = True  # void and partner master: any card
    free_trumps_go_higher: bool = False  # ... but a trump played must go higher if it can
    must_undertrump: bool = True  # void, cannot overtrump: must still play a trump

    # Scoring
    contract: Literal["beat_defence", "points"] = "beat_defence"
    contract_points: int = 82  # with contract="points": points the taker needs
    contract_counts_belote: bool = True
    contract_counts_announces: bool = True
    belote_contract_points: int | None = None  # belote_com: 92 once a belote is announced
    litige: Literal["held", "taker_fails"] = "held"
    # The taker's belote stays its own when dedans or in a litige (000: "Ils restent à
    # l'équipe qui les a, même si elle est dedans"); False: it goes with the taker's other
    # points, to the defence when dedans, set aside in a litige.
    belote_kept: bool = True
    capot_points: int = 252
    target: int = 1000
    tie_break: Literal["play_on", "last_hand_winner"] = "play_on"

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            if not _one_of(getattr(self, name), choices):
                raise InvalidOptions(f"{name} must be one of {choices!r}")
        if not _one_of(self.target, TARGET_CHOICES):
            raise InvalidOptions(f"target must be one of {TARGET_CHOICES!r}")
        if type(self.contract_points) is not int or not 1 <= self.contract_points <= 162:
            raise InvalidOptions("contract_points must be between 1 and 162")
        if self.belote_contract_points is not None and not (
            type(self.belote_contract_points) is int
            and self.contract_points <= self.belote_contract_points <= 182
        ):
            raise InvalidOptions("belote_contract_points must be between contract_points and 182")
        for name in (
            "second_round_excludes_turned",
            "seven_exchange",
            "redeal_main_nulle",
            "redeal_four_sevens",
            "overtrump_partner",
            "partner_master_frees",
            "free_trumps_go_higher",
            "must_undertrump",
            "contract_counts_belote",
            "contract_counts_announces",
            "belote_kept",
        ):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptions(f"{name} must be true or false")

    @property
    def step(self) -> int:
        """Seat increment of the direction of play (seats are N=0 E=1 S=2 W=3)."""
        return 1 if self.direction == "clockwise" else 3

    def with_options(self, **overrides: Any) -> Rules:
        """A copy with some options changed; unknown names raise InvalidOptions."""
        unknown = set(overrides) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise InvalidOptions(f"unknown option(s): {', '.join(sorted(unknown))}")
        if "deal_pattern" in overrides:
            overrides["deal_pattern"] = tuple(overrides["deal_pattern"])
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["deal_pattern"] = list(self.deal_pattern)
        return out

    def diff(self, other: Rules) -> dict[str, Any]:
        """The options of ``self`` that differ from ``other`` (what a table stores)."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {k: v for k, v in mine.items() if theirs[k] != v}
