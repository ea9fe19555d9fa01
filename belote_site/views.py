"""Site-wide pages that belong to no app."""

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.cache import patch_cache_control


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for whatever the pages say: our SVG icon (its
    static name changes with its content, so the redirect is cached for a day only)."""
    response = HttpResponseRedirect(static("favicon.svg"))
    patch_cache_control(response, public=True, max_age=24 * 3600)
    return response
