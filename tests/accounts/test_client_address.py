"""The per-IP login limit counts the real client behind the reverse proxy, whatever
X-Forwarded-For the client forges.

Issue 13: "The per-IP login limit can be bypassed with a rotating X-Forwarded-For behind
--proxy-headers: 15 failed logins, none locked. Configure and document how the client
address is taken behind the proxy, and test that a forged header does not bypass it."

A real Daphne process with ``--proxy-headers``, as production runs it (README,
"Configuration for production"), receives what a proxy in front would forward: nginx's
``$proxy_add_x_forwarded_for`` appends the address it saw to whatever the client sent,
so the first entry is the client's invention and the last one the truth.
"""

from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.processes import daphne_server, run_python

pytestmark = pytest.mark.django_db(transaction=True)

WRONG_PASSWORD = "L’adresse e-mail ou le mot de passe sont incorrects."
LOCKED = "Trop de tentatives de connexion échouées."
CLIENT = "203.0.113.7"  # the address the proxy saw


class Browser:
    """Cookies and the CSRF token, as a browser keeps them, through the proxy."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def log_in(self, email: str, headers: dict[str, str]) -> str:
        if not any(cookie.name == "csrftoken" for cookie in self.cookies):
            self.opener.open(self.base_url + "/comptes/login/").read()
        token = next(cookie.value for cookie in self.cookies if cookie.name == "csrftoken")
        data = urllib.parse.urlencode(
            {"login": email, "password": "pas-le-bon", "csrfmiddlewaretoken": token}
        ).encode()
        request = urllib.request.Request(
            self.base_url + "/comptes/login/", data=data, headers=headers
        )
        try:
            return self.opener.open(request).read().decode()
        except urllib.error.HTTPError as refused:  # 422: the form again, with its error
            assert refused.code == 422, refused.code
            return refused.read().decode()


def appended(forged: str, client: str = CLIENT) -> dict[str, str]:
    """What the proxy forwards when the client sent ``X-Forwarded-For: forged``."""
    return {"X-Forwarded-For": f"{forged}, {client}"}


PROXIES = {
    # The production default: one proxy of ours, which appends (settings/prod.py).
    "appending-proxy": ({"TRUSTED_PROXY_COUNT": "1"}, appended),
    # A proxy that sets a header of its own and passes the client's X-Forwarded-For on.
    "x-real-ip": (
        {"TRUSTED_CLIENT_IP_HEADER": "X-Real-IP"},
        lambda forged, client=CLIENT: {"X-Forwarded-For": forged, "X-Real-IP": client},
    ),
}


@pytest.mark.parametrize("proxy", list(PROXIES))
def test_a_rotating_forged_address_does_not_escape_the_per_ip_limit(tmp_path, proxy):
    env, forwarded = PROXIES[proxy]
    with daphne_server(tmp_path / "daphne.log", "--proxy-headers", env=env) as base_url:
        browser = Browser(base_url)
        for n in range(10):  # allauth's "10/m/ip", each time another address and forgery
            page = browser.log_in(f"inconnu{n}@example.com", forwarded(f"198.51.100.{n}"))
            assert WRONG_PASSWORD in page

        page = browser.log_in("encore@example.com", forwarded("198.51.100.99"))
        assert LOCKED in page

        # Another client behind the same proxy is not locked with the first one.
        other = Browser(base_url)
        page = other.log_in("ailleurs@example.com", forwarded("198.51.100.1", "192.0.2.44"))
        assert WRONG_PASSWORD in page


def test_production_takes_the_last_hop_by_default():
    production = {
        "DJANGO_SETTINGS_MODULE": "belote_site.settings.prod",
        "SECRET_KEY": "x" * 50,
        "ALLOWED_HOSTS": "belote.example.org",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
    }
    code = (
        "from django.conf import settings; "
        "print(settings.ALLAUTH_TRUSTED_PROXY_COUNT, settings.ALLAUTH_TRUSTED_CLIENT_IP_HEADER)"
    )

    assert run_python(code, production).splitlines()[-1].split() == ["1", "None"]
