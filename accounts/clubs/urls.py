"""URLs of the clubs, under /clubs/."""

from django.urls import path

from accounts.clubs import views as club_views

app_name = "clubs"

urlpatterns = [
    path("", club_views.club_list, name="list"),
    path("<slug:slug>/", club_views.club_detail, name="detail"),
    path("<slug:slug>/inviter/", club_views.club_invite, name="invite"),
    path(
        "<slug:slug>/invitations/<int:invitation_id>/accepter/",
        club_views.invitation_accept,
        name="accept_invitation",
    ),
    path(
        "<slug:slug>/invitations/<int:invitation_id>/refuser/",
        club_views.invitation_decline,
        name="decline_invitation",
    ),
    path(
        "<slug:slug>/invitations/<int:invitation_id>/retirer/",
        club_views.invitation_withdraw,
        name="withdraw_invitation",
    ),
    path("<slug:slug>/demander/", club_views.join_request, name="request"),
    path(
        "<slug:slug>/demandes/<int:request_id>/accepter/",
        club_views.request_accept,
        name="accept_request",
    ),
    path(
        "<slug:slug>/demandes/<int:request_id>/refuser/",
        club_views.request_decline,
        name="decline_request",
    ),
    path("<slug:slug>/quitter/", club_views.club_leave, name="leave"),
    path("<slug:slug>/membres/<int:user_id>/role/", club_views.member_role, name="set_role"),
    path(
        "<slug:slug>/membres/<int:user_id>/retirer/", club_views.member_remove, name="remove_member"
    ),
]
