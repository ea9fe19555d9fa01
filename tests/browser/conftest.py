"""Browser tests: Playwright's sync API driving Debian's Chromium against ``live_server``.

Playwright cannot download its own browsers here, so it drives ``/usr/bin/chromium``
(``apt-get install chromium``; ``.ci/run`` installs it). Without it the tests are skipped
with the reason, except under CI (``CI`` set), where they must run: they fail instead.

Everything collected under ``tests/browser/`` is marked ``browser`` and runs after the
rest of the suite, for two reasons:

- while Playwright runs, its sync API keeps its event loop marked as running in this
  thread, and Django refuses ORM calls from a thread with a running loop unless
  ``DJANGO_ALLOW_ASYNC_UNSAFE`` is set. The ``playwright`` fixture sets it for as long as
  Playwright is up (from the first browser test to the end of the session), so no other
  test runs with it;
- ``live_server`` needs the transactional database, which is flushed after each test.

Every browser context a test opens is watched (``page_guard``): a Content Security Policy
violation, an uncaught script error or an error on the console fails the test, so the
pages, htmx and static/js/table.js are proven to run under the site's strict CSP. A test
that provokes errors on purpose (a network failure) allows their console lines by pattern.

``daphne`` serves the site with websockets (tests/browser/live.py has the helpers).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from tests.browser.live import Player
from tests.processes import daphne_server

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium keeps calling Google's services, which
# a closed network answers with a stream of refused connections.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# Playwright's default is 30 s; a page of this site that takes 10 s is a failure.
TIMEOUT_MS = 10_000

HERE = Path(__file__).parent
ROOT = HERE.parents[1]

# Installed in every page before its own scripts (Playwright's init scripts are not subject
# to the page's CSP): each violation is reported to the test through a binding.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", function (event) {
  window.__reportCspViolation({
    directive: event.violatedDirective,
    blocked: event.blockedURI,
    source: event.sourceFile + ":" + event.lineNumber,
    sample: event.sample,
  });
});
"""


class PageGuard:
    """Collects what must never happen in a page of the site: a CSP violation, an uncaught
    script error, an error on the console (unless its text matches an allowed pattern)."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.allowed: list[re.Pattern] = []
        self.contexts: list = []

    def allow(self, pattern: str) -> None:
        """Console errors matching ``pattern`` are expected (never CSP violations)."""
        self.allowed.append(re.compile(pattern))

    def watch(self, context):
        context.expose_binding("__reportCspViolation", self._violation)
        context.add_init_script(script=CSP_LISTENER)
        context.on("console", self._console)
        context.on("weberror", self._script_error)
        self.contexts.append(context)
        return context

    def _violation(self, source, report: dict) -> None:
        self.problems.append(f"CSP violation on {source['page'].url}: {report}")

    def _console(self, message) -> None:
        if message.type != "error":
            return
        text = message.text
        if "Content Security Policy" in text or not any(p.search(text) for p in self.allowed):
            self.problems.append(f"console error: {text} ({message.location.get('url')})")

    def _script_error(self, error) -> None:
        self.problems.append(f"uncaught script error: {error.error}")

    def flush(self) -> None:
        """Let the pages' pending reports reach the test (one round trip each)."""
        for context in self.contexts:
            for page in context.pages:
                with contextlib.suppress(PlaywrightError):  # closed meanwhile
                    page.evaluate("0")

    def take(self) -> list[str]:
        """The problems so far, forgotten (for a test that provokes one on purpose)."""
        self.flush()
        problems, self.problems = self.problems, []
        return problems


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(reason: str) -> None:
    """Skip locally; under CI the browser tests must run, so fail loudly."""
    if _in_ci():
        pytest.fail(f"CI must run the browser tests, but {reason}", pytrace=False)
    pytest.skip(reason)


def pytest_collection_modifyitems(config, items):
    """Mark the tests of this directory ``browser`` and move them after all the others."""
    browser_items, other_items = [], []
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
            browser_items.append(item)
        else:
            other_items.append(item)
    items[:] = other_items + browser_items


@pytest.fixture(scope="session")
def playwright() -> Iterator:
    if not os.access(CHROMIUM, os.X_OK):
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    with pytest.MonkeyPatch.context() as patch:
        # See the module docstring: Playwright's loop looks running to Django's ORM.
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as driver:
            yield driver


@pytest.fixture(scope="session")
def browser(playwright) -> Iterator:
    """One headless Chromium for the whole session."""
    chromium = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
    yield chromium
    chromium.close()


@pytest.fixture
def page_guard(browser) -> Iterator[PageGuard]:
    """Fails the test on a CSP violation, an uncaught script error or a console error in
    any context it watches (``new_context`` and the live tests' players are watched)."""
    guard = PageGuard()
    yield guard
    guard.flush()
    if guard.problems:
        pytest.fail("\n".join(["The pages broke the rules:", *guard.problems]), pytrace=False)


@pytest.fixture
def new_context(browser, live_server, page_guard) -> Iterator[Callable]:
    """Make a fresh browser context (its own cookies: one user each) on the live server.

    French by default: the site follows the browser's Accept-Language.
    """
    contexts = []

    def make(**options):
        options.setdefault("base_url", live_server.url)
        options.setdefault("locale", "fr-FR")
        options.setdefault("viewport", {"width": 1280, "height": 900})
        context = browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        page_guard.watch(context)
        contexts.append(context)
        return context

    yield make
    page_guard.flush()
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context):
    """A page in a fresh French browser context."""
    return new_context().new_page()


@pytest.fixture
def daphne(transactional_db, tmp_path):
    """The base URL of a Daphne process serving the site on a free port of 127.0.0.1."""
    # DJANGO_ALLOW_ASYNC_UNSAFE is set in this process for Playwright's sake (see the
    # module docstring); the server runs without it, with Django's checks on.
    with daphne_server(tmp_path / "daphne.log") as base_url:
        yield base_url


@pytest.fixture
def table_page(browser, daphne, page_guard):
    """Open the page of one seated player of a started table: ``open(table, position)``
    (``before_load(context, page)`` runs before the page loads). Closed before Daphne
    stops."""
    players: list[Player] = []

    def open_page(table, position, before_load=None) -> Player:
        player = Player(browser, daphne, table, position, page_guard, before_load=before_load)
        players.append(player)
        return player

    yield open_page
    page_guard.flush()
    for player in players:
        player.context.close()
