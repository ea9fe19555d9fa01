"""The countdown of the player to act, worked out from the table's deadline.

The page shows how long is left ("il vous reste 5 h 12", "il lui reste 42 s"), never an
instant. static/js/countdown.js counts it down from the deadline itself (an instant in
milliseconds since the epoch) and the server's clock, so a page that slept or lost its
socket shows the right time as soon as it runs again: nothing is counted by ticks.
This module writes the same words on the server, for the first paint and for a page
without scripts, and hands the script the translated patterns it fills.
"""

from __future__ import annotations

import datetime
import functools
import json
import math

from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

# Below this share of the time per move, or these many seconds, the countdown is urgent.
URGENT_SHARE = 0.2
URGENT_FLOOR_SECONDS = 10


def patterns() -> dict[str, str]:
    """How a duration reads, by its largest unit: {d} days, {h} hours, {m} minutes, {s}
    seconds; the unit after the first one is written on two digits."""
    return {
        "days": _("{d} j {h} h"),
        "hours": _("{h} h {m}"),
        "minutes": _("{m} min {s}"),
        "seconds": _("{s} s"),
    }


def duration_text(seconds: int, shapes: dict[str, str]) -> str:
    """``seconds`` (> 0) as the patterns write it: "2 j 05 h", "5 h 12", "3 min 07", "42 s"."""
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        shape, values = shapes["days"], {"d": str(days), "h": f"{hours:02d}"}
    elif hours:
        shape, values = shapes["hours"], {"h": str(hours), "m": f"{minutes:02d}"}
    elif minutes:
        shape, values = shapes["minutes"], {"m": str(minutes), "s": f"{secs:02d}"}
    else:
        shape, values = shapes["seconds"], {"s": str(secs)}
    for key, value in values.items():
        shape = shape.replace("{" + key + "}", value)
    return shape


def urgent_seconds(move_seconds: int) -> int:
    """From how many seconds left the countdown says it is urgent."""
    return max(URGENT_FLOOR_SECONDS, math.ceil(move_seconds * URGENT_SHARE))


def countdown(
    deadline: datetime.datetime, move_seconds: int, *, mine: bool, now=None
) -> SafeString:
    """The countdown element for a turn that ends at ``deadline``; ``mine`` when the
    viewer is the one to act."""
    now = now or timezone.now()
    left = math.ceil((deadline - now).total_seconds())
    shapes, sentence, expired, words = _words(get_language(), mine)
    urgent = urgent_seconds(move_seconds)
    text = sentence.replace("{t}", duration_text(left, shapes)) if left > 0 else expired
    classes = "countdown" + (" is-urgent" if left <= urgent else "")
    return format_html(
        '<span class="{}" role="timer" data-countdown="{}" data-urgent="{}"{}>{}</span>',
        classes,
        int(deadline.timestamp() * 1000),
        urgent,
        words,
        text,
    )


@functools.lru_cache(maxsize=64)
def _words(language: str | None, mine: bool) -> tuple[dict[str, str], str, str, SafeString]:
    """The words of a countdown in ``language`` (the active one), translated and escaped
    once per process: every pushed board of a live table has a countdown."""
    shapes = patterns()
    sentence = _("il vous reste {t}") if mine else _("il lui reste {t}")
    expired = _("temps écoulé")
    words = format_html(
        ' data-say="{}" data-expired="{}" data-patterns="{}"',
        sentence,
        expired,
        json.dumps(shapes, ensure_ascii=False),
    )
    return shapes, sentence, expired, words
