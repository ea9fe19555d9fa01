"""The board of a started table, in every phase, as each player sees it.

"view(state, seat) is the only way state reaches a template": a seated player sees their
own cards and what is public (the turned card, the cards on the table, the finished
tricks), never another hand; the legal cards are lit and clickable, the others dimmed and
disabled; seats sit around the square with the viewer at the bottom.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from games import rules as engine
from games.live.consumers import NOT_ALLOWED, NOT_LOGGED_IN, TOO_MANY_SOCKETS
from games.models import Table
from games.rules.cards import cards_of
from games.tables import presence
from games.tables.words import card_name
from tests.factories import act, play_to_the_end, play_tricks
from tests.rules.tricks import deck_for_tricks, hearts_deal
from tests.table_page.helpers import (
    board_of,
    client_for,
    finish_hand,
    play_first_legal,
    seed_where,
    state_of,
    take_at_once,
    text_of,
    url,
)

pytestmark = pytest.mark.django_db

N, E, S, W = range(4)


def public_cards(state: engine.HandState) -> set[str]:
    """Cards anybody at the table may see: the turned card while bidding, the cards played."""
    cards = {engine.code_of(c) for trick in state.tricks for c in trick.cards}
    cards |= {engine.code_of(c) for c in state.trick}
    if state.phase == engine.BIDDING and state.turned >= 0:
        cards.add(engine.code_of(state.turned))
    return cards


def own_cards(state: engine.HandState, seat: int) -> set[str]:
    return {engine.code_of(c) for c in cards_of(state.hands[seat])}


def assert_shows_only_own_cards(response, state: engine.HandState, seat: int | None) -> None:
    page = text_of(response)
    shown = set(board_of(response).cards)
    mine = own_cards(state, seat) if seat is not None else set()
    assert shown <= mine | public_cards(state)
    assert mine <= shown
    for other in range(4):
        if other == seat:
            continue
        for code in own_cards(state, other) - public_cards(state):
            assert f'data-card="{code}"' not in page
            assert f"play {code}" not in page
            assert engine.name_fr(engine.card_of(code)) not in page


def get_board(user, table):
    response = client_for(user).get(url("board", table))
    assert response.status_code == 200
    return response


@pytest.mark.parametrize("seat", [N, E, S, W])
def test_in_the_bidding_each_player_sees_their_five_cards_and_the_turned_one(table, players, seat):
    state = state_of(table)

    response = get_board(players[seat], table)

    assert_shows_only_own_cards(response, state, seat)
    assert len(own_cards(state, seat)) == 5
    page = text_of(response)
    assert f'data-card="{engine.code_of(state.turned)}"' in page
    assert "Premier tour" in page


def test_the_player_to_speak_gets_the_bidding_buttons_the_others_none(table, players):
    state = state_of(table)
    speaker = players[state.turn]
    other = players[(state.turn + 1) % 4]

    buttons = board_of(get_board(speaker, table)).action_buttons
    assert set(buttons) == {"pass", "take"}
    assert all(buttons.values())
    assert board_of(get_board(other, table)).action_buttons == {}


def test_the_second_round_offers_every_other_suit(table, players):
    """000: "chacun peut choisir une autre couleur comme atout ou passer"."""
    for _ in range(4):
        play_first_legal(table)  # pass comes first among the legal bids
    state = state_of(table)
    assert state.bid_round == 2
    turned = engine.code_of(state.turned)[1]

    response = get_board(players[state.turn], table)

    assert set(board_of(response).action_buttons) == {"pass"} | {
        f"take {suit}" for suit in "SHDC" if suit != turned
    }
    page = text_of(response)
    assert "Second tour" in page
    assert "Prendre à" in page and "cœur" in page


@pytest.mark.parametrize("seat", [N, E, S, W])
def test_in_the_play_each_player_sees_only_their_own_eight_cards(table, players, seat):
    take_at_once(table)
    play_first_legal(table, 2)
    state = state_of(table)
    assert state.phase == engine.PLAYING

    response = get_board(players[seat], table)

    assert_shows_only_own_cards(response, state, seat)


def test_legal_cards_are_enabled_and_the_others_disabled(table, players):
    take_at_once(table)
    # Play until the player to act may not play every card they hold.
    for _ in range(40):
        state = state_of(table)
        if state.trick and engine.legal_cards(state) != state.hands[state.turn]:
            break
        play_first_legal(table)
    else:
        pytest.fail("no constrained play found")

    board = board_of(get_board(players[state.turn], table))

    legal = {engine.code_of(c) for c in cards_of(engine.legal_cards(state))}
    hand = own_cards(state, state.turn)
    assert set(board.card_buttons) == hand
    assert {code for code, enabled in board.card_buttons.items() if enabled} == legal
    assert {code for code, enabled in board.card_buttons.items() if not enabled} == hand - legal
    for code in hand:
        assert board.labels[code] == engine.name_fr(engine.card_of(code))


def test_cards_are_not_buttons_when_it_is_not_your_turn(table, players):
    take_at_once(table)
    state = state_of(table)
    waiting = players[(state.turn + 1) % 4]

    board = board_of(get_board(waiting, table))

    assert board.card_buttons == {}
    assert len(board.cards) == 8


def test_the_trick_in_progress_shows_who_played_what(table, players):
    take_at_once(table)
    play_first_legal(table, 2)
    state = state_of(table)
    played = [engine.code_of(c) for c in state.trick]

    page = text_of(get_board(players[S], table))

    for index, code in enumerate(played):
        seat = engine.SEATS[(state.leader + index * state.rules.step) % 4]
        assert f'data-seat="{seat}"><span class="visually-hidden">' in page
        assert f'data-card="{code}"' in page
    assert "Le pli en cours" in page


def test_a_finished_trick_stays_in_the_centre_and_in_the_last_trick(table, players):
    take_at_once(table)
    play_first_legal(table, 4)
    state = state_of(table)
    assert len(state.tricks) == 1 and not state.trick

    page = text_of(get_board(players[N], table))

    assert 'id="last-trick"' in page
    assert "Voir le dernier pli" in page
    winner = ["Nord", "Est", "Sud", "Ouest"][state.tricks[0].winner]
    assert f"Pli pour {winner}" in page
    for card in state.tricks[0].cards:
        assert f'data-card="{engine.code_of(card)}"' in page


def test_the_contract_and_the_points_of_the_hand_are_shown(table, players):
    take_at_once(table)
    play_first_legal(table, 4)
    state = state_of(table)
    taker = ["Nord", "Est", "Sud", "Ouest"][state.taker]

    page = text_of(get_board(players[N], table))

    assert f"pris par {taker}" in page
    assert f'data-contract="{engine.MODES[state.contract]}"' in page
    assert f'<td data-team="NS">{state.won[0]}</td>' in page
    assert f'<td data-team="EW">{state.won[1]}</td>' in page


@pytest.mark.parametrize(
    ("viewer", "places"),
    [
        (S, {"S": "bottom", "W": "left", "N": "top", "E": "right"}),
        (N, {"N": "bottom", "E": "left", "S": "top", "W": "right"}),
        (E, {"E": "bottom", "S": "left", "W": "top", "N": "right"}),
    ],
)
def test_the_viewer_sits_at_the_bottom(table, players, viewer, places):
    seats = board_of(get_board(players[viewer], table)).seats

    assert {letter: attrs["data-place"] for letter, attrs in seats.items()} == places


def test_seats_show_dealer_turn_card_counts_and_presence(table, players):
    async_to_sync(presence.arrive)(table.pk, players[E].pk)
    state = state_of(table)
    turn = engine.SEATS[state.turn]

    response = get_board(players[S], table)
    seats = board_of(response).seats
    page = text_of(response)

    assert "is-turn" in seats[turn]["class"]
    assert 'data-dealer="true"' in page.split('id="seat-N"')[1].split("</section>")[0]
    assert 'data-count="5"' in page.split('id="seat-E"')[1].split("</section>")[0]
    assert 'data-connected="true"' in page.split('id="seat-E"')[1].split("</section>")[0]
    assert 'data-connected="false"' in page.split('id="seat-W"')[1].split("</section>")[0]
    async_to_sync(presence.leave)(table.pk, players[E].pk)
    page = text_of(get_board(players[S], table))
    assert 'data-connected="false"' in page.split('id="seat-E"')[1].split("</section>")[0]


def test_the_board_root_carries_what_the_live_refresh_needs(table, players):
    page = text_of(get_board(players[S], table))

    assert page.lstrip().startswith('<section id="board"')
    assert "<html" not in page
    assert f'data-version="{table.version}"' in page
    assert f'data-fragment-url="{url("board", table)}"' in page
    assert f'data-ws-url="/ws/tables/{table.pk}/"' in page


def test_the_full_page_includes_the_board_and_the_live_script(table, players):
    page = text_of(client_for(players[S]).get(url("table", table)))

    assert 'id="board"' in page
    assert '<script src="/static/js/site.js" defer></script>' in page
    script = page.split('<script src="/static/js/table.js" defer')[1].split("</script>")[0]
    # The socket's constants come from the server, not copies in the script.
    assert f'data-heartbeat-ms="{presence.HEARTBEAT * 1000}"' in script
    assert f'data-closed-session="{NOT_LOGGED_IN}"' in script
    assert f'data-closed-forbidden="{NOT_ALLOWED}"' in script
    assert f'data-closed-tabs="{TOO_MANY_SOCKETS}"' in script
    assert 'id="seats"' not in page  # the lobby's panel is gone once started
    assert "<script>" not in page  # CSP: no inline script


def test_the_end_of_a_hand_shows_its_summary_until_dismissed(table, players):
    take_at_once(table)
    finish_hand(table)
    table.refresh_from_db()
    assert table.current_hand.number == 2
    first = table.current_hand.game.hands.get(number=1)
    client = client_for(players[S])

    page = text_of(client.get(url("board", table)))
    assert 'id="hand-summary"' in page
    assert "Donne 1 terminée" in page
    assert "Donne suivante" in page
    assert f"?vu={first.pk}" in page
    assert '<tr data-hand="1">' in page  # the score sheet has its row
    assert url("hand", table, 1, 1) in page

    # Without JavaScript the link reloads the page; with htmx it fetches the board.
    page = text_of(client.get(url("table", table) + f"?vu={first.pk}"))
    assert 'id="hand-summary"' not in page
    assert 'id="hand-summary"' not in text_of(client.get(url("board", table)))
    # Another player still sees it.
    assert 'id="hand-summary"' in text_of(client_for(players[N]).get(url("board", table)))


def test_the_end_of_the_game_shows_the_winner_and_the_rematch(start, players):
    table = play_to_the_end(start("belote_com"), seed=2)
    game = table.games.get()
    assert table.status == Table.Status.FINISHED

    response = get_board(players[S], table)
    page = text_of(response)

    team = ["Nord-Sud", "Est-Ouest"][game.winner]
    assert f"{team} gagne la partie." in page
    assert ("Vous avez gagné !" if game.winner == S % 2 else "Vous avez perdu.") in page
    assert board_of(response).action_buttons == {"rematch": True}
    assert page.count("<tr data-hand=") == game.hands.exclude(ended="").count()
    assert board_of(response).card_buttons == {}


def test_announces_and_belote_are_shown_once_made(start, players):
    # stekius: announces are automatic, made as the play begins.
    rules = engine.PRESETS["stekius"]
    seed = seed_where(
        "stekius",
        lambda s: s.phase == engine.PLAYING and s.declared and any(s.belotes),
        actions=["take"],
    )
    table = start("stekius", seed=seed)
    take_at_once(table)
    state = state_of(table)
    assert rules.announces == "auto"

    page = text_of(get_board(players[S], table))

    assert 'id="announces"' in page
    for seat in range(4):
        for announce in state.announces[seat] if state.declared >> seat & 1 else ():
            assert f'data-announce="{announce.kind}"' in page
    # Belote is called when the king or queen is played, not before.
    assert 'data-belote="belote"' not in page


def test_81_each_in_annonces_shows_the_taker_dedans(start, players):
    """001: "l'équipe prenante n'a pas réalisé son contrat, ce qui signifie qu'elle n'a
    pas comptabilisé 82 points": W deals, N takes and makes 81 against 81."""
    tricks = hearts_deal(81)
    table = start(
        "annonces",
        dealer=W,
        deck=deck_for_tricks(engine.PRESETS["annonces"], "W", tricks, "JH"),
    )
    act(table, "pass", "pass", "take")
    play_tricks(table, tricks)

    page = text_of(get_board(players[S], table))

    assert "Nord est dedans." in page
    assert "Litige" not in page and "en suspens" not in page
    assert '<span class="mark mark-dedans">' in page
    table.refresh_from_db()
    assert table.current_hand.game.scores == (0, 162)


def test_the_page_names_the_rules_a_table_changes_in_its_preset(start, players):
    """A table's own options are shown under its preset: a creator's choice (automatic
    announces) and a rule kept from an older preset (migration 0008), in each language."""
    table = start(
        options={"announces": "auto", "second_round_excludes_turned": False, "target": 501}
    )
    french = text_of(client_for(players[S]).get(url("table", table)))
    assert "partie en 501 points" in french
    assert "<li>Annonces automatiques</li>" in french
    assert (
        "<li>Au second tour, la couleur de la retourne ne peut plus être choisie : non</li>"
        in french
    )
    players[N].language = "en"
    players[N].save(update_fields=["language"])
    english = text_of(client_for(players[N]).get(url("table", table)))
    assert "<li>Automatic announces</li>" in english
    assert "<li>In the second round, the turned suit can no longer be named: no</li>" in english

    plain = start(seed=1)  # the preset as it is: nothing listed
    assert 'class="rule-changes"' not in text_of(client_for(players[S]).get(url("table", plain)))


def test_card_names_are_the_engines_french_names():
    for card in range(32):
        assert card_name(engine.code_of(card)) == engine.name_fr(card)


def test_the_board_speaks_english_to_an_english_player(table, players):
    state = state_of(table)
    speaker = players[state.turn]
    speaker.language = "en"
    speaker.save(update_fields=["language"])

    response = get_board(speaker, table)
    page = text_of(response)

    assert "Your turn" in page
    assert ">Take<" in page and ">Pass<" in page
    assert "First round" in page
    names = set(board_of(response).labels.values())
    turned = engine.code_of(state.turned)
    rank = {"7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack"}
    rank |= {"Q": "queen", "K": "king", "A": "ace"}
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[turned[1]]
    assert f"{rank[turned[0]]} of {suit}" in names


def test_the_live_region_is_outside_the_board_which_says_what_to_announce(table, players):
    """Screen readers hear the last move and whose turn it is from #table-live, which the
    board's updates do not replace (static/js/table.js fills it from #board-news)."""
    take_at_once(table)
    play_first_legal(table, 1)
    state = state_of(table)
    played = engine.code_of(state.trick[-1])
    page = text_of(client_for(players[S]).get(url("table", table)))

    region = page.split('id="table-live"')[1].split("</p>")[0]
    assert 'role="status"' in region and 'aria-live="polite"' in region
    assert page.index('id="table-live"') < page.index('id="board"')
    board = text_of(get_board(players[S], table))
    assert 'id="table-live"' not in board
    assert "aria-live" not in board.split('id="turn-line"')[1].split(">")[0]
    news = " ".join(board.split('id="board-news" hidden>')[1].split("</div>")[0].split())
    seat_name = {N: "Nord", E: "Est", S: "Sud", W: "Ouest"}[table.actions.last().seat]
    assert news.startswith(f"{seat_name} joue {card_name(played)}.")
    turn = "À vous de jouer." if state.turn == S else "Au tour d"
    assert turn in news
    # After a move the focus lands on the turn line when no button is left to press.
    assert 'id="turn-line" tabindex="-1"' in board
