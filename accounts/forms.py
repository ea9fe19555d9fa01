"""Forms of the accounts pages that allauth does not provide."""

from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "language", "notify"]
        widgets = {"notify": forms.RadioSelect}
