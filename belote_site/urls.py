"""Root URLs: the home page, accounts (ours and allauth's) under /comptes/, the tables
under /tables/, clubs, tournaments and player pages, the
verification of game records (/verifier/), the admin, i18n.

The language switch is our wrapper of Django's set_language (it also saves a logged-in
player's preference), at the URL and name django.conf.urls.i18n would give it.
"""

from django.contrib import admin
from django.urls import include, path

from accounts import players
from accounts import views as accounts_views
from belote_site import views
from games.notifications import views as notification_views
from games.tables import views as table_views

# A request Django refuses (too many fields, an unknown host): the site's 400 page.
handler400 = "belote_site.middleware.bad_request"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("comptes/", include("accounts.urls")),
    path("comptes/", include("allauth.urls")),
    path("tables/", include("games.tables.urls")),
    path("clubs/", include("accounts.clubs.urls")),
    path("tournois/", include("games.tournaments.urls")),
    path("verifier/", table_views.verify_records, name="verify"),
    path("joueurs/<str:username>/", players.player_profile, name="player"),
    path("notifications/", notification_views.notification_list, name="notifications"),
    path("notifications/lues/", notification_views.notifications_read, name="notifications_read"),
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
]
