"""Admin pages of the games app: the tables and their history (games/tables/admin.py,
registered by importing it here), and the tournaments, run here by their club's
organisers: settings and registrations until the start, then the actions (pair the
players alone, start, close the round) and the rounds read-only.
"""

from __future__ import annotations

import secrets

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.forms.models import BaseInlineFormSet
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import ClubScopedAdmin
from accounts.clubs.service import managed_clubs, manages
from accounts.models import Membership, User
from games.rules import InvalidOptions, rules_for
from games.tables import admin as tables_admin  # noqa: F401 (registers the tables' pages)
from games.tables.models import ASYNC_MOVE_SECONDS, LIVE_MOVE_SECONDS, Pace
from games.tables.service import ServiceError
from games.tournaments import service as tournaments
from games.tournaments.formats import FORMATS_BY_NAME
from games.tournaments.models import Tournament, TournamentMatch, TournamentRound, TournamentTeam

# ---------------------------------------------------------------------------------------
# Tournaments: run by the organisers of their club (games/tournaments/service.py does the work)


class TournamentAdminForm(forms.ModelForm):
    """The settings of a tournament, checked as the service will use them: rules the
    engine accepts, a time per move that suits the pace, rounds for a Swiss only."""

    class Meta:
        model = Tournament
        fields = [
            "club",
            "name",
            "description",
            "format",
            "rounds",
            "preset",
            "options",
            "pace",
            "move_seconds",
            "round_hours",
        ]

    def clean(self):
        data = super().clean()
        preset, options = data.get("preset"), data.get("options")
        if preset and options is not None:
            if not isinstance(options, dict):
                self.add_error("options", _("Donnez les options sous forme d'objet JSON."))
            else:
                try:
                    rules_for(preset, options)
                except (InvalidOptions, TypeError) as error:
                    self.add_error("options", _("Options invalides : %s") % error)
        pace, seconds = data.get("pace"), data.get("move_seconds")
        if pace and seconds is not None:
            low, high = LIVE_MOVE_SECONDS if pace == Pace.LIVE else ASYNC_MOVE_SECONDS
            if not low <= seconds <= high:
                self.add_error(
                    "move_seconds",
                    _("En %(pace)s, de %(low)s à %(high)s secondes par coup.")
                    % {"pace": Pace(pace).label.lower(), "low": low, "high": high},
                )
        hours, (shortest, longest) = data.get("round_hours"), tournaments.ROUND_HOURS
        if hours is not None and not shortest <= hours <= longest:
            self.add_error("round_hours", tournaments.round_hours_refusal())
        formula = FORMATS_BY_NAME.get(data.get("format"))
        if formula is not None and formula.chosen_rounds:
            if not data.get("rounds"):
                self.add_error("rounds", formula.rounds_missing)
        elif formula is not None:
            data["rounds"] = None  # round robin, knockout: the teams decide
        return data


class TeamForm(forms.ModelForm):
    """A team typed by usernames (organisers need no access to the users' admin)."""

    player_one = forms.ModelChoiceField(
        label=_("joueur 1 (nom d'utilisateur)"),
        queryset=User.objects.filter(is_active=True),
        to_field_name="username",
        widget=forms.TextInput,
        error_messages={"invalid_choice": _("Aucun joueur actif ne porte ce nom d'utilisateur.")},
    )
    player_two = forms.ModelChoiceField(
        label=_("joueur 2 (nom d'utilisateur)"),
        queryset=User.objects.filter(is_active=True),
        to_field_name="username",
        widget=forms.TextInput,
        required=False,
        error_messages={"invalid_choice": _("Aucun joueur actif ne porte ce nom d'utilisateur.")},
    )

    class Meta:
        model = TournamentTeam
        fields = ["player_one", "player_two", "name", "seed"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("player_one", "player_two"):
            user = getattr(self.instance, name, None) if self.instance.pk else None
            if user is not None:
                self.initial[name] = user.username


class TeamFormSet(BaseInlineFormSet):
    """The registrations an organiser edits: players of the club, each in one team."""

    def clean(self) -> None:
        super().clean()
        tournament = self.instance
        members = set(
            Membership.objects.filter(club_id=tournament.club_id).values_list("user_id", flat=True)
        )
        seen: set[int] = set()
        for form in self.forms:
            if not hasattr(form, "cleaned_data") or self._should_delete_form(form):
                continue
            for name in ("player_one", "player_two"):
                player = form.cleaned_data.get(name)
                if player is None:
                    continue
                if player.pk not in members:
                    form.add_error(name, _("%(name)s n'est pas membre du club.") % {"name": player})
                elif player.pk in seen:
                    form.add_error(name, _("%(name)s est déjà dans une équipe.") % {"name": player})
                seen.add(player.pk)


class TournamentTeamInline(admin.TabularInline):
    """The registrations: editable until the start, history afterwards."""

    model = TournamentTeam
    form = TeamForm
    formset = TeamFormSet
    extra = 0
    fields = ["player_one", "player_two", "name", "seed", "registered_at"]
    readonly_fields = ["registered_at"]

    def _open(self, request, obj) -> bool:
        return obj is None or (
            obj.status == Tournament.Status.REGISTRATION and manages(request.user, obj.club)
        )

    def has_view_permission(self, request, obj=None) -> bool:
        return obj is None or manages(request.user, obj.club)

    def has_add_permission(self, request, obj=None) -> bool:
        return self._open(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return self._open(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return self._open(request, obj)


class TournamentRoundInline(admin.TabularInline):
    """The rounds with their matches and the links to their tables: read-only, the
    service writes them."""

    model = TournamentRound
    extra = 0
    can_delete = False
    fields = ["number", "deadline", "finished_at", "matches"]
    readonly_fields = fields
    viewer = None  # set per request by TournamentAdmin.get_inline_instances

    @admin.display(description=_("matchs"))
    def matches(self, round_: TournamentRound):
        rows = round_.matches.select_related(
            "team_one__player_one",
            "team_one__player_two",
            "team_two__player_one",
            "team_two__player_two",
            "winner",
        )
        return format_html_join(
            mark_safe("<br>"), "{}. {} {}", ((m.position, m, self._result(m)) for m in rows)
        )

    def _result(self, match: TournamentMatch):
        parts = []
        if match.finished:
            parts.append(
                format_html(
                    "→ {} ({}, {}–{})",
                    match.winner,
                    match.get_result_display(),
                    match.score_one,
                    match.score_two,
                )
            )
        if match.table_id is not None:
            admin_link = self.viewer is not None and self.viewer.has_perm("games.view_table")
            url = (
                reverse("admin:games_table_change", args=[match.table_id])
                if admin_link
                else reverse("games:table", args=[match.table_id])
            )
            label = _("table n° %(id)s") % {"id": match.table_id}
            parts.append(format_html('<a href="{}">{}</a>', url, label))
        return format_html_join(" ", "{}", ((part,) for part in parts))

    def has_view_permission(self, request, obj=None) -> bool:
        return obj is None or manages(request.user, obj.club)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ClubScopedAdmin):
    """Tournaments of the clubs the user runs (all of them for a superuser), through the
    rights of accounts/admin.py's ClubScopedAdmin. The actions call games.tournaments,
    which checks the same rights again: a tournament of a club the user does not run is
    refused with a message, and nothing changes."""

    form = TournamentAdminForm
    list_display = ["name", "club", "format", "status", "team_count", "created_at", "started_at"]
    list_filter = ["status", "format", "club"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
    readonly_fields = ["status", "created_by", "created_at", "started_at", "finished_at", "page"]
    inlines = [TournamentTeamInline, TournamentRoundInline]
    actions = ["pair_singles", "pair_singles_at_random", "start", "close_round"]
    # Fixed once the tournament runs: its tables were created with them.
    SETTLED = ["club", "format", "rounds", "preset", "options", "pace", "move_seconds"]

    def get_fields(self, request, obj=None):
        return [*TournamentAdminForm.Meta.fields, *self.readonly_fields]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != Tournament.Status.REGISTRATION:
            return [*self.readonly_fields, *self.SETTLED]
        return self.readonly_fields

    def get_queryset(self, request):
        queryset = super().get_queryset(request).annotate(team_count=Count("teams"))
        if request.user.is_superuser:
            return queryset
        return queryset.filter(club__in=managed_clubs(request.user))

    def get_inline_instances(self, request, obj=None):
        inlines = super().get_inline_instances(request, obj)
        for inline in inlines:
            inline.viewer = request.user
        return inlines

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "club":
            kwargs["queryset"] = managed_clubs(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_add_permission(self, request) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None) -> bool:
        return self.has_view_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return self.has_view_permission(request, obj)

    def save_model(self, request, obj, form, change) -> None:
        if not manages(request.user, obj.club):
            raise PermissionDenied
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.display(description=_("équipes"), ordering="team_count")
    def team_count(self, tournament: Tournament) -> int:
        return tournament.team_count

    @admin.display(description=_("page du tournoi"))
    def page(self, tournament: Tournament):
        if tournament.pk is None:
            return "-"
        url = reverse("tournaments:detail", args=[tournament.pk])
        return format_html('<a href="{}">{}</a>', url, url)

    # Actions ---------------------------------------------------------------------------

    @admin.action(description=_("Apparier les joueurs seuls"), permissions=["change"])
    def pair_singles(self, request, queryset) -> None:
        self._each(request, queryset, self._paired(request, seed=None))

    @admin.action(description=_("Apparier les joueurs seuls au hasard"), permissions=["change"])
    def pair_singles_at_random(self, request, queryset) -> None:
        self._each(request, queryset, self._paired(request, seed=secrets.randbelow(10**6)))

    @admin.action(description=_("Démarrer le tournoi"), permissions=["change"])
    def start(self, request, queryset) -> None:
        def call(tournament: Tournament) -> str:
            report = tournaments.start(tournament=tournament, by=request.user)
            done = gettext("%(t)s : le tournoi commence, la ronde 1 est appariée.") % {
                "t": tournament
            }
            if report.removed:
                done += " " + gettext("Retirés faute de partenaire : %(names)s.") % {
                    "names": ", ".join(report.removed)
                }
            return done

        self._each(request, queryset, call)

    @admin.action(description=_("Clore la ronde en cours (forfaits)"), permissions=["change"])
    def close_round(self, request, queryset) -> None:
        def call(tournament: Tournament) -> str:
            closed = tournaments.close_round(tournament=tournament, by=request.user)
            done = gettext("%(t)s : la ronde %(n)s est close.")
            return done % {"t": tournament, "n": closed.number}

        self._each(request, queryset, call)

    def _paired(self, request, *, seed: int | None):
        def call(tournament: Tournament) -> str:
            report = tournaments.pair_singles(tournament=tournament, by=request.user, seed=seed)
            done = ngettext(
                "%(t)s : %(n)s équipe formée.", "%(t)s : %(n)s équipes formées.", report.pairs
            ) % {"t": tournament, "n": report.pairs}
            if seed is not None:
                done += " " + gettext("(tirage n° %(seed)s)") % {"seed": seed}
            if report.left_alone:
                done += " " + gettext("%(name)s reste sans partenaire.") % {
                    "name": report.left_alone
                }
            return done

        return call

    def _each(self, request, queryset, call) -> None:
        """``call`` on each tournament chosen, once all of them are the user's to run:
        otherwise nothing at all is done. The changelist only offers the user's own, so a
        posted id missing from ``queryset`` is one of another club's."""
        chosen = list(queryset.select_related("club"))
        foreign = [str(t) for t in chosen if not manages(request.user, t.club)]
        if not request.POST.get("select_across"):
            posted = set(request.POST.getlist(helpers.ACTION_CHECKBOX_NAME))
            foreign += sorted(posted - {str(t.pk) for t in chosen})
        if foreign:
            self.message_user(
                request,
                gettext("Vous n'organisez pas ces tournois : %(names)s. Rien n'a été fait.")
                % {"names": ", ".join(foreign)},
                messages.ERROR,
            )
            return
        for tournament in chosen:
            try:
                done = call(tournament)
            except ServiceError as refused:
                self.message_user(request, f"{tournament} : {refused.message}", messages.ERROR)
            else:
                self.message_user(request, done, messages.SUCCESS)
