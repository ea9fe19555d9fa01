"""Accounts: sign-up with a verified email, the three ways in (password, emailed code,
password reset), logout, the profile page and its language, rate limits, CSRF and form
markup. Every flow goes through the real views, the test database and mail.outbox."""

import re
from html.parser import HTMLParser

import pytest
from allauth.account.models import EmailAddress
from allauth.account.utils import user_display as allauth_user_display
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import Notify, User
from tests.accounts.conftest import PASSWORD, make_player

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "un-autre-mot-de-passe"
WRONG_PASSWORD = "L’adresse e-mail ou le mot de passe sont incorrects."  # allauth's French


def sign_up(client, *, email="jeanne@example.com", username="jeanne", **headers):
    return client.post(
        reverse("account_signup"),
        {"email": email, "username": username, "password1": PASSWORD, "password2": PASSWORD},
        headers=headers,
    )


def log_in(client, *, email="marius@example.com", password=PASSWORD):
    return client.post(reverse("account_login"), {"login": email, "password": password})


def logged_in_user(client):
    user = client.get(reverse("home")).context["user"]
    return user if user.is_authenticated else None


def link_in(message) -> str:
    """The only link of an email, as a path the test client can follow."""
    (url,) = re.findall(r"https?://testserver(/\S+)", message.body)
    return url


# Sign-up and email verification ---------------------------------------------------------


def test_sign_up_sends_a_verification_email_in_french(client):
    response = sign_up(client)

    assert response.status_code == 302
    assert response.headers["location"] == reverse("account_email_verification_sent")
    (message,) = mail.outbox
    assert message.to == ["jeanne@example.com"]
    assert message.subject == "[Belote] Confirmez votre adresse e-mail"
    assert "Bonjour," in message.body
    assert "/comptes/confirm-email/" in message.body
    user = User.objects.get(username="jeanne")
    assert user.language == "fr"
    assert not EmailAddress.objects.get(user=user).verified


def test_an_unverified_address_cannot_log_in(client):
    sign_up(client)
    browser = Client()

    response = log_in(browser, email="jeanne@example.com")

    assert response.headers["location"] == reverse("account_email_verification_sent")
    assert logged_in_user(browser) is None
    # No second email yet: allauth's "confirm_email" limit allows one per address per 3 min.
    assert len(mail.outbox) == 1


def test_following_the_verification_link_lets_the_player_log_in(client):
    sign_up(client)
    confirm_url = link_in(mail.outbox[0])

    page = client.get(confirm_url)
    assert page.status_code == 200
    assert "jeanne@example.com" in page.text
    # Verification takes a POST: mail scanners that follow links verify nothing.
    assert not EmailAddress.objects.get(email="jeanne@example.com").verified
    response = client.post(confirm_url)

    assert response.status_code == 302
    assert EmailAddress.objects.get(email="jeanne@example.com").verified
    browser = Client()
    assert log_in(browser, email="jeanne@example.com").status_code == 302
    assert logged_in_user(browser).username == "jeanne"


def test_sign_up_in_english_keeps_english_as_the_preference(client):
    sign_up(client, **{"accept-language": "en"})

    (message,) = mail.outbox
    assert message.subject == "[Belote] Please Confirm Your Email Address"
    assert "Hello," in message.body
    assert User.objects.get(username="jeanne").language == "en"


def test_sign_up_shows_what_is_wrong(client):
    response = client.post(
        reverse("account_signup"),
        {"email": "pas-une-adresse", "username": "", "password1": PASSWORD, "password2": "x"},
    )

    assert response.status_code == 422
    html = response.text
    assert 'id="id_email_error"' in html
    assert 'id="id_username_error"' in html
    assert "Saisissez une adresse de courriel valide." in html
    assert 'aria-invalid="true"' in html
    assert not User.objects.exists()
    assert not mail.outbox


# Logging in and out ---------------------------------------------------------------------


def test_log_in_with_email_and_password(client, player):
    response = log_in(client)

    assert response.status_code == 302
    assert response.headers["location"] == reverse("home")
    assert logged_in_user(client) == player


def test_a_wrong_password_is_refused_with_a_clear_error(client, player):
    response = log_in(client, password="pas-le-bon")

    assert response.status_code == 422
    assert WRONG_PASSWORD in response.text
    assert 'role="alert"' in response.text
    assert logged_in_user(client) is None


def test_log_in_with_a_code_sent_by_email(client, player):
    response = client.post(reverse("account_request_login_code"), {"email": player.email})

    assert response.headers["location"] == reverse("account_confirm_login_code")
    (message,) = mail.outbox
    assert message.subject == "[Belote] Code de connexion"
    code = re.search(r"^([A-Z0-9]{4}-[A-Z0-9]{4})$", message.body, re.MULTILINE).group(1)
    assert logged_in_user(client) is None

    response = client.post(reverse("account_confirm_login_code"), {"code": code})

    assert response.status_code == 302
    assert logged_in_user(client) == player


def test_a_wrong_login_code_is_refused(client, player):
    client.post(reverse("account_request_login_code"), {"email": player.email})

    response = client.post(reverse("account_confirm_login_code"), {"code": "AAAA-AAAA"})

    assert response.status_code == 422
    assert 'id="id_code_error"' in response.text
    assert logged_in_user(client) is None


def test_password_reset_by_email(client, player):
    response = client.post(reverse("account_reset_password"), {"email": player.email})

    assert response.headers["location"] == reverse("account_reset_password_done")
    (message,) = mail.outbox
    assert message.subject.startswith("[Belote] ")
    # The link from the email hides its key in the session and redirects to the form.
    form_url = client.get(link_in(message)).headers["location"]
    response = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert response.headers["location"] == reverse("account_reset_password_from_key_done")
    browser = Client()
    assert log_in(browser, password=PASSWORD).status_code == 422
    assert log_in(browser, password=NEW_PASSWORD).status_code == 302
    assert logged_in_user(browser) == player


def test_log_out_takes_a_post(client, player):
    client.force_login(player)

    page = client.get(reverse("account_logout"))
    assert page.status_code == 200  # a confirmation page, still logged in
    assert logged_in_user(client) == player
    response = client.post(reverse("account_logout"))

    assert response.status_code == 302
    assert logged_in_user(client) is None


def test_changing_the_password_keeps_the_player_logged_in(client, player):
    client.force_login(player)

    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    assert logged_in_user(client) == player  # ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


# Rate limits (allauth's defaults) -------------------------------------------------------


def test_failed_logins_are_limited_per_address(client, player):
    """allauth's default "login_failed" limit: 5 failures per address in 5 minutes."""
    for _ in range(5):
        response = log_in(client, password="pas-le-bon")
        assert WRONG_PASSWORD in response.text

    response = log_in(client)

    assert response.status_code == 422
    assert "Trop de tentatives de connexion échouées." in response.text
    assert logged_in_user(client) is None


def test_failed_logins_are_limited_per_ip(client):
    """allauth's default "login_failed" limit: 10 failures a minute from one IP."""
    for number in range(10):
        response = log_in(client, email=f"inconnu{number}@example.com")
        assert WRONG_PASSWORD in response.text

    response = log_in(client, email="encore@example.com")

    assert "Trop de tentatives de connexion échouées." in response.text


# The profile page -----------------------------------------------------------------------


def test_profile_requires_login(client):
    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response.headers["location"] == f"{reverse('account_login')}?next=/comptes/profil/"


def test_profile_shows_the_account_and_its_links(client, player):
    client.force_login(player)

    response = client.get(reverse("profile"))

    assert response.status_code == 200
    html = response.text
    assert reverse("profile") == "/comptes/profil/"
    assert "marius@example.com" in html
    assert f'href="{reverse("account_email")}"' in html
    assert f'href="{reverse("account_change_password")}"' in html
    assert f'action="{reverse("account_logout")}"' in html
    assert f'<a href="{reverse("profile")}" aria-current="page">Profil</a>' in html


def test_profile_saves_name_language_and_notifications(client, player):
    client.force_login(player)

    response = client.post(
        reverse("profile"),
        {"display_name": "Marius le Grand", "language": "fr", "notify": "daily"},
        follow=True,
    )

    assert response.redirect_chain == [(reverse("profile"), 302)]
    assert "Votre profil est enregistré." in response.text
    player.refresh_from_db()
    assert (player.display_name, player.language, player.notify) == (
        "Marius le Grand",
        "fr",
        Notify.DAILY,
    )
    assert '<span class="site-user">Marius le Grand</span>' in response.text


def test_profile_refuses_a_bad_value_and_says_why(client, player):
    client.force_login(player)

    response = client.post(
        reverse("profile"),
        {"display_name": "x" * 61, "language": "xx", "notify": "sometimes"},
    )

    assert response.status_code == 422
    html = response.text
    for field in ("display_name", "language", "notify"):
        assert f'id="id_{field}_error"' in html
    assert "Sélectionnez un choix valide" in html
    player.refresh_from_db()
    assert (player.display_name, player.language, player.notify) == ("", "fr", Notify.HOURLY)


@pytest.mark.parametrize("name", ["Rival", "RIVAL", "Le Vrai Rival", "  le  vrai   rival "])
def test_a_display_name_cannot_be_another_players_name(client, player, name):
    make_player(username="rival", display_name="Le vrai rival")
    client.force_login(player)

    response = client.post(
        reverse("profile"), {"display_name": name, "language": "fr", "notify": "daily"}
    )

    assert response.status_code == 422
    assert escape("Ce nom est déjà celui d'un autre joueur.") in response.text
    player.refresh_from_db()
    assert (player.display_name, player.notify) == ("", Notify.HOURLY)


def test_a_player_may_keep_their_own_name_in_another_case(client, player):
    player.display_name = "Marius"
    player.save()
    client.force_login(player)

    client.post(
        reverse("profile"),
        {"display_name": player.username.upper(), "language": "fr", "notify": "daily"},
    )

    player.refresh_from_db()
    assert player.display_name == player.username.upper()


def test_profile_in_english_turns_the_site_english(client, player):
    client.force_login(player)

    response = client.post(
        reverse("profile"),
        {"display_name": "", "language": "en", "notify": "hourly"},
        follow=True,
    )

    assert "Your profile is saved." in response.text
    assert '<html lang="en">' in response.text
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    home = client.get(reverse("home"), headers={"accept-language": "fr"})
    assert "Welcome to the belote club" in home.text
    assert "Log in" not in home.text and "Profile" in home.text


def test_the_preference_beats_the_browser_after_login(client):
    make_player(language="en")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"

    log_in(client)
    home = client.get(reverse("home"), headers={"accept-language": "fr"})

    assert '<html lang="en">' in home.text
    # The cookie follows, so the site stays English after logging out.
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    client.post(reverse("account_logout"))
    assert "Welcome to the belote club" in client.get(reverse("home")).text


def test_the_language_switch_saves_a_logged_in_players_preference(client, player):
    client.force_login(player)

    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.language == "en"
    assert "Welcome to the belote club" in client.get("/").text


def test_the_language_switch_ignores_an_unknown_language(client, player):
    client.force_login(player)

    client.post(reverse("set_language"), {"language": "xx", "next": "/"})

    player.refresh_from_db()
    assert player.language == "fr"


# CSRF and markup ------------------------------------------------------------------------


def test_the_profile_form_needs_its_csrf_token(player):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    data = {"display_name": "Marius", "language": "fr", "notify": "never"}

    assert browser.post(reverse("profile"), data).status_code == 403

    page = browser.get(reverse("profile"))
    token = page.context["csrf_token"]
    response = browser.post(reverse("profile"), {**data, "csrfmiddlewaretoken": str(token)})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.notify == Notify.NEVER


def test_logging_in_needs_a_csrf_token(player):
    browser = Client(enforce_csrf_checks=True)

    response = browser.post(reverse("account_login"), {"login": player.email, "password": PASSWORD})

    assert response.status_code == 403


class FormAudit(HTMLParser):
    """Collects, per POST form, whether it carries a CSRF token, and the labels and inputs
    of the page, and anything inline a strict CSP would block."""

    def __init__(self):
        super().__init__()
        self.post_forms: list[bool] = []
        self.labels: set[str] = set()
        self.inputs: list[str] = []
        self.inline: list[str] = []
        self._in_post_form = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "style" in attrs or any(name.startswith("on") for name in attrs):
            self.inline.append(tag)
        if tag == "script" and "src" not in attrs and attrs.get("type") != "application/json":
            self.inline.append(tag)
        if tag == "form" and attrs.get("method", "").lower() == "post":
            self.post_forms.append(False)
            self._in_post_form = True
        elif tag == "label" and attrs.get("for"):
            self.labels.add(attrs["for"])
        elif tag in ("input", "select", "textarea"):
            if tag == "input" and attrs.get("type") in ("hidden", "submit"):
                if attrs.get("name") == "csrfmiddlewaretoken" and self._in_post_form:
                    self.post_forms[-1] = True
                return
            self.inputs.append(attrs.get("id", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._in_post_form = False


def audit(html: str) -> FormAudit:
    parser = FormAudit()
    parser.feed(html)
    return parser


ANONYMOUS_PAGES = [
    "account_login",
    "account_signup",
    "account_request_login_code",
    "account_reset_password",
]
PLAYER_PAGES = ["profile", "account_email", "account_change_password", "account_logout"]


@pytest.mark.parametrize("url_name", ANONYMOUS_PAGES + PLAYER_PAGES)
def test_every_form_has_csrf_labels_and_nothing_inline(client, player, url_name):
    if url_name in PLAYER_PAGES:
        client.force_login(player)

    response = client.get(reverse(url_name))

    assert response.status_code == 200
    page = audit(response.text)
    assert page.post_forms and all(page.post_forms), "a POST form without a CSRF token"
    if url_name != "account_logout":  # the logout page is a single button
        assert page.inputs, "no field on the page"
    assert all(field_id in page.labels for field_id in page.inputs if field_id), page.inputs
    assert page.inline == []
    assert 'class="site-name"' in response.text  # inside our layout


def test_the_profile_offers_the_four_notification_choices_in_a_fieldset(client, player):
    client.force_login(player)

    html = client.get(reverse("profile")).text

    assert "<legend>Avis de tour" in html
    for label in ("Tout de suite", "Au bout d&#x27;une heure sans jouer", "Un résumé par jour"):
        assert label in html
    assert 'value="hourly" required id="id_notify_1" checked' in html


def test_allauth_names_players_by_their_display_name():
    """ACCOUNT_USER_DISPLAY: allauth's pages and emails say what the table says."""
    assert allauth_user_display(User(username="marius")) == "marius"
    assert allauth_user_display(User(username="marius", display_name="Marius")) == "Marius"
