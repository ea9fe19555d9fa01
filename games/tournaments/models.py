"""Tournaments: run by a club's organisers in the admin, played at tables created for each
match of each round (games/tournaments/service.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.rules import PRESETS, Rules, rules_for
from games.tables.models import PRESET_CHOICES, Pace, Table
from games.tournaments.formats import FORMATS, Format, format_of

# The formats of games/tournaments/formats/ (ROUND_ROBIN, SWISS, KNOCKOUT, ...).
TournamentFormat = models.TextChoices(
    "TournamentFormat", [(f.name.upper(), (f.name, f.label)) for f in FORMATS]
)


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", _("Inscriptions ouvertes")
    RUNNING = "running", _("En cours")
    FINISHED = "finished", _("Terminé")


# A tournament round lasts from an hour to 90 days: beyond, the deadline means nothing to
# anyone, and a huge value would overflow the date arithmetic of the round's deadline.
ROUND_HOURS = (1, 90 * 24)


class Tournament(models.Model):
    Format = TournamentFormat
    Status = TournamentStatus

    club = models.ForeignKey(
        "accounts.Club",
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        related_name="tournaments",
    )
    name = models.CharField(_("nom"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    format = models.CharField(_("formule"), max_length=12, choices=TournamentFormat.choices)
    # Swiss only: how many rounds (round-robin and knockout follow from the teams).
    rounds = models.PositiveSmallIntegerField(_("nombre de rondes"), null=True, blank=True)
    preset = models.CharField(_("règles"), max_length=20, choices=PRESET_CHOICES)
    options = models.JSONField(
        _("options"),
        default=dict,
        blank=True,
        help_text=_("Options changées par rapport aux règles."),
    )
    pace = models.CharField(_("rythme"), max_length=5, choices=Pace.choices, default=Pace.ASYNC)
    move_seconds = models.PositiveIntegerField(_("temps par coup (secondes)"), default=86400)
    # How long a round may last; when it runs out, unfinished matches are decided by
    # forfeit (games/tournaments/service.py) and the next round is paired.
    round_hours = models.PositiveIntegerField(_("durée d'une ronde (heures)"), default=168)
    status = models.CharField(
        _("état"),
        max_length=12,
        choices=TournamentStatus.choices,
        default=TournamentStatus.REGISTRATION,
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("créé par"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)
    started_at = models.DateTimeField(_("commencé le"), null=True, blank=True)
    finished_at = models.DateTimeField(_("terminé le"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournoi")
        verbose_name_plural = _("tournois")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=TournamentFormat.values), name="tournament_format_known"
            ),
            models.CheckConstraint(
                condition=Q(status__in=TournamentStatus.values), name="tournament_status_known"
            ),
            models.CheckConstraint(
                condition=Q(preset__in=list(PRESETS)), name="tournament_preset_known"
            ),
            models.CheckConstraint(
                condition=Q(round_hours__gte=ROUND_HOURS[0], round_hours__lte=ROUND_HOURS[1]),
                name="tournament_round_hours_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> Rules:
        return rules_for(self.preset, self.options)

    @property
    def formula(self) -> Format:
        """Its format (games/tournaments/formats/): rounds, pairings, words."""
        return format_of(self.format)


class TournamentTeam(models.Model):
    """A registered pair, or a player alone until an organiser gives them a partner."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    player_one = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur 1"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    player_two = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur 2"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    name = models.CharField(_("nom d'équipe"), max_length=60, blank=True)
    # Order of strength for the first pairing and the last tie-break (1 is the best).
    seed = models.PositiveSmallIntegerField(_("tête de série"), null=True, blank=True)
    registered_at = models.DateTimeField(_("inscrite le"), auto_now_add=True)

    class Meta:
        verbose_name = _("équipe")
        verbose_name_plural = _("équipes")
        ordering = ["tournament", "seed", "registered_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(player_two__isnull=True) | ~Q(player_two=models.F("player_one")),
                name="team_two_players",
            ),
            # A player is in one team of a tournament; the service also checks that nobody
            # is player one of a team and player two of another (not expressible here).
            models.UniqueConstraint(
                fields=["tournament", "player_one"], name="team_player_one_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "player_two"],
                condition=Q(player_two__isnull=False),
                name="team_player_two_once",
            ),
        ]

    def __str__(self) -> str:
        if self.name:
            return self.name
        if self.player_two_id is None:
            return str(self.player_one)
        return f"{self.player_one} & {self.player_two}"

    @property
    def complete(self) -> bool:
        return self.player_two_id is not None


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("ronde"))
    deadline = models.DateTimeField(_("fin de la ronde"), null=True, blank=True, db_index=True)
    started_at = models.DateTimeField(_("commencée le"), auto_now_add=True)
    finished_at = models.DateTimeField(_("terminée le"), null=True, blank=True)

    class Meta:
        verbose_name = _("ronde")
        verbose_name_plural = _("rondes")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
        ]

    def __str__(self) -> str:
        return _("Ronde %(n)s de %(t)s") % {"n": self.number, "t": self.tournament}


class MatchResult(models.TextChoices):
    PLAYED = "played", _("Jouée")
    BYE = "bye", _("Exempt")
    FORFEIT = "forfeit", _("Forfait")


class TournamentMatch(models.Model):
    """Two teams at one table for one game; a bye has no second team and no table."""

    Result = MatchResult

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="matches")
    # Place in the round: the table number, and in a knockout the slot in the bracket.
    position = models.PositiveSmallIntegerField(_("table n°"))
    team_one = models.ForeignKey(
        TournamentTeam, verbose_name=_("équipe 1"), on_delete=models.CASCADE, related_name="+"
    )
    team_two = models.ForeignKey(
        TournamentTeam,
        verbose_name=_("équipe 2"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    table = models.OneToOneField(
        Table,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_match",
    )
    winner = models.ForeignKey(
        TournamentTeam,
        verbose_name=_("vainqueur"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    score_one = models.IntegerField(_("points équipe 1"), default=0)
    score_two = models.IntegerField(_("points équipe 2"), default=0)
    result = models.CharField(_("résultat"), max_length=8, choices=MatchResult.choices, blank=True)
    finished_at = models.DateTimeField(_("terminée le"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matchs")
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="match_position_once"),
            models.CheckConstraint(
                condition=Q(result__in=["", *MatchResult.values]), name="match_result_known"
            ),
            models.CheckConstraint(
                condition=Q(team_two__isnull=True) | ~Q(team_two=models.F("team_one")),
                name="match_two_teams",
            ),
            # A bye is exactly a match without a second team; it has no table.
            models.CheckConstraint(
                condition=Q(team_two__isnull=True, result="bye", table__isnull=True)
                | Q(team_two__isnull=False, result__in=["", "played", "forfeit"]),
                name="match_bye_alone",
            ),
            # Decided means a winner, one of the two teams.
            models.CheckConstraint(
                condition=Q(result="", winner__isnull=True)
                | Q(~Q(result=""), winner=models.F("team_one"))
                | Q(~Q(result=""), winner=models.F("team_two")),
                name="match_winner_plays",
            ),
        ]

    def __str__(self) -> str:
        if self.team_two_id is None:
            return _("%(team)s exempte") % {"team": self.team_one}
        return f"{self.team_one} – {self.team_two}"

    @property
    def finished(self) -> bool:
        return bool(self.result)

    @property
    def team_ids(self) -> tuple[int, ...]:
        return tuple(t for t in (self.team_one_id, self.team_two_id) if t is not None)

    @property
    def loser_id(self) -> int | None:
        """The team that lost a decided match (None for a bye or an undecided match)."""
        if self.winner_id is None or self.team_two_id is None:
            return None
        return self.team_two_id if self.winner_id == self.team_one_id else self.team_one_id
