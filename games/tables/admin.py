"""Admin pages for tables and their history.

A table in the lobby can be looked after (its settings, a seat given to another player
or a bot). Once it has left the lobby its state belongs to games.tables.service, which logs an
action, bumps the version and tells the viewers for every change: its status and seats
are read-only here, and the "abandon" action stops a table through the service. Games,
hands, tricks and actions are history written by the service and are read-only here:
the log is the truth and nobody edits it by hand.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from belote_site.admin import SafeInputAdmin
from games.tables import service
from games.tables.models import (
    FORFEIT_AFTER,
    Action,
    ChatMessage,
    Game,
    Hand,
    HandAnalysis,
    Invitation,
    Seat,
    Table,
    Trick,
)


class ReadOnlyAdmin(SafeInputAdmin, admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    """The four seats: editable in the lobby only. A seat changed during play would write
    no action and bump no version (a bot put in a seat would never be woken, the clock of
    a human kept for a bot)."""

    model = Seat
    extra = 0
    max_num = 4
    can_delete = False
    fields = ["position", "user", "bot_level"]
    readonly_fields = ["position"]
    raw_id_fields = ["user"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.status != Table.Status.LOBBY:
            return False
        return super().has_change_permission(request, obj)


class InvitationInline(ReadOnlyInline):
    model = Invitation
    fields = ["user", "via", "invited_by", "created_at"]
    readonly_fields = fields
    show_change_link = False


class GameInline(ReadOnlyInline):
    model = Game
    fields = ["number", "score_ns", "score_ew", "held", "winner", "started_at", "finished_at"]
    readonly_fields = fields


class TableAdminForm(forms.ModelForm):
    class Meta:
        model = Table
        fields = ["timeout_policy", "forfeit_after"]  # the admin adds the others

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A tournament's tables are nobody's creation: saving one keeps it so.
        if "created_by" in self.fields:
            self.fields["created_by"].required = False

    def clean_forfeit_after(self):
        value = self.cleaned_data["forfeit_after"]
        if not FORFEIT_AFTER[0] <= value <= FORFEIT_AFTER[1]:
            raise forms.ValidationError(
                _("Choisissez un nombre de dépassements entre %(low)s et %(high)s.")
                % {"low": FORFEIT_AFTER[0], "high": FORFEIT_AFTER[1]}
            )
        return value


@admin.register(Table)
class TableAdmin(SafeInputAdmin, admin.ModelAdmin):
    form = TableAdminForm
    list_display = ["id", "preset", "status", "pace", "version", "created_by", "updated_at"]
    list_filter = ["status", "preset", "pace", "is_open"]
    search_fields = ["id", "created_by__username", "seats__user__username"]
    # The status is the service's at every stage: a lobby table set "playing" here would
    # have no hand to show; the "abandon" action stops a table the right way.
    readonly_fields = [
        "status",
        "version",
        "unattended_since",
        # Opened and closed by its creator (games/tables/open_tables.py), never here.
        "is_open",
        "opened_at",
        "current_hand",
        "invite_token",
        "created_at",
        "updated_at",
        "how_to_change",
    ]
    fields = [
        "preset",
        "options",
        "created_by",
        "pace",
        "move_seconds",
        "fill_with_bots",
        "bot_level",
        "allow_spectators",
        "timeout_policy",
        "forfeit_after",
        *readonly_fields,
    ]
    raw_id_fields = ["created_by"]
    inlines = [SeatInline, InvitationInline, GameInline]
    actions = ["abandon"]

    # What a table in play keeps: its rules are part of its history, and so is what a
    # timeout costs (the seats' timeouts are already counted against it); its pace and
    # time per move made the deadline of the turn under way (changed here, the deadline
    # would not follow); bots fill its seats only at the start.
    FIXED_ONCE_STARTED = [
        "preset",
        "options",
        "timeout_policy",
        "forfeit_after",
        "pace",
        "move_seconds",
        "fill_with_bots",
        "bot_level",
    ]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != Table.Status.LOBBY:
            return [*self.readonly_fields, *self.FIXED_ONCE_STARTED]
        return self.readonly_fields

    @admin.display(description=_("à savoir"))
    def how_to_change(self, table: Table) -> str:
        if table.pk is not None and table.status != Table.Status.LOBBY:
            return gettext(
                "La partie a commencé : son état et ses places ne se changent plus ici. "
                "Pour l'arrêter, utilisez l'action « Abandonner les tables choisies » de "
                "la liste des tables ; en direct, un joueur absent est remplacé par un "
                "robot, et un temps dépassé suit la règle « temps écoulé » de la table."
            )
        return gettext(
            "Pour arrêter la table, utilisez l'action « Abandonner les tables choisies » "
            "de la liste des tables."
        )

    @admin.action(description=_("Abandonner les tables choisies"), permissions=["change"])
    def abandon(self, request, queryset) -> None:
        """Stop the tables through the service: one ``abandon`` action each, the version
        bumped and the viewers told. A table already over is left as it is."""
        stopped, over = [], []
        for table in queryset.order_by("pk"):
            outcome = service.abandon_table(table_id=table.pk, reason="admin")
            (stopped if outcome.applied else over).append(str(table.pk))
        if stopped:
            self.message_user(
                request,
                gettext("Tables abandonnées : %(ids)s.") % {"ids": ", ".join(stopped)},
                messages.SUCCESS,
            )
        if over:
            self.message_user(
                request,
                gettext("Déjà terminées, laissées telles quelles : %(ids)s.")
                % {"ids": ", ".join(over)},
                messages.WARNING,
            )


class HandInline(ReadOnlyInline):
    model = Hand
    fields = ["number", "dealer", "contract", "taker", "ended", "points_ns", "points_ew"]
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "table", "score_ns", "score_ew", "winner", "finished_at"]
    list_filter = ["winner"]
    inlines = [HandInline]


class TrickInline(ReadOnlyInline):
    model = Trick
    fields = ["number", "leader", "cards", "winner", "points"]
    readonly_fields = fields


class ActionInline(ReadOnlyInline):
    model = Action
    fields = ["seq", "seat", "source", "kind", "payload", "created_at"]
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    """A hand and its tricks and actions. Its deck is every player's cards: shown once
    the hand is over (as the site's history does), never while it is played; what is
    public meanwhile (the contract, the tricks and the cards played) shows."""

    fields = [
        "game",
        "number",
        "dealer",
        "deck_when_over",
        "contract",
        "taker",
        "ended",
        "points_ns",
        "points_ew",
        "made",
        "litige",
        "capot",
        "held",
        "started_at",
        "finished_at",
    ]
    readonly_fields = fields
    list_display = [
        "__str__",
        "game",
        "dealer",
        "contract",
        "taker",
        "made",
        "points_ns",
        "points_ew",
    ]
    list_filter = ["contract", "made", "litige"]
    inlines = [TrickInline, ActionInline]

    @admin.display(description=_("paquet"))
    def deck_when_over(self, hand: Hand) -> str:
        if hand.is_over:
            return hand.deck
        return gettext("Caché jusqu'à la fin de la donne.")


@admin.register(HandAnalysis)
class HandAnalysisAdmin(ReadOnlyAdmin):
    """The analysis of a finished hand (games/tables/analysis.py), read-only: it exists
    only once the hand is over, when every card is public."""

    list_display = ["hand", "first_trick", "notes_count", "seconds", "created_at"]
    list_select_related = ["hand__game__table"]
    search_fields = ["hand__game__table__id"]
    raw_id_fields = ["hand"]

    @admin.display(description=_("cartes à revoir"))
    def notes_count(self, row: HandAnalysis) -> int:
        return len(row.notes or [])


@admin.register(Trick)
class TrickAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "hand", "leader", "cards", "winner", "points"]


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin):
    list_display = ["seq", "table", "seat", "source", "kind", "payload", "created_at"]
    list_filter = ["source", "kind"]
    search_fields = ["table__id"]
    list_select_related = ["table"]


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """A table's chat, read-only: what support reads when a player reports a message."""

    list_display = ["sent_at", "table", "author", "kind", "phase", "text"]
    list_filter = ["kind", "phase"]
    search_fields = ["table__id", "author__username"]
    list_select_related = ["table", "author"]
    raw_id_fields = ["table", "author", "game", "hand"]
