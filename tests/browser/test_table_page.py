"""The table page in a real browser when things go wrong: a lost connection that comes
back, htmx answers that are not ours to swap (a 404, a 5xx, a network failure, a CSRF
failure, an expired session), the websocket closed for good; and the guard that fails
every browser test on a CSP violation.

The live tests are served by Daphne (websockets); the page's websocket goes through
Playwright's ``route_web_socket``, so that a test can cut it, as a network does.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.live import new_table, outside_playwright, what_to_click

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_MS = 4_000  # how long a page may take to catch up once back online
SOCKETS = re.compile(r"/ws/tables/\d+/$")


class SocketSwitch:
    """A page's table websockets, through Playwright: passed on to Daphne while ``on``;
    ``cut()`` closes them (code 4000, not a final one: the page tries again) and refuses
    every new one until ``on`` again."""

    def __init__(self) -> None:
        self.on = True
        self.routes: list = []

    def route(self, socket) -> None:
        if not self.on:
            socket.close(code=4000, reason="offline")
            return
        socket.connect_to_server()
        self.routes.append(socket)

    def cut(self) -> None:
        self.on = False
        while self.routes:
            self.routes.pop().close(code=4000, reason="offline")

    def install(self, context, page) -> None:
        page.route_web_socket(SOCKETS, self.route)


def test_the_guard_catches_a_csp_violation(page, page_guard):
    """What the fixture of every browser test checks: an inline script is refused by the
    CSP, and the test hears of it."""
    page.goto("/")
    expect(page.get_by_role("heading", name="Bienvenue au club de belote")).to_be_visible()
    assert page_guard.take() == []  # the page itself, htmx and table.js: nothing refused

    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.injected = true";
          document.body.appendChild(script);
        }"""
    )

    problems = page_guard.take()
    assert any(p.startswith("CSP violation") and "script-src" in p for p in problems), problems
    assert page.evaluate("window.injected") is None


def test_a_page_that_lost_its_connection_catches_up_without_reload(table_page, page_guard):
    # Offline, the page's reconnections fail; so may a request.
    page_guard.allow(r"ERR_INTERNET|Failed to load resource|htmx:(sendError|afterRequest)")
    table = outside_playwright(new_table, "resync")
    switch = SocketSwitch()
    watcher = table_page(table, (table.turn + 1) % 4, before_load=switch.install)
    mover = table_page(table, table.turn)
    version = table.version
    for player in (watcher, mover):
        expect(player.page.locator('#board .dot[data-connected="true"]')).to_have_count(2)

    watcher.context.set_offline(True)
    switch.cut()
    # The server saw the watcher go: the mover's page shows them absent.
    expect(mover.page.locator('#board .dot[data-connected="true"]')).to_have_count(1)
    status = watcher.page.locator("#site-status")
    expect(status).to_have_attribute("data-problem", "network")
    expect(status).to_contain_text("La connexion au serveur a échoué. Réessayez.")

    # Another player moves meanwhile: the watcher cannot hear of it.
    mover.wait_until_quiet()
    what_to_click(mover.page).click()
    expect(mover.board).to_have_attribute("data-version", str(version + 1))
    assert watcher.board.get_attribute("data-version") == str(version)

    # Back online: the socket comes back, says the version, the page catches up.
    watcher.context.set_offline(False)
    switch.on = True
    expect(watcher.board).to_have_attribute("data-version", str(version + 1), timeout=LIVE_MS)
    expect(watcher.page.locator("#bids")).to_contain_text("Prend")
    expect(watcher.page.locator("#site-status[data-problem]")).to_have_count(0)
    expect(mover.page.locator('#board .dot[data-connected="true"]')).to_have_count(2)
    watcher.assert_not_reloaded()


def test_htmx_failures_are_told_outside_the_board(table_page, page_guard):
    # The failures provoked below are logged by the browser (and by htmx when its target
    # was replaced meanwhile); nothing else may be.
    page_guard.allow(
        r"Failed to load resource|htmx:(sendError|afterRequest)|net::ERR_FAILED"
        r"|Response Status Error Code"
    )
    table = outside_playwright(new_table, "oops")
    switch = SocketSwitch()
    player = table_page(table, table.turn, before_load=switch.install)
    # Its arrival (presence) brings the page its board once: let it be swapped in, so
    # that each answer below lands on the board in the page.
    player.wait_for_pushed_board()
    page = player.page
    status = page.locator("#site-status")
    version = str(table.version)

    def press() -> None:
        player.wait_until_quiet()
        what_to_click(page).click()

    # A server error: nothing is swapped, a French message shows outside the board.
    page.route(
        "**/jouer/",
        lambda route: route.fulfill(
            status=500, content_type="text/html", body="<!DOCTYPE html><html>Erreur</html>"
        ),
    )
    press()
    expect(status).to_have_attribute("data-problem", "server")
    expect(status).to_contain_text("Le serveur a rencontré une erreur.")
    expect(player.board).to_have_attribute("data-version", version)
    page.unroute("**/jouer/")

    # The network fails.
    page.route("**/jouer/", lambda route: route.abort())
    press()
    expect(status).to_have_attribute("data-problem", "network")
    expect(status).to_contain_text("La connexion au serveur a échoué. Réessayez.")
    page.unroute("**/jouer/")

    # A page that no longer exists: the server's 404 page is not swapped into the board.
    page.evaluate(
        "htmx.ajax('GET', '/tables/999999/plateau/', {target: '#board', swap: 'outerHTML'})"
    )
    expect(status).to_have_attribute("data-problem", "gone")
    expect(status).to_contain_text("Cette page n'existe plus.")
    expect(page.locator("#board")).to_have_count(1)
    expect(player.board).to_have_attribute("data-version", version)

    # A refusal of ours (409, a stale version) is swapped in with its message, and the
    # page's problem is over.
    page.evaluate(
        "document.querySelectorAll('#board input[name=version]').forEach(i => i.value = '0')"
    )
    press()
    expect(page.locator("#board .notice")).to_contain_text("La partie a avancé entre-temps")
    expect(page.locator("#site-status[data-problem]")).to_have_count(0)

    # A CSRF failure (here the CSRF cookie is gone; or the page is older than the
    # session): the page must be reloaded.
    csrf_cookies = [c for c in player.context.cookies() if c["name"] == settings.CSRF_COOKIE_NAME]
    assert csrf_cookies
    player.context.clear_cookies(name=settings.CSRF_COOKIE_NAME)
    press()
    expect(status).to_have_attribute("data-problem", "csrf")
    expect(status).to_contain_text("La page a expiré : rechargez-la pour continuer.")
    expect(status.get_by_role("link", name="Recharger la page")).to_be_visible()
    expect(player.board).to_have_attribute("data-version", version)
    status.get_by_role("button", name="Fermer").click()
    expect(page.locator("#site-status[data-problem]")).to_have_count(0)
    player.context.add_cookies(csrf_cookies)

    # The websocket closed for good because the session ended: said, not retried.
    switch.routes[-1].close(code=4401, reason="")
    expect(status).to_have_attribute("data-problem", "session")
    expect(status).to_contain_text("Votre session a pris fin")
    expect(status.get_by_role("link", name="Page de connexion")).to_have_attribute(
        "href", f"/comptes/login/?next=%2Ftables%2F{table.pk}%2F"
    )

    # The session expired: the next move goes to the login page, back to the table after.
    player.context.clear_cookies(name=settings.SESSION_COOKIE_NAME)
    press()
    expect(page).to_have_url(re.compile(rf"/comptes/login/\?next=%2Ftables%2F{table.pk}%2F$"))
    expect(page.get_by_role("button", name="Connexion")).to_be_visible()
