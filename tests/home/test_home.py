"""The home page: a call to sign up for visitors; for a logged-in player the play-now
buttons, the tables where it is their turn (refreshed by htmx), their open invitations
and the tournaments of their clubs, never anything of a table or club that is not theirs."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ClubInvitation, RequestStatus
from games.models import Table, Tournament
from games.tables import lobby
from games.tournaments import service as tournaments
from tests.factories import make_user, make_users, seated_user, started_table
from tests.tables.helpers import client_for, invite
from tests.tournaments.helpers import (
    join,
    make_club,
    make_organiser,
    make_tournament,
    members,
    register_pairs,
)

pytestmark = pytest.mark.django_db

HOME = reverse("home")


def table_link(table: Table) -> str:
    return f'href="{reverse("games:table", args=[table.pk])}"'


def running_tournament(club_name: str) -> Tournament:
    """A started round robin of two pairs of members (its first round in play)."""
    club = make_club(club_name)
    organiser = make_organiser(club, f"orga-{club.slug}")
    tournament = make_tournament(club, Tournament.Format.ROUND_ROBIN, name=f"Open {club_name}")
    register_pairs(tournament, members(club, 4, prefix=f"membre-{club.slug}-"))
    tournaments.start(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    return tournament


def my_turn_table():
    """A started table and the player seated at the seat to act."""
    table = started_table()
    return table, seated_user(table, table.turn)


def test_a_visitor_is_asked_to_sign_up_or_log_in():
    page = Client().get(HOME).content.decode()

    assert "créez un compte ou connectez-vous pour jouer maintenant" in page
    assert reverse("account_signup") in page
    assert reverse("games:play_now") not in page


def test_the_play_now_buttons_post_with_the_choices_they_will_use():
    me = make_user("maud")
    lobby.create_private_table(created_by=me, preset="moderne", target=1500)

    page = client_for(me).get(HOME).content.decode()

    assert f'<form method="post" action="{reverse("games:play_now")}">' in page
    assert f'<form method="post" action="{reverse("games:play_with_friends")}">' in page
    assert "csrfmiddlewaretoken" in page
    assert "Jouer maintenant" in page and "Jouer entre amis" in page
    assert "Belote moderne (sans atout et tout atout) en 1500 points, robots : confirmé" in page


def test_the_tables_waiting_for_the_players_move_with_their_countdown():
    mine, me = my_turn_table()
    partner = seated_user(mine, (mine.turn + 1) % 4)
    someone_elses, _ = my_turn_table()

    page = client_for(me).get(HOME).content.decode()
    partners_page = client_for(partner).get(HOME).content.decode()

    assert table_link(mine) in page
    assert 'class="countdown' in page
    assert table_link(someone_elses) not in page
    assert table_link(mine) not in partners_page
    assert "Aucune table n'attend votre coup." in partners_page


def test_the_your_turn_list_refreshes_itself_as_a_fragment():
    mine, me = my_turn_table()
    client = client_for(me)

    page = client.get(HOME).content.decode()
    polled = {"hx-request": "true", "hx-target": "home-your-turn"}
    fragment = client.get(HOME, headers=polled).content.decode()

    assert 'hx-trigger="every 30s"' in page
    assert fragment.lstrip().startswith('<section id="home-your-turn"')
    assert table_link(mine) in fragment
    assert "Vos invitations" not in fragment
    # Logged out in another tab: the poll changes nothing on the page.
    assert Client().get(HOME, headers=polled).status_code == 204


def test_open_invitations_to_tables_in_the_lobby_and_to_clubs():
    me, host, stranger = make_users(3)
    invited = lobby.create_private_table(created_by=host, preset="classique", target=1000)
    invite(invited, me, stranger)
    seated = lobby.create_private_table(created_by=host, preset="classique", target=1000)
    invite(seated, me)
    lobby.take_seat(table=seated, user=me, position=0)
    not_me = lobby.create_private_table(created_by=host, preset="classique", target=1000)
    invite(not_me, stranger)
    club, declined_club, other_club = (make_club(n) for n in ("Les Atouts", "Le Dix", "Le Valet"))
    ClubInvitation.objects.create(club=club, user=me, invited_by=host)
    ClubInvitation.objects.create(
        club=declined_club, user=me, invited_by=host, status=RequestStatus.DECLINED
    )
    ClubInvitation.objects.create(club=other_club, user=stranger, invited_by=host)

    page = client_for(me).get(HOME).content.decode()

    assert page.count(table_link(invited)) == 1
    assert f"Invitation de {host.username}" in page
    assert table_link(seated) not in page
    assert table_link(not_me) not in page
    assert "Club Les Atouts" in page
    assert "Le Dix" not in page and "Le Valet" not in page


def test_the_next_rounds_of_the_players_clubs_only():
    me = make_user("maud")
    running = running_tournament("La Belote")
    join(running.club, me)
    mine = make_club("Les Atouts")
    join(mine, me)
    registering = make_tournament(mine, name="Coupe d'hiver")
    make_tournament(mine, name="Coupe d'été", status=Tournament.Status.FINISHED)
    elsewhere = make_tournament(make_club("Le Valet"), name="Coupe du Valet")

    page = client_for(me).get(HOME).content.decode()

    assert reverse("tournaments:detail", args=[running.pk]) in page
    assert "Ronde 1 · jusqu'au" in page
    assert reverse("tournaments:detail", args=[registering.pk]) in page
    assert "Inscriptions ouvertes" in page
    assert page.index(running.name) < page.index("Coupe d&#x27;hiver")
    assert "Coupe d&#x27;été" not in page
    assert reverse("tournaments:detail", args=[elsewhere.pk]) not in page


def test_the_home_page_reads_in_a_bounded_number_of_queries(django_assert_max_num_queries):
    me, host = make_users(2)
    first = started_table().turn  # the same at every table dealt by North
    for _ in range(8):
        players = {position: make_user() for position in range(4) if position != first}
        started_table(players={**players, first: me})
        invited = lobby.create_private_table(created_by=host, preset="classique", target=1000)
        invite(invited, me)
    for name in ("Les Atouts", "Le Dix", "Le Valet"):
        club = make_club(name)
        join(club, me)
        make_tournament(club, name=f"Coupe {name}")
        ClubInvitation.objects.create(club=make_club(f"{name} bis"), user=me, invited_by=host)
        lobby.create_private_table(
            created_by=me, preset="classique", target=1000, club=club, is_open=True
        )
        lobby.create_private_table(
            created_by=join(club, make_user()).user,
            preset="classique",
            target=1000,
            club=club,
            is_open=True,
        )
        lobby.create_private_table(
            created_by=make_user(), preset="moderne", target=1000, is_open=True
        )
    join(running_tournament("La Belote").club, me)
    client = client_for(me)

    # 12, the open tables 2 more, the seats of my own latest table (its bots) 1 more.
    with django_assert_max_num_queries(15):
        response = client.get(HOME)

    assert response.status_code == 200
    assert response.content.decode().count('class="table-card') >= 3 * 5 + 3


def test_in_english_for_an_english_player():
    page = client_for(make_user("anna", language="en")).get(HOME).content.decode()

    assert "Play now" in page and "Play with friends" in page
    assert "to 1000 points, bots: " in page
    assert "No table is waiting for your move." in page


def test_a_few_open_tables_to_join_and_a_link_to_the_list():
    me, host = make_users(2)
    private = lobby.create_private_table(created_by=host, preset="classique", target=1000)
    tables = [
        lobby.create_private_table(
            created_by=host,
            preset="moderne",
            target=1000,
            is_open=True,
            pace="async",
            move_seconds=3600,
        )
        for _ in range(4)
    ]
    mine = lobby.create_private_table(created_by=me, preset="classique", target=1000, is_open=True)

    page = client_for(me).get(HOME).content.decode()

    section = page[page.index('id="home-open-title"') : page.index('id="home-tournaments-title"')]
    assert "Tables ouvertes" in section
    assert f'href="{reverse("games:open")}"' in section
    # Three of them, never a private table nor one where I already sit.
    assert section.count('class="table-card"') == 3
    assert table_link(private) not in section
    assert table_link(mine) not in section
    assert sum(table_link(table) in section for table in tables) == 3
    assert "Belote moderne" in section and "En différé" in section
    assert "3 places libres" in section
    assert "sans classement" in section


def test_no_open_table_to_join():
    page = client_for(make_user()).get(HOME).content.decode()

    assert "Aucune table ouverte n'attend de joueurs pour l'instant." in page
    assert f'href="{reverse("games:open")}"' in page
