"""A player's statistics on their page (/joueurs/<username>/): games played and won,
contracts taken and made by contract, points per hand, belotes, capots and partners,
over all games and per preset, computed from the stored hands and checked against them.

The independent count replays each stored hand through the engine (its deck, dealer and
logged moves) and reads the engine's own score, where the statistics read the rows the
service wrote and the log's kings and queens.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from games import rules as engine
from games.models import Game, Hand, Table
from games.tables import service
from games.tables.selectors import deck_cards, hand_actions, hand_state
from games.tables.stats import player_statistics
from tests.factories import act, make_user, make_users, play_to_the_end, started_table
from tests.ratings.helpers import forfeit_game, forfeit_table, play_out
from tests.rules.builders import stacked_deck
from tests.tables.helpers import client_for
from tests.timing.helpers import after, fresh

pytestmark = pytest.mark.django_db

NORTH, EAST, SOUTH, WEST = range(4)


def text(response) -> str:
    return " ".join(response.content.decode().split())


def page(viewer, player, preset: str | None = None):
    path = reverse("player", args=[player.username])
    response = client_for(viewer).get(path, {"regles": preset} if preset else {})
    assert response.status_code == 200
    return response


def figure(response, name: str) -> str:
    """The figure shown as ``<dd id="stats-NAME">``."""
    html = response.content.decode()
    start = html.index(f'id="stats-{name}">') + len(f'id="stats-{name}">')
    return html[start : html.index("</dd>", start)]


# ---------------------------------------------------------------------------------------
# The independent count: the engine's replay of every stored hand


def expected(player, preset: str | None = None) -> dict:
    """What the statistics must say, from the engine's replay of each played hand."""
    figures = Counter()
    contracts: dict[str, list[int]] = {}
    tables = Table.objects.filter(seats__user=player)
    if preset:
        tables = tables.filter(preset=preset)
    for table in tables:
        position = table.seats.get(user=player).position
        team = position % 2
        for game in Game.objects.filter(table=table, winner__isnull=False):
            figures["games"] += 1
            figures["won"] += game.winner == team
        for hand in Hand.objects.filter(game__table=table).exclude(ended=""):
            state = engine.replay(
                table.rules, hand.dealer, deck_cards(hand.deck), hand_actions(hand)
            )
            result = engine.score(state)
            if result.passed:
                continue
            figures["hands"] += 1
            figures["points"] += result.points[team]
            figures["capots"] += result.capot == team
            figures["belotes"] += state.belotes[position].bit_count()
            if result.taker == position:
                line = contracts.setdefault(engine.MODES[result.contract], [0, 0])
                line[0] += 1
                line[1] += result.made
    figures["contracts"] = contracts
    return figures


def computed(player, preset: str | None = None) -> dict:
    stats = player_statistics(player).of(preset)
    return {
        "games": stats.games,
        "won": stats.won,
        "hands": stats.hands,
        "points": stats.points,
        "capots": stats.capots,
        "belotes": stats.belotes,
        "contracts": {line.mode.code: [line.taken, line.made] for line in stats.contract_lines},
    }


def test_played_games_give_the_figures_of_their_hands():
    """Three presets (belote_com plays clockwise, the others counter-clockwise), a game of
    each to the end, the same four players: every figure of each player, over all games and
    per preset, is the engine's own account of the stored hands."""
    players = make_users(4)
    seating = dict(enumerate(players))
    for seed, preset in enumerate(("classique", "moderne", "belote_com")):
        table = started_table(preset=preset, players=seating, options={"target": 501})
        play_to_the_end(table, seed=seed + 3)

    for player in players:
        for preset in (None, "classique", "moderne", "belote_com"):
            want = expected(player, preset)
            got = computed(player, preset)
            assert got == {key: want.get(key, 0) for key in got}, (player, preset)
    south = computed(players[SOUTH])
    assert south["games"] == 3
    assert south["hands"] == sum(
        computed(players[SOUTH], p)["hands"] for p in ("classique", "moderne", "belote_com")
    )
    # Each hand has a taker: the four players together took every played hand.
    assert sum(player_statistics(p).overall.taken for p in players) == south["hands"]
    assert sum(player_statistics(p).overall.belotes for p in players) > 0
    assert player_statistics(players[SOUTH]).presets == ["classique", "moderne", "belote_com"]


# ---------------------------------------------------------------------------------------
# A hand-built scenario: a belote and a capot, then a failed contract


def bid_for_south(table: Table) -> None:
    """Everyone passes until South takes the turned suit."""
    while hand_state(fresh(table)).turn != SOUTH:
        act(table, "pass")
    act(table, "take")


def finish_hand(table: Table) -> Hand:
    """Legal moves (the first the engine lists) until the table's current hand is over."""
    hand = fresh(table).current_hand
    while not Hand.objects.get(pk=hand.pk).is_over:
        act(table, str(engine.legal_actions(hand_state(fresh(table)))[0]))
    return Hand.objects.get(pk=hand.pk)


def stacked_table(players, hands: dict[str, str], turned: str) -> Table:
    rules = engine.PRESETS["classique"]
    deck = stacked_deck(rules, "N", hands, turned, taker="S")
    return started_table(preset="classique", players=players, deck=deck, first_dealer=NORTH)


def test_a_belote_a_capot_and_a_failed_contract():
    """000: "La belote : le roi et la dame d'atout dans la même main"; the team that takes
    every trick is capot. South holds every heart and takes at heart: a belote and a capot.
    At another table South takes at heart with the sevens and eights: dedans."""
    me, partner, east, west, north2 = make_users(5)
    seating = {NORTH: partner, EAST: east, SOUTH: me, WEST: west}
    capot_table = stacked_table(
        seating,
        {
            "S": "JH 9H AH TH KH QH 8H 7H",
            "N": "AS TS KS QS JS 9S 8S 7S",
            "E": "AD TD KD QD JD 9D 8D 7D",
            "W": "AC TC KC QC JC 9C 8C 7C",
        },
        turned="7H",
    )
    bid_for_south(capot_table)
    won = finish_hand(capot_table)
    assert (won.contract, won.taker, won.made, won.capot) == ("H", SOUTH, True, 0)

    dedans_table = stacked_table(
        {NORTH: north2, EAST: east, SOUTH: me, WEST: west},
        {
            "S": "7H 7C 8C 8D 7D 8H 7S 8S",
            "N": "9S 9D 9C JS JD JC QS QD",
            "E": "JH 9H AH TH KH QH AS TS",
            "W": "KS AD TD KD AC TC KC QC",
        },
        turned="8H",
    )
    bid_for_south(dedans_table)
    lost = finish_hand(dedans_table)
    assert (lost.contract, lost.taker, lost.made) == ("H", SOUTH, False)

    stats = player_statistics(me).overall
    assert (stats.games, stats.won) == (0, 0)  # both games go on: no game counted yet
    assert stats.hands == 2
    assert (stats.taken, stats.made) == (2, 1)
    [hearts] = stats.contract_lines
    assert (hearts.mode.code, hearts.taken, hearts.made, hearts.failed) == ("H", 2, 1, 1)
    assert stats.belotes == 1  # East's king and queen at the second table are East's
    assert stats.capots == 1
    assert stats.points == won.points_ns + lost.points_ns
    assert stats.points == 252 + 20 + lost.points_ns  # capot 252 and the belote
    assert player_statistics(east).overall.belotes == 1

    response = page(partner, me)
    assert figure(response, "belotes") == "1"
    assert figure(response, "capots") == "1"
    assert figure(response, "taken") == "2"
    assert figure(response, "made") == "1"
    assert '<tr data-contract="H">' in response.content.decode()
    assert "Cœur" in text(response)


# ---------------------------------------------------------------------------------------
# Partners, presets, the empty page


def test_partners_played_with_most_are_humans_over_finished_games():
    me, often, once, east, west = make_users(5)
    forfeit_game([often, east, me, west], winner=0)
    forfeit_game([often, east, me, west], winner=1)
    forfeit_game([once, east, me, west], winner=0)
    # A bot partner is no partner; a game in progress does not count yet.
    table = forfeit_table({EAST: east, SOUTH: me, WEST: west}, bots={NORTH: "random"})
    while fresh(table).seats.get(position=table.turn).bot_plays:
        service.play_bot_move(table.pk, table.version, notify_bots=False)
    with after(fresh(table).deadline):
        assert service.expire_deadline(table.pk, table.version).applied
    started_table(players={NORTH: make_user(), EAST: east, SOUTH: me, WEST: west})

    stats = player_statistics(me).overall
    assert stats.games == 4
    assert [(p.user, p.games, p.won) for p in stats.partners] == [(often, 2, 1), (once, 1, 1)]

    shown = text(page(east, me))
    assert f">{often}</a> (2 parties, 1 gagnée)" in shown
    assert "gagnées)" not in shown
    assert f">{once}</a> (1 partie, 1 gagnée)" in shown


def test_the_preset_selector_filters_every_figure():
    me, *others = make_users(4)
    seating = {SOUTH: me, NORTH: others[0], EAST: others[1], WEST: others[2]}
    forfeit_game([others[0], others[1], me, others[2]], winner=0)  # classique
    moderne = started_table(preset="moderne", players=seating, options={"target": 501})
    play_to_the_end(moderne, seed=9)

    everything = page(others[0], me)
    only_moderne = page(others[0], me, "moderne")
    only_classique = page(others[0], me, "classique")
    moderne_stats = player_statistics(me).of("moderne")

    assert figure(everything, "games") == "2"
    assert figure(only_classique, "games") == "1"
    assert figure(only_classique, "hands") == "0"  # the forfeit came before any hand ended
    assert figure(only_moderne, "games") == "1"
    assert figure(only_moderne, "hands") == str(moderne_stats.hands)
    assert figure(everything, "hands") == str(moderne_stats.hands)
    html = only_moderne.content.decode()
    assert f'href="/joueurs/{me.username}/?regles=moderne" aria-current="page"' in html
    assert f'href="/joueurs/{me.username}/?regles=classique"' in html
    assert "Parties en Belote moderne" in text(only_moderne)
    # An unknown preset shows every game, as no preset does.
    assert figure(page(others[0], me, "inconnu"), "games") == "2"


def test_a_player_without_a_game():
    me, viewer = make_users(2)
    response = page(viewer, me)
    shown = text(response)
    assert figure(response, "games") == "0"
    assert figure(response, "points") == "–"
    assert "Aucune partie terminée avec un partenaire humain." in shown
    assert "Toutes les règles" not in shown  # no preset to choose among
    assert "Contrats par atout" not in shown


def statistics_section(response) -> str:
    html = response.content.decode()
    start = html.index('<section class="panel player-stats"')
    return html[start : html.index("</section>", start)]


def test_the_page_shows_no_card_no_private_table_and_no_opponent():
    """The statistics count a private table's games but name neither the table nor the
    opponents; no card code of any hand reaches the page. (The rated games below them
    name a rated game's opponents, as they did before the statistics.)"""
    me, partner, east, west = make_users(4)
    east.display_name = "Adversaire Secret"
    east.save()
    table = started_table(players={NORTH: partner, EAST: east, SOUTH: me, WEST: west})
    play_to_the_end(table, seed=5)
    stranger = make_user()

    response = page(stranger, me)
    html = statistics_section(response)
    assert figure(response, "games") == "1"
    assert str(partner) in html
    assert "Adversaire Secret" not in html and east.username not in html
    assert west.username not in html
    assert f"/tables/{table.pk}/" not in response.content.decode()
    for hand in Hand.objects.filter(game__table=table):
        for i in range(0, 64, 2):
            assert f'data-card="{hand.deck[i : i + 2]}"' not in response.content.decode()


def test_the_statistics_take_a_bounded_number_of_queries(django_assert_max_num_queries):
    """Five queries for the statistics whatever the number of games and hands."""
    me, *others = make_users(4)
    players = [others[0], others[1], me, others[2]]
    forfeit_game(players, winner=0)
    played = started_table(players=dict(enumerate(players)), options={"target": 501})
    play_out(played, seed=2)
    with django_assert_max_num_queries(5):
        few = player_statistics(me)
    for winner in (0, 1, 0, 1):
        forfeit_game(players, winner=winner)
    more = started_table(players=dict(enumerate(players)), options={"target": 501})
    play_out(more, seed=7)
    with django_assert_max_num_queries(5):
        many = player_statistics(me)
    assert many.overall.games == few.overall.games + 5
    assert many.overall.hands > few.overall.hands
    viewer = client_for(others[0])
    path = reverse("player", args=[me.username])
    viewer.get(path)  # the session and the user read once
    with django_assert_max_num_queries(14):
        assert viewer.get(path).status_code == 200


def test_the_statistics_in_english():
    me, often, east, west = make_users(4)
    forfeit_game([often, east, me, west], winner=0)
    reader = make_user(language="en")

    shown = text(page(reader, me))

    assert "Statistics" in shown
    assert "Games played" in shown and "Games won" in shown and "Points per hand" in shown
    assert f">{often}</a> (1 game, 1 won)" in shown
    assert "Parties jouées" not in shown
