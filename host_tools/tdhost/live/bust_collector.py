"""Busts reported by the boxes, gathered into same-hand decisions (docs/host.md §10.4;
docs/live.md "Busts"; LPPL ¶46, US 14): the open ``Group`` of each box, closed by the
box's status, a later event or ``BUST_WAIT_MS``; ``decide`` writes the league's ``bust``
and returns what Live does next."""

import datetime
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from tdhost.league.busts import decide_bust
from tdhost.league.refusal import ActionRefused
from tdhost.league.replay import League
from tdhost.league.tournament import Tournament
from tdhost.live import instruction_log as _ins
from tdhost.live.effects import Effects, Steps, Write
from tdhost.live.shapes import Batch, Instr, Message
from tdhost.live.tables import name_at
from tdhost.rules import finishing as _finishing

if TYPE_CHECKING:
    from tdhost.live.tables import BoxesNow

BUST_WAIT_MS = 3000


def event_order(eid: Any) -> Optional[Tuple[int, int]]:
    """A box event id ``<boot>-<n>`` as (boot, n), the box's order; None for another form."""
    parts = eid.split("-") if isinstance(eid, str) else ()
    if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1])


class Group:
    """The busts of one hand at one table, in the box's order (worst finisher first)."""

    def __init__(self, box: Any, table: Optional[int], hand: Optional[int],
                 now: int) -> None:
        self.box = box
        self.table = table
        self.hand = hand
        self.items: List[Tuple[Any, Any, Any]] = []  # (seat, chips_start, event id)
        self.last = now
        # the box's bust_ties (lists of seats) once its status came
        self.ties: Optional[List[List[int]]] = None

    def seats(self) -> List[Any]:
        return [seat for seat, _, _ in self.items]

    def src(self) -> List[List[Any]]:
        return [[self.box, eid] for _, _, eid in self.items]


class Collector:
    """Open groups, one per box at most."""

    def __init__(self) -> None:
        self.open: Dict[Any, Group] = {}  # box -> Group

    def add(self, box: Any, table: Optional[int], msg: Message, now: int) -> List[Group]:
        """A bust event; returns the groups it closes (in order)."""
        hand = msg.get("hand")
        closed = []
        group = self.open.get(box)
        if group is not None and (hand is None or group.hand != hand or group.table != table):
            closed.append(self.open.pop(box))
            group = None
        if group is None:
            group = Group(box, table, hand, now)
        if msg["id"] not in [eid_seen for _, _, eid_seen in group.items]:
            group.items.append((msg.get("seat"), msg.get("chips_start"), msg["id"]))
            if all(event_order(eid_seen) is not None for _, _, eid_seen in group.items):
                group.items.sort(key=lambda it: event_order(it[2]) or (0, 0))  # the box's order
        group.last = now
        if hand is None:
            closed.append(group)
        else:
            self.open[box] = group
        return closed

    def holds(self, box: Any, eid: Any) -> bool:
        """Is event *eid* of *box* in its open group (gathered, not decided yet)?"""
        group = self.open.get(box)
        return group is not None and any(eid_seen == eid for _, _, eid_seen in group.items)

    def other_event(self, box: Any, eid: Any = None) -> List[Group]:
        """Another event of *box* came (id *eid*): its open group is complete unless the
        event is older than the group's busts (a resend: docs/live.md "Busts")."""
        group = self.open.get(box)
        if group is None:
            return []
        new = event_order(eid)
        if new is not None and any((event_order(eid_seen) or (-1, -1)) > new
                                   for _, _, eid_seen in group.items):
            return []
        return [self.open.pop(box)]

    def status(self, box: Any, box_status: Any) -> List[Group]:
        """The box's status: closes its group when it is of the group's hand and
        ``busted`` lists no seat the group lacks."""
        group = self.open.get(box)
        if group is None or not isinstance(box_status,
                                           dict) or box_status.get("hand") != group.hand:
            return []
        busted = box_status.get("busted") or []
        if all(seat in group.seats() for seat in busted):
            group.ties = [list(x) for x in box_status.get("bust_ties") or [] if isinstance(x, list)]
            return [self.open.pop(box)]
        return []

    def due(self, now: int) -> List[Group]:
        """Groups waiting for longer than BUST_WAIT_MS."""
        out = [group for group in self.open.values() if now - group.last >= BUST_WAIT_MS]
        for group in out:
            del self.open[group.box]
        return out


def _seats_text(seats: Sequence[Any]) -> str:
    return "seat%s %s" % ("s" if len(seats) > 1 else "", ", ".join(str(seat) for seat in seats))


def td_out(tournament: Tournament, table: int, seat: Any) -> Optional[Instr]:
    """The ``take_out`` of *table*, *seat* (the TD entered that seat's player out by hand:
    tdhost.live.console_actions.bust) whose player the box may still report out, or None: one not
    cancelled, not ``reported`` yet (below) and written since the final table's draw,
    carried out or not (the box answers first, then reports the seat out: ``done`` with
    the chips it took out, or without chips when the hand busted them) -- unless a
    ``receive`` into that seat written after it is done: the seat is someone else's then
    (a take-out is reported before the seat is filled again, or not at all).  Until then a
    bust the box reports at that seat is that player's -- the dealer carrying the take_out
    out, or the hand busting them -- whoever the league has seated there since: expected,
    not news for the TD, and nobody else's bust."""
    records = list(tournament.instrs.values())
    start = tournament.final.get("instrs_before", 0) if tournament.final else 0
    for i in range(len(records) - 1, start - 1, -1):
        instr = records[i]
        if instr["action"] != "take_out" or instr["table"] != table \
                or instr["body"].get("seat") != seat:
            continue
        res = _ins.results(instr)
        if "reported" in res or _ins.cancelled(instr) and "done" not in _ins.results(
                instr, "box"):  # (carried out after it was called off: its report still)
            return None
        if any(x["action"] == "receive" and x["table"] == table
               and x["body"].get("seat") == seat and _ins.state(x) == "done"
               for x in records[i + 1:]):
            return None
        return instr
    return None


def ignored(group: Group) -> Optional[str]:
    """Why the busts of *group* are not decided (its box has no table), or None."""
    if group.table is None:
        return "box %s without a table reports busts: ignored" % group.box
    return None


def unrecorded(group: Group, err: ActionRefused) -> str:
    """The notice when the decision of *group* was refused."""
    return "table %s: the box's bust of %s was not recorded: %s" % (
        group.table, _seats_text(group.seats()), err)


def decide(group: Group, when: datetime.datetime) -> Write:
    """One same-hand decision from the busts of *group* (its box has a table: ``ignored``),
    for Live.write: a ``bust`` event -- Live reacts to it: tdhost.live.reactions -- and a
    ``notice`` for seats where the league has nobody still in -- but a seat whose player
    the TD entered out: ``td_out``, a ``reported`` result of that take_out; ActionRefused
    (``unrecorded``) when the league refuses it."""
    src = group.src()
    assert group.table is not None, "a group without a table is ignored"
    table: int = group.table

    def build(tournament: Tournament, lg: League, seq: int) -> Tuple[Batch, List[str]]:
        names: Dict[Any, str] = {}
        chips: Dict[str, int] = {}
        lost = []
        taken: Batch = []  # the take_outs whose seats this group reports out (td_out)
        for seat, count, _ in group.items:
            instr = td_out(tournament, table, seat)
            if instr is not None:  # logged as the take_out's: it is reported once
                taken.append(("instr_result", _ins.result(
                    instr["id"], "reported", "box", "table %d: seat %d reported out (%s)" % (
                        table, seat, instr["text"]), None, src), None))
                continue
            name = name_at(tournament, table, seat)
            entry = tournament.get(name) if name is not None else None
            if name is None or entry is None or entry.state != "in":
                lost.append(seat)
                continue
            names[seat] = name
            if isinstance(count, int) and not isinstance(count, bool) and count >= 1:
                chips[name] = count
        evs = list(taken)
        if lost:
            evs.append(("notice", {"text": "table %d: the box reports %s out, where the "
                                   "league has nobody still in" % (table, _seats_text(lost)),
                                   "src": src}, None))
        if not names:
            return evs, []
        seats = [seat_no for seat_no in group.seats() if seat_no in names]
        order = _finishing.showdown_tiers(names, seats, group.ties)
        best_first = [name for tier in order for name in tier]
        payload = decide_bust(tournament, best_first, chips if len(best_first) > 1 else {}, None,
                              None, when, lg, order)
        payload.update({"src": src, "table": table, "hand": group.hand, "by": "box",
                        "seats": {names[seat_no]: seat_no for seat_no in seats}})
        return [("bust", payload, None), *evs], best_first
    return build  # Live's reaction calls the players' instructions off (after_bust)


def after_bust(tournament: Tournament, names: Sequence[str], boxes: "BoxesNow") -> Steps:
    """Players are out: their pending moves and other instructions are off, each withdrawn
    from the box that may still show it (*boxes*; a ``withdraw``:
    tdhost.live.instruction_log.cancel_all, in one batch with the cancellations); a new
    plan is due (``Live.carry_out``)."""
    out = set(names)
    keep = ("withdraw", "take_out")  # a take_out is the TD's bust itself, at the box

    def theirs(now: Tournament) -> List[Instr]:  # (a receive the dealer saw, not done yet:
        return [instr for instr in now.instrs.values()  # it waits for the hand's end)
                if instr.get("player") in out and instr["action"] not in keep
                and (not _ins.complete(instr) or instr["action"] == "receive"
                     and _ins.state(instr) == "acknowledged")]
    if theirs(tournament):
        def build(now: Tournament, lg: League, seq: int) -> Tuple[Batch, None]:
            instrs = theirs(now)
            return _ins.cancel_all(lg, now, instrs,
                                   lambda instr: "%s is out" % instr["player"],
                                   lambda table: boxes.boxed(now, table)), None
        yield build
    return Effects(plan=True, after_bust=True)
