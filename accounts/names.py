"""Players' names: what a display name may contain, and when two names are the same.

A name is shown at the tables, in invitations and in emails, so it must read as what it
is. Refused: control characters, format characters (among them the bidirectional
overrides such as U+202E, which turn the text around, and the zero-width ones such as
U+200B), private-use, unassigned and surrogate code points, and the few letters that
show as blank (Hangul fillers, the blank Braille pattern). Any kind of space is accepted
and becomes one ordinary space (``tidy``).

Two names are the same when their keys are (``name_key``): NFKC, then case folding, then
NFKC again (Unicode's caseless matching for identifiers), with spaces collapsed and
variation selectors dropped. So "Alice", "ALICE", " alice " and "Ａｌｉｃｅ" (full width)
are one name to the uniqueness check. The key of each user's display name and username
is stored (``User.display_key``, ``User.username_key``, kept by ``User.save``): the
display keys are unique in the database, and a lookup compares keys, on SQLite as on
PostgreSQL.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f", "\u17b4", "\u17b5"}
VARIATION_SELECTORS = {chr(c) for c in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))}
# The longest key stored: NFKC may expand a character to many (one ligature gives 18).
KEY_MAX_LENGTH = 240


def tidy(name: str) -> str:
    """``name`` with its spaces of any kind collapsed to single ordinary ones."""
    return " ".join(name.split())


def refused_characters(name: str) -> list[str]:
    """The characters of ``name`` a name may not contain, once each, in order."""
    refused = []
    for char in tidy(name):
        bad = char in BLANK_LETTERS or unicodedata.category(char) in REFUSED_CATEGORIES
        if bad and char not in refused:
            refused.append(char)
    return refused


def name_key(name: str) -> str:
    """What two names are compared by: equal keys, same name."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return tidy("".join(char for char in folded if char not in VARIATION_SELECTORS))


def validate_name(name: str) -> None:
    """Refuse a name with an invisible or control character, or too long a key."""
    refused = refused_characters(name)
    if refused:
        raise ValidationError(
            _(
                "Un nom ne peut contenir ni caractère invisible ni caractère de contrôle : "
                "%(characters)s."
            ),
            code="invisible_character",
            params={"characters": ", ".join(f"U+{ord(char):04X}" for char in refused)},
        )
    if len(name_key(name)) > KEY_MAX_LENGTH:
        raise ValidationError(_("Ce nom est trop long."), code="name_too_long")
