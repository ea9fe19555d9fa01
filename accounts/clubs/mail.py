"""Emails of the clubs: an invitation to its invitee, a join request to the club's owners
and organisers.

``accounts.clubs.service`` enqueues the task once the invitation or request is committed. The
task re-reads the row and sends nothing if it was answered or withdrawn meanwhile, so
running it late or twice is harmless. Players who asked for no emails at all (``notify``
"never", as the unsubscribe link sets it) get none of these either.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.tasks import task
from django.urls import reverse
from django.utils import translation

from accounts.models import (
    MANAGING_ROLES,
    ClubInvitation,
    JoinRequest,
    Notify,
    RequestStatus,
    User,
)
from belote_site.emails import render_email

INVITATION = "invitation"
REQUEST = "request"


@task()
def club_mail_task(kind: str, pk: int) -> None:
    if kind == INVITATION:
        send_invitation_email(pk)
    elif kind == REQUEST:
        send_request_email(pk)


def send_invitation_email(invitation_id: int) -> int:
    invitation = (
        ClubInvitation.objects.select_related("club", "user", "invited_by")
        .filter(pk=invitation_id, status=RequestStatus.PENDING)
        .first()
    )
    if invitation is None:
        return 0
    context = {
        "club": invitation.club,
        "invited_by": invitation.invited_by,
        "url": settings.SITE_URL + reverse("clubs:list"),
    }
    return _send([invitation.user], "emails/club_invitation", context)


def send_request_email(request_id: int) -> int:
    join_request = (
        JoinRequest.objects.select_related("club", "user")
        .filter(pk=request_id, status=RequestStatus.PENDING)
        .first()
    )
    if join_request is None:
        return 0
    club = join_request.club
    managers = User.objects.filter(
        memberships__club=club, memberships__role__in=MANAGING_ROLES, is_active=True
    )
    context = {
        "club": club,
        "player": join_request.user,
        "message": join_request.message,
        "url": settings.SITE_URL + reverse("clubs:detail", args=[club.slug]),
    }
    return _send(list(managers), "emails/club_request", context)


def _send(users: list[User], template: str, context: dict) -> int:
    """One email per user, in their language; how many were sent."""
    sent = 0
    for user in users:
        if not user.email or user.notify == Notify.NEVER:
            continue
        with translation.override(user.language):
            context = {**context, "user": user}
            subject, text, html = render_email(template, context)
        message = EmailMultiAlternatives(subject=subject, body=text, to=[user.email])
        message.attach_alternative(html, "text/html")
        message.send()
        sent += 1
    return sent
