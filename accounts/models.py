"""The user model and its preferences. Login is by email (allauth); the username is the
public handle, the display name the friendlier one shown at the table."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class Notify(models.TextChoices):
    """When to email a player that it is their turn at a table."""

    IMMEDIATELY = "immediately", _("Tout de suite")
    HOURLY = "hourly", _("Au bout d'une heure sans jouer")
    DAILY = "daily", _("Un résumé par jour")
    NEVER = "never", _("Jamais")


class User(AbstractUser):
    display_name = models.CharField(
        _("nom affiché"),
        max_length=60,
        blank=True,
        help_text=_("Nom montré aux autres joueurs ; le nom d'utilisateur sinon."),
    )
    language = models.CharField(
        _("langue"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="fr",
        help_text=_("Langue du site une fois connecté."),
    )
    notify = models.CharField(
        _("avis de tour"),
        max_length=16,
        choices=Notify,
        default=Notify.HOURLY,
        help_text=_("Quand vous prévenir par e-mail que c'est à vous de jouer."),
    )

    def __str__(self) -> str:
        return user_display(self)


def user_display(user: User) -> str:
    """The name other players see; allauth uses it too (ACCOUNT_USER_DISPLAY)."""
    return user.display_name or user.username


class Vacation(models.Model):
    """An absence declared by a player: from ``start`` to ``end`` (both days included),
    the clocks of their tables stand still (games/timing.py)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur"),
        on_delete=models.CASCADE,
        related_name="vacations",
    )
    start = models.DateField(_("du"))
    end = models.DateField(_("au"))
    created_at = models.DateTimeField(_("déclarée le"), auto_now_add=True)

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        ordering = ["user", "start"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="vacation_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.start} – {self.end}"

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1
