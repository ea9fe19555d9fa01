"""accounts.clubs.service, the only write path of memberships: who may do what, and what a
refusal leaves behind (nothing).

"Members with roles (owner, organiser, member), invitations and join requests."
"""

from __future__ import annotations

import pytest

from accounts.clubs import service as clubs
from accounts.clubs.service import ClubError
from accounts.models import ClubInvitation, ClubRole, JoinRequest, Membership, RequestStatus
from tests.clubs.helpers import make_club, roles, snapshot
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def refused(code: str, status: int, call, club) -> None:
    """``call()`` is refused with ``code`` and ``status``, and ``club`` is unchanged."""
    before = snapshot(club)
    with pytest.raises(ClubError) as error:
        call()
    assert (error.value.code, error.value.status) == (code, status)
    assert error.value.message
    assert snapshot(club) == before


# ---------------------------------------------------------------------------------------
# Who is who


def test_manages_owners_organisers_and_superusers(club, owner, organiser, member, outsider):
    admin = make_user("root", is_superuser=True)

    assert [clubs.manages(u, club) for u in (owner, organiser, member, outsider, admin)] == [
        True,
        True,
        False,
        False,
        True,
    ]


def test_managed_clubs(club, organiser, member, other_organiser):
    admin = make_user("root", is_superuser=True)

    assert list(clubs.managed_clubs(organiser)) == [club]
    assert list(clubs.managed_clubs(member)) == []
    assert club not in clubs.managed_clubs(other_organiser)
    assert clubs.managed_clubs(admin).count() == 2


def test_an_inactive_or_anonymous_user_manages_nothing(club, organiser):
    from django.contrib.auth.models import AnonymousUser

    organiser.is_active = False
    organiser.save()

    assert not clubs.manages(organiser, club)
    assert not clubs.managed_clubs(organiser).exists()
    assert not clubs.manages(AnonymousUser(), club)


# ---------------------------------------------------------------------------------------
# Invitations


def test_an_organiser_invites_and_the_invitee_accepts(club, organiser, outsider):
    invitation = clubs.invite(club=club, by=organiser, username="olivier")

    assert invitation.status == RequestStatus.PENDING
    assert invitation.invited_by == organiser
    membership = clubs.accept_invitation(invitation=invitation, by=outsider)

    assert membership.role == ClubRole.MEMBER
    invitation.refresh_from_db()
    assert invitation.status == RequestStatus.ACCEPTED
    assert invitation.answered_at is not None


def test_accepting_twice_changes_nothing(club, organiser, outsider):
    invitation = clubs.invite(club=club, by=organiser, username="olivier")
    first = clubs.accept_invitation(invitation=invitation, by=outsider)

    second = clubs.accept_invitation(invitation=invitation, by=outsider)

    assert first == second
    assert Membership.objects.filter(club=club, user=outsider).count() == 1


def test_an_old_accepted_invitation_does_not_let_a_former_member_back(club, organiser, outsider):
    invitation = clubs.invite(club=club, by=organiser, username="olivier")
    clubs.accept_invitation(invitation=invitation, by=outsider)
    clubs.leave(club=club, by=outsider)

    refused(
        "answered", 409, lambda: clubs.accept_invitation(invitation=invitation, by=outsider), club
    )


def test_the_invitee_declines(club, owner, outsider):
    invitation = clubs.invite(club=club, by=owner, username="olivier")

    clubs.decline_invitation(invitation=invitation, by=outsider)
    clubs.decline_invitation(invitation=invitation, by=outsider)  # a double click

    invitation.refresh_from_db()
    assert invitation.status == RequestStatus.DECLINED
    assert "olivier" not in roles(club)
    refused(
        "answered", 409, lambda: clubs.accept_invitation(invitation=invitation, by=outsider), club
    )


def test_only_the_invitee_answers(club, organiser, member, outsider):
    invitation = clubs.invite(club=club, by=organiser, username="olivier")

    for someone in (organiser, member):
        refused(
            "no_invitation",
            404,
            lambda u=someone: clubs.accept_invitation(invitation=invitation, by=u),
            club,
        )
        refused(
            "no_invitation",
            404,
            lambda u=someone: clubs.decline_invitation(invitation=invitation, by=u),
            club,
        )


def test_a_plain_member_or_an_outsider_does_not_invite(club, member, outsider, other_organiser):
    make_user("zoe")
    for someone in (member, outsider, other_organiser):
        refused(
            "not_organiser",
            403,
            lambda u=someone: clubs.invite(club=club, by=u, username="zoe"),
            club,
        )


@pytest.mark.parametrize(
    ("username", "code", "status"),
    [
        ("personne", "unknown_user", 422),
        ("", "unknown_user", 422),
        ("marie", "already_member", 409),
        ("odile", "already_member", 409),
    ],
)
def test_bad_invitations(club, organiser, username, code, status):
    refused(code, status, lambda: clubs.invite(club=club, by=organiser, username=username), club)


def test_one_pending_invitation(club, organiser, owner, outsider):
    clubs.invite(club=club, by=organiser, username="olivier")

    refused(
        "already_invited", 409, lambda: clubs.invite(club=club, by=owner, username="olivier"), club
    )


def test_a_declined_invitee_may_be_invited_again(club, organiser, outsider):
    first = clubs.invite(club=club, by=organiser, username="olivier")
    clubs.decline_invitation(invitation=first, by=outsider)

    second = clubs.invite(club=club, by=organiser, username="Olivier")  # any case will do

    assert second.pk != first.pk and second.user == outsider


def test_an_organiser_withdraws_a_pending_invitation(club, organiser, member, outsider):
    invitation = clubs.invite(club=club, by=organiser, username="olivier")

    refused(
        "not_organiser",
        403,
        lambda: clubs.withdraw_invitation(invitation=invitation, by=member),
        club,
    )
    clubs.withdraw_invitation(invitation=invitation, by=organiser)

    assert not ClubInvitation.objects.filter(pk=invitation.pk).exists()


# ---------------------------------------------------------------------------------------
# Join requests


def test_a_player_asks_and_an_organiser_accepts(club, organiser, outsider):
    join_request = clubs.request_to_join(club=club, by=outsider, message="  Bonjour !  ")

    assert join_request.message == "Bonjour !"
    membership = clubs.accept_request(join_request=join_request, by=organiser)

    assert membership.user == outsider and membership.role == ClubRole.MEMBER
    join_request.refresh_from_db()
    assert join_request.status == RequestStatus.ACCEPTED
    assert join_request.decided_by == organiser
    # A double click on "Accepter" changes nothing.
    assert clubs.accept_request(join_request=join_request, by=organiser) == membership


def test_asking_twice_keeps_one_pending_request(club, outsider):
    first = clubs.request_to_join(club=club, by=outsider, message="un")
    second = clubs.request_to_join(club=club, by=outsider, message="deux")

    assert first.pk == second.pk
    assert JoinRequest.objects.filter(club=club, user=outsider).count() == 1
    assert JoinRequest.objects.get().message == "un"


def test_an_organiser_declines(club, owner, outsider):
    join_request = clubs.request_to_join(club=club, by=outsider)

    clubs.decline_request(join_request=join_request, by=owner)
    clubs.decline_request(join_request=join_request, by=owner)

    join_request.refresh_from_db()
    assert join_request.status == RequestStatus.DECLINED
    refused("decided", 409, lambda: clubs.accept_request(join_request=join_request, by=owner), club)
    # Declined, the player may ask again.
    assert clubs.request_to_join(club=club, by=outsider).pk != join_request.pk


def test_only_organisers_decide(club, member, outsider, other_organiser):
    join_request = clubs.request_to_join(club=club, by=outsider)

    for someone in (member, outsider, other_organiser):
        refused(
            "not_organiser",
            403,
            lambda u=someone: clubs.accept_request(join_request=join_request, by=u),
            club,
        )
        refused(
            "not_organiser",
            403,
            lambda u=someone: clubs.decline_request(join_request=join_request, by=u),
            club,
        )


def test_requests_refused(club, member, outsider, organiser):
    refused("already_member", 409, lambda: clubs.request_to_join(club=club, by=member), club)
    refused(
        "message_too_long",
        422,
        lambda: clubs.request_to_join(club=club, by=outsider, message="x" * 301),
        club,
    )
    clubs.invite(club=club, by=organiser, username="olivier")
    refused("invited", 409, lambda: clubs.request_to_join(club=club, by=outsider), club)


def test_a_club_on_invitation_only_takes_no_request(outsider):
    closed = make_club("Cercle fermé", accepts_requests=False, owners=[make_user("jeanne")])

    refused("no_requests", 403, lambda: clubs.request_to_join(club=closed, by=outsider), closed)


def test_joining_settles_what_else_was_pending(club, organiser, outsider):
    join_request = clubs.request_to_join(club=club, by=outsider)
    invitation = ClubInvitation.objects.create(club=club, user=outsider, invited_by=organiser)

    clubs.accept_invitation(invitation=invitation, by=outsider)

    join_request.refresh_from_db()
    assert join_request.status == RequestStatus.ACCEPTED


# ---------------------------------------------------------------------------------------
# Members: leaving, roles, removals


def test_a_member_leaves(club, member):
    clubs.leave(club=club, by=member)

    assert "marie" not in roles(club)
    refused("not_member", 409, lambda: clubs.leave(club=club, by=member), club)


def test_the_last_owner_cannot_leave(club, owner, organiser):
    refused("last_owner", 409, lambda: clubs.leave(club=club, by=owner), club)

    clubs.set_role(club=club, by=owner, user=organiser, role=ClubRole.OWNER)
    clubs.leave(club=club, by=owner)

    assert roles(club) == {"oscar": ClubRole.OWNER, "marie": ClubRole.MEMBER}


def test_owners_change_roles(club, owner, member):
    clubs.set_role(club=club, by=owner, user=member, role=ClubRole.ORGANISER)
    clubs.set_role(club=club, by=owner, user=member, role=ClubRole.ORGANISER)  # no change

    assert roles(club)["marie"] == ClubRole.ORGANISER


def test_only_owners_change_roles(club, organiser, member, outsider):
    for someone in (organiser, member, outsider):
        refused(
            "not_owner",
            403,
            lambda u=someone: clubs.set_role(club=club, by=u, user=member, role="organiser"),
            club,
        )


def test_a_superuser_acts_as_an_owner(club, member):
    admin = make_user("root", is_superuser=True)

    clubs.set_role(club=club, by=admin, user=member, role=ClubRole.OWNER)

    assert roles(club)["marie"] == ClubRole.OWNER


def test_role_changes_refused(club, owner, outsider):
    refused(
        "bad_role", 422, lambda: clubs.set_role(club=club, by=owner, user=owner, role="roi"), club
    )
    refused(
        "last_owner",
        409,
        lambda: clubs.set_role(club=club, by=owner, user=owner, role=ClubRole.MEMBER),
        club,
    )
    refused(
        "not_member",
        409,
        lambda: clubs.set_role(club=club, by=owner, user=outsider, role=ClubRole.MEMBER),
        club,
    )


def test_organisers_remove_plain_members_only(club, owner, organiser, member):
    second = make_user("orphee")
    Membership.objects.create(club=club, user=second, role=ClubRole.ORGANISER)

    for target in (owner, second):
        refused(
            "not_owner",
            403,
            lambda t=target: clubs.remove_member(club=club, by=organiser, user=t),
            club,
        )
    clubs.remove_member(club=club, by=organiser, user=member)

    assert "marie" not in roles(club)


def test_owners_remove_anyone_but_the_last_owner(club, owner, organiser):
    refused("last_owner", 409, lambda: clubs.remove_member(club=club, by=owner, user=owner), club)

    clubs.remove_member(club=club, by=owner, user=organiser)

    assert "oscar" not in roles(club)


def test_members_and_outsiders_remove_nobody(club, member, outsider, other_organiser):
    for someone in (member, outsider, other_organiser):
        refused(
            "not_organiser",
            403,
            lambda u=someone: clubs.remove_member(club=club, by=u, user=member),
            club,
        )


def test_add_member_grants_roles_by_rank(club, owner, organiser):
    zoe, yann, xavier = make_user("zoe"), make_user("yann"), make_user("xavier")

    clubs.add_member(club=club, by=organiser, user=zoe)
    for role in (ClubRole.ORGANISER, ClubRole.OWNER):
        refused(
            "not_owner",
            403,
            lambda r=role: clubs.add_member(club=club, by=organiser, user=yann, role=r),
            club,
        )
    clubs.add_member(club=club, by=owner, user=xavier, role=ClubRole.OWNER)
    refused("already_member", 409, lambda: clubs.add_member(club=club, by=owner, user=zoe), club)

    assert roles(club)["zoe"] == ClubRole.MEMBER
    assert roles(club)["xavier"] == ClubRole.OWNER


def test_outsiders_learn_nothing_about_who_is_a_member(club, outsider, member):
    stranger = make_user("zoe")

    for target in (member, stranger):
        refused(
            "not_owner",
            403,
            lambda t=target: clubs.set_role(club=club, by=outsider, user=t, role="member"),
            club,
        )
        refused(
            "not_organiser",
            403,
            lambda t=target: clubs.remove_member(club=club, by=outsider, user=t),
            club,
        )
