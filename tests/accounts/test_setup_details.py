"""What a new user of the project meets first: the development emails (decoded files
under var/mail/ whose links work as they read, on the address `make run` serves), a user
added in the admin who can log in by email, preset names in the admin, the favicon and
the pictograms (inline SVG, never emoji)."""

from __future__ import annotations

import importlib
import io
import re
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.tables import service
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)


# Development emails ---------------------------------------------------------------------


@pytest.fixture
def dev_mail(settings, tmp_path):
    """The development mailer of settings/dev.py, writing to a folder of the test's."""
    stream = io.StringIO()
    settings.MAILERS = {
        "default": {
            "BACKEND": "belote_site.dev_mail.EmailBackend",
            "OPTIONS": {"folder": str(tmp_path), "stream": stream},
        }
    }
    return tmp_path, stream


def test_a_development_email_is_a_decoded_file_whose_link_works_as_printed(client, dev_mail):
    folder, stream = dev_mail
    client.post(
        reverse("account_signup"),
        {
            "email": "jeanne@example.com",
            "username": "jeanne",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    (written,) = folder.glob("*.txt")
    assert f"→ {written}" in stream.getvalue()  # the console says where it went
    text = written.read_text(encoding="utf-8")
    assert "To: jeanne@example.com" in text
    assert "Subject: [Belote] " in text
    assert "=\n" not in text and "=3D" not in text  # not quoted-printable
    # The link as it reads in the file, on one line, confirms the address.
    (path,) = re.findall(r"http://testserver(/comptes/confirm-email/\S+)", text)
    assert client.get(path).status_code == 200
    client.post(path)
    assert EmailAddress.objects.get(email="jeanne@example.com").verified


def test_a_reminder_email_and_its_html_are_written_with_the_site_address(
    dev_mail, django_capture_on_commit_callbacks
):
    from accounts.models import Notify
    from games import notifications
    from games.models import Pace, Table
    from tests.factories import fixed_deck, make_users, seated_user

    folder, _stream = dev_mail
    players = make_users(4)
    table = service.create_table(
        created_by=players[0], preset="classique", players=dict(enumerate(players))
    )
    Table.objects.filter(pk=table.pk).update(pace=Pace.ASYNC, move_seconds=24 * 3600)
    service.start_table(table_id=table.pk, first_dealer=0, deck=fixed_deck(0))
    table.refresh_from_db()
    user = seated_user(table, table.turn)
    user.notify = Notify.IMMEDIATELY
    user.save(update_fields=["notify"])

    notifications.notify_turn_task.call(table.pk, table.version)

    (written,) = folder.glob("*.txt")
    text = written.read_text(encoding="utf-8")
    assert f"{settings.SITE_URL}/tables/{table.pk}/" in text
    assert "X-HTML-Version: " in text and written.with_suffix(".html").exists()


def test_emails_and_make_run_use_the_same_address(monkeypatch):
    monkeypatch.delenv("SITE_URL", raising=False)
    dev = importlib.import_module("belote_site.settings.dev")
    dev = importlib.reload(dev)
    run_dev = (ROOT / "scripts" / "run-dev").read_text()

    host = re.search(r"host=\$\{HOST:-([^}]+)\}", run_dev)[1]
    port = re.search(r"port=\$\{PORT:-([^}]+)\}", run_dev)[1]
    assert f"http://{host}:{port}" == dev.SITE_URL
    assert "export SITE_URL=${SITE_URL:-http://$host:$port}" in run_dev
    assert "var/mail/" in run_dev  # it says where the emails go
    assert dev.MAILERS["default"]["BACKEND"] == "belote_site.dev_mail.EmailBackend"


# The admin ------------------------------------------------------------------------------


@pytest.mark.parametrize("verified", [True, False])
def test_a_user_added_in_the_admin_has_an_email_and_can_log_in(admin_client, verified):
    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "nadia",
            "email": "nadia@example.com",
            "email_verified": "on" if verified else "",
            "usable_password": "true",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 302, response.context["adminform"].form.errors
    user = User.objects.get(username="nadia")
    assert user.email == "nadia@example.com"
    address = EmailAddress.objects.get(user=user)
    assert address.primary and address.verified is verified
    login = Client().post(
        reverse("account_login"), {"login": "nadia@example.com", "password": PASSWORD}
    )
    expected = "/" if verified else reverse("account_email_verification_sent")
    assert login.headers["location"] == expected


def test_the_admin_add_form_refuses_an_address_already_used(admin_client):
    page = admin_client.get(reverse("admin:accounts_user_add"))
    assert 'name="email"' in page.text and 'name="email_verified"' in page.text
    User.objects.create_user("marius", email="marius@example.com", password=PASSWORD)

    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "nadia",
            "email": "MARIUS@example.com",
            "usable_password": "true",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 200
    form = response.context["adminform"].form
    assert form.errors["email"] == ["Cette adresse est déjà celle d'un autre compte."]
    assert not User.objects.filter(username="nadia").exists()


def test_the_admin_shows_preset_names_not_codes(admin_client, admin_user):
    service.create_table(created_by=admin_user, preset="belote_com")

    page = admin_client.get(reverse("admin:games_table_changelist"))

    assert "Belote.com (501 points)" in page.text
    assert '<td class="field-preset">belote_com</td>' not in page.text


# Favicon and pictograms -----------------------------------------------------------------


def test_the_favicon_is_served(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 302
    icon = client.get(response.headers["location"])
    assert icon.status_code == 200
    assert icon.headers["content-type"] == "image/svg+xml"
    assert b"<svg" in b"".join(icon.streaming_content if icon.streaming else [icon.content])


# Emoji and dingbats (a box without an emoji or symbol font); the card suits ♠♥♦♣ are
# letters of the text fonts and stay.
PICTOGRAMS = re.compile("[\U0001f000-\U0001faff\u2600-\u265f\u2668-\u27bf\u2b00-\u2bff\ufe0f]")


def test_the_bell_is_an_inline_svg_and_no_page_shows_an_emoji(admin_user, client):
    client.force_login(admin_user)
    home = client.get(reverse("home")).text

    assert '<svg class="icon icon-bell"' in home
    assert not PICTOGRAMS.search(home)
    for folder in ("templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".html", ".txt", ".css", ".js", ".svg"}:
                found = PICTOGRAMS.findall(path.read_text(encoding="utf-8"))
                assert not found, (path, found)


def change_email(admin_client, user: User, email: str):
    """The admin's change form of ``user`` posted as shown, with ``email`` instead."""
    change = reverse("admin:accounts_user_change", args=[user.pk])
    form = admin_client.get(change).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data |= {"email": email, "date_joined_0": "2026-12-01", "date_joined_1": "10:00:00"}
    data |= {"groups": [], "user_permissions": []}
    data.pop("last_login", None)
    data.pop("password", None)
    return admin_client.post(change, data)


def test_an_address_changed_in_the_admin_is_the_one_that_logs_in(admin_client):
    user = User.objects.create_user("nadia", email="nadia@example.com", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    response = change_email(admin_client, user, "nadia.new@example.com")

    assert response.status_code == 302, response.context["adminform"].form.errors
    (address,) = EmailAddress.objects.filter(user=user)
    assert (address.email, address.primary, address.verified) == (
        "nadia.new@example.com",
        True,
        False,
    )
    old = Client().post(
        reverse("account_login"), {"login": "nadia@example.com", "password": PASSWORD}
    )
    assert old.status_code == 422  # refused: the old address is no longer hers
    new = Client().post(
        reverse("account_login"), {"login": "nadia.new@example.com", "password": PASSWORD}
    )
    assert new.headers["location"] == reverse("account_email_verification_sent")


def test_the_admin_change_form_refuses_an_address_of_another_account(admin_client):
    User.objects.create_user("marius", email="marius@example.com", password=PASSWORD)
    user = User.objects.create_user("nadia", email="nadia@example.com", password=PASSWORD)
    response = change_email(admin_client, user, "Marius@example.com")

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["email"] == ["Cette adresse est déjà celle d'un autre compte."]
    user.refresh_from_db()
    assert user.email == "nadia@example.com"
