"""Main and side pots, and sharing them out.

Rules (docs/rules.md, "Pots"):
- each side pot is split separately (TDA 18; US 12 side pots);
- a tie splits the pot; odd chips are broken into the smallest chip in play
  and go one by one to the winners clockwise from the first seat left of the
  button (LPPL "If there is an odd chip(s) it goes to the player(s) to the
  left of the dealer"; TDA 17).
"""

from .button import clockwise_from


def side_pots(contrib, live, allin=None):
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
    levels = sorted(set(contrib[s] for s in caps if contrib.get(s, 0) > 0))
    top = 0
    for s in live:
        if contrib.get(s, 0) > top:
            top = contrib[s]
    if top and (not levels or levels[-1] < top):
        levels.append(top)
    pots = []  # type: list
    low = 0
    for top in levels:
        amount = 0
        for s in contrib:
            c = contrib[s]
            if c > low:
                amount += (c if c < top else top) - low
        elig = sorted(s for s in live if contrib.get(s, 0) >= top)
        if amount:
            pots.append([amount, elig])
        low = top
    # chips above the highest live contribution (folded over-bets) join the last pot
    extra = 0
    for s in contrib:
        if contrib[s] > low:
            extra += contrib[s] - low
    if extra:
        if pots:
            pots[-1][0] += extra
        else:
            pots.append([extra, sorted(live)])
    return [(a, e) for a, e in pots]


def split(amount, winners, button, n, chip):
    """Share *amount* among *winners*: equal shares in units of *chip*, odd
    units one each clockwise from the first seat left of *button*.

    Returns ``{seat: chips}``.
    """
    order = clockwise_from(button, n, winners)
    units = amount // chip
    rest = amount - units * chip  # less than one chip: goes with the first odd chip
    each = units // len(order)
    odd = units - each * len(order)
    out = {}
    for i, s in enumerate(order):
        out[s] = each * chip + (chip if i < odd else 0)
    out[order[0]] += rest
    return out


def award(pots, ranking, button, n, chip):
    """Give each pot to the best tier of *ranking* among its eligible seats.

    :param ranking: list of tiers (lists of seats), best first.
    :returns: ``{seat: chips won}``.
    """
    won = {}  # type: dict
    for amount, elig in pots:
        winners = None
        for tier in ranking:
            w = [s for s in tier if s in elig]
            if w:
                winners = w
                break
        if winners is None:  # cannot happen with a complete ranking
            winners = elig
        for s, c in split(amount, winners, button, n, chip).items():
            won[s] = won.get(s, 0) + c
    return won


def coloured(chips, unit, up):
    """*chips* after a colour-up to *unit*: rounded up (TDA 21-A "rounded
    up", US 6) or to the nearest unit, half up (LPPL "to the nearest total
    of 100"); never to nothing."""
    n = (chips + unit - 1) // unit if up else (chips + unit // 2) // unit
    return (n if n else 1) * unit
