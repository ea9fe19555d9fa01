"""A logged-in player's language preference wins over the browser's.

LocaleMiddleware picks a language from the cookie or Accept-Language; once the user is
known (after AuthenticationMiddleware) this middleware switches to ``user.language``. The
preference changes in two places only: the profile form and the header's language switch
(``accounts.views.set_language``). The language cookie is kept in step with it, so the
site stays in the player's language after they log out.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = user_language(request)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        # Read again: the request may have logged someone in or changed the preference.
        language = user_language(request)
        cookie = settings.LANGUAGE_COOKIE_NAME
        if language and request.COOKIES.get(cookie) != language and cookie not in response.cookies:
            set_language_cookie(response, language)
        return response


def user_language(request: HttpRequest) -> str | None:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    language = getattr(user, "language", "")
    return language if language in dict(settings.LANGUAGES) else None


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """The cookie Django's set_language view writes, with the same settings."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class RefusedFormStatusMiddleware:
    """A POST whose form is refused answers 422, allauth's pages included.

    allauth's views render a refused form with status 200, as Django's generic views do;
    ours answer 422 (games/tables/views.py, accounts/views.py). Every bad input gets a 4xx here,
    which also tells a test, a proxy log or a script that nothing was done. Only template
    responses carry their context (allauth's do); a view rendering to a plain response
    sets its own status.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method == "POST" and response.status_code == 200:
            form = (getattr(response, "context_data", None) or {}).get("form")
            if form is not None and form.is_bound and form.errors:
                response.status_code = 422
        return response
