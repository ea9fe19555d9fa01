"""Bad requests: refused before any view when they carry a NUL, and never answered with an
empty page.

**NUL.** PostgreSQL refuses a NUL in any text value ("PostgreSQL text fields cannot
contain NUL (0x00) bytes"), so a NUL that reaches a query fails it with a 500, wherever
it comes from: a path parameter (``/joueurs/%00/``), a query parameter read by a view or
by the admin's filters, a form field that no ``forms.CharField`` checked. No page of the
site has a use for one, so the middleware answers 400 to any request with a NUL in its
path, its query string (names and values) or its form data (names, values, uploaded file
names), before the session, the user or a view is looked at: one rule instead of a
check in each view. Cookies are not refused: a bad session cookie is no session
(belote_site/sessions.py), and a bad cookie would otherwise lock its browser out.

**Empty 4xx.** Some refusals come with no body: ``require_POST`` answers a GET with a
bare 405, for one. A 4xx without a body gets the site's page for its status, which says
what happened (templates/request_refused.html). A view's own refusal with its message is
left alone.

The same page answers the requests Django refuses itself (too many fields, an unknown
host): ``bad_request`` is the site's ``handler400``. It stands alone (no user, no
database), in the request's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

NUL = "\x00"

# What the page says for a status: a title and a sentence.
REFUSALS = {
    400: (
        _("Requête invalide"),
        _(
            "Le site ne peut pas lire cette requête : l'adresse ou le formulaire contient "
            "des caractères qu'il n'accepte pas. Rien n'a été enregistré."
        ),
    ),
    405: (
        _("Cette adresse ne s'ouvre pas ainsi"),
        _(
            "Elle reçoit les formulaires du site (un bouton de la page) : rien n'a été "
            "fait. Revenez à la page précédente."
        ),
    ),
}
REFUSED = (
    _("Requête refusée"),
    _("Le site n'a pas donné suite à cette requête. Rien n'a été enregistré."),
)


class BadRequestMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_nul(request):
            return refusal(request, 400)
        response = self.get_response(request)
        if (
            400 <= response.status_code < 500
            and request.method != "HEAD"
            and not response.streaming
            and not response.content
        ):
            response.content = refusal_page(request, response.status_code)
            response["Content-Type"] = "text/html; charset=utf-8"
            response["Content-Language"] = _language(request)
        return response


def has_nul(request: HttpRequest) -> bool:
    if NUL in request.path or _any_nul(request.GET.lists()):
        return True
    if request.method != "POST":
        return False  # only a POST's body is parsed (request.POST), by us or by Django
    files = ((name, [f.name or "" for f in group]) for name, group in request.FILES.lists())
    return _any_nul(request.POST.lists()) or _any_nul(files)


def _any_nul(lists: Iterable[tuple[str, list[str]]]) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in lists)


def _language(request: HttpRequest) -> str:
    """The request's language: the one chosen for it if the middleware got that far,
    else its cookie or Accept-Language (the user is not known yet, and the thread may
    still be in the previous request's)."""
    return getattr(request, "LANGUAGE_CODE", "") or translation.get_language_from_request(request)


def refusal_page(request: HttpRequest, status: int) -> str:
    title, text = REFUSALS.get(status, REFUSED)
    with translation.override(_language(request)):
        context = {"status": status, "title": title, "text": text}
        return render_to_string("request_refused.html", context)


def refusal(request: HttpRequest, status: int) -> HttpResponse:
    response = HttpResponse(refusal_page(request, status), status=status)
    response["Content-Language"] = _language(request)
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's handler400."""
    return refusal(request, 400)
