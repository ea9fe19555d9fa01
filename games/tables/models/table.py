"""A table and who sits at it: the table, its seats, its invitations and its visits.

Every write of game state goes through ``games.tables.service``; models stay thin.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.bots import LEVELS
from games.rules import PRESETS, Rules, rules_for

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


class ChatSpectators(models.TextChoices):
    """What the spectators of a table may do with its chat (games/tables/chat.py)."""

    NONE = "none", _("Pas de discussion pour les spectateurs")
    READ = "read", _("Les spectateurs lisent la discussion")
    WRITE = "write", _("Les spectateurs lisent et écrivent")


# Written only by games/tables/chat.py (a queryset update, no table lock): a move's save,
# which read the table before, never writes an older value back (``Table.save``).
CHAT_FIELDS = frozenset({"chat_enabled", "chat_spectators"})


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
    # Since when a live table in play has had no seated player connected
    # (games/tables/attendance.py): while set, nothing is played and no clock runs; the
    # sweep abandons the table after LIVE_ABANDON_AFTER_SECONDS. An abandoned table keeps
    # it, to say why it was.
    unattended_since = models.DateTimeField(_("sans joueur depuis"), null=True, blank=True)
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
    # The table's chat (games/tables/chat.py): on or off, and what its spectators may do.
    chat_enabled = models.BooleanField(_("discussion ouverte"), default=True)
    chat_spectators = models.CharField(
        _("discussion des spectateurs"),
        max_length=5,
        choices=ChatSpectators.choices,
        default=ChatSpectators.NONE,
    )
    # A club-only table: the club's members may see it and sit at it without invitation.
    club = models.ForeignKey(
        "accounts.Club",
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables",
    )
    # An open table is listed in the lobby of open tables (games/tables/open_tables.py)
    # while it waits for players: any logged-in player (a club table: any member) sees it
    # and takes a free seat without an invitation. ``opened_at``: since when it is listed,
    # from which the sweep closes an asynchronous one left waiting (OPEN_LOBBY_CLOSE_AFTER).
    is_open = models.BooleanField(_("table ouverte"), default=False)
    opened_at = models.DateTimeField(_("ouverte depuis"), null=True, blank=True)
    created_at = models.DateTimeField(_("créée le"), auto_now_add=True)
    updated_at = models.DateTimeField(_("modifiée le"), auto_now=True)
    # Moved on by every write of the table's seats and of its seated users' names
    # (``seats_changed``): a process keeps a started table's seats by it
    # (games/tables/seats.py ``table_seats``). Only ``seats_changed`` writes it (``save`` leaves
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
            models.CheckConstraint(
                condition=Q(chat_spectators__in=ChatSpectators.values),
                name="table_chat_spectators_known",
            ),
            models.CheckConstraint(
                condition=Q(is_open=False) | Q(opened_at__isnull=False),
                name="table_open_since_known",
            ),
        ]
        indexes = [
            # The lobby of open tables reads only these rows.
            models.Index(
                fields=["opened_at"],
                condition=Q(is_open=True, status=TableStatus.LOBBY),
                name="table_open_lobby",
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(id)s (%(preset)s)") % {"id": self.pk, "preset": self.get_preset_display()}

    def save(self, **kwargs) -> None:
        """Every field but ``seats_version``, which only ``seats_changed`` moves, and the
        chat's settings, which only games/tables/chat.py writes (``CHAT_FIELDS``)."""
        if not self._state.adding and kwargs.get("update_fields") is None:
            deferred = self.get_deferred_fields()
            kwargs["update_fields"] = [
                field.name
                for field in self._meta.concrete_fields
                if not field.primary_key
                and field.name != "seats_version"
                and field.name not in CHAT_FIELDS
                and field.attname not in deferred
            ]
        super().save(**kwargs)

    @property
    def rules(self) -> Rules:
        return rules_for(self.preset, self.options)

    @property
    def abandoned_at(self) -> datetime.datetime | None:
        """When the sweep abandons this table if none of its players comes back: None
        unless it is waiting for them (``unattended_since``), and for a tournament's
        table, whose round deadline decides (games/tournaments)."""
        if self.unattended_since is None or self.status != TableStatus.PLAYING:
            return None
        if hasattr(self, "tournament_match"):
            return None
        return self.unattended_since + datetime.timedelta(
            seconds=settings.LIVE_ABANDON_AFTER_SECONDS
        )

    def get_status_display(self) -> str:
        """The status in words, as Django's would say it, without rebuilding the choices
        (and translating all their labels) at each call: every board shows it. A live
        game that waits for its players (games/tables/attendance.py) says it is paused."""
        if self.status == TableStatus.PLAYING and self.unattended_since is not None:
            return gettext("En pause")
        if self.status in TableStatus.values:
            return str(TableStatus(self.status).label)
        return self.status


def seats_changed(tables) -> None:
    """Move on the seats version of ``tables`` (a queryset of tables, or table ids):
    their seats, or the name of someone seated at them, changed. Called in the
    transaction of the change, after it: the memo of a process then never holds the old
    seats under the new version (games/tables/seats.py ``table_seats``)."""
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
    # they come back, while another player is at the table (games/timing/absence.py).
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
