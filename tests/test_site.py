"""The site shell: home page and its languages, security headers, allauth pages, demo data."""

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_home_is_in_french_by_default(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.text
    assert '<html lang="fr">' in html
    assert "Bienvenue au club de belote" in html
    assert "Se connecter" in html


def test_home_in_english_from_accept_language(client):
    response = client.get("/", headers={"accept-language": "en"})

    assert '<html lang="en">' in response.text
    assert "Welcome to the belote club" in response.text
    assert "Bienvenue" not in response.text


def test_home_in_english_from_language_cookie(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    response = client.get("/", headers={"accept-language": "fr"})

    assert "Welcome to the belote club" in response.text


def test_language_switch_sets_the_cookie(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})

    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert "Welcome to the belote club" in client.get("/").text


def test_every_page_sends_a_strict_content_security_policy(client):
    policy = client.get("/").headers["Content-Security-Policy"]

    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy


def test_htmx_is_loaded_and_sends_the_csrf_token(client):
    html = client.get("/").text

    assert "django_htmx/htmx-2.min.js" in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html


@pytest.mark.parametrize("url_name", ["account_login", "account_signup"])
def test_account_pages_render_under_comptes(client, url_name):
    url = reverse(url_name)
    response = client.get(url)

    assert url.startswith("/comptes/")
    assert response.status_code == 200
    assert 'class="site-name"' in response.text  # rendered inside our layout


def test_signup_asks_for_email_username_and_password_twice(client):
    html = client.get(reverse("account_signup")).text

    for field in ("email", "username", "password1", "password2"):
        assert f'name="{field}"' in html


def test_belote_demo_creates_the_players_once(settings):
    settings.DEBUG = True

    call_command("belote_demo")
    call_command("belote_demo")

    names = sorted(User.objects.values_list("username", flat=True))
    assert names == ["alice", "bob", "chloe", "david"]
    alice = User.objects.get(username="alice")
    assert alice.check_password("belote-demo")
    assert str(alice) == "Alice"
    addresses = EmailAddress.objects.filter(verified=True, primary=True)
    assert addresses.count() == 4


def test_belote_demo_lets_a_demo_player_log_in_by_email(settings, client):
    settings.DEBUG = True
    call_command("belote_demo")

    response = client.post(
        reverse("account_login"),
        {"login": "bob@example.com", "password": "belote-demo"},
    )

    assert response.status_code == 302
    assert client.get("/").context["user"].username == "bob"


def test_belote_demo_refuses_without_debug(settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG"):
        call_command("belote_demo")

    assert not User.objects.exists()


def test_user_str_falls_back_to_username():
    assert str(User(username="ernest")) == "ernest"
    assert str(User(username="ernest", display_name="Ernest")) == "Ernest"
