"""Forms of the accounts pages that allauth does not provide, and two of allauth's with
what the login's lock needs (ACCOUNT_FORMS)."""

import datetime

from allauth.account import forms as allauth_forms
from allauth.account.adapter import get_adapter
from allauth.core import context, ratelimit
from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import vacations
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
    """The dates of a new absence, within the bounds of ``vacations.check_dates``, which
    the browser's date pickers are told too."""

    start = forms.DateField(label=_("Du"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Au (inclus)"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        today = timezone.localdate()
        last_start = today + datetime.timedelta(days=settings.VACATION_MAX_AHEAD_DAYS)
        last_end = last_start + datetime.timedelta(days=settings.VACATION_DAYS_PER_YEAR - 1)
        for name, last in (("start", last_start), ("end", last_end)):
            self.fields[name].widget.attrs.update(min=today.isoformat(), max=last.isoformat())

    def clean(self) -> dict:
        data = super().clean()
        if data.get("start") and data.get("end"):
            try:
                vacations.check_dates(data["start"], data["end"])
            except vacations.VacationError as refused:
                raise forms.ValidationError(refused.message) from refused
        return data


# ---------------------------------------------------------------------------------------
# Logging in while an address is locked
#
# allauth locks an address's password after 5 failures in 5 minutes, whoever made them:
# anyone can lock anyone. The lock stays (it stops guessing), but the emailed login code
# stays open to the owner: its limit per address counts per address *and* client
# (``request_login_code_client``, settings), so a stranger asking for codes for the
# address uses up their own allowance, not the owner's; per client, 20 a minute over all
# addresses (allauth's ``request_login_code``).

LOCKED = _(
    "Trop de tentatives de connexion échouées. Réessayez plus tard, "
    "ou recevez un code de connexion par e-mail."
)


class LoginForm(allauth_forms.LoginForm):
    """allauth's, whose lock message says the way in that stays open."""

    def clean(self):
        try:
            return super().clean()
        except forms.ValidationError as refused:
            if refused.code == "too_many_login_attempts":
                raise forms.ValidationError(LOCKED, code=refused.code) from refused
            raise


class RequestLoginCodeForm(allauth_forms.RequestLoginCodeForm):
    """allauth's, the codes sent to an address limited per address and client."""

    def clean_email(self) -> str:
        email = super().clean_email()
        if email:
            adapter = get_adapter()
            client = adapter.get_client_ip(context.request)
            key = f"{email.lower()} {client}"
            if not ratelimit.consume(context.request, action="request_login_code_client", key=key):
                raise adapter.validation_error("too_many_login_attempts")
        return email
