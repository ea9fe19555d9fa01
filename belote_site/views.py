"""Site-wide pages that belong to no app: the home page and the icon.

The home page of a logged-in player gathers what is theirs from every concern, so this
module sits at the top of the layers with the URLs (pyproject.toml): the *Jouer
maintenant* buttons with the choices they will use, the tables where it is their turn
(refreshed by htmx every 30 seconds, the ``your-turn`` partial), their open invitations
(tables and clubs), a few open tables to join (games/tables/open_tables.py) and the
tournaments of their clubs. Each list is short and read in a
fixed number of queries.
"""

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import never_cache

from accounts.models import ClubInvitation, RequestStatus
from games.tables.models import BotLevel
from games.tables.open_tables import open_tables
from games.tables.quickplay import last_choices
from games.tables.selectors import invitation_rows, your_turn_rows
from games.tournaments.selectors import club_rounds

HOME_ROWS = 5  # at most this many rows in each list of the home page
HOME_OPEN_TABLES = 3  # the open tables to join: a taste of the list, which has the rest
YOUR_TURN = "home-your-turn"  # the id of the list the page's htmx poll refreshes


@never_cache
def home(request: HttpRequest) -> HttpResponse:
    polled = bool(request.htmx) and request.htmx.target == YOUR_TURN
    if not request.user.is_authenticated:
        # Logged out meanwhile (in another tab): the poll leaves the page as it is.
        return HttpResponse(status=204) if polled else render(request, "home.html")
    user = request.user
    your_turn = your_turn_rows(user, limit=HOME_ROWS)
    if polled:
        return render(request, "home.html#your-turn", {"your_turn": your_turn})
    choices = last_choices(user)
    context = {
        "choices": {
            "preset": choices.preset,
            "target": choices.target,
            "level_label": BotLevel(choices.bot_level).label,
        },
        "your_turn": your_turn,
        "table_invitations": invitation_rows(user, limit=HOME_ROWS),
        "club_invitations": list(
            ClubInvitation.objects.filter(user=user, status=RequestStatus.PENDING)
            .select_related("club")
            .order_by("-created_at")[:HOME_ROWS]
        ),
        "open_tables": open_tables(user, limit=HOME_OPEN_TABLES, joinable=True),
        "rounds": club_rounds(user, limit=HOME_ROWS),
    }
    return render(request, "home.html", context)


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for whatever the pages say: our SVG icon (its
    static name changes with its content, so the redirect is cached for a day only)."""
    response = HttpResponseRedirect(static("favicon.svg"))
    patch_cache_control(response, public=True, max_age=24 * 3600)
    return response
