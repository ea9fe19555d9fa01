"""The analysis of a finished hand (games/tables/analysis.py writes it, once, in the task
worker): the card plays that the exact double-dummy play would have bettered."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.tables.models.play import Hand


class HandAnalysis(models.Model):
    """One finished hand's analysis: its notes, one per card play perfect play would have
    bettered, each naming its action by ``seq`` in the table's log:

    ``{"seq": 41, "seat": 3, "trick": 5, "played": "JS", "best": ["9H"], "gain": 14,
    "spared": 14}`` (games/bots/analysis.py ``CardNote``: ``best`` the better cards, the
    most card points first; ``gain`` the points the player's team would have scored
    more in the hand's score; ``spared`` the points the other team would have scored
    less). Card plays of tricks before ``first_trick`` were not weighed."""

    hand = models.OneToOneField(
        Hand,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="analysis",
        verbose_name=_("donne"),
    )
    first_trick = models.PositiveSmallIntegerField(_("analysée à partir du pli"), default=1)
    notes = models.JSONField(_("cartes à revoir"), default=list, blank=True)
    seconds = models.FloatField(_("durée du calcul (s)"), default=0)
    created_at = models.DateTimeField(_("calculée le"), auto_now_add=True)

    class Meta:
        verbose_name = _("analyse de donne")
        verbose_name_plural = _("analyses de donnes")
        constraints = [
            models.CheckConstraint(
                condition=Q(first_trick__gte=1, first_trick__lte=8),
                name="analysis_first_trick_range",
            ),
        ]

    def __str__(self) -> str:
        return _("Analyse de la donne %(id)s") % {"id": self.hand_id}
