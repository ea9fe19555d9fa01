"""Small helpers that build positions for rule tests from card codes."""

from __future__ import annotations

from games.rules import PRESETS, SEATS, Rules, deal, parse_cards, start_with_contract
from games.rules.hand import _deal_order


def seat(name: str) -> int:
    return SEATS.index(name)


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def stacked_deck(
    rules: Rules, dealer: str, hands: dict[str, str], turned: str, taker: str | None = None
) -> list[int]:
    """A deck that deals ``hands`` (8 cards each, in the order written).

    Each seat receives the first five cards of its hand in the first distribution and
    the rest in the second; ``taker``'s hand lists the turned card among its last three
    and receives two more. Without a taker, hands of 5 cards may be given (the bidding
    alone is tested) and the rest of the deck is filled in any order.
    """
    turned_card = parse_cards(turned)[0]
    per_seat = {seat(s): list(parse_cards(h)) for s, h in hands.items()}
    order = _deal_order(rules, seat(dealer))
    deck: list[int] = []
    offset = {s: 0 for s in range(4)}
    for packet in rules.deal_pattern:
        for s in order:
            deck.extend(per_seat[s][offset[s] : offset[s] + packet])
            offset[s] += packet
    deck.append(turned_card)
    for s in order:
        rest = [c for c in per_seat[s][5:] if c != turned_card]
        deck.extend(rest)
    used = set(deck)
    deck.extend(c for c in range(32) if c not in used)
    assert sorted(deck) == list(range(32)), "hands and turned card must not overlap"
    if taker is not None:
        assert turned_card in per_seat[seat(taker)][5:], "the taker's hand lists the turned card"
    return deck


def dealt(rules: Rules, dealer: str, hands: dict[str, str], turned: str, **kw):
    return deal(rules, seat(dealer), stacked_deck(rules, dealer, hands, turned, **kw))


def playing(
    preset: str | Rules,
    hands: dict[str, str],
    contract: str,
    taker: str,
    dealer: str = "N",
    **options,
):
    """A hand in play with these 8-card hands and contract (``"H"``, ``"SA"``, ``"TA"``)."""
    rules = PRESETS[preset] if isinstance(preset, str) else preset
    if options:
        rules = rules.with_options(**options)
    from games.rules import MODES

    return start_with_contract(
        rules,
        seat(dealer),
        [parse_cards(hands[s]) for s in SEATS],
        MODES.index(contract),
        seat(taker),
    )
