"""Forms of the accounts pages that allauth does not provide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "language", "notify"]
        widgets = {"notify": forms.RadioSelect}


class VacationForm(forms.Form):
    start = forms.DateField(label=_("Du"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Au (inclus)"), widget=forms.DateInput(attrs={"type": "date"}))
