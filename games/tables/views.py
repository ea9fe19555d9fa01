"""Pages of the tables: the dashboard, the new-table form, a table, its lobby actions,
its board and moves, and the replay of finished hands.

Views only parse, call ``games.tables.lobby`` or ``games.tables.service`` and render (the
board is built by ``games.tables.board`` from the engine's view of the user's seat). Every
form works as a plain POST (then a redirect with a message) and with htmx, which gets the
template's fragment back (``template.html#partial``). A table the user may not see does not
exist for them (404); a refused action answers its status (403, 422, 409) with its message
and changes nothing. Spectators (``Table.allow_spectators``: whoever opens the invitation link once
the game has started) see the table and its board without any hand; they cannot play.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from belote_site import htmx
from games import rules as engine
from games.tables import (
    analysis,
    boards,
    chat,
    chat_views,
    lobby,
    open_tables,
    pages,
    quickplay,
    records,
    service,
    signals,
)
from games.tables.access import may_see
from games.tables.board import SUMMARY_SEEN
from games.tables.catalogue import PRESET_LABELS
from games.tables.forms import (
    BotForm,
    InviteForm,
    MoveForm,
    OpenForm,
    OpenTablesFilter,
    PlayForm,
    SeatForm,
    SpectatorsForm,
    TableForm,
    VerifyForm,
)
from games.tables.models import Game, Hand, Table
from games.tables.replay import hand_replay
from games.tables.selectors import (
    Section,
    dashboard,
)
from games.tables.service import ServiceError
from games.tables.standins import take_back_seat

REMATCH = "rematch"  # the action of the "Revanche" button, handled by games.tables.lobby


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
def open_table_list(request: HttpRequest) -> HttpResponse:
    """Tables ouvertes: the open tables the user may join, filtered by preset and pace.

    htmx gets the list alone (``#list``): the filters' form, and the page's socket, which
    says when the list changed (static/js/open-tables.js). An invalid filter filters
    nothing and says so (422)."""
    form = OpenTablesFilter(request.GET or None)
    status = 200 if not form.is_bound or form.is_valid() else 422
    template = "games/open_tables.html#list" if request.htmx else "games/open_tables.html"
    return render(request, template, _open_tables_context(request, form), status=status)


@login_required
@require_POST
def open_table_sit(request: HttpRequest, table_id: int) -> HttpResponse:
    """*S'asseoir* at a free seat of an open table, from the list (its filters in the
    query string): the table's page on success, else the list with why (409, 422)."""
    form = OpenTablesFilter(request.GET or None)
    page = htmx.Page(
        "games/open_tables.html",
        "list",
        lambda **extra: _open_tables_context(request, form, **extra),
        reverse("games:open"),
    )
    seat = SeatForm(request.POST)
    if not seat.is_valid():
        return htmx.refused(request, page, htmx.first_error(seat), 422)
    try:
        open_tables.sit(
            table_id=table_id, user=request.user, position=seat.cleaned_data["position"]
        )
    except ServiceError as refused:
        return htmx.refused(request, page, refused.message, refused.status)
    messages.success(request, _("Vous avez pris votre place : bonne partie !"))
    return _redirect(request, reverse("games:table", args=[table_id]))


def _open_tables_context(request: HttpRequest, form: OpenTablesFilter, **extra) -> dict:
    filters = form.filters()
    query = urlencode({name: value for name, value in filters.items() if value})
    return {
        "form": form,
        "rows": open_tables.open_tables(request.user, **filters),
        "limit": open_tables.LIST_LIMIT,
        "query": query,
        "filtered": bool(query),
        "list_url": reverse("games:open") + (f"?{query}" if query else ""),
        "socket": pages.TABLE_SOCKET,
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def table_create(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        # ?club=<id>: the club page's "new club table" link chooses the club;
        # ?ouverte=1: the list of open tables' "Ouvrir une table" ticks "Table ouverte".
        form = TableForm(
            preset=request.GET.get("preset"),
            user=request.user,
            initial={"club": request.GET.get("club"), "is_open": request.GET.get("ouverte") == "1"},
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
            with transaction.atomic():
                table = lobby.create_private_table(created_by=request.user, **form.table_kwargs())
                chat.set_settings(table=table, by=request.user, **form.chat_kwargs())
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
@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """*Jouer maintenant*: a live game against three bots, dealt at once (or the player's
    quick game already going)."""
    try:
        quick = quickplay.play_now(user=request.user)
    except ServiceError as refused:
        messages.error(request, refused.message)
        return redirect("home")
    if not quick.created:
        messages.info(request, _("Votre partie contre les robots continue."))
    return redirect("games:table", quick.table.pk)


@login_required
@require_POST
def play_with_friends(request: HttpRequest) -> HttpResponse:
    """*Jouer entre amis*: a live table in the lobby, its invitation link to copy (or the
    player's quick table already waiting for them)."""
    try:
        quick = quickplay.play_with_friends(user=request.user)
    except ServiceError as refused:
        messages.error(request, refused.message)
        return redirect("home")
    if quick.created:
        messages.success(
            request, _("Votre table est prête : copiez le lien et envoyez-le à vos amis.")
        )
    else:
        messages.info(
            request,
            _("Votre table vous attend toujours : copiez le lien et envoyez-le à vos amis."),
        )
    return redirect("games:table", quick.table.pk)


@login_required
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = pages.watchable_table(request, table_id)
    # A seated player opening the page is back: a live table that waited for its players
    # resumes (games/tables/attendance.py), and the page shows it going on.
    if service.come_back(table_id=table.pk, user=request.user) is not None:
        table = pages.watchable_table(request, table_id)
    _note_dismissed_summary(request, table)
    signals.table_opened.send(sender=Table, user_id=request.user.pk, table_id=table.pk)
    if request.htmx:
        return render(request, "games/table/table.html", pages.table_context(request, table))
    context = {**chat_views.chat_context(request, table), **pages.table_context(request, table)}
    return render(request, "games/table.html", context)


@login_required
def table_board_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    """The board alone: what the page refetches when its socket says a version without
    the board (after a reconnect, say), and the "Donne suivante" link."""
    table = pages.watchable_table(request, table_id)
    if table.current_hand_id is None:
        raise Http404
    _note_dismissed_summary(request, table)
    return render(request, "games/table/board.html", pages.table_context(request, table))


@login_required
@require_POST
def table_play(request: HttpRequest, table_id: int) -> HttpResponse:
    """One move (or the rematch) at the version the player saw.

    htmx gets the fresh board: 200, or the refusal's status with its message (422 an
    illegal move, 409 a stale version: the board as it is now, nothing applied). Without
    JavaScript: back to the table page with a message.
    """
    table = pages.table_to_act_at(request, table_id)
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
        # The board of the new version, as this process's pages get it (games/tables/boards.py):
        # read and rendered once for the mover's answer and their pushes.
        change = boards.shared(table.pk, ("version", outcome.version))
        board = change.html_for(boards.Viewer.of_request(request))
        if board is not None:
            return HttpResponse(board)
    return _board_answer(request, table, done, 200, level="success")


@login_required
@require_POST
def table_take_back(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "Reprendre ma place": the player's stand-in bot stops (games/timing/sweep.py)."""
    table = pages.watchable_table(request, table_id)
    try:
        take_back_seat(table_id=table.pk, user=request.user)
    except ServiceError as refused:
        return _board_answer(request, table, refused.message, refused.status)
    return _board_answer(request, table, _("Vous avez repris votre place."), 200, level="success")


@login_required
def hand_history(
    request: HttpRequest, table_id: int, game_number: int, hand_number: int
) -> HttpResponse:
    """A finished hand replayed trick by trick (``?pli=N``), every hand shown."""
    table = pages.watchable_table(request, table_id)
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
    # The exact analysis of the card play (games/tables/analysis.py): a hand over only.
    review = analysis.analysis_shown(hand, replay.contract.code if replay.contract else None)
    marked = review.marked if review is not None else set()
    context = {
        "table": table,
        "replay": replay,
        "analysis": review,
        "step_notes": review.of_trick(replay.step) if review is not None and replay.step else [],
        "tricks_marked": [
            (trick, [(p, (trick.number, p.card.code) in marked) for p in trick.cards])
            for trick in replay.tricks
        ],
        "hand": hand,
        "deck_text": " ".join(hand.deck_list),
        "preset_label": PRESET_LABELS[table.preset],
        "page_url": request.path,
        "chat_talk": (
            chat.hand_lines(hand, request.user) if chat.rights(request.user, table).read else None
        ),
    }
    template = "games/hand_history.html#replay" if request.htmx else "games/hand_history.html"
    if request.htmx and request.GET.get("zone") == "analyse":  # the pending analysis asks
        template = "games/hand_history.html#analysis"
    return render(request, template, context)


def _finished_hand(table: Table, game_number: int, hand_number: int) -> Hand:
    """A finished hand of ``table``; one still being played does not exist here (404)."""
    return get_object_or_404(
        Hand.objects.select_related("game").exclude(ended=""),
        game__table=table,
        game__number=game_number,
        number=hand_number,
    )


def _download(content: bytes, file_name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return response


@login_required
def hand_record(
    request: HttpRequest, table_id: int, game_number: int, hand_number: int
) -> HttpResponse:
    """A finished hand's record (``belote-record/1``) as a JSON file."""
    table = pages.watchable_table(request, table_id)
    hand = _finished_hand(table, game_number, hand_number)
    record = records.record_bytes(records.hand_record(table, hand))
    return _download(record, records.hand_file_name(table, hand), "application/json")


@login_required
def game_record(request: HttpRequest, table_id: int, game_number: int) -> HttpResponse:
    """A game's record: its finished hands only, never the one being played."""
    table = pages.watchable_table(request, table_id)
    game = get_object_or_404(Game, table=table, number=game_number)
    record = records.record_bytes(records.game_record(table, game))
    return _download(record, records.game_file_name(table, game), "application/json")


@require_http_methods(["GET", "POST"])
def verify_records(request: HttpRequest) -> HttpResponse:
    """Vérifier des donnes: a record pasted or uploaded (or a tournament's archive),
    replayed by the engine (games/rules/records.py). Open to anyone; it writes nothing."""
    form = VerifyForm()
    results = None
    status = 200
    if request.method == "POST":
        form = VerifyForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                results = engine.verify_bytes(form.content())
            except engine.RecordRefused as refused:
                results = [("archive", refused)]
        else:
            status = 422
    # The engine's words are French, marked for the catalogue: translated here.
    names = {"record": _("enregistrement"), "archive": _("archive")}
    verdicts = [
        (names.get(name, name), False, result.render(_))
        if isinstance(result, engine.RecordRefused)
        else (names.get(name, name), True, result.summary(_))
        for name, result in results or []
    ]
    context = {"form": form, "results": verdicts, "checked": results is not None}
    return render(request, "games/verify.html", context, status=status)


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
    if may_see(request.user, table):
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
            return pages.join_page(request, table, status=refused.status)
        if started:
            watching = _("Vous regardez la partie en spectateur : aucune main n'est montrée.")
            messages.info(request, watching)
        else:
            messages.success(request, _("Invitation acceptée : choisissez votre place."))
        return redirect("games:table", table.pk)
    return pages.join_page(request, table)


# ---------------------------------------------------------------------------------------
# Lobby actions (POST only)


@login_required
@require_POST
def table_invite(request: HttpRequest, table_id: int) -> HttpResponse:
    table = pages.visible_table(request, table_id)
    page = _page(request, table, "invites")
    form = InviteForm(request.POST)
    # The reason is shown on the field; the notice only says that nothing was sent.
    not_sent = _("L'invitation n'a pas été envoyée.")
    if not form.is_valid():
        return htmx.refused(
            request, _page(request, table, "invites"), not_sent, 422, invite_form=form
        )
    try:
        invitation = lobby.invite_user(
            table=table, by=request.user, username=form.cleaned_data["username"]
        )
    except ServiceError as refused:
        if refused.status == 404:
            raise Http404 from refused
        if refused.status == 403:
            return htmx.refused(request, page, refused.message, 403)
        form.add_error("username", refused.message)
        return htmx.refused(
            request, _page(request, table, "invites"), not_sent, refused.status, invite_form=form
        )
    text = _("Invitation envoyée à %(name)s.") % {"name": invitation.user}
    return htmx.done(request, page, text)


@login_required
@require_POST
def table_revoke_link(request: HttpRequest, table_id: int) -> HttpResponse:
    """A new link; in the lobby the invitations panel comes back, once started (spectators
    allowed) the panel of the spectators' link."""
    table = pages.visible_table(request, table_id)
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
def table_set_open(request: HttpRequest, table_id: int) -> HttpResponse:
    form = OpenForm(request.POST)
    is_open = form.is_valid() and form.cleaned_data["is_open"]
    return _act(
        request,
        table_id,
        "invites",
        None,
        lambda table, data: lobby.set_open(table=table, by=request.user, is_open=is_open),
        _("La table est ouverte : elle apparaît dans la liste des tables ouvertes.")
        if is_open
        else _("La table n'est plus ouverte : elle a quitté la liste des tables ouvertes."),
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
def table_release_seat(request: HttpRequest, table_id: int) -> HttpResponse:
    """*Libérer la place*: the creator frees another player's seat, in the lobby."""
    return _act(
        request,
        table_id,
        "seats",
        SeatForm,
        lambda table, data: lobby.release_seat(
            table=table, by=request.user, position=data["position"]
        ),
        _("La place est libérée."),
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
    table = pages.visible_table(request, table_id)
    try:
        lobby.start(table=table, by=request.user)
    except ServiceError as refused:
        if refused.status == 404:
            raise Http404 from refused
        return htmx.refused(
            request, _page(request, table, "seats"), refused.message, refused.status
        )
    messages.success(request, _("La partie commence !"))
    return _redirect(request, reverse("games:table", args=[table.pk]))


# ---------------------------------------------------------------------------------------
# Helpers


def _page(request: HttpRequest, table: Table, fragment: str) -> htmx.Page:
    """The table page as an action's answer, read again (the action may have changed it)."""

    def context(**extra) -> dict:
        table.refresh_from_db()
        context = pages.table_context(request, table, **extra)
        if not request.htmx:  # the whole page, its chat included
            context = {**chat_views.chat_context(request, table), **context}
        return context

    url = reverse("games:table", args=[table.pk])
    return htmx.Page("games/table.html", fragment, context, url, f"games/table/{fragment}.html")


def _act(
    request: HttpRequest,
    table_id: int,
    fragment: str,
    form_class: type | None,
    call: Callable,
    success: str,
) -> HttpResponse:
    """Validate the form, call the lobby with the table, answer with the fragment."""
    table = pages.visible_table(request, table_id)
    return htmx.act(
        request,
        _page(request, table, fragment),
        lambda data: call(table, data),
        success,
        refusal=ServiceError,
        form_class=form_class,
    )


def _board_answer(
    request: HttpRequest, table: Table, text: str, status: int, *, level: str = "error"
) -> HttpResponse:
    """After a move: htmx gets the board as it is now with ``text``; a plain POST is
    redirected to the table page (post/redirect/get) with ``text`` as a message."""
    if not request.htmx:
        getattr(messages, level)(request, text)
        return redirect("games:table", table.pk)
    table = pages.watchable_table(request, table.pk)
    # A success is seen on the board itself; only a refusal or a warning is written.
    notice = None if status == 200 else {"level": level, "text": text}
    if table.current_hand_id is None:
        # No board yet (the lobby): the page's whole table comes back instead, with the
        # message among the seats.
        notice = {"level": level, "text": text, "fragment": "seats"}
        context = pages.table_context(request, table, notice=notice)
        response = render(request, "games/table/table.html", context, status=status)
        response["HX-Retarget"] = "#table"
        response["HX-Reswap"] = "outerHTML"
        return response
    context = pages.table_context(request, table, notice=notice)
    return render(request, "games/table/board.html", context, status=status)


def _note_dismissed_summary(request: HttpRequest, table: Table) -> None:
    """``?vu=<hand id>`` ("Donne suivante") hides that hand's summary for this session;
    anything but a hand id is ignored (``pages.row_id``)."""
    seen = pages.row_id(request.GET.get("vu", ""))
    if seen is not None:
        request.session[SUMMARY_SEEN.format(table.pk)] = seen


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _same_token(expected: str, given: str) -> bool:
    return secrets.compare_digest(expected.encode(), given.encode())
