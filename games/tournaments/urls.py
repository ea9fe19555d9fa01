"""URLs of the tournaments, under /tournois/."""

from django.urls import path

from games.tournaments import views as tournament_views

app_name = "tournaments"

urlpatterns = [
    path("<int:tournament_id>/", tournament_views.tournament_detail, name="detail"),
    path(
        "<int:tournament_id>/enregistrements.zip",
        tournament_views.tournament_records,
        name="records",
    ),
    path("<int:tournament_id>/tableau/", tournament_views.tournament_bracket, name="bracket"),
    path("<int:tournament_id>/inscription/", tournament_views.tournament_register, name="register"),
    path("<int:tournament_id>/retrait/", tournament_views.tournament_withdraw, name="withdraw"),
]
