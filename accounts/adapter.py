"""Our hooks into allauth's account flows."""

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation

from accounts.names import validate_name


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        """Remember the language the new player signed up in as their preference."""
        language = translation.get_language()
        if language in dict(settings.LANGUAGES):
            user.language = language
        return super().save_user(request, user, form, commit=commit)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks, then ours (accounts/names.py): no invisible character, and
        not a name another player shows, compared once normalised."""
        from accounts.forms import NAME_TAKEN
        from accounts.models import name_taken

        username = super().clean_username(username, shallow=shallow)
        validate_name(username)
        if not shallow and name_taken(username):
            raise ValidationError(NAME_TAKEN)
        return username
