"""The failed-login lock of an address stays, but it cannot keep the owner out: the
emailed login code still lets them in, and the lock's message says so.

Issue 13: "Anyone can lock any account for 5 minutes with 5 wrong passwords. Keep the
protection, but make sure the real owner can still get in, for example by the emailed
login code." An attacker who locks the password also asks for codes for the address, as
many as they may: with allauth's default (3 a minute per address) that used to lock the
code out too.
"""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.accounts.conftest import PASSWORD
from tests.accounts.test_accounts import WRONG_PASSWORD, log_in, logged_in_user

pytestmark = pytest.mark.django_db

LOCKED = (
    "Trop de tentatives de connexion échouées. Réessayez plus tard, "
    "ou recevez un code de connexion par e-mail."
)


def request_code(client, email: str):
    return client.post(reverse("account_request_login_code"), {"email": email})


def last_code() -> str:
    body = mail.outbox[-1].body
    return re.search(r"^([A-Z0-9]{4}-[A-Z0-9]{4})$", body, re.MULTILINE).group(1)


@pytest.fixture
def attacked(player):
    """Someone elsewhere locks the player's password and asks for codes for the address
    until they are refused."""
    attacker = "198.51.100.66"
    for _ in range(5):
        assert WRONG_PASSWORD in log_in(Client(REMOTE_ADDR=attacker), password="x").text
    # A new session each time: a session waiting for its code is not sent another.
    for _ in range(3):
        assert request_code(Client(REMOTE_ADDR=attacker), player.email).status_code == 302
    assert len(mail.outbox) == 3
    refused = request_code(Client(REMOTE_ADDR=attacker), player.email)
    assert refused.status_code == 422  # the codes sent to the address stay limited
    assert len(mail.outbox) == 3
    mail.outbox.clear()
    return player


def test_the_password_stays_locked_for_everyone_and_the_message_offers_the_code(attacked):
    owner = Client(REMOTE_ADDR="203.0.113.7")

    response = log_in(owner)  # the right password, but the address is locked

    assert response.status_code == 422
    assert LOCKED in response.text
    assert f'href="{reverse("account_request_login_code")}"' in response.text
    assert logged_in_user(owner) is None


def test_the_owner_still_gets_in_by_the_emailed_code(attacked):
    owner = Client(REMOTE_ADDR="203.0.113.7")

    response = request_code(owner, attacked.email)
    assert response.headers["location"] == reverse("account_confirm_login_code")
    (message,) = mail.outbox
    assert message.to == [attacked.email]
    response = owner.post(reverse("account_confirm_login_code"), {"code": last_code()})

    assert response.status_code == 302
    assert logged_in_user(owner) == attacked


def test_the_lock_message_in_english(player):
    client = Client(headers={"accept-language": "en"})
    for _ in range(5):
        log_in(client, password="pas-le-bon")

    response = log_in(client, password=PASSWORD)

    assert "Too many failed login attempts. Try again later, or get a sign-in code by email." in (
        response.text
    )
