"""The classique preset (000): counter-clockwise, 3 then 2 cards, no announces but the
belote (option: automatic announces), contract against the defence, litige held, 1000."""

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
    start_hand,
)
from games.rules.actions import ANNOUNCE, PASS
from games.rules.announces import best_team, find_announces
from games.rules.cards import mask_of
from games.rules.hand import BIDDING, DONE, PLAYING
from tests.rules.builders import cards, seat
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
    litige_with_the_takers_belote,
    play,
    playable,
    played,
    rotated,
    tierces_deal,
)

RULES = PRESETS["classique"]
WITH_ANNOUNCES = RULES.with_options(announces="auto")


def dealt_by_north():
    """IN_ORDER dealt by N: W 7S 8S 9S JH QH, S TS JS QS KH AH, E KS AS 7H 7D 8D,
    N 8H 9H TH 9D TD; JD turned."""
    return deal(RULES, seat("N"), IN_ORDER)


# ---------------------------------------------------------------------------------------
# Direction, deal, bidding


def test_deal_three_then_two_counter_clockwise_and_turn_the_next_card():
    """000: "on donne et on joue dans le sens inverse des aiguilles d'une montre" and "Le
    donneur distribue 3 puis 2 cartes à chacun et retourne la carte suivante." """
    state = dealt_by_north()
    assert hands(state) == {
        "N": "8H 9H TH 9D TD",
        "E": "KS AS 7H 7D 8D",
        "S": "TS JS QS KH AH",
        "W": "7S 8S 9S JH QH",
    }
    assert code_of(state.turned) == "JD"


def test_the_taker_gets_the_turned_card_and_two_the_others_three():
    """000: "Après la prise, le preneur reçoit la retournée et 2 cartes, les autres 3
    cartes : tout le monde a 8 cartes." """
    state = apply_all(dealt_by_north(), ["pass", "pass", "pass", "take"])
    assert hands(state) == {
        "N": "8H 9H TH 9D TD JD KC AC",
        "E": "KS AS 7H 7D 8D TC JC QC",
        "S": "TS JS QS KH AH 7C 8C 9C",
        "W": "7S 8S 9S JH QH QD KD AD",
    }
    assert [state.contract, SEATS[state.taker]] == [2, "N"]


def test_speaking_starts_on_the_dealers_right_and_goes_counter_clockwise():
    """000: "Premier tour : en commençant à droite du donneur, chacun peut prendre à la
    couleur de la retournée ou passer." Preset: "Choice (not stated): the second round
    starts again on the dealer's right." """
    state = dealt_by_north()
    for name in "WSEN":
        state = apply(state, PASS, seat=seat(name))
    assert [state.bid_round, SEATS[state.turn]] == [2, "W"]


def test_the_player_on_the_dealers_right_leads():
    """000: "Le joueur à droite du donneur entame ; ensuite le gagnant de chaque pli." """
    state = apply_all(dealt_by_north(), ["pass", "take"])
    assert [state.phase, SEATS[state.turn]] == [PLAYING, "W"]
    state = play(state, "7S")
    assert SEATS[state.turn] == "S"


def test_first_round_takes_the_turned_suit_only():
    """000: "chacun peut prendre à la couleur de la retournée ou passer." """
    state = dealt_by_north()
    assert [str(a) for a in legal_actions(state)] == ["pass", "take"]
    with pytest.raises(IllegalAction) as refused:
        apply_all(state, ["take S"])
    assert refused.value.code == "wrong_suit"


def test_second_round_names_another_suit():
    """000: "Second tour : si tous ont passé, chacun peut choisir une autre couleur comme
    atout ou passer." """
    state = apply_all(dealt_by_north(), ["pass"] * 5 + ["take C"])
    assert [state.contract, SEATS[state.taker], SEATS[state.turn]] == [3, "S", "W"]


def test_second_round_excludes_the_turned_suit():
    """000: "Second tour : si tous ont passé, chacun peut choisir une autre couleur comme
    atout ou passer." Another suit than the turned card's: JD was turned, diamonds can
    no longer be named."""
    state = apply_all(dealt_by_north(), ["pass"] * 4)
    assert [str(a) for a in legal_actions(state)] == ["pass", "take S", "take H", "take C"]
    with pytest.raises(IllegalAction) as refused:
        apply_all(state, ["take D"])
    assert refused.value.code == "wrong_suit"
    assert [state.phase, SEATS[state.turn]] == [BIDDING, "W"]


def test_naming_the_turned_suit_again_stays_an_option():
    """``second_round_excludes_turned=False``: a table may let the turned suit be named in
    the second round (the reading the preset had before)."""
    rules = RULES.with_options(second_round_excludes_turned=False)
    state = apply_all(deal(rules, seat("N"), IN_ORDER), ["pass"] * 4)
    assert "take D" in [str(a) for a in legal_actions(state)]
    state = apply_all(state, ["take D"])
    assert [state.contract, SEATS[state.taker]] == [2, "W"]


@pytest.mark.parametrize(("bid", "code"), [("take", "name_a_suit"), ("take SA", "cover_only")])
def test_second_round_bids_name_a_suit(bid, code):
    """000: "chacun peut choisir une autre couleur comme atout": a suit, never sans atout
    (the classique knows no surenchère)."""
    state = apply_all(dealt_by_north(), ["pass"] * 4)
    with pytest.raises(IllegalAction) as refused:
        apply_all(state, [bid])
    assert refused.value.code == code


def test_all_pass_twice_and_the_next_player_deals():
    """000: "Si tout le monde passe deux fois, le joueur suivant redistribue." """
    state = apply_all(dealt_by_north(), ["pass"] * 8)
    assert [state.phase, state.ended] == [DONE, "all_passed"]
    game = record_hand(game_at(RULES, (0, 0), dealer="N"), state)
    assert [SEATS[game.dealer], game.scores] == ["W", (0, 0)]


def test_the_next_dealer_after_a_played_hand():
    """000: "on donne ... dans le sens inverse des aiguilles d'une montre": E dealt, N
    deals next."""
    hand = played(RULES, "H", "N", hearts_deal(88))
    assert SEATS[hand.dealer] == "E"
    assert SEATS[record_hand(game_for(hand), hand).dealer] == "N"


# ---------------------------------------------------------------------------------------
# Announces


def test_no_announces_by_default():
    """000: "Nos règles : la belote classique, sans annonces (seule la belote-rebelote
    compte)". N's four jacks score nothing and NS, 79 to 83, are dedans."""
    state = first_trick(RULES, TRUMP_LED)
    assert "announce" not in [str(a) for a in legal_actions(state)]
    with pytest.raises(IllegalAction) as refused:
        apply(state, ANNOUNCE)
    assert refused.value.code == "announce_not_allowed"
    result = score(played(RULES, "H", "N", CARRES_DEAL))
    assert [result.announces, result.points] == [(0, 0), (0, 162)]


def test_option_announces_are_made_automatically_and_only_the_best_scores():
    """000: "Seule l'équipe ayant la meilleure annonce marque ; ici, les annonces sont
    faites automatiquement." N's carré of jacks (200) beats E's carré of nines (150)."""
    state = played(WITH_ANNOUNCES, "H", "N", CARRES_DEAL)
    assert state.declared == 1 << seat("N") | 1 << seat("E")
    assert score(state).announces == (200, 0)


def test_equal_best_announces_score_nothing():
    """Choice: "two equal best announces of both teams score nothing ("seule l'équipe
    ayant la meilleure annonce marque")". N and E both hold a tierce to the 9."""
    result = score(played(WITH_ANNOUNCES, "H", "N", tierces_deal()))
    assert [result.announces, result.points] == [(0, 0), (139, 23)]


def best_of(north: str, east: str) -> str:
    found = (find_announces(mask_of(cards(north))), find_announces(mask_of(cards(east))), (), ())
    return {0: "NS", 1: "EW", -1: "nobody"}[best_team(found, 0b11, 0, "nobody")]


@pytest.mark.parametrize(
    ("north", "east", "best"),
    [
        ("7S 8S 9S", "7D 8D 9D TD", "EW"),  # points first: a cinquante over a tierce
        ("AS AH AD AC", "8C 9C TC JC QC", "NS"),  # 100 each: the carré over the cent
        ("JD QD KD", "TS JS QS", "NS"),  # two tierces: the higher one
        ("QS KS AS", "QH KH AH", "nobody"),
    ],
)
def test_announces_rank_by_points_then_carre_then_height(north, east, best):
    """Choice: "announces are ranked by points, then a carré above a sequence, then by
    height"."""
    assert best_of(north, east) == best


def test_a_card_counts_in_a_carre_and_in_a_sequence():
    """Choice: "A card may count in a carré and a sequence." """
    found = find_announces(mask_of(cards("JS JH JD JC QH KH 7C 9D")))
    assert sorted((a.kind, a.points) for a in found) == [("carre", 200), ("tierce", 20)]


# ---------------------------------------------------------------------------------------
# Play


def test_overtrump_even_the_partner():
    """000: "À l'atout, il faut monter si on le peut, même sur son partenaire." N leads
    AH: S, N's partner, must cover it with 9H."""
    assert playable(first_trick(RULES, TRUMP_LED, "AH 7H")) == {"9H"}


def test_void_must_trump():
    """000: "Sans la couleur, il faut couper"."""
    assert playable(first_trick(RULES, VOID_IN_SPADES, "7S KS")) == {"JH", "7H"}


def test_void_must_overtrump_an_opponent():
    """000: "et surcouper si un adversaire a déjà coupé"."""
    assert playable(first_trick(RULES, OVERCUT, "7S 8H")) == {"9H"}


def test_cannot_overtrump_must_undertrump():
    """000: "si on ne peut pas surcouper, on sous-coupe." """
    assert playable(first_trick(RULES, OVERCUT, "7S JH")) == {"9H", "7H"}


@pytest.mark.parametrize(
    ("position", "plays", "hand"),
    [
        (VOID_IN_SPADES, "AS 8S", "JH 7H AC KC QC JC TC 9C"),
        (PARTNER_CUTS, "7S 9H 7H", "JH 8H AH TH KH QH 7D 7C"),
    ],
)
def test_partner_master_frees(position, plays, hand):
    """000: "Exception : si votre partenaire est maître, vous pouvez jouer n'importe
    quelle carte." """
    assert playable(first_trick(RULES, position, plays)) == cards_set(hand)


# ---------------------------------------------------------------------------------------
# Scoring


def test_contract_made_counts_cards_and_belote():
    """000: "L'équipe preneuse doit faire plus de points que la défense (cartes + belote +
    annonces). Alors chaque équipe marque ses points." NS: 76 + belote 20 against 86."""
    result = score(played(RULES, "H", "N", hearts_deal(76, "NS")))
    assert [result.made, result.points] == [True, (96, 86)]


def test_contract_counts_announces():
    """000: "plus de points que la défense (cartes + belote + annonces)": NS have 79 card
    points against 83, and a carré of jacks."""
    result = score(played(WITH_ANNOUNCES, "H", "N", CARRES_DEAL))
    assert [result.made, result.points] == [True, (79 + 200, 83)]


def test_dedans_the_defence_scores_162():
    """000: "Sinon le preneur est dedans : la défense marque 162 points plus toutes les
    annonces." """
    result = score(played(RULES, "H", "N", hearts_deal(76)))
    assert [result.made, result.winner, result.points] == [False, 1, (0, 162)]


def test_dedans_the_defence_scores_all_the_announces():
    """000: "la défense marque 162 points plus toutes les annonces": EW take and make 83
    against 79 + 200."""
    result = score(played(WITH_ANNOUNCES, "H", "E", CARRES_DEAL))
    assert [result.made, result.points] == [False, (162 + 200, 0)]


def test_belote_stays_with_its_team_when_dedans():
    """000: "Ils restent à l'équipe qui les a, même si elle est dedans." NS: 62 + 20
    against 100."""
    result = score(played(RULES, "H", "N", hearts_deal(62, "NS")))
    assert [result.made, result.points] == [False, (20, 162)]


def test_litige_holds_the_takers_points():
    """000: "Litige (égalité) : la défense marque ses points, ceux du preneur sont mis de
    côté et reviennent au vainqueur de la donne suivante." """
    result = score(played(RULES, "H", "N", hearts_deal(81)))
    assert [result.litige, result.points, result.held, result.winner] == [True, (0, 81), 81, -1]


def test_the_takers_belote_is_scored_at_once_in_a_litige():
    """Preset: "The taker's belote is scored at once in a litige: "ils restent à l'équipe
    qui les a"." NS tie at 91 (71 + belote 20): the 71 are held, the belote scores now."""
    result = score(played(RULES, "H", "N", litige_with_the_takers_belote()))
    assert [result.tricks, result.belote] == [(71, 91), (20, 0)]
    assert [result.litige, result.points, result.held] == [True, (20, 91), 71]


@pytest.mark.parametrize(
    ("next_hand", "scores"),
    [
        (hearts_deal(88), (74, 81 + 88 + 81)),  # W's team makes its contract
        (hearts_deal(76), (162 + 81, 81)),  # W's team is dedans: NS win the hand
    ],
)
def test_litige_points_go_to_the_winner_of_the_next_hand(next_hand, scores):
    """Preset: "the taker's points are held for the winner of the next hand (the taker's
    team if it makes its contract, else the defence)". N deals the next hand and W takes
    it: the play of ``next_hand`` moved one seat to the right."""
    litige = played(RULES, "H", "N", hearts_deal(81))
    game = record_hand(game_for(litige), litige)
    assert [game.scores, game.held, SEATS[game.dealer]] == [(0, 81), 81, "N"]
    game = record_hand(game, played(RULES, "H", "W", rotated(next_hand, 3)))
    assert [game.scores, game.held] == [scores, 0]


def test_held_points_wait_for_a_hand_with_a_winner():
    """Preset: "Choice (not stated): a hand that nobody takes, or another litige, has no
    winner: the held points wait for the next hand that has one." After the litige (E
    dealt), N deals a hand everybody passes, W deals another litige, S deals a hand EW
    make: EW get both litiges' 81."""
    litige = played(RULES, "H", "N", hearts_deal(81))
    game = record_hand(game_for(litige), litige)
    passed = apply_all(deal(RULES, game.dealer, IN_ORDER), ["pass"] * 8)
    game = record_hand(game, passed)
    assert [game.scores, game.held, SEATS[game.dealer]] == [(0, 81), 81, "W"]
    game = record_hand(game, played(RULES, "H", "S", rotated(hearts_deal(81), 2)))
    assert [game.scores, game.held] == [(0, 162), 162]
    game = record_hand(game, played(RULES, "H", "E", rotated(hearts_deal(88), 1)))
    assert [game.scores, game.held] == [(74, 162 + 88 + 162), 0]


def test_a_litige_that_wins_the_game_leaves_its_held_points_to_nobody():
    """Preset: "when the game is won on a litige hand (the defence reaches the target: "La
    première équipe à 1000 points (option : 501) gagne"), there is no next hand and the
    held points go to nobody". EW defend from 920 and reach 1001; NS's 81 are lost."""
    litige = played(RULES, "H", "N", hearts_deal(81))
    game = record_hand(game_for(litige, (900, 920)), litige)
    assert [game.scores, game.winner, game.held] == [(900, 1001), 1, 81]
    with pytest.raises(ValueError, match="the game is over"):
        start_hand(game, IN_ORDER)


def test_capot_252_and_the_capot_team_loses_its_announces_not_its_belote():
    """000: "Capot (tous les plis) : 252 points au lieu de 162 ; l'équipe capot perd ses
    annonces (pas la belote)." EW take no trick: E's cinquante is lost, W's belote kept."""
    result = score(played(WITH_ANNOUNCES, "H", "N", CAPOT_DEAL))
    assert [result.capot, result.announces, result.belote] == [0, (0, 0), (0, 20)]
    assert result.points == (252, 20)


# NS take every trick and S holds a tierce (Q K A of clubs); E holds the best announce,
# a cinquante (7 to 10 of diamonds), and W the belote. CAPOT_DEAL, S's 9C and W's QC
# swapped.
CAPOT_OVER_THE_BEST_ANNOUNCE = [
    "N:JH W:QH S:QC E:7H",  # 26
    "N:9H W:KH S:8S E:TH",  # 28
    "N:AS W:7S S:JS E:7C",  # 13
    "N:TS W:9S S:QD E:8C",  # 13
    "N:AD W:9C S:JD E:7D",  # 13
    "N:KD W:JC S:KC E:8D",  # 10
    "N:AH W:KS S:TC E:9D",  # 25
    "N:8H W:QS S:AC E:TD",  # 24 + 10
]


def test_capot_over_the_best_announce_nobody_scores_announces():
    """Preset: "if that team held the best announce, nobody scores announces (the other
    team's were beaten by it)"; 000: "Seule l'équipe ayant la meilleure annonce marque"
    and "l'équipe capot perd ses annonces (pas la belote)". E's cinquante beats S's
    tierce and is lost with the capot: S's tierce scores nothing either."""
    state = played(WITH_ANNOUNCES, "H", "N", CAPOT_OVER_THE_BEST_ANNOUNCE)
    assert state.declared == 1 << seat("S") | 1 << seat("E")
    result = score(state)
    assert [result.capot, result.announces, result.belote] == [0, (0, 0), (0, 20)]
    assert result.points == (252, 20)


# ---------------------------------------------------------------------------------------
# The game


def test_game_in_1000_or_501():
    """000: "La première équipe à 1000 points (option : 501) gagne"."""
    assert PRESET_TARGETS["classique"] == (1000, 501)
    hand = played(RULES, "H", "N", hearts_deal(88))
    assert record_hand(game_for(hand, (950, 900)), hand).winner == 0
    assert record_hand(game_for(hand, (450, 300)), hand).winner == -1
    hand = played(RULES, "H", "N", hearts_deal(88), target=501)
    assert record_hand(game_for(hand, (450, 300)), hand).winner == 0


def test_both_over_the_target_the_higher_wins():
    """000: "si les deux dépassent le but, la plus haute gagne." """
    hand = played(RULES, "H", "N", hearts_deal(88))
    game = record_hand(game_for(hand, (950, 990)), hand)
    assert [game.scores, game.winner] == [(1038, 1064), 1]


def test_equal_totals_over_the_target_play_on():
    """Choice: "equal totals over the target are not settled by the document; the game
    goes on until one is ahead." """
    hand = played(RULES, "H", "N", hearts_deal(88))
    game = record_hand(game_for(hand, (926, 940)), hand)
    assert [game.scores, game.winner, game.over] == [(1014, 1014), -1, False]
    game = record_hand(game, played(RULES, "H", "W", rotated(hearts_deal(88), 3)))
    assert [game.scores, game.winner] == [(1014 + 74, 1014 + 88), 1]
