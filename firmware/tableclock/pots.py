"""Main and side pots, and sharing them out.

Rules (docs/rules.md, "Pots"):
- each side pot is split separately (TDA 18; US 12 side pots);
- a tie splits the pot; odd chips are broken into the smallest chip in play
  and go one by one to the winners clockwise from the first seat left of the
  button (LPPL "If there is an odd chip(s) it goes to the player(s) to the
  left of the dealer"; TDA 17).
"""

from .button import clockwise_from

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Container, Dict, Iterable, List, Optional, Tuple  # noqa: F401
    _Pot = Tuple[int, List[int]]  # (amount, eligible seats): side_pots


def side_pots(contrib, live, allin=None):
    # type: (Dict[int, int], Iterable[int], Optional[Iterable[int]]) -> List[_Pot]
    """Layer total contributions into pots.

    :param contrib: ``{seat: chips put in this hand}`` (folded seats too).
    :param live: seats still holding cards (who can win).
    :param allin: the live seats with no chips left; when given, pots are
        split only at their contributions (a bet not yet called is not a
        side pot), else at every live contribution.
    :returns: list of ``(amount, [eligible seats])`` from the main pot out.
        A layer nobody live contributed to is merged into the pot below it.
    """
    caps = live if allin is None else allin
    # the distinct contributions of *caps*, ascending: a short list sorted in
    # place, no set or generator (issue #20: about 400 B of every showdown)
    levels = []  # type: list
    for seat in caps:
        chips = contrib.get(seat, 0)
        if chips > 0 and chips not in levels:
            levels.append(chips)
    levels.sort()
    top = 0
    for seat in live:
        if contrib.get(seat, 0) > top:
            top = contrib[seat]
    if top and (not levels or levels[-1] < top):
        levels.append(top)
    pots = []  # type: list
    low = 0
    for top in levels:
        amount = 0
        for seat in contrib:
            chips = contrib[seat]
            if chips > low:
                amount += (chips if chips < top else top) - low
        if amount:
            elig = []
            for seat in live:
                if contrib.get(seat, 0) >= top:
                    elig.append(seat)
            elig.sort()
            pots.append((amount, elig))
        low = top
    # chips above the highest live contribution (folded over-bets) join the last pot
    extra = 0
    for seat in contrib:
        if contrib[seat] > low:
            extra += contrib[seat] - low
    if extra:
        if pots:
            pots[-1] = (pots[-1][0] + extra, pots[-1][1])
        else:
            pots.append((extra, sorted(live)))
    return pots


def split(amount, winners, button, n, chip):
    # type: (int, Container[int], int, int, int) -> Dict[int, int]
    """Share *amount* among *winners*: equal shares in units of *chip*, odd
    units one each clockwise from the first seat left of *button*.

    Returns ``{seat: chips}``.
    """
    out = {}  # type: Dict[int, int]
    share(out, amount, winners, button, n, chip)
    return out


def share(won, amount, winners, button, n, chip):
    # type: (Dict[int, int], int, Container[int], int, int, int) -> None
    """Add the shares of *amount* (split) to ``won`` {seat: chips}."""
    order = clockwise_from(button, n, winners)
    units = amount // chip
    rest = amount - units * chip  # less than one chip: goes with the first odd chip
    each = units // len(order)
    odd = units - each * len(order)
    i = 0
    for seat in order:
        won[seat] = (won.get(seat, 0) + each * chip + (chip if i < odd else 0)
                     + (rest if i == 0 else 0))
        i += 1


def award(pots, ranking, button, n, chip):
    # type: (Iterable[_Pot], Iterable[Iterable[int]], int, int, int) -> Dict[int, int]
    """Give each pot to the best tier of *ranking* among its eligible seats.

    :param ranking: list of tiers (lists of seats), best first.
    :returns: ``{seat: chips won}``.
    """
    won = {}  # type: Dict[int, int]
    for amount, elig in pots:
        winners = None
        for tier in ranking:  # a loop, not a comprehension: no function object (issue #20)
            for seat in tier:
                if seat in elig:
                    if winners is None:
                        winners = []
                    winners.append(seat)
            if winners is not None:
                break
        if winners is None:  # cannot happen with a complete ranking
            winners = elig
        share(won, amount, winners, button, n, chip)  # no dict per pot
    return won


def coloured(chips, unit, up):  # type: (int, int, bool) -> int
    """*chips* after a colour-up to *unit*: rounded up (TDA 21-A "rounded
    up", US 6) or to the nearest unit, half up (LPPL "to the nearest total
    of 100"); never to nothing."""
    n = (chips + unit - 1) // unit if up else (chips + unit // 2) // unit
    return (n if n else 1) * unit
