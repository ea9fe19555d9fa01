"""Tournament pages: the tournament (rules, teams and registration, rounds, standings),
its bracket or round-by-round grid, and the registration forms (POST only).

Views only parse, call ``games.tournaments`` and render (reads in
games/tournament_selectors.py). Any logged-in user sees a tournament, as the club page
lists it for anyone; only the club's members register. The registration forms work as
plain POSTs (redirect with a message) and with htmx, which gets the page's
``#registration`` fragment back with a notice; a refused request answers its status
(403, 409, 422) with its message and changes nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.clubs import manages
from games import tournaments
from games.models import Tournament
from games.service import ServiceError
from games.tournament_forms import RegisterForm
from games.tournament_selectors import (
    current_round,
    is_member,
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
        "knockout": tournament.format == Tournament.Format.KNOCKOUT,
        "table_ids": openable_tables(request.user, tournament),
    }
    if context["knockout"]:
        context["columns"] = knockout_bracket(tournament)
    else:
        context["rounds"], context["grid"] = round_grid(tournament)
    return render(request, BRACKET, context)


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        return _refused(request, tournament, _first_error(form), 422, form=form)
    try:
        team = tournaments.register(
            tournament=tournament,
            user=request.user,
            partner_username=form.cleaned_data["partner"],
            name=form.cleaned_data["name"],
        )
    except ServiceError as refused:
        return _refused(request, tournament, refused.message, refused.status, form=form)
    if team.complete:
        done = _("Votre équipe est inscrite : %(team)s.") % {"team": team}
    else:
        done = _("Inscription sans partenaire : l'organisateur vous en donnera un.")
    return _done(request, tournament, done)


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    try:
        tournaments.withdraw(tournament=tournament, user=request.user)
    except ServiceError as refused:
        return _refused(request, tournament, refused.message, refused.status)
    return _done(request, tournament, _("Votre équipe est retirée du tournoi."))


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


def _done(request: HttpRequest, tournament: Tournament, text: str) -> HttpResponse:
    if request.htmx:
        notice = {"level": "success", "text": text}
        context = _detail_context(request, tournament, notice=notice)
        return render(request, f"{DETAIL}#registration", context)
    messages.success(request, text)
    return redirect("tournaments:detail", tournament.pk)


def _refused(
    request: HttpRequest, tournament: Tournament, text: str, status: int, **extra
) -> HttpResponse:
    """The page as it is (nothing changed), with why the request was refused."""
    if status == 404:
        raise Http404
    if request.htmx:
        notice = {"level": "error", "text": text}
        context = _detail_context(request, tournament, notice=notice, **extra)
        return render(request, f"{DETAIL}#registration", context, status=status)
    messages.error(request, text)
    return render(request, DETAIL, _detail_context(request, tournament, **extra), status=status)


def _first_error(form) -> str:
    for errors in form.errors.values():
        return errors[0]
    return _("Requête invalide.")
