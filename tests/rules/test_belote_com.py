"""The belote_com preset (004): clockwise from the dealer's left, 5 cards each, the second
round without the turned suit, 82 points from tricks (92 with a belote), the litige lost
by the taker, game in 501 with the last hand deciding equal totals."""

import pytest

from games.rules import (
    PRESET_TARGETS,
    PRESETS,
    SEATS,
    IllegalAction,
    apply,
    apply_all,
    code_of,
    deal,
    legal_actions,
    record_hand,
    score,
)
from games.rules.actions import ANNOUNCE, PASS
from tests.rules.builders import seat
from tests.rules.tricks import (
    CAPOT_DEAL,
    CARRES_DEAL,
    IN_ORDER,
    OVERCUT,
    PARTNER_CUTS,
    TRUMP_LED,
    VOID_IN_SPADES,
    cards_set,
    first_trick,
    game_at,
    game_for,
    hands,
    hearts_deal,
    play,
    playable,
    played,
)

RULES = PRESETS["belote_com"]


def dealt_by_north():
    """IN_ORDER dealt by N in packets of five: E 7S-JS, S QS KS AS 7H 8H, W 9H-KH,
    N AH 7D 8D 9D TD; JD turned."""
    return deal(RULES, seat("N"), IN_ORDER)


def bids(state):
    return [str(a) for a in legal_actions(state)]


# ---------------------------------------------------------------------------------------
# Direction, deal, bidding


def test_deal_clockwise_from_the_dealers_left_five_each():
    """004: "Les cartes sont distribuées dans le sens des aiguilles d'une montre en
    commençant par le joueur situé à la gauche du donneur." and "Chaque joueur reçoit 5
    cartes puis 1 carte est retournée et placée en milieu de table, c'est « la retourne »." """
    state = dealt_by_north()
    assert hands(state) == {
        "N": "AH 7D 8D 9D TD",
        "E": "7S 8S 9S TS JS",
        "S": "QS KS AS 7H 8H",
        "W": "9H TH JH QH KH",
    }
    assert code_of(state.turned) == "JD"


def test_the_rest_is_dealt_for_eight_cards_each():
    """004: "On distribue le reste des cartes pour que chacun ait 8 cartes en main." E,
    the taker, has the turned card and two more."""
    state = apply_all(dealt_by_north(), ["take"])
    assert hands(state) == {
        "N": "AH 7D 8D 9D TD QC KC AC",
        "E": "7S 8S 9S TS JS JD QD KD",
        "S": "QS KS AS 7H 8H AD 7C 8C",
        "W": "9H TH JH QH KH 9C TC JC",
    }


def test_the_player_on_the_dealers_left_speaks_first():
    """004: "Le joueur placé à la gauche du donneur est le premier à parler." and "Si un
    joueur passe, le joueur à sa gauche doit décider s'il prend ou non." """
    state = dealt_by_north()
    for name in "ESWN":
        state = apply(state, PASS, seat=seat(name))
    assert [state.bid_round, SEATS[state.turn]] == [2, "E"]


def test_the_player_on_the_dealers_left_leads():
    """004: "Le joueur placé à la gauche du donneur joue en premier." """
    state = apply_all(dealt_by_north(), ["pass", "take"])
    assert [SEATS[state.taker], SEATS[state.turn]] == ["S", "E"]
    assert SEATS[play(state, "7S").turn] == "S"


def test_second_round_excludes_the_turned_suit():
    """004: "un nouveau tour commence durant lequel chaque joueur peut décider de la couleur
    d'atout, sauf la couleur qui était en premier lieu proposée." """
    state = apply_all(dealt_by_north(), ["pass"] * 4)
    assert bids(state) == ["pass", "take S", "take H", "take C"]
    with pytest.raises(IllegalAction) as refused:
        apply_all(state, ["take D"])
    assert refused.value.code == "wrong_suit"
    assert apply_all(state, ["take C"]).contract == 3


def test_all_pass_the_player_on_the_left_deals_again():
    """004: "si tous les joueurs passent lors du second tour d'enchères, la donne est
    terminée. Le joueur placé à la gauche du donneur devient le nouveau donneur et les cartes
    sont redistribuées." """
    state = apply_all(dealt_by_north(), ["pass"] * 8)
    assert state.ended == "all_passed"
    assert SEATS[record_hand(game_at(RULES, (0, 0), dealer="N"), state).dealer] == "E"


def test_the_next_hand_is_dealt_by_the_player_on_the_left():
    """004: "Pour la manche suivante, le joueur placé à sa gauche devient le donneur et ainsi
    de suite pour les manches suivantes." """
    hand = played(RULES, "H", "N", hearts_deal(88))
    assert SEATS[hand.dealer] == "W"
    assert SEATS[record_hand(game_for(hand), hand).dealer] == "N"


def test_no_announces_but_the_belote():
    """Preset: "Belote.com (004): clockwise, 5 cards dealt, no announces, game in 501." N's
    four jacks score nothing."""
    with pytest.raises(IllegalAction) as refused:
        apply(first_trick(RULES, TRUMP_LED), ANNOUNCE)
    assert refused.value.code == "announce_not_allowed"
    assert score(played(RULES, "H", "N", CARRES_DEAL)).announces == (0, 0)


# ---------------------------------------------------------------------------------------
# Play


def test_void_must_trump():
    """004: "si suivre à la couleur demandée n'est pas possible, le joueur doit couper à
    l'aide d'un atout (s'il le peut)"."""
    assert playable(first_trick(RULES, VOID_IN_SPADES, "7S KS")) == {"JH", "7H"}


def test_partner_master_any_card():
    """004: "si le partenaire d'un joueur est maître (sa carte posée est la plus haute), et
    si le joueur n'a pas la couleur pour suivre, alors il peut jouer n'importe quelle carte
    (il est autorisé à ne pas jouer atout)"."""
    state = first_trick(RULES, VOID_IN_SPADES, "AS 8S")
    assert playable(state) == cards_set("JH 7H AC KC QC JC TC 9C")


@pytest.mark.parametrize(("position", "plays"), [(TRUMP_LED, "AH 7H"), (OVERCUT, "7S 8H")])
def test_a_trump_goes_over_a_trump_already_played(position, plays):
    """004: "les joueurs jouant atout doivent obligatoirement monter sur un autre atout déjà
    joué s'ils le peuvent." """
    assert playable(first_trick(RULES, position, plays)) == {"9H"}


def test_a_trump_goes_over_the_partners_trump_even_when_free_to_discard():
    """004: "les joueurs jouant atout doivent obligatoirement monter sur un autre atout déjà
    joué s'ils le peuvent." Preset: "trumps must go higher than a trump already played,
    partner's included". W cut with 9H and is master: E may discard (7D, 7C) or trump
    over it with JH, not play a smaller trump."""
    assert playable(first_trick(RULES, PARTNER_CUTS, "7S 9H 7H")) == {"JH", "7D", "7C"}


def test_unable_to_go_higher_still_trumps():
    """004: "le joueur doit couper à l'aide d'un atout (s'il le peut)": unable to go over
    JH, S still plays a trump (undertrumping is kept from classique)."""
    assert playable(first_trick(RULES, OVERCUT, "7S JH")) == {"9H", "7H"}


# ---------------------------------------------------------------------------------------
# Scoring


@pytest.mark.parametrize(
    ("tricks", "made", "points"),
    [
        (hearts_deal(82), True, (82, 80)),
        (hearts_deal(88), True, (88, 74)),
        (hearts_deal(76, "NS"), False, (20, 162)),  # 76 + belote 20 is not 82 from tricks
    ],
)
def test_contract_82_points_from_tricks(tricks, made, points):
    """004: "L'équipe qui "prend" doit atteindre 82 points minimum pour gagner une manche
    (hors belote-rebelote)." and "il est indispensable de réaliser minimum 82 points de plis
    pour remporter une manche de belote." """
    result = score(played(RULES, "H", "N", tricks))
    assert [result.made, result.points] == [made, points]


@pytest.mark.parametrize(
    ("tricks", "made", "points"),
    [
        (hearts_deal(88, "EW"), False, (0, 162 + 20)),  # the defence's belote: 88 < 92
        (hearts_deal(82, "NS"), True, (82 + 20, 80)),  # the taker's own: 82 + 20 >= 92
    ],
)
def test_contract_92_once_a_belote_is_announced(tricks, made, points):
    """004: "si une Belote/Rebelote est annoncée, alors l'objectif du contrat n'est plus de
    82 points mais de 92 points." Preset: "read as the taker's tricks plus its own belote
    must reach 92 whenever a belote is announced, on top of the 82 from tricks"."""
    result = score(played(RULES, "H", "N", tricks))
    assert [result.made, result.points] == [made, points]


def test_litige_the_taker_fails():
    """004: "lors d'un litige (81 points pour chaque équipe), l'équipe prenante ne
    réalisant que 81 points est considérée comme perdante puisque le contrat n'est pas
    rempli." Nothing is held for the next hand."""
    hand = played(RULES, "H", "N", hearts_deal(81))
    result = score(hand)
    assert [result.made, result.winner, result.points, result.held] == [False, 1, (0, 162), 0]
    assert record_hand(game_for(hand), hand).held == 0


@pytest.mark.parametrize(
    ("tricks", "points"),
    [
        (hearts_deal(76), (0, 162)),
        (hearts_deal(76, "NS"), (20, 162)),
        (hearts_deal(76, "EW"), (0, 162 + 20)),
    ],
)
def test_dedans_taker_0_defence_162_each_with_its_belote(tricks, points):
    """004: "l'équipe qui a pris marque 0 point + éventuellement les points de la
    Belote-Rebelote. L'équipe adverse marque 162 points + éventuellement les points de la
    Belote." """
    assert score(played(RULES, "H", "N", tricks)).points == points


def test_capot_252():
    """004: "Si une équipe gagne tous les plis ("capot"), cela fait 252 points (le 10 de der
    valant alors 100 points au lieu de 10)." EW keep the belote bonus."""
    result = score(played(RULES, "H", "N", CAPOT_DEAL))
    assert [result.capot, result.points] == [0, (252, 20)]


@pytest.mark.parametrize(
    ("tricks", "belote", "points"),
    [
        (hearts_deal(82, "NS"), (20, 0), (82 + 20, 80)),  # made
        (hearts_deal(76, "NS"), (20, 0), (20, 162)),  # dedans
        (hearts_deal(88, "EW"), (0, 20), (0, 162 + 20)),  # the defence's
        (CAPOT_DEAL, (0, 20), (252, 20)),  # capot against it
    ],
)
def test_belote_20_bonus_in_every_case(tricks, belote, points):
    """004: "L'équipe ayant annoncé la Belote/Rebelote remporte dans tous les cas 20 points
    de Bonus." """
    result = score(played(RULES, "H", "N", tricks))
    assert [result.belote, result.points] == [belote, points]


# ---------------------------------------------------------------------------------------
# The game


def test_game_in_501():
    """004: "La première équipe à atteindre au minimum 501 points gagne le jeu." """
    assert PRESET_TARGETS["belote_com"] == (501,)
    hand = played(RULES, "H", "N", hearts_deal(88))
    assert record_hand(game_for(hand, (412, 0)), hand).winner == -1
    assert record_hand(game_for(hand, (413, 0)), hand).winner == 0


def test_both_over_501_the_higher_wins():
    """004: "Si les deux équipes dépassent 501 points, celle qui a le plus haut score gagne
    le jeu." """
    hand = played(RULES, "H", "N", hearts_deal(88))
    game = record_hand(game_for(hand, (450, 480)), hand)
    assert [game.scores, game.winner] == [(538, 554), 1]


@pytest.mark.parametrize(
    ("tricks", "before", "winner"),
    [(hearts_deal(88), (513, 527), 0), (hearts_deal(76), (601, 439), 1)],
)
def test_equal_totals_the_winner_of_the_last_hand(tricks, before, winner):
    """004: "dans le cas où les deux équipes se trouvent à égalité (score total de la
    partie identique), l'équipe qui remporte la dernière manche est alors désignée comme
    vainqueur de la partie." """
    hand = played(RULES, "H", "N", tricks)
    game = record_hand(game_for(hand, before), hand)
    assert [game.scores, game.winner] == [(601, 601), winner]
