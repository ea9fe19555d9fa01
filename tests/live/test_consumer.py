"""The table websocket (games/live/consumers.py), through the real ASGI application.

DESIGN: "The consumer authenticates the websocket (AuthMiddlewareStack inside
AllowedHostsOriginValidator), checks the user may watch the table, joins its group and
forwards only {table, version}. [...] No game data ever travels in a broadcast, so nothing
hidden can leak through it." The group still hears only ``{table, version}``; what the
socket sends a page at each change is its own user's board (games/tables/boards.py), the very
fragment ``GET /plateau/`` gives them, checked here against it. Every message is one of
three shapes: ``table``, ``version`` and ``html`` (a board); ``table`` and ``version``
(in the lobby, or the answer to a page's question); ``table`` and ``presence`` (someone
came or went, in the lobby).

The sockets log in as a browser does, with the cookies of a real login (session, CSRF)
and the page's Origin. The database is committed for real (``transaction=True``) so that
the service's on_commit broadcasts run, and the consumer's queries see the rows.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from django.urls import reverse

from games.live.consumers import MOVER_DELAY_SECONDS, NOT_ALLOWED, NOT_LOGGED_IN
from games.models import Table
from games.tables import lobby, service
from games.tables.service import ServiceError
from tests.factories import fixed_deck, make_user, make_users, play_random_move, started_table
from tests.live.conftest import (
    board_at,
    board_of,
    drain,
    logged_in_client,
    receive,
    run,
    socket_headers,
    version_at,
)
from tests.processes import run_python
from tests.table_page.helpers import finish_hand, take_at_once, timeless

pytestmark = pytest.mark.django_db(transaction=True)

N, E, S, W = range(4)


@pytest.fixture
def stranger():
    """Logged in, invited to none of these tables."""
    return make_user("sacha")


def watch_by_link(table: Table, user) -> None:
    """``user`` opens the invitation link of the started ``table``: a spectator if the
    creator lets them in (games.tables.lobby.join_by_link)."""
    lobby.join_by_link(table=table, user=user, token=table.invite_token)


def new_table(creator, players, *, spectators: bool = False, invited=None) -> Table:
    """A classique table of ``players``, created by ``creator``, started from a fixed
    deck; ``invited`` is invited by name in the lobby and never sits down."""
    table = service.create_table(
        created_by=creator, preset="classique", players=dict(enumerate(players))
    )
    if spectators:
        lobby.set_spectators(table=table, by=creator, allowed=True)
    if invited is not None:
        lobby.invite_user(table=table, by=creator, username=invited.username)
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(3))
    table.refresh_from_db()
    return table


@pytest.fixture
def table(creator, players) -> Table:
    return new_table(creator, players)


def random_move(table: Table, seed: int = 0) -> service.Outcome:
    return play_random_move(table, random.Random(seed))


def pass_in_turn(table: Table) -> service.Outcome:
    table.refresh_from_db()
    player = table.seats.get(position=table.turn).user
    return service.submit(
        table_id=table.pk, actor=player, action="pass", expected_version=table.version
    )


def current_version(table: Table) -> int:
    table.refresh_from_db()
    return table.version


# ---------------------------------------------------------------------------------------
# Who may open the socket


@pytest.mark.parametrize("cookie", [None, "sessionid=no-such-session"])
def test_a_visitor_who_is_not_logged_in_is_closed_with_4401(table, cookie):
    headers = socket_headers()
    if cookie:
        headers.append((b"cookie", cookie.encode()))

    async def scenario(sockets):
        _socket, accepted, code = await sockets.open(table.pk, headers)
        assert (accepted, code) == (False, NOT_LOGGED_IN)

    run(scenario)


def test_a_player_of_another_table_is_closed_with_4404(table):
    their_table = started_table()
    elsewhere = their_table.seats.get(position=S).user
    headers = socket_headers(elsewhere)

    async def scenario(sockets):
        _socket, accepted, code = await sockets.open(table.pk, headers)
        assert (accepted, code) == (False, NOT_ALLOWED)
        # The same login opens its own table.
        await sockets.accepted(their_table.pk, headers)

    run(scenario)


def test_a_table_that_does_not_exist_is_closed_with_4404(players):
    headers = socket_headers(players[S])

    async def scenario(sockets):
        _socket, accepted, code = await sockets.open(999_999, headers)
        assert (accepted, code) == (False, NOT_ALLOWED)

    run(scenario)


def test_a_page_of_another_site_cannot_open_the_socket(table, players):
    """AllowedHostsOriginValidator: the Origin must be one of ALLOWED_HOSTS."""
    headers = socket_headers(players[S], origin=b"http://evil.example")

    async def scenario(sockets):
        _socket, accepted, _code = await sockets.open(table.pk, headers)
        assert not accepted

    run(scenario)


@pytest.mark.parametrize("who", ["seated player", "creator", "invited"])
def test_who_may_see_the_table_is_accepted_and_told_its_version(creator, players, who):
    invited = make_user("ines")
    table = new_table(creator, players, invited=invited)
    for seed in range(3):
        random_move(table, seed)
    version = current_version(table)
    viewer = {"seated player": players[E], "creator": creator, "invited": invited}[who]
    headers = socket_headers(viewer)

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        assert await receive(socket) == {"table": table.pk, "version": version}

    run(scenario)


def test_a_spectator_is_accepted_when_the_creator_lets_them_in(creator, players, stranger):
    table = new_table(creator, players, spectators=True)
    watch_by_link(table, stranger)
    headers = socket_headers(stranger)

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        assert await receive(socket) == {"table": table.pk, "version": table.version}

    run(scenario)


def test_with_spectators_a_stranger_without_the_link_is_closed_with_4404(
    creator, players, stranger
):
    """Spectators come by the invitation link: the table's id alone opens nothing."""
    table = new_table(creator, players, spectators=True)
    headers = socket_headers(stranger)

    async def scenario(sockets):
        _socket, accepted, code = await sockets.open(table.pk, headers)
        assert (accepted, code) == (False, NOT_ALLOWED)

    run(scenario)


@pytest.mark.parametrize("then", ["their next message", "the next move"])
def test_a_spectator_sent_away_by_a_new_link_is_closed(creator, players, stranger, then):
    """A started table's new link changes no version: the spectator's socket is closed at
    the next moment it looks again, their heartbeat or the push of the next move (whether
    the viewer may still watch is checked at every push)."""
    table = new_table(creator, players, spectators=True)
    watch_by_link(table, stranger)
    headers = socket_headers(stranger)

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)
        await sync_to_async(lobby.revoke_link)(table=table, by=creator)
        if then == "the next move":
            await sync_to_async(random_move)(table)
        else:
            await socket.send_json_to({})
        assert await socket.receive_output() == {"type": "websocket.close", "code": NOT_ALLOWED}

    run(scenario)


def test_without_spectators_a_stranger_is_closed_with_4404(table, stranger):
    assert not table.allow_spectators
    headers = socket_headers(stranger)

    async def scenario(sockets):
        _socket, accepted, code = await sockets.open(table.pk, headers)
        assert (accepted, code) == (False, NOT_ALLOWED)

    run(scenario)


def test_a_viewer_who_lost_access_is_closed_at_the_next_change(creator, players):
    """lobby.revoke_link: "whoever came by the old one and has no seat loses access"; the
    change it makes finds them no longer allowed, and their socket is closed."""
    table = service.create_table(
        created_by=creator, preset="classique", players=dict(enumerate(players[:3]))
    )
    guest = make_user("gaston")
    lobby.join_by_link(table=table, user=guest, token=table.invite_token)
    headers = socket_headers(guest)

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)
        await sync_to_async(lobby.revoke_link)(table=table, by=creator)
        assert await socket.receive_output() == {"type": "websocket.close", "code": NOT_ALLOWED}

    run(scenario)


# ---------------------------------------------------------------------------------------
# What travels: versions and presence pings, nothing else


CSRF_VALUE = re.compile(r'(name="csrfmiddlewaretoken" value=)"[^"]+"')


def without_tokens(html: str) -> str:
    """A board with its CSRF tokens blanked (each rendering masks the secret afresh), and
    its countdown's words (they follow the clock)."""
    return timeless(CSRF_VALUE.sub(r'\1""', html.strip()))


def test_after_a_move_every_viewer_gets_their_own_board_at_the_new_version(
    creator, players, stranger
):
    """Each socket brings its user the board ``GET /plateau/`` gives them, and nothing
    else: a player's from their seat, their hand included; the creator's and the
    spectator's without any hand."""
    table = new_table(creator, players, spectators=True)
    watch_by_link(table, stranger)
    viewers = [*players, creator, stranger]  # four players, the creator, a spectator
    clients = [logged_in_client(user) for user in viewers]
    headers = [socket_headers(client=client) for client in clients]

    def fetched_boards() -> list[str]:
        url = reverse("games:board", args=[table.pk])
        return [
            client.get(url, headers={"hx-request": "true"}).content.decode() for client in clients
        ]

    async def scenario(sockets):
        opened = [await sockets.accepted(table.pk, h) for h in headers]
        for first, *arrivals in await asyncio.gather(*(drain(socket) for socket in opened)):
            assert first == {"table": table.pk, "version": table.version}
            # Someone came: the board again, the dots moved.
            assert all(board_of(m, table.version, presence=True) for m in arrivals)

        outcome = await sync_to_async(random_move)(table)

        assert outcome.applied and outcome.version == table.version + 1
        pushed, echoes = [], []
        for socket in opened:
            message, late = await board_at(socket, outcome.version)
            pushed.append(board_of(message, outcome.version))
            # Nothing else, but the boards of arrivals told late: the same board again
            # once at the new version (compared below), the one before at the old one.
            late += await drain(socket)
            assert all(m["version"] in (table.version, outcome.version) for m in late)
            echoes.append(
                [
                    board_of(m, outcome.version, presence=True)
                    for m in late
                    if m["version"] > table.version
                ]
            )
        fetched = await sync_to_async(fetched_boards)()
        for user, board, page, again in zip(viewers, pushed, fetched, echoes, strict=True):
            assert without_tokens(board) == without_tokens(page), user.username
            assert all(without_tokens(echo) == without_tokens(page) for echo in again)
        for seat, board in enumerate(pushed[:4]):
            assert f'data-my-seat="{"NESW"[seat]}"' in board
            assert board.count('class="card') >= 8  # their hand, face up
        for board in pushed[4:]:
            assert "board-spectator" in board and 'id="my-hand"' not in board

    run(scenario)


def test_the_movers_own_page_gets_the_board_last(table, players):
    """Their page has the new board as the answer to its move: the others' boards are
    rendered first, theirs a moment later (for their other tabs, or a lost answer)."""
    table.refresh_from_db()
    mover, other = players[table.turn], players[(table.turn + 1) % 4]
    headers = [socket_headers(mover), socket_headers(other)]

    async def scenario(sockets):
        mine, theirs = [await sockets.accepted(table.pk, h) for h in headers]
        await drain(mine)
        await drain(theirs)
        outcome = await sync_to_async(random_move)(table)
        assert board_of(await receive(theirs), outcome.version)
        assert await mine.receive_nothing(timeout=MOVER_DELAY_SECONDS / 2)
        assert board_of(await receive(mine), outcome.version)

    run(scenario)


def test_a_pushed_board_takes_one_trip_to_the_database_thread(table, players):
    """Each trip from the event loop to the thread that may touch the database is a
    hand-over between threads: a pushed board makes one, its reading and rendering,
    which closes the old connections itself (channels' ``database_sync_to_async``). None
    more only to close them."""
    table.refresh_from_db()
    headers = socket_headers(players[(table.turn + 1) % 4])
    trips = []
    original = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        trips.append(getattr(self.func, "__name__", repr(self.func)))
        return await original(self, *args, **kwargs)

    async def scenario(sockets):
        theirs = await sockets.accepted(table.pk, headers)
        await drain(theirs)
        SyncToAsync.__call__ = counted
        try:
            outcome = await sync_to_async(random_move)(table)
            assert board_of(await receive(theirs), outcome.version)
        finally:
            SyncToAsync.__call__ = original
        assert [name for name in trips if name != "random_move"] == ["push_for"]

    run(scenario)


def test_a_page_that_says_it_shows_its_moves_answer_gets_no_board_of_it(table, players):
    """The mover's page swapped in the answer to its move and says so: the socket renders
    nothing for that version, and boards of the next moves come as before."""
    table.refresh_from_db()
    mover = players[table.turn]
    headers = [socket_headers(mover), socket_headers(mover)]  # two tabs of the mover

    async def scenario(sockets):
        page, other_tab = [await sockets.accepted(table.pk, h) for h in headers]
        await drain(page)
        await drain(other_tab)
        outcome = await sync_to_async(random_move)(table)
        await page.send_json_to({"shown": outcome.version})
        # Its other tab said nothing: it still gets the board, a moment later.
        assert board_of(await receive(other_tab), outcome.version)
        assert await page.receive_nothing(timeout=MOVER_DELAY_SECONDS * 2)
        # Not a heartbeat either: no version comes back, and the next move is pushed.
        following = await sync_to_async(random_move)(table)
        assert board_of(await receive(page), following.version)

    run(scenario)


def test_the_forms_of_a_pushed_board_carry_a_token_of_the_pages_csrf_cookie(table, players):
    """A move made from a pushed board passes the CSRF check, as from a fetched one."""
    clients = [logged_in_client(user) for user in players]
    for client in clients:
        client.handler.enforce_csrf_checks = True
    headers = [socket_headers(client=client) for client in clients]

    async def scenario(sockets):
        opened = [await sockets.accepted(table.pk, h) for h in headers]
        for socket in opened:
            await drain(socket)
        outcome = await sync_to_async(random_move)(table)
        boards = [board_of(await receive(socket), outcome.version) for socket in opened]
        turn = (await sync_to_async(Table.objects.get)(pk=table.pk)).turn
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', boards[turn]).group(1)
        action = re.search(r'name="action" value="([^"]+)"', boards[turn]).group(1)
        response = await sync_to_async(clients[turn].post)(
            reverse("games:play", args=[table.pk]),
            {"csrfmiddlewaretoken": token, "action": action, "version": outcome.version},
            headers={"hx-request": "true"},
        )
        assert response.status_code == 200
        assert await sync_to_async(current_version)(table) == outcome.version + 1

    run(scenario)


def test_a_socket_without_the_csrf_cookie_gets_the_version_alone(table, players):
    """Not opened by a page of ours (they all set the cookie): no board whose forms would
    fail; the version, and the page refetches."""
    session = logged_in_client(players[N]).cookies["sessionid"].value
    headers = [(b"origin", b"http://testserver"), (b"cookie", f"sessionid={session}".encode())]

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)
        outcome = await sync_to_async(random_move)(table)
        assert await receive(socket) == {"table": table.pk, "version": outcome.version}

    run(scenario)


def test_in_the_lobby_a_change_brings_the_version_alone(creator, players):
    """No board yet: the page refetches its #table (seats, invitations)."""
    table = service.create_table(
        created_by=creator, preset="classique", players=dict(enumerate(players[:3]))
    )
    headers = socket_headers(creator)

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)
        await sync_to_async(lobby.leave_seat)(table=table, user=players[E])
        await version_at(socket, table.pk, table.version + 1)

    run(scenario)


def test_the_pushed_board_is_in_the_viewers_language(table, players):
    """The preference of the profile, as for pages, whatever the browser asks for."""
    english = players[E]
    english.language = "en"
    english.save(update_fields=["language"])
    headers = {
        "en": socket_headers(english, language="fr"),
        "fr": socket_headers(players[W], language="en-GB,en;q=0.8"),
    }

    async def scenario(sockets):
        opened = {key: await sockets.accepted(table.pk, h) for key, h in headers.items()}
        for socket in opened.values():
            await drain(socket)
        outcome = await sync_to_async(random_move)(table)
        boards = {key: board_of(await receive(s), outcome.version) for key, s in opened.items()}
        assert "North-South" in boards["en"] and "Nord-Sud" not in boards["en"]
        assert "Nord-Sud" in boards["fr"] and "North-South" not in boards["fr"]

    run(scenario)


def test_a_summary_the_viewer_closed_stays_closed_in_the_boards_pushed_after(table, players):
    """ "Donne suivante" (``?vu=``) saves the closing in the session; the socket, open
    since before, reads it there at its next push."""
    south = logged_in_client(players[S])
    headers = socket_headers(client=south)

    def end_the_first_hand() -> int:
        take_at_once(table)
        finish_hand(table)
        table.refresh_from_db()
        return table.current_hand.game.hands.get(number=1).pk

    def close_the_summary(first_hand: int) -> None:
        board = reverse("games:board", args=[table.pk])
        page = south.get(f"{board}?vu={first_hand}", headers={"hx-request": "true"})
        assert 'id="hand-summary"' not in page.content.decode()

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)
        first_hand = await sync_to_async(end_the_first_hand)()
        pushed = await drain(socket)
        assert 'id="hand-summary"' in pushed[-1]["html"]

        await sync_to_async(close_the_summary)(first_hand)
        outcome = await sync_to_async(pass_in_turn)(table)  # still bidding: a summary shows

        board = board_of(await receive(socket), outcome.version)
        assert 'id="hand-summary"' not in board
        assert 'data-hand="1"' in board  # still on the score sheet

    run(scenario)


def test_a_refused_or_stale_move_is_not_broadcast(table, players):
    headers = socket_headers(players[N])

    def refused_and_stale_moves():
        table.refresh_from_db()
        waiting = players[(table.turn + 1) % 4]
        with pytest.raises(ServiceError):
            service.submit(
                table_id=table.pk, actor=waiting, action="pass", expected_version=table.version
            )
        stale = service.submit(
            table_id=table.pk,
            actor=players[table.turn],
            action="pass",
            expected_version=table.version - 1,
        )
        assert not stale.applied

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        # Whatever the connection itself sends (presence, the first board) may come late
        # on a loaded machine: wait for a full second of quiet before the moves, so that
        # the silence asserted after them is theirs.
        await drain(socket, quiet=1.0)
        await sync_to_async(refused_and_stale_moves)()
        assert await socket.receive_nothing(timeout=0.3)

    run(scenario)


def test_a_viewer_of_one_table_hears_nothing_of_a_move_at_another(creator, players):
    here = new_table(creator, players)
    there = new_table(creator, make_users(4))
    headers = socket_headers(creator)  # who created both may watch both

    async def scenario(sockets):
        watching_here = await sockets.accepted(here.pk, headers)
        watching_there = await sockets.accepted(there.pk, headers)
        await drain(watching_here)
        await drain(watching_there)

        outcome = await sync_to_async(random_move)(there)

        assert board_of(await receive(watching_there), outcome.version)
        assert await watching_here.receive_nothing(timeout=0.3)

    run(scenario)


def north_is_shown(board: str, connected: bool) -> bool:
    """Whether the board's dot for North says ``connected``."""
    north = board[board.index('id="seat-N"') :]
    return f'data-connected="{str(connected).lower()}"' in north[: north.index("</section>")]


def test_a_second_user_arriving_or_leaving_brings_the_first_a_board_with_the_dots_moved(
    table, players, creator
):
    south, north = socket_headers(players[S]), socket_headers(players[N])

    async def scenario(sockets):
        first = await sockets.accepted(table.pk, south)
        assert await receive(first) == {"table": table.pk, "version": table.version}
        assert north_is_shown(board_of(await receive(first), table.version, presence=True), False)
        assert await first.receive_nothing()

        second = await sockets.accepted(table.pk, north)
        assert await receive(second) == {"table": table.pk, "version": table.version}
        assert north_is_shown(board_of(await receive(first), table.version, presence=True), True)
        assert board_of(await receive(second), table.version, presence=True)
        assert await first.receive_nothing()

        # North's second tab changes nothing for the others ...
        tab = await sockets.accepted(table.pk, north)
        assert await receive(tab) == {"table": table.pk, "version": table.version}
        assert await first.receive_nothing()
        await tab.disconnect()
        assert await first.receive_nothing()

        # ... North leaving with their last tab does.
        await second.disconnect()
        assert north_is_shown(board_of(await receive(first), table.version, presence=True), False)
        assert await first.receive_nothing()

    run(scenario)


def test_in_the_lobby_someone_arriving_is_a_presence_ping(creator, players):
    table = service.create_table(
        created_by=creator, preset="classique", players=dict(enumerate(players))
    )
    ping = {"table": table.pk, "presence": True}
    south, north = socket_headers(players[S]), socket_headers(players[N])

    async def scenario(sockets):
        first = await sockets.accepted(table.pk, south)
        assert await receive(first) == {"table": table.pk, "version": table.version}
        assert await receive(first) == ping
        await sockets.accepted(table.pk, north)
        assert await receive(first) == ping

    run(scenario)


@pytest.mark.parametrize("frame", ["not json", "{", "\u00e9t\u00e9 ]"])
def test_a_frame_that_is_not_json_is_ignored_and_the_socket_stays_open(table, players, frame):
    headers = socket_headers(players[N])

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)

        await socket.send_to(text_data=frame)
        assert await socket.receive_nothing(timeout=0.3)
        await socket.send_to(bytes_data=b"\x00\xff")
        assert await socket.receive_nothing(timeout=0.3)

        # Still there: a real question is answered.
        await socket.send_json_to({"want": "version"})
        assert await receive(socket) == {"table": table.pk, "version": table.version}

    run(scenario)


def test_any_message_is_answered_with_the_current_version(table, players):
    headers = socket_headers(players[W])
    questions = [{}, {"want": "version"}, {"cards": "N"}, [1, 2], "hand?", 42, None]

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        await drain(socket)
        for question in questions:
            await socket.send_json_to(question)
            assert await receive(socket) == {"table": table.pk, "version": table.version}

        outcome = await sync_to_async(random_move)(table)
        assert board_of(await receive(socket), outcome.version)
        await socket.send_json_to({"version": table.version})
        assert await receive(socket) == {"table": table.pk, "version": outcome.version}
        assert await socket.receive_nothing()

    run(scenario)


# ---------------------------------------------------------------------------------------
# Moves made by another process


def test_a_move_made_by_another_process_reaches_the_pages(table, players):
    """The task worker is a process of its own: the bots' moves, the timeouts and the
    stand-ins are made there. With Redis its broadcast reaches every Daphne process; with
    the in-memory layer of the embedded default it reaches nobody, and the relay of
    games/live/relay.py reads the table's version instead. Either way the page hears the
    move, once, without its heartbeat."""
    headers = socket_headers(players[S])
    move = (
        "from games import rules\n"
        "from games.models import Table\n"
        "from games.tables import service\n"
        "from games.tables.selectors import hand_state\n"
        f"table = Table.objects.get(pk={table.pk})\n"
        "state = hand_state(table)\n"
        "player = table.seats.get(position=state.turn).user\n"
        "action = str(rules.legal_actions(state)[0])\n"
        "service.submit(table_id=table.pk, actor=player, action=action,"
        " expected_version=table.version)\n"
    )

    async def scenario(sockets):
        socket = await sockets.accepted(table.pk, headers)
        first = await receive(socket)
        await drain(socket)  # its own arrival, told as presence

        await asyncio.to_thread(run_python, move)

        assert board_of(await receive(socket, timeout=5), first["version"] + 1)
        assert await drain(socket, quiet=1.5) == []

    run(scenario)
