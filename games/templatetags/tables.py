"""Template filters of the table pages: names of presets and teams, times per move."""

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.forms import PRESET_LABELS
from games.models import TEAM_CHOICES

register = template.Library()


@register.filter
def preset_label(preset: str) -> str:
    return str(PRESET_LABELS.get(preset, preset))


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
