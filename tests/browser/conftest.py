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
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

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
def new_context(browser, live_server) -> Iterator[Callable]:
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
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context):
    """A page in a fresh French browser context."""
    return new_context().new_page()
