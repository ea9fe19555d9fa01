"""The annonces preset (001): 5 cards each, bidding from the dealer's right and play from
his left (clockwise), announces declared by each player, contract at 82 with the belote."""

import pytest

from games.rules import (
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
from games.rules.hand import BeloteCall
from tests.rules.builders import playing, seat
from tests.rules.tricks import (
    CAPOT_DEAL,
    CARRES_DEAL,
    IN_ORDER,
    OVERCUT,
    TRUMP_LED,
    VOID_IN_SPADES,
    cards_set,
    dealer_for,
    first_trick,
    game_at,
    game_for,
    hands,
    hands_of,
    hearts_deal,
    play,
    play_tricks,
    playable,
    played,
    tierces_deal,
)

RULES = PRESETS["annonces"]


def dealt_by_north():
    """IN_ORDER dealt by N in packets of five: E 7S-JS, S QS KS AS 7H 8H, W 9H-KH,
    N AH 7D 8D 9D TD; JD turned."""
    return deal(RULES, seat("N"), IN_ORDER)


def first_trick_of(tricks):
    """The hand of ``tricks`` before the first card, N the taker."""
    return playing(RULES, hands_of(tricks), "H", "N", dealer=dealer_for(RULES, "N"))


# ---------------------------------------------------------------------------------------
# Direction, deal, bidding


def test_five_cards_each_and_one_turned():
    """001: "il distribuera 5 cartes par joueur et 1 carte qui sera placée au milieu de la
    table." Choice: "play clockwise": the deal starts on the dealer's left."""
    state = dealt_by_north()
    assert hands(state) == {
        "N": "AH 7D 8D 9D TD",
        "E": "7S 8S 9S TS JS",
        "S": "QS KS AS 7H 8H",
        "W": "9H TH JH QH KH",
    }
    assert code_of(state.turned) == "JD"


def test_the_taker_gets_the_turned_card_and_two_the_others_three():
    """001: "Quand un joueur décide de prendre, il reçoit en plus de la carte du milieu deux
    autres cartes. Les trois autres joueurs reçoivent quant à eux 3 cartes chacun." """
    state = apply_all(dealt_by_north(), ["take"])
    assert [SEATS[state.taker], code_of(state.turned)] == ["W", "JD"]
    assert hands(state) == {
        "N": "AH 7D 8D 9D TD QC KC AC",
        "E": "7S 8S 9S TS JS QD KD AD",
        "S": "QS KS AS 7H 8H 7C 8C 9C",
        "W": "9H TH JH QH KH JD TC JC",
    }


def test_the_player_on_the_dealers_right_speaks_first():
    """001: "C'est le joueur placé à droite du premier donneur qui décide en premier de
    prendre ou pas la main et ainsi de suite." Choice: "the bidding starts on the
    dealer's right and goes on clockwise"."""
    state = dealt_by_north()
    for name in "WNES":
        state = apply(state, PASS, seat=seat(name))
    assert [state.bid_round, SEATS[state.turn]] == [2, "W"]


def test_the_player_on_the_dealers_left_leads():
    """001: "C'est le joueur qui se trouve à gauche du donneur qui commence." """
    state = apply_all(dealt_by_north(), ["pass", "take"])
    assert [SEATS[state.taker], SEATS[state.turn]] == ["N", "E"]
    assert SEATS[play(state, "QD").turn] == "S"


def test_second_round_chooses_the_trump_suit_the_turned_one_included():
    """001: "commence alors un nouveau tour durant lequel chaque joueur peut décider du choix
    de la couleur d'Atout." Preset: "the document says no "autre couleur", so the turned
    suit may be named again". JD was turned: N names diamonds."""
    state = apply_all(dealt_by_north(), ["pass"] * 4)
    assert [str(a) for a in legal_actions(state)] == [
        "pass",
        "take S",
        "take H",
        "take D",
        "take C",
    ]
    state = apply_all(state, ["pass", "take D"])
    assert [state.contract, SEATS[state.taker]] == [2, "N"]


def test_two_rounds_without_taker_redeal_and_the_deal_passes_left():
    """001: "C'est au bout de 2 tours d'enchère sans preneur que les cartes sont
    redistribuées." and "Le prochain distributeur sera la joueur se trouvant à gauche du
    précédent distributeur." """
    state = apply_all(dealt_by_north(), ["pass"] * 8)
    assert state.ended == "all_passed"
    assert SEATS[record_hand(game_at(RULES, (0, 0), dealer="N"), state).dealer] == "E"


def test_the_next_dealer_sits_on_the_left():
    """001: "Le prochain distributeur sera la joueur se trouvant à gauche du précédent
    distributeur." """
    hand = played(RULES, "H", "N", hearts_deal(88))
    assert SEATS[hand.dealer] == "W"
    assert SEATS[record_hand(game_for(hand), hand).dealer] == "N"


# ---------------------------------------------------------------------------------------
# Announces, declared by each player


def test_each_player_decides_to_announce_during_the_first_trick():
    """001: "Après avoir choisi l'Atout, chaque joueur décide ou non de faire une annonce."
    Preset: "at their turn in the first trick, before playing their card"."""
    state = first_trick_of(CARRES_DEAL)
    assert "announce" in [str(a) for a in legal_actions(state)]
    state = apply(state, ANNOUNCE, seat=seat("N"))
    assert state.declared == 1 << seat("N")
    assert "announce" not in [str(a) for a in legal_actions(state)]
    state = play(state, "JH")
    assert "announce" in [str(a) for a in legal_actions(state)]  # E, the four nines
    state = play(state, "9H")
    assert "announce" not in [str(a) for a in legal_actions(state)]  # S holds none


@pytest.mark.parametrize(
    ("prepare", "code"),
    [
        (lambda s: apply(s, ANNOUNCE), "already_announced"),
        (lambda s: play(s, "JH 9H"), "nothing_to_announce"),  # S's turn, S holds none
        (lambda s: play_tricks(s, CARRES_DEAL[:1]), "announce_too_late"),  # N leads trick 2
    ],
)
def test_announce_refusals(prepare, code):
    """001: "chaque joueur décide ou non de faire une annonce": once, with an announce to
    make, and before the play goes past the first trick."""
    state = prepare(first_trick_of(CARRES_DEAL))
    with pytest.raises(IllegalAction) as refused:
        apply(state, ANNOUNCE)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("announce", "announces"),
    [("", (0, 0)), ("N", (200, 0)), ("E", (0, 150)), ("N E", (200, 0))],
)
def test_only_declared_announces_score_and_only_the_best(announce, announces):
    """001: "C'est l'équipe qui possède la meilleure annonce qui marque les points qu'elle
    représente." N holds four jacks (200), E four nines (150)."""
    assert score(played(RULES, "H", "N", CARRES_DEAL, announce=announce)).announces == announces


def test_equal_best_announces_score_nothing():
    """Preset: "Only the best team scores ...; equal best announces score nothing, as in
    classique." N and E both declare a tierce to the 9."""
    result = score(played(RULES, "H", "N", tierces_deal(), announce="N E"))
    assert [result.announces, result.points] == [(0, 0), (139, 23)]


# ---------------------------------------------------------------------------------------
# Play


def test_void_must_trump():
    """001: "Il faut alors suivre la couleur demandée ou à défaut couper à l'Atout quand on
    ne possède pas la couleur demandée." """
    assert playable(first_trick(RULES, VOID_IN_SPADES, "7S KS")) == {"JH", "7H"}


def test_partner_master_may_discard():
    """001: "on peut, seulement si son partenaire est maître du pli, ne pas couper à
    l'atout, il s'agit d'une défausse ou d'une « pisse »." """
    state = first_trick(RULES, VOID_IN_SPADES, "AS 8S")
    assert playable(state) == cards_set("JH 7H AC KC QC JC TC 9C")


def test_overtrump_the_partner_as_in_classique():
    """Preset: "Overtrumping the partner is not stated: kept as classique." """
    assert playable(first_trick(RULES, TRUMP_LED, "AH 7H")) == {"9H"}


def test_overcut_an_opponent_as_in_classique_else_still_trump():
    """Preset: "Going higher (over the partner's trump, or over an opponent's when void)
    is not stated: kept as classique. A void player who cannot go higher still trumps:
    "à défaut couper à l'Atout quand on ne possède pas la couleur demandée"." """
    assert playable(first_trick(RULES, OVERCUT, "7S 8H")) == {"9H"}
    assert playable(first_trick(RULES, OVERCUT, "7S JH")) == {"9H", "7H"}


# ---------------------------------------------------------------------------------------
# Scoring


def test_contract_is_82_with_the_belote():
    """001: "l'équipe prenante doit comptabiliser 82 points (ce sont les termes du
    contrat), sans oublier d'ajouter les points éventuels de la Belote." NS: 62 + 20."""
    result = score(played(RULES, "H", "N", hearts_deal(62, "NS")))
    assert [result.made, result.points] == [True, (82, 100)]


def test_contract_made_each_team_scores_its_points():
    """001: "chacune des équipes marque les points qu'elle a réalisés ainsi que ceux de la
    belote et de l'annonce s'il y en a." N declares a tierce; W holds the belote."""
    result = score(played(RULES, "H", "N", tierces_deal("EW"), announce="N"))
    assert [result.made, result.points] == [True, (139 + 20, 23 + 20)]


def test_announces_do_not_count_toward_the_contract():
    """Preset: "Contract: 82 points counting the belote ..., announces not counted." NS
    have 79 card points and declare four jacks: dedans, and the 200 go to EW."""
    result = score(played(RULES, "H", "N", CARRES_DEAL, announce="N"))
    assert [result.made, result.points] == [False, (0, 162 + 200)]


def test_dedans_the_taker_keeps_only_its_belote():
    """001: "Elle ne marque alors pas de points ou seulement ceux comptabilisés par la
    belote. C'est donc l'équipe adverse qui marque 162 points additionnés au 12 points de la
    belote et ceux de l'annonce." EW take with the belote and make 23; N declares a tierce."""
    result = score(played(RULES, "H", "E", tierces_deal("EW"), announce="N"))
    assert [result.made, result.points] == [False, (162 + 20, 20)]


def test_dedans_the_defence_adds_its_belote():
    """Preset: "Dedans: 162 plus the belote and the announces to the defence"."""
    result = score(played(RULES, "H", "N", hearts_deal(76, "EW")))
    assert [result.made, result.points] == [False, (0, 162 + 20)]


def test_81_points_is_a_failed_contract_nothing_held():
    """001: "l'équipe prenante doit comptabiliser 82 points" and "Deuxième cas, l'équipe
    prenante n'a pas réalisé son contrat, ce qui signifie qu'elle n'a pas comptabilisé 82
    points. Elle ne marque alors pas de points [...] C'est donc l'équipe adverse qui marque
    162 points". NS make 81 against 81, no belote, no announce: dedans, not a litige."""
    hand = played(RULES, "H", "N", hearts_deal(81))
    result = score(hand)
    assert [result.made, result.winner, result.points, result.held] == [False, 1, (0, 162), 0]
    game = record_hand(game_for(hand, (300, 200)), hand)
    assert [game.scores, game.held] == [(300, 362), 0]


# ``hearts_deal(81)`` with N holding a tierce (7C 8C 9C): NS 81, EW 81, no belote.
TIERCE_AT_81 = [
    "N:JH W:7H S:KH E:9H",  # 38
    "N:AH W:8H S:TH E:QH",  # 24
    "N:TS W:KS S:QS E:JS",  # 19
    "N:7S W:AS S:8S E:9S",  # 11 to W
    "W:AD S:7D E:KD N:8D",  # 15
    "W:TD S:9D E:QD N:7C",  # 13
    "W:AC S:JC E:KC N:8C",  # 17
    "W:TC S:JD E:QC N:9C",  # 15 + 10
]


def test_81_points_and_an_announce_the_defence_scores_it_too():
    """001: "C'est donc l'équipe adverse qui marque 162 points additionnés au 12 points de
    la belote et ceux de l'annonce." N declares a tierce, which does not count towards
    the contract: NS are dedans at 81, and EW score 162 and the tierce."""
    result = score(played(RULES, "H", "N", TIERCE_AT_81, announce="N"))
    assert [result.tricks, result.announces] == [(81, 81), (20, 0)]
    assert [result.made, result.points, result.held] == [False, (0, 162 + 20), 0]


def test_the_other_reading_stays_an_option():
    """``litige="held"`` gives a table the classique's litige instead: EW score their 81,
    NS's 81 wait for the next hand."""
    result = score(played(RULES, "H", "N", hearts_deal(81), litige="held"))
    assert [result.litige, result.points, result.held] == [True, (0, 81), 81]


def test_capot_as_in_classique():
    """Capot is not stated in 001: kept as classique (000: "Capot (tous les plis) : 252
    points au lieu de 162")."""
    assert score(played(RULES, "H", "N", CAPOT_DEAL)).points == (252, 20)


def king_first(tricks):
    """S plays KH in the first trick and QH in the second."""
    return [tricks[0].replace("S:QH", "S:KH"), tricks[1].replace("S:KH", "S:QH"), *tricks[2:]]


@pytest.mark.parametrize(
    ("tricks", "order"),
    [(hearts_deal(82, "NS"), ("QH", "KH")), (king_first(hearts_deal(82, "NS")), ("KH", "QH"))],
)
def test_belote_whatever_the_order(tricks, order):
    """001: "ce même joueur quelque soit l'ordre dans lequel il choisit de jouer ses
    cartes, marque 20 points, il s'agit de « belote » « rebelote »." """
    state = played(RULES, "H", "N", tricks)
    assert state.belote_calls == (
        BeloteCall(seat("S"), 1, "belote"),
        BeloteCall(seat("S"), 1, "rebelote"),
    )
    played_first = [c for t in state.tricks[:2] for c in t.cards if code_of(c) in order]
    assert [code_of(c) for c in played_first] == list(order)
    assert score(state).points == (82 + 20, 80)


def test_game_in_1000():
    """Preset: "Target not stated: 1000 as in classique." """
    hand = played(RULES, "H", "N", hearts_deal(88))
    assert RULES.target == 1000
    assert record_hand(game_for(hand, (900, 0)), hand).winner == -1
    assert record_hand(game_for(hand, (912, 0)), hand).winner == 0
