"""Bad input that used to answer 500 (issue 13, found by a probe): each is now refused
with a 4xx and a message, or ignored, and changes nothing.

- ``?vu=`` ("Donne suivante") that is not a plain number: ``²`` passes ``str.isdigit``
  but not ``int``, and 5,000 digits pass neither Python's ``int`` limit nor a database
  id. It is ignored: the page or the board shows as without it.
- A NUL character anywhere in the path, the query string or the form data: PostgreSQL
  refuses it in any text and the query failed (``/joueurs/%00/``, an admin filter...).
  ``belote_site.middleware.BadRequestMiddleware`` answers 400 before any view.
- A session cookie that no session key can be (a NUL in it, say): it used to reach the
  session table on every request. ``belote_site.sessions`` treats it as no session.

The websocket side (frames, cookies) is in tests/live/test_bad_frames.py; the fuzz test
over every URL and form field in tests/fuzz/.
"""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Table
from tests.factories import make_user, seated_user, started_table
from tests.table_page.helpers import finish_hand, take_at_once, text_of

pytestmark = pytest.mark.django_db

NOT_A_NUMBER = ["²", "١٢", "9" * 5000, "9" * 30, "-1", "1e3", " 1", "0x1"]


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.fixture
def between_hands():
    """A table whose first hand is over: its summary shows, "Donne suivante" links
    ``?vu=<hand id>``."""
    table = started_table()
    take_at_once(table)
    finish_hand(table)
    table.refresh_from_db()
    return table


def test_vu_that_is_not_a_hand_id_is_ignored(between_hands):
    client = client_for(seated_user(between_hands, 0))

    for page in ["games:table", "games:board"]:
        for seen in NOT_A_NUMBER:
            response = client.get(reverse(page, args=[between_hands.pk]), {"vu": seen})

            assert response.status_code == 200, (page, seen)
            assert 'id="hand-summary"' in text_of(response)  # nothing was closed
            assert f"summary-seen-{between_hands.pk}" not in client.session


def test_vu_of_the_hand_still_closes_its_summary(between_hands):
    client = client_for(seated_user(between_hands, 0))
    first = between_hands.current_hand.game.hands.get(number=1)

    response = client.get(reverse("games:board", args=[between_hands.pk]), {"vu": first.pk})

    assert response.status_code == 200
    assert 'id="hand-summary"' not in text_of(response)


# ---------------------------------------------------------------------------------------
# NUL characters


def assert_refused_with_a_message(response) -> None:
    assert response.status_code == 400
    page = text_of(response)
    assert 'data-error-page="400"' in page
    assert "Requête invalide" in page


@pytest.mark.parametrize(
    "path",
    [
        "/joueurs/%00/",
        "/joueurs/a%00b/",
        "/clubs/%00/",
        "/comptes/desabonner/%00/",
        "/tables/?page=%00",
        "/tables/nouvelle/?club=%00",
        "/tables/?%00=1",
        "/admin/games/table/?status__exact=%00",
        "/admin/accounts/user/?q=a%00",
        "/static/%00",
    ],
)
def test_a_nul_in_the_path_or_the_query_is_refused_with_400(path):
    staff = make_user("gerard", is_staff=True, is_superuser=True)

    assert_refused_with_a_message(client_for(staff).get(path))
    assert_refused_with_a_message(Client().get(path))


def test_the_400_page_speaks_the_language_of_the_request():
    response = Client().get("/joueurs/%00/", headers={"accept-language": "en"})

    assert response.status_code == 400
    assert "Bad request" in text_of(response)


@pytest.mark.parametrize(
    "data",
    [
        {"display_name": "Al\x00ice", "language": "fr", "notify": "never"},
        {"display_name": "Alice", "language": "fr", "notify": "never", "\x00": "1"},
    ],
)
def test_a_nul_in_form_data_is_refused_with_400_and_nothing_is_saved(data):
    user = make_user("alice")

    response = client_for(user).post(reverse("profile"), data)

    assert_refused_with_a_message(response)
    user.refresh_from_db()
    assert user.display_name == ""


def test_a_nul_in_a_move_is_refused_and_nothing_is_played():
    table = started_table()
    client = client_for(seated_user(table, table.turn))
    version = table.version

    response = client.post(
        reverse("games:play", args=[table.pk]),
        {"action": "take\x00", "version": version},
        headers={"hx-request": "true"},
    )

    assert_refused_with_a_message(response)
    assert Table.objects.get(pk=table.pk).version == version


def test_a_multipart_form_with_a_nul_is_refused_too():
    user = make_user("alice")
    client = client_for(user)

    # The test client sends a dict as multipart/form-data.
    response = client.post(reverse("set_language"), {"language": "en\x00", "next": "/"})

    assert_refused_with_a_message(response)
    assert User.objects.get(pk=user.pk).language == "fr"


# ---------------------------------------------------------------------------------------
# Session cookies


@pytest.mark.parametrize(
    "cookie",
    [
        "abcdefgh\x00ijklmnopqrstuvwxyz012345",
        '"abcdefgh\\000ijklmnopqrstuvwxyz0123"',  # a quoted cookie: \000 is a NUL
        "x" * 5000,
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
        "é" * 32,
    ],
)
def test_a_session_cookie_that_is_no_session_key_is_ignored(cookie):
    client = Client(raise_request_exception=False)
    header = f"{settings.SESSION_COOKIE_NAME}={cookie}"

    home = client.get("/", HTTP_COOKIE=header)
    private = client.get(reverse("games:list"), HTTP_COOKIE=header)

    assert home.status_code == 200
    assert "Se connecter" in text_of(home)  # nobody is logged in
    assert private.status_code == 302
    assert private.url.startswith(reverse("account_login"))


def test_a_real_session_still_logs_in():
    user = make_user("alice")
    client = client_for(user)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value

    response = Client().get(
        reverse("games:list"), HTTP_COOKIE=f"{settings.SESSION_COOKIE_NAME}={key}"
    )

    assert response.status_code == 200


def test_an_expired_session_logs_nobody_in():
    """The session is read by one SQL statement of our own (belote_site/sessions.py): a
    session past its expiry date is no session, as with Django's query."""
    client = client_for(make_user("alice"))
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert client.get(reverse("games:list")).status_code == 200
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - datetime.timedelta(days=1))

    response = client.get(reverse("games:list"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))


# ---------------------------------------------------------------------------------------
# A refusal without a body


@pytest.mark.parametrize("name", ["games:play", "games:take_seat", "notifications_read"])
def test_a_get_to_a_form_address_says_why_it_is_refused(name):
    """``require_POST`` answers a bare 405: the page says what happened instead."""
    table = started_table()
    client = client_for(seated_user(table, 0))
    path = reverse(name, args=[table.pk]) if name.startswith("games:") else reverse(name)

    response = client.get(path)

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    page = text_of(response)
    assert 'data-error-page="405"' in page
    assert "Cette adresse ne s'ouvre pas ainsi" in page


def test_the_405_page_speaks_the_language_of_the_request():
    response = Client().get(reverse("set_language"), headers={"accept-language": "en"})

    assert response.status_code == 405
    assert "This address does not open that way" in text_of(response)


# ---------------------------------------------------------------------------------------
# Found by the fuzz test (tests/fuzz/): the admin and the ORM


@pytest.fixture
def staff():
    return client_for(make_user("gerard", is_staff=True, is_superuser=True))


def test_an_id_past_a_64_bit_column_matches_nothing_in_a_list():
    table = started_table()

    assert list(Table.objects.filter(pk__in=[2**63])) == []
    assert list(Table.objects.filter(pk__in=[2**63, -(2**63) - 1, table.pk])) == [table]


@pytest.mark.parametrize(
    "query",
    [
        "start__year=9223372036854775808",
        "start__year=99999999999999999999&start__month=1&start__day=1",
        "start__year=9999",  # its end, 10000-01-01, is past the calendar
        "start__year=9999&start__month=12",
        "start__year=-1",
    ],
)
def test_a_date_hierarchy_past_the_calendar_is_an_incorrect_lookup(staff, query):
    response = staff.get(reverse("admin:accounts_vacation_changelist") + "?" + query)

    assert response.status_code == 302
    assert response.url.endswith("?e=1")  # the admin's "incorrect parameters" page


def test_a_group_given_a_permission_id_past_64_bits_is_refused_by_its_form(staff):
    response = staff.post(
        reverse("admin:auth_group_add"), {"name": "Arbitres", "permissions": str(2**63)}
    )

    assert response.status_code == 200
    assert "errornote" in response.text
    assert not Group.objects.exists()


@pytest.mark.parametrize("options", ["9" * 5000, "[" * 100_000 + "]" * 100_000])
def test_json_options_beyond_the_parser_are_refused_by_the_admin_form(staff, options):
    response = staff.post(
        reverse("admin:games_table_add"), {"preset": "classique", "options": options}
    )

    assert response.status_code == 200
    assert "errornote" in response.text
    assert not Table.objects.exists()
