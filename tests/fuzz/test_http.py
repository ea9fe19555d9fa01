"""The fuzz test: every URL and every form field of the site, with nasty values, as every
kind of visitor. No answer may be a 5xx; a 4xx must say why and change nothing.

How it goes (tests/fuzz/world.py builds the visitors, tests/fuzz/site.py reads the
site, tests/fuzz/runner.py sends and judges):

1. **Crawl.** Each role opens every URL pattern of the resolver (the admin's as a
   visitor, a player and staff only), its parameters filled with values that make sense
   for them (their table, their club...), plain and with htmx; then posts to each with
   the CSRF token and the fields that forms post there; then submits every form its
   pages rendered, as rendered (each move button, each seat, each admin form...). The
   pages give the forms, their fields and choices, and the query parameters their links
   and htmx controls use (``?vu=``, ``?pli=``, the admin's filters and sorting...).
2. **Fuzz**, one test per role, each item by the first role that reached it (the forms
   of a table's page by each role at their table, so every phase of a game is fuzzed):
   - each path parameter replaced by each nasty value (tests/fuzz/nasty.py);
   - the query parameters seen for a page, all at once, each taking each nasty value
     once over the run (a Latin square: as many requests as values);
   - each form the same way, then one field at a time with the shorter list, each of
     its other choices, and left out (the admin's forms: the Latin square of the
     shorter list only, and the shorter list for its path parameters).
3. Cookies and headers: nasty session, CSRF, language and messages cookies, nasty
   Accept-Language, Host and htmx headers, on a few pages.

The values are a fixed list and every request starts from the same database (a
savepoint rolled back): a run is deterministic, and a failure names the request to
replay. The websocket is fuzzed in tests/fuzz/test_socket.py.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import pytest
from django.conf import settings
from django.db import transaction

from tests.fuzz.nasty import COOKIES, NASTY, SHORT, encode, form_body, query_string
from tests.fuzz.runner import Answer, Fuzzer, is_login_redirect
from tests.fuzz.site import Form, Pattern, parse_page, pattern_of, query_names, url_patterns
from tests.fuzz.world import ROLE_NAMES, Role, World, build

pytestmark = pytest.mark.django_db

ADMIN_ROLES = {"anonymous", "stranger", "staff"}
CSRF_FIELD = "csrfmiddlewaretoken"
OMIT = object()  # a field left out


@dataclass
class Crawl:
    fuzzer: Fuzzer
    patterns: list[Pattern]
    # pattern name -> the roles whose GET (or POST) went past the door: 200 (or a POST
    # not refused as 403/404/405 nor sent to the login page), in role order
    deep_get: dict[str, list[str]] = field(default_factory=dict)
    deep_post: dict[str, list[str]] = field(default_factory=dict)
    # role -> the forms its pages rendered (each once)
    forms: dict[str, list[Form]] = field(default_factory=dict)
    # pattern name -> the query parameters its links, GET forms and htmx controls use
    keys: dict[str, list[str]] = field(default_factory=dict)
    # pattern name -> the fields forms post there (the first value seen for each)
    fields: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    baseline_failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def world(self) -> World:
        return self.fuzzer.world

    def roles_for(self, pattern: Pattern) -> list[Role]:
        return [r for r in self.world.roles if not pattern.is_admin or r.name in ADMIN_ROLES]

    def path(self, role: Role, pattern: Pattern, **replace: str) -> str:
        values = {
            name: encode(value)
            for name, value in self.world.path_values(role, pattern.fmt, pattern.params).items()
        }
        return pattern.path({**values, **replace})

    def owner(self, pattern: Pattern) -> str:
        """The role that fuzzes ``pattern``'s path and query: the first that got past
        the door; else staff for the admin, a plain player elsewhere."""
        for deep in (self.deep_get, self.deep_post):
            if deep.get(pattern.name):
                return deep[pattern.name][0]
        return "staff" if pattern.is_admin else "stranger"

    def pattern_named(self, name: str) -> Pattern:
        return next(p for p in self.patterns if p.name == name)


def post_fields(fields: list[tuple[str, str]], token: str) -> list[tuple[str, str]]:
    if any(name == CSRF_FIELD for name, _value in fields):
        return fields
    return [(CSRF_FIELD, token), *fields]


def split(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.path, parts.query


def run_crawl(world: World) -> Crawl:
    started = time.perf_counter()
    fuzzer = Fuzzer(world)
    crawl = Crawl(fuzzer, url_patterns())
    keys: dict[str, dict[str, None]] = {}

    def note_keys(url: str, names) -> None:
        pattern = pattern_of(unquote(split(url)[0]), crawl.patterns)
        if pattern is not None:
            keys.setdefault(pattern.name, {}).update(dict.fromkeys(n for n in names if n))

    # 1. Every page as every role, plain and with htmx; what the pages show.
    for role in world.roles:
        seen: dict[tuple, Form] = {}
        for pattern in crawl.patterns:
            if role not in crawl.roles_for(pattern):
                continue
            path = crawl.path(role, pattern)
            answer = fuzzer.send(role, "GET", path)
            if answer is None or answer.status != 200:
                continue
            if not pattern.is_admin:  # the page as htmx asks for it (a fragment)
                fuzzer.send(role, "GET", path, htmx=True)
            crawl.deep_get.setdefault(pattern.name, []).append(role.name)
            page = parse_page(answer.body, path)
            for link in page.links:
                note_keys(link, query_names(link))
            for url, name in page.hx_gets:
                note_keys(url, [name])
            for form in page.forms:
                if form.method == "get":
                    note_keys(form.action, [name for name, _v in form.fields])
                # The same form on every page (the language switch) is one form: its
                # token and the page's own address it carries aside.
                fields = tuple(
                    (n, v) for n, v in form.fields if n != CSRF_FIELD and v != unquote(path)
                )
                seen.setdefault((form.method, form.action, fields), form)
        crawl.forms[role.name] = list(seen.values())
        for form in seen.values():
            pattern = pattern_of(unquote(split(form.action)[0]), crawl.patterns)
            if pattern is not None and form.method == "post":
                known = crawl.fields.setdefault(pattern.name, [])
                names = {name for name, _v in known}
                known.extend((n, v) for n, v in form.fields if n not in names and n != CSRF_FIELD)
    crawl.keys = {name: list(found) for name, found in keys.items()}

    # 2. A POST to every URL as every role: the CSRF token and the fields forms post there.
    for role in world.roles:
        token = fuzzer.csrf(role)
        for pattern in crawl.patterns:
            if role not in crawl.roles_for(pattern):
                continue
            body = form_body(post_fields(crawl.fields.get(pattern.name, []), token))
            answer = fuzzer.send(role, "POST", crawl.path(role, pattern), body=body)
            refused = answer is None or answer.status in (403, 404, 405)
            if not refused and not is_login_redirect(answer):
                crawl.deep_post.setdefault(pattern.name, []).append(role.name)

    # 3. Every form its pages rendered, as rendered.
    for role in world.roles:
        for form in crawl.forms[role.name]:
            submit(fuzzer, role, form, form.fields, what="as rendered")

    crawl.baseline_failures = list(fuzzer.failures)
    fuzzer.failures.clear()
    crawl.seconds = time.perf_counter() - started
    return crawl


def submit(
    fuzzer: Fuzzer, role: Role, form: Form, fields, *, htmx: bool = False, what: str = ""
) -> Answer | None:
    path, query = split(form.action)
    if form.method == "get":
        extra = query_string(fields)
        return fuzzer.send(
            role, "GET", path, query="&".join(q for q in (query, extra) if q), what=what
        )
    body = form_body(post_fields(fields, fuzzer.csrf(role)))
    return fuzzer.send(role, "POST", path, query=query, body=body, htmx=htmx, what=what)


@pytest.fixture(scope="module")
def crawl(django_db_setup, django_db_blocker):
    """The world built once for the module, and crawled: every test then works on it
    inside savepoints; the whole is rolled back at the end."""
    with django_db_blocker.unblock(), transaction.atomic():
        crawl = run_crawl(build())
        yield crawl
        transaction.set_rollback(True)


def test_every_page_and_form_as_the_site_renders_them(crawl):
    """The crawl itself: every URL as every role, GET (plain, htmx) and POST, and every
    rendered form submitted as it is. It also checks that the crawl saw the site."""
    assert not crawl.baseline_failures, "\n".join(crawl.baseline_failures)
    names = {p.name for p in crawl.patterns}
    assert {"games:table", "games:play", "player", "admin:index"} <= names
    assert "vu" in crawl.keys["games:table"] + crawl.keys.get("games:board", [])
    assert "pli" in crawl.keys["games:hand"]
    forms = {
        pattern_of(split(f.action)[0], crawl.patterns).name
        for fs in crawl.forms.values()
        for f in fs
        if pattern_of(split(f.action)[0], crawl.patterns)
    }
    for expected in [
        "games:play",
        "games:create",
        "games:take_seat",
        "profile",
        "vacation_declare",
        "clubs:invite",
        "tournaments:register",
        "account_login",
        "account_signup",
        "games:take_back",
    ]:
        assert expected in forms, expected
    print(f"\ncrawl: {crawl.fuzzer.sent} requests, {crawl.seconds:.1f} s")


def _form_owner_key(crawl: Crawl, role: Role, form: Form) -> tuple:
    pattern = pattern_of(unquote(split(form.action)[0]), crawl.patterns)
    name = pattern.name if pattern else form.action
    # The forms of a table's pages are fuzzed by each role at its table (each phase).
    at_table = pattern is not None and "table_id" in pattern.params
    return (role.name if at_table else "", form.method, name, form.names)


def owned_forms(crawl: Crawl, role: Role) -> list[Form]:
    taken: set[tuple] = set()
    mine = []
    for other in crawl.world.roles:
        for form in crawl.forms[other.name]:
            key = _form_owner_key(crawl, other, form)
            if key in taken:
                continue
            taken.add(key)
            if other is role:
                mine.append(form)
    return mine


def latin(names: list[str], values: list[str]) -> list[list[tuple[str, str]]]:
    """As many rows as values; in row i the j-th name takes value i + j: every name takes
    every value once."""
    count = len(values)
    return [[(name, values[(i + j) % count]) for j, name in enumerate(names)] for i in range(count)]


def fuzz_form(fuzzer: Fuzzer, role: Role, form: Form, *, thorough: bool) -> None:
    fields = [(n, v) for n, v in form.fields if n != CSRF_FIELD]
    names = list(dict.fromkeys(n for n, _v in fields)) or ["q"]
    for i, row in enumerate(latin(names, NASTY if thorough else SHORT)):
        submit(fuzzer, role, form, row, htmx=form.htmx and i % 2 == 1, what="all fields nasty")
    if not thorough:
        return
    for name in names:
        others = [(n, v) for n, v in fields if n != name]
        choices = [c for c in form.choices.get(name, []) if (name, c) not in fields]
        for i, value in enumerate([*SHORT, *choices, OMIT]):
            changed = others if value is OMIT else [*others, (name, value)]
            what = f"{name} left out" if value is OMIT else f"{name} changed"
            submit(fuzzer, role, form, changed, htmx=form.htmx and i % 2 == 1, what=what)
    if form.method == "post":  # the CSRF token itself
        for value in ("", "x" * 64, "\ud800" * 32):
            submit(fuzzer, role, form, [(CSRF_FIELD, value), *fields], what="csrf token")


@pytest.mark.parametrize("role_name", ROLE_NAMES)
def test_nasty_input(crawl, role_name):
    fuzzer = crawl.fuzzer
    role = crawl.world.role(role_name)
    started, sent = time.perf_counter(), fuzzer.sent
    fuzzer.failures.clear()

    for pattern in crawl.patterns:
        if crawl.owner(pattern) != role.name:
            continue
        # A page is fuzzed as it opens (GET); an address that only takes forms, by POST.
        get = role.name in crawl.deep_get.get(pattern.name, []) or not crawl.deep_post.get(
            pattern.name
        )
        token = fuzzer.csrf(role)
        body = form_body(post_fields(crawl.fields.get(pattern.name, []), token))
        # Each path parameter, each nasty value.
        values = SHORT if pattern.is_admin else NASTY
        for param in pattern.params:
            for value in values:
                path = crawl.path(role, pattern, **{param: encode(value)})
                if get:
                    fuzzer.send(role, "GET", path, what=f"<{param}>")
                else:
                    fuzzer.send(role, "POST", path, body=body, what=f"<{param}>")
        # The query parameters the site uses for this page.
        names = crawl.keys.get(pattern.name, [])
        if names:
            path = crawl.path(role, pattern)
            for i, row in enumerate(latin(names, NASTY)):
                fuzzer.send(role, "GET", path, query=query_string(row), htmx=i % 2 == 1)

    for form in owned_forms(crawl, role):
        pattern = pattern_of(unquote(split(form.action)[0]), crawl.patterns)
        fuzz_form(fuzzer, role, form, thorough=not (pattern and pattern.is_admin))

    seconds = time.perf_counter() - started
    print(f"\n{role.name}: {fuzzer.sent - sent} requests, {seconds:.1f} s")
    assert not fuzzer.failures, "\n".join(fuzzer.failures)


def test_nasty_cookies_and_headers(crawl):
    fuzzer = crawl.fuzzer
    fuzzer.failures.clear()
    world = crawl.world
    cookies = [
        settings.SESSION_COOKIE_NAME,
        settings.CSRF_COOKIE_NAME,
        settings.LANGUAGE_COOKIE_NAME,
        "messages",
    ]
    headers = ["accept-language", "host", "hx-request", "hx-current-url", "hx-target", "referer"]
    for role_name in ("anonymous", "card play", "staff"):
        role = world.role(role_name)
        table_page = crawl.path(role, crawl.pattern_named("games:table"))
        play = crawl.path(role, crawl.pattern_named("games:play"))
        pages = [("GET", "/", b""), ("GET", table_page, b"")]
        pages.append(
            (
                "POST",
                play,
                form_body(post_fields([("action", "pass"), ("version", "1")], fuzzer.csrf(role))),
            )
        )
        if role_name == "staff":
            pages.append(("GET", "/admin/", b""))
        for method, path, body in pages:
            for value in COOKIES:
                # What a server hands Django: the bytes sent, as latin-1 text (WSGI).
                sent = value.encode("utf-8", "surrogatepass").decode("latin-1")
                for name in cookies:
                    what = f"cookie {name}"
                    fuzzer.send(role, method, path, body=body, cookies={name: sent}, what=what)
                for name in headers:
                    what = f"header {name}"
                    fuzzer.send(role, method, path, body=body, headers={name: sent}, what=what)
    assert not fuzzer.failures, "\n".join(fuzzer.failures)
