"""The session engine: Django's database sessions, which take only a key they could have
made as a session key.

Django accepts any cookie value of 8 characters or more as a key and looks it up in the
session table: a cookie with a NUL in it reached PostgreSQL, which refuses NUL in text,
and every page (and the websocket's handshake, through channels' session middleware)
answered 500 for that browser. Django makes its keys of 32 lowercase letters and digits
(the column holds 40): any other cookie is no session at all, without a query, as a
session that expired would be; a new one replaces it at the next login.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS

KEY_MAX_LENGTH = 40  # django_session.session_key
_VALID = frozenset(VALID_KEY_CHARS)


class SessionStore(db.SessionStore):
    def _validate_session_key(self, key) -> bool:
        return isinstance(key, str) and 8 <= len(key) <= KEY_MAX_LENGTH and _VALID.issuperset(key)
