"""The parts of an email of ours, from its three templates: ``<name>_subject.txt``,
``<name>.txt`` and ``<name>.html`` (templates/emails/).

The subject and the text part are plain text: they are rendered without HTML escaping,
whatever their template says, so a club named "L'Étoile & <Co>" reads as such and not as
"L&#x27;Étoile &amp; &lt;Co&gt;". Only the HTML part escapes. The subject is one line:
whatever whitespace or line breaks the template or a name brings become single spaces (a
line break in a header would be refused by the mail library).
"""

from __future__ import annotations

from django.template import Context, engines
from django.template.loader import render_to_string


def render_plain(template_name: str, context: dict) -> str:
    """``template_name`` rendered as plain text: no HTML escaping."""
    template = engines["django"].engine.get_template(template_name)
    return template.render(Context(context, autoescape=False))


def render_email(template: str, context: dict) -> tuple[str, str, str]:
    """(subject, text, html) of ``template``, in the active language."""
    subject = " ".join(render_plain(f"{template}_subject.txt", context).split())
    text = render_plain(f"{template}.txt", context)
    html = render_to_string(f"{template}.html", context)
    return subject, text, html
