"""A dealer's hands: replay-contract events turned into key presses.  ``presses_for`` searches
the (pure) menu breadth first for the shortest run of presses that hands the table an event;
:class:`Dealer` also steps the amount entry, picks a showdown tier by tier, and hands the
table directly (``"via": "host"``) what the keys cannot make.  docs/simulator.md, "Scripts
(headless)" (How events become presses).
"""

import copy

from tcbox.menu import AMOUNT, COLOUR, MAIN, RANK, SEAT, SEATS, SETUP

BETTING = ("check", "call", "fold", "bet", "raise", "allin")
COMMENTS = ("note", "expect", "title", "source", "shot", "info", "instruct")
MAX_NODES = 20000


class DriverError(Exception):
    pass


def clean(event):
    """*event* without its comments (and without the optional seat of a
    betting action)."""
    out = {}
    for k in event:
        if k in COMMENTS:
            continue
        if k == "seat" and event.get("do") in BETTING:
            continue
        out[k] = event[k]
    return out


def same(ev, want, st):
    """Does the menu's *ev* do what *want* asks, in state *st*?"""
    a = ev.get("do")
    b = want.get("do")
    if a == "bet":
        a = "raise"
    if b == "bet":
        b = "raise"
    if st["to_call"] == 0 and a in ("call", "check") and b in ("call", "check"):
        return True  # a call facing no bet is a check (TDA 49-A)
    if b == "allin" and st["action"] is not None:
        seat = str(st["action"])
        top = st["bets"].get(seat, 0) + st["stacks"][seat]
        if a == "call" and st["bets"].get(seat, 0) + st["to_call"] >= top:
            return True  # all-in for less than the call is a call
        if a == "raise" and ev.get("to") == top:
            return True
    if a != b:
        return False
    for k in want:
        if k != "do" and ev.get(k) != want[k]:
            return False
    for k in ev:
        if k != "do" and k not in want:
            return False
    return True


def _key(m):
    return (m.mode, m.i, m.seat, m.amount, tuple(m.picked),
            tuple(tuple(t) for t in m.tiers), tuple(o[0] for o in m.options))


def search(menu, st, roles, goal, first=None):
    """Shortest list of (role, long) presses after which ``goal(ev, menu)``
    holds (*ev*: the event the last press handed over, or None); None when
    no press sequence reaches it.  Presses that hand over another event end
    their branch (the table would act on it).  Among equally short ones,
    short presses win, and the key *first* (the event's own key: Call for
    a call) before the others."""
    start = copy.deepcopy(menu)
    if goal(None, start):
        return []
    order = [r for r in roles if r == first] + [r for r in roles if r != first]
    moves = [(r, False) for r in order] + [(r, True) for r in order]
    frontier = [(start, [])]
    seen = {_key(start)}
    nodes = 0
    while frontier:
        nxt = []
        for m, path in frontier:
            for role, long in moves:
                m2 = copy.deepcopy(m)
                ev = m2.press(role, long, st)
                nodes += 1
                if goal(ev, m2):
                    return path + [(role, long)]
                if ev is not None:
                    continue
                m2.refresh(st)  # the box redraws after every press
                if goal(None, m2):
                    return path + [(role, long)]
                k = _key(m2)
                if k in seen:
                    continue
                seen.add(k)
                nxt.append((m2, path + [(role, long)]))
            if nodes > MAX_NODES:
                return None
        frontier = nxt
    return None


def presses_for(menu, st, roles, want):
    """Presses that make the menu hand over *want* (an event without the
    multi-step kinds), or None."""
    kind = want.get("do")
    first = {"check": "call", "bet": "raise", "allin": "raise"}.get(kind, kind)
    return search(menu, st, roles, lambda ev, m: ev is not None and same(ev, want, st), first)


def _after(menu, st, seq):
    m = copy.deepcopy(menu)
    for role, long in seq:
        m.press(role, long, st)
        m.refresh(st)
    return m


def amount_presses(menu, st, roles, to):
    """With the amount entry open: presses that set it to *to* and confirm,
    or None when the keys cannot make exactly *to*.  Tries stepping from
    where it is and (with a Raise key) a big blind up first; big-blind steps
    are long presses; the fewest presses win (a long one counts 1.5: it
    takes longer)."""
    up = "right" if "right" in roles else "raise"
    down = "left" if "left" in roles else "call"
    ok = "ok" if "ok" in roles else "hand"
    if up not in roles or down not in roles or ok not in roles:
        return None
    chip = st.get("chip") or 1
    bb = st["bb"] or chip
    starts = [[]]
    if "raise" in roles:
        starts.append([("raise", True)])  # a long Raise: a big blind up
    best = None
    for pre in starts:
        at = _after(menu, st, pre).amount
        seq = list(pre)
        d = to - at
        key = up if d > 0 else down
        d = abs(d)
        if d >= bb:  # in the amount entry a long Raise steps by the big blind
            seq += [(key, True)] * (d // bb)
            d -= (d // bb) * bb
        seq += [(key, False)] * (d // chip)
        m = _after(menu, st, seq)
        if m.mode != AMOUNT or m.amount != to:
            continue
        cost = 0
        for _role, long in seq:
            cost += 1.5 if long else 1
        if best is None or cost < best[0]:
            best = (cost, seq)
    if best is None:
        return None
    return best[1] + [(ok, False)]


class Dealer:
    """Plays events on a tcsim.sim.Sim through its keys."""

    def __init__(self, sim):
        self.sim = sim

    def _press_all(self, seq, log):
        for role, long in seq:
            self.sim.press(role, 700 if long else 80)
            log.append([role, "long" if long else "short"])

    def do(self, event):
        """Play *event*; returns {"presses": [[role, "short"|"long"], ...],
        "via": "keys"|"host"|"clock"}."""
        sim = self.sim
        want = clean(event)
        kind = want.get("do")
        log = []
        if kind == "tick":
            sim.tick(float(want.get("s", 0)))
            return {"presses": log, "via": "clock"}
        st = sim.box.state or sim.state()
        if kind in ("bet", "raise") and isinstance(want.get("to"), int):
            best = presses_for(sim.menu, st, sim.roles, want)  # an option of its own?
            seq = search(sim.menu, st, sim.roles, lambda ev, m: ev is None and m.mode == AMOUNT)
            if seq is not None:
                m = _after(sim.menu, st, seq)
                rest = amount_presses(m, st, sim.roles, want["to"])
                if rest is not None and (best is None or len(seq + rest) < len(best)):
                    best = seq + rest
            if best is not None:
                self._press_all(best, log)
                return {"presses": log, "via": "keys"}
        elif kind == "showdown" and st["street"] == "showdown":
            if self._showdown(want.get("ranking") or [], log):
                return {"presses": log, "via": "keys"}
        else:
            seq = presses_for(sim.menu, st, sim.roles, want)
            if seq is not None:
                self._press_all(seq, log)
                return {"presses": log, "via": "keys"}
        sim.host(want)
        return {"presses": log, "via": "host"}

    def goto(self, where, seat=None, to=None):
        """Presses that bring a screen up without handing the table anything:
        *where* "amount" (the bet/raise entry, at *to* if given), "seats"
        (the seat list), "seat" (*seat*'s options), "pick" (showdown: *seat*
        picked), "colour" (the colour-up's seats), "setup" (the box), "main".
        Returns the presses; raises DriverError when the keys cannot get
        there now."""
        sim = self.sim
        st = sim.box.state or sim.state()
        goals = {
            "amount": lambda ev, m: ev is None and m.mode == AMOUNT,
            "seats": lambda ev, m: ev is None and m.mode == SEATS,
            "seat": lambda ev, m: ev is None and m.mode == SEAT and m.seat == seat,
            "pick": lambda ev, m: ev is None and m.mode == RANK and seat in m.picked,
            "colour": lambda ev, m: ev is None and m.mode == COLOUR,
            "setup": lambda ev, m: ev is None and m.mode == SETUP,
            "main": lambda ev, m: ev is None and m.mode == MAIN,
        }
        if where not in goals:
            raise DriverError("unknown menu screen %r (%s)" % (where, ", ".join(goals)))
        seq = search(sim.menu, st, sim.roles, goals[where])
        if seq is None:
            raise DriverError("the %s board's keys cannot open %r now" % (sim.board_name, where))
        if where == "amount" and to is not None:
            rest = amount_presses(_after(sim.menu, st, seq), st, sim.roles, to)
            if rest is None:
                raise DriverError("the amount entry cannot show %r" % (to,))
            seq += rest[:-1]  # not the confirming press
        log = []
        self._press_all(seq, log)
        return log

    def confirm(self):
        """Presses that make the menu hand over the box's Confirm of the
        instruction on screen; returns them (DriverError: none to confirm)."""
        sim = self.sim
        st = sim.box.state or sim.state()
        seq = search(sim.menu, st, sim.roles,
                     lambda ev, m: ev is not None and ev.get("box") == "ack")
        if seq is None:
            raise DriverError("no instruction to confirm on the %s board" % sim.board_name)
        log = []
        self._press_all(seq, log)
        return log

    def _showdown(self, ranking, log):
        """Pick each tier's seats, then Done, until the hand is over."""
        sim = self.sim
        for tier in ranking:
            st = sim.box.state
            if st["street"] != "showdown" or sim.menu.mode != RANK:
                return False
            for seat in tier:
                if seat in sim.menu.picked:
                    continue
                seq = search(sim.menu, st, sim.roles,
                             lambda ev, m, s=seat: ev is None and m.mode == RANK and s in m.picked)
                if seq is None:
                    return False
                self._press_all(seq, log)
            n = len(sim.menu.tiers)
            seq = search(sim.menu, st, sim.roles,
                         lambda ev, m, n0=n: (ev is not None and ev.get("do") == "showdown")
                         or (ev is None and len(m.tiers) > n0))
            if seq is None:
                return False
            self._press_all(seq, log)
            if sim.state()["street"] != "showdown":
                return True
        return False
