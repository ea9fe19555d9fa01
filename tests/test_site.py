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


def test_the_language_cookie_is_same_site_lax(client):
    """Issue 13: "the language cookie has no SameSite attribute"."""
    switched = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = User.objects.create_user("anna", "anna@example.com", "pw", language="en")
    client.cookies.clear()
    client.force_login(english)
    followed = client.get("/")  # the player's preference sets the cookie

    for response in (switched, followed):
        cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
        assert cookie.value == "en"
        assert cookie["samesite"] == "Lax"


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


# ---------------------------------------------------------------------------------------
# Error pages (DEBUG is off in the test settings, as in production)


def test_a_missing_page_is_the_french_404_page(client, settings):
    assert not settings.DEBUG

    response = client.get("/nulle-part/")

    assert response.status_code == 404
    html = response.text
    assert '<html lang="fr">' in html
    assert "Page introuvable" in html
    assert "Cette page n'existe pas, ou vous n'y avez pas accès." in html
    assert 'data-error-page="404"' in html
    assert "Retour à l'accueil" in html and 'href="/"' in html
    assert 'class="site-name"' in html  # inside the site's layout


def test_a_private_table_is_the_same_404_page_for_a_logged_in_stranger(client):
    from tests.factories import make_user, started_table

    table = started_table()
    client.force_login(make_user("sacha"))

    response = client.get(reverse("games:table", args=[table.pk]))

    assert response.status_code == 404
    assert "Page introuvable" in response.text
    assert table.invite_token not in response.text


def test_the_500_page_stands_alone_without_the_database(rf, django_assert_num_queries):
    from django.views.defaults import server_error

    with django_assert_num_queries(0):
        response = server_error(rf.get("/"))

    assert response.status_code == 500
    html = response.content.decode()
    assert "Erreur du serveur" in html
    assert "Le serveur a rencontré une erreur. Réessayez dans un instant." in html
    assert 'data-error-page="500"' in html
    assert 'href="/"' in html
    assert "<script" not in html


def test_the_403_page_is_in_french(rf):
    from django.contrib.auth.models import AnonymousUser
    from django.core.exceptions import PermissionDenied
    from django.views.defaults import permission_denied

    request = rf.get("/")
    request.user = AnonymousUser()

    response = permission_denied(request, PermissionDenied())

    assert response.status_code == 403
    html = response.content.decode()
    assert "Accès refusé" in html and 'data-error-page="403"' in html
    assert 'href="/"' in html


def test_a_csrf_failure_is_the_french_page_that_says_to_reload(client):
    from tests.factories import make_user

    csrf_client = type(client)(enforce_csrf_checks=True)
    csrf_client.force_login(make_user("sacha"))

    response = csrf_client.post(reverse("games:create"), {"preset": "classique"})

    assert response.status_code == 403
    html = response.text
    assert "La page a expiré" in html
    assert 'data-error-page="csrf"' in html
    assert "rechargez la page" in html
    assert 'href="/"' in html


def test_every_page_has_the_status_area_and_the_script_for_htmx_failures(client):
    """static/js/site.js tells what htmx does not (a network failure, a 404, a 5xx, an
    expired session or page) in #site-status, outside every fragment; its French texts
    come from the template."""
    html = client.get("/").text

    assert '<script src="/static/js/site.js" defer></script>' in html
    assert "/static/js/table.js" not in html  # the table's socket: on table pages only
    area = html.split('id="site-status"')[1].split("></div>")[0]
    assert 'role="alert"' in area
    assert f'data-login-url="{reverse("account_login")}"' in area
    assert "La connexion au serveur a échoué. Réessayez." in area
    assert "Cette page n'existe plus." in area
    assert "rechargez-la pour continuer" in area
    # A refused action (its fragment and message) is swapped; other errors are not.
    assert '{"code": "^(400|403|409|422|429)$", "swap": true, "error": false}' in html
