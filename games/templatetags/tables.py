"""Template filters of the table pages: names of presets and teams, times per move, and
the parts of the board rendered once and kept (a card's face, a seat's box, the score
sheet)."""

import dataclasses
import functools
import secrets

from django import template
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.tables.board import Board, SeatShown
from games.tables.catalogue import PRESET_LABELS, option_changes
from games.tables.countdown import countdown
from games.tables.memo import Memo
from games.tables.models import TEAM_CHOICES
from games.tables.words import Card

register = template.Library()


@register.simple_tag
def table_url(name: str, table_id: int) -> str:
    """``{% url name table_id %}`` for the URLs of a table that every board holds,
    reversed once per table (a pushed board is rendered at each move)."""
    return _table_url(name, table_id, get_script_prefix(), get_urlconf())


@functools.lru_cache(maxsize=4096)
def _table_url(name: str, table_id: int, prefix: str, urlconf) -> str:
    return reverse(name, args=[table_id])


@register.filter
def card_face(card: Card, small: str = "") -> str:
    """A card face up (games/_card.html), rendered once per card, size and language."""
    return _card_face(card.code, bool(small), get_language())


@functools.cache
def _card_face(code: str, small: bool, language: str) -> str:
    return render_to_string("games/_card.html", {"card": Card(code), "small": small})


# The score sheet and the previous games: (Board.history_key, language) -> HTML.
_history_html = Memo(1024)


@register.simple_tag
def board_history(board: Board) -> str:
    """The ``history`` partial of games/table/board.html: the same for every viewer and every
    version of a hand, so rendered once per hand and language (games/tables/board.py)."""
    return _history_html.get_or_compute(
        (board.history_key, get_language()),
        lambda: render_to_string("games/table/board.html#history", {"b": board}),
    )


# The contract, score, announces and last trick: (Board.side_key, language) -> HTML.
_side_html = Memo(1024)


@register.simple_tag
def board_side(board: Board) -> str:
    """The ``side`` partial of games/table/board.html: the same for every viewer, and from one
    card to the next within a trick, so rendered once per look and language."""
    return _side_html.get_or_compute(
        (board.side_key, get_language()),
        lambda: render_to_string("games/table/board.html#side", {"b": board}),
    )


# The boxes of the seats around the board, wherever they sit on the screen:
# (SeatShown.look, language) -> HTML with PLACE where the place goes.
_seat_boxes = Memo(4096)
# Random, so that no name of a user can look like it.
PLACE = "place" + secrets.token_hex(8)


@register.simple_tag(takes_context=True)
def seat_box(context, seat: SeatShown) -> str:
    """games/table/seat_box.html, rendered once per look of a seat and
    language, wherever it sits on the screen (its place is put in afterwards): from one
    version to the next most seats look the same, from every viewer's side, and so do the
    bots of many tables. The viewer's own seat taken by a stand-in holds a form with their
    CSRF token: rendered each time."""

    def render(shown: SeatShown) -> str:
        return render_to_string(
            "games/table/seat_box.html",
            {
                "seat": shown,
                "table": context["table"],
                "user": context.get("user"),
                "csrf_token": context.get("csrf_token"),
            },
        )

    if seat.is_me and seat.seat.stand_in:
        return render(seat)
    anywhere = _seat_boxes.get_or_compute(
        (seat.look, get_language()), lambda: render(dataclasses.replace(seat, place=PLACE))
    )
    return mark_safe(anywhere.replace(PLACE, seat.place))


# The viewer's choices and hand, from one version to the next: (part, table, what it
# shows, language) -> HTML with marks where the version and the CSRF token go.
_parts = Memo(4096)
_MARK = secrets.token_hex(8)
VERSION_MARK = "version" + _MARK
TOKEN_MARK = "token" + _MARK


@register.simple_tag(takes_context=True)
def board_part(context, part: str, board: Board) -> SafeString:
    """The ``actions`` or ``hand`` partial of games/table/board.html. The buttons of a bidding
    turn, the hand of a player waiting for their turn, look the same from one version to
    the next: rendered once per look and language, the version and the page's CSRF token
    put in each time."""
    if part == "actions":
        look: tuple = tuple(board.buttons)
    else:
        cards = tuple((card.code, card.legal) for card in board.hand)
        look = (board.my_position, board.play_turn, cards)
    key = (part, board.table.pk, look, get_language())

    def render() -> str:
        return render_to_string(
            f"games/table/board.html#{part}",
            {
                "b": board,
                "play_url": context["play_url"],
                "form_version": VERSION_MARK,
                "csrf_token": TOKEN_MARK,
            },
        )

    html = _parts.get_or_compute(key, render)
    token = str(context.get("csrf_token") or "")
    return mark_safe(html.replace(VERSION_MARK, str(board.version)).replace(TOKEN_MARK, token))


# A card of the hand to play: (code, legal, table's play URL, language) -> HTML with the
# marks of board_part.
_hand_cards = Memo(4096)


@register.simple_tag
def hand_card(card: Card, play_url: str) -> SafeString:
    """games/table/hand_card.html, the form of one card of the hand at the viewer's turn
    to play: rendered once per card, legal or not, table and language (the hand's part
    changes at each of the viewer's turns, most of its cards do not)."""
    key = (card.code, card.legal, play_url, get_language())

    def render() -> str:
        context = {
            "card": card,
            "play_url": play_url,
            "form_version": VERSION_MARK,
            "csrf_token": TOKEN_MARK,
        }
        return render_to_string("games/table/hand_card.html", context)

    return mark_safe(_hand_cards.get_or_compute(key, render))


# The header's status badge brought out of band: (status, paused, language) -> HTML.
_badges = Memo(64)


@register.simple_tag
def status_badge_oob(table) -> SafeString:
    """games/table/status_badge.html out of band, as a board rendered alone brings it:
    rendered once per status, pause and language."""
    key = (table.status, table.unattended_since is not None, get_language())
    context = {"table": table, "oob": True}
    render = functools.partial(render_to_string, "games/table/status_badge.html", context)
    return mark_safe(_badges.get_or_compute(key, render))


# Who sits at a seat, as games/_occupant.html says it: (occupant, is the viewer,
# language) -> HTML.
_occupants = Memo(4096)


@register.simple_tag(takes_context=True)
def occupant(context, seat) -> SafeString:
    """games/_occupant.html for ``seat``, rendered once per occupant, viewer's own seat or
    not, and language."""
    user = context.get("user")
    me = seat.user_id is not None and seat.user_id == getattr(user, "pk", None)
    name = str(seat.user) if seat.user_id else ""
    key = (seat.user_id, name, seat.bot_level, me, get_language())
    return _occupants.get_or_compute(
        key, lambda: render_to_string("games/_occupant.html", {"seat": seat, "user": user})
    )


@register.filter
def preset_label(preset: str) -> str:
    return str(PRESET_LABELS.get(preset, preset))


@register.filter
def rule_changes(options: dict) -> list[str]:
    """A table's or a tournament's options, in words (games.tables.catalogue.option_changes)."""
    return option_changes(options) if isinstance(options, dict) else []


@register.filter
def team_name(team: int | None) -> str:
    return str(dict(TEAM_CHOICES).get(team, ""))


register.simple_tag(countdown, name="countdown")


@register.filter
def move_time(seconds: int) -> str:
    """A time per move for people: "45 s", "2 min", "3 h", "2 jours"."""
    days, rest = divmod(seconds, 86400)
    if days and not rest:
        return ngettext("%(n)s jour", "%(n)s jours", days) % {"n": days}
    hours, rest = divmod(seconds, 3600)
    if hours and not rest:
        return _("%(n)s h") % {"n": hours}
    minutes, rest = divmod(seconds, 60)
    if minutes and not rest:
        return _("%(n)s min") % {"n": minutes}
    return _("%(n)s s") % {"n": seconds}
