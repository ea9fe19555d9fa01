"""Helpers of the table page tests: tables brought to a phase through the service, the
board as each viewer gets it, and what the HTML shows (cards, buttons, seats)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from django.test import Client
from django.urls import reverse

from games import rules as engine
from games.models import Table
from games.tables import service
from games.tables.selectors import hand_state
from tests.factories import fixed_deck, seated_user


def url(name: str, table: Table, *args) -> str:
    return reverse(f"games:{name}", args=[table.pk, *args])


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def spectator_client(user, table: Table) -> Client:
    """``user``'s client once they opened the invitation link of the started ``table``,
    which lets spectators in, and pressed "Regarder la partie": from then on they watch
    it."""
    client = client_for(user)
    response = client.post(url("join", table, table.invite_token))
    assert response.status_code == 302 and response.url == url("table", table), response
    return client


def state_of(table: Table) -> engine.HandState:
    table.refresh_from_db()
    return hand_state(table)


def act(table: Table, action: str) -> service.Outcome:
    """``action`` by the seated user whose turn it is, straight through the service."""
    state = state_of(table)
    return service.submit(
        table_id=table.pk,
        actor=seated_user(table, state.turn),
        action=action,
        expected_version=table.version,
    )


def play_first_legal(table: Table, count: int = 1) -> None:
    """``count`` moves, each the first legal action of whoever is to act."""
    for _ in range(count):
        act(table, str(engine.legal_actions(state_of(table))[0]))


def take_at_once(table: Table) -> None:
    """The first speaker takes the turned card: the play begins."""
    act(table, "take")


def finish_hand(table: Table) -> None:
    """First legal moves until the table deals its next hand (or the game ends)."""
    hand = table.current_hand_id
    while True:
        table.refresh_from_db()
        if table.current_hand_id != hand or table.status != Table.Status.PLAYING:
            return
        play_first_legal(table)


def seed_where(preset: str, predicate, actions=(), options=None, dealer: int = 0) -> int:
    """The first fixed deck whose deal (by ``dealer``, then ``actions``) satisfies
    ``predicate``: how a test finds a hand with a redeal, a 7 to exchange, an announce."""
    rules = engine.rules_for(preset, options or {})
    for seed in range(5000):
        state = engine.deal(rules, dealer, fixed_deck(seed))
        try:
            state = engine.apply_all(state, actions)
        except engine.IllegalAction:
            continue
        if predicate(state):
            return seed
    raise AssertionError("no deck found")


def legal_texts(state: engine.HandState) -> list[str]:
    return [str(a) for a in engine.legal_actions(state)]


def htmx_post(client: Client, path: str, data: dict):
    return client.post(path, data, headers={"hx-request": "true"})


def play(client: Client, table: Table, action: str, *, version=None, htmx: bool = True):
    """POST /jouer/ as the board's forms send it."""
    table.refresh_from_db()
    data = {"action": action, "version": table.version if version is None else version}
    if htmx:
        return htmx_post(client, url("play", table), data)
    return client.post(url("play", table), data)


def snapshot(table: Table) -> dict:
    """What a refused move must leave untouched."""
    table.refresh_from_db()
    return {
        "version": table.version,
        "status": table.status,
        "turn": table.turn,
        "hand": table.current_hand_id,
        "actions": list(table.actions.values_list("seq", "kind", "payload")),
        "games": table.games.count(),
    }


def text_of(response) -> str:
    return html.unescape(response.content.decode())


class BoardParser(HTMLParser):
    """The cards, buttons and seats of a page, by their data attributes."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self.cards: list[str] = []  # every data-card, in order
        self.card_buttons: dict[str, bool] = {}  # code -> enabled
        self.action_buttons: dict[str, bool] = {}  # action value -> enabled
        self.seats: dict[str, dict] = {}  # letter -> attributes of its seat box
        self.labels: dict[str, str] = {}  # card code -> aria-label
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        code = attrs.get("data-card")
        if code:
            self.cards.append(code)
            self.labels[code] = attrs.get("aria-label", "")
            if tag == "button":
                self.card_buttons[code] = "disabled" not in attrs
        elif tag == "button" and attrs.get("name") == "action":
            self.action_buttons[attrs["value"]] = "disabled" not in attrs
        if tag == "section" and "seat-box" in attrs.get("class", "") and "data-seat" in attrs:
            self.seats[attrs["data-seat"]] = attrs


def board_of(response) -> BoardParser:
    return BoardParser(response.content.decode())


COUNTDOWN_TEXT = re.compile(r'(role=\\?"timer"[^>]*>)[^<]*(</span>)')


def timeless(html: str) -> str:
    """A board with its countdown's words blanked: they say how long is left when it was
    rendered (games/tables/countdown.py), so two renderings a second apart differ there."""
    return COUNTDOWN_TEXT.sub(r"\1\2", html)
