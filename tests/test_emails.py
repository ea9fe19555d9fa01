"""Every email subject of the site is plain text on one line (belote_site/emails.py):
what a name or a translation brings is neither HTML-escaped nor a line break."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from belote_site.emails import render_email

HOSTILE = '<i>L\'Étoile</i> & "Cie"\nsuite'
SUBJECTS = sorted(Path(settings.BASE_DIR, "templates", "emails").glob("*_subject.txt"))


class Anything:
    """Any attribute of a context variable, as a hostile string."""

    pk = HOSTILE
    name = HOSTILE

    def __str__(self) -> str:
        return HOSTILE


@pytest.mark.parametrize("path", SUBJECTS, ids=lambda path: path.stem)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_subject_is_plain_text_on_one_line(path, language):
    name = path.name.removesuffix("_subject.txt")
    context = {key: Anything() for key in ("club", "table", "user", "player", "invited_by")}
    context["lines"] = [{"table": Anything(), "url": "", "deadline": None}] * 2

    with translation.override(language):
        subject, _, _ = render_email(f"emails/{name}", context)

    assert subject.startswith("[Belote] ")
    for escaped in ("&lt;", "&gt;", "&amp;", "&#x27;", "&quot;"):
        assert escaped not in subject
    assert "\n" not in subject and "  " not in subject
    if name != "digest":  # the digest's subject says a number alone
        assert '<i>L\'Étoile</i> & "Cie" suite' in subject
