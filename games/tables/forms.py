"""Forms of the table pages: what a creator chooses for a new table, and the lobby actions.

They only parse and validate the request; ``games.tables.lobby`` decides and writes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.clubs.service import member_clubs
from games.rules import PRESET_TARGETS, PRESETS
from games.tables.catalogue import (
    OPTION_LABELS,
    PRESET_LABELS,
    PRESET_OPTIONS,
    PRESET_SUMMARIES,
    VALUE_LABELS,
)
from games.tables.lobby import SOUTH, forfeit_after_message
from games.tables.models import (
    ASYNC_MOVE_SECONDS,
    FORFEIT_AFTER,
    LIVE_MOVE_SECONDS,
    SEAT_CHOICES,
    BotLevel,
    ChatSpectators,
    Pace,
    TimeoutPolicy,
)

DEFAULT_PRESET = "classique"

PACE_LABELS = [
    (Pace.LIVE, _("En direct : les quatre joueurs sont là en même temps")),
    (Pace.ASYNC, _("En différé : chacun joue quand il peut")),
]
TIMEOUT_POLICY_LABELS = [
    (TimeoutPolicy.BOT, _("Un robot joue à la place du joueur absent")),
    (TimeoutPolicy.FORFEIT, _("L'équipe perd la partie après N dépassements")),
]


def preset_of(data) -> str:
    """The preset a (possibly unbound) form is about; the default one if unknown."""
    preset = (data or {}).get("preset")
    return preset if preset in PRESETS else DEFAULT_PRESET


class TableForm(forms.Form):
    """A new private table. Its rule options depend on the chosen preset."""

    preset = forms.ChoiceField(label=_("Variante"), choices=list(PRESET_LABELS.items()))
    pace = forms.ChoiceField(
        label=_("Rythme de la partie"), choices=PACE_LABELS, widget=forms.RadioSelect
    )
    # Only the time of the chosen pace is checked (in clean): the other one is ignored.
    live_seconds = forms.IntegerField(
        label=_("Temps par coup en direct (secondes)"),
        help_text=_("De 30 à 600 secondes."),
        required=False,
        widget=forms.NumberInput(attrs={"min": LIVE_MOVE_SECONDS[0], "max": LIVE_MOVE_SECONDS[1]}),
    )
    async_hours = forms.IntegerField(
        label=_("Temps par coup en différé (heures)"),
        help_text=_("De 1 heure à 7 jours (168 heures)."),
        required=False,
        widget=forms.NumberInput(
            attrs={"min": ASYNC_MOVE_SECONDS[0] // 3600, "max": ASYNC_MOVE_SECONDS[1] // 3600}
        ),
    )
    timeout_policy = forms.ChoiceField(
        label=_("Quand le temps est écoulé"),
        choices=TIMEOUT_POLICY_LABELS,
        widget=forms.RadioSelect,
        required=False,  # a post without it (an older page) keeps the default, the robot
    )
    # Only checked (in clean) when the forfeit is chosen: otherwise ignored.
    forfeit_after = forms.IntegerField(
        label=_("Nombre de dépassements avant le forfait (N)"),
        help_text=_("De 1 à 10 ; ne compte que si l'équipe perd la partie après N dépassements."),
        required=False,
        widget=forms.NumberInput(attrs={"min": FORFEIT_AFTER[0], "max": FORFEIT_AFTER[1]}),
    )
    seat = forms.TypedChoiceField(label=_("Votre place"), choices=SEAT_CHOICES, coerce=int)
    fill_with_bots = forms.BooleanField(
        label=_("Au démarrage, des robots prennent les places restées libres"),
        required=False,
    )
    bot_level = forms.ChoiceField(label=_("Niveau des robots"), choices=BotLevel.choices)
    allow_spectators = forms.BooleanField(
        label=_("Spectateurs admis"),
        help_text=_(
            "Une fois la partie commencée, qui ouvre le lien d'invitation la regarde, "
            "sans voir aucune main."
        ),
        required=False,
    )
    is_open = forms.BooleanField(
        label=_("Table ouverte"),
        help_text=_(
            "Elle apparaît dans la liste des tables ouvertes : tout joueur connecté s'y "
            "assoit sans invitation (pour une table de club, tout membre du club)."
        ),
        required=False,
    )

    def __init__(self, data=None, *, preset: str | None = None, user=None, **kwargs) -> None:
        self.chosen_preset = preset_of(data if data is not None else {"preset": preset})
        rules = PRESETS[self.chosen_preset]
        initial = {
            "preset": self.chosen_preset,
            "pace": Pace.LIVE,
            "live_seconds": 120,
            "async_hours": 24,
            "timeout_policy": TimeoutPolicy.BOT,
            "forfeit_after": 3,
            "seat": SOUTH,
            "bot_level": BotLevel.HEURISTIC,
            "target": rules.target,
            **kwargs.pop("initial", {}),
        }
        super().__init__(data, initial=initial, **kwargs)
        # Choosing other rules fetches their options (the page's #options fragment).
        self.fields["preset"].widget.attrs.update(
            {
                "hx-get": reverse("games:create"),
                "hx-trigger": "change",
                "hx-target": "#preset-options",
                "hx-swap": "outerHTML",
            }
        )
        self.fields["target"] = forms.TypedChoiceField(
            label=_("Partie en"),
            choices=[(t, _("%(points)s points") % {"points": t}) for t in self._targets],
            coerce=int,
        )
        self.option_names = []
        for option in PRESET_OPTIONS[self.chosen_preset]:
            self.option_names.append(option.name)
            self.initial.setdefault(option.name, getattr(rules, option.name))
            if all(isinstance(c, bool) for c in option.choices):
                field = forms.BooleanField(label=OPTION_LABELS[option.name], required=False)
            else:
                field = forms.ChoiceField(
                    label=OPTION_LABELS[option.name],
                    choices=[(c, VALUE_LABELS[option.name][c]) for c in option.choices],
                    widget=forms.RadioSelect,
                )
            self.fields[option.name] = field
        # A club table, for the clubs the creator belongs to; none chosen: a private one.
        clubs = member_clubs(user).order_by("name")
        if clubs.exists():
            self.fields["club"] = forms.ModelChoiceField(
                label=_("Club"),
                queryset=clubs,
                required=False,
                empty_label=_("Aucun : table privée"),
                help_text=_(
                    "Les membres du club voient une table de club et s'y assoient sans invitation."
                ),
            )

    @classmethod
    def entered(cls, data, *, user=None) -> TableForm:
        """An unbound form that shows ``data`` again, unchecked: what the no-JavaScript
        "Afficher les options de ces règles" button posts. The options and target of the
        rules chosen keep their defaults unless the value entered is one of theirs (it may
        come from other rules); anything that is not a field (the CSRF token) is left out.
        """
        form = cls(preset=data.get("preset"), user=user)
        for name, field in form.fields.items():
            if name not in data:
                continue
            value = data.get(name)
            choices = getattr(field, "choices", None)
            if choices is not None and value not in {str(choice) for choice, _label in choices}:
                continue
            form.initial[name] = value
        return form

    @property
    def _targets(self) -> tuple[int, ...]:
        return PRESET_TARGETS[self.chosen_preset]

    @property
    def preset_summary(self):
        return PRESET_SUMMARIES[self.chosen_preset]

    @property
    def option_fields(self):
        return [self[name] for name in ["target", *self.option_names]]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("pace") == Pace.LIVE:
            self._check_time(data, "live_seconds", LIVE_MOVE_SECONDS, 1)
        elif data.get("pace") == Pace.ASYNC:
            self._check_time(data, "async_hours", ASYNC_MOVE_SECONDS, 3600)
        if (
            data.get("timeout_policy") == TimeoutPolicy.FORFEIT
            and "forfeit_after" not in self.errors
        ):
            value = data.get("forfeit_after")
            if value is None or not FORFEIT_AFTER[0] <= value <= FORFEIT_AFTER[1]:
                self.add_error("forfeit_after", forfeit_after_message())
        return data

    def _check_time(self, data, name: str, limits: tuple[int, int], unit: int) -> None:
        if name in self.errors:
            return
        value = data.get(name)
        low, high = limits[0] // unit, limits[1] // unit
        if value is None:
            self.add_error(name, _("Indiquez le temps par coup."))
        elif not low <= value <= high:
            self.add_error(
                name,
                _("Choisissez un temps entre %(low)s et %(high)s.") % {"low": low, "high": high},
            )

    # The table's chat (games/tables/chat.py), which the creator may change later.
    chat_enabled = forms.BooleanField(
        label=_("Discussion ouverte"),
        help_text=_("Pendant une donne, seules des réactions toutes faites peuvent être envoyées."),
        required=False,
        initial=True,
    )
    chat_spectators = forms.ChoiceField(
        label=_("Les spectateurs et la discussion"),
        choices=ChatSpectators.choices,
        widget=forms.RadioSelect,
        required=False,
        initial=ChatSpectators.NONE,
    )

    def chat_kwargs(self) -> dict[str, Any]:
        """The arguments of ``chat.set_settings`` (the form must be valid)."""
        data = self.cleaned_data
        return {
            "enabled": data["chat_enabled"],
            "spectators": data["chat_spectators"] or ChatSpectators.NONE,
        }

    def table_kwargs(self) -> dict[str, Any]:
        """The arguments of ``lobby.create_private_table`` (the form must be valid)."""
        data = self.cleaned_data
        if data["pace"] == Pace.LIVE:
            move_seconds = data["live_seconds"]
        else:
            move_seconds = data["async_hours"] * 3600
        return {
            "preset": data["preset"],
            "target": data["target"],
            "options": {name: data[name] for name in self.option_names},
            "pace": data["pace"],
            "move_seconds": move_seconds,
            "fill_with_bots": data["fill_with_bots"],
            "bot_level": data["bot_level"],
            "seat": data["seat"],
            "allow_spectators": data["allow_spectators"],
            "timeout_policy": data["timeout_policy"] or TimeoutPolicy.BOT,
            "club": data.get("club"),
            "is_open": data["is_open"],
            # The number of timeouts only counts under the forfeit policy.
            **(
                {"forfeit_after": data["forfeit_after"]}
                if data["timeout_policy"] == TimeoutPolicy.FORFEIT
                else {}
            ),
        }


class SpectatorsForm(forms.Form):
    allowed = forms.BooleanField(label=_("Spectateurs admis"), required=False)


class OpenForm(forms.Form):
    is_open = forms.BooleanField(label=_("Table ouverte"), required=False)


class OpenTablesFilter(forms.Form):
    """The filters of the list of open tables (a GET form): empty, everything."""

    preset = forms.ChoiceField(
        label=_("Variante"),
        choices=[("", _("Toutes les variantes")), *PRESET_LABELS.items()],
        required=False,
    )
    pace = forms.ChoiceField(
        label=_("Rythme"),
        choices=[("", _("En direct et en différé")), *Pace.choices],
        required=False,
    )

    def filters(self) -> dict[str, str]:
        """The valid filters (an invalid one filters nothing)."""
        if not self.is_bound:
            return {"preset": "", "pace": ""}
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        return {name: data.get(name) or "" for name in ("preset", "pace")}


class ChatForm(forms.Form):
    """A chat message: free text, or one of the reactions (games/tables/chat.py checks
    both, and which is allowed now)."""

    text = forms.CharField(label=_("Message"), required=False, strip=False, max_length=1000)
    reaction = forms.CharField(required=False, max_length=16)


class ChatMuteForm(forms.Form):
    muted = forms.BooleanField(required=False)


class ChatSettingsForm(forms.Form):
    enabled = forms.BooleanField(label=_("Discussion ouverte"), required=False)
    spectators = forms.ChoiceField(
        label=_("Spectateurs"), choices=ChatSpectators.choices, widget=forms.RadioSelect
    )


class PlayForm(forms.Form):
    """One move at the table: the engine's action text and the version it was chosen at."""

    action = forms.CharField(max_length=16)
    version = forms.IntegerField(min_value=0)


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Nom d'utilisateur"), max_length=150)


class SeatForm(forms.Form):
    position = forms.TypedChoiceField(label=_("Place"), choices=SEAT_CHOICES, coerce=int)


class BotForm(SeatForm):
    level = forms.ChoiceField(label=_("Niveau du robot"), choices=BotLevel.choices)


class MoveForm(forms.Form):
    from_position = forms.TypedChoiceField(label=_("De"), choices=SEAT_CHOICES, coerce=int)
    to_position = forms.TypedChoiceField(label=_("Vers"), choices=SEAT_CHOICES, coerce=int)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("from_position") is not None and data.get("from_position") == data.get(
            "to_position"
        ):
            raise forms.ValidationError(_("Choisissez deux places différentes."))
        return data


# What the verification page accepts: a record pasted, or a record or archive uploaded.
MAX_PASTED_RECORD = 1_000_000
MAX_UPLOADED_RECORDS = 10_000_000


class VerifyForm(forms.Form):
    """A game record (JSON) pasted, or a record or a zip archive of records uploaded."""

    record = forms.CharField(
        label=_("Enregistrement (JSON)"),
        required=False,
        max_length=MAX_PASTED_RECORD,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    file = forms.FileField(
        label=_("Ou un fichier : enregistrement .json ou archive .zip d'un tournoi"),
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        pasted, uploaded = data.get("record"), data.get("file")
        if self.errors:
            return data
        if bool(pasted) == bool(uploaded):
            raise forms.ValidationError(
                _("Collez un enregistrement ou choisissez un fichier (l'un des deux).")
            )
        if uploaded is not None and uploaded.size > MAX_UPLOADED_RECORDS:
            raise forms.ValidationError(_("Ce fichier est trop gros (10 Mo au plus)."))
        return data

    def content(self) -> bytes:
        uploaded = self.cleaned_data.get("file")
        if uploaded is not None:
            return uploaded.read(MAX_UPLOADED_RECORDS + 1)
        return self.cleaned_data["record"].encode("utf-8")
