"""What a table is made of in the database: seats, games, hands, tricks and the action log.

The append-only ``Action`` log is the truth: replaying a hand's actions through the engine
from its stored deck and dealer gives its tricks and result, which ``belote_verify``
checks. ``Trick`` rows and the results on ``Hand`` and ``Game`` are written by
``games.tables.service`` alongside each action so that pages read them without replaying.
Every write of game state goes through ``games.tables.service``; models stay thin.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

from games.bots import LEVELS
from games.rules import MODES, PRESETS, Rules, rules_for
from games.tournaments.formats import FORMATS, Format, format_of

SEAT_CHOICES = [(0, _("Nord")), (1, _("Est")), (2, _("Sud")), (3, _("Ouest"))]
TEAM_CHOICES = [(0, _("Nord-Sud")), (1, _("Est-Ouest"))]
# The names of the presets (games.rules), for people: the forms, the pages and the admin
# (games/tables/catalogue.py offers them with the rest of the preset catalogue).
PRESET_LABELS = {
    "classique": _("Belote classique"),
    "annonces": _("Belote avec annonces"),
    "moderne": _("Belote moderne (sans atout et tout atout)"),
    "stekius": _("Stekius (échange du 7 d'atout)"),
    "belote_com": _("Belote.com (501 points)"),
}
PRESET_CHOICES = [(name, PRESET_LABELS.get(name, name)) for name in PRESETS]


# The bot levels of games/bots/levels.py (RANDOM, HEURISTIC, ...), their labels translated.
BotLevel = models.TextChoices(
    "BotLevel", [(level.name.upper(), (level.name, _(level.label))) for level in LEVELS]
)


# A bot at a seat, in words ("robot confirmé"), from the same list.
BOT_NAMES = {level.name: _(level.seat_name) for level in LEVELS}


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


class Pace(models.TextChoices):
    LIVE = "live", _("En direct")
    ASYNC = "async", _("En différé")


# Time per move: a live table keeps a clock of a few minutes, an asynchronous one gives
# from an hour to a week. The database refuses anything outside these ranges.
LIVE_MOVE_SECONDS = (30, 600)
ASYNC_MOVE_SECONDS = (3600, 7 * 24 * 3600)


class TimeoutPolicy(models.TextChoices):
    BOT = "bot", _("Le robot joue pour l'absent")
    FORFEIT = "forfeit", _("L'équipe perd la partie après plusieurs dépassements")


# How many timeouts of one seat a "forfeit" table allows before the team loses the game.
FORFEIT_AFTER = (1, 10)


class TableStatus(models.TextChoices):
    LOBBY = "lobby", _("En attente de joueurs")
    PLAYING = "playing", _("En cours")
    FINISHED = "finished", _("Terminée")
    ABANDONED = "abandoned", _("Abandonnée")


class Table(models.Model):
    Status = TableStatus

    preset = models.CharField(_("règles"), max_length=20, choices=PRESET_CHOICES)
    options = models.JSONField(
        _("options"),
        default=dict,
        blank=True,
        help_text=_("Options changées par rapport aux règles."),
    )
    status = models.CharField(
        _("état"), max_length=10, choices=TableStatus.choices, default=TableStatus.LOBBY
    )
    # Bumped by every change of the table's state, with one Action row each: clients
    # compare versions to know whether they are up to date.
    version = models.PositiveIntegerField(_("version"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("créée par"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="created_tables",
    )
    # The seat to act (None outside play), kept by the service so that lists of tables
    # show whose turn it is without replaying hands.
    turn = models.PositiveSmallIntegerField(
        _("au tour de"), choices=SEAT_CHOICES, null=True, blank=True
    )
    # The hand being played (or the last one, once the table is over), so that a move
    # reads the table, its hand and its game in one locked query.
    current_hand = models.ForeignKey(
        "Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    invite_token = models.CharField(
        _("jeton d'invitation"), max_length=32, unique=True, default=new_invite_token
    )
    pace = models.CharField(_("rythme"), max_length=5, choices=Pace.choices, default=Pace.LIVE)
    move_seconds = models.PositiveIntegerField(_("temps par coup (secondes)"), default=120)
    # When the human to act runs out of time (None while a bot is to act or outside
    # play), set by the service at each move; games/timing/sweep.py acts on it.
    deadline = models.DateTimeField(_("limite du coup"), null=True, blank=True, db_index=True)
    timeout_policy = models.CharField(
        _("temps écoulé"), max_length=8, choices=TimeoutPolicy.choices, default=TimeoutPolicy.BOT
    )
    forfeit_after = models.PositiveSmallIntegerField(_("forfait après (dépassements)"), default=3)
    # Free seats at the start: taken by bots of ``bot_level``, or the start is refused.
    fill_with_bots = models.BooleanField(_("compléter avec des robots"), default=False)
    bot_level = models.CharField(
        _("niveau des robots"),
        max_length=10,
        choices=BotLevel.choices,
        default=BotLevel.HEURISTIC,
    )
    allow_spectators = models.BooleanField(_("spectateurs admis"), default=False)
    # A club-only table: the club's members may see it and sit at it without invitation.
    club = models.ForeignKey(
        "accounts.Club",
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables",
    )
    created_at = models.DateTimeField(_("créée le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifiée le"), auto_now=True)
    # Moved on by every write of the table's seats and of its seated users' names
    # (``seats_changed``): a process keeps a started table's seats by it
    # (games/board.py ``table_seats``). Only ``seats_changed`` writes it (``save`` leaves
    # it out), so that no table read before a change can write an older number back.
    seats_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-updated_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=TableStatus.values), name="table_status_known"
            ),
            models.CheckConstraint(
                condition=Q(preset__in=list(PRESETS)), name="table_preset_known"
            ),
            models.CheckConstraint(
                condition=Q(
                    pace=Pace.LIVE,
                    move_seconds__gte=LIVE_MOVE_SECONDS[0],
                    move_seconds__lte=LIVE_MOVE_SECONDS[1],
                )
                | Q(
                    pace=Pace.ASYNC,
                    move_seconds__gte=ASYNC_MOVE_SECONDS[0],
                    move_seconds__lte=ASYNC_MOVE_SECONDS[1],
                ),
                name="table_move_seconds_for_pace",
            ),
            models.CheckConstraint(
                condition=Q(bot_level__in=BotLevel.values), name="table_bot_level_known"
            ),
            models.CheckConstraint(
                condition=Q(timeout_policy__in=TimeoutPolicy.values),
                name="table_timeout_policy_known",
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(id)s (%(preset)s)") % {"id": self.pk, "preset": self.get_preset_display()}

    def save(self, **kwargs) -> None:
        """Every field but ``seats_version``, which only ``seats_changed`` moves."""
        if not self._state.adding and kwargs.get("update_fields") is None:
            deferred = self.get_deferred_fields()
            kwargs["update_fields"] = [
                field.name
                for field in self._meta.concrete_fields
                if not field.primary_key
                and field.name != "seats_version"
                and field.attname not in deferred
            ]
        super().save(**kwargs)

    @property
    def rules(self) -> Rules:
        return rules_for(self.preset, self.options)


def seats_changed(tables) -> None:
    """Move on the seats version of ``tables`` (a queryset of tables, or table ids):
    their seats, or the name of someone seated at them, changed. Called in the
    transaction of the change, after it: the memo of a process then never holds the old
    seats under the new version (games/board.py ``table_seats``)."""
    if not isinstance(tables, models.QuerySet):
        tables = Table.objects.filter(pk__in=list(tables))
    tables.update(seats_version=F("seats_version") + 1)


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("place"), choices=SEAT_CHOICES)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot_level = models.CharField(
        _("niveau du robot"), max_length=10, choices=BotLevel.choices, blank=True
    )
    # Moves the clock played for this seat (Action.Source.TIMEOUT).
    timeouts = models.PositiveSmallIntegerField(_("temps dépassés"), default=0)
    # A live table's player gone for a while: the heuristic bot plays their turns until
    # they come back (games/timing/sweep.py).
    stand_in = models.BooleanField(_("remplacé par un robot"), default=False)

    class Meta:
        verbose_name = _("place")
        verbose_name_plural = _("places")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="seat_user_once"
            ),
            models.CheckConstraint(condition=Q(position__lte=3), name="seat_position_range"),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot_level=""), name="seat_user_or_bot"
            ),
            models.CheckConstraint(
                condition=Q(bot_level__in=["", *BotLevel.values]), name="seat_bot_level_known"
            ),
            models.CheckConstraint(
                condition=Q(stand_in=False) | Q(user__isnull=False), name="seat_stand_in_for_user"
            ),
        ]

    def __str__(self) -> str:
        who = self.user or (self.get_bot_level_display() if self.bot_level else _("libre"))
        return f"{self.get_position_display()}: {who}"

    def save(self, **kwargs) -> None:
        """Saved, the seat moves its table's seats version on (``seats_changed``). Writes
        of seats that bypass ``save`` call ``seats_changed`` themselves."""
        super().save(**kwargs)
        seats_changed([self.table_id])

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def bot_name(self) -> str:
        """ "robot confirmé": a bot seat in words, without the brackets of its level."""
        return BOT_NAMES.get(self.bot_level, "")

    @property
    def bot_plays(self) -> bool:
        """A bot chooses this seat's moves: its own, or a stand-in for an absent player."""
        return bool(self.bot_level) or self.stand_in

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.bot_level


class InvitationVia(models.TextChoices):
    USERNAME = "username", _("par nom d'utilisateur")
    LINK = "link", _("par lien")


class Invitation(models.Model):
    """Who may see a private table and sit at it, besides its creator and its players."""

    Via = InvitationVia

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invité"),
        on_delete=models.CASCADE,
        related_name="table_invitations",
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invité par"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    via = models.CharField(_("invitation"), max_length=8, choices=InvitationVia.choices)
    created_at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["table", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="invitation_user_once"),
            models.CheckConstraint(
                condition=Q(via__in=InvitationVia.values), name="invitation_via_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_via_display()})"


class Game(models.Model):
    """A partie: hands dealt until a team reaches the target."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("numéro"))
    first_dealer = models.PositiveSmallIntegerField(_("premier donneur"), choices=SEAT_CHOICES)
    score_ns = models.IntegerField(_("score Nord-Sud"), default=0)
    score_ew = models.IntegerField(_("score Est-Ouest"), default=0)
    held = models.PositiveIntegerField(_("points en litige"), default=0)
    winner = models.PositiveSmallIntegerField(
        _("vainqueur"), choices=TEAM_CHOICES, null=True, blank=True
    )
    # Whether the result moved the players' ratings (games/ratings/service.py): four humans only.
    rated = models.BooleanField(_("classée"), default=False)
    started_at = models.DateTimeField(_("commencée le"), auto_now_add=True)
    finished_at = models.DateTimeField(_("terminée le"), null=True, blank=True)

    class Meta:
        verbose_name = _("partie")
        verbose_name_plural = _("parties")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_number_once"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__lte=1), name="game_winner_team"
            ),
        ]

    def __str__(self) -> str:
        return _("Partie %(n)s de la table %(t)s") % {"n": self.number, "t": self.table_id}

    @property
    def scores(self) -> tuple[int, int]:
        return (self.score_ns, self.score_ew)

    def result_for(self, position: int | None) -> str | None:
        """ "won" or "lost" for the player at seat ``position`` once the game is over; None
        while it goes on, or for someone not seated (``position`` None)."""
        if self.winner is None or position is None:
            return None
        return "won" if self.winner == position % 2 else "lost"


class Hand(models.Model):
    """A donne: its deal (dealer and deck), then its result once over."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("numéro"))
    dealer = models.PositiveSmallIntegerField(_("donneur"), choices=SEAT_CHOICES)
    deck = models.CharField(_("paquet"), max_length=64, help_text=_("Les 32 cartes, du dessus."))
    contract = models.CharField(
        _("contrat"), max_length=2, blank=True, choices=[(m, m) for m in MODES]
    )
    taker = models.PositiveSmallIntegerField(
        _("preneur"), choices=SEAT_CHOICES, null=True, blank=True
    )
    ended = models.CharField(_("fin"), max_length=12, blank=True)
    points_ns = models.IntegerField(_("points Nord-Sud"), null=True, blank=True)
    points_ew = models.IntegerField(_("points Est-Ouest"), null=True, blank=True)
    made = models.BooleanField(_("contrat rempli"), null=True, blank=True)
    litige = models.BooleanField(_("litige"), default=False)
    capot = models.PositiveSmallIntegerField(
        _("capot"), choices=TEAM_CHOICES, null=True, blank=True
    )
    held = models.PositiveIntegerField(_("points mis de côté"), default=0)
    started_at = models.DateTimeField(_("donnée le"), auto_now_add=True)
    finished_at = models.DateTimeField(_("terminée le"), null=True, blank=True)

    class Meta:
        verbose_name = _("donne")
        verbose_name_plural = _("donnes")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_once"),
        ]

    def __str__(self) -> str:
        return _("Donne %(n)s") % {"n": self.number}

    @property
    def is_over(self) -> bool:
        return bool(self.ended)


class Trick(models.Model):
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="tricks")
    number = models.PositiveSmallIntegerField(_("numéro"))
    leader = models.PositiveSmallIntegerField(_("entame"), choices=SEAT_CHOICES)
    cards = models.CharField(_("cartes"), max_length=8, help_text=_("Dans l'ordre joué."))
    winner = models.PositiveSmallIntegerField(_("gagnant"), choices=SEAT_CHOICES)
    points = models.PositiveSmallIntegerField(_("points"))

    class Meta:
        verbose_name = _("pli")
        verbose_name_plural = _("plis")
        ordering = ["hand", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "number"], name="trick_number_once"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=8), name="trick_number_range"
            ),
        ]

    def __str__(self) -> str:
        return _("Pli %(n)s") % {"n": self.number}

    @property
    def card_codes(self) -> list[str]:
        return [self.cards[i : i + 2] for i in range(0, len(self.cards), 2)]


class Action(models.Model):
    """One entry of a table's append-only log; ``seq`` is the table version it produced."""

    class Source(models.TextChoices):
        PLAYER = "player", _("joueur")
        BOT = "bot", _("robot")
        TIMEOUT = "timeout", _("temps écoulé")
        SYSTEM = "system", _("système")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(_("numéro d'ordre"))
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="actions", null=True, blank=True
    )
    seat = models.PositiveSmallIntegerField(_("place"), choices=SEAT_CHOICES, null=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("auteur"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    source = models.CharField(_("origine"), max_length=8, choices=Source.choices)
    kind = models.CharField(_("type"), max_length=16)
    payload = models.JSONField(_("contenu"), default=dict, blank=True)
    created_at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="action_seq_once"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.payload.get('action', self.kind)}"

    def save(self, *args, **kwargs) -> None:
        """Written once (``games.tables.service.append_action``), never changed: the hands
        are replayed from this log. Deleting a user still clears ``actor`` (a query, not this), and
        deleting a table still takes its log with it."""
        if not self._state.adding:
            raise ValueError("the action log is append-only: an action is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("the action log is append-only: an action goes with its table only")


# ---------------------------------------------------------------------------------------
# Notifications (written by games.notifications, never by the game service)


class NotificationKind(models.TextChoices):
    TURN = "turn", _("à vous de jouer")


# What each kind says, translated when it is shown: in the reader's language of the moment.
NOTIFICATION_TEXTS = {NotificationKind.TURN: _("À vous de jouer à la table n° %(id)s")}


class Notification(models.Model):
    """One line of a user's in-app notifications (the bell of the header). It stores its
    kind and table, not a text: ``text`` says it in the language active when shown. The
    unread line of a table is brought up to date rather than repeated
    (games.notifications.notify_turn_task)."""

    Kind = NotificationKind

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="notifications")
    version = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("type"), max_length=16, choices=NotificationKind.choices)
    created_at = models.DateTimeField(_("le"), auto_now_add=True)
    read_at = models.DateTimeField(_("lue le"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "table", "version", "kind"], name="notification_once"
            ),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def text(self) -> str:
        return str(NOTIFICATION_TEXTS[self.kind] % {"id": self.table_id})


class ReminderKind(models.TextChoices):
    TURN = "turn", _("à vous de jouer")
    DEADLINE = "deadline", _("avant la fin du temps")
    DIGEST = "digest", _("résumé du jour")


class ReminderLog(models.Model):
    """An email sent: the database refuses to send the same reminder twice.

    A turn or deadline reminder is once per (user, table, version, kind); a digest, which
    covers every table, once per (user, day).
    """

    Kind = ReminderKind

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    version = models.PositiveIntegerField(_("version"), null=True, blank=True)
    day = models.DateField(_("jour"), null=True, blank=True)
    kind = models.CharField(_("type"), max_length=16, choices=ReminderKind.choices)
    sent_at = models.DateTimeField(_("envoyé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("rappel envoyé")
        verbose_name_plural = _("rappels envoyés")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "table", "version", "kind"],
                condition=Q(table__isnull=False),
                name="reminder_once",
            ),
            models.UniqueConstraint(
                fields=["user", "day"], condition=Q(kind="digest"), name="digest_once_a_day"
            ),
            models.CheckConstraint(
                condition=Q(kind="digest", table__isnull=True, day__isnull=False)
                | Q(
                    ~Q(kind="digest"),
                    table__isnull=False,
                    version__isnull=False,
                    day__isnull=True,
                ),
                name="reminder_digest_or_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.user_id} ({self.table_id or self.day})"


class TableVisit(models.Model):
    """When a user last opened a table (its page or its websocket): reminders wait for it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField(_("vue le"))

    class Meta:
        verbose_name = _("visite de table")
        verbose_name_plural = _("visites de tables")
        constraints = [
            models.UniqueConstraint(fields=["user", "table"], name="table_visit_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.table_id}: {self.seen_at:%Y-%m-%d %H:%M}"


# ---------------------------------------------------------------------------------------
# Ratings history: how each rated game moved each player's rating (accounts.Rating).


class RatingChange(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur"),
        on_delete=models.CASCADE,
        related_name="rating_changes",
    )
    mu_before = models.FloatField(_("mu avant"))
    sigma_before = models.FloatField(_("sigma avant"))
    mu_after = models.FloatField(_("mu après"))
    sigma_after = models.FloatField(_("sigma après"))
    created_at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        verbose_name = _("évolution du classement")
        verbose_name_plural = _("évolutions du classement")
        ordering = ["user", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.mu_before:.1f} → {self.mu_after:.1f}"


# ---------------------------------------------------------------------------------------
# Tournaments: run by a club's organisers in the admin, played at tables created for each
# match of each round (games/tournaments/service.py).


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


# ---------------------------------------------------------------------------------------
# What moves a table's seats version besides ``Seat.save``: a seat deleted (the admin, a
# queryset), a seated user renamed or deleted (their seats then show no one).

# The user's fields a seat shows (games/_occupant.html: ``user_display``).
SHOWN_USER_FIELDS = frozenset({"display_name", "username"})


@receiver(post_delete, sender=Seat)
def _seat_deleted(sender, instance: Seat, **kwargs) -> None:
    seats_changed([instance.table_id])


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _user_saved(sender, instance, created: bool, update_fields=None, **kwargs) -> None:
    if created or (update_fields is not None and not SHOWN_USER_FIELDS & set(update_fields)):
        return
    seats_changed(Table.objects.filter(seats__user=instance))


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL)
def _user_deleted(sender, instance, **kwargs) -> None:
    # Before the seats lose their user (SET_NULL), in the same transaction.
    seats_changed(Table.objects.filter(seats__user=instance))
