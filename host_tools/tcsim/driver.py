"""A dealer's hands: replay-contract events turned into key presses.  ``presses_for`` searches
the (pure) menu breadth first for the shortest run of presses that hands the table an event;
:class:`Dealer` also steps the amount entry, picks a showdown tier by tier, and hands the
table directly (``"via": "host"``) what the keys cannot make.  docs/simulator.md, "Scripts
(headless)" (How events become presses).
"""

import copy
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, cast

from tcbox.menu import AMOUNT, COLOUR, MAIN, RANK, SEAT, SEATS
from tcbox.view import SETUP

BETTING = ("check", "call", "fold", "bet", "raise", "allin")
COMMENTS = ("note", "expect", "title", "source", "shot", "info", "instruct")
MAX_NODES = 20000

Event = Dict[str, Any]  # a replay-contract event (docs/replay.md)
State = Dict[str, Any]  # the replay-contract state
Press = Tuple[str, bool]  # (key role, long)

if TYPE_CHECKING:
    from .sim import Sim


class DriverError(Exception):
    pass


def clean(event: Event) -> Event:
    """*event* without its comments (and without the optional seat of a
    betting action)."""
    out: Event = {}
    for k in event:
        if k in COMMENTS:
            continue
        if k == "seat" and event.get("do") in BETTING:
            continue
        out[k] = event[k]
    return out


def same(ev: Event, want: Event, st: State) -> bool:
    """Does the menu's *ev* do what *want* asks, in state *st*?"""
    made = ev.get("do")
    wanted = want.get("do")
    if made == "bet":
        made = "raise"
    if wanted == "bet":
        wanted = "raise"
    if st["to_call"] == 0 and made in ("call", "check") and wanted in ("call", "check"):
        return True  # a call facing no bet is a check (TDA 49-A)
    if wanted == "allin" and st["action"] is not None:
        seat = str(st["action"])
        top = st["bets"].get(seat, 0) + st["stacks"][seat]
        if made == "call" and st["bets"].get(seat, 0) + st["to_call"] >= top:
            return True  # all-in for less than the call is a call
        if made == "raise" and ev.get("to") == top:
            return True
    if made != wanted:
        return False
    for k in want:
        if k != "do" and ev.get(k) != want[k]:
            return False
    for k in ev:
        if k != "do" and k not in want:
            return False
    return True


def _key(menu: Any) -> Tuple[Any, ...]:
    return (menu.mode, menu.i, menu.seat, menu.amount, tuple(menu.picked),
            tuple(tuple(tier) for tier in menu.tiers), tuple(o[0] for o in menu.options))


def search(menu: Any, st: State, roles: Sequence[str],
           goal: Callable[[Optional[Event], Any], bool],
           first: Optional[str] = None) -> Optional[List[Press]]:
    """Shortest list of (role, long) presses after which ``goal(ev, menu)``
    holds (*ev*: the event the last press handed over, or None); None when
    no press sequence reaches it.  Presses that hand over another event end
    their branch (the table would act on it).  Among equally short ones,
    short presses win, and the key *first* (the event's own key: Call for
    a call) before the others."""
    start = copy.deepcopy(menu)
    if goal(None, start):
        return []
    order = ([key_role for key_role in roles if key_role == first]
             + [key_role for key_role in roles if key_role != first])
    moves = [(key_role, False) for key_role in order] + [(key_role, True) for key_role in order]
    frontier: List[Tuple[Any, List[Press]]] = [(start, [])]
    seen = {_key(start)}
    nodes = 0
    while frontier:
        nxt = []
        for node, path in frontier:
            for role, long in moves:
                m2 = copy.deepcopy(node)
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


def presses_for(menu: Any, st: State, roles: Sequence[str],
                want: Event) -> Optional[List[Press]]:
    """Presses that make the menu hand over *want* (an event without the
    multi-step kinds), or None."""
    kind = str(want.get("do"))
    first = {"check": "call", "bet": "raise", "allin": "raise"}.get(kind, kind)
    return search(menu, st, roles, lambda ev, m: ev is not None and same(ev, want, st), first)


def _after(menu: Any, st: State, seq: List[Press]) -> Any:
    after = copy.deepcopy(menu)
    for role, long in seq:
        after.press(role, long, st)
        after.refresh(st)
    return after


def amount_presses(menu: Any, st: State, roles: Sequence[str],
                   to: int) -> Optional[List[Press]]:
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
    starts: List[List[Press]] = [[]]
    if "raise" in roles:
        starts.append([("raise", True)])  # a long Raise: a big blind up
    best = None
    for pre in starts:
        at = _after(menu, st, pre).amount
        seq = list(pre)
        diff = to - at
        key = up if diff > 0 else down
        diff = abs(diff)
        if diff >= bb:  # in the amount entry a long Raise steps by the big blind
            seq += [(key, True)] * (diff // bb)
            diff -= (diff // bb) * bb
        seq += [(key, False)] * (diff // chip)
        after = _after(menu, st, seq)
        if after.mode != AMOUNT or after.amount != to:
            continue
        cost = 0.0
        for _role, long in seq:
            cost += 1.5 if long else 1
        if best is None or cost < best[0]:
            best = (cost, seq)
    if best is None:
        return None
    return best[1] + [(ok, False)]


class Dealer:
    """Plays events on a tcsim.sim.Sim through its keys."""

    def __init__(self, sim: "Sim") -> None:
        self.sim = sim

    def _press_all(self, seq: List[Press], log: List[List[str]]) -> None:
        for role, long in seq:
            self.sim.press(role, 700 if long else 80)
            log.append([role, "long" if long else "short"])

    def do(self, event: Event) -> Dict[str, Any]:
        """Play *event*; returns {"presses": [[role, "short"|"long"], ...],
        "via": "keys"|"host"|"clock"}."""
        sim = self.sim
        want = clean(event)
        kind = want.get("do")
        log: List[List[str]] = []
        if kind == "tick":
            sim.tick(float(want.get("s", 0)))
            return {"presses": log, "via": "clock"}
        st = sim.box.state or sim.state()
        if kind in ("bet", "raise") and isinstance(want.get("to"), int):
            best = presses_for(sim.menu, st, sim.roles, want)  # an option of its own?
            seq = search(sim.menu, st, sim.roles,
                         lambda ev, shown: ev is None and shown.mode == AMOUNT)
            if seq is not None:
                after = _after(sim.menu, st, seq)
                rest = amount_presses(after, st, sim.roles, want["to"])
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

    def goto(self, where: str, seat: Optional[int] = None,
             to: Optional[int] = None) -> List[List[str]]:
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
        log: List[List[str]] = []
        self._press_all(seq, log)
        return log

    def confirm(self) -> List[List[str]]:
        """Presses that make the menu hand over the box's Confirm of the
        instruction on screen; returns them (DriverError: none to confirm)."""
        sim = self.sim
        st = sim.box.state or sim.state()
        seq = search(sim.menu, st, sim.roles,
                     lambda ev, m: ev is not None and ev.get("box") == "ack")
        if seq is None:
            raise DriverError("no instruction to confirm on the %s board" % sim.board_name)
        log: List[List[str]] = []
        self._press_all(seq, log)
        return log

    def _showdown(self, ranking: List[List[int]], log: List[List[str]]) -> bool:
        """Pick each tier's seats, then Done, until the hand is over."""
        sim = self.sim
        for tier in ranking:
            st = cast(State, sim.box.state)  # a hand at its showdown has a state
            if st["street"] != "showdown" or sim.menu.mode != RANK:
                return False
            for seat in tier:
                if seat in sim.menu.picked:
                    continue
                def picked(ev: Optional[Event], m: Any, s: int = seat) -> bool:
                    return ev is None and m.mode == RANK and s in m.picked

                seq = search(sim.menu, st, sim.roles, picked)
                if seq is None:
                    return False
                self._press_all(seq, log)
            n = len(sim.menu.tiers)

            def tier_done(ev: Optional[Event], m: Any, n0: int = n) -> bool:
                return ((ev is not None and ev.get("do") == "showdown")
                        or (ev is None and len(m.tiers) > n0))

            seq = search(sim.menu, st, sim.roles, tier_done)
            if seq is None:
                return False
            self._press_all(seq, log)
            if sim.state()["street"] != "showdown":
                return True
        return False
