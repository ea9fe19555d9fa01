"""The moderne preset (002): the classique with the surenchère (a take covered in sans
atout, then in tout atout), the SA and TA tables, the redeal options of the Salon."""

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
from games.rules.actions import ANNOUNCE, REDEAL, TAKE_MODE
from games.rules.cards import SA, TA
from games.rules.hand import BIDDING, DONE, PLAYING
from tests.rules.builders import dealt, seat
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
    playable,
    played,
)

RULES = PRESETS["moderne"]

# S holds the king and queen of hearts and of spades, E those of diamonds and clubs.
TOUT_ATOUT_DEAL = [
    "N:JH W:8H S:KH E:AH",  # 13 + 3 + 6 = 22
    "N:9H W:7H S:QH E:TH",  # 9 + 2 + 5 = 16
    "N:JS W:8S S:KS E:AS",  # 22
    "N:9S W:7S S:QS E:TS",  # 16
    "N:AD W:JD S:8D E:KD",  # W must go over the ace: 6 + 13 + 3 = 22 to W
    "W:7D S:9D E:QD N:TD",  # 9 + 2 + 5 = 16 to S
    "S:9C E:KC N:AC W:JC",  # 9 + 3 + 6 + 13 = 31 to W
    "W:7C S:8C E:QC N:TC",  # 2 + 5 + 10 de der = 17 to N
]

# The same hands in sans atout.
SANS_ATOUT_DEAL = [
    "N:JH W:8H S:KH E:AH",  # 2 + 4 + 19 = 25 to E
    "E:TH N:9H W:7H S:QH",  # 10 + 3 = 13
    "E:AS N:JS W:8S S:KS",  # 25
    "E:TS N:9S W:7S S:QS",  # 13
    "E:KD N:AD W:JD S:9D",  # 25 to N
    "N:TD W:7D S:8D E:QD",  # 13
    "N:AC W:JC S:9C E:KC",  # 25
    "N:TC W:7C S:8C E:QC",  # 13 + 10 de der
]


def dealt_by_north():
    """IN_ORDER dealt by N: W 7S 8S 9S JH QH, S TS JS QS KH AH, E KS AS 7H 7D 8D,
    N 8H 9H TH 9D TD; JD turned. W speaks first."""
    return deal(RULES, seat("N"), IN_ORDER)


def bids(state):
    return [str(a) for a in legal_actions(state)]


# ---------------------------------------------------------------------------------------
# Dealing and speaking as in classique


def test_deal_speak_and_play_as_in_classique():
    """Preset: "Dealing, speaking and playing as in classique." 3 then 2 cards from the
    dealer's right, who speaks and leads first; the deal passes to the right."""
    state = dealt_by_north()
    assert hands(state)["W"] == "7S 8S 9S JH QH"
    assert [code_of(state.turned), SEATS[state.turn]] == ["JD", "W"]
    state = apply_all(state, ["pass"] * 8)
    assert SEATS[record_hand(game_at(RULES, (0, 0), dealer="N"), state).dealer] == "W"


# ---------------------------------------------------------------------------------------
# Surenchère


def test_a_take_does_not_close_the_bidding():
    """002: "Une prise ne ferme plus le tour." """
    state = apply_all(dealt_by_north(), ["take"])
    assert [state.phase, SEATS[state.taker], SEATS[state.turn]] == [BIDDING, "W", "S"]
    assert bids(state) == ["pass", "take SA", "take TA"]


def test_sans_atout_covers_a_suit_and_tout_atout_covers_sans_atout():
    """002: "Une prise à la couleur peut être couverte en sans atout ou en tout atout, une
    prise en sans atout par une prise en tout atout." """
    state = apply_all(dealt_by_north(), ["take", "take SA"])
    assert [state.contract, SEATS[state.taker]] == [SA, "S"]
    assert bids(state) == ["pass", "take TA"]
    state = apply_all(dealt_by_north(), ["take", "take TA"])
    assert [state.contract, SEATS[state.taker]] == [TA, "S"]


def test_tout_atout_is_final():
    """002: "Le tout atout ne peut plus être couvert." Preset: "the bidding ends at once on
    a TA"."""
    state = apply_all(dealt_by_north(), ["take", "take SA", "take TA"])
    assert [state.phase, state.contract, SEATS[state.taker], SEATS[state.turn]] == [
        PLAYING,
        TA,
        "E",
        "W",
    ]


@pytest.mark.parametrize(
    ("before", "bid"),
    [(["take"], "take S"), (["take"], "take"), (["take", "take SA"], "take SA")],
)
def test_a_cover_must_go_higher(before, bid):
    """002: "Une prise à la couleur peut être couverte en sans atout ou en tout atout, une
    prise en sans atout par une prise en tout atout." """
    state = apply_all(dealt_by_north(), before)
    with pytest.raises(IllegalAction) as refused:
        apply_all(state, [bid])
    assert refused.value.code == "bid_too_low"


def test_may_cover_the_partners_take():
    """002: "On peut couvrir la prise de son partenaire, jamais la sienne." E covers W."""
    state = apply_all(dealt_by_north(), ["take", "pass", "take SA"])
    assert [state.contract, SEATS[state.taker]] == [SA, "E"]


def test_never_ones_own_take():
    """002: "On peut couvrir la prise de son partenaire, jamais la sienne." Three passes end
    the bidding before the taker speaks again; a state where W would speak over its own
    take is refused all the same."""
    state = apply_all(dealt_by_north(), ["take"])
    with pytest.raises(IllegalAction) as refused:
        apply(state._replace(turn=seat("W")), TAKE_MODE[SA])
    assert refused.value.code == "own_bid"
    assert apply_all(state, ["pass"] * 3).phase == PLAYING


def test_bidding_ends_after_a_take_and_three_passes():
    """002: "Les enchères s'arrêtent après une prise suivie de trois « passe »." After S's
    cover, W (the first taker) speaks again."""
    state = apply_all(dealt_by_north(), ["take", "take SA", "pass", "pass"])
    assert [state.phase, SEATS[state.turn], bids(state)] == [BIDDING, "W", ["pass", "take TA"]]
    state = apply_all(state, ["pass"])
    assert [state.phase, state.contract, SEATS[state.taker]] == [PLAYING, SA, "S"]


def test_the_last_bidder_takes_the_turned_card():
    """Choice: "The player who holds the last bid is the taker and receives the turned
    card and 2 more." """
    state = apply_all(dealt_by_north(), ["take", "take SA", "pass", "pass", "pass"])
    assert hands(state) == {
        "N": "8H 9H TH 9D TD QC KC AC",
        "E": "KS AS 7H 7D 8D 9C TC JC",
        "S": "TS JS QS KH AH JD 7C 8C",
        "W": "7S 8S 9S JH QH QD KD AD",
    }


def test_nobody_opens_in_sans_atout_or_tout_atout():
    """Choice: "SA and TA are only covers; nobody opens the bidding in SA or TA." """
    state = dealt_by_north()
    assert bids(state) == ["redeal", "pass", "take"]  # W may also ask for a redeal
    state = apply_all(state, ["pass"] * 4)
    assert bids(state) == ["redeal", "pass", "take S", "take H", "take C"]
    with pytest.raises(IllegalAction) as refused:
        apply_all(state, ["take SA"])
    assert refused.value.code == "cover_only"


def test_second_round_names_another_suit():
    """002: "On parle comme à la classique : au premier tour on prend à la couleur de la
    retourne, au second on peut nommer une autre couleur." JD was turned: diamonds can no
    longer be named; a suit named in the second round can be covered as any take."""
    state = apply_all(dealt_by_north(), ["pass"] * 4)
    assert "take D" not in bids(state)
    with pytest.raises(IllegalAction) as refused:
        apply_all(state, ["take D"])
    assert refused.value.code == "wrong_suit"
    state = apply_all(state, ["take S"])
    assert [state.phase, SEATS[state.taker], bids(state)] == [
        BIDDING,
        "W",
        ["pass", "take SA", "take TA"],
    ]


# ---------------------------------------------------------------------------------------
# Main nulle and carré de 7


def test_main_nulle_redeals():
    """002: "Main nulle : avec moins de 11 points et pas d'atout, on peut faire redonner en
    parlant." W: 7S 8S 9S JH QH, 5 points and no diamond."""
    state = apply(dealt_by_north(), REDEAL, seat=seat("W"))
    assert [state.phase, state.ended] == [DONE, "main_nulle"]
    game = record_hand(game_at(RULES, (120, 80), dealer="N"), state)
    assert [game.scores, SEATS[game.dealer]] == [(120, 80), "W"]


def test_four_sevens_redeal():
    """002: "Carré de 7 : avec les quatre 7 en main, on peut faire redonner en parlant." """
    hands_ = {
        "W": "7S 7H 7D 7C AS",
        "S": "8S 9S TS JS QS",
        "E": "KS 8H 9H TH JH",
        "N": "QH KH AH 8D 9D",
    }
    state = dealt(RULES, "N", hands_, "JD")
    assert "redeal" in bids(state)
    assert apply(state, REDEAL).ended == "four_sevens"


@pytest.mark.parametrize(
    "west",
    ["AS 7S 8S 9S 7H", "TS 7S 8S 9S 7D", "TS JS QS KH AH"],  # 11 points; a trump; 30
)
def test_no_redeal_with_a_playable_hand(west):
    """002: "Main nulle : avec moins de 11 points et pas d'atout, on peut faire redonner en
    parlant." """
    rest = [code_of(c) for c in IN_ORDER if code_of(c) not in [*west.split(), "JD"]]
    others = {name: " ".join(rest[5 * i : 5 * i + 5]) for i, name in enumerate("SEN")}
    state = dealt(RULES, "N", {"W": west, **others}, "JD")
    assert "redeal" not in bids(state)
    with pytest.raises(IllegalAction) as refused:
        apply(state, REDEAL)
    assert refused.value.code == "redeal_not_allowed"


def test_no_redeal_once_somebody_took():
    """Choice: the redeal is asked "at their turn to speak, while nobody has taken". S
    holds the four 7s after W took."""
    hands_ = {
        "W": "AS KS QS JS TS",
        "S": "7S 7H 7D 7C 8S",
        "E": "9S 8H 9H TH JH",
        "N": "QH KH AH 8D 9D",
    }
    state = apply_all(dealt(RULES, "N", hands_, "JD"), ["take"])
    assert "redeal" not in bids(state)
    with pytest.raises(IllegalAction) as refused:
        apply(state, REDEAL)
    assert refused.value.code == "redeal_not_allowed"


# ---------------------------------------------------------------------------------------
# Play


def test_overtrump_the_highest_trump_of_the_trick():
    """002: "À l'atout, monter sur l'atout le plus fort du pli si on le peut." """
    assert playable(first_trick(RULES, TRUMP_LED, "AH 7H")) == {"9H"}


def test_void_cut_when_an_opponent_is_master():
    """002: "Sans la couleur demandée, couper si l'adversaire est maître du pli"."""
    assert playable(first_trick(RULES, VOID_IN_SPADES, "7S KS")) == {"JH", "7H"}


def test_void_overtrump_a_trump_already_played_or_undertrump():
    """002: "surcouper si un atout est déjà posé, et sous-couper à défaut." """
    assert playable(first_trick(RULES, OVERCUT, "7S 8H")) == {"9H"}
    assert playable(first_trick(RULES, OVERCUT, "7S JH")) == {"9H", "7H"}


@pytest.mark.parametrize(
    ("position", "plays", "hand"),
    [
        (VOID_IN_SPADES, "AS 8S", "JH 7H AC KC QC JC TC 9C"),
        (PARTNER_CUTS, "7S 9H 7H", "JH 8H AH TH KH QH 7D 7C"),
    ],
)
def test_partner_master_discard_freely(position, plays, hand):
    """002: "Si votre partenaire est maître du pli, vous pouvez vous défausser librement."
    Preset: "read as classique's "n'importe quelle carte", a trump under the partner's
    included": the partner cut with 9H, 8H may go under it."""
    assert playable(first_trick(RULES, position, plays)) == cards_set(hand)


def test_tout_atout_always_go_higher_and_nothing_cuts():
    """002: "En tout atout, chaque couleur se joue comme un atout ... et il faut toujours
    monter." S, void in spades, plays anything; E must go over W's king of spades."""
    state = first_trick(RULES, VOID_IN_SPADES, "7S KS", contract="TA")
    assert playable(state) == cards_set("JH 7H AC KC QC JC TC 9C")
    state = apply_all(state, ["JH"])
    assert playable(state) == {"9S", "TS", "JS"}


def test_sans_atout_follow_suit_only():
    """002: "En sans atout, aucune couleur ne coupe." """
    state = first_trick(RULES, VOID_IN_SPADES, "7S KS JH", contract="SA")
    assert playable(state) == {"9S", "TS", "JS", "QS"}


# ---------------------------------------------------------------------------------------
# Scoring


def test_tout_atout_has_a_belote_in_every_suit():
    """002: "Chaque couleur a sa belote, 20 points pour le Roi et la Dame." """
    state = played(RULES, "TA", "N", TOUT_ATOUT_DEAL)
    result = score(state)
    assert [state.won, result.belote] == [(109, 53), (40, 40)]
    assert [result.made, result.points] == [True, (109 + 40, 53 + 40)]
    assert [(SEATS[c.seat], "SHDC"[c.suit], c.call) for c in state.belote_calls[:2]] == [
        ("S", "H", "belote"),
        ("S", "H", "rebelote"),
    ]


def test_sans_atout_has_no_belote():
    """002: "Il n'y a pas de belote." (sans atout)"""
    state = played(RULES, "SA", "N", SANS_ATOUT_DEAL)
    result = score(state)
    assert [state.won, state.belote_calls, result.belote] == [(86, 76), (), (0, 0)]
    assert result.points == (86, 76)


@pytest.mark.parametrize("tricks", [TOUT_ATOUT_DEAL, SANS_ATOUT_DEAL])
def test_sans_atout_and_tout_atout_count_162(tricks):
    """002: "Les deux barèmes sont ramenés à 162 points avec le dix de der, comme une donne
    à la couleur : le contrat reste de 82." """
    contract = "TA" if tricks is TOUT_ATOUT_DEAL else "SA"
    assert sum(played(RULES, contract, "N", tricks).won) == 162


@pytest.mark.parametrize(
    ("tricks", "made", "points"),
    [
        (hearts_deal(82), True, (82, 80)),
        (hearts_deal(76, "NS"), True, (96, 86)),  # belote included: 96 against 86
        (hearts_deal(76), False, (0, 162)),
        (hearts_deal(62, "NS"), False, (20, 162)),  # 82 with the belote, against 100
    ],
)
def test_contract_at_82_and_dedans_at_162(tricks, made, points):
    """002: "Le décompte est celui de la classique : contrat à 82, dedans à 162". Choice:
    "contrat à 82" "is the 82 of 162 of the classique count, which we keep as a whole (more
    than the defence, belote included; the belote stays with its team ...)"."""
    result = score(played(RULES, "H", "N", tricks))
    assert [result.made, result.points] == [made, points]


def test_litige_at_81_each():
    """002: "litige à 81 partout"."""
    result = score(played(RULES, "H", "N", hearts_deal(81)))
    assert [result.litige, result.points, result.held] == [True, (0, 81), 81]


def test_capot_252():
    """002: "capot à 252"."""
    result = score(played(RULES, "H", "N", CAPOT_DEAL))
    assert [result.capot, result.points] == [0, (252, 20)]


def test_no_announces():
    """Preset: "Announces are not stated: off, as in classique." """
    state = first_trick(RULES, TRUMP_LED)
    with pytest.raises(IllegalAction) as refused:
        apply(state, ANNOUNCE)
    assert refused.value.code == "announce_not_allowed"
    assert score(played(RULES, "H", "N", CARRES_DEAL)).announces == (0, 0)


@pytest.mark.parametrize(("target", "before"), [(1000, 950), (500, 450), (1500, 1450)])
def test_game_in_1000_500_or_1500(target, before):
    """002: "Partie - en 1000 points, ou 500, ou 1500"."""
    assert PRESET_TARGETS["moderne"] == (1000, 500, 1500)
    hand = played(RULES, "H", "N", hearts_deal(88), target=target)
    assert record_hand(game_for(hand, (before - 100, 0)), hand).winner == -1
    assert record_hand(game_for(hand, (before, 0)), hand).winner == 0
