"""URLs of the tables, under /tables/.

Every page of a table, its fragments and the answers of its forms may carry a player's
cards (the board, a finished hand's history) or the table's secret invitation link: they
are answered with ``Cache-Control: no-store`` (``never_cache``), so that neither a shared
cache nor the browser's keeps them, and a page left on a shared computer does not come
back from the cache after logging out.
"""

from django.urls import path
from django.views.decorators.cache import never_cache

from games.tables import chat_views, views

app_name = "games"


def table_path(route: str, view, name: str):
    return path(f"<int:table_id>/{route}", never_cache(view), name=name)


urlpatterns = [
    path("", views.table_list, name="list"),
    path("nouvelle/", views.table_create, name="create"),
    path("jouer-maintenant/", views.play_now, name="play_now"),
    path("entre-amis/", views.play_with_friends, name="play_with_friends"),
    path("ouvertes/", never_cache(views.open_table_list), name="open"),
    path("ouvertes/<int:table_id>/s-asseoir/", never_cache(views.open_table_sit), name="open_sit"),
    table_path("", views.table_detail, "table"),
    table_path("rejoindre/<slug:token>/", views.table_join, "join"),
    table_path("inviter/", views.table_invite, "invite"),
    table_path("lien/renouveler/", views.table_revoke_link, "revoke_link"),
    table_path("places/prendre/", views.table_take_seat, "take_seat"),
    table_path("places/quitter/", views.table_leave_seat, "leave_seat"),
    table_path("places/liberer/", views.table_release_seat, "release_seat"),
    table_path("places/echanger/", views.table_move_player, "move_player"),
    table_path("places/robot/", views.table_set_bot, "set_bot"),
    table_path("places/retirer-robot/", views.table_remove_bot, "remove_bot"),
    table_path("commencer/", views.table_start, "start"),
    table_path("spectateurs/", views.table_spectators, "spectators"),
    table_path("ouverte/", views.table_set_open, "set_open"),
    table_path("plateau/", views.table_board_fragment, "board"),
    table_path("discussion/", chat_views.table_chat, "chat"),
    table_path("discussion/envoyer/", chat_views.table_chat_send, "chat_send"),
    table_path("discussion/sourdine/", chat_views.table_chat_mute, "chat_mute"),
    table_path("discussion/reglages/", chat_views.table_chat_settings, "chat_settings"),
    table_path("jouer/", views.table_play, "play"),
    table_path("reprendre/", views.table_take_back, "take_back"),
    table_path("donnes/<int:game_number>/<int:hand_number>/", views.hand_history, "hand"),
    table_path(
        "donnes/<int:game_number>/<int:hand_number>/enregistrement.json",
        views.hand_record,
        "hand_record",
    ),
    table_path("parties/<int:game_number>/enregistrement.json", views.game_record, "game_record"),
]
