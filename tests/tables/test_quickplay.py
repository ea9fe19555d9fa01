"""Jouer maintenant and Jouer entre amis (games/tables/quickplay.py): one POST from the home
page to a live table, with the choices of the player's latest table, bounded to one
unfinished quick table of each kind per player."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.tables import lobby
from games.tables.models import BotLevel, Pace
from tests.tables.helpers import client_for, seat_holders

pytestmark = pytest.mark.django_db

PLAY_NOW = reverse("games:play_now")
WITH_FRIENDS = reverse("games:play_with_friends")


def quick(client: Client, path: str = PLAY_NOW) -> Table:
    response = client.post(path)
    assert response.status_code == 302
    table = Table.objects.order_by("-pk").first()
    assert response["Location"] == reverse("games:table", args=[table.pk])
    return table


def test_the_first_time_a_classique_game_in_1000_against_confirmed_bots_is_dealt(creator):
    table = quick(client_for(creator))

    assert table.status == Table.Status.PLAYING
    assert table.current_hand_id is not None and table.turn is not None
    assert (table.preset, table.rules.target, table.pace) == ("classique", 1000, Pace.LIVE)
    assert table.created_by == creator
    assert seat_holders(table) == ["heuristic", "heuristic", "claire", "heuristic"]


def test_the_table_page_shows_the_players_hand_at_once(creator):
    client = client_for(creator)
    page = client.get(client.post(PLAY_NOW)["Location"])

    assert page.status_code == 200
    assert 'id="my-hand"' in page.content.decode()
    assert 'data-seat="S"' in page.content.decode()


def test_the_preset_target_and_bot_level_of_the_latest_table_are_used_again(creator):
    lobby.create_private_table(created_by=creator, preset="stekius", target=1501)
    lobby.create_private_table(
        created_by=creator, preset="moderne", target=500, bot_level=BotLevel.RANDOM
    )

    table = quick(client_for(creator))

    assert (table.preset, table.rules.target) == ("moderne", 500)
    assert seat_holders(table) == ["random", "random", "claire", "random"]


def test_a_bot_chosen_seat_by_seat_gives_the_level(creator):
    older = lobby.create_private_table(created_by=creator, preset="annonces", target=501)
    lobby.set_bot(table=older, by=creator, position=0, level=BotLevel.RANDOM)

    table = quick(client_for(creator))

    assert (table.preset, table.rules.target) == ("annonces", 501)
    assert seat_holders(table) == ["random", "random", "claire", "random"]


def test_a_table_created_by_someone_else_does_not_count(creator, alice):
    lobby.create_private_table(created_by=alice, preset="moderne", target=1500)

    table = quick(client_for(creator))

    assert (table.preset, table.rules.target) == ("classique", 1000)


def test_a_second_click_leads_back_to_the_game_going_on(creator):
    client = client_for(creator)
    first = quick(client)

    response = client.post(PLAY_NOW, follow=True)

    assert Table.objects.count() == 1
    assert response.redirect_chain == [(reverse("games:table", args=[first.pk]), 302)]
    assert "Votre partie contre les robots continue." in response.content.decode()


def test_once_the_quick_game_is_over_a_new_one_starts(creator):
    client = client_for(creator)
    first = quick(client)
    Table.objects.filter(pk=first.pk).update(status=Table.Status.FINISHED)

    second = quick(client)

    assert second.pk != first.pk
    assert second.status == Table.Status.PLAYING


def test_a_table_created_by_hand_is_not_taken_for_a_quick_one(creator):
    own = lobby.create_private_table(
        created_by=creator, preset="classique", target=1000, fill_with_bots=True
    )

    table = quick(client_for(creator))

    assert table.pk != own.pk


def test_with_friends_a_live_table_waits_in_the_lobby_with_its_link(creator):
    client = client_for(creator)
    lobby.create_private_table(created_by=creator, preset="moderne", target=1500)

    response = client.post(WITH_FRIENDS, follow=True)

    table = Table.objects.order_by("-pk").first()
    assert response.redirect_chain == [(reverse("games:table", args=[table.pk]), 302)]
    assert table.status == Table.Status.LOBBY
    assert (table.preset, table.rules.target, table.pace) == ("moderne", 1500, Pace.LIVE)
    assert seat_holders(table) == [None, None, "claire", None]
    page = response.content.decode()
    link = "http://testserver" + reverse("games:join", args=[table.pk, table.invite_token])
    assert f'value="{link}"' in page
    assert "Copier le lien" in page
    assert "copiez le lien et envoyez-le à vos amis" in page


def test_with_friends_a_second_click_finds_the_same_table_and_its_bots_fill_it(creator):
    client = client_for(creator)
    first = quick(client, WITH_FRIENDS)
    assert quick(client, WITH_FRIENDS).pk == first.pk

    lobby.start(table=first, by=creator)

    first.refresh_from_db()
    assert seat_holders(first) == ["heuristic", "heuristic", "claire", "heuristic"]
    # The game against bots is another kind of quick table.
    assert quick(client).pk != first.pk


def test_anonymous_visitors_are_sent_to_log_in():
    for path in (PLAY_NOW, WITH_FRIENDS):
        response = Client().post(path)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))
    assert not Table.objects.exists()


def test_a_get_is_refused(creator):
    client = client_for(creator)
    for path in (PLAY_NOW, WITH_FRIENDS):
        assert client.get(path).status_code == 405
    assert not Table.objects.exists()


def test_a_post_without_the_csrf_token_is_refused(creator):
    client = Client(enforce_csrf_checks=True)
    client.force_login(creator)
    for path in (PLAY_NOW, WITH_FRIENDS):
        assert client.post(path).status_code == 403
    assert not Table.objects.exists()
