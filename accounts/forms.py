"""Forms of the accounts pages that allauth does not provide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User, name_taken
from accounts.names import tidy

NAME_TAKEN = _("Ce nom est déjà celui d'un autre joueur.")


class DisplayNameMixin:
    """The display name's rule, in the profile and in the admin."""

    def clean_display_name(self) -> str:
        """A display name is shown where a username would be (seats, invitations, the
        dashboard): it may not be another player's username or display name, compared
        once normalised (accounts/names.py: case, width, spaces), or anyone could sit down
        as someone else. Invisible and control characters are refused by the field."""
        name = tidy(self.cleaned_data["display_name"])
        if name and name_taken(name, by=self.instance):
            raise forms.ValidationError(NAME_TAKEN)
        return name


class ProfileForm(DisplayNameMixin, forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "language", "notify"]
        widgets = {"notify": forms.RadioSelect}


class VacationForm(forms.Form):
    start = forms.DateField(label=_("Du"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Au (inclus)"), widget=forms.DateInput(attrs={"type": "date"}))
