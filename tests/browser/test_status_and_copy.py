"""The table page in a real browser: the header's status badge follows the game live
(the last move, then "Revanche", on the mover's page and on another player's), and the
copy button of the invitation link, with its fallback where the clipboard is refused."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from playwright.sync_api import expect

from games import rules as engine
from games.models import Table
from games.tables import service
from games.tables.selectors import hand_state
from tests.browser.live import Player, outside_playwright, what_to_click
from tests.factories import fixed_deck, make_table, make_user, seated_user, started_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def one_move_from_the_end() -> Table:
    """A 501-point table played by first legal moves (taking at once) up to its last
    one: each move is tried in a transaction, and the one that ends the game is undone."""
    users = {position: make_user(f"fin{position}") for position in range(4)}
    table = started_table(preset="belote_com", players=users, deck=fixed_deck(2))
    while True:
        table.refresh_from_db()
        state = hand_state(table)
        legal = [str(action) for action in engine.legal_actions(state)]
        with transaction.atomic():
            service.submit(
                table_id=table.pk,
                actor=seated_user(table, state.turn),
                action="take" if "take" in legal else legal[0],  # passes would redeal
                expected_version=table.version,
            )
            if Table.objects.get(pk=table.pk).status == Table.Status.FINISHED:
                transaction.set_rollback(True)
                break
    table.refresh_from_db()
    return table


def test_the_badge_follows_the_end_of_the_game_and_the_rematch(browser, daphne, page_guard):
    table = outside_playwright(one_move_from_the_end)
    mover = Player(browser, daphne, table, table.turn, page_guard)
    other = Player(browser, daphne, table, (table.turn + 1) % 4, page_guard)
    try:
        for player in (mover, other):
            expect(player.page.locator("#table-status")).to_have_text("En cours")
        mover.wait_until_quiet()
        other.wait_until_quiet()

        what_to_click(mover.page).click()

        for player in (mover, other):
            expect(player.page.locator("#game-over")).to_be_visible()
            expect(player.page.locator("#table-status")).to_have_text("Terminée")
            expect(player.page.locator("#table-status")).to_have_count(1)
        other.wait_until_quiet()

        other.page.locator('[data-action="rematch"]').click()

        for player in (mover, other):
            expect(player.page.locator("#game-over")).to_have_count(0)
            expect(player.page.locator("#table-status")).to_have_text("En cours")
            expect(player.page.locator("#table-status")).to_have_count(1)
            player.assert_not_reloaded()
    finally:
        page_guard.flush()
        mover.context.close()
        other.context.close()


# The copy button -------------------------------------------------------------------------


class Settling:
    """Watches a page from its first request: ``wait`` returns once its socket is open and
    neither a fetch nor a socket message has come for ``quiet`` seconds. A lobby refetches
    itself when its own arrival is told on the socket (presence); a click whose press and
    release straddle that swap lands on two different buttons and is lost."""

    def __init__(self, page) -> None:
        self.page = page
        self.in_flight = 0
        self.socket_open = False
        self.since = time.monotonic()
        page.on("websocket", self._socket)
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _socket(self, socket) -> None:
        self.socket_open = True
        self.since = time.monotonic()
        socket.on("framereceived", self._moved)

    def _moved(self, *_) -> None:
        self.since = time.monotonic()

    def _started(self, request) -> None:
        if request.resource_type in ("xhr", "fetch"):
            self.in_flight += 1

    def _ended(self, request) -> None:
        if request.resource_type in ("xhr", "fetch"):
            self.in_flight -= 1
            self.since = time.monotonic()

    def wait(self, quiet: float = 0.5, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while not self.socket_open or self.in_flight or time.monotonic() - self.since < quiet:
            assert time.monotonic() < deadline, "the lobby page keeps fetching"
            self.page.wait_for_timeout(25)  # Playwright delivers the events meanwhile


@pytest.fixture
def lobby_page(new_context, page_guard, daphne):
    """The lobby of a new table, as its creator sees it, once the page has settled:
    ``open(init_script=None, **context_options)``, the script run before the page's own.

    Its contexts close here, before Daphne stops: a lobby page polls, and a poll that
    meets a stopped server is a console error."""
    contexts = []

    def open_page(init_script: str | None = None, **options):
        creator = outside_playwright(make_user, "hote")
        table = outside_playwright(make_table, created_by=creator)
        client = Client()
        client.force_login(creator)
        context = new_context(base_url=daphne, **options)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": daphne}]
        )
        if init_script:
            context.add_init_script(init_script)
        contexts.append(context)
        page = context.new_page()
        settling = Settling(page)
        page.goto(f"/tables/{table.pk}/")
        settling.wait()
        return context, page

    yield open_page
    page_guard.flush()
    for context in contexts:
        context.close()


def test_the_copy_button_puts_the_invitation_link_on_the_clipboard(lobby_page):
    context, page = lobby_page()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = page.locator("#invite-link").input_value()
    assert "/rejoindre/" in link or "/tables/" in link

    page.get_by_role("button", name="Copier le lien").click()

    expect(page.locator("#invite-link-copy-status")).to_have_text("Lien copié.")
    assert page.evaluate("navigator.clipboard.readText()") == link


REFUSED_CLIPBOARD = """
Object.defineProperty(navigator, "clipboard", {
  value: {writeText: () => Promise.reject(new DOMException("refusé", "NotAllowedError"))},
});
"""


def assert_the_link_is_selected(page) -> None:
    """The link's field has the focus and its whole text selected, to copy by hand."""
    expect(page.locator("#invite-link")).to_be_focused()
    selected = page.evaluate(
        "(() => { const i = document.getElementById('invite-link');"
        " return [i.selectionStart, i.selectionEnd, i.value.length]; })()"
    )
    assert selected[0] == 0 and selected[1] == selected[2] > 0


def test_where_the_clipboard_is_refused_the_link_is_selected_to_copy(lobby_page):
    context, page = lobby_page(REFUSED_CLIPBOARD)

    page.get_by_role("button", name="Copier le lien").click()

    expect(page.locator("#invite-link-copy-status")).to_contain_text("copiez-le")
    assert_the_link_is_selected(page)


REFETCH_THE_LOBBY = """
(() => {
  const root = document.querySelector("[data-ws-url]");
  return htmx.ajax("GET", root.dataset.fragmentUrl, {target: "#" + root.id, swap: "outerHTML"});
})()
"""


def test_a_refetch_of_the_lobby_just_after_a_copy_keeps_what_it_said(lobby_page):
    """A poll or a pushed update may replace the link's block right after the click: the
    new block still says what happened, and a refused copy keeps the link selected."""
    context, page = lobby_page(REFUSED_CLIPBOARD)
    page.get_by_role("button", name="Copier le lien").click()
    expect(page.locator("#invite-link-copy-status")).to_contain_text("copiez-le")
    page.evaluate("document.getElementById('invite-link').dataset.old = 'yes'")

    page.evaluate(REFETCH_THE_LOBBY)

    expect(page.locator("#invite-link[data-old]")).to_have_count(0)  # a new field
    expect(page.locator("#invite-link-copy-status")).to_contain_text("copiez-le")
    assert_the_link_is_selected(page)


def test_without_a_clipboard_api_the_link_is_selected_too(lobby_page):
    context, page = lobby_page('Object.defineProperty(navigator, "clipboard", {value: undefined});')

    page.get_by_role("button", name="Copier le lien").click()

    expect(page.locator("#invite-link-copy-status")).to_contain_text("copiez-le")
    expect(page.locator("#invite-link")).to_be_focused()
