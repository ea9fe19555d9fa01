"""The club pages: /clubs/ and /clubs/<slug>/.

"A club page with members, its tables and its tournaments": members, tables and the
leaderboard are for the club's members; anyone sees the public part (name, description,
member count, tournaments, the join-request button).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.clubs import service as clubs
from games.models import Tournament
from tests.clubs.helpers import client_for, make_club, url
from tests.factories import make_user

pytestmark = pytest.mark.django_db

PRIVATE = ["Membres</h2>", "Tables du club", "Classement du club"]


@pytest.fixture
def tournament(club):
    return Tournament.objects.create(
        club=club, name="Coupe de printemps", format="round_robin", preset="classique"
    )


def test_the_header_links_to_the_clubs(member):
    for client in (Client(), client_for(member)):
        assert f'href="{reverse("clubs:list")}"' in client.get(reverse("home")).text


def test_the_list_shows_my_clubs_first_then_the_others(club, member):
    make_club("Amicale du Bourg", owners=[make_user("bernard")])

    page = client_for(member).get(reverse("clubs:list")).text

    assert page.index("Mes clubs") < page.index("Les Atouts") < page.index("Autres clubs")
    assert page.index("Autres clubs") < page.index("Amicale du Bourg")
    assert page.count("Demander à rejoindre") == 1  # for the Amicale only


def test_the_list_shows_my_pending_invitations(club, organiser, outsider):
    invitation = clubs.invite(club=club, by=organiser, username="olivier")

    page = client_for(outsider).get(reverse("clubs:list")).text

    assert "Vos invitations" in page
    assert url("accept_invitation", club, invitation.pk) in page
    assert url("decline_invitation", club, invitation.pk) in page
    assert url("request", club) not in page  # invited: no request button


def test_the_list_says_when_a_request_is_pending_or_impossible(club, outsider):
    make_club("Cercle fermé", accepts_requests=False, owners=[make_user("jeanne")])
    clubs.request_to_join(club=club, by=outsider)

    page = client_for(outsider).get(reverse("clubs:list")).text

    assert "Votre demande est en attente." in page
    assert "Sur invitation seulement." in page
    assert "Demander à rejoindre" not in page


def test_a_visitor_sees_the_list_and_is_asked_to_log_in(club):
    page = Client().get(reverse("clubs:list")).text

    assert "Les Atouts" in page
    assert "Connectez-vous pour demander à rejoindre ce club." in page


@pytest.mark.parametrize("who", ["visitor", "outsider", "other_organiser"])
def test_non_members_see_only_the_public_part(who, club, outsider, other_organiser, tournament):
    club.description = "Le club du mardi soir."
    club.save()
    client = {
        "visitor": Client(),
        "outsider": client_for(outsider),
        "other_organiser": client_for(other_organiser),
    }[who]

    response = client.get(url("detail", club))

    page = response.text
    assert response.status_code == 200
    assert "Les Atouts" in page and "Le club du mardi soir." in page
    assert "<dd>3</dd>" in page  # the member count
    assert "Coupe de printemps" in page
    assert reverse("tournaments:detail", args=[tournament.pk]) in page
    assert "Inscriptions ouvertes" in page
    for private in PRIVATE:
        assert private not in page
    assert "marie" not in page  # no member's name
    assert "Inviter un joueur" not in page


def test_a_member_sees_members_tables_and_leaderboard(club, member, owner):
    page = client_for(member).get(url("detail", club)).text

    for private in PRIVATE:
        assert private in page
    for user in ("odile", "oscar", "marie"):
        assert reverse("player", args=[user]) in page
    members = page[page.index("Membres</h2>") :]
    assert members.index("odile") < members.index("oscar") < members.index("marie")  # by role
    assert "Responsable" in page and "Organisateur" in page
    assert "Quitter le club" in page
    assert "Aucune partie classée pour l'instant." in page  # games/_leaderboard.html
    # A plain member manages nothing.
    assert "Inviter un joueur" not in page
    assert "Demandes d'adhésion" not in page
    assert url("remove_member", club, owner.pk) not in page


def test_an_organiser_sees_requests_and_the_invite_form(club, organiser, owner, member, outsider):
    join_request = clubs.request_to_join(club=club, by=outsider, message="Je joue le jeudi.")

    page = client_for(organiser).get(url("detail", club)).text

    assert "Demandes d'adhésion" in page and "Je joue le jeudi." in page
    assert url("accept_request", club, join_request.pk) in page
    assert url("decline_request", club, join_request.pk) in page
    assert url("invite", club) in page
    # Organisers remove plain members, and change no role.
    assert url("remove_member", club, member.pk) in page
    assert url("remove_member", club, owner.pk) not in page
    assert url("set_role", club, member.pk) not in page


def test_an_owner_sees_the_role_controls(club, owner, organiser, member):
    page = client_for(owner).get(url("detail", club)).text

    assert url("set_role", club, member.pk) in page
    assert url("remove_member", club, organiser.pk) in page
    assert url("set_role", club, owner.pk) not in page  # not for oneself


def test_a_superuser_sees_everything(club):
    page = client_for(make_user("root", is_superuser=True)).get(url("detail", club)).text

    for private in PRIVATE:
        assert private in page
    assert "Inviter un joueur" in page


def test_the_request_form_for_an_outsider(club, outsider):
    page = client_for(outsider).get(url("detail", club)).text

    assert f'action="{url("request", club)}"' in page
    assert 'name="message"' in page


def test_an_unknown_club_is_a_404(member):
    assert client_for(member).get("/clubs/nulle-part/").status_code == 404


def test_htmx_gets_the_fragment(club, member):
    response = client_for(member).get(url("detail", club), headers={"hx-request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="club"')
    assert "<html" not in response.text
