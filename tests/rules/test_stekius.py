"""The stekius preset (003): 3 then 2 cards, the exchange of the trump 7, automatic
announces (a tie goes to the taker), always trump when void, capot 250, game in 501."""

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
from games.rules.actions import ANNOUNCE, EXCHANGE, PASS, TAKE_MODE
from games.rules.hand import BeloteCall
from tests.rules.builders import playing, seat
from tests.rules.tricks import (
    CAPOT_DEAL,
    CARRES_DEAL,
    IN_ORDER,
    OVERCUT,
    PARTNER_CUTS,
    TRUMP_LED,
    VOID_IN_SPADES,
    dealer_for,
    first_trick,
    game_at,
    game_for,
    hands,
    hands_of,
    hearts_deal,
    litige_with_the_takers_belote,
    playable,
    played,
    rotated,
    tierces_deal,
)

RULES = PRESETS["stekius"]


def dealt_by_north(rules=RULES):
    """IN_ORDER dealt by N: W 7S 8S 9S JH QH, S TS JS QS KH AH, E KS AS 7H 7D 8D,
    N 8H 9H TH 9D TD; JD turned, and E holds the 7 of diamonds."""
    return deal(rules, seat("N"), IN_ORDER)


def bids(state):
    return [str(a) for a in legal_actions(state)]


# ---------------------------------------------------------------------------------------
# Deal and bidding


def test_five_cards_three_then_two_and_the_next_card_turned():
    """003: "Chaque joueur reçoit cinq cartes, trois puis deux, et la carte suivante du
    paquet est retournée." Preset: "Direction of play not stated: counter-clockwise, as in
    classique." """
    state = dealt_by_north()
    assert hands(state) == {
        "N": "8H 9H TH 9D TD",
        "E": "KS AS 7H 7D 8D",
        "S": "TS JS QS KH AH",
        "W": "7S 8S 9S JH QH",
    }
    assert [code_of(state.turned), SEATS[state.turn]] == ["JD", "W"]


def test_two_rounds_of_passes_redeal_and_the_deal_passes_right():
    """003: "Si tout le monde passe aux deux tours, les cartes sont redistribuées." """
    state = dealt_by_north()
    for name in "WSEN" * 2:
        state = apply(state, PASS, seat=seat(name))
    assert state.ended == "all_passed"
    assert SEATS[record_hand(game_at(RULES, (0, 0), dealer="N"), state).dealer] == "W"


def test_second_round_names_another_suit():
    """003: "Au premier tour d'enchères, tu prends la couleur de la carte retournée comme
    atout ou tu passes. Au deuxième tour, tu peux nommer une autre couleur ou passer."
    JD was turned: diamonds can no longer be named."""
    state = apply_all(dealt_by_north(), ["pass"] * 4)
    assert bids(state) == ["pass", "take S", "take H", "take C"]
    with pytest.raises(IllegalAction) as refused:
        apply(state, TAKE_MODE[2])
    assert refused.value.code == "wrong_suit"
    state = apply_all(state, ["pass", "take H"])
    assert [state.contract, SEATS[state.taker]] == [1, "S"]


def test_the_taker_gets_the_turned_card_and_two():
    """003: "Celui qui a pris reçoit la carte retournée et deux autres, et les autres trois
    chacun, pour que tout le monde en ait huit." """
    state = apply_all(dealt_by_north(), ["take"])
    assert hands(state)["W"] == "7S 8S 9S JH QH JD QD KD"
    assert [len(h.split()) for h in hands(state).values()] == [8, 8, 8, 8]
    assert SEATS[state.turn] == "W"


def test_the_holder_of_the_trump_seven_may_exchange_it():
    """003: "À cette table, au premier tour, celui qui a le 7 d'atout peut l'échanger
    contre la carte retournée." Choice: "at their turn to speak in the first round,
    before taking or passing"."""
    state = dealt_by_north()
    assert bids(state) == ["pass", "take"]  # W has no 7 of diamonds
    state = apply_all(state, ["pass", "pass"])
    assert bids(state) == ["exchange", "pass", "take"]
    state = apply(state, EXCHANGE, seat=seat("E"))
    assert [hands(state)["E"], code_of(state.turned), SEATS[state.turn]] == [
        "KS AS 7H 8D JD",
        "7D",
        "E",
    ]
    assert bids(state) == ["pass", "take"]


@pytest.mark.parametrize(
    ("after", "taker", "hand"),
    [
        (["pass", "take"], "N", "8H 9H TH 7D 9D TD KC AC"),
        (["take"], "E", "KS AS 7H 7D 8D JD TC JC"),
    ],
)
def test_whoever_takes_receives_the_seven(after, taker, hand):
    """Choice: "the 7 becomes the turned card, and whoever takes receives it"."""
    state = apply_all(dealt_by_north(), ["pass", "pass", "exchange", *after])
    assert [SEATS[state.taker], hands(state)[taker]] == [taker, hand]


@pytest.mark.parametrize(
    "before",
    [
        [],  # W holds no 7 of diamonds
        ["pass", "pass", "exchange"],  # once a hand: E holds the jack now
        ["pass"] * 6,  # second round: E speaks again
    ],
)
def test_exchange_refused(before):
    """003: "au premier tour, celui qui a le 7 d'atout peut l'échanger contre la carte
    retournée." Choice: "(once a hand)"."""
    state = apply_all(dealt_by_north(), before)
    with pytest.raises(IllegalAction) as refused:
        apply(state, EXCHANGE)
    assert refused.value.code == "exchange_not_allowed"


def test_no_exchange_at_the_other_tables():
    """Only 003 has the exchange ("À cette table")."""
    state = apply_all(dealt_by_north(PRESETS["classique"]), ["pass", "pass"])
    assert "exchange" not in bids(state)
    with pytest.raises(IllegalAction) as refused:
        apply(state, EXCHANGE)
    assert refused.value.code == "exchange_not_allowed"


# ---------------------------------------------------------------------------------------
# Announces


def test_announces_are_made_before_the_first_trick():
    """003: "Les annonces se font avant le premier pli et donnent des points en plus."
    Choice: "they are made automatically"."""
    state = playing(RULES, hands_of(CARRES_DEAL), "H", "N", dealer=dealer_for(RULES, "N"))
    assert state.tricks == state.trick == ()
    assert state.declared == 1 << seat("N") | 1 << seat("E")
    assert "announce" not in bids(state)
    with pytest.raises(IllegalAction) as refused:
        apply(state, ANNOUNCE)
    assert refused.value.code == "announce_not_allowed"


def test_only_the_strongest_announce_scores():
    """003: "Seule l'équipe qui a l'annonce la plus forte les marque". Four jacks (NS)
    against four nines (EW)."""
    result = score(played(RULES, "H", "N", CARRES_DEAL))
    assert [result.announces, result.points] == [(200, 0), (79 + 200, 83)]


@pytest.mark.parametrize(
    ("taker", "announces", "points"),
    [("N", (20, 0), (139 + 20, 23)), ("E", (0, 20), (162 + 20, 0))],
)
def test_equal_announces_go_to_the_takers_team(taker, announces, points):
    """003: "en cas d'égalité, l'équipe qui a pris, sinon personne." N and E hold a tierce
    to the 9; when EW take, they are dedans and the other team scores all."""
    result = score(played(RULES, "H", taker, tierces_deal()))
    assert [result.announces, result.points] == [announces, points]


# ---------------------------------------------------------------------------------------
# Play


def test_void_must_trump_even_when_the_partner_is_master():
    """003: "Si tu n'en as pas, tu dois couper avec un atout." Preset: "the document gives
    no partner-master exception, so a void player must trump even when the partner is
    master"."""
    assert playable(first_trick(RULES, VOID_IN_SPADES, "AS 8S")) == {"JH", "7H"}


def test_a_trump_goes_over_the_partners_trump():
    """003: "Un atout doit monter au-dessus des atouts déjà dans le pli, quand il le peut".
    W cut with 9H; E, its partner, must go over it with JH."""
    assert playable(first_trick(RULES, PARTNER_CUTS, "7S 9H 7H")) == {"JH"}
    assert playable(first_trick(RULES, TRUMP_LED, "AH 7H")) == {"9H"}


def test_other_suits_need_not_go_higher():
    """003: "dans les autres couleurs, ce n'est pas le cas." E follows W's king of spades
    with any spade."""
    state = first_trick(RULES, VOID_IN_SPADES, "7S KS 7H")
    assert playable(state) == {"9S", "TS", "JS", "QS"}


def test_cannot_go_higher_still_trumps():
    """003: "Si tu n'en as pas, tu dois couper avec un atout. Un atout doit monter au-dessus
    des atouts déjà dans le pli, quand il le peut". The second to play cut with JH: the
    third holds only lower trumps and must still play one."""
    assert playable(first_trick(RULES, OVERCUT, "7S JH")) == {"9H", "7H"}


# ---------------------------------------------------------------------------------------
# Scoring


@pytest.mark.parametrize(
    ("tricks", "made", "points"),
    [(hearts_deal(82), True, (82, 80)), (hearts_deal(76), False, (0, 162))],
)
def test_the_taker_must_make_more_than_the_other_team(tricks, made, points):
    """003: "L'équipe qui a pris doit marquer plus de points que l'autre. Sinon elle est
    « dedans », et l'autre équipe marque tout." """
    result = score(played(RULES, "H", "N", tricks))
    assert [result.made, result.points] == [made, points]


def test_dedans_the_other_team_scores_all_the_announces():
    """003: "Sinon elle est « dedans », et l'autre équipe marque tout." Preset: "(162 and
    the announces ...)". EW take and make 83 against 79 and four jacks."""
    result = score(played(RULES, "H", "E", CARRES_DEAL))
    assert [result.made, result.points] == [False, (162 + 200, 0)]


@pytest.mark.parametrize(
    ("tricks", "points"),
    [
        (hearts_deal(62, "NS"), (0, 162 + 20)),  # NS: 62 + their belote 20 against 100
        (hearts_deal(76, "EW"), (0, 162 + 20)),  # EW's own belote
    ],
)
def test_dedans_the_other_team_scores_every_belote(tricks, points):
    """003: "Sinon elle est « dedans », et l'autre équipe marque tout." Preset: "162 (or
    the capot), every announce and every belote, the taker's included; the taker's team
    scores nothing"."""
    result = score(played(RULES, "H", "N", tricks))
    assert [result.made, result.points] == [False, points]


def test_keeping_the_belote_stays_an_option():
    """``belote_kept=True`` gives a table the classique's belote: the taker's team keeps
    its 20 when dedans."""
    result = score(played(RULES, "H", "N", hearts_deal(62, "NS"), belote_kept=True))
    assert [result.made, result.points] == [False, (20, 162)]


def test_litige_points_wait_for_the_next_hand():
    """003: "En cas d'égalité, l'autre équipe marque ses propres points, et les points de
    l'équipe qui a pris restent en suspens pour celle qui gagnera la donne suivante." """
    litige = played(RULES, "H", "N", hearts_deal(81))
    game = record_hand(game_for(litige), litige)
    assert [game.scores, game.held] == [(0, 81), 81]
    game = record_hand(game, played(RULES, "H", "W", rotated(hearts_deal(88), 3)))
    assert [game.scores, game.held] == [(74, 81 + 88 + 81), 0]


def test_litige_the_takers_belote_waits_with_its_points():
    """003: "les points de l'équipe qui a pris restent en suspens pour celle qui gagnera la
    donne suivante." Preset: "all the taker's points, its belote included, are held". NS
    tie at 91 (71 + belote 20): the 91 wait, EW score their 91."""
    litige = played(RULES, "H", "N", litige_with_the_takers_belote())
    result = score(litige)
    assert [result.tricks, result.belote] == [(71, 91), (20, 0)]
    assert [result.litige, result.points, result.held] == [True, (0, 91), 91]
    game = record_hand(game_for(litige), litige)
    game = record_hand(game, played(RULES, "H", "W", rotated(hearts_deal(88), 3)))
    assert [game.scores, game.held] == [(74, 91 + 88 + 91), 0]


def test_both_over_the_target_the_higher_wins():
    """003: "La première équipe qui atteint les points de la table gagne". Preset: "both
    over the target at once is not stated, the higher wins as in classique"."""
    hand = played(RULES, "H", "N", hearts_deal(88))
    game = record_hand(game_for(hand, (450, 490)), hand)
    assert [game.scores, game.winner] == [(538, 564), 1]


def test_capot_250():
    """003: "Si une équipe fait tous les plis, elle fait capot et marque 250 au lieu de
    162." EW keep their belote; E's cinquante is lost as in classique."""
    result = score(played(RULES, "H", "N", CAPOT_DEAL))
    assert [result.capot, result.announces, result.points] == [0, (0, 0), (250, 20)]


def test_belote_is_announced_with_the_first_card():
    """003: "Belote-rebelote, le Roi et la Dame d'atout dans la même main : 20, annoncée
    quand on joue la première des deux." """
    state = played(RULES, "H", "N", hearts_deal(82, "NS"))
    first = state.tricks[0]
    assert state.belote_calls[0] == BeloteCall(seat("S"), 1, "belote")
    assert "QH" in [code_of(c) for c in first.cards]
    assert score(state).points == (82 + 20, 80)


@pytest.mark.parametrize("target", [501, 1001, 1501])
def test_game_in_501_1001_or_1501(target):
    """003: "La première équipe qui atteint les points de la table gagne : 501, 1001 ou
    1501." """
    assert PRESET_TARGETS["stekius"] == (501, 1001, 1501)
    assert RULES.target == 501
    hand = played(RULES, "H", "N", hearts_deal(88), target=target)
    assert record_hand(game_for(hand, (target - 89, 0)), hand).winner == -1
    assert record_hand(game_for(hand, (target - 88, 0)), hand).winner == 0
