"""Forms of the club pages. They only parse the request; ``accounts.clubs.service`` decides."""

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import ClubRole, JoinRequest


class ClubInviteForm(forms.Form):
    username = forms.CharField(label=_("Nom d'utilisateur"), max_length=150)


class JoinRequestForm(forms.Form):
    message = forms.CharField(
        label=_("Message aux organisateurs (facultatif)"),
        max_length=JoinRequest._meta.get_field("message").max_length,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Rôle"), choices=ClubRole.choices)
