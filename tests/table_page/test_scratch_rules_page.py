import pytest

from tests.table_page.helpers import client_for, text_of, url

pytestmark = pytest.mark.django_db


def test_a_player_reads_the_rules_and_an_outsider_finds_nothing(table, players, outsider):
    page = text_of(client_for(players[0]).get(url("rules", table)))
    assert f"Règles de la table n° {table.pk}" in page
    assert client_for(outsider).get(url("rules", table)).status_code == 404
