"""A player's statistics (the player page, /joueurs/<username>/): games played and won,
contracts taken and made by contract, points per hand, belotes, capots and the partners
played with most, over all their games and per preset.

Everything is read from the rows the service writes with each move (``Game``, ``Hand``
and ``Trick``), in five queries whatever the number of games; nothing is stored
for it (no cache of per-hand facts: the rows already say who took, what, and how it
ended). Only figures leave this module, and partners: no card, no table, no opponent.

What counts, at the player's seat whoever moved for it (the player, the clock, a
stand-in):

- a game once it is over, won or lost (a forfeit included); a game stopped unfinished (an
  abandoned table) is neither played nor won, and a game in progress not yet;
- a hand once it is played out (``Hand.ended == "played"``: a contract and its eight
  tricks), whatever became of its game: in progress, over or abandoned. A hand that
  nobody took (a redeal) is no hand;
- rated or not: games with bots count the same, but a bot is never a partner.

A belote is the king and the queen of a trump held by the player when the play starts
(games/rules/hand.py ``_start_play``: one per trump suit, so up to four at tout atout);
every card of a played hand is played, so it is the king and the queen of a trump both
played by the player's seat, which the tricks tell. A capot is a hand whose every trick the
player's team took; the points of a hand are what their team scored for it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import F, Q, Value
from django.db.models.functions import Concat

from games import rules as engine
from games.tables.models import Game, Hand, Seat, Trick
from games.tables.words import Mode

PLAYED = "played"  # games.rules.hand.PLAYED: a hand played out, its eight tricks
TOUT_ATOUT = "TA"
TOP_PARTNERS = 5


@dataclass
class ContractCount:
    """The contracts of one kind (a trump suit, sans atout, tout atout) a player took."""

    mode: Mode
    taken: int = 0
    made: int = 0

    @property
    def failed(self) -> int:
        """Not made: dedans, or a litige (which no preset counts as made)."""
        return self.taken - self.made


@dataclass
class Partner:
    user: object
    games: int
    won: int


@dataclass
class PlayerStats:
    """One player's figures over a set of games (all of them, or one preset's)."""

    games: int = 0
    won: int = 0
    hands: int = 0
    points: int = 0  # their team's points over these hands
    belotes: int = 0
    capots: int = 0  # hands where their team took every trick
    contracts: dict[str, ContractCount] = field(default_factory=dict)
    partner_games: Counter = field(default_factory=Counter)  # user id -> games together
    partner_wins: Counter = field(default_factory=Counter)  # user id -> games won together
    partners: list[Partner] = field(default_factory=list)  # the most frequent, filled last

    @property
    def lost(self) -> int:
        return self.games - self.won

    @property
    def taken(self) -> int:
        return sum(c.taken for c in self.contracts.values())

    @property
    def made(self) -> int:
        return sum(c.made for c in self.contracts.values())

    @property
    def points_per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None

    @property
    def contract_lines(self) -> list[ContractCount]:
        """The contracts taken at least once, in the engine's order (♠ ♥ ♦ ♣ SA TA)."""
        return [self.contracts[m] for m in engine.MODES if m in self.contracts]

    def contract(self, mode: str) -> ContractCount:
        if mode not in self.contracts:
            self.contracts[mode] = ContractCount(Mode(mode))
        return self.contracts[mode]


@dataclass
class Statistics:
    """A player's figures over all their games and for each preset they played."""

    overall: PlayerStats
    by_preset: dict[str, PlayerStats]

    @property
    def presets(self) -> list[str]:
        """The presets played, in the engine's order."""
        return [name for name in engine.PRESETS if name in self.by_preset]

    def of(self, preset: str | None) -> PlayerStats:
        """The figures of ``preset`` (all games for None; nothing for a preset not played)."""
        if preset is None:
            return self.overall
        return self.by_preset.get(preset) or PlayerStats()


def player_statistics(user) -> Statistics:
    """``user``'s statistics, in five queries whatever the number of their games."""
    overall = PlayerStats()
    by_preset: dict[str, PlayerStats] = defaultdict(PlayerStats)

    def both(preset: str) -> tuple[PlayerStats, PlayerStats]:
        return overall, by_preset[preset]

    # The games over at tables where the user sits, with their seat (one row per game: a
    # user has one seat at a table, and the seat's join is the filter's own).
    games = Game.objects.filter(table__seats__user=user, winner__isnull=False).values_list(
        "table_id", "table__preset", "table__seats__position", "winner"
    )
    partner_of: dict[int, int] = {}  # table id -> the partner's position
    games_at: dict[int, list[tuple[str, bool]]] = defaultdict(list)
    for table_id, preset, position, winner in games:
        won = winner == position % 2
        for stats in both(preset):
            stats.games += 1
            stats.won += won
        partner_of[table_id] = (position + 2) % 4
        games_at[table_id].append((preset, won))
    _count_partners(user, partner_of, games_at, both)

    hands = Hand.objects.filter(game__table__seats__user=user, ended=PLAYED).values_list(
        "game__table__preset",
        "game__table__seats__position",
        "contract",
        "taker",
        "made",
        "capot",
        "points_ns",
        "points_ew",
    )
    for preset, position, contract, taker, made, capot, points_ns, points_ew in hands:
        team = position % 2
        for stats in both(preset):
            stats.hands += 1
            stats.points += points_ew if team else points_ns
            stats.capots += capot == team
            if taker == position:
                line = stats.contract(contract)
                line.taken += 1
                line.made += bool(made)

    for preset, count in _belotes(user):
        for stats in both(preset):
            stats.belotes += count

    _name_partners([overall, *by_preset.values()])
    return Statistics(overall, dict(by_preset))


def _count_partners(user, partner_of, games_at, both) -> None:
    """Count the games played with each human partner (a bot is no partner)."""
    seats = (
        Seat.objects.filter(table_id__in=list(partner_of), user__isnull=False)
        .exclude(user=user)
        .values_list("table_id", "position", "user_id")
    )
    for table_id, position, partner in seats:
        if position != partner_of[table_id]:
            continue
        for preset, won in games_at[table_id]:
            for stats in both(preset):
                stats.partner_games[partner] += 1
                stats.partner_wins[partner] += won


def _belotes(user) -> list[tuple[str, int]]:
    """(preset, belotes) for each played hand where the user's seat had one or more: the
    kings and queens of a trump their seat played, read from the tricks that hold one
    (a trick's cards in the order played from its leader, in the table's direction)."""
    # Kings and queens only show as ranks: no suit is written K or Q.
    any_honour = Q(cards__contains="K") | Q(cards__contains="Q")
    trump_honour = Q(cards__contains=Concat(Value("K"), F("hand__contract"))) | Q(
        cards__contains=Concat(Value("Q"), F("hand__contract"))
    )
    honour = Q(hand__contract=TOUT_ATOUT) & any_honour | trump_honour
    tricks = (
        Trick.objects.filter(hand__ended=PLAYED, hand__game__table__seats__user=user)
        .exclude(hand__contract="SA")
        .filter(honour)
        .values_list(
            "hand_id",
            "hand__game__table_id",
            "hand__game__table__preset",
            "hand__game__table__options",
            "hand__game__table__seats__position",
            "hand__contract",
            "leader",
            "cards",
        )
    )
    steps: dict[int, int] = {}  # table id -> its direction of play
    honours: dict[tuple[int, str, str], set[str]] = defaultdict(set)
    for hand_id, table_id, preset, options, position, contract, leader, cards in tricks:
        if table_id not in steps:
            steps[table_id] = engine.rules_for(preset, options).step
        # The step is 1 or 3, each its own inverse modulo 4.
        index = (position - leader) * steps[table_id] % 4
        rank, suit = cards[2 * index], cards[2 * index + 1]
        if rank in "KQ" and contract in (suit, TOUT_ATOUT):
            honours[hand_id, preset, suit].add(rank)
    per_hand: Counter = Counter()
    for (hand_id, preset, _suit), ranks in honours.items():
        if len(ranks) == 2:
            per_hand[hand_id, preset] += 1
    return [(preset, count) for (_hand, preset), count in per_hand.items()]


def _name_partners(all_stats: list[PlayerStats]) -> None:
    """Fill each ``partners`` with the most frequent ones, their users read in one query."""
    tops = {
        stats_id: sorted(
            stats.partner_games, key=lambda u, s=stats: (-s.partner_games[u], -s.partner_wins[u], u)
        )[:TOP_PARTNERS]
        for stats_id, stats in enumerate(all_stats)
    }
    wanted = {user_id for top in tops.values() for user_id in top}
    if not wanted:
        return
    users = (
        get_user_model()
        .objects.filter(is_active=True)
        .only("username", "display_name")
        .in_bulk(wanted)
    )
    for stats_id, stats in enumerate(all_stats):
        stats.partners = [
            Partner(users[u], stats.partner_games[u], stats.partner_wins[u])
            for u in tops[stats_id]
            if u in users
        ]
