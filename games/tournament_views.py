"""Tournament pages. To be written (issue 7)."""

from django.http import Http404


def tournament_detail(request, tournament_id):
    raise Http404


def tournament_bracket(request, tournament_id):
    raise Http404
