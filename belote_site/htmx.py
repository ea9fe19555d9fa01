"""The answers of a page's action forms, for htmx and for plain POSTs alike.

Every action form of the site (a table's lobby, a club, a tournament's registration)
works both ways: htmx gets the page's fragment back with a notice saying what happened,
a plain POST gets a redirect with a message (post/redirect/get) or, when refused, the
whole page with its status. A refused action answers its status (403, 409, 422) with its
message and changes nothing; a 404 says nothing at all.

A view describes its page with a ``Page`` (template, fragment, context, URL after a
success) and answers with ``done``, ``refused`` or ``act`` (validate a form, call the
write path, answer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

__all__ = ["Page", "act", "done", "first_error", "refused"]


@dataclass(frozen=True)
class Page:
    """The page an action form is on.

    ``context(**extra)`` builds the page's context as it is now (reading it again from
    the database); ``extra`` carries the notice and, after a refusal, the bound form.
    ``fragment`` names the part htmx swaps: the partial ``template#fragment``, or its own
    file ``fragment_template``; ``url`` is where a plain POST goes after a success.
    """

    template: str
    fragment: str
    context: Callable[..., dict]
    url: str
    fragment_template: str = ""

    @property
    def part(self) -> str:
        """The template htmx gets back."""
        return self.fragment_template or f"{self.template}#{self.fragment}"


def done(request: HttpRequest, page: Page, text: str) -> HttpResponse:
    """The action succeeded: htmx gets the fragment with ``text``, a plain POST a redirect."""
    if request.htmx:
        context = page.context(notice={"level": "success", "text": text})
        return render(request, page.part, context)
    messages.success(request, text)
    return redirect(page.url)


def refused(request: HttpRequest, page: Page, text: str, status: int, **extra) -> HttpResponse:
    """The page as it is (nothing changed), with why the action was refused."""
    if status == 404:
        raise Http404
    if request.htmx:
        notice = {"level": "error", "text": text, "fragment": page.fragment}
        context = page.context(notice=notice, **extra)
        return render(request, page.part, context, status=status)
    messages.error(request, text)
    return render(request, page.template, page.context(**extra), status=status)


def act(
    request: HttpRequest,
    page: Page,
    call: Callable[[dict], object],
    success: str,
    *,
    refusal: type[Exception],
    form_class: type | None = None,
) -> HttpResponse:
    """Validate ``form_class`` (if any), ``call`` the write path with its cleaned data and
    answer. ``refusal`` is the write path's exception: it carries ``message`` and
    ``status``."""
    data: dict = {}
    if form_class is not None:
        form = form_class(request.POST)
        if not form.is_valid():
            return refused(request, page, first_error(form), 422)
        data = form.cleaned_data
    try:
        call(data)
    except refusal as refusing:
        return refused(request, page, refusing.message, refusing.status)
    return done(request, page, success)


def first_error(form) -> str:
    """The first error of an invalid form, what the notice says."""
    for errors in form.errors.values():
        return str(errors[0])
    return _("Requête invalide.")
