"""Forms of the accounts pages that allauth does not provide."""

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "language", "notify"]
        widgets = {"notify": forms.RadioSelect}

    def clean_display_name(self) -> str:
        """A display name is shown where a username would be (seats, invitations, the
        dashboard): it may not be another player's username or display name, whatever the
        case, or anyone could sit down as someone else."""
        name = " ".join(self.cleaned_data["display_name"].split())
        if not name:
            return name
        taken = (
            User.objects.filter(Q(username__iexact=name) | Q(display_name__iexact=name))
            .exclude(pk=self.instance.pk)
            .exists()
        )
        if taken:
            raise forms.ValidationError(_("Ce nom est déjà celui d'un autre joueur."))
        return name


class VacationForm(forms.Form):
    start = forms.DateField(label=_("Du"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Au (inclus)"), widget=forms.DateInput(attrs={"type": "date"}))
