"""The user model. Login is by email (allauth); the username is the public handle."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(
        _("nom affiché"),
        max_length=60,
        blank=True,
        help_text=_("Nom montré aux autres joueurs ; le nom d'utilisateur sinon."),
    )

    def __str__(self) -> str:
        return self.display_name or self.username
