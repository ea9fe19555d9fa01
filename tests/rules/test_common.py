"""What every preset shares: card values and orders, the 162 points, the dix de der,
announce detection and values, belote calls, the sans-atout and tout-atout tables of 002,
and the refusals every table gives the same way (IllegalAction codes)."""

import pytest

from games.rules import (
    MODES,
    PRESETS,
    SEATS,
    Action,
    IllegalAction,
    apply,
    code_of,
    deal,
    legal_actions,
    record_hand,
    score,
    view,
)
from games.rules.actions import ANNOUNCE, PASS, PLAY, TAKE
from games.rules.announces import find_announces
from games.rules.cards import POINTS, card_of, mask_of
from games.rules.hand import BeloteCall
from tests.rules.builders import cards, dealt, playing, seat
from tests.rules.tricks import (
    CAPOT_DEAL,
    CARRES_DEAL,
    IN_ORDER,
    OVERCUT,
    TRUMP_LED,
    VOID_IN_SPADES,
    cards_set,
    first_trick,
    game_for,
    hearts_deal,
    play,
    playable,
    played,
    tierces_deal,
)

ALL_PRESETS = list(PRESETS)


def value(contract: str, code: str) -> int:
    return POINTS[MODES.index(contract)][card_of(code)]


def duel(contract: str, led: str, answer: str) -> str:
    """N leads ``led`` and W answers with ``answer``, its only card of that suit; S and E,
    void in it and without trumps, discard. Returns the seat that wins the trick."""
    led_card, answer_card = card_of(led), card_of(answer)
    suit, mode = led_card >> 3, MODES.index(contract)
    same = [c for c in range(32) if c >> 3 == suit and c != answer_card]
    others = [c for c in range(32) if c >> 3 != suit]
    others.sort(key=lambda c: c >> 3 != mode)  # trumps first: N gets one, W the others
    codes = {
        "N": same + others[:1],
        "W": [answer_card] + others[1:8],
        "S": others[8:16],
        "E": others[16:24],
    }
    hands = {s: " ".join(code_of(c) for c in h) for s, h in codes.items()}
    state = playing("classique", hands, contract, "N", dealer="E")
    state = play(state, f"{led} {answer}")
    for _ in range(2):
        state = apply(state, legal_actions(state)[0])
    return SEATS[state.tricks[0].winner]


# ---------------------------------------------------------------------------------------
# Card values and orders


@pytest.mark.parametrize(
    ("code", "points"),
    [("JH", 20), ("9H", 14), ("AH", 11), ("TH", 10), ("KH", 4), ("QH", 3), ("8H", 0), ("7H", 0)],
)
def test_trump_values(code, points):
    """000: "À l'atout : valet 20, neuf 14, as 11, dix 10, roi 4, dame 3, huit, sept 0." """
    assert value("H", code) == points


@pytest.mark.parametrize(
    ("code", "points"),
    [("AS", 11), ("TS", 10), ("KS", 4), ("QS", 3), ("JS", 2), ("9S", 0), ("8S", 0), ("7S", 0)],
)
def test_plain_values(code, points):
    """000: "Hors atout : as 11, dix 10, roi 4, dame 3, valet 2, neuf, huit, sept 0." """
    assert value("H", code) == points


def test_a_trick_is_worth_the_sum_of_its_cards():
    """000: "Avec le dernier pli (dix de der, +10), une donne vaut 162 points." The tricks
    of a whole hand at hearts add up card by card, the last one with 10 more."""
    state = played("classique", "H", "N", hearts_deal(81))
    assert [t.points for t in state.tricks] == [38, 24, 19, 11, 15, 15, 15, 25]


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize(
    "tricks", [hearts_deal(88), hearts_deal(62, "EW"), CARRES_DEAL, tierces_deal(), CAPOT_DEAL]
)
def test_every_hand_sums_to_162(preset, tricks):
    """004: "La valeur totale des 32 cartes du jeu additionnées vaut toujours 152 points.
    Si on ajoute le "10 de der", cela fait 162 points." """
    state = played(preset, "H", "N", tricks)
    assert sum(state.won) == sum(t.points for t in state.tricks) == 162


def test_dix_de_der_goes_to_the_last_trick():
    """004: "Le dernier pli vaut 10 points supplémentaires (« le 10 de der »)." """
    state = played("belote_com", "H", "N", hearts_deal(81))
    last = state.tricks[-1]
    assert [SEATS[last.winner], last.points] == ["W", 15 + 10]


TRUMP_ORDER = ["7H", "8H", "QH", "KH", "TH", "AH", "9H", "JH"]
PLAIN_ORDER = ["7S", "8S", "9S", "JS", "QS", "KS", "TS", "AS"]


@pytest.mark.parametrize(
    ("weaker", "stronger"), list(zip(TRUMP_ORDER, TRUMP_ORDER[1:], strict=False))
)
def test_trump_order(weaker, stronger):
    """002, the trump table "Carte, de la plus forte à la plus faible": "| Valet | 20 |",
    "| 9 | 14 |", "| As | 11 |", "| 10 | 10 |", "| Roi | 4 |", "| Dame | 3 |", "| 8 | 0 |",
    "| 7 | 0 |"."""
    assert duel("H", weaker, stronger) == "W"
    assert duel("H", stronger, weaker) == "N"


@pytest.mark.parametrize(
    ("weaker", "stronger"), list(zip(PLAIN_ORDER, PLAIN_ORDER[1:], strict=False))
)
def test_plain_order(weaker, stronger):
    """002, hors atout and in sans atout: "Dans chaque couleur, l'ordre est As, 10, Roi,
    Dame, Valet, 9, 8, 7"."""
    assert duel("H", weaker, stronger) == "W"
    assert duel("H", stronger, weaker) == "N"
    assert duel("SA", weaker, stronger) == "W"


SPADES_IN_TRUMP_ORDER = [code[0] + "S" for code in TRUMP_ORDER]


@pytest.mark.parametrize(
    ("weaker", "stronger"),
    list(zip(SPADES_IN_TRUMP_ORDER, SPADES_IN_TRUMP_ORDER[1:], strict=False)),
)
def test_tout_atout_order_in_every_suit(weaker, stronger):
    """002: "En tout atout, chaque couleur se joue comme un atout : Valet, 9, As, 10, Roi,
    Dame, 8, 7"."""
    assert duel("TA", weaker, stronger) == "W"
    assert duel("TA", stronger, weaker) == "N"


def test_a_trump_beats_any_other_card():
    """004: "Les cartes atout sont toujours plus fortes que les autres." """
    state = first_trick("classique", VOID_IN_SPADES, "7S KS 7H QS")
    assert SEATS[state.tricks[0].winner] == "S"


# ---------------------------------------------------------------------------------------
# Sans atout and tout atout (002)


@pytest.mark.parametrize(
    ("rank", "sa", "ta"),
    [
        ("A", 19, 6),
        ("T", 10, 5),
        ("K", 4, 3),
        ("Q", 3, 2),
        ("J", 2, 13),
        ("9", 0, 9),
        ("8", 0, 0),
        ("7", 0, 0),
    ],
)
def test_sans_atout_and_tout_atout_tables(rank, sa, ta):
    """002, the sans atout table: "| As | 19 |", "| 10 | 10 |", "| Roi | 4 |", "| Dame | 3 |",
    "| Valet | 2 |", 9, 8 and 7 nothing; the tout atout table: "| Valet | 13 |", "| 9 | 9 |",
    "| As | 6 |", "| 10 | 5 |", "| Roi | 3 |", "| Dame | 2 |", 8 and 7 nothing."""
    for suit in "SHDC":
        assert value("SA", rank + suit) == sa
        assert value("TA", rank + suit) == ta


@pytest.mark.parametrize("contract", ["SA", "TA"])
def test_sans_atout_and_tout_atout_count_38_a_suit(contract):
    """002: "Les deux barèmes sont ramenés à 162 points avec le dix de der"."""
    assert sum(value(contract, r + "D") for r in "789TJQKA") == 38
    assert sum(value(contract, r + s) for r in "789TJQKA" for s in "SHDC") + 10 == 162


def test_in_sans_atout_no_suit_cuts():
    """002: "En sans atout, aucune couleur ne coupe." S, void in spades, may play any card,
    and its jack of hearts wins nothing: W's king of spades takes the trick (N, W, S, E)."""
    state = first_trick("moderne", VOID_IN_SPADES, "7S KS", contract="SA")
    assert playable(state) == cards_set("JH 7H AC KC QC JC TC 9C")
    state = play(state, "JH QS")
    trick = state.tricks[0]
    assert [SEATS[trick.winner], trick.points] == ["W", 0 + 4 + 2 + 3]


# ---------------------------------------------------------------------------------------
# Announces


def announces_in(text: str) -> list[tuple[str, int]]:
    return sorted((a.kind, a.points) for a in find_announces(mask_of(cards(text))))


@pytest.mark.parametrize(
    ("hand", "found"),
    [
        ("7S 8S 9S", [("tierce", 20)]),
        ("9H TH JH", [("tierce", 20)]),
        ("JD QD KD", [("tierce", 20)]),
        ("JD QD KD AD", [("cinquante", 50)]),
        ("8C 9C TC JC QC", [("cent", 100)]),
        ("7S 8S 9S TS JS QS KS AS", [("cent", 100)]),
        ("KH AH 7H", []),
        ("7S 8S 9H", []),
        ("9S TS QS KS", []),
    ],
)
def test_sequences(hand, found):
    """000: "tierce 20, cinquante 50, cent 100 (suites dans l'ordre 7, 8, 9, 10, valet,
    dame, roi, as)"; 003: "Cent, cinq et plus : 100"; a sequence is in one suit."""
    assert announces_in(hand) == found


@pytest.mark.parametrize(
    ("rank", "found"),
    [
        ("J", [("carre", 200)]),
        ("9", [("carre", 150)]),
        ("A", [("carre", 100)]),
        ("T", [("carre", 100)]),
        ("K", [("carre", 100)]),
        ("Q", [("carre", 100)]),
        ("8", []),
        ("7", []),
    ],
)
def test_carres(rank, found):
    """000: "carré de valets 200, de neuf 150, d'as, de dix, de rois ou de dames 100"; four
    8s or four 7s are no announce."""
    assert announces_in(" ".join(rank + s for s in "SHDC")) == found


# ---------------------------------------------------------------------------------------
# Belote and rebelote


def test_belote_then_rebelote_are_called_with_the_two_cards():
    """000: "Belote-rebelote : roi et dame d'atout dans la même main valent 20 points,
    annoncés en jouant la première puis la seconde carte." S plays QH then KH."""
    state = played("classique", "H", "N", hearts_deal(81, "NS"))
    assert state.belote_calls == (
        BeloteCall(seat("S"), 1, "belote"),
        BeloteCall(seat("S"), 1, "rebelote"),
    )
    assert score(state).belote == (20, 0)


def test_no_belote_when_king_and_queen_are_in_two_hands():
    """000: "roi et dame d'atout dans la même main valent 20 points": S holds KH, E QH."""
    state = played("classique", "H", "N", hearts_deal(81))
    assert state.belote_calls == ()
    assert score(state).belote == (0, 0)


@pytest.mark.parametrize("preset", ["annonces", "moderne", "stekius"])
def test_equal_totals_over_the_target_play_on_where_the_document_is_silent(preset):
    """classique, Choice: "equal totals over the target are not settled by the document;
    the game goes on until one is ahead." Kept where 001, 002 and 003 say nothing."""
    hand = played(preset, "H", "N", hearts_deal(88))
    target = hand.rules.target
    game = record_hand(game_for(hand, (target - 74, target - 60)), hand)
    assert [game.scores, game.winner] == [(target + 14, target + 14), -1]


# ---------------------------------------------------------------------------------------
# Refusals: the same codes at every table


def test_not_your_turn():
    """000: "Premier tour : en commençant à droite du donneur, chacun peut prendre ...":
    N dealt, so W speaks first and N may not."""
    state = deal(PRESETS["classique"], seat("N"), IN_ORDER)
    with pytest.raises(IllegalAction) as refused:
        apply(state, PASS, seat=seat("N"))
    assert refused.value.code == "not_your_turn"
    assert apply(state, PASS, seat=seat("W")).turn == seat("S")


def test_card_not_in_hand():
    """A player plays only the cards it holds (000: "tout le monde a 8 cartes")."""
    state = first_trick("classique", TRUMP_LED)
    with pytest.raises(IllegalAction) as refused:
        play(state, "7H")
    assert refused.value.code == "card_not_in_hand"


def test_must_follow_suit():
    """000: "Il faut fournir la couleur demandée." """
    state = first_trick("classique", TRUMP_LED, "AH")
    with pytest.raises(IllegalAction) as refused:
        play(state, "8S")
    assert refused.value.code == "must_follow_suit"


def test_must_trump():
    """000: "Sans la couleur, il faut couper"."""
    state = first_trick("classique", VOID_IN_SPADES, "7S KS")
    with pytest.raises(IllegalAction) as refused:
        play(state, "AC")
    assert refused.value.code == "must_trump"


@pytest.mark.parametrize(
    ("position", "plays", "card"), [(TRUMP_LED, "AH 7H", "8H"), (OVERCUT, "7S 8H", "7H")]
)
def test_must_overtrump(position, plays, card):
    """000: "À l'atout, il faut monter si on le peut" and "surcouper si un adversaire a déjà
    coupé"."""
    state = first_trick("classique", position, plays)
    with pytest.raises(IllegalAction) as refused:
        play(state, card)
    assert refused.value.code == "must_overtrump"


def test_must_undertrump():
    """000: "si on ne peut pas surcouper, on sous-coupe." """
    state = first_trick("classique", OVERCUT, "7S JH")
    with pytest.raises(IllegalAction) as refused:
        play(state, "AC")
    assert refused.value.code == "must_undertrump"


@pytest.mark.parametrize("action", [PLAY[card_of("JD")], ANNOUNCE])
def test_no_card_nor_announce_during_the_bidding(action):
    """000: "Après la prise, le preneur reçoit la retournée et 2 cartes, les autres 3 cartes
    : tout le monde a 8 cartes." No card is played, nor announce made, before the take."""
    state = deal(PRESETS["classique"], seat("N"), IN_ORDER)
    with pytest.raises(IllegalAction) as refused:
        apply(state, action)
    assert refused.value.code == "wrong_phase"


@pytest.mark.parametrize("action", [PASS, TAKE])
def test_no_bid_once_the_play_began(action):
    """000: "Le joueur à droite du donneur entame": once taken, the hand is played."""
    state = first_trick("classique", TRUMP_LED)
    with pytest.raises(IllegalAction) as refused:
        apply(state, action)
    assert refused.value.code == "wrong_phase"


def test_hand_over():
    """004: "Une manche consiste en 8 tours": nothing after the eighth trick."""
    state = played("classique", "H", "N", hearts_deal(81))
    assert legal_actions(state) == []
    with pytest.raises(IllegalAction) as refused:
        apply(state, PLAY[card_of("JH")])
    assert refused.value.code == "hand_over"


@pytest.mark.parametrize("text", ["jouer", "play 1H", "take X", "play", "take H S", "", 42])
def test_unknown_action(text):
    """actions.py: "Actions a player can take, and the typed error for an illegal one";
    anything but ``pass``, ``take [mode]``, ``exchange``, ``redeal``, ``announce`` and
    ``play XX`` is refused."""
    with pytest.raises(IllegalAction) as refused:
        Action.parse(text)
    assert refused.value.code == "unknown_action"


@pytest.mark.parametrize(
    ("text", "action"),
    [("pass", PASS), ("take", TAKE), ("JH", PLAY[card_of("JH")]), ("play 7S", PLAY[0])],
)
def test_actions_parse(text, action):
    """actions.py: "Actions are small immutable values with a text form used by logs, the
    referee and forms"."""
    assert Action.parse(text) == action
    assert Action.parse(str(action)) == action


def test_a_refused_action_changes_nothing():
    """000: "Il faut fournir la couleur demandée": the refused card leaves the state as it
    was, and the hand goes on from it."""
    state = first_trick("classique", TRUMP_LED, "AH")
    before = tuple(state)
    with pytest.raises(IllegalAction):
        play(state, "8S")
    assert tuple(state) == before
    assert state.trick == (card_of("AH"),)
    assert playable(state) == {"TH", "7H"}


# ---------------------------------------------------------------------------------------
# What a seat sees


def test_a_seat_sees_its_own_cards_only():
    """STYLE: "`view(state, seat)` is the only way state reaches a template": other hands
    show as card counts, and only the player to act gets legal actions."""
    hands = {
        "N": "7S 8S 9S TS JS",
        "E": "QS KS AS 7H 8H",
        "S": "9H TH JH QH KH",
        "W": "AH 7D 8D 9D TD",
    }
    state = dealt(PRESETS["classique"], "N", hands, "JD")
    mine = view(state, seat("S"))
    assert mine["hand"] == ["9H", "TH", "JH", "QH", "KH"]
    assert mine["hand_sizes"] == {"N": 5, "E": 5, "S": 5, "W": 5}
    assert mine["turned"] == "JD"
    assert mine["legal"] == []
    assert view(state, seat("W"))["legal"] == ["pass", "take"]
    assert view(state, None)["hand"] == []
    assert "QS" not in str(mine)
