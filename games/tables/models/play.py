"""What is played at a table: games, hands, tricks and the action log.

The append-only ``Action`` log is the truth: replaying a hand's actions through the engine
from its stored deck and dealer gives its tricks and result, which ``belote_verify``
checks. ``Trick`` rows and the results on ``Hand`` and ``Game`` are written by
``games.tables.service`` alongside each action so that pages read them without replaying.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.rules import MODES
from games.tables.models.table import SEAT_CHOICES, TEAM_CHOICES, Table


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
    # The deal's commitment (games/rules/records.py), published before the bidding; the
    # salt is revealed with the deck once the hand is over. Both empty for the hands dealt
    # before commitments existed: none is made after the fact.
    salt = models.CharField(_("sel"), max_length=64, blank=True, editable=False)
    commitment = models.CharField(_("engagement"), max_length=64, blank=True, editable=False)
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
            models.CheckConstraint(
                condition=Q(salt="", commitment="") | (~Q(salt="") & ~Q(commitment="")),
                name="hand_commitment_with_salt",
            ),
        ]

    def __str__(self) -> str:
        return _("Donne %(n)s") % {"n": self.number}

    # What the deal is: written once with the hand (games.tables.writes.deal), never again.
    DEAL_FIELDS = frozenset({"dealer", "deck", "salt", "commitment"})

    def save(self, *args, **kwargs) -> None:
        """A dealt hand is saved again only with ``update_fields``, which never name its
        deal: the commitment published before the bidding cannot change."""
        if not self._state.adding:
            fields = kwargs.get("update_fields")
            if fields is None or self.DEAL_FIELDS & set(fields):
                raise ValueError("a hand's deal and its commitment are never changed")
        super().save(*args, **kwargs)

    @property
    def is_over(self) -> bool:
        return bool(self.ended)

    @property
    def deck_list(self) -> list[str]:
        """The deck's card codes, top first."""
        return [self.deck[i : i + 2] for i in range(0, len(self.deck), 2)]


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
