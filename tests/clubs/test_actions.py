"""The club forms, posted as plain forms (post/redirect/get with a message) and by htmx
(the page's fragment with a notice): every flow, then who is refused what.

A refusal answers 4xx with a French message and leaves the database as it was; a
logged-out visitor is sent to the login page; a POST without its CSRF token is a 403.
"""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from accounts.clubs import service as clubs
from accounts.models import ClubInvitation, ClubRole, JoinRequest, RequestStatus
from tests.clubs.helpers import client_for, htmx_post, make_club, roles, snapshot, url
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def invitee(club, organiser):
    user = make_user("ines")
    clubs.invite(club=club, by=organiser, username="ines")
    return user


@pytest.fixture
def applicant(club):
    user = make_user("alain")
    clubs.request_to_join(club=club, by=user, message="Bonjour")
    return user


def invitation_of(user) -> ClubInvitation:
    return ClubInvitation.objects.get(user=user)


def request_of(user) -> JoinRequest:
    return JoinRequest.objects.get(user=user)


def text_of(response) -> str:
    """The page as read, entities decoded."""
    return html.unescape(response.text)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages]


# ---------------------------------------------------------------------------------------
# The flows, without JavaScript


def test_an_organiser_invites(club, organiser):
    make_user("ines")

    response = client_for(organiser).post(url("invite", club), {"username": "ines"})

    assert response.status_code == 302 and response.url == url("detail", club)
    assert messages_of(response) == ["Invitation au club envoyée à ines."]
    assert ClubInvitation.objects.filter(club=club, user__username="ines").exists()


def test_the_invitee_accepts_from_the_list(club, invitee):
    invitation = invitation_of(invitee)

    response = client_for(invitee).post(
        url("accept_invitation", club, invitation.pk), {"page": "list"}
    )

    assert response.status_code == 302 and response.url == reverse("clubs:list")
    assert messages_of(response) == ["Bienvenue au club !"]
    assert roles(club)["ines"] == ClubRole.MEMBER


def test_the_invitee_declines_from_the_club_page(club, invitee):
    invitation = invitation_of(invitee)

    response = client_for(invitee).post(url("decline_invitation", club, invitation.pk))

    assert response.status_code == 302 and response.url == url("detail", club)
    invitation.refresh_from_db()
    assert invitation.status == RequestStatus.DECLINED


def test_an_organiser_withdraws_an_invitation(club, organiser, invitee):
    invitation = invitation_of(invitee)

    response = client_for(organiser).post(url("withdraw_invitation", club, invitation.pk))

    assert response.status_code == 302
    assert not ClubInvitation.objects.filter(pk=invitation.pk).exists()


def test_a_player_asks_to_join(club, outsider):
    response = client_for(outsider).post(url("request", club), {"message": "Je joue le jeudi."})

    assert response.status_code == 302
    assert messages_of(response) == ["Votre demande est envoyée aux organisateurs du club."]
    assert request_of(outsider).message == "Je joue le jeudi."


def test_asking_twice_is_harmless(club, outsider):
    client = client_for(outsider)
    client.post(url("request", club), {"page": "list"})

    response = client.post(url("request", club), {"page": "list"})

    assert response.status_code == 302
    assert JoinRequest.objects.filter(user=outsider).count() == 1


def test_an_organiser_accepts_a_request(club, organiser, applicant):
    response = client_for(organiser).post(url("accept_request", club, request_of(applicant).pk))

    assert response.status_code == 302
    assert messages_of(response) == ["alain est maintenant membre du club."]
    assert roles(club)["alain"] == ClubRole.MEMBER


def test_an_organiser_declines_a_request(club, owner, applicant):
    response = client_for(owner).post(url("decline_request", club, request_of(applicant).pk))

    assert response.status_code == 302
    assert request_of(applicant).status == RequestStatus.DECLINED
    assert "alain" not in roles(club)


def test_a_member_leaves(club, member):
    response = client_for(member).post(url("leave", club))

    assert response.status_code == 302
    assert "marie" not in roles(club)


def test_an_owner_changes_a_role(club, owner, member):
    response = client_for(owner).post(url("set_role", club, member.pk), {"role": "organiser"})

    assert response.status_code == 302
    assert messages_of(response) == ["Le rôle de marie est changé."]
    assert roles(club)["marie"] == ClubRole.ORGANISER


def test_an_organiser_removes_a_member(club, organiser, member):
    response = client_for(organiser).post(url("remove_member", club, member.pk))

    assert response.status_code == 302
    assert "marie" not in roles(club)


# ---------------------------------------------------------------------------------------
# The same with htmx: the fragment of the page the form was on


def test_htmx_invite_answers_the_club_fragment(club, organiser):
    make_user("ines")

    response = htmx_post(client_for(organiser), url("invite", club), {"username": "ines"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="club"')
    assert "Invitation au club envoyée à ines." in response.text
    assert "Invitations en attente" in response.text


def test_htmx_accept_from_the_list_answers_the_list_fragment(club, invitee):
    invitation = invitation_of(invitee)

    response = htmx_post(
        client_for(invitee), url("accept_invitation", club, invitation.pk), {"page": "list"}
    )

    assert response.status_code == 200
    text = response.text
    assert text.lstrip().startswith('<div id="clubs"')
    assert "Bienvenue au club !" in text
    assert text.index("Mes clubs") < text.index("Les Atouts")
    assert "Vos invitations" not in text


def test_htmx_accept_request_shows_the_new_member(club, organiser, applicant):
    response = htmx_post(
        client_for(organiser), url("accept_request", club, request_of(applicant).pk)
    )

    assert response.status_code == 200
    assert "alain est maintenant membre du club." in response.text
    assert reverse("player", args=["alain"]) in response.text
    assert "Aucune demande en attente." in response.text


def test_htmx_request_to_join(club, outsider):
    response = htmx_post(client_for(outsider), url("request", club), {"message": ""})

    assert response.status_code == 200
    assert "Votre demande d'adhésion est en attente" in response.text


def test_htmx_refusal_is_the_fragment_with_its_status(club, member):
    before = snapshot(club)

    response = htmx_post(client_for(member), url("invite", club), {"username": "odile"})

    assert response.status_code == 403
    assert response.text.lstrip().startswith('<div id="club"')
    assert 'role="alert"' in response.text
    assert "Seuls les responsables et les organisateurs du club" in response.text
    assert snapshot(club) == before


def test_htmx_unknown_user_is_shown_on_the_field(club, organiser):
    before = snapshot(club)

    response = htmx_post(client_for(organiser), url("invite", club), {"username": "personne"})

    assert response.status_code == 422
    assert "L'invitation n'a pas été envoyée." in text_of(response)
    assert "Aucun joueur ne s'appelle « personne »." in text_of(response)
    assert 'value="personne"' in response.text
    assert snapshot(club) == before


# ---------------------------------------------------------------------------------------
# Bad input: 4xx, a French message, nothing changed


@pytest.mark.parametrize(
    ("data", "status", "text"),
    [
        ({"username": "personne"}, 422, "Aucun joueur ne s'appelle « personne »."),
        ({"username": ""}, 422, "L'invitation n'a pas été envoyée."),
        ({"username": "marie"}, 409, "marie est déjà membre du club."),
    ],
)
def test_bad_invitations_without_javascript(club, organiser, data, status, text):
    before = snapshot(club)

    response = client_for(organiser).post(url("invite", club), data)

    assert response.status_code == status
    assert text in text_of(response)
    assert snapshot(club) == before


def test_a_second_invitation_is_refused(club, organiser, invitee):
    before = snapshot(club)

    response = client_for(organiser).post(url("invite", club), {"username": "ines"})

    assert response.status_code == 409
    assert "ines a déjà reçu une invitation." in response.text
    assert snapshot(club) == before


def test_bad_role_and_long_message(club, owner, member, outsider):
    before = snapshot(club)

    bad_role = client_for(owner).post(url("set_role", club, member.pk), {"role": "roi"})
    too_long = client_for(outsider).post(url("request", club), {"message": "x" * 301})

    assert bad_role.status_code == 422
    assert too_long.status_code == 422
    assert snapshot(club) == before


def test_the_last_owner_cannot_leave(club, owner):
    before = snapshot(club)

    response = client_for(owner).post(url("leave", club))

    assert response.status_code == 409
    assert "Le club doit garder un responsable" in response.text
    assert snapshot(club) == before


def test_leaving_a_club_one_is_not_in(club, outsider):
    response = client_for(outsider).post(url("leave", club))

    assert response.status_code == 409
    assert "Vous n'êtes pas membre de ce club." in text_of(response)


def test_a_closed_club_refuses_requests(outsider):
    closed = make_club("Cercle fermé", accepts_requests=False, owners=[make_user("jeanne")])
    before = snapshot(closed)

    response = client_for(outsider).post(url("request", closed))

    assert response.status_code == 403
    assert snapshot(closed) == before


def test_unknown_rows_are_404(club, organiser, member, invitee):
    client = client_for(organiser)

    assert client.post(url("accept_request", club, 999)).status_code == 404
    assert client.post(url("withdraw_invitation", club, 999)).status_code == 404
    assert client.post(url("remove_member", club, 999)).status_code == 404
    assert client.post("/clubs/nulle-part/quitter/").status_code == 404
    other = make_club("Belote du Port", owners=[make_user("paul")])
    # An invitation of one club is not found under another's address.
    assert (
        client.post(url("withdraw_invitation", other, invitation_of(invitee).pk)).status_code == 404
    )


def test_the_actions_are_post_only(club, member):
    assert client_for(member).get(url("leave", club)).status_code == 405


# ---------------------------------------------------------------------------------------
# Who is refused what


def posts(invitee, applicant, member):
    """Every club action: (name, url arguments, data)."""
    return [
        ("invite", [], {"username": "zoe"}),
        ("withdraw_invitation", [invitation_of(invitee).pk], {}),
        ("accept_request", [request_of(applicant).pk], {}),
        ("decline_request", [request_of(applicant).pk], {}),
        ("set_role", [member.pk], {"role": "organiser"}),
        ("remove_member", [member.pk], {}),
    ]


MANAGER_ACTIONS = [
    "invite",
    "withdraw_invitation",
    "accept_request",
    "decline_request",
    "set_role",
    "remove_member",
]


@pytest.fixture(params=["outsider", "member", "other_organiser"])
def stranger(request, outsider, member, other_organiser):
    return {"outsider": outsider, "member": member, "other_organiser": other_organiser}[
        request.param
    ]


@pytest.mark.parametrize("action", MANAGER_ACTIONS)
@pytest.mark.parametrize("htmx", [False, True])
def test_non_organisers_are_refused(club, invitee, applicant, member, stranger, action, htmx):
    make_user("zoe")
    name, args, data = next(p for p in posts(invitee, applicant, member) if p[0] == action)
    before = snapshot(club)
    client = client_for(stranger)

    path = url(name, club, *args)
    response = htmx_post(client, path, data) if htmx else client.post(path, data)

    assert response.status_code == 403
    assert snapshot(club) == before


def test_an_organiser_changes_no_role(club, organiser, member):
    before = snapshot(club)

    response = client_for(organiser).post(url("set_role", club, member.pk), {"role": "owner"})

    assert response.status_code == 403
    assert "Seul un responsable du club peut changer les rôles." in response.text
    assert snapshot(club) == before


def test_only_the_invitee_answers_an_invitation(club, invitee, organiser, member):
    invitation = invitation_of(invitee)
    before = snapshot(club)

    for someone in (organiser, member):
        client = client_for(someone)
        assert client.post(url("accept_invitation", club, invitation.pk)).status_code == 404
        assert client.post(url("decline_invitation", club, invitation.pk)).status_code == 404
    assert snapshot(club) == before


@pytest.mark.parametrize(
    "action",
    [
        *MANAGER_ACTIONS,
        "accept_invitation",
        "decline_invitation",
        "request",
        "leave",
    ],
)
def test_logged_out_posts_go_to_the_login_page(club, invitee, applicant, member, action):
    args = {
        "accept_invitation": [invitation_of(invitee).pk],
        "decline_invitation": [invitation_of(invitee).pk],
        "request": [],
        "leave": [],
        **{name: args for name, args, _ in posts(invitee, applicant, member)},
    }[action]
    before = snapshot(club)

    response = Client().post(url(action, club, *args), {"username": "zoe", "role": "owner"})

    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))
    assert snapshot(club) == before


@pytest.mark.parametrize(
    ("who", "action", "data"),
    [
        ("organiser", "invite", {"username": "olivier"}),
        ("outsider", "request", {}),
        ("member", "leave", {}),
    ],
)
def test_a_post_without_csrf_token_is_refused(club, organiser, outsider, member, who, action, data):
    client = Client(enforce_csrf_checks=True)
    client.force_login({"organiser": organiser, "outsider": outsider, "member": member}[who])
    before = snapshot(club)

    response = client.post(url(action, club), data)

    assert response.status_code == 403
    assert snapshot(club) == before


def test_a_post_with_its_csrf_token_passes(club, outsider):
    client = Client(enforce_csrf_checks=True)
    client.force_login(outsider)
    client.get(url("detail", club))  # the page sets the CSRF cookie

    response = client.post(
        url("request", club), {"csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    )

    assert response.status_code == 302
    assert JoinRequest.objects.filter(user=outsider).exists()
