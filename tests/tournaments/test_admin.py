"""Tournaments in the Django admin, through the test client.

Issue 7: "admin actions by a non-organiser are refused". A superuser runs every
tournament; a staff user runs those of the clubs they manage (owner or organiser) and
sees no other; anyone else gets a 403. An action posted for a tournament the user does
not run changes nothing and says so.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory
from django.urls import reverse

from games.admin import TournamentAdmin
from games.models import Table, Tournament, TournamentMatch
from games.tournaments import service as tournaments
from tests.factories import make_user
from tests.tables.helpers import client_for
from tests.tournaments.helpers import (
    make_club,
    make_organiser,
    make_tournament,
    members,
    register_pairs,
)

pytestmark = pytest.mark.django_db


def url(view: str, *args) -> str:
    return reverse(f"admin:games_tournament_{view}", args=args)


def act(client, action: str, *tournaments, follow: bool = True):
    data = {"action": action, "_selected_action": [t.pk for t in tournaments]}
    return client.post(url("changelist"), data, follow=follow)


def texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def state(tournament: Tournament) -> tuple:
    tournament.refresh_from_db()
    teams = list(tournament.teams.order_by("pk").values_list("player_one", "player_two", "seed"))
    return (tournament.status, teams, tournament.round_set.count(), Table.objects.count())


@pytest.fixture
def superuser(db):
    return make_user("root", is_staff=True, is_superuser=True)


@pytest.fixture
def other_club(db):
    return make_club("Cercle du Port")


@pytest.fixture
def other_organiser(other_club):
    return make_organiser(other_club, "orga_port")


@pytest.fixture
def ready(swiss, players) -> Tournament:
    """The Swiss of the club with four pairs registered."""
    register_pairs(swiss, players)
    return swiss


def tournament_form(club, **fields) -> dict:
    data = {
        "club": club.pk,
        "name": "Coupe d'hiver",
        "description": "",
        "format": "swiss",
        "rounds": "3",
        "preset": "classique",
        "options": '{"target": 501}',
        "pace": "async",
        "move_seconds": "86400",
        "round_hours": "168",
        "teams-TOTAL_FORMS": "0",
        "teams-INITIAL_FORMS": "0",
        "round_set-TOTAL_FORMS": "0",
        "round_set-INITIAL_FORMS": "0",
    }
    data.update(fields)
    return data


# ---------------------------------------------------------------------------------------
# Pages


def test_a_superuser_sees_every_page(superuser, ready, organiser):
    client = client_for(superuser)
    assert client.get(url("changelist")).status_code == 200
    assert client.get(url("add")).status_code == 200
    assert client.get(url("change", ready.pk)).status_code == 200

    act(client, "start", ready)

    page = client.get(url("change", ready.pk)).text
    match = TournamentMatch.objects.filter(round__tournament=ready).first()
    assert reverse("admin:games_table_change", args=[match.table_id]) in page
    assert "joueur01" in page
    assert reverse("tournaments:detail", args=[ready.pk]) in page


def test_an_organiser_sees_the_tournaments_of_their_club_only(
    organiser, swiss, other_club, other_organiser
):
    theirs = make_tournament(other_club, name="Tournoi du Port")
    client = client_for(organiser)

    listing = client.get(url("changelist"))

    assert listing.status_code == 200
    assert swiss.name in listing.text
    assert theirs.name not in listing.text
    assert client.get(url("change", swiss.pk)).status_code == 200
    assert client.get(url("change", theirs.pk)).status_code == 403
    assert client.post(url("delete", theirs.pk), {"post": "yes"}).status_code == 403
    assert Tournament.objects.filter(pk=theirs.pk).exists()


def test_an_organiser_creates_a_tournament_for_their_club(organiser, club, other_club):
    client = client_for(organiser)
    add_page = client.get(url("add")).text
    assert club.name in add_page
    assert other_club.name not in add_page  # the club field offers their clubs only

    response = client.post(url("add"), tournament_form(club))

    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Coupe d'hiver")
    assert (tournament.club, tournament.created_by) == (club, organiser)
    assert tournament.options == {"target": 501}


def test_an_organiser_cannot_create_one_for_another_club(organiser, other_club):
    response = client_for(organiser).post(url("add"), tournament_form(other_club))

    assert response.status_code == 200  # the form again, with its error
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("fields", "error_field"),
    [
        ({"options": '{"target": 42}'}, "options"),
        ({"options": '{"nope": 1}'}, "options"),
        ({"pace": "live", "move_seconds": "86400"}, "move_seconds"),
        ({"rounds": ""}, "rounds"),
        ({"round_hours": "0"}, "round_hours"),
        ({"round_hours": "2000000000"}, "round_hours"),
    ],
)
def test_the_form_refuses_settings_the_service_would_refuse(organiser, club, fields, error_field):
    response = client_for(organiser).post(url("add"), tournament_form(club, **fields))

    assert response.status_code == 200
    assert error_field in response.context["adminform"].form.errors
    assert not Tournament.objects.exists()


def test_a_round_of_two_billion_hours_is_refused_by_the_form(organiser, ready):
    """Saved, it made "Démarrer le tournoi" fail with a server error (a deadline past
    the end of the calendar): the form refuses it, and the tournament keeps its value."""
    form = inline_form(ready, [])
    form.update(round_hours="2000000000", options='{"target": 500}')

    response = client_for(organiser).post(url("change", ready.pk), form)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["round_hours"]
    assert errors == ["Une ronde dure d'une heure à 90 jours (2160 heures)."]
    ready.refresh_from_db()
    assert ready.round_hours == 48


def test_the_rounds_of_a_knockout_are_not_asked(organiser, club):
    client_for(organiser).post(url("add"), tournament_form(club, format="knockout", rounds="5"))

    assert Tournament.objects.get().rounds is None


def test_a_staff_user_who_runs_no_club_gets_nothing(ready, club):
    nobody = make_user("staffeur", is_staff=True)
    client = client_for(nobody)
    before = state(ready)

    assert client.get(url("changelist")).status_code == 403
    assert client.get(url("change", ready.pk)).status_code == 403
    assert act(client, "start", ready, follow=False).status_code == 403
    assert url("changelist") not in client.get(reverse("admin:index")).text
    assert state(ready) == before


def test_a_plain_member_is_not_let_in(ready, players):
    client = client_for(players[0])

    response = client.get(url("changelist"))

    assert response.status_code == 302  # to the admin's login page
    assert act(client, "start", ready, follow=False).status_code == 302
    assert ready.round_set.count() == 0


# ---------------------------------------------------------------------------------------
# Actions


def test_the_organiser_starts_the_tournament(organiser, ready):
    response = act(client_for(organiser), "start", ready)

    assert response.status_code == 200
    ready.refresh_from_db()
    assert ready.status == Tournament.Status.RUNNING
    assert TournamentMatch.objects.filter(round__tournament=ready).count() == 2
    assert any("la ronde 1 est appariée" in text for text in texts(response))


def test_the_start_says_who_was_removed(organiser, swiss, players):
    register_pairs(swiss, players[:6])
    tournaments.register(tournament=swiss, user=players[6])

    response = act(client_for(organiser), "start", swiss)

    assert any("Retirés faute de partenaire : joueur07" in text for text in texts(response))


def test_a_refused_start_is_said_and_changes_nothing(organiser, swiss, players):
    register_pairs(swiss, players[:2])
    before = state(swiss)

    response = act(client_for(organiser), "start", swiss)

    assert any("au moins deux équipes complètes" in text for text in texts(response))
    assert state(swiss) == before


def test_the_organiser_pairs_the_players_alone(organiser, swiss, players):
    for user in players[:5]:
        tournaments.register(tournament=swiss, user=user)

    response = act(client_for(organiser), "pair_singles", swiss)

    assert swiss.teams.filter(player_two__isnull=False).count() == 2
    assert any(
        "2 équipes formées" in t and "joueur05 reste sans partenaire" in t for t in texts(response)
    )


def test_the_organiser_pairs_at_random(organiser, swiss, players):
    for user in players[:4]:
        tournaments.register(tournament=swiss, user=user)

    response = act(client_for(organiser), "pair_singles_at_random", swiss)

    assert swiss.teams.count() == 2
    assert all(team.complete for team in swiss.teams.all())
    assert any("tirage n°" in text for text in texts(response))


def test_the_organiser_closes_the_round(organiser, ready):
    client = client_for(organiser)
    act(client, "start", ready)

    response = act(client, "close_round", ready)

    assert any("la ronde 1 est close" in text for text in texts(response))
    assert ready.round_set.count() == 2
    first = TournamentMatch.objects.filter(round__tournament=ready, round__number=1)
    assert all(m.result == TournamentMatch.Result.FORFEIT for m in first)


def test_an_action_on_another_clubs_tournament_changes_nothing(ready, other_organiser):
    """The tournament is not among those the user may choose: the action refuses it,
    says so, and nothing changes."""
    port = other_organiser.memberships.get().club
    mine = make_tournament(port, Tournament.Format.KNOCKOUT, name="Le mien")
    register_pairs(mine, members(port, 4, prefix="port"))
    before = state(ready)

    response = act(client_for(other_organiser), "start", ready, mine)

    assert response.status_code == 200
    assert any("Rien n'a été fait" in text for text in texts(response))
    assert state(ready) == before
    mine.refresh_from_db()
    assert mine.status == Tournament.Status.REGISTRATION


def test_the_action_itself_refuses_a_tournament_the_user_does_not_run(
    ready, swiss, other_organiser, club
):
    """Even handed a queryset that holds it (the changelist never does), the action
    refuses everything when one tournament is not the user's to run."""
    mine = make_tournament(other_organiser.memberships.get().club, name="Le mien")
    request = RequestFactory().post(url("changelist"))
    request.user = other_organiser
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    before = state(ready)
    model_admin = TournamentAdmin(Tournament, admin.site)

    model_admin.start(request, Tournament.objects.filter(pk__in=[ready.pk, mine.pk]))

    messages = [str(m) for m in request._messages]
    assert any("Vous n'organisez pas ces tournois" in m and ready.name in m for m in messages)
    assert state(ready) == before
    mine.refresh_from_db()
    assert mine.status == Tournament.Status.REGISTRATION


# ---------------------------------------------------------------------------------------
# Registrations in the admin


def inline_form(tournament: Tournament, rows: list[tuple[str, str, str]]) -> dict:
    data = tournament_form(
        tournament.club,
        name=tournament.name,
        format=tournament.format,
        rounds=str(tournament.rounds or ""),
        options='{"target": 500}',
        move_seconds=str(tournament.move_seconds),
        round_hours=str(tournament.round_hours),
    )
    data.update({"teams-TOTAL_FORMS": str(len(rows)), "teams-INITIAL_FORMS": "0"})
    for i, (one, two, seed) in enumerate(rows):
        data.update(
            {
                f"teams-{i}-player_one": one,
                f"teams-{i}-player_two": two,
                f"teams-{i}-name": "",
                f"teams-{i}-seed": seed,
            }
        )
    return data


def test_the_organiser_registers_teams_by_username(organiser, swiss, players):
    response = client_for(organiser).post(
        url("change", swiss.pk), inline_form(swiss, [("joueur01", "joueur02", "1")])
    )

    assert response.status_code == 302
    team = swiss.teams.get()
    assert (team.player_one.username, team.player_two.username, team.seed) == (
        "joueur01",
        "joueur02",
        1,
    )


@pytest.mark.parametrize(
    ("rows", "error"),
    [
        ([("olivier", "", "")], "pas membre du club"),
        ([("joueur01", "joueur02", ""), ("joueur02", "", "")], "est déjà dans une équipe"),
        ([("personne", "", "")], "Aucun joueur actif"),
    ],
)
def test_the_registrations_in_the_admin_are_checked(
    organiser, swiss, players, outsider, rows, error
):
    response = client_for(organiser).post(url("change", swiss.pk), inline_form(swiss, rows))

    assert response.status_code == 200
    assert error in response.text
    assert not swiss.teams.exists()


def test_once_started_the_settings_and_teams_are_read_only(organiser, ready):
    client = client_for(organiser)
    act(client, "start", ready)

    page = client.get(url("change", ready.pk))

    form = page.context["adminform"].form
    assert "preset" not in form.fields and "format" not in form.fields
    assert "name" in form.fields
    assert 'name="teams-0-player_one"' not in page.text
    # The rounds, read-only, link the tables on the site (no admin rights on tables).
    match = TournamentMatch.objects.filter(round__tournament=ready).first()
    assert reverse("games:table", args=[match.table_id]) in page.text
    assert reverse("admin:games_table_change", args=[match.table_id]) not in page.text
