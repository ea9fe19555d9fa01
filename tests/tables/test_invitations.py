"""Inviting to a private table: by username, or by its secret link, which can be renewed."""

import pytest
from django.urls import reverse

from games.models import Action, Invitation
from games.tables import lobby
from tests.tables.helpers import client_for, invite, snapshot, url

pytestmark = pytest.mark.django_db


def test_the_creator_invites_a_player_by_username(as_creator, table, alice):
    response = as_creator.post(url("invite", table), {"username": "alice"})

    assert response.status_code == 302
    invitation = Invitation.objects.get(table=table)
    assert (invitation.user, invitation.invited_by, invitation.via) == (
        alice,
        table.created_by,
        "username",
    )
    page = client_for(alice).get(url("table", table))
    assert page.status_code == 200
    assert "S'asseoir ici" in page.text
    assert "Invitation envoyée à alice." in as_creator.get(url("table", table)).text


def test_an_invitation_is_one_change_of_the_table(as_creator, table, alice):
    as_creator.post(url("invite", table), {"username": "alice"})

    table.refresh_from_db()
    assert table.version == 1
    action = Action.objects.get(table=table)
    assert (action.seq, action.kind, action.payload) == (
        1,
        "invite",
        {"user": alice.pk, "via": "username"},
    )


@pytest.mark.parametrize(
    ("username", "status", "message"),
    [
        ("", 422, "Ce champ est obligatoire."),
        ("personne", 422, "Aucun joueur ne s'appelle « personne »."),
        ("claire", 409, "Vous êtes déjà à cette table."),
    ],
)
def test_bad_invitations_are_refused_on_the_field(as_creator, table, username, status, message):
    before = snapshot(table)

    response = as_creator.post(url("invite", table), {"username": username})

    assert response.status_code == status
    assert 'id="id_username_error"' in response.text
    assert message.replace("'", "&#x27;") in response.text
    assert snapshot(table) == before


def test_a_player_is_invited_once(as_creator, table, alice):
    invite(table, alice)
    before = snapshot(table)

    response = as_creator.post(url("invite", table), {"username": "ALICE"})

    assert response.status_code == 409
    assert "alice a déjà reçu une invitation." in response.text
    assert snapshot(table) == before


def test_only_the_creator_invites(table, alice, bob):
    invite(table, alice)
    before = snapshot(table)

    response = client_for(alice).post(url("invite", table), {"username": "bob"})

    assert response.status_code == 403
    assert "Seul le créateur de la table peut faire cela." in response.text
    assert snapshot(table) == before


def test_the_creator_sees_the_secret_link(as_creator, table):
    html = as_creator.get(url("table", table)).text

    assert f"http://testserver/tables/{table.pk}/rejoindre/{table.invite_token}/" in html
    assert 'for="invite-link"' in html


def test_invitees_do_not_see_the_link(table, alice):
    invite(table, alice)

    assert table.invite_token not in client_for(alice).get(url("table", table)).text


def test_the_link_asks_to_join_then_records_an_invitation(table, alice):
    join = url("join", table, table.invite_token)
    as_alice = client_for(alice)
    assert as_alice.get(url("table", table)).status_code == 404

    page = as_alice.get(join)
    assert page.status_code == 200
    assert "Rejoindre la table" in page.text
    assert not Invitation.objects.exists()  # a GET changes nothing

    response = as_alice.post(join)
    assert response.status_code == 302
    assert response.url == url("table", table)
    invitation = Invitation.objects.get()
    assert (invitation.user, invitation.via) == (alice, "link")
    assert as_alice.get(url("table", table)).status_code == 200
    # Coming back by the link goes straight to the table.
    assert as_alice.get(join).url == url("table", table)


def test_joining_twice_records_one_invitation(table, alice):
    join = url("join", table, table.invite_token)
    as_alice = client_for(alice)
    as_alice.post(join)
    as_alice.post(join)

    assert Invitation.objects.count() == 1
    table.refresh_from_db()
    assert table.version == 1


def test_a_wrong_token_is_a_missing_table(table, alice):
    as_alice = client_for(alice)
    wrong = url("join", table, "x" * len(table.invite_token))

    assert as_alice.get(wrong).status_code == 404
    assert as_alice.post(wrong).status_code == 404
    assert not Invitation.objects.exists()


def test_the_link_sends_a_logged_out_visitor_to_the_login_and_back(client, table):
    join = url("join", table, table.invite_token)

    response = client.get(join)

    assert response.status_code == 302
    assert response.url == f"{reverse('account_login')}?next={join}"


def test_renewing_the_link_removes_the_link_invitations_of_players_not_seated(
    as_creator, table, alice, bob, outsider
):
    old = table.invite_token
    for user in (alice, bob):
        client_for(user).post(url("join", table, old))
    lobby.take_seat(table=table, user=bob, position=0)
    invite(table, outsider)  # by username: kept

    response = as_creator.post(url("revoke_link", table))

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.invite_token != old
    assert sorted(Invitation.objects.values_list("user__username", flat=True)) == [
        "bob",
        "olivier",
    ]
    assert client_for(alice).get(url("table", table)).status_code == 404
    assert client_for(alice).post(url("join", table, old)).status_code == 404
    assert client_for(bob).get(url("table", table)).status_code == 200
    assert client_for(outsider).get(url("table", table)).status_code == 200
    assert client_for(alice).get(url("join", table, table.invite_token)).status_code == 200
    assert Action.objects.filter(table=table).last().kind == "revoke_link"


def test_only_the_creator_renews_the_link(table, alice):
    invite(table, alice)
    before = snapshot(table)

    assert client_for(alice).post(url("revoke_link", table)).status_code == 403
    assert snapshot(table) == before


def test_the_link_no_longer_opens_a_table_once_started(table, alice):
    lobby.set_bot(table=table, by=table.created_by, position=0, level="random")
    lobby.set_bot(table=table, by=table.created_by, position=1, level="random")
    lobby.set_bot(table=table, by=table.created_by, position=3, level="random")
    lobby.start(table=table, by=table.created_by)
    before = snapshot(table)

    response = client_for(alice).post(url("join", table, table.invite_token))

    assert response.status_code == 409
    assert "La partie a déjà commencé." in response.text
    assert snapshot(table) == before


def test_in_the_lobby_the_link_asks_to_join_even_with_spectators_allowed(table, alice):
    """Spectators come once the game has started; before, the link invites a player."""
    lobby.set_spectators(table=table, by=table.created_by, allowed=True)
    join = url("join", table, table.invite_token)

    page = client_for(alice).get(join)

    assert page.status_code == 200
    assert "Rejoindre la table" in page.text
    assert not Invitation.objects.exists()


def test_once_started_with_spectators_the_link_records_a_spectator_without_a_version(table, alice):
    lobby.set_spectators(table=table, by=table.created_by, allowed=True)
    for position in (0, 1, 3):
        lobby.set_bot(table=table, by=table.created_by, position=position, level="random")
    lobby.start(table=table, by=table.created_by)
    before = snapshot(table)

    response = client_for(alice).post(url("join", table, table.invite_token))

    assert response.status_code == 302 and response.url == url("table", table)
    invitation = Invitation.objects.get()
    assert (invitation.user, invitation.via) == (alice, "link")
    after = snapshot(table)
    assert after["version"] == before["version"] and after["actions"] == before["actions"]
    # Renewing the link (possible once started, spectators allowed) sends them away.
    lobby.revoke_link(table=table, by=table.created_by)
    assert not Invitation.objects.exists()
    assert client_for(alice).get(url("table", table)).status_code == 404
