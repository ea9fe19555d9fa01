"""OpenSkill team ratings: one rating per player, moved by every rated game.

**Which games are rated.** A game that ends with a winner and whose four seats are held
by users: a bot seat makes the whole game unrated (nobody's rating moves, no
``RatingChange``). A player for whom a bot stood in while they were away
(``Seat.stand_in``) or whose moves the clock played (timeouts) still holds the seat, so
the game stays rated and their team bears the result; a forfeit on time is a loss for the
team that ran out of time, like any other loss. But a game that bots played with no player
there never moves a rating (``played_by_nobody``): one that ends while its live table is
waiting for its players (``Table.unattended_since``, games/tables/attendance.py), or with a
stand-in at every seat. A table abandoned, for want of players or otherwise, has no winner:
unrated.

**The model.** OpenSkill's Plackett-Luce (Weng-Lin) with two teams, Nord-Sud [N, S]
against Est-Ouest [E, W], ranked by the winner. Its parameters are written out in
``MODEL`` rather than left to the library's defaults, so that a new openskill release
cannot shift the figures, and nothing in it is random: the same sequence of results
always gives exactly the same ratings, which ``rebuild_ratings`` relies on. A new player
starts at the model's prior (mu 25, sigma 25/3).

**The figure shown** is the ordinal, mu - 3 sigma (stored on ``Rating`` to rank on it):
a player's skill is very likely above it, so a newcomer starts at 0 and climbs as the
uncertainty shrinks.

``rate_game`` runs inside the transaction that ends the game (games/tables/results.py); the
reads for the pages (``club_leaderboard``, ``recent_games``) live here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import Club, Rating, User, user_display
from games.ratings.models import RatingChange
from games.tables.models import Game, Seat, Table

MODEL = PlackettLuce(
    mu=25.0,
    sigma=25.0 / 3.0,
    beta=25.0 / 6.0,
    kappa=0.0001,
    tau=25.0 / 300.0,
    margin=0.0,
    limit_sigma=False,
    balance=False,
)

# Seats of each team as openskill receives them: Nord-Sud first, then Est-Ouest.
TEAM_SEATS = ((0, 2), (1, 3))


class Skill(NamedTuple):
    """A player's rating in memory: what the model reads and writes."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


DEFAULT_SKILL = Skill(MODEL.mu, MODEL.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The displayed and ranked figure: a conservative estimate of the skill."""
    return mu - 3 * sigma


def rated_players(seats: list[tuple[int, int | None, str]]) -> list[int] | None:
    """The user ids of the four seats in N E S W order, or None if the game is unrated.

    ``seats`` are ``(position, user_id, bot_level)`` triples. A bot seat, or a seat left
    without a user (an account deleted since), makes the game unrated.
    """
    by_position = {position: (user_id, bot) for position, user_id, bot in seats}
    if sorted(by_position) != [0, 1, 2, 3]:
        return None
    if any(user_id is None or bot for user_id, bot in by_position.values()):
        return None
    return [by_position[position][0] for position in range(4)]


def played_by_nobody(unattended_since, stand_ins: list[bool]) -> bool:
    """Whether bots finished the game with none of its players there: its table was waiting
    for them (``unattended_since`` set) or a stand-in held every seat."""
    return unattended_since is not None or (bool(stand_ins) and all(stand_ins))


def updated_skills(skills: list[Skill], winner: int) -> list[Skill]:
    """The four players' skills (N E S W) after a game won by team ``winner`` (0 or 1).

    The one place where the model is applied, for the incremental updates and the
    rebuild alike, so both give the same figures.
    """
    teams = [[MODEL.rating(*skills[seat]) for seat in team] for team in TEAM_SEATS]
    ranks = [0, 1] if winner == 0 else [1, 0]
    new_teams = MODEL.rate(teams, ranks=ranks)
    after: list[Skill] = [DEFAULT_SKILL] * 4
    for team, new_team in zip(TEAM_SEATS, new_teams, strict=True):
        for seat, rating in zip(team, new_team, strict=True):
            after[seat] = Skill(rating.mu, rating.sigma)
    return after


# ---------------------------------------------------------------------------------------
# Writes


def rate_game(game: Game) -> bool:
    """Move the four players' ratings after ``game``, if it is rated; True if it was.

    Called once the game's winner is set, inside the transaction that ends it. Claims the
    game first (``rated`` False to True in one conditional UPDATE), so a second call, or
    a concurrent one, changes nothing. Rating rows are locked in user-id order, the same
    order for every game, so two tables ending at once never deadlock.
    """
    if game.rated or game.winner is None:
        return False
    seats = list(
        Seat.objects.filter(table_id=game.table_id).values_list(
            "position", "user_id", "bot_level", "stand_in"
        )
    )
    players = rated_players([seat[:3] for seat in seats])
    if players is None:
        return False
    table = Table.objects.filter(pk=game.table_id)
    unattended = table.values_list("unattended_since", flat=True).get()
    if played_by_nobody(unattended, [seat[3] for seat in seats]):
        return False
    with transaction.atomic(savepoint=False):
        if not Game.objects.filter(pk=game.pk, rated=False).update(rated=True):
            return False
        game.rated = True
        ratings = _locked_ratings(players)
        before = [Skill(ratings[user].mu, ratings[user].sigma) for user in players]
        after = updated_skills(before, game.winner)
        _write(game, players, before, after, ratings)
    return True


def _locked_ratings(user_ids: list[int]) -> dict[int, Rating]:
    """The players' Rating rows, locked in user-id order; newcomers get the prior first."""
    ids = sorted(user_ids)
    ratings = _select_locked(ids)
    missing = [user_id for user_id in ids if user_id not in ratings]
    if missing:
        Rating.objects.bulk_create(
            [_new_rating(user_id) for user_id in missing], ignore_conflicts=True
        )
        ratings = _select_locked(ids)
    return ratings


def _select_locked(ids: list[int]) -> dict[int, Rating]:
    rows = Rating.objects.select_for_update().filter(user_id__in=ids).order_by("user_id")
    return {rating.user_id: rating for rating in rows}


def _new_rating(user_id: int) -> Rating:
    return Rating(
        user_id=user_id,
        mu=DEFAULT_SKILL.mu,
        sigma=DEFAULT_SKILL.sigma,
        ordinal=DEFAULT_SKILL.ordinal,
        games=0,
    )


def _write(
    game: Game,
    players: list[int],
    before: list[Skill],
    after: list[Skill],
    ratings: dict[int, Rating],
) -> None:
    now = timezone.now()
    for user_id, skill in zip(players, after, strict=True):
        rating = ratings[user_id]
        rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
        rating.games += 1
        rating.updated_at = now
    Rating.objects.bulk_update(
        [ratings[user_id] for user_id in sorted(players)],
        ["mu", "sigma", "ordinal", "games", "updated_at"],
    )
    RatingChange.objects.bulk_create(
        [
            _change(game.pk, user_id, old, new)
            for user_id, old, new in zip(players, before, after, strict=True)
        ]
    )


def _change(game_id: int, user_id: int, before: Skill, after: Skill) -> RatingChange:
    return RatingChange(
        game_id=game_id,
        user_id=user_id,
        mu_before=before.mu,
        sigma_before=before.sigma,
        mu_after=after.mu,
        sigma_after=after.sigma,
    )


@dataclass(frozen=True)
class RebuildSummary:
    games: int  # rated games replayed
    players: int  # players with a rating afterwards
    dropped: int  # rated games no longer rateable (a player's account deleted): unrated now


def rebuild_ratings() -> RebuildSummary:
    """Recompute every rating from the prior, replaying the rated games in the order they
    finished (``finished_at``, then ``pk``).

    The same model and the same order as the incremental updates, hence the same figures;
    the ``RatingChange`` rows are rewritten to match. Which games are rated is not
    reconsidered, except that a game whose seats no longer hold four users (an account
    deleted since, its changes gone with it) cannot be replayed: it is marked unrated.
    Every Rating row is locked for the duration, so games ending meanwhile wait.
    """
    with transaction.atomic():
        list(Rating.objects.select_for_update().order_by("user_id").values_list("pk"))
        skills: dict[int, Skill] = {}
        counts: dict[int, int] = {}
        changes: dict[tuple[int, int], tuple[Skill, Skill]] = {}
        dropped: list[int] = []
        for game in _rated_games():
            seats = [(s.position, s.user_id, s.bot_level) for s in game.table.seats.all()]
            players = rated_players(seats)
            if players is None:
                dropped.append(game.pk)
                continue
            before = [skills.get(user_id, DEFAULT_SKILL) for user_id in players]
            after = updated_skills(before, game.winner)
            for user_id, old, new in zip(players, before, after, strict=True):
                skills[user_id] = new
                counts[user_id] = counts.get(user_id, 0) + 1
                changes[(game.pk, user_id)] = (old, new)
        if dropped:
            Game.objects.filter(pk__in=dropped).update(rated=False)
        _rewrite_changes(changes)
        _rewrite_ratings(skills, counts)
    return RebuildSummary(
        games=len({g for g, _ in changes}), players=len(skills), dropped=len(dropped)
    )


def _rated_games():
    return (
        Game.objects.filter(rated=True, winner__isnull=False)
        .select_related("table")
        .prefetch_related("table__seats")
        .order_by("finished_at", "pk")
    )


def _rewrite_changes(changes: dict[tuple[int, int], tuple[Skill, Skill]]) -> None:
    """Make the RatingChange rows exactly ``changes``: update, create, delete the rest."""
    missing = dict(changes)
    stale, kept = [], []
    for change in RatingChange.objects.all():
        key = (change.game_id, change.user_id)
        if key not in missing:
            stale.append(change.pk)
            continue
        old, new = missing.pop(key)
        change.mu_before, change.sigma_before = old
        change.mu_after, change.sigma_after = new
        kept.append(change)
    RatingChange.objects.filter(pk__in=stale).delete()
    RatingChange.objects.bulk_update(
        kept, ["mu_before", "sigma_before", "mu_after", "sigma_after"], batch_size=500
    )
    RatingChange.objects.bulk_create(
        [_change(game_id, user_id, old, new) for (game_id, user_id), (old, new) in missing.items()],
        batch_size=500,
    )


def _rewrite_ratings(skills: dict[int, Skill], counts: dict[int, int]) -> None:
    """Make the Rating rows exactly ``skills``; players left without a rated game lose it."""
    Rating.objects.exclude(user_id__in=list(skills)).delete()
    now = timezone.now()
    existing = {rating.user_id: rating for rating in Rating.objects.all()}
    rows = []
    for user_id, skill in skills.items():
        rating = existing.get(user_id) or Rating(user_id=user_id)
        rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
        rating.games = counts[user_id]
        rating.updated_at = now
        rows.append(rating)
    Rating.objects.bulk_update(
        [r for r in rows if r.pk], ["mu", "sigma", "ordinal", "games", "updated_at"], batch_size=500
    )
    Rating.objects.bulk_create([r for r in rows if not r.pk], batch_size=500)


# ---------------------------------------------------------------------------------------
# Reads for the pages


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int  # equal ordinals share a rank (1, 2, 2, 4)
    user: User
    name: str
    ordinal: float
    games: int


def club_leaderboard(club: Club) -> list[LeaderboardRow]:
    """The club's members who have a rating, best ordinal first; members who never
    played a rated game are left out (the template says so when nobody is left)."""
    ratings = (
        Rating.objects.filter(user__memberships__club=club)
        .select_related("user")
        .order_by("-ordinal", "user__username")
    )
    rows: list[LeaderboardRow] = []
    for index, rating in enumerate(ratings):
        tied = bool(rows) and rows[-1].ordinal == rating.ordinal
        rows.append(
            LeaderboardRow(
                rank=rows[-1].rank if tied else index + 1,
                user=rating.user,
                name=user_display(rating.user),
                ordinal=rating.ordinal,
                games=rating.games,
            )
        )
    return rows


@dataclass(frozen=True)
class RatedGame:
    """One rated game as a player's page shows it: the result and what it did to them."""

    game: Game
    table: Table
    won: bool
    change: float  # ordinal after - ordinal before
    ordinal_after: float
    partner: User
    opponents: tuple[User, User]


def recent_games(user: User, limit: int = 10) -> list[RatedGame]:
    """``user``'s last rated games, latest first, with partner and opponents.

    Only results and names: nothing of any hand.
    """
    changes = (
        RatingChange.objects.filter(user=user)
        .select_related("game__table")
        .prefetch_related("game__table__seats__user")
        .order_by(F("game__finished_at").desc(nulls_last=True), "-game__pk")[:limit]
    )
    return [row for change in changes if (row := _rated_game(user, change)) is not None]


def _rated_game(user: User, change: RatingChange) -> RatedGame | None:
    game = change.game
    seats = {seat.position: seat.user for seat in game.table.seats.all()}
    mine = next((p for p, u in seats.items() if u is not None and u.pk == user.pk), None)
    if mine is None:
        return None
    after = ordinal(change.mu_after, change.sigma_after)
    return RatedGame(
        game=game,
        table=game.table,
        won=game.winner == mine % 2,
        change=after - ordinal(change.mu_before, change.sigma_before),
        ordinal_after=after,
        partner=seats[(mine + 2) % 4],
        opponents=(seats[(mine + 1) % 4], seats[(mine + 3) % 4]),
    )
