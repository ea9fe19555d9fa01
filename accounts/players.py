"""A player's public page (/joueurs/<username>/): their rating and their last rated games.

Any logged-in player may open it. It shows results and names only, never a card of any
hand; a game links to its table only for a viewer who may see that table
(``games.tables.access.may_see``), so the page reveals no private table to anyone else.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts.models import Rating, User
from games.ratings.service import recent_games
from games.tables.access import may_see

RECENT_GAMES = 10


@login_required
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    games = recent_games(player, limit=RECENT_GAMES)
    # One check per distinct table: a rematch leaves several games at one table.
    tables = {row.table.pk: row.table for row in games}
    visible = {pk for pk, table in tables.items() if may_see(request.user, table)}
    return render(
        request,
        "accounts/player.html",
        {
            "player": player,
            "rating": Rating.objects.filter(user=player).first(),
            "rated_games": games,
            "visible_tables": visible,
        },
    )
