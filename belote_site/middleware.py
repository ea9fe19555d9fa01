"""Requests the site refuses before any view: a NUL character in what the client sent.

PostgreSQL refuses a NUL in any text value ("PostgreSQL text fields cannot contain NUL
(0x00) bytes"), so a NUL that reaches a query fails it with a 500, wherever it comes
from: a path parameter (``/joueurs/%00/``), a query parameter read by a view or by the
admin's filters, a form field that no ``forms.CharField`` checked. No page of the site
has a use for one, so the middleware answers 400 to any request with a NUL in its path,
its query string (names and values) or its form data (names, values, uploaded file
names), before the session, the user or a view is looked at: one rule instead of a
check in each view. Cookies are not refused: a bad session cookie is no session
(belote_site/sessions.py), and a bad cookie would otherwise lock its browser out.

The 400 page (templates/400.html) is also what Django answers for the requests it
refuses itself (too many fields, an unknown host): ``bad_request`` below is the site's
``handler400``. It stands alone (no user, no database), in the request's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.utils import translation

NUL = "\x00"


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_nul(request):
            return bad_request(request)
        return self.get_response(request)


def has_nul(request: HttpRequest) -> bool:
    if NUL in request.path or _any_nul(request.GET.lists()):
        return True
    if request.method != "POST":
        return False  # only a POST's body is parsed (request.POST), by us or by Django
    files = ((name, [f.name or "" for f in group]) for name, group in request.FILES.lists())
    return _any_nul(request.POST.lists()) or _any_nul(files)


def _any_nul(lists: Iterable[tuple[str, list[str]]]) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in lists)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 400 page, in the language of the request (its cookie or Accept-Language: the
    user is not known yet, and the thread may still be in the previous request's)."""
    language = translation.get_language_from_request(request)
    with translation.override(language):
        page = render_to_string("400.html")
    response = HttpResponseBadRequest(page)
    response["Content-Language"] = language
    return response
