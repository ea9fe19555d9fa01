"""games.tournaments before the start: registering, withdrawing, pairing the players alone,
seeding, and the start itself. A refused request raises ServiceError (a French message,
a 4xx status) and leaves the database as it was."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction

from games.models import Table, Tournament, TournamentMatch, TournamentTeam
from games.tables.service import ServiceError
from games.tournaments import service as tournaments
from tests.factories import make_user
from tests.tournaments.helpers import (
    join,
    make_club,
    make_organiser,
    make_tournament,
    register_pairs,
)

pytestmark = pytest.mark.django_db


def teams_of(tournament: Tournament) -> list[tuple[str, str | None]]:
    return [
        (team.player_one.username, team.player_two.username if team.player_two else None)
        for team in tournament.teams.select_related("player_one", "player_two").order_by("pk")
    ]


def refused(call, code: str, status: int) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    assert (caught.value.code, caught.value.status) == (code, status)
    return caught.value


# ---------------------------------------------------------------------------------------
# Registering


def test_a_member_registers_with_a_partner(swiss, players):
    a, b = players[:2]

    team = tournaments.register(
        tournament=swiss, user=a, partner_username=b.username, name="  Les As  "
    )

    assert (team.player_one, team.player_two, team.name) == (a, b, "Les As")
    assert team.complete
    assert team.seed is None


def test_the_partner_may_be_typed_in_another_case(swiss, players):
    a, b = players[:2]

    team = tournaments.register(tournament=swiss, user=a, partner_username=b.username.upper())

    assert team.player_two == b


def test_a_member_registers_alone(swiss, players):
    team = tournaments.register(tournament=swiss, user=players[0])

    assert team.player_two is None
    assert not team.complete


@pytest.mark.parametrize(
    ("partner", "code", "status"),
    [
        ("personne", "unknown_user", 422),
        ("joueur01", "self_partner", 422),
        ("olivier", "partner_not_member", 422),
    ],
)
def test_a_bad_partner_is_refused(swiss, players, outsider, partner, code, status):
    error = refused(
        lambda: tournaments.register(tournament=swiss, user=players[0], partner_username=partner),
        code,
        status,
    )

    assert error.message
    assert not swiss.teams.exists()


def test_nobody_registers_twice(swiss, players):
    a, b, c = players[:3]
    tournaments.register(tournament=swiss, user=a, partner_username=b.username)

    refused(lambda: tournaments.register(tournament=swiss, user=a), "already_registered", 409)
    refused(lambda: tournaments.register(tournament=swiss, user=b), "already_registered", 409)
    error = refused(
        lambda: tournaments.register(tournament=swiss, user=c, partner_username=b.username),
        "partner_registered",
        409,
    )
    assert "joueur02" in error.message
    assert swiss.teams.count() == 1


def test_only_members_register(swiss, outsider):
    error = refused(
        lambda: tournaments.register(tournament=swiss, user=outsider), "not_member", 403
    )

    assert "Club de la Place" in error.message
    assert not swiss.teams.exists()


def test_a_member_of_another_club_may_not_register(swiss, db):
    other = make_club("Autre Club")
    stranger = make_user("sandra")
    join(other, stranger)

    refused(lambda: tournaments.register(tournament=swiss, user=stranger), "not_member", 403)


def test_a_team_name_has_a_length_limit(swiss, players):
    refused(
        lambda: tournaments.register(tournament=swiss, user=players[0], name="x" * 61),
        "bad_team_name",
        422,
    )


def test_no_registration_once_started(swiss, players, organiser):
    register_pairs(swiss, players[:6])
    tournaments.start(tournament=swiss, by=organiser)

    refused(
        lambda: tournaments.register(
            tournament=swiss, user=players[6], partner_username=players[7].username
        ),
        "registration_closed",
        409,
    )
    refused(
        lambda: tournaments.withdraw(tournament=swiss, user=players[0]), "registration_closed", 409
    )


# ---------------------------------------------------------------------------------------
# Withdrawing


def test_either_player_withdraws_the_team(swiss, players):
    a, b, c, d = players[:4]
    tournaments.register(tournament=swiss, user=a, partner_username=b.username)
    tournaments.register(tournament=swiss, user=c, partner_username=d.username)

    tournaments.withdraw(tournament=swiss, user=b)

    assert teams_of(swiss) == [("joueur03", "joueur04")]
    # Free again: they may register anew.
    tournaments.register(tournament=swiss, user=b)


def test_withdrawing_needs_a_registration(swiss, players):
    refused(lambda: tournaments.withdraw(tournament=swiss, user=players[0]), "not_registered", 409)


# ---------------------------------------------------------------------------------------
# Players alone


def test_players_alone_are_paired_in_registration_order(swiss, players, organiser):
    for user in players[:5]:
        tournaments.register(tournament=swiss, user=user)

    report = tournaments.pair_singles(tournament=swiss, by=organiser)

    assert (report.pairs, report.left_alone) == (2, "joueur05")
    assert teams_of(swiss) == [
        ("joueur01", "joueur02"),
        ("joueur03", "joueur04"),
        ("joueur05", None),
    ]


def test_players_alone_are_paired_at_random_by_a_seed(swiss, players, organiser, club):
    for user in players[:6]:
        tournaments.register(tournament=swiss, user=user)
    other = make_tournament(club, Tournament.Format.SWISS, name="Bis", rounds=2)
    for user in players[:6]:
        tournaments.register(tournament=other, user=user)

    tournaments.pair_singles(tournament=swiss, by=organiser, seed=7)
    tournaments.pair_singles(tournament=other, by=organiser, seed=7)

    first, second = teams_of(swiss), teams_of(other)
    assert [tuple(sorted(t)) for t in first] == [tuple(sorted(t)) for t in second]
    assert all(two is not None for _, two in first)
    assert sorted(u for team in first for u in team) == [f"joueur0{i}" for i in range(1, 7)]


def test_complete_teams_are_left_alone_when_pairing(swiss, players, organiser):
    tournaments.register(tournament=swiss, user=players[0], partner_username=players[1].username)
    tournaments.register(tournament=swiss, user=players[2])
    tournaments.register(tournament=swiss, user=players[3])

    tournaments.pair_singles(tournament=swiss, by=organiser)

    assert teams_of(swiss) == [("joueur01", "joueur02"), ("joueur03", "joueur04")]


def test_pairing_needs_two_players_alone(swiss, players, organiser):
    tournaments.register(tournament=swiss, user=players[0])

    refused(lambda: tournaments.pair_singles(tournament=swiss, by=organiser), "no_singles", 409)


def test_only_an_organiser_pairs(swiss, players, club):
    for user in players[:2]:
        tournaments.register(tournament=swiss, user=user)
    member = players[2]
    other_organiser = make_organiser(make_club("Autre Club"), "orga2")

    for user in (member, other_organiser):
        refused(
            lambda u=user: tournaments.pair_singles(tournament=swiss, by=u), "not_organiser", 403
        )
    assert teams_of(swiss) == [("joueur01", None), ("joueur02", None)]


# ---------------------------------------------------------------------------------------
# Seeds and the start


def test_the_organiser_sets_the_seeds(swiss, players, organiser):
    teams = register_pairs(swiss, players[:6])

    tournaments.set_seeds(
        tournament=swiss, by=organiser, order=[teams[2].pk, teams[0].pk, teams[1].pk]
    )

    assert dict(swiss.teams.values_list("pk", "seed")) == {
        teams[2].pk: 1,
        teams[0].pk: 2,
        teams[1].pk: 3,
    }
    refused(
        lambda: tournaments.set_seeds(tournament=swiss, by=organiser, order=[teams[0].pk]),
        "bad_seeds",
        422,
    )


def test_start_seeds_the_unseeded_teams_after_the_seeded_ones(swiss, players, organiser):
    teams = register_pairs(swiss, players[:6])
    TournamentTeam.objects.filter(pk=teams[2].pk).update(seed=1)

    tournaments.start(tournament=swiss, by=organiser)

    assert dict(swiss.teams.values_list("pk", "seed")) == {
        teams[2].pk: 1,
        teams[0].pk: 2,
        teams[1].pk: 3,
    }


def test_start_pairs_round_one_and_opens_its_tables(swiss, players, organiser):
    register_pairs(swiss, players)

    report = tournaments.start(tournament=swiss, by=organiser)

    swiss.refresh_from_db()
    assert report.removed == []
    assert swiss.status == Tournament.Status.RUNNING
    assert swiss.started_at is not None
    round_one = swiss.round_set.get()
    assert round_one.number == 1
    assert round_one.deadline == swiss.started_at + datetime.timedelta(hours=48)
    matches = list(round_one.matches.select_related("table"))
    assert [m.position for m in matches] == [1, 2]
    assert all(m.table.status == Table.Status.PLAYING for m in matches)


def test_start_removes_the_players_still_alone(swiss, players, organiser):
    register_pairs(swiss, players[:6])
    tournaments.register(tournament=swiss, user=players[6])

    report = tournaments.start(tournament=swiss, by=organiser)

    assert report.removed == ["joueur07"]
    assert swiss.teams.count() == 3
    assert not swiss.teams.filter(player_two__isnull=True).exists()


def test_start_needs_two_complete_teams(swiss, players, organiser):
    register_pairs(swiss, players[:2])
    tournaments.register(tournament=swiss, user=players[2])

    refused(lambda: tournaments.start(tournament=swiss, by=organiser), "too_few_teams", 409)

    swiss.refresh_from_db()
    assert swiss.status == Tournament.Status.REGISTRATION
    assert swiss.teams.count() == 2  # the player alone was not removed either
    assert not Table.objects.exists()


@pytest.mark.parametrize("rounds", [None, 0, 4])
def test_a_swiss_needs_a_possible_number_of_rounds(club, players, organiser, rounds):
    tournament = make_tournament(club, Tournament.Format.SWISS, rounds=rounds)
    register_pairs(tournament, players)  # four teams: one to three rounds

    refused(lambda: tournaments.start(tournament=tournament, by=organiser), "bad_rounds", 422)
    assert not Table.objects.exists()


def test_start_refuses_options_the_engine_refuses(club, players, organiser):
    tournament = make_tournament(club, Tournament.Format.KNOCKOUT, options={"target": 42})
    register_pairs(tournament, players[:4])

    refused(lambda: tournaments.start(tournament=tournament, by=organiser), "invalid_options", 422)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION


@pytest.mark.parametrize("hours", [0, tournaments.ROUND_HOURS[1] + 1, 2_000_000_000])
def test_the_database_refuses_a_round_length_out_of_bounds(club, hours):
    """From an hour to 90 days; past that the round's deadline is out of any calendar
    (2 000 000 000 hours overflowed the date arithmetic). The admin form says so first
    (tests/tournaments/test_admin.py); the database holds whatever goes around it."""
    with pytest.raises(IntegrityError), transaction.atomic():
        make_tournament(club, Tournament.Format.KNOCKOUT, round_hours=hours)


def test_a_round_may_last_90_days(club, players, organiser):
    tournament = make_tournament(club, Tournament.Format.KNOCKOUT, round_hours=90 * 24)
    register_pairs(tournament, players[:4])

    tournaments.start(tournament=tournament, by=organiser)

    tournament.refresh_from_db()
    first = tournament.round_set.get()
    assert first.deadline - tournament.started_at == datetime.timedelta(days=90)


def test_only_an_organiser_starts(swiss, players):
    register_pairs(swiss, players[:4])

    refused(lambda: tournaments.start(tournament=swiss, by=players[0]), "not_organiser", 403)
    assert swiss.round_set.count() == 0


def test_a_tournament_starts_once(swiss, players, organiser):
    register_pairs(swiss, players)
    tournaments.start(tournament=swiss, by=organiser)

    refused(lambda: tournaments.start(tournament=swiss, by=organiser), "already_started", 409)
    assert TournamentMatch.objects.count() == 2


def test_a_superuser_organises_any_club(swiss, players):
    admin = make_user("root", is_superuser=True, is_staff=True)
    register_pairs(swiss, players)

    tournaments.start(tournament=swiss, by=admin)

    swiss.refresh_from_db()
    assert swiss.status == Tournament.Status.RUNNING
