"""French first, English available: the catalogue covers what a player can be shown.

The engine (games/rules) speaks French and imports nothing from Django; it marks its
refusal messages with its own ``gettext_noop``, which ``makemessages`` extracts, and the
service translates them (``games.tables.service.refusal``). An English player must never read a
French refusal.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

import games.rules
from games.tables import service
from games.tables.service import ServiceError
from tests.factories import seated_user, started_table

ENGINE = Path(games.rules.__file__).parent
MARKED = re.compile(r'gettext_noop\(\s*"((?:[^"\\]|\\.)*)"\s*\)')

N, E, S, W = range(4)


def engine_messages() -> list[str]:
    return sorted({m for f in ENGINE.glob("*.py") for m in MARKED.findall(f.read_text())})


def test_the_engine_marks_its_refusals_for_translation():
    messages = engine_messages()

    assert "Vous devez monter à l'atout." in messages
    assert "Action inconnue : « {text} »." in messages
    assert len(messages) >= 25


@pytest.mark.parametrize("message", engine_messages())
def test_every_engine_refusal_has_an_english_translation(message):
    with translation.override("en"):
        english = gettext(message)

    assert english != message
    # A message with a placeholder keeps it, or the service could not fill it in.
    assert re.findall(r"\{\w+\}", english) == re.findall(r"\{\w+\}", message)


@pytest.mark.django_db
def test_an_english_player_is_refused_in_english():
    # The deal is by north (0): east speaks first, counter-clockwise... whoever it is,
    # the player after them is not to act.
    table = started_table(first_dealer=N)
    not_to_act = seated_user(table, (table.turn + 2) % 4)

    with translation.override("en"), pytest.raises(ServiceError) as refused:
        service.submit(
            table_id=table.pk, actor=not_to_act, action="pass", expected_version=table.version
        )

    assert refused.value.code == "not_your_turn"
    assert refused.value.message == gettext_en("Ce n'est pas à vous de jouer.")
    assert "vous" not in refused.value.message


@pytest.mark.django_db
def test_a_refusal_with_the_players_words_is_translated_around_them():
    table = started_table(first_dealer=N)
    player = seated_user(table, table.turn)
    player.language = "en"
    player.save()
    client = Client()
    client.force_login(player)

    response = client.post(
        reverse("games:play", args=[table.pk]),
        {"action": "dance {x}", "version": table.version},
        headers={"hx-request": "true"},
    )

    assert response.status_code == 422
    assert "Unknown action" in response.text
    assert "dance {x}" in response.text
    assert "Action inconnue" not in response.text


def gettext_en(message: str) -> str:
    with translation.override("en"):
        return gettext(message)
