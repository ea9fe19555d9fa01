"""Template filters of the table pages: names of presets and teams, times per move, and
the parts of the board rendered once and kept (a card's face, a seat's box, the score
sheet)."""

import functools

from django import template
from django.template.loader import render_to_string
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.board import Board, Card, SeatShown
from games.forms import PRESET_LABELS, option_changes
from games.memo import Memo
from games.models import TEAM_CHOICES

register = template.Library()


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
    """The ``history`` partial of games/table.html: the same for every viewer and every
    version of a hand, so rendered once per hand and language (games/board.py)."""
    return _history_html.get_or_compute(
        (board.history_key, get_language()),
        lambda: render_to_string("games/table.html#history", {"b": board}),
    )


# The boxes of the seats around the board: (SeatShown.look, language) -> HTML.
_seat_boxes = Memo(4096)


@register.simple_tag(takes_context=True)
def seat_box(context, seat: SeatShown) -> str:
    """The ``seat_box`` partial of games/table.html, rendered once per look of a seat and
    language: from one version to the next most seats look the same, and so do the bots
    of many tables. The viewer's own seat taken by a stand-in holds a form with their
    CSRF token: rendered each time."""

    def render() -> str:
        return render_to_string(
            "games/table.html#seat_box",
            {
                "seat": seat,
                "table": context["table"],
                "user": context.get("user"),
                "csrf_token": context.get("csrf_token"),
            },
        )

    if seat.is_me and seat.seat.stand_in:
        return render()
    return _seat_boxes.get_or_compute((seat.look, get_language()), render)


@register.filter
def preset_label(preset: str) -> str:
    return str(PRESET_LABELS.get(preset, preset))


@register.filter
def rule_changes(options: dict) -> list[str]:
    """A table's or a tournament's options, in words (games.forms.option_changes)."""
    return option_changes(options) if isinstance(options, dict) else []


@register.filter
def team_name(team: int | None) -> str:
    return str(dict(TEAM_CHOICES).get(team, ""))


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
