"""URLs of the tables, under /tables/."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.table_list, name="list"),
    path("nouvelle/", views.table_create, name="create"),
    path("<int:table_id>/", views.table_detail, name="table"),
    path("<int:table_id>/rejoindre/<slug:token>/", views.table_join, name="join"),
    path("<int:table_id>/inviter/", views.table_invite, name="invite"),
    path("<int:table_id>/lien/renouveler/", views.table_revoke_link, name="revoke_link"),
    path("<int:table_id>/places/prendre/", views.table_take_seat, name="take_seat"),
    path("<int:table_id>/places/quitter/", views.table_leave_seat, name="leave_seat"),
    path("<int:table_id>/places/echanger/", views.table_move_player, name="move_player"),
    path("<int:table_id>/places/robot/", views.table_set_bot, name="set_bot"),
    path("<int:table_id>/places/retirer-robot/", views.table_remove_bot, name="remove_bot"),
    path("<int:table_id>/commencer/", views.table_start, name="start"),
    path("<int:table_id>/spectateurs/", views.table_spectators, name="spectators"),
    path("<int:table_id>/plateau/", views.table_board_fragment, name="board"),
    path("<int:table_id>/jouer/", views.table_play, name="play"),
    path("<int:table_id>/reprendre/", views.table_take_back, name="take_back"),
    path(
        "<int:table_id>/donnes/<int:game_number>/<int:hand_number>/",
        views.hand_history,
        name="hand",
    ),
]
