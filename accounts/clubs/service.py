"""Clubs: the only write path of memberships, invitations and join requests.

Every function checks, server-side, that the acting user may do what they ask, and
raises ``ClubError`` (a French message and an HTTP status) when not, before writing
anything. The club pages, the admin and the demo data call these functions; nothing else
writes memberships. Each write runs in one transaction with the club row locked, so two
organisers deciding at once, or a double click, cannot leave a club without an owner or
make someone a member twice.

Who may do what:

- an **owner** (responsable): everything, among it changing roles; the last owner of a
  club cannot leave it, be removed or lose the role;
- an **organiser**: invites players, decides join requests, removes plain members;
- a **member**: plays the club's tables and leaves when they like;
- a **superuser** acts as an owner of every club.

Only an owner (or a superuser) grants a role other than member, owner included.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import (
    MANAGING_ROLES,
    Club,
    ClubInvitation,
    ClubRole,
    JoinRequest,
    Membership,
    RequestStatus,
    user_named,
)
from belote_site.errors import ActionRefused


class ClubError(ActionRefused):
    """A refused club request: ``code``, a French ``message`` and an HTTP ``status``."""


# ---------------------------------------------------------------------------------------
# Who is who (reads; the admin of clubs and tournaments asks the same questions)


def _active(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def manages(user, club: Club) -> bool:
    """Whether ``user`` runs ``club``: a superuser, or one of its owners or organisers.
    The admin (clubs and tournaments) and the club page ask this one question."""
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    return club.memberships.filter(user=user, role__in=MANAGING_ROLES).exists()


def managed_clubs(user) -> QuerySet[Club]:
    """The clubs ``user`` runs: all of them for a superuser, none when logged out."""
    if not _active(user):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(
        memberships__user=user, memberships__role__in=MANAGING_ROLES
    ).distinct()


def member_clubs(user) -> QuerySet[Club]:
    """The clubs ``user`` belongs to, whatever the role (a superuser is no member)."""
    if not _active(user):
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user).distinct()


def membership_of(user, club: Club) -> Membership | None:
    if not _active(user):
        return None
    return Membership.objects.filter(club=club, user=user).first()


def is_owner(user, club: Club) -> bool:
    """An owner of ``club``, or a superuser (who acts as one)."""
    if not _active(user):
        return False
    return user.is_superuser or club.memberships.filter(user=user, role=ClubRole.OWNER).exists()


# ---------------------------------------------------------------------------------------
# Checks: they raise ClubError and write nothing (the admin's forms call them too)


def check_manager(*, club: Club, by) -> None:
    if not manages(by, club):
        raise ClubError(
            "not_organiser",
            _("Seuls les responsables et les organisateurs du club peuvent faire cela."),
            403,
        )


def check_grant(*, club: Club, by, role: str) -> None:
    """Whether ``by`` may give ``role`` to someone: a plain membership for any organiser,
    any other role (organiser, owner) only from an owner or a superuser."""
    if role not in ClubRole.values:
        raise ClubError("bad_role", _("Ce rôle n'existe pas."), 422)
    check_manager(club=club, by=by)
    if role != ClubRole.MEMBER and not is_owner(by, club):
        raise ClubError("not_owner", _("Seul un responsable du club peut attribuer ce rôle."), 403)


def check_role_change(*, club: Club, by, membership: Membership, role: str) -> None:
    """Changing a member's role is for owners; the last owner keeps the role."""
    if role not in ClubRole.values:
        raise ClubError("bad_role", _("Ce rôle n'existe pas."), 422)
    if not is_owner(by, club):
        raise ClubError("not_owner", _("Seul un responsable du club peut changer les rôles."), 403)
    if role != ClubRole.OWNER:
        _check_not_last_owner(club, membership)


def check_removal(*, club: Club, by, membership: Membership) -> None:
    """Owners remove anyone but the last owner; organisers remove plain members only."""
    if is_owner(by, club):
        _check_not_last_owner(club, membership)
        return
    check_manager(club=club, by=by)
    if membership.role != ClubRole.MEMBER:
        raise ClubError(
            "not_owner",
            _("Seul un responsable du club peut retirer un organisateur ou un responsable."),
            403,
        )


def _check_not_last_owner(club: Club, membership: Membership) -> None:
    if membership.role != ClubRole.OWNER:
        return
    others = club.memberships.filter(role=ClubRole.OWNER).exclude(pk=membership.pk)
    if not others.exists():
        raise ClubError(
            "last_owner",
            _("Le club doit garder un responsable : nommez-en un autre d'abord."),
            409,
        )


# ---------------------------------------------------------------------------------------
# Founding a club (the admin's superusers do it on its pages; this is for code: the demo)


@transaction.atomic
def found_club(*, name: str, slug: str, owner, description: str = "") -> Club:
    """A new club and its first owner. No check of rights: only trusted code calls it
    (people found clubs in the admin, where only a superuser may)."""
    club = Club.objects.create(name=name, slug=slug, description=description)
    Membership.objects.create(club=club, user=owner, role=ClubRole.OWNER)
    return club


# ---------------------------------------------------------------------------------------
# Invitations: an organiser invites, the invitee answers


@transaction.atomic
def invite(*, club: Club, by, username: str) -> ClubInvitation:
    """Invite a player by their username (organisers and owners)."""
    club = _lock(club)
    check_manager(club=club, by=by)
    username = (username or "").strip()
    invitee = user_named(username)
    if invitee is None:
        raise ClubError(
            "unknown_user",
            _("Aucun joueur ne s'appelle « %(name)s ».") % {"name": username},
            422,
        )
    if club.memberships.filter(user=invitee).exists():
        raise ClubError(
            "already_member",
            _("%(name)s est déjà membre du club.") % {"name": invitee},
            409,
        )
    if club.invitations.filter(user=invitee, status=RequestStatus.PENDING).exists():
        raise ClubError(
            "already_invited", _("%(name)s a déjà reçu une invitation.") % {"name": invitee}, 409
        )
    invitation = ClubInvitation.objects.create(club=club, user=invitee, invited_by=by)
    _mail_on_commit("invitation", invitation.pk)
    return invitation


@transaction.atomic
def accept_invitation(*, invitation: ClubInvitation, by) -> Membership:
    """The invitee joins the club. Accepting twice (a double click) changes nothing."""
    club, invitation = _own_invitation(invitation, by)
    if invitation.status == RequestStatus.DECLINED:
        raise ClubError("answered", _("Vous avez déjà refusé cette invitation."), 409)
    if invitation.status == RequestStatus.ACCEPTED:
        return _still_member(club, by)
    _answer(invitation, RequestStatus.ACCEPTED)
    return _join(club, by)


@transaction.atomic
def decline_invitation(*, invitation: ClubInvitation, by) -> ClubInvitation:
    """The invitee says no. Declining twice changes nothing."""
    _club, invitation = _own_invitation(invitation, by)
    if invitation.status == RequestStatus.ACCEPTED:
        raise ClubError("answered", _("Vous avez déjà accepté cette invitation."), 409)
    if invitation.status == RequestStatus.PENDING:
        _answer(invitation, RequestStatus.DECLINED)
    return invitation


@transaction.atomic
def withdraw_invitation(*, invitation: ClubInvitation, by) -> None:
    """An organiser takes back a pending invitation (nothing is left of it)."""
    club, invitation = _lock_with_club(ClubInvitation, invitation)
    check_manager(club=club, by=by)
    if invitation.status != RequestStatus.PENDING:
        raise ClubError("answered", _("Cette invitation a déjà reçu une réponse."), 409)
    invitation.delete()


def _own_invitation(invitation: ClubInvitation, by) -> tuple[Club, ClubInvitation]:
    """The locked club and invitation, if the invitation is ``by``'s; nobody else learns
    that it exists."""
    club, invitation = _lock_with_club(ClubInvitation, invitation)
    if not _active(by) or invitation.user_id != by.pk:
        raise ClubError("no_invitation", _("Cette invitation n'existe pas."), 404)
    return club, invitation


def _answer(invitation: ClubInvitation, status: str) -> None:
    invitation.status = status
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])


# ---------------------------------------------------------------------------------------
# Join requests: a player asks, an organiser decides


@transaction.atomic
def request_to_join(*, club: Club, by, message: str = "") -> JoinRequest:
    """Ask to join a club that takes requests. Asking again while the first request is
    pending returns it (its message unchanged)."""
    club = _lock(club)
    if not _active(by):
        raise ClubError("login", _("Connectez-vous pour demander à rejoindre un club."), 403)
    if club.memberships.filter(user=by).exists():
        raise ClubError("already_member", _("Vous êtes déjà membre de ce club."), 409)
    pending = club.join_requests.filter(user=by, status=RequestStatus.PENDING).first()
    if pending is not None:
        return pending
    if not club.accepts_requests:
        raise ClubError(
            "no_requests", _("Ce club n'accepte pas de demandes : il y faut une invitation."), 403
        )
    if club.invitations.filter(user=by, status=RequestStatus.PENDING).exists():
        raise ClubError(
            "invited", _("Une invitation de ce club vous attend déjà : acceptez-la."), 409
        )
    message = (message or "").strip()
    if len(message) > JoinRequest._meta.get_field("message").max_length:
        raise ClubError("message_too_long", _("Votre message est trop long."), 422)
    join_request = JoinRequest.objects.create(club=club, user=by, message=message)
    _mail_on_commit("request", join_request.pk)
    return join_request


@transaction.atomic
def accept_request(*, join_request: JoinRequest, by) -> Membership:
    """An organiser lets the player in. Accepting twice changes nothing."""
    club, join_request = _decidable(join_request, by)
    if join_request.status == RequestStatus.DECLINED:
        raise ClubError("decided", _("Cette demande a déjà été refusée."), 409)
    if join_request.status == RequestStatus.ACCEPTED:
        return _still_member(club, join_request.user)
    _decide(join_request, RequestStatus.ACCEPTED, by)
    return _join(club, join_request.user)


@transaction.atomic
def decline_request(*, join_request: JoinRequest, by) -> JoinRequest:
    """An organiser says no. Declining twice changes nothing."""
    _club, join_request = _decidable(join_request, by)
    if join_request.status == RequestStatus.ACCEPTED:
        raise ClubError("decided", _("Cette demande a déjà été acceptée."), 409)
    if join_request.status == RequestStatus.PENDING:
        _decide(join_request, RequestStatus.DECLINED, by)
    return join_request


def _decidable(join_request: JoinRequest, by) -> tuple[Club, JoinRequest]:
    club, join_request = _lock_with_club(JoinRequest, join_request)
    check_manager(club=club, by=by)
    return club, join_request


def _decide(join_request: JoinRequest, status: str, by) -> None:
    join_request.status = status
    join_request.decided_by = by
    join_request.decided_at = timezone.now()
    join_request.save(update_fields=["status", "decided_by", "decided_at"])


# ---------------------------------------------------------------------------------------
# Members


@transaction.atomic
def add_member(*, club: Club, by, user, role: str = ClubRole.MEMBER) -> Membership:
    """Make ``user`` a member at once, without asking them (the admin's membership
    inline: an organiser adding a player they know)."""
    club = _lock(club)
    check_grant(club=club, by=by, role=role)
    if club.memberships.filter(user=user).exists():
        raise ClubError(
            "already_member", _("%(name)s est déjà membre du club.") % {"name": user}, 409
        )
    return _join(club, user, role)


@transaction.atomic
def set_role(*, club: Club, by, user, role: str) -> Membership:
    """Change a member's role (owners only). The same role again changes nothing."""
    club = _lock(club)
    if not is_owner(by, club):  # before saying anything about ``user``
        raise ClubError("not_owner", _("Seul un responsable du club peut changer les rôles."), 403)
    membership = _member(club, user)
    check_role_change(club=club, by=by, membership=membership, role=role)
    if membership.role != role:
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(*, club: Club, by, user) -> None:
    """Take a member out of the club. Their seats at club tables stay theirs; tables
    they only saw as a member (in the lobby) disappear for them."""
    club = _lock(club)
    check_manager(club=club, by=by)  # before saying anything about ``user``
    membership = _member(club, user)
    check_removal(club=club, by=by, membership=membership)
    membership.delete()


@transaction.atomic
def leave(*, club: Club, by) -> None:
    """Leave a club; its last owner must hand the role over first."""
    club = _lock(club)
    membership = club.memberships.filter(user=by).first() if _active(by) else None
    if membership is None:
        raise ClubError("not_member", _("Vous n'êtes pas membre de ce club."), 409)
    _check_not_last_owner(club, membership)
    membership.delete()


def _member(club: Club, user) -> Membership:
    membership = club.memberships.filter(user=user).first()
    if membership is None:
        raise ClubError("not_member", _("%(name)s n'est pas membre du club.") % {"name": user}, 409)
    return membership


def _join(club: Club, user, role: str = ClubRole.MEMBER) -> Membership:
    """The new membership; whatever else was pending between them is settled with it."""
    membership, _created = Membership.objects.get_or_create(
        club=club, user=user, defaults={"role": role}
    )
    now = timezone.now()
    club.invitations.filter(user=user, status=RequestStatus.PENDING).update(
        status=RequestStatus.ACCEPTED, answered_at=now
    )
    club.join_requests.filter(user=user, status=RequestStatus.PENDING).update(
        status=RequestStatus.ACCEPTED, decided_at=now
    )
    return membership


# ---------------------------------------------------------------------------------------
# Helpers


def _lock(club: Club) -> Club:
    """The club row, locked: its membership changes happen one at a time."""
    try:
        return Club.objects.select_for_update().get(pk=club.pk)
    except Club.DoesNotExist as missing:
        raise ClubError("no_club", _("Ce club n'existe pas."), 404) from missing


def _lock_with_club(model, row):
    """The club of an invitation or join request, then the row itself, both locked.

    The club always comes first, as in every function here: two writers never wait for
    each other's rows in opposite orders.
    """
    club_id = model.objects.filter(pk=row.pk).values_list("club_id", flat=True).first()
    if club_id is None:
        raise ClubError("gone", _("Cette demande n'existe plus."), 404)
    club = _lock(Club(pk=club_id))
    locked = model.objects.select_for_update().filter(pk=row.pk).first()
    if locked is None:
        raise ClubError("gone", _("Cette demande n'existe plus."), 404)
    return club, locked


def _still_member(club: Club, user) -> Membership:
    """A second "accept" of what was already accepted: the membership it gave, if the
    player has not left since (an old answer does not let them back in)."""
    membership = club.memberships.filter(user=user).first()
    if membership is None:
        raise ClubError("answered", _("Cette réponse a déjà été donnée."), 409)
    return membership


def _mail_on_commit(kind: str, pk: int) -> None:
    from accounts.clubs.mail import club_mail_task

    transaction.on_commit(lambda: club_mail_task.enqueue(kind=kind, pk=pk))
