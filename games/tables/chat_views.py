"""The pages of a table's chat (games/tables/chat.py): its panel, sending, muting, and
the creator's settings.

Every form works with htmx (the panel comes back, ``#chat-panel``) and as a plain POST
(a redirect to the table with a message). A table the user may not see is a 404; a
refused message answers 403, 409, 422 or 429 with its message, and stores nothing.
"""

from __future__ import annotations

from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from belote_site.htmx import first_error
from games.tables import chat, pages
from games.tables.forms import ChatForm, ChatMuteForm, ChatSettingsForm
from games.tables.models import ChatMessage, Table


def chat_context(request: HttpRequest, table: Table, **extra) -> dict:
    """What the chat panel (templates/games/table/chat_panel.html) reads."""
    allowed = chat.rights(request.user, table)
    lines = chat.recent_lines(table, request.user) if allowed.read else []
    context = {
        "table": table,
        "chat": allowed,
        "chat_lines": lines,
        "chat_last": max((line.id for line in lines), default=0),
        "chat_reactions": list(chat.REACTIONS.items()),
        "chat_max": chat.MAX_CHAT_CHARS,
        "chat_settings": ChatSettingsForm(
            initial={"enabled": table.chat_enabled, "spectators": table.chat_spectators}
        ),
        "chat_notice": None,
    }
    context.update(extra)
    return context


def _answer(request: HttpRequest, table: Table, text: str, status: int = 200) -> HttpResponse:
    level = "success" if status < 400 else "error"
    if not request.htmx:
        getattr(messages, level)(request, text)
        return redirect("games:table", table.pk)
    table.refresh_from_db()
    notice = {"level": level, "text": text} if status >= 400 or text else None
    context = chat_context(request, table, chat_notice=notice)
    return render(request, "games/table/chat_panel.html", context, status=status)


@login_required
def table_chat(request: HttpRequest, table_id: int) -> HttpResponse:
    """The chat panel alone: what the page fetches again when the socket says so; with
    ``?zone=1`` the whole ``#chat`` (the drawer, or the hidden stand-in of a user who may
    not have the chat now), so that it appears or goes as the settings change; with
    ``&after=<id>`` (the newest message the page shows), 204 when no message came since."""
    table = pages.watchable_table(request, table_id)
    after = pages.row_id(request.GET.get("after", ""))
    # The page's socket has just opened: anything sent since the page was rendered?
    # (static/js/chat.js; 204, nothing to swap, when not.)
    if after is not None and not ChatMessage.objects.filter(table=table, pk__gt=after).exists():
        return HttpResponse(status=204)
    template = "games/table/chat.html" if request.GET.get("zone") else "games/table/chat_panel.html"
    return render(request, template, chat_context(request, table))


@login_required
@require_POST
def table_chat_send(request: HttpRequest, table_id: int) -> HttpResponse:
    table = pages.watchable_table(request, table_id)
    form = ChatForm(request.POST)
    if not form.is_valid():
        return _answer(request, table, first_error(form), 422)
    text, reaction = form.cleaned_data["text"], form.cleaned_data["reaction"]
    try:
        chat.check_send(table=table, user=request.user, text=text, reaction=reaction)
        # Counted once the message is acceptable: a refused one does not use the allowance.
        key = f"{table.pk}:{request.user.pk}"
        if not ratelimit.consume(request, action="table_chat", key=key):
            slow = _("Vous écrivez trop vite : attendez quelques secondes.")
            return _answer(request, table, slow, 429)
        # Checked again as it is stored: what changed meanwhile (a mute in another tab,
        # access lost) is a refusal too, never a 500.
        chat.send(table=table, user=request.user, text=text, reaction=reaction)
    except chat.ChatRefused as refused:
        if refused.status == 404:
            raise Http404 from refused
        return _answer(request, table, refused.message, refused.status)
    return _answer(request, table, "" if request.htmx else _("Message envoyé."))


@login_required
@require_POST
def table_chat_mute(request: HttpRequest, table_id: int) -> HttpResponse:
    table = pages.watchable_table(request, table_id)
    form = ChatMuteForm(request.POST)
    muted = form.is_valid() and form.cleaned_data["muted"]
    chat.set_muted(table=table, user=request.user, muted=muted)
    if muted:
        return _answer(request, table, _("Discussion coupée pour vous."))
    return _answer(request, table, _("Discussion réactivée."))


@login_required
@require_POST
def table_chat_settings(request: HttpRequest, table_id: int) -> HttpResponse:
    table = pages.watchable_table(request, table_id)
    form = ChatSettingsForm(request.POST)
    if not form.is_valid():
        return _answer(request, table, first_error(form), 422)
    try:
        chat.set_settings(
            table=table,
            by=request.user,
            enabled=form.cleaned_data["enabled"],
            spectators=form.cleaned_data["spectators"],
        )
    except chat.ChatRefused as refused:
        if refused.status == 404:
            raise Http404 from refused
        return _answer(request, table, refused.message, refused.status)
    return _answer(request, table, _("Réglages de la discussion enregistrés."))
