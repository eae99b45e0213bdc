"""Main and side pots, and sharing them out.

Rules (docs/rules.md, "Pots"):
- each side pot is split separately (TDA 18; US 12 side pots);
- a tie splits the pot; odd chips are broken into the smallest chip in play
  and go one by one to the winners clockwise from the first seat left of the
  button (LPPL "If there is an odd chip(s) it goes to the player(s) to the
  left of the dealer"; TDA 17).
"""

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


def share(won, amount, group, button, n, chip, contrib=None, least=0):
    # type: (Dict[int, int], int, Container[int], int, int, int, Optional[Dict[int, int]], int) -> None
    """Add the shares of *amount* (split) to ``won`` {seat: chips}: among the seats of *group*,
    or, with *contrib* ({seat: chips put in}), those of them that put in at least *least*.
    The seats are counted and then walked clockwise, no list of them built (issue #20)."""
    k = 0
    for seat in range(1, n + 1):
        if seat in group and (contrib is None or contrib.get(seat, 0) >= least):
            k += 1
    units = amount // chip
    rest = amount - units * chip  # less than one chip: goes with the first odd chip
    each = units // k
    odd = units - each * k
    i = 0
    seat = button
    for _ in range(n):
        seat = seat % n + 1
        if seat in group and (contrib is None or contrib.get(seat, 0) >= least):
            won[seat] = (won.get(seat, 0) + each * chip + (chip if i < odd else 0)
                         + (rest if i == 0 else 0))
            i += 1


def award_into(won, contrib, live, ranking, button, n, chip):
    # type: (Dict[int, int], Dict[int, int], List[int], List[List[int]], int, int, int) -> None
    """Give each pot of ``side_pots(contrib, live)`` to the best tier of *ranking* (tiers of live
    seats, best first) among its eligible seats, adding the chips won to ``won`` {seat: chips}.

    The pots are walked layer by layer, not built: no list per pot, per winning tier or per
    clockwise order (issue #20: about 500 B of every showdown, bench alloc_showdown_p99).
    """
    high = 0  # the highest live contribution: the last pot's top
    for seat in live:
        if contrib.get(seat, 0) > high:
            high = contrib[seat]
    extra = 0  # chips above it (folded over-bets) join the last pot
    for seat in contrib:
        if contrib[seat] > high:
            extra += contrib[seat] - high
    low = 0
    while True:
        top = 0  # the next layer's top: the smallest live contribution above low
        for seat in live:
            c = contrib.get(seat, 0)
            if c > low and (not top or c < top):
                top = c
        if not top:
            break
        amount = extra if top == high else 0
        for seat in contrib:
            c = contrib[seat]
            if c > low:
                amount += (c if c < top else top) - low
        _award_pot(won, amount, contrib, top, live, ranking, button, n, chip)
        low = top
    if not high and extra:  # nobody live put chips in: one pot for all of them
        _award_pot(won, extra, contrib, 0, live, ranking, button, n, chip)


def _award_pot(won, amount, contrib, least, live, ranking, button, n, chip):
    """One pot of award_into: the live seats that put in at least *least* may win it."""
    group = live  # stays so only with an incomplete ranking
    for tier in ranking:
        for seat in tier:
            if contrib.get(seat, 0) >= least:
                group = tier
                break
        if group is not live:
            break
    share(won, amount, group, button, n, chip, contrib, least)


def coloured(chips, unit, up):  # type: (int, int, bool) -> int
    """*chips* after a colour-up to *unit*: rounded up (TDA 21-A "rounded
    up", US 6) or to the nearest unit, half up (LPPL "to the nearest total
    of 100"); never to nothing."""
    n = (chips + unit - 1) // unit if up else (chips + unit // 2) // unit
    return (n if n else 1) * unit
