"""The notifications' rows (written by games.notifications, never by the game service)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.tables.models import Table


class NotificationKind(models.TextChoices):
    TURN = "turn", _("à vous de jouer")
    CLOSED = "closed", _("table ouverte fermée")


# What each kind says, translated when it is shown: in the reader's language of the moment.
NOTIFICATION_TEXTS = {
    NotificationKind.TURN: _("À vous de jouer à la table n° %(id)s"),
    NotificationKind.CLOSED: _("La table ouverte n° %(id)s a été fermée faute de joueurs"),
}


class Notification(models.Model):
    """One line of a user's in-app notifications (the bell of the header). It stores its
    kind and table, not a text: ``text`` says it in the language active when shown. The
    unread line of a table is brought up to date rather than repeated
    (games/notifications/channels/inapp.py)."""

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
