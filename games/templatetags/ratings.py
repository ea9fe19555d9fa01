"""Template filters of the rating figures: one decimal, in the page's language."""

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def rating(value: float | None) -> str:
    """An ordinal (or mu, sigma) as shown: "12,3" in French, "12.3" in English."""
    if value is None:
        return ""
    # Adding 0.0 turns a rounded -0.0 into 0.0: no "-0,0" for a newcomer.
    return number_format(round(value, 1) + 0.0, 1)


@register.filter
def rating_change(value: float) -> str:
    """A change of ordinal with its sign: "+2,4", "−1,5" (a true minus sign), "0,0"."""
    rounded = round(value, 1) + 0.0
    text = number_format(abs(rounded), 1)
    if rounded > 0:
        return f"+{text}"
    if rounded < 0:
        return f"\u2212{text}"
    return text
