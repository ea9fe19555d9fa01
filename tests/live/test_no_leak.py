"""Hidden information: nobody ever sees a card of another hand, on any page, at any moment.

DESIGN: "view(state, seat) (what that seat may see: own cards, cards on the table, public
history; never others' hands)"; "Each player's fragment is rendered for that player
only"; "No game data ever travels in a broadcast". boardgame.io's issue #1159 leaked the
starting cards through the first sync: the first page load, every refetch, the answer to
a move and the history are checked here alike, from the deal to the rematch.

For every preset, complete games are played at a table of four users watched by a
spectator, each move chosen at random among the engine's legal actions and POSTed by the
player to act (htmx and plain forms in turn). After every move each of the five viewers
fetches the table page and the board fragment, and the mover's answer is read too; every
ten moves, the other pages they open (home, Mes tables, notifications, the players'
pages) are read as well. The spectator came by the invitation link. None
may name, by its code (``JH``) or its French name (``valet de cœur``), a card still
held by another seat, except the public ones: the turned card (it stays public when the
taker picks it up) and, after an exchange, the trump 7 swapped for it.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games import rules as engine
from games.models import Hand, Table
from games.rules.cards import cards_of
from games.tables import lobby, service, writes
from games.tables.selectors import hand_state
from tests.factories import make_user, make_users
from tests.live.conftest import (
    board_at,
    board_of,
    drain,
    logged_in_client,
    run,
    socket_headers,
)

N, E, S, W = range(4)
SEAT_NAMES = ("Nord", "Est", "Sud", "Ouest")
PRESET_NAMES = sorted(engine.PRESETS)
ALL_CODES = frozenset(engine.code_of(card) for card in range(32))

# A card code as a token of its own: "JH" in data-card="JH", value="play JH", id="card-JH"
# or a text, not inside a longer word or number (a CSRF token, an id like "act-take-H").
CODE = re.compile(r"[789TJQKA][SHDC]")
ALNUM = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# A card named in words (in a lowercased page), in French (the engine's name_fr) or English.
NAME = re.compile(
    r"\b(?:sept|huit|neuf|dix|valet|dame|roi|as|seven|eight|nine|ten|jack|queen|king|ace)"
    r"\s+(?:de|of)\s+(?:pique|cœur|carreau|trèfle|spades|hearts|diamonds|clubs)\b"
)
DATA_CARD = re.compile(r'data-card="([^"]*)"')

# Any seed gives a valid test; these give short random games (two to four hands at the
# lowest target, 70 to 110 moves, where the median game takes 170) that still go through
# the rarer moments: a second round of bidding and a belote in each, declared announces
# (annonces), an exchange of the 7 (stekius), a hand where everybody passed (belote_com,
# moderne, with a redeal asked), a litige (classique, stekius), a capot. A seed draws the
# first dealer, then every deck and every move, in the order of the game.
SEEDS = {"annonces": 2801, "belote_com": 685, "classique": 528, "moderne": 935, "stekius": 815}
SOCKETS_SEED = 791  # stekius in two hands, 70 moves


# ---------------------------------------------------------------------------------------
# What a viewer may not see


def public_cards(state: engine.HandState) -> set[int]:
    """Cards every seat has seen face up besides those played: the turned card (still
    public once the taker holds it) and, after an exchange, the 7 that replaced it."""
    first_turned = engine.deal(state.rules, state.dealer, state.deck).turned
    return {card for card in (first_turned, state.turned) if card >= 0}


def hidden_from(state: engine.HandState, seat: int | None) -> set[int]:
    """The cards in the other seats' hands (all four for a spectator): dealt, not yet
    played, and not public."""
    held = set()
    for other in range(4):
        if other != seat:
            held |= set(cards_of(state.hands[other]))
    return held - public_cards(state)


def own_codes(state: engine.HandState, seat: int | None) -> set[str]:
    if seat is None or state.phase == engine.DONE:
        return set()
    return {engine.code_of(card) for card in cards_of(state.hands[seat])}


def holders(state: engine.HandState, cards: set[int]) -> str:
    """Who holds ``cards``, for the failure message: ``JH (Est), 9S (Ouest)``."""
    return ", ".join(
        f"{engine.code_of(card)} ({SEAT_NAMES[seat]})"
        for seat in range(4)
        for card in cards_of(state.hands[seat])
        if card in cards
    )


def codes_in(text: str) -> set[str]:
    found = set()
    for match in CODE.finditer(text):
        start, end = match.span()
        if text[start - 1 : start] not in ALNUM and text[end : end + 1] not in ALNUM:
            found.add(match.group())
    return found


def names_in(text: str) -> set[str]:
    return {" ".join(name.split()) for name in NAME.findall(text.lower())}


def assert_hides(
    page: str, state: engine.HandState, seat: int | None, where: str, *, noise: tuple = ()
) -> None:
    """``page`` names no card hidden from ``seat``, neither by its code nor by its name.

    ``noise``: random strings the page may hold that are no card, taken out first. The
    table's invitation link is one: its token, drawn from letters, digits, "-" and "_",
    held "AS" between a "-" and a "_" (or the link's "/") once in a few thousand tables,
    and the check failed on a page that named no card."""
    hidden = hidden_from(state, seat)
    text = html.unescape(page)
    for random_text in noise:
        text = text.replace(random_text, " ")
    codes, names = codes_in(text), names_in(text)
    by_code = {card for card in hidden if engine.code_of(card) in codes}
    by_name = {card for card in hidden if engine.name_fr(card) in names}
    assert not by_code, f"{where} shows the codes of {holders(state, by_code)}"
    assert not by_name, f"{where} names {holders(state, by_name)}"


# ---------------------------------------------------------------------------------------
# The table, its viewers and the moves


@dataclass
class Viewer:
    name: str
    seat: int | None  # None: the spectator
    client: Client | None


def lowest_target(preset: str) -> int:
    return min(engine.PRESET_TARGETS[preset])


def watched_table(preset: str, rng: random.Random, players, creator) -> Table:
    """A table of ``players`` in the preset's shortest game, open to spectators, started
    (a spectator then comes by the invitation link: ``come_to_watch``)."""
    table = service.create_table(
        created_by=creator,
        preset=preset,
        options={"target": lowest_target(preset)},
        players=dict(enumerate(players)),
    )
    lobby.set_spectators(table=table, by=creator, allowed=True)
    # The link on the creator's page holds its token: one that looks like cards, always,
    # so that the check is seen to take it for what it is (``assert_hides``).
    Table.objects.filter(pk=table.pk).update(invite_token=f"AS-{table.invite_token[:12]}_7H-JD")
    service.start_table(table_id=table.pk, first_dealer=rng.randrange(4), deck=deal_from(rng))
    table.refresh_from_db()
    return table


def come_to_watch(client: Client, table: Table) -> None:
    """What a spectator does: open the invitation link, press "Regarder la partie"."""
    join = reverse("games:join", args=[table.pk, table.invite_token])
    assert client.get(join).status_code == 200
    assert client.post(join).status_code == 302


def deal_from(rng: random.Random) -> list[int]:
    return rng.sample(range(32), 32)


@pytest.fixture
def seeded_decks(monkeypatch):
    """Every new hand is dealt from ``rng``: a failing game replays identically."""

    def use(rng: random.Random) -> None:
        monkeypatch.setattr(writes, "shuffled_deck", lambda: deal_from(rng))

    return use


def path(name: str, table: Table, *args) -> str:
    return reverse(f"games:{name}", args=[table.pk, *args])


def post_move(client: Client, table: Table, action: str, version: int, *, htmx: bool):
    """The move as the board's form sends it: with htmx the board comes back; without,
    the redirect to the table page is followed, as a browser does."""
    data = {"action": action, "version": version}
    if htmx:
        return client.post(path("play", table), data, headers={"hx-request": "true"})
    return client.post(path("play", table), data, follow=True)


def current_state(table: Table) -> engine.HandState:
    table.refresh_from_db()
    return hand_state(table)


class LeakCheck:
    """Reads everything the viewers of ``table`` get and checks it against the engine."""

    def __init__(self, table: Table, viewers: list[Viewer]) -> None:
        self.table = table
        self.viewers = viewers
        self.pages = 0
        self.moves = 0

    def answer(self, viewer: Viewer, response, state, where: str, status: int = 200) -> str:
        assert response.status_code == status, f"{where}: {response.status_code}"
        page = response.content.decode()
        self.pages += 1
        assert_hides(page, state, viewer.seat, f"{where}, seen by {viewer.name}", noise=self.noise)
        # Not vacuous: the viewer's own cards are all there.
        mine = own_codes(state, viewer.seat)
        missing = mine - set(DATA_CARD.findall(page))
        assert not missing, f"{where}: {viewer.name} does not see their own {sorted(missing)}"
        return page

    @property
    def noise(self) -> tuple[str, ...]:
        """What the pages may hold that only looks like a card (see ``assert_hides``)."""
        return (self.table.invite_token,)

    def everyone(self, state, moment: str) -> None:
        """Each viewer's table page and board fragment, fetched now."""
        for viewer in self.viewers:
            for name in ("table", "board"):
                response = viewer.client.get(path(name, self.table))
                self.answer(viewer, response, state, f"{moment}: {path(name, self.table)}")

    def elsewhere(self, state, moment: str) -> None:
        """The other pages a viewer opens while the hand goes on: home, Mes tables, the
        notifications, the player pages of the four players. They show no card
        at all, and above all none of another hand."""
        usernames = [self.table.seats.get(position=p).user.username for p in range(4)]
        paths = [reverse("home"), reverse("games:list"), reverse("notifications")]
        paths += [reverse("player", args=[name]) for name in usernames]
        for viewer in self.viewers:
            for url in paths:
                response = viewer.client.get(url)
                assert response.status_code == 200, f"{moment}: {url}"
                self.pages += 1
                assert_hides(
                    response.content.decode(),
                    state,
                    viewer.seat,
                    f"{moment}: {url}, seen by {viewer.name}",
                    noise=self.noise,
                )

    def hand_in_progress_is_not_replayed(self, viewers: list[Viewer]) -> None:
        self.table.refresh_from_db()
        hand = self.table.current_hand
        if hand.is_over:  # the last hand of a finished game
            return
        url = path("hand", self.table, hand.game.number, hand.number)
        for viewer in viewers:
            for extra, headers in (("", {}), ("?pli=8", {"hx-request": "true"})):
                response = viewer.client.get(url + extra, headers=headers)
                assert response.status_code == 404, f"{viewer.name} replays {url}{extra}"
            # Nor is it in the records: no record of its own, none in its game's record.
            record = path("hand_record", self.table, hand.game.number, hand.number)
            assert viewer.client.get(record).status_code == 404, f"{viewer.name} gets {record}"
            game = viewer.client.get(path("game_record", self.table, hand.game.number))
            numbers = [h["number"] for h in json.loads(game.content)["hands"]]
            assert hand.number not in numbers and hand.salt not in game.content.decode()

    def finished_hand_is_public(self, hand: Hand) -> None:
        """A finished hand shows its four dealt hands to everyone who may watch."""
        hand.refresh_from_db()
        url = path("hand", self.table, hand.game.number, hand.number)
        for viewer in (self.viewers[hand.number % 4], self.viewers[-1]):
            response = viewer.client.get(url)
            assert response.status_code == 200, f"{viewer.name}: {url}"
            shown = set(DATA_CARD.findall(response.content.decode()))
            if hand.contract:  # played out: every card of the deck was dealt
                assert shown == ALL_CODES, f"{url} shows {len(shown)} cards to {viewer.name}"
            else:  # passed or redealt: the five dealt to each and the turned card
                assert len(shown) >= 21, f"{url} shows {len(shown)} cards to {viewer.name}"

    def refusals(self, state, version: int) -> None:
        """The answers to refused moves show no more than the board: a card of another
        hand played by the player to act (422), a move at an old version (409)."""
        mover = self.viewers[state.turn]
        someone_elses = min(hidden_from(state, state.turn))
        response = post_move(
            mover.client, self.table, f"play {engine.code_of(someone_elses)}", version, htmx=True
        )
        self.answer(mover, response, state, "refused card", status=422)
        response = post_move(mover.client, self.table, "pass", version - 1, htmx=True)
        self.answer(mover, response, state, "stale move", status=409)


def play_game_and_check(table: Table, viewers: list[Viewer], rng: random.Random) -> LeakCheck:
    check = LeakCheck(table, viewers)
    state = current_state(table)
    check.everyone(state, "the first deal")  # boardgame.io #1159: the initial state
    check.elsewhere(state, "the first deal")
    check.hand_in_progress_is_not_replayed(viewers)
    while table.status == Table.Status.PLAYING:
        hand = table.current_hand
        if state.phase == engine.PLAYING and not state.tricks and not state.trick:
            check.refusals(state, table.version)
            check.hand_in_progress_is_not_replayed([viewers[state.turn]])
        mover = viewers[state.turn]
        action = str(rng.choice(engine.legal_actions(state)))
        htmx = check.moves % 2 == 0
        check.moves += 1
        moment = f"hand {hand.number}, move {check.moves} ({mover.name}: {action})"

        response = post_move(mover.client, table, action, table.version, htmx=htmx)
        state = current_state(table)

        if not htmx:
            assert response.redirect_chain == [(path("table", table), 302)], moment
        check.answer(mover, response, state, f"{moment}, the answer to the POST")
        check.everyone(state, moment)
        if check.moves % 10 == 5 and table.status == Table.Status.PLAYING:
            check.elsewhere(state, moment)
        if table.current_hand_id != hand.pk or table.status != Table.Status.PLAYING:
            check.finished_hand_is_public(hand)
            check.hand_in_progress_is_not_replayed(viewers)
    return check


# ---------------------------------------------------------------------------------------
# Pages


@pytest.mark.django_db
@pytest.mark.timeout(900)  # a whole game, eleven pages a move: minutes on a busy machine
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_no_page_shows_a_card_of_another_hand(preset, seeded_decks):
    rng = random.Random(SEEDS[preset])
    seeded_decks(rng)
    players = make_users(4)
    table = watched_table(preset, rng, players, creator=players[N])
    viewers = [Viewer(SEAT_NAMES[seat], seat, logged_in_client(players[seat])) for seat in range(4)]
    spectator = logged_in_client(make_user())
    come_to_watch(spectator, table)
    viewers.append(Viewer("the spectator", None, spectator))

    check = play_game_and_check(table, viewers, rng)

    assert table.status == Table.Status.FINISHED
    assert table.games.get().winner is not None
    # The rematch deals a new game: its first deal is as hidden as the first one was.
    response = post_move(viewers[E].client, table, "rematch", table.version, htmx=True)
    state = current_state(table)
    assert table.current_hand.game.number == 2
    check.answer(viewers[E], response, state, "the rematch's answer")
    check.everyone(state, "the rematch's first deal")
    check.hand_in_progress_is_not_replayed(viewers)
    assert check.pages >= 11 * check.moves  # every move: five viewers, two pages each


def test_the_check_catches_a_card_of_another_hand():
    """The detector itself: another seat's card by code or by name, not the public ones."""
    state = engine.deal(engine.PRESETS["classique"], N, list(range(32)))
    south_card = next(iter(cards_of(state.hands[S])))
    code, name = engine.code_of(south_card), engine.name_fr(south_card)
    turned = engine.code_of(state.turned)

    for page in (
        f'<span data-card="{code}"></span>',
        f'<button value="play {code}" id="card_{code}">',
        f'<form id="card-{code}">',
        f'<span aria-label="{name.capitalize()}"></span>',
        f"<li>{name.replace(' ', '&#32;')}</li>",
    ):
        with pytest.raises(AssertionError, match=code):
            assert_hides(page, state, N, "a page")
    assert_hides(f'<span data-card="{code}"></span>', state, S, "South's own page")
    assert_hides(f'<span data-card="{turned}">{code}x x{code}</span>', state, N, "a page")
    # A random token that reads like a card is no card; the same code elsewhere still is.
    token = f"{code}-x_{code}"
    assert_hides(f'<a href="/rejoindre/{token}/">', state, N, "a link", noise=(token,))
    with pytest.raises(AssertionError, match=code):
        assert_hides(f'<a href="/rejoindre/{token}/">{code}', state, N, "a link", noise=(token,))
    with pytest.raises(AssertionError, match=code):
        assert_hides(f'<a href="/rejoindre/{token}/">', state, N, "a link")


# ---------------------------------------------------------------------------------------
# The websocket during a game


@pytest.mark.django_db(transaction=True)
def test_the_boards_the_sockets_push_show_no_card_of_another_hand_during_a_whole_game(
    seeded_decks,
):
    """Four players and a spectator keep the table open for a whole game: each move
    reaches each of them as one board at the new version, rendered for them (their own
    hand in it, no card of another), and nothing else."""
    preset = "stekius"  # automatic announces, the exchange of the 7 offered
    rng = random.Random(SOCKETS_SEED)
    seeded_decks(rng)
    players = make_users(4)
    spectator = make_user()
    table = watched_table(preset, rng, players, creator=players[N])
    come_to_watch(logged_in_client(spectator), table)
    clients = [logged_in_client(user) for user in players]
    headers = [socket_headers(user) for user in [*players, spectator]]
    viewers = [*(Viewer(SEAT_NAMES[seat], seat, None) for seat in range(4))]
    viewers.append(Viewer("the spectator", None, None))

    def next_move(index: int) -> tuple[int, engine.HandState] | None:
        """One random legal move POSTed by the player to act: the new version and state,
        or None once the game is over."""
        state = current_state(table)
        if table.status != Table.Status.PLAYING:
            return None
        action = str(rng.choice(engine.legal_actions(state)))
        response = post_move(clients[state.turn], table, action, table.version, htmx=index % 2 == 1)
        assert response.status_code == 200
        return table.version + 1, current_state(table)

    async def gather_drains(opened):
        return await asyncio.gather(*(drain(socket) for socket in opened))

    first_deal = current_state(table)

    async def scenario(sockets):
        opened = [await sockets.accepted(table.pk, h) for h in headers]
        heard = []
        # The boards brought as the others arrive: the first deal, each from their seat.
        for viewer, pending in zip(viewers, await gather_drains(opened), strict=True):
            heard += pending
            for message in pending[1:]:
                page = board_of(message, table.version, presence=True)
                assert_hides(page, first_deal, viewer.seat, f"{viewer.name} as others arrive")
        moves = 0
        states = {table.version: first_deal}  # version -> the hand as it stood
        while (moved := await sync_to_async(next_move)(moves)) is not None:
            version, state = moved
            states[version] = state
            moves += 1
            for viewer, socket in zip(viewers, opened, strict=True):
                # Waited for by its version: a board of someone's arrival told late may
                # come first (checked as well).
                message, late = await board_at(socket, version)
                heard += [*late, message]
                page = board_of(message, version)
                where = f"move {moves}, the board pushed to {viewer.name}"
                assert_hides(page, state, viewer.seat, where)
                missing = own_codes(state, viewer.seat) - set(DATA_CARD.findall(page))
                assert not missing, f"{where} lacks their own {sorted(missing)}"
                for echo in late:
                    seen = board_of(echo, echo["version"], presence=True)
                    assert_hides(seen, states[echo["version"]], viewer.seat, f"{where}, late")
        heard += [m for pending in await gather_drains(opened) for m in pending]
        assert moves > 50
        assert {frozenset(m) for m in heard} == {
            frozenset({"table", "version"}),  # the first message of each socket
            frozenset({"table", "version", "html", "presence"}),  # someone came
            frozenset({"table", "version", "html"}),  # a move
        }

    run(scenario)
    assert table.status == Table.Status.FINISHED
