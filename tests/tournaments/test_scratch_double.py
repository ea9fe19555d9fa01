import itertools

import pytest

from games.models import Tournament
from tests.tournaments.helpers import matches_of, started
from tests.tournaments.test_formats import close_every_round, meetings

pytestmark = pytest.mark.django_db


def test_a_double_round_robin_of_four_meets_everyone_twice():
    tournament, organiser = started("double_rr", teams=4)

    close_every_round(tournament, organiser)

    team_ids = list(tournament.teams.values_list("pk", flat=True))
    pairs = sorted(map(sorted, itertools.combinations(team_ids, 2)))
    assert sorted(map(sorted, meetings(tournament))) == sorted(pairs * 2)
    assert tournament.round_set.count() == 6
    assert tournament.formula.describe(None).startswith("Aller-retour")
    assert len(matches_of(tournament)) == 12
    assert Tournament.objects.get(pk=tournament.pk).get_format_display() == "Aller-retour"
