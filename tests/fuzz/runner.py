"""Sends the fuzz test's requests and judges the answers.

Each request runs inside a savepoint that is rolled back afterwards, with the per-process
memos and the cache emptied: every request finds the same site, whatever the one before
it did (a logout, a deleted row, a move), so the run is deterministic and any request can
be replayed alone. The client enforces CSRF as a browser meets it: a form's own token, or
the cookie's for a POST with no form.

An answer passes when it is not a 5xx (nor an exception a test client re-raises), and
when a 4xx has a message to read and wrote nothing to the database (its session aside).
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.core.signals import got_request_exception
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from games.tables import memo
from tests.fuzz.world import Role, World

FORM = "application/x-www-form-urlencoded"
TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S | re.I)


class FastClient(Client):
    """The test client without its record of every template rendered and a copy of its
    context, which the fuzz test never reads: most of a request's time otherwise."""

    def request(self, **request):
        environ = self._base_environ(**request)
        uid = f"fuzz-exception-{id(request)}"
        got_request_exception.connect(self.store_exc_info, dispatch_uid=uid)
        try:
            response = self.handler(environ)
        finally:
            got_request_exception.disconnect(dispatch_uid=uid)
        self.check_exception(response)  # a 500 raises the view's exception here
        if response.cookies:
            self.cookies.update(response.cookies)
        return response


class Writes:
    """The statements a request wrote with (its session aside): a refused request
    (4xx) must have written nothing."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        verb = sql.lstrip()[:6].upper()
        if verb in ("INSERT", "UPDATE", "DELETE") and "django_session" not in sql:
            self.statements.append(" ".join(sql.split())[:100])
        return execute(sql, params, many, context)


def visible_text(body: str) -> str:
    return " ".join(TAGS.sub(" ", body).split())


class _Undo(Exception):
    pass


@dataclass
class Answer:
    status: int
    body: str
    location: str = ""


@dataclass
class Fuzzer:
    world: World
    clients: dict[str, Client] = field(default_factory=dict)
    cookies: dict[str, dict[str, str]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    sent: int = 0

    def __post_init__(self) -> None:
        for role in self.world.roles:
            client = FastClient(enforce_csrf_checks=True)
            if role.user is not None:
                client.force_login(role.user)
            client.get(reverse("home"))  # the CSRF cookie, as any page sets it
            self.clients[role.name] = client
            self.cookies[role.name] = {name: m.value for name, m in client.cookies.items()}

    def csrf(self, role: Role) -> str:
        return self.clients[role.name].cookies[settings.CSRF_COOKIE_NAME].value

    def send(
        self,
        role: Role,
        method: str,
        path: str,
        *,
        query: str = "",
        body: bytes = b"",
        htmx: bool = False,
        headers: dict | None = None,
        cookies: dict | None = None,
        what: str = "",
    ) -> Answer | None:
        """One request as ``role``; its failures are recorded, and None returned for a
        request that raised."""
        client = self.clients[role.name]
        client.cookies = SimpleCookie()
        for name, value in {**self.cookies[role.name], **(cookies or {})}.items():
            client.cookies[name] = value
        headers = dict(headers or {})
        if htmx:
            headers["hx-request"] = "true"
        extra = {"QUERY_STRING": query} if query else {}
        label = f"{role.name}: {method} {path}{'?' + query if query else ''}"
        label = label if len(label) < 300 else label[:300] + "..."
        if what:
            label += f" [{what}]"
        if htmx:
            label += " (htmx)"
        self.sent += 1
        answer = None
        writes = Writes()
        try:
            with transaction.atomic(), connection.execute_wrapper(writes):
                response = client.generic(
                    method, path, body, content_type=FORM, headers=headers, **extra
                )
                content = (
                    b"".join(response.streaming_content) if response.streaming else response.content
                )
                answer = Answer(
                    response.status_code,
                    content.decode("utf-8", "replace"),
                    response.get("Location", ""),
                )
                raise _Undo
        except _Undo:
            pass
        except Exception as error:  # a 500: the test client re-raises the view's exception
            where = traceback.extract_tb(error.__traceback__)[-1]
            self.failures.append(
                f"{label}: 500 {type(error).__name__}: {str(error)[:200]} "
                f"({where.filename.split('site-packages/')[-1]}:{where.lineno})"
            )
            return None
        finally:
            memo.clear_all()
            cache.clear()
            mail.outbox = []
        if answer.status >= 500:
            self.failures.append(f"{label}: {answer.status}")
        elif answer.status >= 400 and writes.statements:
            self.failures.append(f"{label}: {answer.status} but wrote {writes.statements}")
        elif answer.status >= 400 and len(visible_text(answer.body)) < 10:
            self.failures.append(f"{label}: {answer.status} without a message")
        return answer


def is_login_redirect(answer: Answer | None) -> bool:
    return (
        answer is not None
        and answer.status in (301, 302)
        and (
            answer.location.startswith(reverse("account_login"))
            or answer.location.startswith(reverse("admin:login"))
        )
    )
