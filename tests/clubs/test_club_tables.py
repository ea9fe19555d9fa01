"""Club-only tables: "on a club table, members of the club can see the table and take a
free seat without invitation"; nobody else sees it (404), and whoever leaves the club
loses a table not started yet, unless they sit at it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.clubs import service as clubs
from games.models import Table
from games.tables import lobby
from games.tables.access import may_see, visible_tables
from games.tables.selectors import dashboard
from games.tables.service import ServiceError
from tests.clubs.helpers import client_for, htmx_post, make_club, url
from tests.factories import make_user

pytestmark = pytest.mark.django_db

CREATE = reverse("games:create")


def form(**fields) -> dict:
    return {
        "preset": "classique",
        "target": "1000",
        "announces": "off",
        "pace": "live",
        "live_seconds": "120",
        "async_hours": "24",
        "seat": "2",
        "bot_level": "heuristic",
        **fields,
    }


@pytest.fixture
def club_table(club, owner) -> Table:
    """A club table in the lobby, its creator (the club's owner) at South."""
    return lobby.create_private_table(created_by=owner, preset="classique", target=1000, club=club)


def table_url(name: str, table: Table) -> str:
    return reverse(f"games:{name}", args=[table.pk])


def seat_of(table: Table, user) -> int | None:
    seat = table.seats.filter(user=user).first()
    return None if seat is None else seat.position


# ---------------------------------------------------------------------------------------
# Creating one


def test_the_form_offers_my_clubs_only(club, member):
    make_club("Belote du Port", owners=[make_user("paul")])

    page = client_for(member).get(CREATE).text

    assert 'name="club"' in page
    assert "Les Atouts" in page
    assert "Belote du Port" not in page
    assert "Aucun : table privée" in page


def test_without_a_club_the_form_has_no_club_field(outsider):
    assert 'name="club"' not in client_for(outsider).get(CREATE).text


def test_the_club_page_link_chooses_the_club(club, member):
    page = client_for(member).get(CREATE, {"club": club.pk}).text

    assert f'<option value="{club.pk}" selected' in page


def test_create_a_club_table(club, member):
    response = client_for(member).post(CREATE, form(club=str(club.pk)))

    table = Table.objects.get()
    assert response.status_code == 302
    assert table.club == club and table.created_by == member


def test_an_empty_club_is_a_private_table(club, member):
    client_for(member).post(CREATE, form(club=""))

    assert Table.objects.get().club is None


def test_a_club_one_is_not_in_is_refused(club, outsider, member):
    other = make_club("Belote du Port", owners=[make_user("paul")])

    response = client_for(member).post(CREATE, form(club=str(other.pk)))

    assert response.status_code == 422
    assert not Table.objects.exists()


def test_the_lobby_refuses_a_club_one_is_not_in(club, outsider):
    with pytest.raises(ServiceError) as error:
        lobby.create_private_table(created_by=outsider, preset="classique", target=1000, club=club)

    assert error.value.status == 403
    assert not Table.objects.exists()


# ---------------------------------------------------------------------------------------
# Seeing and sitting


def test_a_member_sees_the_table_and_takes_a_seat(club_table, member):
    client = client_for(member)

    page = client.get(table_url("table", club_table))
    sat = client.post(table_url("take_seat", club_table), {"position": 0})

    assert page.status_code == 200
    assert sat.status_code == 302
    assert seat_of(club_table, member) == 0


def test_a_member_takes_a_seat_with_htmx(club_table, member):
    response = htmx_post(client_for(member), table_url("take_seat", club_table), {"position": 1})

    assert response.status_code == 200
    assert seat_of(club_table, member) == 1


@pytest.mark.parametrize("who", ["outsider", "other_organiser"])
def test_non_members_get_404(club_table, outsider, other_organiser, who):
    client = client_for({"outsider": outsider, "other_organiser": other_organiser}[who])

    assert client.get(table_url("table", club_table)).status_code == 404
    assert client.post(table_url("take_seat", club_table), {"position": 0}).status_code == 404
    assert club_table.seats.filter(user__isnull=False).count() == 1


def test_a_private_table_stays_private_to_club_members(club, owner, member):
    private = lobby.create_private_table(created_by=owner, preset="classique", target=1000)

    assert client_for(member).get(table_url("table", private)).status_code == 404


def test_club_tables_are_not_on_the_dashboard_of_every_member(club_table, member):
    assert club_table in visible_tables(member)
    assert dashboard(member) == []


def test_the_club_page_lists_its_tables(club, club_table, member, outsider):
    page = client_for(member).get(url("detail", club)).text

    assert table_url("table", club_table) in page
    assert "Places libres" in page
    assert table_url("table", club_table) not in client_for(outsider).get(url("detail", club)).text


def test_the_club_page_sorts_the_tables(club, owner, member):
    lobby_table = lobby.create_private_table(
        created_by=owner, preset="classique", target=1000, club=club, fill_with_bots=True
    )
    playing = lobby.create_private_table(
        created_by=owner, preset="belote_com", target=501, club=club, fill_with_bots=True
    )
    lobby.start(table=playing, by=owner)

    page = client_for(member).get(url("detail", club)).text

    waiting, rest = page.split("En cours</h3>")
    assert table_url("table", lobby_table) in waiting
    assert table_url("table", playing) in rest.split("Terminées récemment")[0]


# ---------------------------------------------------------------------------------------
# Leaving the club


def test_leaving_the_club_removes_a_lobby_table(club_table, club, member):
    clubs.leave(club=club, by=member)
    client = client_for(member)

    assert client.get(table_url("table", club_table)).status_code == 404
    assert client.post(table_url("take_seat", club_table), {"position": 0}).status_code == 404
    assert not may_see(member, club_table)


def test_a_seated_player_keeps_the_seat_after_leaving(club_table, club, member):
    lobby.take_seat(table=club_table, user=member, position=0)

    clubs.leave(club=club, by=member)

    client = client_for(member)
    assert client.get(table_url("table", club_table)).status_code == 200
    assert seat_of(club_table, member) == 0
    assert client.post(table_url("leave_seat", club_table)).status_code == 302
    # Once up, the table is gone for them.
    assert client.get(table_url("table", club_table)).status_code == 404


def test_a_removed_member_loses_the_table_too(club_table, club, organiser, member):
    clubs.remove_member(club=club, by=organiser, user=member)

    assert client_for(member).get(table_url("table", club_table)).status_code == 404


def test_a_new_member_sees_the_table(club_table, club, organiser, outsider):
    invitation = clubs.invite(club=club, by=organiser, username="olivier")
    clubs.accept_invitation(invitation=invitation, by=outsider)

    assert client_for(outsider).get(table_url("table", club_table)).status_code == 200
