"""The session engine: Django's database sessions, which take only a key they could have
made as a session key.

Django accepts any cookie value of 8 characters or more as a key and looks it up in the
session table: a cookie with a NUL in it reached PostgreSQL, which refuses NUL in text,
and every page (and the websocket's handshake, through channels' session middleware)
answered 500 for that browser. Django makes its keys of 32 lowercase letters and digits
(the column holds 40): any other cookie is no session at all, without a query, as a
session that expired would be; a new one replaces it at the next login.

Reading a session (most requests: the user is in it) is Django's query, written once as
SQL: the ORM would build and compile the same statement again on every request (a fifth
of what a move's POST spent on its session and user before the view).
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.db import connections, router
from django.utils import timezone

KEY_MAX_LENGTH = 40  # django_session.session_key
_VALID = frozenset(VALID_KEY_CHARS)


class SessionStore(db.SessionStore):
    def _validate_session_key(self, key) -> bool:
        return isinstance(key, str) and 8 <= len(key) <= KEY_MAX_LENGTH and _VALID.issuperset(key)

    def load(self) -> dict:
        """The session's data if its key is in the table and has not expired, else none
        (and no key), as Django's ``load``."""
        if self.session_key is not None:
            connection = connections[router.db_for_read(self.model)]
            quote = connection.ops.quote_name
            sql = (
                f"SELECT {quote('session_data')} FROM {quote(self.model._meta.db_table)}"
                f" WHERE {quote('session_key')} = %s AND {quote('expire_date')} > %s"
            )
            now = connection.ops.adapt_datetimefield_value(timezone.now())
            with connection.cursor() as cursor:
                cursor.execute(sql, [self.session_key, now])
                row = cursor.fetchone()
            if row is not None:
                return self.decode(row[0])
        self._session_key = None
        return {}
