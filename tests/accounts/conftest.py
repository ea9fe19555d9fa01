"""Fixtures for the accounts tests: a clean rate-limit cache and verified players."""

import pytest
from allauth.account.models import EmailAddress
from django.core.cache import cache

from accounts.models import User

PASSWORD = "un-mot-de-passe-solide"


@pytest.fixture(autouse=True)
def clean_cache():
    """allauth counts attempts in the cache; no test inherits another's counters."""
    cache.clear()
    yield
    cache.clear()


def make_player(*, username="marius", email=None, password=PASSWORD, verified=True, **fields):
    """A player with a primary email address, verified unless told otherwise."""
    email = email or f"{username}@example.com"
    user = User.objects.create_user(username=username, email=email, password=password, **fields)
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=verified)
    return user


@pytest.fixture
def player(db):
    return make_player()
