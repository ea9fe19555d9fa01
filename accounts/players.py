"""A player's public page: their rating and rated games. To be written (issue 7)."""

from django.http import Http404


def player_profile(request, username):
    raise Http404
