"""Our hooks into allauth's account flows."""

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.utils import translation


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        """Remember the language the new player signed up in as their preference."""
        language = translation.get_language()
        if language in dict(settings.LANGUAGES):
            user.language = language
        return super().save_user(request, user, form, commit=commit)
