"""The five rules presets, one per document of ``shared/rules``.

Each preset is a function whose docstring records how its document was read: what it
states, and what was chosen where it is silent or ambiguous. Where a document says
nothing, the preset keeps the classique rule (the ``Rules`` defaults). ``PRESETS`` maps
the preset names to their ``Rules`` values; ``PRESET_DOCS`` to these docstrings.
"""

from __future__ import annotations

from collections.abc import Callable

from .options import Rules

PRESETS: dict[str, Rules] = {}
PRESET_DOCS: dict[str, str] = {}
# The targets each document offers a table, the preset's own target first.
PRESET_TARGETS: dict[str, tuple[int, ...]] = {}


def _preset(*targets: int) -> Callable[[Callable[[], Rules]], Callable[[], Rules]]:
    def register(build: Callable[[], Rules]) -> Callable[[], Rules]:
        rules = build()
        assert rules.target == targets[0]
        PRESETS[build.__name__] = rules
        PRESET_DOCS[build.__name__] = (build.__doc__ or "").strip()
        PRESET_TARGETS[build.__name__] = targets
        return build

    return register


@_preset(1000, 501)
def classique() -> Rules:
    """Belote classique (000): no announces but the belote, game in 1000 (option 501).

    - "on donne et on joue dans le sens inverse des aiguilles d'une montre": the first
      speaker ("en commençant à droite du donneur") and the first leader ("Le joueur à
      droite du donneur entame") are on the dealer's right; the next dealer is the next
      player counter-clockwise, also after two rounds of passes ("le joueur suivant
      redistribue"). Choice (not stated): the second round starts again on the dealer's
      right.
    - Deal 3 then 2, the next card turned; the taker gets it and 2 more, the others 3.
    - Second round: "chacun peut choisir une autre couleur comme atout ou passer": another
      suit than the turned card's, which can no longer be named
      (``second_round_excludes_turned``), and a suit, never sans atout or tout atout.
    - Must overtrump "même sur son partenaire"; void: trump, overtrump an opponent's trump,
      undertrump when unable; partner master: any card ("vous pouvez jouer n'importe
      quelle carte", a trump under the partner's included).
    - Contract: more points than the defence, counting cards, belote and announces; a tie
      is a litige: the defence scores, the taker's points are held for the winner of the
      next hand (the taker's team if it makes its contract, else the defence). Choice
      (not stated): a hand that nobody takes, or another litige, has no winner: the held
      points wait for the next hand that has one. The taker's belote is scored at once in
      a litige: "Ils restent à l'équipe qui les a, même si elle est dedans"
      (``belote_kept``). Choice: when the game is won on a litige hand (the defence
      reaches the target: "La première équipe à 1000 points (option : 501) gagne"),
      there is no next hand and the held points go to nobody; the finished game keeps
      them as held (``Game.held``), unscored.
    - Dedans: the defence scores 162 plus all the announces; belote stays with its team.
    - Capot 252; "l'équipe capot perd ses annonces (pas la belote)": the team without a
      trick loses its announces, not its belote. Choice (not stated): the best announce
      is found first ("seule l'équipe ayant la meilleure annonce marque"), then the team
      without a trick loses it: if that team held the best announce, nobody scores
      announces (the other team's were beaten by it).
    - Option announces: made automatically (``announces="auto"``), only the best scores.
      Choice (not stated): announces are ranked by points, then a carré above a
      sequence, then by height; two equal best announces of both teams score nothing
      ("seule l'équipe ayant la meilleure annonce marque": neither has it). A card may
      count in a carré and a sequence. The document does not count the cards of "tierce
      20, cinquante 50, cent 100": three, four, and five or more (003: "cinq et plus").
    - Both teams over the target: the higher wins. Choice: equal totals over the target
      are not settled by the document; the game goes on until one is ahead.
    """
    return Rules()


@_preset(1000, 501)
def annonces() -> Rules:
    """Belote avec annonces (001): each player decides to announce.

    - Deal 5 each and one turned card; "le prochain distributeur sera le joueur se
      trouvant à gauche du précédent distributeur": the deal passes to the left, also
      after two rounds without a taker, and "c'est le joueur qui se trouve à gauche du
      donneur qui commence" the play. Yet "c'est le joueur placé à droite du premier
      donneur qui décide en premier": the first speaker sits on the dealer's right.
      Choice (the direction is not stated): we keep all three statements as written and
      play clockwise (the two statements about the left agree on it), so the bidding
      starts on the dealer's right and goes on clockwise, in both rounds.
    - Second round: "chaque joueur peut décider du choix de la couleur d'Atout": the
      trump suit of the player's choosing. Unlike 000, 002, 003 and 004 the document
      says no "autre couleur", so the turned suit may be named again
      (``second_round_excludes_turned=False``).
    - Announces are declared by the player (``announces="declared"``): "chaque joueur
      décide ou non de faire une annonce". Choice (when is not stated beyond "Après avoir
      choisi l'Atout"): at their turn in the first trick, before playing their card. Only
      the best team scores ("l'équipe qui possède la meilleure annonce marque"); equal
      best announces score nothing, as in classique. The list of the announces' values is
      missing from the document ("Les valeurs des annonces sont les suivantes :" and
      nothing): classique's values, sequences in the order it gives.
    - Partner master: "on peut, seulement si son partenaire est maître du pli, ne pas
      couper": may discard. Going higher (over the partner's trump, or over an opponent's
      when void) is not stated: kept as classique. A void player who cannot go higher
      still trumps: "à défaut couper à l'Atout quand on ne possède pas la couleur
      demandée".
    - Contract: 82 points counting the belote ("sans oublier d'ajouter les points
      éventuels de la Belote"), announces not counted ("ce qui compte c'est la somme de
      la valeur des cartes gagnées"). 81 against 81 is no litige: "l'équipe prenante n'a
      pas réalisé son contrat, ce qui signifie qu'elle n'a pas comptabilisé 82 points":
      the taker is dedans, nothing is held (``litige="taker_fails"``). Capot not stated:
      as in classique.
    - Dedans: 162 plus the belote and the announces to the defence; the taker keeps only
      its belote ("seulement ceux comptabilisés par la belote"; the document's "12
      points de la belote" is read as the 20 it gives the belote above).
    - Belote 20 "quelque soit l'ordre". Target not stated: 1000 as in classique, and so
      are two teams over the target.
    """
    return Rules(
        direction="clockwise",
        first_speaker="right",
        first_leader="left",
        next_dealer="left",
        deal_pattern=(5,),
        second_round_excludes_turned=False,
        announces="declared",
        contract="points",
        contract_counts_belote=True,
        contract_counts_announces=False,
        litige="taker_fails",
    )


@_preset(1000, 500, 1500)
def moderne() -> Rules:
    """Belote moderne (002): a take can be covered in sans atout, then in tout atout.

    - "La classique, avec une porte de plus": dealing, speaking and playing as in
      classique, and "On parle comme à la classique : au premier tour on prend à la
      couleur de la retourne, au second on peut nommer une autre couleur": in the second
      round the turned suit can no longer be named (``second_round_excludes_turned``).
    - Surenchère: "Une prise ne ferme plus le tour"; a take in a suit can be covered by
      SA or TA, SA by TA; TA cannot be covered, so the bidding ends at once on a TA (the
      three passes that would follow are forced). You may cover your partner's bid,
      never your own. The bidding ends "après une prise suivie de trois « passe »". Choice
      (not stated, and SA or TA is no "couleur"): SA and TA are only covers; nobody opens
      the bidding in SA or TA. The player who holds the last bid is the taker and
      receives the turned card and 2 more, as in classique.
    - SA: no trump, every suit A 10 K Q J 9 8 7, the ace worth 19; no belote. TA: every
      suit in trump order, J 13, 9 9, A 6, 10 5, K 3, Q 2; must always go higher; a belote
      in every suit. Both sum to 162 with the dix de der.
    - Play: must overtrump the highest trump in the trick, undertrump when unable, cut
      when an opponent is master, partner master: "vous pouvez vous défausser
      librement". Choice (the page defers to "la page des règles" for the obligations
      common to all belotes): read as classique's "n'importe quelle carte", a trump under
      the partner's included.
    - "Le décompte est celui de la classique : contrat à 82, dedans à 162, litige à 81
      partout, capot à 252". Choice: "contrat à 82" is the 82 of 162 of the classique
      count, which we keep as a whole (more than the defence, belote included; the
      belote stays with its team; held points of a litige that ends the game go to
      nobody).
    - Options of the Salon, on by default here (the document does not say whether they
      are): "main nulle" ("moins de 11 points et pas d'atout": read as no card of the
      turned suit among the five first cards, counted at the plain values) and "carré de
      7" (the four 7s) let a player ask for a redeal "en parlant": at their turn to speak,
      in either round, while nobody has taken.
    - Announces are not stated: off, as in classique. Game in 1000, 500 or 1500.
    """
    return Rules(bidding="surenchere", redeal_main_nulle=True, redeal_four_sevens=True)


@_preset(501, 1001, 1501)
def stekius() -> Rules:
    """Stekius (003): announces, the exchange of the trump 7, game in 501.

    - Direction of play, first speaker, first leader and next dealer not stated:
      counter-clockwise from the dealer's right, as in classique. Deal 3 then 2 ("trois
      puis deux"), the next card turned.
    - "Au deuxième tour, tu peux nommer une autre couleur ou passer": in the second round
      the turned suit can no longer be named (``second_round_excludes_turned``).
    - "Au premier tour, celui qui a le 7 d'atout peut l'échanger contre la carte
      retournée." Choice (when is not stated): at their turn to speak in the first round,
      before taking or passing, the holder of the 7 of the turned suit may swap it for
      the turned card (once a hand); the 7 becomes the turned card, and whoever takes
      receives it.
    - Announces "se font avant le premier pli". Choice (how is not stated): they are made
      automatically (the site lights the legal cards and announces for the player). "En
      cas d'égalité, l'équipe qui a pris, sinon personne": equal best announces go to the
      taker's team.
    - Play: "Si tu n'en as pas, tu dois couper avec un atout. Un atout doit monter au-
      dessus des atouts déjà dans le pli, quand il le peut": the document gives no
      partner-master exception, so a void player must trump even when the partner is
      master (``partner_master_frees=False``), and one who cannot go higher still trumps
      (undertrumps).
    - Contract: "L'équipe qui a pris doit marquer plus de points que l'autre. Sinon elle
      est « dedans », et l'autre équipe marque tout": 162 (or the capot), every announce
      and every belote, the taker's included; the taker's team scores nothing
      (``belote_kept=False``: unlike 000, the document keeps no belote for its team).
      Litige: "l'autre équipe marque ses propres points, et les points de l'équipe qui a
      pris restent en suspens pour celle qui gagnera la donne suivante": all the
      taker's points, its belote included, are held. Choice (not stated): as in
      classique, when the litige ends the game there is no next hand and they go to
      nobody.
    - Capot 250. Announces of the team without a trick are not stated: lost as in
      classique (if it held the best announce, nobody scores announces). Game in 501,
      1001 or 1501; "La première équipe qui atteint les points de la table gagne": both
      over the target at once is not stated, the higher wins as in classique.
    - "Jetons et départ" and the other table features are the site's, not rules of the
      game. Bots "aux places libres" are the tables' bots (games/bots/, a level per
      seat), and "seules celles que tu as le droit de jouer s'allument" is the board
      lighting the legal cards: both are built, outside the engine. The chips ("jetons
      virtuels") and the leave penalty ("pénalité d'abandon") are not built: the product
      has no money or chips economy, and a player who leaves is not charged: a stand-in
      bot plays for them at a live table, and their clock runs out under the table's
      timeout policy (a bot's move, or the game lost by forfeit).
    """
    return Rules(
        announces="auto",
        announce_tie="taker",
        seven_exchange=True,
        partner_master_frees=False,
        belote_kept=False,
        capot_points=250,
        target=501,
    )


@_preset(501)
def belote_com() -> Rules:
    """Belote.com (004): clockwise, 5 cards dealt, no announces, game in 501.

    - "Les cartes sont distribuées dans le sens des aiguilles d'une montre en commençant
      par le joueur situé à la gauche du donneur"; the player on the dealer's left speaks
      ("est le premier à parler") and leads ("joue en premier") first; the next dealer is
      on the left, also after everybody passed.
    - Second round: any suit "sauf la couleur qui était en premier lieu proposée".
    - Play: partner master: "il peut jouer n'importe quelle carte"; but "les joueurs
      jouant atout doivent obligatoirement monter sur un autre atout déjà joué s'ils le
      peuvent", partner's included: a void player whose partner is master may discard,
      and if they trump, must go over the trump in the trick when they can
      (``free_trumps_go_higher``). Otherwise a void player "doit couper à l'aide d'un
      atout (s'il le peut)": with a trump, a trump, under the trump in the trick when
      they cannot go over it.
    - Contract: 82 points from tricks, belote excluded ("il est indispensable de réaliser
      minimum 82 points de plis"). "Si une Belote/Rebelote est annoncée, alors l'objectif
      du contrat n'est plus de 82 points mais de 92": read as the taker's tricks plus its
      own belote must reach 92 whenever a belote is announced, on top of the 82 from
      tricks; so a defence with the belote makes the taker need 92 from tricks.
    - Litige (81-81): the taker fails. Dedans: taker 0 plus its belote, defence 162 plus
      its belote. Capot 252 (dix de der worth 100). No announces but the belote: the
      document names none.
    - Both teams over 501: the higher wins; equal totals: the winner of the last hand.
    """
    return Rules(
        direction="clockwise",
        first_speaker="left",
        first_leader="left",
        next_dealer="left",
        deal_pattern=(5,),
        free_trumps_go_higher=True,
        contract="points",
        contract_counts_belote=False,
        contract_counts_announces=False,
        belote_contract_points=92,
        litige="taker_fails",
        target=501,
        tie_break="last_hand_winner",
    )


def rules_for(preset: str, options: dict | None = None) -> Rules:
    """The rules of a preset with a table's overrides; KeyError for an unknown preset."""
    rules = PRESETS[preset]
    return rules.with_options(**options) if options else rules
