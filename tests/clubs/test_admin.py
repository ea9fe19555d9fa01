"""Clubs in the Django admin.

"Clubs: created and managed in the Django admin"; "admin actions by a non-organiser are
refused". A superuser does everything; a staff user who owns or organises clubs sees and
edits those only; any other staff user gets a 403. Memberships, requests and invitations
change through accounts.clubs.service, with the same rules as on the club page.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from accounts.clubs import service as clubs
from accounts.models import (
    Club,
    ClubInvitation,
    ClubRole,
    JoinRequest,
    Membership,
    Rating,
    RequestStatus,
    Vacation,
)
from tests.clubs.helpers import client_for, roles, snapshot
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def admin_url(model, view: str, *args) -> str:
    return reverse(f"admin:accounts_{model._meta.model_name}_{view}", args=args)


def staff(*users):
    for user in users:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    return users[0] if len(users) == 1 else users


@pytest.fixture
def superuser(db):
    return make_user("root", is_superuser=True, is_staff=True)


@pytest.fixture
def other_club(other_organiser):
    return Club.objects.get(name="Belote du Port")


def club_form(club: Club, *, changes: dict | None = None, new: list | None = None) -> dict:
    """The POST of a club's change page: its fields and its members as they are, with
    ``changes`` ({username: role or "DELETE"}) and ``new`` rows ([(username, role)])."""
    changes = changes or {}
    new = new or []
    memberships = list(club.memberships.select_related("user").order_by("pk"))
    data = {
        "name": club.name,
        "slug": club.slug,
        "description": club.description,
        "accepts_requests": "on" if club.accepts_requests else "",
        "memberships-TOTAL_FORMS": str(len(memberships) + len(new)),
        "memberships-INITIAL_FORMS": str(len(memberships)),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    for index, membership in enumerate(memberships):
        prefix = f"memberships-{index}-"
        change = changes.get(membership.user.username)
        data[prefix + "id"] = str(membership.pk)
        data[prefix + "club"] = str(club.pk)
        data[prefix + "user"] = membership.user.username
        data[prefix + "role"] = change if change not in (None, "DELETE") else membership.role
        if change == "DELETE":
            data[prefix + "DELETE"] = "on"
    for offset, (username, role) in enumerate(new):
        prefix = f"memberships-{len(memberships) + offset}-"
        data[prefix + "club"] = str(club.pk)
        data[prefix + "user"] = username
        data[prefix + "role"] = role
    return data


def save_club(client, club: Club, **form):
    return client.post(admin_url(Club, "change", club.pk), club_form(club, **form))


# ---------------------------------------------------------------------------------------
# Superusers


def test_a_superuser_creates_a_club_with_its_owner(superuser, member):
    data = {
        "name": "Le Carré de Valets",
        "slug": "le-carre-de-valets",
        "description": "",
        "accepts_requests": "on",
        "memberships-TOTAL_FORMS": "1",
        "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
        "memberships-0-user": "marie",
        "memberships-0-role": "owner",
    }

    response = client_for(superuser).post(admin_url(Club, "add"), data)

    assert response.status_code == 302, response.context["errors"]
    club = Club.objects.get(slug="le-carre-de-valets")
    assert roles(club) == {"marie": ClubRole.OWNER}


def test_the_add_page_prepopulates_the_slug(superuser):
    page = client_for(superuser).get(admin_url(Club, "add")).text

    assert "data-prepopulated-fields" in page and "#id_slug" in page


def test_a_superuser_sees_every_club_with_its_member_count(superuser, club, other_club):
    response = client_for(superuser).get(admin_url(Club, "changelist"))

    assert response.status_code == 200
    assert list(response.context["cl"].queryset.order_by("name")) == [other_club, club]
    counts = {c.name: c.member_count for c in response.context["cl"].queryset}
    assert counts == {"Les Atouts": 3, "Belote du Port": 2}


def test_the_changelist_searches(superuser, club, other_club):
    response = client_for(superuser).get(admin_url(Club, "changelist"), {"q": "port"})

    assert list(response.context["cl"].queryset) == [other_club]


# ---------------------------------------------------------------------------------------
# Organisers and owners with staff access


def test_an_organiser_sees_only_their_clubs(club, organiser, other_club):
    client = client_for(staff(organiser))

    changelist = client.get(admin_url(Club, "changelist"))

    assert list(changelist.context["cl"].queryset) == [club]
    assert client.get(admin_url(Club, "change", club.pk)).status_code == 200
    assert client.get(admin_url(Club, "change", other_club.pk)).status_code == 403


def test_an_organiser_creates_and_deletes_no_club(club, organiser):
    client = client_for(staff(organiser))

    assert client.get(admin_url(Club, "add")).status_code == 403
    assert client.post(admin_url(Club, "add"), {"name": "X", "slug": "x"}).status_code == 403
    assert client.post(admin_url(Club, "delete", club.pk), {"post": "yes"}).status_code == 403
    assert Club.objects.filter(pk=club.pk).exists()


def test_an_organiser_edits_their_club(club, organiser):
    form = club_form(club)
    form["description"] = "Tous les mardis."

    response = client_for(staff(organiser)).post(admin_url(Club, "change", club.pk), form)

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.description == "Tous les mardis."


def test_an_organiser_of_another_club_cannot_post_the_change_page(club, other_organiser):
    before = snapshot(club)
    form = club_form(club, changes={"marie": "DELETE"})
    form["name"] = "Volé"

    response = client_for(staff(other_organiser)).post(admin_url(Club, "change", club.pk), form)

    assert response.status_code == 403
    assert snapshot(club) == before


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_staff_who_run_no_club_get_403(club, member, outsider, who):
    user = staff({"member": member, "outsider": outsider}[who])
    client = client_for(user)
    before = snapshot(club)

    assert client.get(admin_url(Club, "change", club.pk)).status_code == 403
    assert client.post(admin_url(Club, "change", club.pk), club_form(club)).status_code == 403
    assert client.get(admin_url(Club, "changelist")).status_code == 403
    assert client.get(admin_url(JoinRequest, "changelist")).status_code == 403
    index = client.get(reverse("admin:index"))
    assert admin_url(Club, "changelist") not in index.text
    assert snapshot(club) == before


def test_an_organiser_adds_a_plain_member(club, organiser):
    make_user("zoe")

    response = save_club(client_for(staff(organiser)), club, new=[("zoe", "member")])

    assert response.status_code == 302
    assert roles(club)["zoe"] == ClubRole.MEMBER


@pytest.mark.parametrize("role", ["organiser", "owner"])
def test_an_organiser_grants_no_higher_role(club, organiser, role):
    make_user("zoe")
    before = snapshot(club)

    response = save_club(client_for(staff(organiser)), club, new=[("zoe", role)])

    assert response.status_code == 200  # the form again, with its error
    assert snapshot(club) == before


def test_an_organiser_changes_no_role_in_the_admin(club, organiser):
    before = snapshot(club)

    response = save_club(
        client_for(staff(organiser)), club, changes={"marie": "owner", "oscar": "owner"}
    )

    assert response.status_code == 302

    # The role select is disabled for them: what is posted is ignored.
    assert snapshot(club) == before


def test_an_organiser_removes_plain_members_only(club, organiser):
    client = client_for(staff(organiser))
    before = snapshot(club)

    refused = save_club(client, club, changes={"odile": "DELETE"})

    assert refused.status_code == 200
    assert "Seul un responsable du club peut retirer" in refused.text
    assert snapshot(club) == before
    assert save_club(client, club, changes={"marie": "DELETE"}).status_code == 302
    assert "marie" not in roles(club)


def test_an_unknown_username_is_a_form_error(club, organiser):
    before = snapshot(club)

    response = save_club(client_for(staff(organiser)), club, new=[("personne", "member")])

    assert response.status_code == 200
    assert "Aucun joueur actif ne porte ce nom" in response.text
    assert snapshot(club) == before


def test_an_owner_grants_roles(club, owner):
    make_user("zoe")

    response = save_club(
        client_for(staff(owner)), club, changes={"marie": "owner"}, new=[("zoe", "organiser")]
    )

    assert response.status_code == 302
    assert roles(club) == {
        "odile": ClubRole.OWNER,
        "oscar": ClubRole.ORGANISER,
        "marie": ClubRole.OWNER,
        "zoe": ClubRole.ORGANISER,
    }


def test_an_owner_hands_the_club_over_in_one_save(club, owner):
    response = save_club(
        client_for(staff(owner)), club, changes={"oscar": "owner", "odile": "member"}
    )

    assert response.status_code == 302
    assert roles(club)["oscar"] == ClubRole.OWNER
    assert roles(club)["odile"] == ClubRole.MEMBER


@pytest.mark.parametrize("changes", [{"odile": "member"}, {"odile": "DELETE"}])
def test_the_club_keeps_an_owner(club, owner, changes):
    before = snapshot(club)

    response = save_club(client_for(staff(owner)), club, changes=changes)

    assert response.status_code == 200
    assert "Le club doit garder un responsable" in response.text
    assert snapshot(club) == before


def test_two_owners_cannot_both_go_in_one_save(club, owner, member):
    Membership.objects.filter(user=member).update(role=ClubRole.OWNER)
    before = snapshot(club)

    response = save_club(
        client_for(staff(owner)), club, changes={"odile": "DELETE", "marie": "member"}
    )

    assert response.status_code == 200
    assert snapshot(club) == before


# ---------------------------------------------------------------------------------------
# Join requests and invitations: the admin actions


@pytest.fixture
def applicant(club):
    user = make_user("alain")
    clubs.request_to_join(club=club, by=user)
    return user


def post_action(client, model, action: str, rows):
    return client.post(
        admin_url(model, "changelist"),
        {"action": action, "_selected_action": [str(row.pk) for row in rows]},
    )


def test_an_organiser_accepts_requests_by_the_admin_action(club, organiser, applicant):
    join_request = JoinRequest.objects.get(user=applicant)

    response = post_action(client_for(staff(organiser)), JoinRequest, "accept", [join_request])

    assert response.status_code == 302
    assert roles(club)["alain"] == ClubRole.MEMBER
    join_request.refresh_from_db()
    assert join_request.status == RequestStatus.ACCEPTED and join_request.decided_by == organiser


def test_an_organiser_declines_requests_by_the_admin_action(club, owner, applicant):
    join_request = JoinRequest.objects.get(user=applicant)

    post_action(client_for(staff(owner)), JoinRequest, "decline", [join_request])

    join_request.refresh_from_db()
    assert join_request.status == RequestStatus.DECLINED
    assert "alain" not in roles(club)


def test_the_organiser_of_another_club_sees_and_decides_nothing(club, other_organiser, applicant):
    join_request = JoinRequest.objects.get(user=applicant)
    client = client_for(staff(other_organiser))
    before = snapshot(club)

    changelist = client.get(admin_url(JoinRequest, "changelist"))
    accepted = post_action(client, JoinRequest, "accept", [join_request])

    assert list(changelist.context["cl"].queryset) == []
    assert accepted.status_code in (200, 302)
    assert snapshot(club) == before
    assert client.get(admin_url(JoinRequest, "change", join_request.pk)).status_code == 403


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_admin_actions_by_a_non_organiser_are_refused(club, member, outsider, applicant, who):
    join_request = JoinRequest.objects.get(user=applicant)
    client = client_for(staff({"member": member, "outsider": outsider}[who]))
    before = snapshot(club)

    for action in ("accept", "decline"):
        assert post_action(client, JoinRequest, action, [join_request]).status_code == 403
    assert snapshot(club) == before


def test_an_action_on_an_answered_request_says_why(club, organiser, applicant):
    join_request = JoinRequest.objects.get(user=applicant)
    clubs.decline_request(join_request=join_request, by=organiser)
    client = client_for(staff(organiser))

    response = post_action(client, JoinRequest, "accept", [join_request])

    assert (
        "Cette demande a déjà été refusée." in [str(m) for m in response.wsgi_request._messages][0]
    )
    assert "alain" not in roles(club)


def test_requests_and_invitations_are_read_only(club, organiser, applicant):
    client = client_for(staff(organiser))
    join_request = JoinRequest.objects.get(user=applicant)

    page = client.get(admin_url(JoinRequest, "change", join_request.pk))

    assert page.status_code == 200
    assert 'name="_save"' not in page.text
    assert client.get(admin_url(JoinRequest, "add")).status_code == 403
    assert client.get(admin_url(ClubInvitation, "add")).status_code == 403


def test_an_organiser_withdraws_invitations_by_the_admin_action(club, organiser, other_organiser):
    make_user("zoe")
    invitation = clubs.invite(club=club, by=organiser, username="zoe")

    post_action(client_for(staff(other_organiser)), ClubInvitation, "withdraw", [invitation])
    assert ClubInvitation.objects.filter(pk=invitation.pk).exists()
    post_action(client_for(staff(organiser)), ClubInvitation, "withdraw", [invitation])

    assert not ClubInvitation.objects.filter(pk=invitation.pk).exists()


# ---------------------------------------------------------------------------------------
# Absences and ratings


def test_absences_are_read_mostly(superuser, member):
    vacation = Vacation.objects.create(
        user=member, start=datetime.date(2026, 7, 1), end=datetime.date(2026, 7, 14)
    )
    client = client_for(superuser)

    assert client.get(admin_url(Vacation, "changelist")).status_code == 200
    page = client.get(admin_url(Vacation, "change", vacation.pk))
    assert page.status_code == 200 and 'name="_save"' not in page.text
    assert client.get(admin_url(Vacation, "add")).status_code == 403
    assert (
        client.post(admin_url(Vacation, "delete", vacation.pk), {"post": "yes"}).status_code == 302
    )
    assert not Vacation.objects.exists()


def test_ratings_are_read_only(superuser, member):
    rating = Rating.objects.create(user=member, mu=25.0, sigma=8.3, ordinal=0.1)
    client = client_for(superuser)

    assert client.get(admin_url(Rating, "changelist")).status_code == 200
    assert client.get(admin_url(Rating, "change", rating.pk)).status_code == 200
    assert client.post(admin_url(Rating, "change", rating.pk), {"mu": 99}).status_code == 403
    assert client.get(admin_url(Rating, "add")).status_code == 403
    assert client.post(admin_url(Rating, "delete", rating.pk), {"post": "yes"}).status_code == 403
    rating.refresh_from_db()
    assert rating.mu == 25.0
