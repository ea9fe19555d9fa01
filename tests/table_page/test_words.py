"""The words of the table page: whose turn it is, said without nested brackets and with
French elision ("Au tour d'Ouest (robot confirmé)"), and the suits spelt "cœur"."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import rules as engine
from games.models import BotLevel
from games.rules.hand import next_dealer
from games.tables import service
from games.tables.words import card_name
from tests.factories import fixed_deck
from tests.table_page.helpers import client_for, text_of, url

pytestmark = pytest.mark.django_db

N, E, S, W = range(4)


@pytest.fixture
def bot_to_play(players, creator):
    """Three players and an experienced bot in the West seat, whose turn it is."""
    table = service.create_table(
        created_by=creator,
        preset="classique",
        players={N: players[N], E: players[E], S: players[S]},
        bots={W: BotLevel.HEURISTIC},
    )
    dealer = next(d for d in range(4) if _first_to_speak(d) == W)
    service.start_table(table_id=table.pk, first_dealer=dealer, deck=fixed_deck(0))
    table.refresh_from_db()
    assert table.turn == W
    return table


def _first_to_speak(dealer: int) -> int:
    return next_dealer(engine.PRESETS["classique"], dealer)  # the seat after the dealer


def turn_line(page: str) -> str:
    return " ".join(page.split('id="turn-line"')[1].split("</p>")[0].split(">", 1)[1].split())


def test_the_turn_of_a_bot_reads_without_nested_brackets(bot_to_play, players):
    page = text_of(client_for(players[S]).get(url("table", bot_to_play)))

    assert turn_line(page).startswith("Au tour d'Ouest (robot confirmé)")
    assert "((" not in page and "))" not in page
    assert "Robot confirmé" in page  # the West seat's box


def test_the_turn_of_a_bot_in_english(bot_to_play, players):
    players[S].language = "en"
    players[S].save(update_fields=["language"])

    page = text_of(client_for(players[S]).get(url("table", bot_to_play)))

    assert turn_line(page).startswith("West to play (experienced bot)")


def test_hearts_are_spelt_with_the_ligature(table, players):
    with translation.override("fr"):
        assert card_name("JH") == "valet de cœur"
    page = text_of(client_for(players[S]).get(url("table", table)))
    assert "coeur" not in page
