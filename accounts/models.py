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
