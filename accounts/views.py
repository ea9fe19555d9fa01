"""Account pages of our own: the profile, and the language switch that remembers the choice.

Sign-up, login, logout, email and password pages are allauth's (under /comptes/).
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_POST

from accounts import vacations
from accounts.forms import NAME_TAKEN, ProfileForm, VacationForm
from accounts.models import Rating


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else None
    form = ProfileForm(data, instance=request.user)
    if form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:  # the same name saved by another player a moment ago
            request.user.refresh_from_db()
            form.add_error("display_name", NAME_TAKEN)
        else:
            # Say it in the language the next page will be in.
            translation.activate(user.language)
            messages.success(request, _("Votre profil est enregistré."))
            return redirect("profile")
    status = 422 if form.is_bound else 200
    return render(request, "accounts/profile.html", _profile_context(request, form), status=status)


def _profile_context(request: HttpRequest, form, vacation_form=None) -> dict:
    today = timezone.localdate()
    return {
        "form": form,
        "vacation_form": vacation_form or VacationForm(),
        "vacations": request.user.vacations.filter(end__gte=today).order_by("start"),
        "vacation_days_left": vacations.days_left(request.user, today.year),
        "rating": Rating.objects.filter(user=request.user).first(),
    }


@login_required
@require_POST
def vacation_declare(request: HttpRequest) -> HttpResponse:
    """Declare an absence: the clocks of the player's tables stop during it."""
    form = VacationForm(request.POST)
    if form.is_valid():
        try:
            vacations.declare_vacation(user=request.user, **form.cleaned_data)
        except vacations.VacationError as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("Votre absence est enregistrée."))
            return redirect("profile")
    context = _profile_context(request, ProfileForm(instance=request.user), form)
    return render(request, "accounts/profile.html", context, status=422)


@login_required
@require_POST
def vacation_cancel(request: HttpRequest, vacation_id: int) -> HttpResponse:
    try:
        vacations.cancel_vacation(user=request.user, vacation_id=vacation_id)
    except vacations.VacationError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Votre absence est annulée."))
    return redirect("profile")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language; a logged-in player's choice also becomes their preference."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    user = request.user
    if user.is_authenticated and language in dict(settings.LANGUAGES) and language != user.language:
        user.language = language
        user.save(update_fields=["language"])
    return response
