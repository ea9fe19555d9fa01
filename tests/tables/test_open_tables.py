"""Open tables (issue 16): "When creating a table, the creator may make it open. An open
table is listed in a lobby of open tables (preset, target, pace, free seats, who is there,
and the players' ratings). Any logged-in player takes a free seat there without an
invitation. Players can filter the list by preset and by pace. Private tables stay
exactly as private as today: never listed, and a 404 to strangers. Club tables keep their
rules."

The authorisation matrix, the list and its filters, and taking a seat from it, with every
refusal leaving the database as it was.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.models import Rating
from games.models import Table
from games.tables import lobby, service
from games.tables.access import may_see
from tests.clubs.helpers import make_club
from tests.factories import make_user
from tests.tables.helpers import client_for, htmx_post, invite, snapshot, url
from tests.tables.test_create import form

pytestmark = pytest.mark.django_db

OPEN = reverse("games:open")
CREATE = reverse("games:create")


def sit_url(table: Table) -> str:
    return reverse("games:open_sit", args=[table.pk])


def open_table(creator, **fields) -> Table:
    fields.setdefault("preset", "classique")
    fields.setdefault("target", 1000)
    return lobby.create_private_table(created_by=creator, is_open=True, **fields)


def listed(client: Client, table: Table, query: dict | None = None) -> bool:
    page = client.get(OPEN, query or {}).text
    return f'id="open-table-{table.pk}"' in page


def holders(table: Table) -> list:
    return [
        seat.user.username if seat.user else (seat.bot_level or None)
        for seat in table.seats.select_related("user").order_by("position")
    ]


# ---------------------------------------------------------------------------------------
# Making a table open


def test_the_new_table_form_offers_an_open_table(creator, as_creator):
    page = as_creator.get(CREATE).text
    assert 'name="is_open"' in page
    assert "Table ouverte" in page
    # The list's "Ouvrir une table" comes with the box ticked.
    ticked = as_creator.get(CREATE, {"ouverte": "1"}).text
    assert 'name="is_open" aria-describedby="id_is_open_helptext" id="id_is_open" checked' in ticked


def test_a_table_created_open_is_listed(creator, as_creator, outsider):
    response = as_creator.post(CREATE, form(is_open="on"))

    assert response.status_code == 302
    table = Table.objects.get(created_by=creator)
    assert table.is_open and table.opened_at is not None
    assert listed(client_for(outsider), table)


def test_a_table_is_private_unless_made_open(table, outsider):
    assert not table.is_open and table.opened_at is None
    assert not listed(client_for(outsider), table)


def test_the_creator_opens_and_closes_it_in_the_lobby(table, as_creator, outsider):
    stranger = client_for(outsider)

    response = htmx_post(as_creator, url("set_open", table), {"is_open": "on"})

    assert response.status_code == 200
    assert "elle apparaît dans la liste des tables ouvertes" in response.text
    assert listed(stranger, table)
    assert stranger.get(url("table", table)).status_code == 200

    response = as_creator.post(url("set_open", table), {})

    assert response.status_code == 302
    table.refresh_from_db()
    assert not table.is_open and table.opened_at is None
    assert not listed(stranger, table)
    # Private again: a stranger who has not sat down loses it.
    assert stranger.get(url("table", table)).status_code == 404
    assert list(table.actions.filter(kind="open").values_list("payload", flat=True)) == [
        {"open": True},
        {"open": False},
    ]


def test_only_the_creator_opens_it(table, alice):
    invite(table, alice)
    before = snapshot(table)

    response = htmx_post(client_for(alice), url("set_open", table), {"is_open": "on"})

    assert response.status_code == 403
    assert "Seul le créateur" in response.text
    assert snapshot(table) == before
    assert not Table.objects.get(pk=table.pk).is_open


def test_a_started_table_is_not_opened(table, as_creator):
    lobby.set_bot(table=table, by=table.created_by, position=0, level="random")
    Table.objects.filter(pk=table.pk).update(fill_with_bots=True)
    lobby.start(table=table, by=table.created_by)
    before = snapshot(table)

    response = htmx_post(as_creator, url("set_open", table), {"is_open": "on"})

    assert response.status_code == 409
    assert snapshot(table) == before


# ---------------------------------------------------------------------------------------
# Who sees what: the authorisation matrix


def test_logged_out_visitors_are_sent_to_log_in(creator):
    table = open_table(creator)
    login = reverse("account_login")

    assert Client().get(OPEN).url.startswith(login)
    response = Client().post(sit_url(table), {"position": 0})
    assert response.status_code == 302 and response.url.startswith(login)
    assert Client().get(url("table", table)).url.startswith(login)
    assert holders(table) == [None, None, "claire", None]


def test_an_open_table_is_seen_by_any_player_while_it_waits(creator, outsider):
    table = open_table(creator)

    assert may_see(outsider, table)
    assert client_for(outsider).get(url("table", table)).status_code == 200


def test_a_private_table_is_never_listed_and_a_404_to_strangers(table, outsider):
    stranger = client_for(outsider)
    other = open_table(make_user("ophelie"))

    page = stranger.get(OPEN).text

    assert f'id="open-table-{other.pk}"' in page
    assert f'id="open-table-{table.pk}"' not in page
    assert stranger.get(url("table", table)).status_code == 404


def test_a_private_table_is_not_listed_to_its_invitees_either(table, alice):
    invite(table, alice)

    assert not listed(client_for(alice), table)


def test_an_open_table_is_private_once_started(creator, outsider, alice):
    table = open_table(creator, fill_with_bots=True)
    lobby.take_seat(table=table, user=alice, position=0)
    lobby.start(table=table, by=creator)

    assert not listed(client_for(outsider), table)
    assert client_for(outsider).get(url("table", table)).status_code == 404
    assert client_for(alice).get(url("table", table)).status_code == 200


def test_an_open_club_table_is_listed_to_the_club_only(creator, alice, outsider):
    club = make_club("Les Atouts", owners=[creator], members=[alice])
    table = open_table(creator, club=club)

    assert listed(client_for(alice), table)
    assert "Club Les Atouts" in client_for(alice).get(OPEN).text
    assert not listed(client_for(outsider), table)
    assert client_for(outsider).get(url("table", table)).status_code == 404
    before = snapshot(table)
    response = client_for(outsider).post(sit_url(table), {"position": 0})
    assert response.status_code == 404
    assert snapshot(table) == before


def test_a_club_table_that_is_not_open_is_not_listed_even_to_members(creator, alice):
    club = make_club("Les Atouts", owners=[creator], members=[alice])
    table = lobby.create_private_table(
        created_by=creator, preset="classique", target=1000, club=club
    )

    assert not listed(client_for(alice), table)
    # Its members still see it and sit at it, as before.
    assert client_for(alice).get(url("table", table)).status_code == 200


def test_tournament_tables_are_never_listed(outsider):
    from tests.home.test_home import running_tournament

    tournament = running_tournament("La Belote")
    member = tournament.club.memberships.first().user

    page = client_for(member).get(OPEN).text

    assert "open-table-" not in page
    assert not Table.objects.filter(is_open=True).exists()


# ---------------------------------------------------------------------------------------
# What the list shows, and its filters


def test_each_row_says_the_rules_the_pace_the_seats_and_the_ratings(creator, alice, outsider):
    table = open_table(
        creator, preset="belote_com", target=501, pace="async", move_seconds=6 * 3600
    )
    lobby.take_seat(table=table, user=alice, position=0)
    lobby.set_bot(table=table, by=creator, position=1, level="random")
    Rating.objects.create(user=alice, mu=30.0, sigma=2.0, ordinal=24.0, games=7)

    page = client_for(outsider).get(OPEN).text

    assert "Belote.com (501 points)" in page
    assert "partie en 501 points" in page
    assert "En différé, 6 h par coup" in page
    assert "Une place libre" in page
    assert "alice" in page and "24,0" in page
    assert "claire" in page and "sans classement" in page
    assert "Robot" in page
    assert page.count(f'action="{sit_url(table)}"') == 1


def test_full_and_finished_tables_are_not_listed(creator, outsider):
    full = open_table(creator)
    for position in (0, 1, 3):
        lobby.set_bot(table=full, by=creator, position=position, level="random")
    closed = open_table(make_user("ophelie"))
    service.abandon_table(table_id=closed.pk, reason="admin")

    stranger = client_for(outsider)
    assert not listed(stranger, full)
    assert not listed(stranger, closed)


def test_the_fullest_tables_come_first(creator, outsider):
    emptier = open_table(creator)
    fuller = open_table(make_user("ophelie"))
    lobby.set_bot(table=fuller, by=fuller.created_by, position=0, level="random")

    page = client_for(outsider).get(OPEN).text

    assert page.index(f"open-table-{fuller.pk}") < page.index(f"open-table-{emptier.pk}")


def test_filters_by_preset_and_pace(creator, outsider):
    live_classique = open_table(creator)
    async_moderne = open_table(
        make_user("ophelie"), preset="moderne", target=1000, pace="async", move_seconds=3600
    )
    stranger = client_for(outsider)

    assert listed(stranger, live_classique, {"preset": "classique"})
    assert not listed(stranger, async_moderne, {"preset": "classique"})
    assert listed(stranger, async_moderne, {"pace": "async"})
    assert not listed(stranger, live_classique, {"pace": "async"})
    assert not listed(stranger, async_moderne, {"preset": "moderne", "pace": "live"})
    empty = stranger.get(OPEN, {"preset": "stekius"}).text
    assert "Aucune table ouverte ne correspond à ces filtres" in empty


def test_htmx_gets_the_list_alone_with_its_filters(creator, outsider):
    table = open_table(creator)

    response = client_for(outsider).get(
        OPEN, {"pace": "live"}, headers={"hx-request": "true", "hx-target": "open-tables"}
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="open-tables"')
    assert f'data-fragment-url="{OPEN}?pace=live"' in response.text
    assert f'action="{sit_url(table)}?pace=live"' in response.text
    assert "<html" not in response.text


def test_an_unknown_filter_is_refused_with_a_message(creator, outsider):
    table = open_table(creator)

    response = client_for(outsider).get(OPEN, {"preset": "<b>poker</b>", "pace": "x"})

    assert response.status_code == 422
    assert "Ce filtre n'existe pas" in response.text
    assert f'id="open-table-{table.pk}"' in response.text
    assert "<b>poker</b>" not in response.text


def test_my_own_open_table_is_marked_without_a_seat_to_take(creator, as_creator):
    table = open_table(creator)

    page = as_creator.get(OPEN).text

    assert "Vous êtes à cette table." in page
    assert f'action="{sit_url(table)}' not in page


def test_the_list_is_linked_from_the_navigation(outsider):
    assert f'href="{OPEN}"' in client_for(outsider).get(reverse("games:list")).text


# ---------------------------------------------------------------------------------------
# Taking a seat


def test_a_player_takes_a_free_seat_and_lands_on_the_table(creator, outsider):
    table = open_table(creator)
    client = client_for(outsider)

    response = client.post(sit_url(table), {"position": 1})

    assert response.status_code == 302
    assert response.url == url("table", table)
    assert holders(table) == [None, "olivier", "claire", None]
    page = client.get(response.url).text
    assert "Vous avez pris votre place" in page
    assert table.actions.filter(kind="take_seat", seat=1).exists()


def test_with_htmx_the_page_goes_to_the_table(creator, outsider):
    table = open_table(creator)

    response = htmx_post(client_for(outsider), sit_url(table), {"position": 0})

    assert response.status_code == 200
    assert response["HX-Redirect"] == url("table", table)
    assert holders(table)[0] == "olivier"


def test_a_club_member_sits_at_an_open_club_table(creator, alice):
    club = make_club("Les Atouts", owners=[creator], members=[alice])
    table = open_table(creator, club=club)

    response = client_for(alice).post(sit_url(table), {"position": 3})

    assert response.status_code == 302
    assert holders(table)[3] == "alice"


REFUSALS = ["seat_taken", "bot_there", "already_seated", "bad_seat"]


@pytest.mark.parametrize("case", REFUSALS)
def test_every_refusal_says_why_and_changes_nothing(case, creator, alice, outsider):
    table = open_table(creator, fill_with_bots=True)
    position = 0
    if case == "seat_taken":
        lobby.take_seat(table=table, user=alice, position=0)
    elif case == "bot_there":
        lobby.set_bot(table=table, by=creator, position=0, level="random")
    elif case == "already_seated":
        lobby.take_seat(table=table, user=outsider, position=1)
    else:
        position = 9
    before = snapshot(table)

    response = htmx_post(client_for(outsider), sit_url(table), {"position": position})

    status, message = {
        "seat_taken": (409, "Cette place est déjà prise."),
        "bot_there": (409, "Cette place est déjà prise."),
        "already_seated": (409, "Vous avez déjà une place à cette table."),
        "bad_seat": (422, "Sélectionnez un choix valide"),
    }[case]
    assert response.status_code == status
    # The notice comes out of band, outside the list that the live refetches replace.
    notice, _, rest = response.text.partition('<section id="open-tables"')
    assert notice.lstrip().startswith(
        '<div id="open-tables-notice" class="open-tables-notice" hx-swap-oob="true">'
    )
    assert message in notice.replace("&#x27;", "'")
    assert rest and message not in rest.replace("&#x27;", "'")
    assert snapshot(table) == before


@pytest.mark.parametrize("case", ["started", "closed"])
def test_a_table_no_longer_open_does_not_exist_for_a_stranger(case, creator, outsider):
    """Private as today: once started or closed, an open table is as private as any, and
    a stranger who had not sat down is told it does not exist, not what became of it."""
    table = open_table(creator, fill_with_bots=True)
    if case == "started":
        lobby.start(table=table, by=creator)
    else:
        service.abandon_table(table_id=table.pk, reason="admin")
    before = snapshot(table)

    client = client_for(outsider)
    response = htmx_post(client, sit_url(table), {"position": 0})
    assert response.status_code == 404
    assert "commencé" not in response.text and "fermée" not in response.text
    assert client.post(sit_url(table), {"position": 0}).status_code == 404
    assert snapshot(table) == before


@pytest.mark.parametrize(
    ("case", "message"),
    [("started", "La partie a commencé sans vous."), ("closed", "Cette table est fermée.")],
)
def test_an_invitee_is_told_the_table_started_or_closed(case, message, creator, alice):
    """Someone who may still see the table (an invitee) learns nothing new: 409, why."""
    table = open_table(creator, fill_with_bots=True)
    invite(table, alice)
    if case == "started":
        lobby.start(table=table, by=creator)
    else:
        service.abandon_table(table_id=table.pk, reason="admin")
    before = snapshot(table)

    response = htmx_post(client_for(alice), sit_url(table), {"position": 0})

    assert response.status_code == 409
    assert message in response.text.split('<section id="open-tables"')[0]
    assert snapshot(table) == before


def test_without_javascript_a_refusal_shows_the_list_with_the_message(creator, alice, outsider):
    table = open_table(creator)
    lobby.take_seat(table=table, user=alice, position=0)

    response = client_for(outsider).post(sit_url(table) + "?pace=live", {"position": 0})

    assert response.status_code == 409
    # The site's messages say it, above the list (nothing out of band in a whole page).
    assert "Cette place est déjà prise." in response.text.split('<section id="open-tables"')[0]
    assert "hx-swap-oob" not in response.text
    assert "<html" in response.text
    assert f'data-fragment-url="{OPEN}?pace=live"' in response.text


@pytest.mark.parametrize("kind", ["private", "closed_by_creator", "missing"])
def test_a_table_not_open_to_them_does_not_exist(kind, table, outsider):
    if kind == "closed_by_creator":
        lobby.set_open(table=table, by=table.created_by, is_open=True)
        lobby.set_open(table=table, by=table.created_by, is_open=False)
    before = snapshot(table)
    target = sit_url(table) if kind != "missing" else reverse("games:open_sit", args=[10**9])

    response = client_for(outsider).post(target, {"position": 0})

    assert response.status_code == 404
    assert table.invite_token not in response.text
    assert snapshot(table) == before


def test_a_get_takes_no_seat(creator, outsider):
    table = open_table(creator)

    assert client_for(outsider).get(sit_url(table)).status_code == 405
    assert holders(table) == [None, None, "claire", None]


def test_the_post_needs_its_csrf_token(creator, outsider):
    table = open_table(creator)
    client = Client(enforce_csrf_checks=True)
    client.force_login(outsider)

    assert client.post(sit_url(table), {"position": 0}).status_code == 403
    assert holders(table) == [None, None, "claire", None]


@pytest.mark.django_db(transaction=True)
def test_two_players_on_the_same_seat_one_sits_the_other_is_told(creator):
    table = open_table(creator)
    players = [make_user("paul"), make_user("pia")]
    clients = [client_for(player) for player in players]
    version = Table.objects.get(pk=table.pk).version
    barrier = threading.Barrier(2)
    answers: dict[str, object] = {}
    errors: list[BaseException] = []

    def sit(name: str, client: Client) -> None:
        try:
            barrier.wait(timeout=10)
            answers[name] = htmx_post(client, sit_url(table), {"position": 0})
        except BaseException as error:  # reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=sit, args=(p.username, c))
        for p, c in zip(players, clients, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert errors == []
    statuses = sorted(answer.status_code for answer in answers.values())
    assert statuses == [200, 409]
    winner = next(name for name, answer in answers.items() if answer.status_code == 200)
    loser = next(answer for answer in answers.values() if answer.status_code == 409)
    assert "Cette place est déjà prise." in loser.text
    assert holders(table) == [winner, None, "claire", None]
    table.refresh_from_db()
    assert table.version == version + 1


# ---------------------------------------------------------------------------------------
# The creator frees a seat ("Libérer la place")


def release_url(table: Table) -> str:
    return reverse("games:release_seat", args=[table.pk])


def test_the_creator_frees_a_strangers_seat_and_the_stranger_is_told(creator, as_creator, outsider):
    table = open_table(creator)
    lobby.take_seat(table=table, user=outsider, position=0)
    lobby_page = as_creator.get(url("table", table)).text
    assert lobby_page.count("Libérer la place") == 1  # Olivier's seat, not the creator's

    response = htmx_post(as_creator, release_url(table), {"position": 0})

    assert response.status_code == 200
    assert "La place est libérée." in response.text
    assert holders(table) == [None, None, "claire", None]
    assert table.actions.filter(kind="release_seat", payload__user=outsider.pk).exists()
    assert listed(client_for(make_user("vera")), table)  # a free seat again: listed
    # Olivier's page (refetched when the socket says the table changed) says so; it goes
    # once he sits again.
    stranger = client_for(outsider)
    told = "La personne qui a créé la table a libéré votre place."
    assert told in stranger.get(url("table", table)).text.replace("&#x27;", "'")
    lobby.take_seat(table=table, user=outsider, position=1)
    assert told not in stranger.get(url("table", table)).text.replace("&#x27;", "'")


def test_without_javascript_freeing_a_seat_redirects_with_a_message(creator, as_creator, alice):
    table = open_table(creator)
    lobby.take_seat(table=table, user=alice, position=3)

    response = as_creator.post(release_url(table), {"position": 3}, follow=True)

    assert response.redirect_chain[-1][0] == url("table", table)
    assert "La place est libérée." in response.text
    assert holders(table) == [None, None, "claire", None]


@pytest.mark.parametrize(
    ("case", "status", "message"),
    [
        ("not_creator", 403, "Seul le créateur de la table peut faire cela."),
        ("free_seat", 409, "Aucun joueur n'est assis à cette place."),
        ("bot_seat", 409, "Aucun joueur n'est assis à cette place."),
        ("own_seat", 409, "C'est votre place"),
        ("bad_seat", 422, "Sélectionnez un choix valide"),
        ("started", 409, "La partie a déjà commencé."),
    ],
)
def test_freeing_a_seat_is_refused_with_a_message(case, status, message, creator, alice, bob):
    table = open_table(creator, fill_with_bots=True)
    lobby.take_seat(table=table, user=alice, position=0)
    lobby.take_seat(table=table, user=bob, position=1)
    lobby.set_bot(table=table, by=creator, position=3, level="random")
    client, position = client_for(creator), 0
    if case == "not_creator":
        client = client_for(bob)
    elif case == "free_seat":
        lobby.leave_seat(table=table, user=alice)
    elif case == "bot_seat":
        position = 3
    elif case == "own_seat":
        position = 2
    elif case == "bad_seat":
        position = 9
    elif case == "started":
        lobby.start(table=table, by=creator)
    before = snapshot(table)

    response = htmx_post(client, release_url(table), {"position": position})

    assert response.status_code == status
    assert message in response.text.replace("&#x27;", "'")
    assert snapshot(table) == before


def test_freeing_a_seat_needs_csrf_and_a_post_and_a_table_to_see(creator, outsider, alice):
    table = open_table(creator)
    lobby.take_seat(table=table, user=alice, position=0)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(creator)
    assert strict.post(release_url(table), {"position": 0}).status_code == 403
    assert client_for(creator).get(release_url(table)).status_code == 405
    private = lobby.create_private_table(created_by=creator, preset="classique", target=1000)
    assert client_for(outsider).post(release_url(private), {"position": 2}).status_code == 404
    assert holders(table) == ["alice", None, "claire", None]
