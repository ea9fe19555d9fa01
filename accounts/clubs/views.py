"""Club pages: the list of clubs (the user's first, with their pending invitations), a
club's page, and the club actions (POST only, logged in).

Anyone may look at the list and at a club's public part (name, description, member
count, tournaments); its members, tables and leaderboard are for its members (and the
superusers), its pending requests and invitations for those who manage it.

Views only parse, call ``accounts.clubs.service`` and render. Every form works as a plain POST
(then a redirect with a message) and with htmx, which gets the page's fragment back
(``list.html#clubs`` or ``detail.html#club``) with a notice. The hidden ``page`` field
says which page the form was on. A refused action answers its status (403, 409, 422)
with its message and changes nothing; what the user may not know of is a 404.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.clubs import service as clubs
from accounts.clubs.forms import ClubInviteForm, JoinRequestForm, RoleForm
from accounts.clubs.service import ClubError
from accounts.models import (
    Club,
    ClubInvitation,
    ClubRole,
    JoinRequest,
    Membership,
    RequestStatus,
    User,
)
from belote_site import htmx
from games.ratings.service import club_leaderboard
from games.tables.models import Seat, Table

LIST = "list"
DETAIL = "detail"
ROLE_ORDER = {ClubRole.OWNER: 0, ClubRole.ORGANISER: 1, ClubRole.MEMBER: 2}
RECENT_FINISHED = 10  # finished tables shown on a club's page


def club_list(request: HttpRequest) -> HttpResponse:
    """Every club, the user's own first; their pending invitations on top."""
    template = "accounts/clubs/list.html#clubs" if request.htmx else "accounts/clubs/list.html"
    return render(request, template, _list_context(request))


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    template = "accounts/clubs/detail.html#club" if request.htmx else "accounts/clubs/detail.html"
    return render(request, template, _detail_context(request, club))


# ---------------------------------------------------------------------------------------
# Actions (POST only)


@login_required
@require_POST
def club_invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    page = _page(request, club)
    form = ClubInviteForm(request.POST)
    not_sent = _("L'invitation n'a pas été envoyée.")
    if not form.is_valid():
        return htmx.refused(request, page, not_sent, 422, invite_form=form)
    try:
        invitation = clubs.invite(
            club=club, by=request.user, username=form.cleaned_data["username"]
        )
    except ClubError as refused:
        if refused.status == 403:
            return htmx.refused(request, page, refused.message, 403)
        # The reason is shown on the field; the notice says that nothing was sent.
        form.add_error("username", refused.message)
        return htmx.refused(
            request, _page(request, club), not_sent, refused.status, invite_form=form
        )
    text = _("Invitation au club envoyée à %(name)s.") % {"name": invitation.user}
    return htmx.done(request, page, text)


@login_required
@require_POST
def invitation_withdraw(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        lambda club, data: clubs.withdraw_invitation(
            invitation=_invitation(slug, invitation_id), by=request.user
        ),
        _("L'invitation est retirée."),
    )


@login_required
@require_POST
def invitation_accept(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        lambda club, data: clubs.accept_invitation(
            invitation=_invitation(slug, invitation_id), by=request.user
        ),
        _("Bienvenue au club !"),
    )


@login_required
@require_POST
def invitation_decline(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        lambda club, data: clubs.decline_invitation(
            invitation=_invitation(slug, invitation_id), by=request.user
        ),
        _("Vous avez refusé l'invitation."),
    )


@login_required
@require_POST
def join_request(request: HttpRequest, slug: str) -> HttpResponse:
    return _act(
        request,
        slug,
        lambda club, data: clubs.request_to_join(
            club=club, by=request.user, message=data["message"]
        ),
        _("Votre demande est envoyée aux organisateurs du club."),
        form_class=JoinRequestForm,
    )


@login_required
@require_POST
def request_accept(request: HttpRequest, slug: str, request_id: int) -> HttpResponse:
    join_request = _join_request(slug, request_id)
    return _act(
        request,
        slug,
        lambda club, data: clubs.accept_request(join_request=join_request, by=request.user),
        _("%(name)s est maintenant membre du club.") % {"name": join_request.user},
    )


@login_required
@require_POST
def request_decline(request: HttpRequest, slug: str, request_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        lambda club, data: clubs.decline_request(
            join_request=_join_request(slug, request_id), by=request.user
        ),
        _("La demande est refusée."),
    )


@login_required
@require_POST
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    return _act(
        request,
        slug,
        lambda club, data: clubs.leave(club=club, by=request.user),
        _("Vous avez quitté le club."),
    )


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    member = get_object_or_404(User, pk=user_id)
    return _act(
        request,
        slug,
        lambda club, data: clubs.set_role(
            club=club, by=request.user, user=member, role=data["role"]
        ),
        _("Le rôle de %(name)s est changé.") % {"name": member},
        form_class=RoleForm,
    )


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    member = get_object_or_404(User, pk=user_id)
    return _act(
        request,
        slug,
        lambda club, data: clubs.remove_member(club=club, by=request.user, user=member),
        _("%(name)s ne fait plus partie du club.") % {"name": member},
    )


# ---------------------------------------------------------------------------------------
# Helpers


def _act(
    request: HttpRequest,
    slug: str,
    call: Callable[[Club, dict], object],
    success: str,
    *,
    form_class: type | None = None,
) -> HttpResponse:
    """Validate the form, call ``accounts.clubs.service`` with the club, answer with the page."""
    club = get_object_or_404(Club, slug=slug)
    return htmx.act(
        request,
        _page(request, club),
        lambda data: call(club, data),
        success,
        refusal=ClubError,
        form_class=form_class,
    )


def _page(request: HttpRequest, club: Club) -> htmx.Page:
    """The page the form was on (the hidden ``page`` field): the list or the club's page."""
    if request.POST.get("page") == LIST:
        return htmx.Page(
            "accounts/clubs/list.html",
            "clubs",
            lambda **extra: _list_context(request, **extra),
            reverse("clubs:list"),
        )

    def context(**extra) -> dict:
        club.refresh_from_db()
        return _detail_context(request, club, **extra)

    url = reverse("clubs:detail", args=[club.slug])
    return htmx.Page("accounts/clubs/detail.html", "club", context, url)


def _invitation(slug: str, invitation_id: int) -> ClubInvitation:
    return get_object_or_404(
        ClubInvitation.objects.select_related("user"), pk=invitation_id, club__slug=slug
    )


def _join_request(slug: str, request_id: int) -> JoinRequest:
    return get_object_or_404(
        JoinRequest.objects.select_related("user"), pk=request_id, club__slug=slug
    )


# ---------------------------------------------------------------------------------------
# Page contents


def _list_context(request: HttpRequest, **extra) -> dict:
    user = request.user
    all_clubs = list(Club.objects.annotate(member_count=Count("memberships")).order_by("name"))
    roles: dict[int, Membership] = {}
    invitations: list[ClubInvitation] = []
    requested: set[int] = set()
    if user.is_authenticated:
        roles = {m.club_id: m for m in Membership.objects.filter(user=user)}
        invitations = list(
            ClubInvitation.objects.filter(user=user, status=RequestStatus.PENDING)
            .select_related("club", "invited_by")
            .order_by("-created_at")
        )
        requested = set(
            JoinRequest.objects.filter(user=user, status=RequestStatus.PENDING).values_list(
                "club_id", flat=True
            )
        )
    invited = {invitation.club_id for invitation in invitations}
    mine = [(club, roles[club.pk]) for club in all_clubs if club.pk in roles]
    others = [
        {
            "club": club,
            "requested": club.pk in requested,
            "invited": club.pk in invited,
            "can_request": club.accepts_requests
            and club.pk not in requested
            and club.pk not in invited,
        }
        for club in all_clubs
        if club.pk not in roles
    ]
    context = {
        "my_clubs": mine,
        "other_clubs": others,
        "invitations": invitations,
        "notice": None,
        "page": LIST,
    }
    context.update(extra)
    return context


def _detail_context(request: HttpRequest, club: Club, **extra) -> dict:
    user = request.user
    membership = clubs.membership_of(user, club)
    managing = clubs.manages(user, club)
    insider = membership is not None or managing
    own = {"user": user, "status": RequestStatus.PENDING} if user.is_authenticated else None
    invitation = club.invitations.filter(**own).first() if own else None
    pending_request = club.join_requests.filter(**own).first() if own else None
    context = {
        "club": club,
        "membership": membership,
        "managing": managing,
        "is_owner": clubs.is_owner(user, club),
        "insider": insider,
        "member_count": club.memberships.count(),
        "tournaments": list(club.tournaments.order_by("-created_at")),
        "my_invitation": invitation,
        "my_request": pending_request,
        "can_request": membership is None
        and club.accepts_requests
        and invitation is None
        and pending_request is None,
        "request_form": JoinRequestForm(),
        "invite_form": ClubInviteForm(),
        "role_choices": ClubRole.choices,
        "notice": None,
        "page": DETAIL,
    }
    if insider:
        members = list(club.memberships.select_related("user"))
        members.sort(key=lambda m: (ROLE_ORDER[m.role], m.user.username.lower()))
        context["members"] = members
        context.update(_club_tables(club))
        context["leaderboard"] = club_leaderboard(club)
    if managing:
        context["join_requests"] = list(
            club.join_requests.filter(status=RequestStatus.PENDING)
            .select_related("user")
            .order_by("created_at")
        )
        context["pending_invitations"] = list(
            club.invitations.filter(status=RequestStatus.PENDING)
            .select_related("user", "invited_by")
            .order_by("created_at")
        )
    context.update(extra)
    return context


def _club_tables(club: Club) -> dict:
    """The club's tables in the lobby (with their free seats), in play, and the last
    finished ones."""
    tables = (
        club.tables.select_related("created_by")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("user").order_by("position"))
        )
        .annotate(free=Count("seats", filter=Q(seats__user__isnull=True, seats__bot_level="")))
    )
    return {
        "lobby_tables": list(tables.filter(status=Table.Status.LOBBY).order_by("-created_at")),
        "playing_tables": list(tables.filter(status=Table.Status.PLAYING).order_by("-updated_at")),
        "finished_tables": list(
            tables.filter(status__in=[Table.Status.FINISHED, Table.Status.ABANDONED]).order_by(
                "-updated_at"
            )[:RECENT_FINISHED]
        ),
        "new_table_url": f"{reverse('games:create')}?club={club.pk}",
    }
