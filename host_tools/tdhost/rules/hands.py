"""Cards the TD types ("As Kd", "10h 9h", board "Ah 7d 2c 9s Tc") and the ranking of
showdown hands, by pokerkit's StandardHighHand (best five of hole cards plus board).
pokerkit is imported only when cards are ranked (it takes a quarter of a second)."""

import re
from collections.abc import Mapping, Sequence
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "shdc"


class CardError(ValueError):
    """Cards that cannot be read; str(err) is a sentence."""


def parse(text: object, what: str) -> list[str]:
    """A list of cards like ["As", "Kd"] from *text* ("As Kd", "AsKd", "as,kd", "10s")."""
    if not isinstance(text, str) or not text.strip():
        raise CardError("%s: no cards given" % what)
    compact = re.sub(r"[\s,]+", "", text).replace("10", "T")
    if len(compact) % 2:
        raise CardError("%s: %r is not a list of cards like \"As Kd\"" % (what, text))
    cards = []
    for i in range(0, len(compact), 2):
        rank, suit = compact[i].upper(), compact[i + 1].lower()
        if rank not in RANKS or suit not in SUITS:
            raise CardError("%s: %r is not a card (ranks 2-9 T J Q K A, suits s h d c)"
                            % (what, compact[i:i + 2]))
        cards.append(rank + suit)
    return cards


def check_deal(hands: Mapping[str, Sequence[str]], board: Sequence[str]) -> None:
    """*hands* {player: [2 cards]}, *board* [3..5 cards]: refuse wrong counts and a card
    seen twice."""
    for player, cards in hands.items():
        if len(cards) != 2:
            raise CardError("%s: hold'em hands have two hole cards, not %d"
                            % (player, len(cards)))
    if not 3 <= len(board) <= 5:
        raise CardError("the board has 3 to 5 cards, not %d" % len(board))
    seen: dict[str, str] = {}
    for who, cards in list(hands.items()) + [("the board", board)]:
        for card in cards:
            if card in seen:
                raise CardError("%s is given twice (%s and %s)" % (card, seen[card], who))
            seen[card] = who


def rank(hands: Mapping[str, Sequence[str]],
         board: Sequence[str]) -> dict[str, tuple[Any, str]]:
    """{player: (comparable strength, description)} for each hand with the board."""
    from pokerkit import StandardHighHand

    out = {}
    for player, cards in hands.items():
        hand = StandardHighHand.from_game("".join(cards), "".join(board))
        out[player] = (hand, "%s (%s)" % (hand.entry.label.value.lower(),
                                          " ".join(map(repr, hand.cards))))
    return out
