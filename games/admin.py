"""Admin pages for tables and their history.

Tables and seats can be looked after (a seat given to another player or a bot, a table
marked abandoned); games, hands, tricks and actions are history written by the service
and are read-only here: the log is the truth and nobody edits it by hand.
"""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import FORFEIT_AFTER, Action, Game, Hand, Invitation, Seat, Table, Trick


class ReadOnlyAdmin(admin.ModelAdmin):
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
    model = Seat
    extra = 0
    max_num = 4
    can_delete = False
    fields = ["position", "user", "bot_level"]
    readonly_fields = ["position"]
    raw_id_fields = ["user"]

    def has_add_permission(self, request, obj=None):
        return False


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

    def clean_forfeit_after(self):
        value = self.cleaned_data["forfeit_after"]
        if not FORFEIT_AFTER[0] <= value <= FORFEIT_AFTER[1]:
            raise forms.ValidationError(
                _("Choisissez un nombre de dépassements entre %(low)s et %(high)s.")
                % {"low": FORFEIT_AFTER[0], "high": FORFEIT_AFTER[1]}
            )
        return value


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableAdminForm
    list_display = ["id", "preset", "status", "pace", "version", "created_by", "updated_at"]
    list_filter = ["status", "preset", "pace"]
    search_fields = ["id", "created_by__username", "seats__user__username"]
    readonly_fields = ["version", "current_hand", "invite_token", "created_at", "updated_at"]
    fields = [
        "preset",
        "options",
        "status",
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

    def get_readonly_fields(self, request, obj=None):
        # The rules of a table in play are part of its history, and so is what a timeout
        # costs (the seats' timeouts are already counted against it).
        if obj is not None and obj.status != Table.Status.LOBBY:
            return [*self.readonly_fields, "preset", "options", "timeout_policy", "forfeit_after"]
        return self.readonly_fields


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


@admin.register(Trick)
class TrickAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "hand", "leader", "cards", "winner", "points"]


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin):
    list_display = ["seq", "table", "seat", "source", "kind", "payload", "created_at"]
    list_filter = ["source", "kind"]
    search_fields = ["table__id"]
    list_select_related = ["table"]
