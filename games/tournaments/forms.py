"""The form of the tournament page: registering, with a partner or alone."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.tournaments.registration import TEAM_NAME_LENGTH


class RegisterForm(forms.Form):
    partner = forms.CharField(
        label=_("Partenaire (nom d'utilisateur)"),
        max_length=150,
        required=False,
        help_text=_(
            "Laissez vide pour vous inscrire sans partenaire : l'organisateur vous en trouvera un."
        ),
    )
    name = forms.CharField(
        label=_("Nom d'équipe (facultatif)"), max_length=TEAM_NAME_LENGTH, required=False
    )
