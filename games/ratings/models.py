"""Ratings history: how each rated game moved each player's rating (accounts.Rating)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RatingChange(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
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
