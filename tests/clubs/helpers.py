"""Helpers of the club tests: clubs with their people, clients, and a club's snapshot."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse
from django.utils.text import slugify

from accounts.models import Club, ClubInvitation, ClubRole, JoinRequest, Membership


def make_club(name: str = "Les Atouts", *, accepts_requests: bool = True, **roles) -> Club:
    """A club with members given by role: ``owners=[...]``, ``organisers=[...]``,
    ``members=[...]`` (written directly: this is the test's set-up, not a flow under test)."""
    club = Club.objects.create(name=name, slug=slugify(name), accepts_requests=accepts_requests)
    for key, role in (
        ("owners", ClubRole.OWNER),
        ("organisers", ClubRole.ORGANISER),
        ("members", ClubRole.MEMBER),
    ):
        for user in roles.get(key, ()):
            Membership.objects.create(club=club, user=user, role=role)
    return club


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def htmx_post(client: Client, path: str, data: dict | None = None):
    """A POST as hx-post sends it."""
    return client.post(path, data or {}, headers={"hx-request": "true"})


def url(name: str, club: Club, *args) -> str:
    return reverse(f"clubs:{name}", args=[club.slug, *args])


def roles(club: Club) -> dict[str, str]:
    return dict(club.memberships.values_list("user__username", "role"))


def snapshot(club: Club) -> dict:
    """What a refused request must leave untouched."""
    return {
        "club": Club.objects.filter(pk=club.pk).values().first(),
        "members": sorted(Membership.objects.filter(club=club).values_list("user_id", "role")),
        "invitations": sorted(
            ClubInvitation.objects.filter(club=club).values_list("user_id", "status")
        ),
        "requests": sorted(JoinRequest.objects.filter(club=club).values_list("user_id", "status")),
    }
