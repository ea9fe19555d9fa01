"""Unsubscribe links of the reminder emails: they work without logging in.

The link carries a signed token (django.core.signing, its own salt) naming the user. A
GET only shows the confirmation page, since mail scanners follow links; the POST of its
button, or a mail client's one-click POST (RFC 8058, the List-Unsubscribe-Post header),
sets ``notify`` to "never". The token is the credential, so that POST needs no CSRF
token: a forged request would have to know it.
"""

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import Notify, User

SALT = "accounts.unsubscribe"
MAX_AGE = 90 * 24 * 3600  # a link from an old email stops working after 90 days


def unsubscribe_token(user: User) -> str:
    return signing.dumps({"user": user.pk}, salt=SALT, compress=True)


def unsubscribe_url(user: User) -> str:
    return settings.SITE_URL + reverse("unsubscribe", args=[unsubscribe_token(user)])


def user_from_token(token: str) -> User | None:
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # SignatureExpired included
        return None
    return User.objects.filter(pk=data.get("user"), is_active=True).first()


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    user = user_from_token(token)
    if user is None:
        text = _("Ce lien de désabonnement n'est pas valable ou a expiré.")
        return render(request, "accounts/unsubscribe.html", {"invalid": text}, status=400)
    if request.method == "POST":
        if user.notify != Notify.NEVER:
            user.notify = Notify.NEVER
            user.save(update_fields=["notify"])
        return render(request, "accounts/unsubscribe.html", {"done": True})
    with translation.override(user.language):
        return render(request, "accounts/unsubscribe.html", {"target": user, "token": token})
