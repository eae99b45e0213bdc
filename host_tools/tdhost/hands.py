"""Cards the TD types ("As Kd", "10h 9h", board "Ah 7d 2c 9s Tc") and the ranking of
showdown hands, by pokerkit's StandardHighHand (best five of hole cards plus board).
pokerkit is imported only when cards are ranked (it takes a quarter of a second)."""

import re

RANKS = "23456789TJQKA"
SUITS = "shdc"


class CardError(ValueError):
    """Cards that cannot be read; str(err) is a sentence."""


def parse(text, what):
    """A list of cards like ["As", "Kd"] from *text* ("As Kd", "AsKd", "as,kd", "10s")."""
    if not isinstance(text, str) or not text.strip():
        raise CardError("%s: no cards given" % what)
    s = re.sub(r"[\s,]+", "", text).replace("10", "T")
    if len(s) % 2:
        raise CardError("%s: %r is not a list of cards like \"As Kd\"" % (what, text))
    cards = []
    for i in range(0, len(s), 2):
        r, u = s[i].upper(), s[i + 1].lower()
        if r not in RANKS or u not in SUITS:
            raise CardError("%s: %r is not a card (ranks 2-9 T J Q K A, suits s h d c)"
                            % (what, s[i:i + 2]))
        cards.append(r + u)
    return cards


def check_deal(hands, board):
    """*hands* {player: [2 cards]}, *board* [3..5 cards]: refuse wrong counts and a card
    seen twice."""
    for p, cs in hands.items():
        if len(cs) != 2:
            raise CardError("%s: hold'em hands have two hole cards, not %d" % (p, len(cs)))
    if not 3 <= len(board) <= 5:
        raise CardError("the board has 3 to 5 cards, not %d" % len(board))
    seen = {}
    for who, cs in list(hands.items()) + [("the board", board)]:
        for c in cs:
            if c in seen:
                raise CardError("%s is given twice (%s and %s)" % (c, seen[c], who))
            seen[c] = who


def rank(hands, board):
    """{player: (comparable strength, description)} for each hand with the board."""
    from pokerkit import StandardHighHand

    out = {}
    for p, cs in hands.items():
        h = StandardHighHand.from_game("".join(cs), "".join(board))
        out[p] = (h, "%s (%s)" % (h.entry.label.value.lower(), " ".join(map(repr, h.cards))))
    return out
