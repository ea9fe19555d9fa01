"""Email backends of the sending tests (Django's backend is the edge of the system): a
mail server that refuses, and one that notes what the database looked like as it sent."""

from __future__ import annotations

import smtplib

from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import connection

from games.models import ReminderLog


class RefusingBackend(BaseEmailBackend):
    """The mail server hangs up on every message."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class WatchingBackend(LocmemBackend):
    """Delivers to ``mail.outbox``, noting for each send whether a transaction was open
    and how many ``ReminderLog`` rows existed."""

    seen: list[tuple[bool, int]] = []

    def send_messages(self, email_messages):
        WatchingBackend.seen.append((connection.in_atomic_block, ReminderLog.objects.count()))
        return super().send_messages(email_messages)


def mailer(backend: type) -> dict:
    """A MAILERS setting whose default mailer is ``backend``."""
    return {"default": {"BACKEND": f"{backend.__module__}.{backend.__qualname__}"}}
