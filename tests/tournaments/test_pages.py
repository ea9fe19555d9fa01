"""The tournament pages: the tournament (rules, teams, registration, rounds, standings),
its bracket or grid, and the registration forms, with and without htmx.

Tournaments are public to logged-in users (the club page lists them for anyone); only
members register; the tables behind the matches keep their own 404 rule.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Tournament, TournamentTeam
from games.tournaments.selectors import tournament_standings
from tests.tables.helpers import client_for, htmx_post
from tests.tournaments.helpers import matches_of, play_tournament, register_pairs, started

pytestmark = pytest.mark.django_db


def detail(tournament: Tournament) -> str:
    return reverse("tournaments:detail", args=[tournament.pk])


def bracket(tournament: Tournament) -> str:
    return reverse("tournaments:bracket", args=[tournament.pk])


def register_url(tournament: Tournament) -> str:
    return reverse("tournaments:register", args=[tournament.pk])


def withdraw_url(tournament: Tournament) -> str:
    return reverse("tournaments:withdraw", args=[tournament.pk])


def teams(tournament: Tournament) -> list[tuple]:
    return list(tournament.teams.order_by("pk").values_list("player_one", "player_two", "name"))


# ---------------------------------------------------------------------------------------
# Reading


def test_the_page_shows_the_club_rules_and_teams(swiss, players):
    register_pairs(swiss, players[:4])

    page = client_for(players[0]).get(detail(swiss))

    assert page.status_code == 200
    text = page.text
    assert reverse("clubs:detail", args=[swiss.club.slug]) in text
    assert "Système suisse en 3 rondes" in text
    assert "parties en 500 points" in text
    assert "Inscriptions ouvertes" in text
    assert "joueur01 &amp; joueur02" in text and "joueur03 &amp; joueur04" in text
    assert "Retirer mon équipe" in text  # joueur01 is registered
    assert bracket(swiss) in text


def test_the_page_names_the_rules_the_tournament_changes_in_its_preset(swiss, players):
    """A tournament under way before the presets changed keeps the old value (migration
    0008), and says so under its rules."""
    swiss.options = {"target": 500, "second_round_excludes_turned": False}
    swiss.save(update_fields=["options"])

    text = client_for(players[0]).get(detail(swiss)).text

    assert "parties en 500 points" in text
    assert "Au second tour, la couleur de la retourne ne peut plus être choisie : non" in text


def test_anyone_logged_in_may_look_but_only_members_register(swiss, outsider):
    page = client_for(outsider).get(detail(swiss))

    assert page.status_code == 200
    assert 'name="partner"' not in page.text
    assert "Seuls les membres du club" in page.text


def test_login_is_required(swiss):
    for path in (detail(swiss), bracket(swiss)):
        response = Client().get(path)
        assert response.status_code == 302
        assert reverse("account_login") in response["Location"]


def test_an_unknown_tournament_is_a_404(players):
    client = client_for(players[0])

    assert client.get(reverse("tournaments:detail", args=[999])).status_code == 404
    assert client.get(reverse("tournaments:bracket", args=[999])).status_code == 404
    assert client.post(reverse("tournaments:register", args=[999])).status_code == 404


def test_standings_rounds_and_table_links_of_a_finished_swiss(outsider):
    """Club members see the tournament's tables (club tables, games/tables/selectors.py): the
    page links them; an outsider follows the results only, and the tables are 404s."""
    tournament, organiser = started(Tournament.Format.SWISS, teams=4, rounds=2)
    play_tournament(tournament)
    tables = [reverse("games:table", args=[m.table_id]) for m in matches_of(tournament)]
    player = matches_of(tournament)[0].team_one.player_one

    page = client_for(player).get(detail(tournament)).text
    outside = client_for(outsider).get(detail(tournament)).text

    assert "Classement final" in page
    assert "Buchholz" in page
    assert "Ronde 1" in page and "Ronde 2" in page
    assert all(table in page for table in tables)
    assert "Classement final" in outside
    assert not any(table in outside for table in tables)
    assert client_for(player).get(tables[0]).status_code == 200
    assert client_for(outsider).get(tables[0]).status_code == 404
    winner = tournament_standings(tournament)[0].team
    assert str(winner.player_one) in page


def test_the_grid_of_a_swiss():
    tournament, organiser = started(Tournament.Format.SWISS, teams=4, rounds=2)
    play_tournament(tournament)

    page = client_for(organiser).get(bracket(tournament))

    assert page.status_code == 200
    assert "Grille des rondes" in page.text
    grid = page.context["grid"]
    assert len(grid) == 4 and all(len(row.cells) == 2 for row in grid)
    assert {cell.outcome for row in grid for cell in row.cells} == {"win", "loss"}
    assert page.text.count("grid-cell grid-win") == 4


def test_the_bracket_of_a_knockout():
    tournament, organiser = started(Tournament.Format.KNOCKOUT, teams=4)
    first = client_for(organiser).get(bracket(tournament))
    assert "Demi-finales" in first.text and "Finale" in first.text
    assert "à venir" in first.text  # the final is not paired yet

    play_tournament(tournament)
    page = client_for(organiser).get(bracket(tournament))

    columns = page.context["columns"]
    assert [len(c.slots) for c in columns] == [2, 1]
    final = columns[1].slots[0].match
    assert final.winner_id is not None
    assert "à venir" not in page.text
    detail_page = client_for(organiser).get(detail(tournament)).text
    assert "Gérer le tournoi" in detail_page  # the organiser's link to the admin


def test_the_bracket_before_the_start(knockout, players):
    page = client_for(players[0]).get(bracket(knockout))

    assert "Le tableau sera tiré au début du tournoi" in page.text


# ---------------------------------------------------------------------------------------
# Registering


def test_registering_without_javascript(swiss, players):
    client = client_for(players[0])

    response = client.post(register_url(swiss), {"partner": "joueur02", "name": "Les As"})

    assert response.status_code == 302
    assert response["Location"] == detail(swiss)
    page = client.get(detail(swiss)).text
    assert "Votre équipe est inscrite" in page
    assert teams(swiss) == [(players[0].pk, players[1].pk, "Les As")]


def test_registering_alone_with_htmx(swiss, players):
    response = htmx_post(client_for(players[0]), register_url(swiss), {"partner": ""})

    assert response.status_code == 200
    assert 'id="registration"' in response.text
    assert "<html" not in response.text  # the fragment only
    assert "Inscription sans partenaire" in response.text
    assert teams(swiss) == [(players[0].pk, None, "")]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_registration_says_why_and_changes_nothing(swiss, players, htmx):
    client = client_for(players[0])
    post = htmx_post if htmx else Client.post

    response = post(client, register_url(swiss), {"partner": "personne"})

    assert response.status_code == 422
    assert "Aucun joueur ne s" in response.text
    assert teams(swiss) == []


def test_an_outsider_may_not_register(swiss, outsider):
    response = client_for(outsider).post(register_url(swiss), {"partner": ""})

    assert response.status_code == 403
    assert not TournamentTeam.objects.exists()


def test_a_too_long_team_name_is_refused(swiss, players):
    response = client_for(players[0]).post(register_url(swiss), {"name": "x" * 61})

    assert response.status_code == 422
    assert teams(swiss) == []


def test_withdrawing(swiss, players):
    register_pairs(swiss, players[:2])
    client = client_for(players[1])

    response = htmx_post(client, withdraw_url(swiss))

    assert response.status_code == 200
    assert "retirée" in response.text
    assert teams(swiss) == []
    again = client.post(withdraw_url(swiss))
    assert again.status_code == 409


def test_the_forms_are_post_only_with_a_csrf_token(swiss, players):
    client = client_for(players[0])
    assert client.get(register_url(swiss)).status_code == 405
    assert client.get(withdraw_url(swiss)).status_code == 405

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(players[0])
    assert strict.post(register_url(swiss), {"partner": ""}).status_code == 403
    assert teams(swiss) == []
    page = strict.get(detail(swiss)).text
    assert 'name="csrfmiddlewaretoken"' in page


def test_registration_is_closed_once_started(swiss, players, organiser):
    from games.tournaments import service as tournaments

    register_pairs(swiss, players[:6])
    tournaments.start(tournament=swiss, by=organiser)

    response = client_for(players[6]).post(register_url(swiss), {"partner": "joueur08"})

    assert response.status_code == 409
    assert "closes" in response.text
    assert swiss.teams.count() == 3
