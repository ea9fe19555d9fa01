"""The catalogue of the presets for the web, in one place: each preset's name as the pages
show it, its summary, and the rule options a table's creator may change (with the values
each may take), and the words for every option a table may hold.

The engine (games/rules/presets.py) defines the presets and their rules; this catalogue
says how the site offers them. ``games.tables.lobby`` checks a new table's options against
``PRESET_OPTIONS``, ``games.forms`` builds the new-table form from it, and the pages name
the options with ``option_changes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.rules import PRESETS
from games.tables.models import PRESET_LABELS


@dataclass(frozen=True)
class TableOption:
    """One rule option a creator may change for a preset, and the values it may take."""

    name: str
    choices: tuple[Any, ...]


# What each preset lets a table change, besides the target (PRESET_TARGETS). Only what its
# document offers or leaves open (shared/rules/README.md): classique's option of automatic
# announces, annonces' announces declared or automatic, moderne's redeal options of the
# Salon, stekius' exchange of the trump 7; belote_com has none.
PRESET_OPTIONS: dict[str, tuple[TableOption, ...]] = {
    "classique": (TableOption("announces", ("off", "auto")),),
    "annonces": (TableOption("announces", ("declared", "auto")),),
    "moderne": (
        TableOption("redeal_main_nulle", (True, False)),
        TableOption("redeal_four_sevens", (True, False)),
    ),
    "stekius": (TableOption("seven_exchange", (True, False)),),
    "belote_com": (),
}
assert set(PRESET_OPTIONS) == set(PRESETS)

PRESET_SUMMARIES = {
    "classique": _(
        "Sens inverse des aiguilles d'une montre, distribution 3 puis 2, seule la belote "
        "compte ; les annonces automatiques sont en option."
    ),
    "annonces": _(
        "Distribution par 5, chaque joueur décide d'annoncer au premier pli ; le contrat "
        "est de 82 points, belote comprise."
    ),
    "moderne": _(
        "Une prise peut être couverte en sans atout puis en tout atout ; redistribution "
        "possible sur une main nulle ou un carré de 7."
    ),
    "stekius": _(
        "Annonces automatiques, le détenteur du 7 d'atout peut l'échanger contre la carte "
        "retournée, capot à 250."
    ),
    "belote_com": _(
        "Sens des aiguilles d'une montre, distribution par 5, sans annonces, 82 points de "
        "plis pour le preneur, partie en 501."
    ),
}
assert set(PRESET_LABELS) == set(PRESET_SUMMARIES) == set(PRESETS)

OPTION_LABELS = {
    "announces": _("Annonces"),
    "seven_exchange": _("Échange du 7 d'atout contre la carte retournée"),
    "redeal_main_nulle": _("Redistribuer sur une main nulle (moins de 11 points, sans atout)"),
    "redeal_four_sevens": _("Redistribuer sur un carré de 7"),
    # Options no creator chooses, which a table keeps from older presets (migration 0008)
    # or gets from the admin: the table page names them all the same.
    "second_round_excludes_turned": _(
        "Au second tour, la couleur de la retourne ne peut plus être choisie"
    ),
    "litige": _("Égalité (litige)"),
    "belote_kept": _("Dedans ou en litige, le preneur garde sa belote"),
}
ANNOUNCE_LABELS = {
    "off": _("Sans annonces (la belote seule)"),
    "auto": _("Annonces automatiques"),
    "declared": _("Annonces déclarées par les joueurs"),
}
VALUE_LABELS = {
    "announces": ANNOUNCE_LABELS,
    "litige": {
        "held": _("les points du preneur attendent la donne suivante"),
        "taker_fails": _("le preneur est dedans"),
    },
}


def option_changes(options: dict[str, Any]) -> list[str]:
    """What a table's (or a tournament's) stored options change in its preset, in words;
    the target is shown apart. An option without a label here (set in the admin) shows
    under its own name."""
    changes = []
    for name, value in options.items():
        if name == "target":
            continue
        if name == "announces" and value in ANNOUNCE_LABELS:
            changes.append(str(ANNOUNCE_LABELS[value]))  # says what it is about
            continue
        if isinstance(value, bool):
            shown = _("oui") if value else _("non")
        elif isinstance(value, str):
            shown = VALUE_LABELS.get(name, {}).get(value, value)
        else:
            shown = str(value)
        label = OPTION_LABELS.get(name, name)
        changes.append(str(_("%(option)s : %(value)s") % {"option": label, "value": shown}))
    return changes
