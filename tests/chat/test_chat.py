"""Table talk (games/tables/chat.py) over the real websocket consumer and real POSTs.

Issue 16: "A chat beside the table for its seated players, and for spectators if the
creator allows it, read-only or not. Messages are pushed live, stored with the table,
shown in the hand history, and rate-limited, at most 200 characters, escaped [...]
During a hand, only a fixed set of short reactions can be sent [...] A player can mute
the table's chat for themselves. The creator can turn the chat off. The chat never
delays a move, and its messages never change the table's version."

Messages are posted as a browser does (a real login, the CSRF token checked, htmx), the
sockets opened through the ASGI application (tests/live/conftest.py), the database
committed for real so that the on-commit broadcasts run.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live.consumers import NOT_ALLOWED
from games.models import ChatMessage, Table
from games.tables import chat, lobby, service
from tests.factories import fixed_deck, make_user, make_users, play_to_the_end
from tests.live.conftest import run, socket_headers
from tests.table_page.helpers import finish_hand, take_at_once

pytestmark = pytest.mark.django_db(transaction=True)

N, E, S, W = range(4)
QUIET = 0.3


@pytest.fixture(autouse=True)
def empty_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def players():
    return make_users(4)


@pytest.fixture
def creator():
    return make_user("claire")


def new_table(creator, players, *, start: bool = True, chat_spectators: str = "read") -> Table:
    table = service.create_table(
        created_by=creator, preset="classique", players=dict(enumerate(players))
    )
    lobby.set_spectators(table=table, by=creator, allowed=True)
    chat.set_settings(table=table, by=creator, enabled=True, spectators=chat_spectators)
    if start:
        service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(3))
    table.refresh_from_db()
    return table


def browser(user) -> Client:
    """``user``'s browser: logged in, CSRF checked as in production, a page opened (its
    CSRF cookie set)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(reverse("home"))
    return client


def post(client: Client, table: Table, name: str, data: dict):
    token = client.cookies["csrftoken"].value
    return client.post(
        reverse(f"games:{name}", args=[table.pk]),
        data,
        HTTP_X_CSRFTOKEN=token,
        HTTP_HX_REQUEST="true",
    )


def say(user, table: Table, **data):
    return post(browser(user), table, "chat_send", data)


def mute(user, table: Table, muted: str):
    return post(browser(user), table, "chat_mute", {"muted": muted})


def configure(user, table: Table, data: dict):
    return post(browser(user), table, "chat_settings", data)


def chat_panel(user, table: Table) -> str:
    return browser(user).get(reverse("games:chat", args=[table.pk])).content.decode()


def watch(table: Table, user) -> None:
    lobby.join_by_link(table=table, user=user, token=table.invite_token)


def stored(table: Table) -> list[str]:
    return list(
        ChatMessage.objects.filter(table=table).order_by("id").values_list("text", flat=True)
    )


async def chat_message(socket) -> dict:
    message = await socket.receive_json_from(timeout=10)
    while "chat" not in message:  # versions and presence boards of the table itself
        message = await socket.receive_json_from(timeout=10)
    assert set(message) in ({"table", "chat", "message"}, {"table", "chat"}), message
    return message


async def no_chat(socket) -> None:
    """Nothing of the chat reaches ``socket`` (the table's own messages may)."""
    while not await socket.receive_nothing(timeout=QUIET):
        message = await socket.receive_json_from()
        assert "chat" not in message, message


async def settle(*sockets) -> None:
    for socket in sockets:
        while not await socket.receive_nothing(timeout=QUIET):
            await socket.receive_json_from()


# ---------------------------------------------------------------------------------------
# Who reads, who writes


def test_a_reaction_reaches_players_and_allowed_spectators_live_and_nobody_else(creator, players):
    table = new_table(creator, players, chat_spectators="read")
    spectator, stranger = make_user("sam"), make_user("sacha")
    watch(table, spectator)

    heads = [socket_headers(user) for user in (players[N], players[E], spectator, stranger)]

    async def scenario(sockets):
        north = await sockets.accepted(table.pk, heads[0])
        east = await sockets.accepted(table.pk, heads[1])
        watching = await sockets.accepted(table.pk, heads[2])
        _socket, accepted, code = await sockets.open(table.pk, heads[3])
        assert (accepted, code) == (False, NOT_ALLOWED)
        await settle(north, east, watching)

        response = await sync_to_async(say)(players[S], table, reaction="bravo")
        assert response.status_code == 200
        for socket in (north, east, watching):
            message = await chat_message(socket)
            assert message["table"] == table.pk
            assert "Bravo partenaire" in message["chat"]
            assert players[S].username in message["chat"]

        # A read-only spectator may not write; a stranger does not see the table at all.
        refused = await sync_to_async(say)(spectator, table, reaction="oops")
        assert refused.status_code == 403
        assert "spectateurs" in refused.content.decode()
        assert (await sync_to_async(say)(stranger, table, reaction="oops")).status_code == 404
        await no_chat(north)

    run(scenario)
    assert stored(table) == ["Bravo partenaire"]
    # The stranger's GET of the panel is a 404 too: not a word of the chat.
    assert browser(stranger).get(reverse("games:chat", args=[table.pk])).status_code == 404


def test_spectators_read_nothing_unless_the_creator_allows_it_and_write_when_allowed(
    creator, players
):
    table = new_table(creator, players, chat_spectators="none")
    spectator = make_user("sam")
    watch(table, spectator)

    head = socket_headers(spectator)

    async def scenario(sockets):
        watching = await sockets.accepted(table.pk, head)
        await settle(watching)
        await sync_to_async(say)(players[N], table, reaction="thanks")
        await no_chat(watching)
        assert (await sync_to_async(say)(spectator, table, reaction="oops")).status_code == 403

        await sync_to_async(chat.set_settings)(
            table=table, by=creator, enabled=True, spectators="write"
        )
        assert (await chat_message(watching))["chat"] == "reload"
        assert (await sync_to_async(say)(spectator, table, reaction="oops")).status_code == 200
        assert "Oups" in (await chat_message(watching))["chat"]

    run(scenario)
    assert stored(table) == ["Merci", "Oups"]
    page = browser(spectator).get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Merci" in page and "Oups" in page


# ---------------------------------------------------------------------------------------
# What may be sent when


def test_during_a_hand_only_the_reactions_are_accepted(creator, players):
    table = new_table(creator, players)
    # The bidding...
    refused = say(players[N], table, text="J'ai le valet de cœur")
    assert refused.status_code == 409
    assert "seules les réactions" in refused.content.decode()
    assert say(players[N], table, reaction="no-such").status_code == 422
    assert say(players[N], table, reaction="well_played").status_code == 200
    # ...and the card play.
    take_at_once(table)
    assert say(players[E], table, text="atout pique").status_code == 409
    assert say(players[E], table, reaction="oops").status_code == 200
    assert stored(table) == ["Bien joué !", "Oups"]
    phases = list(ChatMessage.objects.order_by("id").values_list("phase", flat=True))
    assert phases == ["bidding", "play"]


def test_free_text_is_open_in_the_lobby_and_once_the_game_is_over(creator, players):
    table = new_table(creator, players, start=False)
    assert say(players[N], table, text="  On commence ?  ").status_code == 200
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(3))
    assert say(players[N], table, text="Allez").status_code == 409
    service.abandon_table(table_id=table.pk, reason="test")
    assert say(players[E], table, text="Bien joué quand même").status_code == 200
    assert stored(table) == ["On commence ?", "Bien joué quand même"]


@pytest.mark.parametrize(
    ("text", "status", "words"),
    [
        ("", 422, "Écrivez un message"),
        ("   ", 422, "Écrivez un message"),
        ("x" * 201, 422, "au plus 200 caractères"),
        ("salut\u202etous", 422, "U+202E"),
        ("caché\u200b", 422, "U+200B"),
        ("ligne\nligne", 422, "U+000A"),
    ],
)
def test_bad_text_is_refused_with_a_message_and_nothing_stored(
    creator, players, text, status, words
):
    table = new_table(creator, players, start=False)
    response = say(players[N], table, text=text)
    assert response.status_code == status
    assert words in response.content.decode()
    assert stored(table) == []
    assert say(players[N], table, text="x" * 200).status_code == 200


def test_a_post_without_its_csrf_token_is_refused(creator, players):
    table = new_table(creator, players, start=False)
    client = browser(players[N])
    response = client.post(reverse("games:chat_send", args=[table.pk]), {"text": "salut"})
    assert response.status_code == 403
    assert stored(table) == []


def test_messages_are_escaped_in_the_push_and_on_the_page(creator, players):
    table = new_table(creator, players, start=False)
    nasty = '<script>alert("x")</script> & <b>gras</b>'

    head = socket_headers(players[E])

    async def scenario(sockets):
        east = await sockets.accepted(table.pk, head)
        await settle(east)
        assert (await sync_to_async(say)(players[N], table, text=nasty)).status_code == 200
        html = (await chat_message(east))["chat"]
        assert "<script>" not in html and "<b>" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;gras" in html

    run(scenario)
    assert stored(table) == [nasty]  # stored as written
    page = browser(players[E]).get(reverse("games:table", args=[table.pk])).content.decode()
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page


def test_sending_too_fast_is_answered_429_in_french(creator, players):
    table = new_table(creator, players)
    client = browser(players[N])
    for _ in range(5):
        assert post(client, table, "chat_send", {"reaction": "oops"}).status_code == 200
    response = post(client, table, "chat_send", {"reaction": "oops"})
    assert response.status_code == 429
    assert "Vous écrivez trop vite" in response.content.decode()
    assert len(stored(table)) == 5
    # Per user and table: a partner still talks.
    assert say(players[S], table, reaction="thanks").status_code == 200


# ---------------------------------------------------------------------------------------
# Mute, chat off


def test_a_player_who_muted_the_chat_gets_nothing_until_they_unmute(creator, players):
    table = new_table(creator, players)

    head = socket_headers(players[E])

    async def scenario(sockets):
        east = await sockets.accepted(table.pk, head)
        await settle(east)
        muted = await sync_to_async(mute)(players[E], table, "on")
        assert muted.status_code == 200
        await sync_to_async(say)(players[N], table, reaction="bravo")
        await no_chat(east)
        refused = await sync_to_async(say)(players[E], table, reaction="oops")
        assert refused.status_code == 403
        panel = await sync_to_async(chat_panel)(players[E], table)
        assert "Bravo partenaire" not in panel

        await sync_to_async(mute)(players[E], table, "")
        await sync_to_async(say)(players[N], table, reaction="thanks")
        assert "Merci" in (await chat_message(east))["chat"]

    run(scenario)
    assert stored(table) == ["Bravo partenaire", "Merci"]


def test_the_creator_turns_the_chat_off_and_only_the_creator(creator, players):
    table = new_table(creator, players)

    head = socket_headers(players[E])

    async def scenario(sockets):
        east = await sockets.accepted(table.pk, head)
        await settle(east)
        data = {"spectators": "none"}  # "enabled" unticked: off
        refused = await sync_to_async(configure)(players[N], table, data)
        assert refused.status_code == 403
        done = await sync_to_async(configure)(creator, table, data)
        assert done.status_code == 200
        assert (await chat_message(east)) == {"table": table.pk, "chat": "reload"}
        closed = await sync_to_async(say)(players[N], table, reaction="bravo")
        assert closed.status_code == 403
        await no_chat(east)

    run(scenario)
    assert stored(table) == []
    table.refresh_from_db()
    assert table.chat_enabled is False


# ---------------------------------------------------------------------------------------
# The chat and the game


def test_chat_never_moves_the_version_and_a_move_sent_before_it_stays_valid(creator, players):
    table = new_table(creator, players)
    version = table.version
    say(players[N], table, reaction="hello")
    post(browser(creator), table, "chat_settings", {"enabled": "on", "spectators": "write"})
    post(browser(players[E]), table, "chat_mute", {"muted": "on"})
    table.refresh_from_db()
    assert table.version == version
    player = table.seats.get(position=table.turn).user
    outcome = service.submit(
        table_id=table.pk, actor=player, action="pass", expected_version=version
    )
    assert outcome.applied
    # A move's save does not write the chat's settings back (only chat.py writes them).
    table.refresh_from_db()
    assert table.chat_spectators == "write"


def test_the_hand_history_shows_the_messages_of_that_hand(creator, players):
    table = new_table(creator, players)
    say(players[N], table, reaction="bravo")
    first = table.current_hand
    finish_hand(table)
    table.refresh_from_db()
    say(players[E], table, reaction="oops")  # the next hand's
    history = browser(players[S]).get(
        reverse("games:hand", args=[table.pk, first.game.number, first.number])
    )
    page = history.content.decode()
    assert "Bravo partenaire" in page
    assert "Oups" not in page


def test_messages_after_the_game_show_as_such_in_its_last_hands_history(creator, players):
    table = new_table(creator, players)
    play_to_the_end(table, seed=2)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    last = table.current_hand
    assert say(players[N], table, reaction="gg").status_code == 200
    assert say(players[E], table, text="Belle partie !").status_code == 200
    assert ChatMessage.objects.filter(hand=last).count() == 2  # recorded with the last hand

    history = browser(players[S]).get(
        reverse("games:hand", args=[table.pk, last.game.number, last.number])
    )
    page = history.content.decode()
    during, _, after = page.partition("Discussion après la partie")
    assert after, "no section for the talk after the game"
    assert "Aucun message pendant cette donne." in during
    assert "Belle partie !" not in during and "Bien vu !" not in during
    assert "Belle partie !" in after and "Bien vu !" in after


def test_the_new_table_form_sets_the_chat_and_the_creator_changes_it_later(players):
    creator = players[S]
    client = browser(creator)
    page = client.get(reverse("games:create")).content.decode()
    assert 'name="chat_enabled"' in page and 'name="chat_spectators"' in page
    data = {
        "preset": "classique",
        "target": "1000",
        "announces": "off",
        "pace": "live",
        "live_seconds": "120",
        "async_hours": "24",
        "seat": "2",
        "bot_level": "heuristic",
        "chat_spectators": "write",
    }
    token = client.cookies["csrftoken"].value
    response = client.post(reverse("games:create"), data, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(created_by=creator)
    assert (table.chat_enabled, table.chat_spectators) == (False, "write")
    configure(creator, table, {"enabled": "on", "spectators": "read"})
    table.refresh_from_db()
    assert (table.chat_enabled, table.chat_spectators) == (True, "read")
    assert configure(creator, table, {"enabled": "on", "spectators": "all"}).status_code == 422


def test_a_reaction_reads_in_each_readers_language(creator, players):
    table = new_table(creator, players)
    players[E].language = "en"
    players[E].save(update_fields=["language"])
    head = socket_headers(players[E])

    async def scenario(sockets):
        east = await sockets.accepted(table.pk, head)
        await settle(east)
        await sync_to_async(say)(players[N], table, reaction="bravo")
        assert "Nice one, partner" in (await chat_message(east))["chat"]

    run(scenario)
    assert stored(table) == ["Bravo partenaire"]  # stored in the sender's words


def test_without_javascript_a_message_is_a_plain_post_and_a_redirect(creator, players):
    table = new_table(creator, players, start=False)
    client = browser(players[N])
    token = client.cookies["csrftoken"].value
    response = client.post(
        reverse("games:chat_send", args=[table.pk]),
        {"text": "Bonsoir"},
        HTTP_X_CSRFTOKEN=token,
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("games:table", args=[table.pk])
    page = response.content.decode()
    assert "Message envoyé." in page and "Bonsoir" in page
    assert stored(table) == ["Bonsoir"]


def test_the_chat_appears_on_an_open_page_when_it_becomes_theirs(creator, players):
    """A spectator kept out of the chat has an empty, hidden #chat on the table page, with
    the address of the whole #chat (static/js/chat.js fetches it when the socket says the
    settings changed): once the creator lets spectators read, it brings the drawer."""
    table = new_table(creator, players, chat_spectators="none")
    spectator = make_user("sam")
    watch(table, spectator)
    say(players[N], table, reaction="thanks")
    client = browser(spectator)
    zone = reverse("games:chat", args=[table.pk]) + "?zone=1"

    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert f'<div id="chat" hidden data-chat-zone-url="{zone}"></div>' in page
    assert "Merci" not in page
    assert client.get(zone).content.decode().strip().startswith('<div id="chat" hidden')

    configure(creator, table, {"enabled": "on", "spectators": "read"})
    fetched = client.get(zone).content.decode().strip()
    assert fetched.startswith('<details id="chat" class="chat"')
    assert "Merci" in fetched and 'id="chat-panel"' in fetched

    # Kept out again: the drawer goes, and not a word stays.
    configure(creator, table, {"enabled": "on", "spectators": "none"})
    gone = client.get(zone).content.decode()
    assert gone.strip().startswith('<div id="chat" hidden') and "Merci" not in gone
    # A stranger asks in vain.
    assert browser(make_user("sacha")).get(zone).status_code == 404


def test_the_cost_of_a_message_does_not_grow_with_its_readers(creator, players):
    """A message is read once per process (chat.shared_message): the queries of its push
    are the same for 2 readers as for 9, and each reader's rights still hold."""
    table = new_table(creator, players, chat_spectators="read")
    spectators = [make_user(f"spectateur{i}") for i in range(3)]
    for spectator in spectators:
        watch(table, spectator)
    mute(players[W], table, "on")
    stranger = make_user("sacha")
    ids = []
    for reaction in ("hello", "thanks", "bravo"):
        assert say(players[N], table, reaction=reaction).status_code == 200
        ids.append(ChatMessage.objects.latest("id").pk)

    def push(message_id: int, users) -> tuple[list, int]:
        with CaptureQueriesContext(connection) as queries:
            shared = chat.shared_message(table.pk, message_id)
            lines = [shared.html_for(user, "fr") for user in users]
        return lines, len(queries)

    push(ids[0], [players[E]])  # warms what the process keeps (the seats)
    _few, cost_few = push(ids[1], [players[E], players[S]])
    readers = [players[E], players[S], creator, *spectators, players[E]]
    many, cost_many = push(ids[2], [*readers, players[W], stranger])
    second = ids[2]

    assert cost_many == cost_few <= 5
    assert all(line and "Bravo partenaire" in line for line in many[: len(readers)])
    assert many[-2:] == [None, None]  # the muted player, the stranger: nothing
    assert "chat-mine" not in many[0]
    assert chat.shared_message(table.pk, second).renders == 1  # one language, no author


def test_the_pages_share_one_rendering_of_a_message(creator, players):
    """Through the real consumers: nine pages, one reading and one rendering."""
    table = new_table(creator, players, chat_spectators="read")
    spectators = [make_user(f"spectateur{i}") for i in range(3)]
    for spectator in spectators:
        watch(table, spectator)
    users = (players[E], players[S], players[W], creator, *spectators, players[E])
    heads = [socket_headers(user) for user in users]

    async def scenario(sockets):
        pages = [await sockets.accepted(table.pk, head) for head in heads]
        await settle(*pages)
        await sync_to_async(say)(players[N], table, reaction="bravo")
        for page in pages:
            assert "Bravo partenaire" in (await chat_message(page))["chat"]

    run(scenario)
    message = ChatMessage.objects.get(table=table)
    assert chat.shared_message(table.pk, message.pk).renders == 1


def test_a_page_asks_at_its_sockets_first_opening_for_what_came_since_it_was_rendered(
    creator, players
):
    """The page shows its newest message's id (data-chat-last); when its socket first
    opens, static/js/chat.js asks for the whole #chat after that id: a 204 when nothing
    came, the chat with the new message when something did (sent between the page's
    rendering and its socket's opening)."""
    table = new_table(creator, players)
    say(players[N], table, reaction="thanks")
    client = browser(players[E])
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    (first,) = ChatMessage.objects.filter(table=table).values_list("pk", flat=True)
    assert f'data-chat-last="{first}"' in page
    zone = reverse("games:chat", args=[table.pk]) + "?zone=1"

    assert client.get(f"{zone}&after={first}").status_code == 204

    say(players[S], table, reaction="bravo")
    caught_up = client.get(f"{zone}&after={first}")
    assert caught_up.status_code == 200 and "Bravo partenaire" in caught_up.text
    newest = ChatMessage.objects.filter(table=table).latest("pk").pk
    assert f'data-chat-last="{newest}"' in caught_up.text
    # A bad id is no question: the whole chat, never an error.
    for bad in ("²", "-1", "9" * 40, "abc"):
        assert client.get(f"{zone}&after={bad}").status_code == 200
    assert browser(make_user("sacha")).get(f"{zone}&after={first}").status_code == 404
