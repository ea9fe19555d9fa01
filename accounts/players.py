"""A player's public page (/joueurs/<username>/): their rating, their statistics (all
games, or one preset's with ``?regles=<preset>``) and their last rated games.

Any logged-in player may open it. It shows results, figures and names only, never a card
of any hand; a game links to its table only for a viewer who may see that table
(``games.tables.access.may_see``), so the page reveals no private table to anyone else.
The statistics (``games.tables.stats``) count every game, private tables included, but
name no table and no opponent: only partners, by their public names.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts.models import Rating, User
from games.ratings.service import recent_games
from games.tables.access import may_see
from games.tables.models import PRESET_LABELS
from games.tables.stats import player_statistics

RECENT_GAMES = 10


@login_required
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    games = recent_games(player, limit=RECENT_GAMES)
    # One check per distinct table: a rematch leaves several games at one table.
    tables = {row.table.pk: row.table for row in games}
    visible = {pk for pk, table in tables.items() if may_see(request.user, table)}
    statistics = player_statistics(player)
    # An unknown preset shows all games, as a page number out of range shows the first.
    preset = request.GET.get("regles")
    if preset not in PRESET_LABELS:
        preset = None
    return render(
        request,
        "accounts/player.html",
        {
            "player": player,
            "rating": Rating.objects.filter(user=player).first(),
            "rated_games": games,
            "visible_tables": visible,
            "stats": statistics.of(preset),
            "preset": preset,
            "preset_label": PRESET_LABELS.get(preset),
            "preset_choices": [(name, PRESET_LABELS[name]) for name in statistics.presets],
        },
    )
