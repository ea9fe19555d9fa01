"""What the table pages show, worked out once per answer: the table the user may open
(``visible_table``, ``watchable_table``: a 404 for anyone else), the context of the table
page (``table_context``: every fact the template reads, each computed once) and the page
of the invitation link (``join_page``). games/tables/views.py parses the requests and
calls the services; it renders with these."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from games.tables import lobby, presence
from games.tables.access import may_see, visible_tables
from games.tables.board import SUMMARY_SEEN, table_board
from games.tables.catalogue import PRESET_LABELS
from games.tables.forms import InviteForm
from games.tables.models import SEAT_CHOICES, BotLevel, Table
from games.tables.prepared import Prepared
from games.tables.seats import table_seats

MAX_ROW_ID = 2**63 - 1  # a row id (BigAutoField)


def row_id(text: str) -> int | None:
    """A row id given in a query string (``?vu=``, ``?after=``), or None for anything
    else: ``str.isdigit`` also takes "²", which ``int`` refuses, 5,000 digits are past
    ``int``'s limit, and an integer past the column's range is no row's."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_ROW_ID)):
        return None
    value = int(text)
    return value if value <= MAX_ROW_ID else None


def visible_table(request: HttpRequest, table_id: int) -> Table:
    """The table, if the user may see it; otherwise it does not exist for them."""
    return get_object_or_404(
        visible_tables(request.user).select_related("created_by", "current_hand__game"),
        pk=table_id,
    )


def watchable_table(request: HttpRequest, table_id: int) -> Table:
    """The table, if the user may see it (``access.may_see``: never a stranger, whatever
    ``allow_spectators`` says; a spectator came by the invitation link); else a 404.

    Its seats come with it (``table_seats``), which the check and the page then read.
    """
    table = get_object_or_404(
        Table.objects.select_related("created_by", "current_hand__game"), pk=table_id
    )
    table_seats(table)
    if not may_see(request.user, table):
        raise Http404
    return table


# What a move's POST reads of the table before the service reads it again under its lock:
# who may see it (``access.may_see``, the seats kept per seats version) and whether the
# game has started. No joins, none of the columns the page shows.
ACCESS_FIELDS = (
    "status",
    "created_by",
    "club",
    "is_open",
    "current_hand",
    "seats_version",
    "created_at",
)


def table_to_act_at(request: HttpRequest, table_id: int) -> Table:
    """The table, if the user may see it, with only what a move's POST checks before the
    service (``ACCESS_FIELDS``); else a 404, as ``watchable_table``."""
    found = _TO_ACT_AT(table_id)
    if not found or not may_see(request.user, found[0]):
        raise Http404
    return found[0]


# Compiled once (games/tables/prepared.py): every move's POST reads it.
_TO_ACT_AT = Prepared(lambda key: Table.objects.only(*ACCESS_FIELDS).filter(pk=key))


def closed_reason(table: Table) -> str:
    """The reason logged with the abandon of a table closed before its game began."""
    action = table.actions.filter(kind="abandon").order_by("-seq").first()
    reason = action.payload.get("reason") if action is not None else None
    return reason if isinstance(reason, str) else "closed"


def join_page(request: HttpRequest, table: Table, status: int = 200) -> HttpResponse:
    """The page of the invitation link: the table and "Rejoindre la table" (or "Regarder
    la partie" once started, spectators allowed); once the game has started without
    spectators, only that it has, nothing of the table."""
    if table.status != Table.Status.LOBBY and not table.allow_spectators:
        return render(request, "games/join.html", {"started": True}, status=status)
    context = {"table": table, "preset_label": PRESET_LABELS[table.preset]}
    return render(request, "games/join.html", context, status=status)


# What static/js/table.js must know of the server: the heartbeat of an open page and the
# close codes that end the socket for good (templates/games/table/script.html).
TABLE_SOCKET = {
    "heartbeat_ms": presence.HEARTBEAT * 1000,
    "not_logged_in": presence.NOT_LOGGED_IN,
    "not_allowed": presence.NOT_ALLOWED,
    "too_many": presence.TOO_MANY_SOCKETS,
}


def table_context(request: HttpRequest, table: Table, **extra) -> dict:
    user = request.user
    seats = table_seats(table)
    my_seat = next((s for s in seats if s.user_id == user.pk), None)
    is_creator = table.created_by_id == user.pk
    in_lobby = table.status == Table.Status.LOBBY
    free = [s for s in seats if s.is_free]
    anyone_seated = any(s.user_id is not None for s in seats)
    turn_seat = seats[table.turn] if table.turn is not None else None
    context = {
        "table": table,
        "preset_label": PRESET_LABELS[table.preset],
        "rules": table.rules,
        "socket": TABLE_SOCKET,
        "seats": seats,
        "my_seat": my_seat,
        "in_lobby": in_lobby,
        "can_manage": is_creator and in_lobby,
        "free_count": len(free),
        "anyone_seated": anyone_seated,
        # What lobby.start accepts: the button shows only then (else what is missing).
        "can_start": in_lobby and anyone_seated and (not free or table.fill_with_bots),
        "turn_seat": turn_seat,
        "deadline": table.deadline,
        "seat_choices": SEAT_CHOICES,
        "bot_levels": BotLevel.choices,
        "invite_form": InviteForm(),
        "notice": None,
        "board": None,
    }
    if table.current_hand_id is not None:
        board = table_board(table, user)
        board.hide_summary(request.session.get(SUMMARY_SEEN.format(table.pk)))
        context["board"] = board
    if is_creator and (in_lobby or table.allow_spectators):
        # In the lobby the link invites players; once started, spectators (if allowed).
        context["invite_url"] = request.build_absolute_uri(
            reverse("games:join", args=[table.pk, table.invite_token])
        )
    if table.status == Table.Status.ABANDONED and table.current_hand_id is None:
        # Closed before the start: why (the sweep's ``abandon`` of an open table, or other).
        context["closed_before_start"] = closed_reason(table)
        context["waited_days"] = settings.OPEN_LOBBY_CLOSE_AFTER_SECONDS // 86400
    if in_lobby and my_seat is None and not is_creator:
        # The creator freed their seat: they are told, on the page that refetched.
        context["seat_released"] = lobby.released(table, user)
    if is_creator and in_lobby:
        context["invitations"] = list(
            table.invitations.select_related("user").order_by("created_at")
        )
        context["seated_ids"] = {s.user_id for s in seats if s.user_id is not None}
    context.update(extra)
    return context
