"""Development email (settings/dev.py): each message is written to var/mail/ as a plain
text file, its headers and body decoded, so that a link in it can be opened as it reads
(a console dump is quoted-printable: long lines are cut by a "=" and mixed with the
server's log). An HTML alternative goes beside it in a .html file. One line on stderr
says where each message went.
"""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone

_numbers = itertools.count(1)


def mail_folder() -> Path:
    return Path(settings.BASE_DIR) / "var" / "mail"


class EmailBackend(BaseEmailBackend):
    def __init__(self, *, folder: str | os.PathLike | None = None, stream=None, **kwargs):
        super().__init__(**kwargs)
        self.folder = Path(folder) if folder else mail_folder()
        self.stream = stream or sys.stderr

    def send_messages(self, email_messages) -> int:
        sent = 0
        for message in email_messages:
            try:
                path = self._write(message)
            except OSError:
                if not self.fail_silently:
                    raise
                continue
            recipients = ", ".join(message.recipients())
            self.stream.write(f"E-mail to {recipients}: {message.subject}\n  → {path}\n")
            self.stream.flush()
            sent += 1
        return sent

    def _write(self, message) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
        path = self.folder / f"{stamp}-{os.getpid()}-{next(_numbers):03d}.txt"
        headers = {
            "From": message.from_email,
            "To": ", ".join(message.to),
            "Subject": message.subject,
            **message.extra_headers,
        }
        lines = [f"{name}: {value}" for name, value in headers.items()]
        html = [
            content for content, kind in getattr(message, "alternatives", []) if kind == "text/html"
        ]
        if html:
            html_path = path.with_suffix(".html")
            html_path.write_text(str(html[0]), encoding="utf-8")
            lines.append(f"X-HTML-Version: {html_path.name}")
        path.write_text("\n".join(lines) + "\n\n" + message.body + "\n", encoding="utf-8")
        return path
