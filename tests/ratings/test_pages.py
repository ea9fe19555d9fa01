"""Where ratings are shown: a club's leaderboard, the player's own profile, and the public
player page (/joueurs/<username>/), which shows results and names, never a hand."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import Club, Membership, Rating
from games import rules as engine
from games.ratings.service import club_leaderboard
from games.templatetags.ratings import rating, rating_change
from tests.factories import make_user, make_users
from tests.ratings.helpers import forfeit_game
from tests.tables.helpers import client_for

pytestmark = pytest.mark.django_db

NS, EW = 0, 1


@pytest.fixture
def club(db) -> Club:
    return Club.objects.create(name="Les As de Marseille", slug="as-marseille")


def join(club: Club, *users) -> None:
    for user in users:
        Membership.objects.create(club=club, user=user)


def text(response) -> str:
    return " ".join(response.content.decode().split())


# ---------------------------------------------------------------------------------------
# The figures as shown


def test_figures_are_shown_with_one_decimal_in_the_page_language():
    assert rating(2.4304) == "2,4"
    assert rating(-0.04) == "0,0"
    assert rating_change(2.4304) == "+2,4"
    assert rating_change(-1.4981) == "\u22121,5"
    assert rating_change(0.01) == "0,0"


# ---------------------------------------------------------------------------------------
# The club leaderboard


def test_the_leaderboard_lists_the_rated_members_best_first(club):
    north, east, south, west = make_users(4)
    outsider_rated, member_unrated = make_user("paul"), make_user("zoe")
    forfeit_game([north, east, south, west], NS)
    forfeit_game([north, outsider_rated, south, *make_users(1)], NS)
    join(club, north, east, west, member_unrated)
    east.display_name = "Élodie"
    east.save()

    rows = club_leaderboard(club)

    assert [row.user for row in rows] == [north, east, west]
    assert [row.rank for row in rows] == [1, 2, 2]  # east and west share every result
    assert [row.games for row in rows] == [2, 1, 1]
    assert rows[1].name == "Élodie"
    assert rows[0].ordinal == Rating.objects.get(user=north).ordinal
    assert rows[0].ordinal > rows[1].ordinal


def test_the_leaderboard_table_has_a_caption_headers_and_links(club):
    players = make_users(4)
    forfeit_game(players, EW)
    join(club, *players)

    html = render_to_string("games/_leaderboard.html", {"leaderboard": club_leaderboard(club)})

    assert "<caption>Classement</caption>" in html
    assert html.count('<th scope="col">') == 4
    assert html.count('<th scope="row">') == 4
    for player in players:
        assert reverse("player", args=[player.username]) in html
    assert "Aucune partie classée" not in html


def test_the_leaderboard_of_a_club_without_rated_games_says_so(club):
    join(club, make_user())

    html = render_to_string("games/_leaderboard.html", {"leaderboard": club_leaderboard(club)})

    assert "Aucune partie classée pour l'instant." in html
    assert "<table" not in html


# ---------------------------------------------------------------------------------------
# The profile and the player page


def test_the_profile_shows_the_players_own_rating():
    players = make_users(4)
    forfeit_game(players, NS)
    mine = Rating.objects.get(user=players[0])

    page = text(client_for(players[0]).get(reverse("profile")))

    assert "Classement" in page
    assert rating(mine.ordinal) in page
    assert f"{rating(mine.mu)} ± {rating(mine.sigma)}" in page
    assert reverse("player", args=[players[0].username]) in page


def test_the_profile_of_a_player_without_rated_games():
    page = text(client_for(make_user()).get(reverse("profile")))

    assert "Aucune partie classée pour l'instant." in page


def test_the_player_page_shows_the_rating_and_the_last_rated_games():
    north, east, south, west = make_users(4)
    south.display_name = "Simone"
    south.save()
    game = forfeit_game([north, east, south, west], NS)
    north_rating = Rating.objects.get(user=north)
    change = north.rating_changes.get(game=game)
    gained = north_rating.ordinal - (change.mu_before - 3 * change.sigma_before)

    response = client_for(east).get(reverse("player", args=[north.username]))

    assert response.status_code == 200
    page = text(response)
    assert f"<h1>{north}</h1>" in page
    assert rating(north_rating.ordinal) in page
    assert f"{rating(north_rating.mu)} ± {rating(north_rating.sigma)}" in page
    assert "Gagnée" in page
    assert rating_change(gained) in page and rating_change(gained).startswith("+")
    assert reverse("player", args=[south.username]) in page and "Simone" in page
    assert reverse("player", args=[east.username]) in page
    assert reverse("player", args=[west.username]) in page
    # East sat at the table: the game links to it.
    assert reverse("games:table", args=[game.table_id]) in page


def test_the_player_page_links_a_table_only_for_those_who_may_see_it():
    players = make_users(4)
    game = forfeit_game(players, EW)
    outsider = make_user()

    page = text(client_for(outsider).get(reverse("player", args=[players[0].username])))

    assert "Perdue" in page
    assert reverse("games:table", args=[game.table_id]) not in page


def test_the_player_page_shows_no_card():
    players = make_users(4)
    game = forfeit_game(players, NS)
    deck = game.hands.get().deck

    body = client_for(players[1]).get(reverse("player", args=[players[0].username]))

    page = body.content.decode()
    assert deck not in page and 'class="card' not in page
    assert not [card for card in range(32) if engine.name_fr(card) in page]


def test_the_player_page_of_someone_without_rated_games():
    page = text(client_for(make_user()).get(reverse("player", args=[make_user("lea").username])))

    assert "<h1>lea</h1>" in page
    assert page.count("Aucune partie classée pour l'instant.") == 2


def test_the_player_page_of_an_unknown_username_is_a_404():
    response = client_for(make_user()).get(reverse("player", args=["personne"]))

    assert response.status_code == 404


def test_the_player_page_needs_a_login(client):
    user = make_user("marius")

    response = client.get(reverse("player", args=[user.username]))

    assert response.status_code == 302
    assert response.headers["location"].startswith(reverse("account_login"))
