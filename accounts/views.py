"""Account pages of our own: the profile, and the language switch that remembers the choice.

Sign-up, login, logout, email and password pages are allauth's (under /comptes/).
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_POST

from accounts.forms import ProfileForm


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else None
    form = ProfileForm(data, instance=request.user)
    if form.is_valid():
        user = form.save()
        # Say it in the language the next page will be in.
        translation.activate(user.language)
        messages.success(request, _("Votre profil est enregistré."))
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})


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
