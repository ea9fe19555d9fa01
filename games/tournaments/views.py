"""Tournament pages: the tournament (rules, teams and registration, rounds, standings),
its bracket or round-by-round grid, and the registration forms (POST only).

Views only parse, call ``games.tournaments.service`` and render (reads in
games/tournaments/selectors.py). Any logged-in user sees a tournament, as the club page
lists it for anyone; only the club's members register. The registration forms work as
plain POSTs (redirect with a message) and with htmx, which gets the page's
``#registration`` fragment back with a notice; a refused request answers its status
(403, 409, 422) with its message and changes nothing.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.clubs.service import manages
from belote_site import htmx
from games.tables import records
from games.tables.models import Game
from games.tables.service import ServiceError
from games.tournaments import service as tournaments
from games.tournaments.forms import RegisterForm
from games.tournaments.guards import is_member
from games.tournaments.models import Tournament
from games.tournaments.selectors import (
    current_round,
    knockout_bracket,
    openable_tables,
    round_grid,
    rounds_of,
    teams_of,
    total_rounds,
    tournament_standings,
)

DETAIL = "games/tournaments/detail.html"
BRACKET = "games/tournaments/bracket.html"


@login_required
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    return render(request, DETAIL, _detail_context(request, tournament))


@login_required
def tournament_bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A knockout's bracket (a column a round), or the round-by-round grid."""
    tournament = _tournament(tournament_id)
    context = {
        "tournament": tournament,
        "knockout": tournament.formula.bracket,
        "table_ids": openable_tables(request.user, tournament),
    }
    if context["knockout"]:
        context["columns"] = knockout_bracket(tournament)
    else:
        context["rounds"], context["grid"] = round_grid(tournament)
    return render(request, BRACKET, context)


@login_required
def tournament_records(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The records of the tournament's finished games, in one zip archive: those of the
    tables the user may see (``openable_tables``), verified by ``python -m
    games.rules.referee --verify`` (games/rules/records.py)."""
    tournament = _tournament(tournament_id)
    games = (
        Game.objects.filter(
            table_id__in=openable_tables(request.user, tournament), winner__isnull=False
        )
        .select_related("table")
        .order_by("table_id", "number")
    )
    archive = records.archive((game.table, game) for game in games)
    response = HttpResponse(archive, content_type="application/zip")
    response["Content-Disposition"] = (
        f'attachment; filename="tournoi-{tournament.pk}-enregistrements.zip"'
    )
    return response


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    page = _page(request, tournament)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        return htmx.refused(request, page, htmx.first_error(form), 422, form=form)
    try:
        team = tournaments.register(
            tournament=tournament,
            user=request.user,
            partner_username=form.cleaned_data["partner"],
            name=form.cleaned_data["name"],
        )
    except ServiceError as refused:
        return htmx.refused(request, page, refused.message, refused.status, form=form)
    if team.complete:
        done = _("Votre équipe est inscrite : %(team)s.") % {"team": team}
    else:
        done = _("Inscription sans partenaire : l'organisateur vous en donnera un.")
    return htmx.done(request, page, done)


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    try:
        tournaments.withdraw(tournament=tournament, user=request.user)
    except ServiceError as refused:
        return htmx.refused(request, _page(request, tournament), refused.message, refused.status)
    return htmx.done(request, _page(request, tournament), _("Votre équipe est retirée du tournoi."))


# ---------------------------------------------------------------------------------------
# Helpers


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)


def _detail_context(request: HttpRequest, tournament: Tournament, **extra) -> dict:
    user = request.user
    started = tournament.status != Tournament.Status.REGISTRATION
    context = {
        "tournament": tournament,
        "rules": tournament.rules,
        "formula_text": tournament.formula.describe(tournament.rounds),
        "teams": teams_of(tournament),
        "my_team": tournaments.team_of(tournament, user),
        "is_member": is_member(user, tournament),
        "is_organiser": manages(user, tournament.club),
        "form": RegisterForm(),
        "total_rounds": total_rounds(tournament) if started else None,
        "current_round": current_round(tournament) if started else None,
        "rounds": rounds_of(tournament) if started else [],
        "standings": tournament_standings(tournament) if started else [],
        "table_ids": openable_tables(user, tournament) if started else set(),
        "notice": None,
    }
    context.update(extra)
    return context


def _page(request: HttpRequest, tournament: Tournament) -> htmx.Page:
    """The tournament's page as a registration form's answer (its ``#registration``)."""
    return htmx.Page(
        DETAIL,
        "registration",
        lambda **extra: _detail_context(request, tournament, **extra),
        reverse("tournaments:detail", args=[tournament.pk]),
    )
