"""Who may see and change a private table.

"Nobody without the link or an invitation can see a private table (404, not 403)": an
outsider, a logged-out visitor and a player seated at another table neither see the table
nor change anything; an invitee who is not the creator is refused the creator's actions.
"""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.tables import lobby
from tests.factories import make_users, started_table
from tests.tables.helpers import client_for, invite, snapshot, url

pytestmark = pytest.mark.django_db

POSTS = [
    ("invite", {"username": "alice"}),
    ("revoke_link", {}),
    ("take_seat", {"position": 0}),
    ("leave_seat", {}),
    ("move_player", {"from_position": 2, "to_position": 0}),
    ("set_bot", {"position": 0, "level": "random"}),
    ("remove_bot", {"position": 1}),
    ("start", {}),
]


@pytest.fixture
def ready_table(table, alice):
    """A table in the lobby with an invitee and a bot, nearly ready to start."""
    invite(table, alice)
    lobby.set_bot(table=table, by=table.created_by, position=1, level="random")
    lobby.set_bot(table=table, by=table.created_by, position=3, level="random")
    # An update, not table.save(): the instance still has the version of before the
    # invitation and the bots, which save() would write back.
    Table.objects.filter(pk=table.pk).update(fill_with_bots=True)
    table.refresh_from_db()
    return table


@pytest.fixture(params=["outsider", "logged_out", "seated_elsewhere"])
def stranger(request, outsider) -> tuple[str, Client]:
    if request.param == "outsider":
        return request.param, client_for(outsider)
    if request.param == "logged_out":
        return request.param, Client()
    players = make_users(3)
    started_table(players={0: outsider, 1: players[0], 2: players[1], 3: players[2]})
    return request.param, client_for(outsider)


def test_strangers_do_not_see_the_table(stranger, ready_table):
    kind, client = stranger

    response = client.get(url("table", ready_table))

    if kind == "logged_out":
        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))
    else:
        assert response.status_code == 404
        assert ready_table.invite_token not in response.text


@pytest.mark.parametrize(("action", "data"), POSTS)
def test_strangers_change_nothing(stranger, ready_table, action, data):
    kind, client = stranger
    before = snapshot(ready_table)

    response = client.post(url(action, ready_table), data)

    assert response.status_code == (302 if kind == "logged_out" else 404)
    if kind == "logged_out":
        assert response.url.startswith(reverse("account_login"))
    assert snapshot(ready_table) == before


@pytest.mark.parametrize(("action", "data"), POSTS)
def test_strangers_with_htmx_change_nothing(stranger, ready_table, action, data):
    kind, client = stranger
    before = snapshot(ready_table)

    response = client.post(url(action, ready_table), data, headers={"hx-request": "true"})

    assert response.status_code in ((302,) if kind == "logged_out" else (404,))
    assert snapshot(ready_table) == before


def test_a_missing_table_is_a_404_like_a_private_one(outsider, ready_table):
    client = client_for(outsider)

    assert client.get(reverse("games:table", args=[ready_table.pk + 1000])).status_code == 404
    assert client.get(url("table", ready_table)).status_code == 404


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("invite", {"username": "bob"}),
        ("revoke_link", {}),
        ("move_player", {"from_position": 2, "to_position": 0}),
        ("set_bot", {"position": 0, "level": "random"}),
        ("remove_bot", {"position": 1}),
        ("start", {}),
    ],
)
def test_an_invitee_is_refused_the_creators_actions(ready_table, alice, bob, action, data):
    before = snapshot(ready_table)

    response = client_for(alice).post(url(action, ready_table), data)

    assert response.status_code == 403
    assert "Seul le créateur de la table peut faire cela." in response.text
    assert snapshot(ready_table) == before


def test_a_player_seated_elsewhere_sees_only_their_own_table(outsider):
    others = make_users(3)
    own = started_table(players={0: outsider, 1: others[0], 2: others[1], 3: others[2]})
    other = started_table()
    client = client_for(outsider)

    assert client.get(url("table", own)).status_code == 200
    assert client.get(url("table", other)).status_code == 404


def test_get_on_an_action_is_not_allowed(as_creator, table):
    before = snapshot(table)

    assert as_creator.get(url("start", table)).status_code == 405
    assert snapshot(table) == before


@pytest.mark.parametrize(("action", "data"), POSTS)
def test_csrf_is_enforced(creator, ready_table, action, data):
    client = Client(enforce_csrf_checks=True)
    client.force_login(creator)
    before = snapshot(ready_table)

    response = client.post(url(action, ready_table), data)

    assert response.status_code == 403
    assert snapshot(ready_table) == before


def test_csrf_is_enforced_on_create_and_join(alice, table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    assert client.post(reverse("games:create"), {"preset": "classique"}).status_code == 403
    assert client.post(url("join", table, table.invite_token)).status_code == 403
    assert not table.invitations.exists()


def test_forms_carry_the_csrf_token(as_creator, table):
    html = as_creator.get(url("table", table)).text

    assert html.count('name="csrfmiddlewaretoken"') >= 6


# ---------------------------------------------------------------------------------------
# A table in play: the same strangers see nothing of it and change nothing


@pytest.fixture
def playing_table(ready_table):
    """``ready_table`` started (its creator and three bots, alice invited), open to
    spectators: a stranger without the link is still a stranger."""
    lobby.set_spectators(table=ready_table, by=ready_table.created_by, allowed=True)
    lobby.start(table=ready_table, by=ready_table.created_by)
    ready_table.refresh_from_db()
    return ready_table


@pytest.mark.parametrize("page", ["table", "board", "hand"])
def test_strangers_do_not_see_a_table_in_play(stranger, playing_table, page):
    kind, client = stranger
    args = (1, 1) if page == "hand" else ()

    response = client.get(url(page, playing_table, *args))

    if kind == "logged_out":
        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))
    else:
        assert response.status_code == 404
        assert playing_table.invite_token not in response.text


PLAY_POSTS = [
    ("play", {"action": "pass", "version": 0}),
    ("take_back", {}),
    ("spectators", {"allowed": ""}),
]


@pytest.mark.parametrize(("action", "data"), PLAY_POSTS)
@pytest.mark.parametrize("htmx", [False, True])
def test_strangers_change_nothing_at_a_table_in_play(stranger, playing_table, action, data, htmx):
    kind, client = stranger
    data = {**data, "version": playing_table.version} if "version" in data else data
    before = snapshot(playing_table)

    headers = {"hx-request": "true"} if htmx else {}
    response = client.post(url(action, playing_table), data, headers=headers)

    if kind == "logged_out":
        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))
    else:
        assert response.status_code == 404
    assert snapshot(playing_table) == before


@pytest.mark.parametrize("kind", ["private", "club", "open", "open_started"])
def test_the_audience_read_once_agrees_with_may_see(kind, creator, alice, bob, outsider):
    """``access.audience`` (read once for a pushed chat message) says what ``may_see`` says."""
    from games.tables.access import audience, may_see
    from games.tables.seats import table_seats
    from tests.clubs.helpers import make_club

    members = [alice, bob]
    club = make_club("Les Atouts", owners=[creator], members=members) if kind == "club" else None
    table = lobby.create_private_table(
        created_by=creator,
        preset="classique",
        target=1000,
        club=club,
        is_open=kind.startswith("open"),
        fill_with_bots=True,
    )
    if kind == "private":
        invite(table, alice, bob)
    lobby.take_seat(table=table, user=alice, position=0)
    if kind == "open_started":
        lobby.start(table=table, by=creator)
    table = Table.objects.get(pk=table.pk)
    everyone = audience(table, table_seats(table))
    for user in (creator, alice, bob, outsider):
        assert everyone.may_see(user) == may_see(user, table), user.username
