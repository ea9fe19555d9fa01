"""Pages of the tables: the dashboard, the new-table form, a table, its lobby actions,
its board and moves, and the replay of finished hands.

Views only parse, call ``games.lobby`` or ``games.service`` and render (the board is built
by ``games.board`` from the engine's view of the user's seat). Every form works as a plain
POST (then a redirect with a message) and with htmx, which gets the template's fragment
back (``template.html#partial``). A table the user may not see does not exist for them
(404); a refused action answers its status (403, 422, 409) with its message and changes
nothing. Spectators (``Table.allow_spectators``: whoever opens the invitation link once
the game has started) see the table and its board without any hand; they cannot play.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import live, lobby, notifications, service, timing
from games.board import SUMMARY_SEEN, hand_replay, may_watch, table_board, table_seats
from games.forms import (
    PRESET_LABELS,
    BotForm,
    InviteForm,
    MoveForm,
    PlayForm,
    SeatForm,
    SpectatorsForm,
    TableForm,
)
from games.models import SEAT_CHOICES, BotLevel, Hand, Table
from games.selectors import (
    Section,
    can_watch,
    dashboard,
    visible_tables,
)
from games.service import ServiceError

REMATCH = "rematch"  # the action of the "Revanche" button, handled by games.lobby
MAX_ID_DIGITS = len(str(2**63 - 1))  # a row id (BigAutoField) has at most 19 digits

SECTION_TITLES = {
    Section.YOUR_TURN: gettext_lazy("À vous de jouer"),
    Section.PLAYING: gettext_lazy("En cours"),
    Section.LOBBY: gettext_lazy("En attente de joueurs"),
    Section.FINISHED: gettext_lazy("Terminées"),
}


@login_required
def table_list(request: HttpRequest) -> HttpResponse:
    """Mes tables: the user's tables grouped, the ones waiting for their move first."""
    rows = dashboard(request.user)
    groups = [
        {"key": key, "title": SECTION_TITLES[key], "rows": [r for r in rows if r.section == key]}
        for key in Section.ORDER
    ]
    context = {
        "rows": rows,
        "groups": [group for group in groups if group["rows"]],
        "your_turn_count": sum(row.your_turn for row in rows),
    }
    return render(request, "games/dashboard.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def table_create(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        # ?club=<id>: the club page's "new club table" link chooses the club.
        form = TableForm(
            preset=request.GET.get("preset"),
            user=request.user,
            initial={"club": request.GET.get("club")},
        )
        # htmx asks for the options of another preset when the select changes.
        template = "games/create.html#options" if request.htmx else "games/create.html"
        return render(request, template, {"form": form})
    if "show_options" in request.POST:
        # Without JavaScript, "Afficher les options de ces règles" posts the form: the page
        # comes back with the chosen rules' options and everything entered so far, nothing
        # checked yet (a GET would put the CSRF token in the address).
        form = TableForm.entered(request.POST, user=request.user)
        return render(request, "games/create.html", {"form": form})
    form = TableForm(request.POST, user=request.user)
    error = None
    if form.is_valid():
        try:
            table = lobby.create_private_table(created_by=request.user, **form.table_kwargs())
        except ServiceError as refused:
            error = refused
        else:
            messages.success(request, _("Votre table est prête : invitez vos partenaires."))
            return _redirect(request, reverse("games:table", args=[table.pk]))
    if error is not None:
        form.add_error(None, error.message)
    template = "games/create.html#form" if request.htmx else "games/create.html"
    status = error.status if error is not None else 422
    return render(request, template, {"form": form}, status=status)


@login_required
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _watchable_table(request, table_id)
    _note_dismissed_summary(request, table)
    notifications.table_seen(request.user.pk, table.pk)
    template = "games/table.html#table" if request.htmx else "games/table.html"
    return render(request, template, _table_context(request, table))


@login_required
def table_board_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    """The board alone: what the page refetches when its socket says a version without
    the board (after a reconnect, say), and the "Donne suivante" link."""
    table = _watchable_table(request, table_id)
    if table.current_hand_id is None:
        raise Http404
    _note_dismissed_summary(request, table)
    return render(request, "games/table.html#board", _table_context(request, table))


@login_required
@require_POST
def table_play(request: HttpRequest, table_id: int) -> HttpResponse:
    """One move (or the rematch) at the version the player saw.

    htmx gets the fresh board: 200, or the refusal's status with its message (422 an
    illegal move, 409 a stale version: the board as it is now, nothing applied). Without
    JavaScript: back to the table page with a message.
    """
    table = _watchable_table(request, table_id)
    if table.current_hand_id is None:
        # Still in the lobby: nothing to play yet (a page left open, a forged request).
        return _board_answer(request, table, _("La partie n'a pas commencé."), 409)
    form = PlayForm(request.POST)
    if not form.is_valid():
        return _board_answer(request, table, _("Requête invalide."), 422)
    action, version = form.cleaned_data["action"], form.cleaned_data["version"]
    try:
        if action == REMATCH:
            outcome = lobby.rematch(table_id=table.pk, by=request.user, expected_version=version)
        else:
            outcome = service.submit(
                table_id=table.pk, actor=request.user, action=action, expected_version=version
            )
    except ServiceError as refused:
        if refused.status == 404:
            raise Http404 from refused
        return _board_answer(request, table, refused.message, refused.status)
    if not outcome.applied:
        stale = _("La partie a avancé entre-temps : voici la table à jour. Rien n'a été joué.")
        return _board_answer(request, table, stale, 409, level="warning")
    done = _("La revanche commence !") if action == REMATCH else _("C'est joué.")
    if request.htmx:
        # The board of the new version, as this process's pages get it (games/live.py):
        # read and rendered once for the mover's answer and their pushes.
        change = live.shared(table.pk, ("version", outcome.version))
        board = change.html_for(live.Viewer.of_request(request))
        if board is not None:
            return HttpResponse(board)
    return _board_answer(request, table, done, 200, level="success")


@login_required
@require_POST
def table_take_back(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "Reprendre ma place": the player's stand-in bot stops (games/timing.py)."""
    table = _watchable_table(request, table_id)
    try:
        timing.take_back_seat(table_id=table.pk, user=request.user)
    except ServiceError as refused:
        return _board_answer(request, table, refused.message, refused.status)
    return _board_answer(request, table, _("Vous avez repris votre place."), 200, level="success")


@login_required
def hand_history(
    request: HttpRequest, table_id: int, game_number: int, hand_number: int
) -> HttpResponse:
    """A finished hand replayed trick by trick (``?pli=N``), every hand shown."""
    table = _watchable_table(request, table_id)
    hand = get_object_or_404(
        Hand.objects.select_related("game"),
        game__table=table,
        game__number=game_number,
        number=hand_number,
    )
    if not hand.is_over:
        raise Http404
    try:
        step = int(request.GET.get("pli", 0))
    except ValueError:
        step = 0
    replay = hand_replay(table, hand, step, viewer=request.user)
    context = {
        "table": table,
        "replay": replay,
        "preset_label": PRESET_LABELS[table.preset],
        "page_url": request.path,
    }
    template = "games/hand_history.html#replay" if request.htmx else "games/hand_history.html"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def table_join(request: HttpRequest, table_id: int, token: str) -> HttpResponse:
    """The invitation link: who holds it may join the table, then choose a seat.

    Once the game has started, the link makes a spectator of whoever opens it if the
    creator lets spectators in (recorded as their invitation: ``lobby.join_by_link``);
    otherwise it only says that the game has started, and shows nothing of the table.
    """
    table = get_object_or_404(Table.objects.select_related("created_by"), pk=table_id)
    if not _same_token(table.invite_token, token):
        raise Http404
    if can_watch(request.user, table):
        return redirect("games:table", table.pk)
    started = table.status != Table.Status.LOBBY
    if request.method == "POST":
        # "Rejoindre la table" in the lobby, "Regarder la partie" once started: a GET
        # never writes (a link previewer or a mail scanner opening it joins nobody).
        try:
            lobby.join_by_link(table=table, user=request.user, token=token)
        except ServiceError as refused:
            if refused.status == 404:
                raise Http404 from refused
            messages.error(request, refused.message)
            table.refresh_from_db()  # it may have started meanwhile
            return _join_page(request, table, status=refused.status)
        if started:
            watching = _("Vous regardez la partie en spectateur : aucune main n'est montrée.")
            messages.info(request, watching)
        else:
            messages.success(request, _("Invitation acceptée : choisissez votre place."))
        return redirect("games:table", table.pk)
    return _join_page(request, table)


# ---------------------------------------------------------------------------------------
# Lobby actions (POST only)


@login_required
@require_POST
def table_invite(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _visible_table(request, table_id)
    form = InviteForm(request.POST)
    # The reason is shown on the field; the notice only says that nothing was sent.
    not_sent = _("L'invitation n'a pas été envoyée.")
    if not form.is_valid():
        return _refused(request, table, "invites", not_sent, 422, invite_form=form)
    try:
        invitation = lobby.invite_user(
            table=table, by=request.user, username=form.cleaned_data["username"]
        )
    except ServiceError as refused:
        if refused.status == 404:
            raise Http404 from refused
        if refused.status == 403:
            return _refused(request, table, "invites", refused.message, 403)
        form.add_error("username", refused.message)
        return _refused(request, table, "invites", not_sent, refused.status, invite_form=form)
    text = _("Invitation envoyée à %(name)s.") % {"name": invitation.user}
    return _done(request, table, "invites", text)


@login_required
@require_POST
def table_revoke_link(request: HttpRequest, table_id: int) -> HttpResponse:
    """A new link; in the lobby the invitations panel comes back, once started (spectators
    allowed) the panel of the spectators' link."""
    table = _visible_table(request, table_id)
    fragment = "invites" if table.status == Table.Status.LOBBY else "spectator_link"
    return _act(
        request,
        table_id,
        fragment,
        None,
        lambda table, data: lobby.revoke_link(table=table, by=request.user),
        _("Nouveau lien créé : l'ancien ne fonctionne plus."),
    )


@login_required
@require_POST
def table_spectators(request: HttpRequest, table_id: int) -> HttpResponse:
    form = SpectatorsForm(request.POST)
    allowed = form.is_valid() and form.cleaned_data["allowed"]
    return _act(
        request,
        table_id,
        "invites",
        None,
        lambda table, data: lobby.set_spectators(table=table, by=request.user, allowed=allowed),
        _("Les spectateurs sont admis.") if allowed else _("Les spectateurs ne sont pas admis."),
    )


@login_required
@require_POST
def table_take_seat(request: HttpRequest, table_id: int) -> HttpResponse:
    return _act(
        request,
        table_id,
        "seats",
        SeatForm,
        lambda table, data: lobby.take_seat(
            table=table, user=request.user, position=data["position"]
        ),
        _("Vous avez pris cette place."),
    )


@login_required
@require_POST
def table_leave_seat(request: HttpRequest, table_id: int) -> HttpResponse:
    return _act(
        request,
        table_id,
        "seats",
        None,
        lambda table, data: lobby.leave_seat(table=table, user=request.user),
        _("Vous avez quitté votre place."),
    )


@login_required
@require_POST
def table_move_player(request: HttpRequest, table_id: int) -> HttpResponse:
    return _act(
        request,
        table_id,
        "seats",
        MoveForm,
        lambda table, data: lobby.move_player(
            table=table,
            by=request.user,
            from_position=data["from_position"],
            to_position=data["to_position"],
        ),
        _("Les places ont été échangées."),
    )


@login_required
@require_POST
def table_set_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    return _act(
        request,
        table_id,
        "seats",
        BotForm,
        lambda table, data: lobby.set_bot(
            table=table, by=request.user, position=data["position"], level=data["level"]
        ),
        _("Un robot est assis."),
    )


@login_required
@require_POST
def table_remove_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    return _act(
        request,
        table_id,
        "seats",
        SeatForm,
        lambda table, data: lobby.remove_bot(
            table=table, by=request.user, position=data["position"]
        ),
        _("Le robot a quitté la table."),
    )


@login_required
@require_POST
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _visible_table(request, table_id)
    try:
        lobby.start(table=table, by=request.user)
    except ServiceError as refused:
        if refused.status == 404:
            raise Http404 from refused
        return _refused(request, table, "seats", refused.message, refused.status)
    messages.success(request, _("La partie commence !"))
    return _redirect(request, reverse("games:table", args=[table.pk]))


# ---------------------------------------------------------------------------------------
# Helpers


def _act(
    request: HttpRequest,
    table_id: int,
    fragment: str,
    form_class: type | None,
    call: Callable,
    success: str,
) -> HttpResponse:
    """Validate the form, call the lobby, answer with the fragment or the page."""
    table = _visible_table(request, table_id)
    data = {}
    if form_class is not None:
        form = form_class(request.POST)
        if not form.is_valid():
            return _refused(request, table, fragment, _first_error(form), 422)
        data = form.cleaned_data
    try:
        call(table, data)
    except ServiceError as refused:
        if refused.status == 404:
            raise Http404 from refused
        return _refused(request, table, fragment, refused.message, refused.status)
    return _done(request, table, fragment, success)


def _done(request: HttpRequest, table: Table, fragment: str, text: str) -> HttpResponse:
    if request.htmx:
        table.refresh_from_db()
        context = _table_context(request, table, notice={"level": "success", "text": text})
        return render(request, f"games/table.html#{fragment}", context)
    messages.success(request, text)
    return redirect("games:table", table.pk)


def _refused(
    request: HttpRequest, table: Table, fragment: str, text: str, status: int, **extra
) -> HttpResponse:
    """The table as it is (nothing changed), with why the action was refused."""
    table.refresh_from_db()
    if request.htmx:
        notice = {"level": "error", "text": text, "fragment": fragment}
        context = _table_context(request, table, notice=notice, **extra)
        return render(request, f"games/table.html#{fragment}", context, status=status)
    messages.error(request, text)
    context = _table_context(request, table, **extra)
    return render(request, "games/table.html", context, status=status)


def _board_answer(
    request: HttpRequest, table: Table, text: str, status: int, *, level: str = "error"
) -> HttpResponse:
    """After a move: htmx gets the board as it is now with ``text``; a plain POST is
    redirected to the table page (post/redirect/get) with ``text`` as a message."""
    if not request.htmx:
        getattr(messages, level)(request, text)
        return redirect("games:table", table.pk)
    table = _watchable_table(request, table.pk)
    # A success is seen on the board itself; only a refusal or a warning is written.
    notice = None if status == 200 else {"level": level, "text": text}
    if table.current_hand_id is None:
        # No board yet (the lobby): the page's whole table comes back instead, with the
        # message among the seats.
        notice = {"level": level, "text": text, "fragment": "seats"}
        context = _table_context(request, table, notice=notice)
        response = render(request, "games/table.html#table", context, status=status)
        response["HX-Retarget"] = "#table"
        response["HX-Reswap"] = "outerHTML"
        return response
    context = _table_context(request, table, notice=notice)
    return render(request, "games/table.html#board", context, status=status)


def _note_dismissed_summary(request: HttpRequest, table: Table) -> None:
    """``?vu=<hand id>`` ("Donne suivante") hides that hand's summary for this session.

    Anything but a hand id (ASCII digits, at most those of the largest id) is ignored:
    ``str.isdigit`` also takes "²", which ``int`` refuses, and 5,000 digits are past
    ``int``'s limit."""
    seen = request.GET.get("vu", "")
    if seen.isascii() and seen.isdigit() and len(seen) <= MAX_ID_DIGITS:
        request.session[SUMMARY_SEEN.format(table.pk)] = int(seen)


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _visible_table(request: HttpRequest, table_id: int) -> Table:
    """The table, if the user may see it; otherwise it does not exist for them."""
    return get_object_or_404(
        visible_tables(request.user).select_related("created_by", "current_hand__game"),
        pk=table_id,
    )


def _watchable_table(request: HttpRequest, table_id: int) -> Table:
    """The table, if the user may watch it (``can_watch``: never a stranger, whatever
    ``allow_spectators`` says; a spectator came by the invitation link); else a 404.

    Its seats come with it (``table_seats``): whoever sits at the table may watch it.
    """
    table = get_object_or_404(
        Table.objects.select_related("created_by", "current_hand__game"), pk=table_id
    )
    if not may_watch(request.user, table):
        raise Http404
    return table


def _same_token(expected: str, given: str) -> bool:
    return secrets.compare_digest(expected.encode(), given.encode())


def _first_error(form) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return _("Requête invalide.")


def _join_page(request: HttpRequest, table: Table, status: int = 200) -> HttpResponse:
    """The page of the invitation link: the table and "Rejoindre la table" (or "Regarder
    la partie" once started, spectators allowed); once the game has started without
    spectators, only that it has, nothing of the table."""
    if table.status != Table.Status.LOBBY and not table.allow_spectators:
        return render(request, "games/join.html", {"started": True}, status=status)
    context = {"table": table, "preset_label": PRESET_LABELS[table.preset]}
    return render(request, "games/join.html", context, status=status)


def _table_context(request: HttpRequest, table: Table, **extra) -> dict:
    user = request.user
    seats = table_seats(table)
    my_seat = next((s for s in seats if s.user_id == user.pk), None)
    is_creator = table.created_by_id == user.pk
    in_lobby = table.status == Table.Status.LOBBY
    free = [s for s in seats if s.is_free]
    anyone_seated = any(s.user_id is not None for s in seats)
    game = table.current_hand.game if table.current_hand_id else None
    turn_seat = seats[table.turn] if table.turn is not None else None
    my_result = None
    if game is not None and game.winner is not None and my_seat is not None:
        my_result = "won" if game.winner == my_seat.position % 2 else "lost"
    context = {
        "table": table,
        "preset_label": PRESET_LABELS[table.preset],
        "rules": table.rules,
        "seats": seats,
        "my_seat": my_seat,
        "is_creator": is_creator,
        "in_lobby": in_lobby,
        "can_manage": is_creator and in_lobby,
        "free_count": len(free),
        "anyone_seated": anyone_seated,
        # What lobby.start accepts: the button shows only then (else what is missing).
        "can_start": in_lobby and anyone_seated and (not free or table.fill_with_bots),
        "game": game,
        "my_result": my_result,
        "turn_seat": turn_seat,
        "your_turn": turn_seat is not None and turn_seat.user_id == user.pk,
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
    if is_creator and in_lobby:
        context["invitations"] = list(
            table.invitations.select_related("user").order_by("created_at")
        )
        context["seated_ids"] = {s.user_id for s in seats if s.user_id is not None}
    context.update(extra)
    return context
