"""A table's chat: its messages and who muted it (games/tables/chat.py writes both).

Nothing here is game state: a message never takes the table's lock and never moves its
version, so a move sent at version N stays valid whatever is said meanwhile.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.tables.models.play import Game, Hand
from games.tables.models.table import Table

# The longest message, in characters (once stripped).
MAX_CHAT_CHARS = 200


class ChatKind(models.TextChoices):
    REACTION = "reaction", _("réaction")
    TEXT = "text", _("texte libre")


class ChatPhase(models.TextChoices):
    """When a message was sent: only reactions during a hand (bidding or play)."""

    LOBBY = "lobby", _("avant la partie")
    BIDDING = "bidding", _("enchères")
    PLAY = "play", _("jeu de la carte")
    OVER = "over", _("partie finie")


class ChatMessage(models.Model):
    Kind = ChatKind
    Phase = ChatPhase

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("auteur"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    kind = models.CharField(_("type"), max_length=8, choices=ChatKind.choices)
    # A reaction's key (games/tables/chat.py REACTIONS), shown in each reader's language;
    # empty for free text.
    reaction = models.CharField(_("réaction"), max_length=16, blank=True)
    # What was sent, as the player wrote it (a reaction: its French words).
    text = models.CharField(_("texte"), max_length=MAX_CHAT_CHARS)
    phase = models.CharField(_("moment"), max_length=8, choices=ChatPhase.choices)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="chat_messages"
    )
    sent_at = models.DateTimeField(_("envoyé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("message de table")
        verbose_name_plural = _("messages de table")
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "-id"], name="chat_table_recent")]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=ChatKind.values), name="chat_kind_known"),
            models.CheckConstraint(
                condition=Q(phase__in=ChatPhase.values), name="chat_phase_known"
            ),
            models.CheckConstraint(
                condition=Q(kind=ChatKind.TEXT, reaction="")
                | (Q(kind=ChatKind.REACTION) & ~Q(reaction="")),
                name="chat_reaction_with_kind",
            ),
            # Free text is never stored during a hand (the server refuses it).
            models.CheckConstraint(
                condition=Q(kind=ChatKind.REACTION)
                | Q(phase__in=[ChatPhase.LOBBY, ChatPhase.OVER]),
                name="chat_text_outside_hands",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} #{self.pk}: {self.text}"


class ChatMute(models.Model):
    """A user who muted a table's chat for themselves: nothing of it reaches them."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted_at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        verbose_name = _("discussion coupée")
        verbose_name_plural = _("discussions coupées")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.table_id}"
