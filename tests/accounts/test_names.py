"""Display names: no invisible or control character, and compared once normalised
(accounts/names.py), in the profile, the admin, the sign-up and the database itself.

Issue 13: "Display names accept U+202E (right-to-left override), U+200B and other
invisible or control characters, and "Alice" plus a zero-width space passes the
uniqueness check. Refuse them, and compare names after normalisation."
"""

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from tests.accounts.conftest import PASSWORD, make_player

pytestmark = pytest.mark.django_db

TAKEN = escape("Ce nom est déjà celui d'un autre joueur.")


def save_profile(client, name: str):
    return client.post(
        reverse("profile"), {"display_name": name, "language": "fr", "notify": "daily"}
    )


@pytest.mark.parametrize(
    "name, shown",
    [
        ("\u202eecilA", "U+202E"),  # right-to-left override
        ("Alice\u200b", "U+200B"),  # zero-width space
        ("Al\u2066ice\u2069", "U+2066, U+2069"),  # bidirectional isolates
        ("\ufeffAlice", "U+FEFF"),  # zero-width no-break space
        ("Alice\x07", "U+0007"),
        ("\u3164", "U+3164"),  # Hangul filler: a letter that shows as nothing
        ("Alice\u00ad", "U+00AD"),  # soft hyphen
    ],
)
def test_invisible_and_control_characters_are_refused(client, player, name, shown):
    client.force_login(player)

    response = save_profile(client, name)

    assert response.status_code == 422
    assert (
        "Un nom ne peut contenir ni caractère invisible ni caractère de contrôle : "
        f"{shown}." in response.text
    )
    player.refresh_from_db()
    assert (player.display_name, player.notify) == ("", "hourly")


def test_a_nul_character_is_refused_too(client, player):
    client.force_login(player)

    response = save_profile(client, "Al\x00ice")

    # Refused before the form, as a NUL anywhere in a request (belote_site/middleware.py).
    assert response.status_code == 400
    assert "Requête invalide" in response.text
    player.refresh_from_db()
    assert player.display_name == ""


def test_the_refusal_is_in_english_for_an_english_player(client):
    player = make_player(language="en")
    client.force_login(player)

    response = client.post(
        reverse("profile"), {"display_name": "Bob\u200b", "language": "en", "notify": "daily"}
    )

    assert "A name may not contain an invisible or control character: U+200B." in response.text


@pytest.mark.parametrize(
    "name",
    ["ALICE", "Ａｌｉｃｅ", "alice\ufe0f", "ＡＬＩＣＥ", "Alice", "ａｌｉｃｅ"],
    ids=["upper", "full-width", "variation-selector", "full-width-upper", "same", "fw-lower"],
)
def test_names_are_compared_once_normalised(client, player, name):
    make_player(username="alice2", display_name="Alice")
    client.force_login(player)

    response = save_profile(client, name)

    assert response.status_code == 422
    assert TAKEN in response.text
    player.refresh_from_db()
    assert player.display_name == ""


def test_a_non_ascii_username_is_compared_case_blind_too(client, player):
    make_player(username="Éloïse")
    client.force_login(player)

    assert TAKEN in save_profile(client, "ÉLOÏSE").text
    assert TAKEN in save_profile(client, "éloïse").text


def test_spaces_of_any_kind_become_one_space(client, player):
    client.force_login(player)

    response = save_profile(client, "Marius\u00a0\u3000le\tGrand ")

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.display_name == "Marius le Grand"


def test_accented_and_other_scripts_are_welcome(client, player):
    client.force_login(player)

    for name in ("Éloïse d'Aubigné", "Ζωή", "李雷", "Noé 🂡"):
        assert save_profile(client, name).status_code == 302
        player.refresh_from_db()
        assert player.display_name == name


def test_the_database_refuses_a_second_display_name_with_the_same_key():
    make_player(username="premier", display_name="Alice")

    with pytest.raises(IntegrityError):
        make_player(username="second", display_name="ＡＬＩＣＥ")


def test_no_key_for_who_shows_their_username():
    make_player(username="premier")
    make_player(username="second")  # two empty display names: no conflict

    assert list(User.objects.values_list("display_key", flat=True)) == ["", ""]


def test_signing_up_under_a_name_another_player_shows_is_refused(client):
    make_player(username="rival", display_name="Jeanne")

    response = client.post(
        reverse("account_signup"),
        {
            "email": "jeanne@example.com",
            "username": "JEANNE",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 422
    assert TAKEN in response.text
    assert not User.objects.filter(username="JEANNE").exists()


# The admin -------------------------------------------------------------------------------


def admin_change(client, user, **fields):
    data = {
        "username": user.username,
        "email": user.email,
        "display_name": user.display_name,
        "language": user.language,
        "notify": user.notify,
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        **fields,
    }
    return client.post(reverse("admin:accounts_user_change", args=[user.pk]), data)


@pytest.mark.parametrize("name", ["alice", "Bob\u202e"])
def test_the_admin_applies_the_same_rules(admin_client, player, name):
    make_player(username="alice2", display_name="Alice")

    response = admin_change(admin_client, player, display_name=name)

    assert response.status_code == 200  # the form again, with its error
    assert 'class="errorlist' in response.text
    player.refresh_from_db()
    assert player.display_name == ""


def test_the_admin_saves_a_good_name(admin_client, player):
    response = admin_change(admin_client, player, display_name="Marius")

    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.display_name, player.display_key) == ("Marius", "marius")


# Rows written before the rules -----------------------------------------------------------


def test_the_migration_cleans_existing_names_and_keeps_the_first_of_a_pair():
    migration = importlib.import_module("accounts.migrations.0005_user_name_keys")
    first = make_player(username="premier")
    second = make_player(username="second")
    third = make_player(username="troisieme")
    fourth = make_player(username="quatrieme")
    # As the rows stood before the keys: written without the model's save().
    User.objects.filter(pk=first.pk).update(display_name="Alice\u200b")
    User.objects.filter(pk=second.pk).update(display_name="ALICE")
    User.objects.filter(pk=third.pk).update(display_name="\u202eQuatrieme")
    User.objects.filter(pk=fourth.pk).update(display_name="Ｌｅ  Roi")
    User.objects.update(display_key="", username_key="")

    migration.compute_keys(apps, None)

    rows = User.objects.order_by("pk").values_list("display_name", "display_key", "username_key")
    assert list(rows) == [
        ("Alice", "alice", "premier"),  # its zero-width space removed
        ("", "", "second"),  # the same name as the first: cleared
        ("", "", "troisieme"),  # another player's username once cleaned: cleared
        ("Ｌｅ Roi", "le roi", "quatrieme"),
    ]
