"""Club pages. To be written (issue 7)."""

from django.http import Http404


def club_list(request):
    raise Http404


def club_detail(request, slug):
    raise Http404
