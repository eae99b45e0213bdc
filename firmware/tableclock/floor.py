"""The floor's book (warnings and penalties per seat) and the table's seat
events (away, back, sit, leave, bust, colour-up), each a function of the table
and the event registered in ``table.EVENTS``.  The floor procedures themselves
are in procedures.py, loaded at the first one.  The rules and their sources:
docs/rules.md, §13 "Floor procedures".
"""

from .fields import MAX_CHIPS, Refused, as_int
from .pots import coloured

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict, Iterable, Sequence, Tuple  # noqa: F401 (type comments)

    from .table import Table  # noqa: F401


class FloorBook:
    """Warnings and penalties per seat."""

    def __init__(self):  # type: () -> None
        self.warnings = {}  # type: Dict[int, int]  # seat -> count
        # seat -> slow-play warnings (LPPL: the second one folds)
        self.slow = {}  # type: Dict[int, int]
        self.penalties = {}  # type: Dict[int, int]  # seat -> hands still to miss

    def on_penalty(self, seat):  # type: (int) -> bool
        return self.penalties.get(seat, 0) > 0

    def hands_dealt(self, seats):  # type: (Iterable[int]) -> None
        """A hand ended: *seats*, killed at its deal, missed one more."""
        for seat in seats:
            n = self.penalties.get(seat, 0)
            if n > 1:
                self.penalties[seat] = n - 1
            elif n == 1:
                del self.penalties[seat]

    def forget(self, seat):  # type: (int) -> None
        self.warnings.pop(seat, None)
        self.slow.pop(seat, None)
        self.penalties.pop(seat, None)

    def record(self):  # type: () -> Tuple[Dict[int, int], Dict[int, int], Dict[int, int]]
        return dict(self.warnings), dict(self.penalties), dict(self.slow)

    def restore(self, rec):  # type: (Sequence[Any]) -> None
        self.warnings = dict(rec[0])
        self.penalties = dict(rec[1])
        self.slow = dict(rec[2]) if len(rec) > 2 else {}


# what a player's record counts, as a ``sit`` event and a setup's ``history``
# name it: warnings, LPPL ¶51 slow-play warnings, TDA 64 penalty hands still to miss
HISTORY = ("warnings", "slow_play", "penalties")


def check_history(src):  # type: (Any) -> None
    """Refused unless the history *src* names is right (``carry``)."""
    if not isinstance(src.get("away_used", False), bool):
        raise Refused(38)  # "away_used" must be true or false
    for k in HISTORY:
        n = src.get(k, 0)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0 or n > MAX_COUNT:
            raise Refused(46, k, MAX_COUNT)  # "%s" must be a whole number from 0 to %d


def carry(table, seat, src):  # type: (Any, int, Any) -> None
    """*seat*'s player brings their history from another table, as *src*
    names it (a ``sit`` event, or an entry of the setup's ``history``):
    LPPL ¶72's allowance used (``away_used``), and the counts of HISTORY.
    All is checked before anything changes (docs/rules.md §14)."""
    check_history(src)
    if src.get("away_used"):  # LPPL ¶72 "only allowed once per player": used at another table
        table.away.reached_stage(seat)
    book = table.floor
    books = (book.warnings, book.slow, book.penalties)
    for i in range(3):
        n = src.get(HISTORY[i], 0)
        if n:
            books[i][seat] = n
        else:
            books[i].pop(seat, None)


def history_of(table):  # type: (Any) -> Dict[str, Dict[str, Any]]
    """The history of each seated player who has any, as a setup's
    ``history`` (``carry`` reads it): a re-draw seats them again with it."""
    out = {}  # type: Dict[str, Dict[str, Any]]
    book = table.floor
    for seat in table.stacks:
        entry = {}  # type: Dict[str, Any]
        if table.away.used.get(seat):
            entry["away_used"] = True
        books = (book.warnings, book.slow, book.penalties)
        for i in range(3):
            if books[i].get(seat):
                entry[HISTORY[i]] = books[i][seat]
        if entry:
            out[str(seat)] = entry
    return out


MAX_COUNT = 10000  # warnings or penalty hands a record may carry


def away(table, ev):  # type: (Table, Dict[str, Any]) -> None
    seat = table._seat(ev)
    if table.away.is_away(seat):
        raise Refused(34, seat)  # Seat %d is already away
    table.away.back(seat)  # (from TD business)
    table.away.leave(seat)
    table.fact("away", seat)
    table.last = "Seat %d is away" % seat
    hand = table.hand
    if hand is not None and hand.actor == seat:
        table.undo_ok = False
        table.last = "Seat %d is away: %s" % (seat, hand.auto_act(seat))
        hand.run(seat)


def td_business(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """LPPL ¶6: "a TD's hand cannot be folded if the action is with him but
    he is away from his seat on TD business ... the other players on his
    table must wait until his return unless he clearly states he is
    folding"."""
    seat = table._seat(ev)
    if seat in table.away.td:
        raise Refused(35, seat)  # Seat %d is already away on TD business
    table.away.back(seat)
    table.away.td.append(seat)
    table.last = "Seat %d is away on TD business: the table waits" % seat


def back(table, ev):  # type: (Table, Dict[str, Any]) -> None
    seat = table._seat(ev)
    if not table.away.is_away(seat) and seat not in table.away.td:
        raise Refused(36, seat)  # Seat %d is not away
    table.away.back(seat)
    table.fact("back", seat)
    table.last = "Seat %d is back" % seat


def sit(table, ev):  # type: (Table, Dict[str, Any]) -> None
    seat = table._seat(ev, occupied=False)
    c = as_int(ev.get("stack"))
    if c is None or c <= 0 or c > MAX_CHIPS:
        raise Refused(37)  # Sit needs "stack": the player's chips, a positive whole number
    carry(table, seat, ev)  # what the player brings from another table (checked first)
    table.stacks[seat] = c
    table.seat_changes += 1
    if table.hands or table.hand is not None:
        table.waiting.append(seat)
    table.last = "Seat %d sits down with %d" % (seat, c)


def leave(table, ev):  # type: (Table, Dict[str, Any]) -> None
    seat = table._seat(ev)
    if table.hand is not None and seat in table.hand.live:
        raise Refused(39, seat)  # Seat %d is still in this hand: finish the hand first
    empty_seat(table, seat)
    table.last = "Seat %d leaves the table" % seat


def bust(table, ev):  # type: (Table, Dict[str, Any]) -> None
    seat = table._seat(ev)
    if table.hand is not None and seat in table.hand.live:
        raise Refused(39, seat)  # Seat %d is still in this hand: finish the hand first
    hand = table.hand
    chips = hand.start.get(seat) if hand is not None else None  # (a seat not dealt in: now)
    table.fact("bust", seat, table.stacks[seat] if chips is None else chips,
               table.hands if hand is not None else None)
    table.removed += table.stacks[seat]
    empty_seat(table, seat)
    table.busted.append(seat)
    table.last = "Seat %d is out" % seat


def empty_seat(table, seat):  # type: (Table, int) -> None
    del table.stacks[seat]
    table.seat_changes += 1
    table.away.forget(seat)
    table.floor.forget(seat)
    if seat in table.waiting:
        table.waiting.remove(seat)
    if seat in table.held:
        table.held.remove(seat)
    if seat in table.entering:
        table.entering.remove(seat)


def colour_up(table, ev):  # type: (Table, Dict[str, Any]) -> None
    """Colour the stacks up to the chip of the colour-up in force (or
    ``chip``), rounding per profile (LPPL nearest, TDA 21 up)."""
    table._between_hands("colour up")
    unit = ev.get("chip")
    if unit is None:
        cu = table.clock.colour_up()
        unit = cu.get("chip") if cu else None
    unit = as_int(unit)
    if not unit or unit < 1:
        raise Refused(40)  # No colour-up is due: give "chip", the smallest chip left in play
    up = table.profile["colour_up_rounding"] == "up"
    for seat in table.stacks:
        c = table.stacks[seat]
        table.stacks[seat] = coloured(c, unit, up)
        table.removed += c - table.stacks[seat]
    if unit > table.chip:
        table.chip = unit
    table.last = "Colour-up: stacks rounded %s to %d" % ("up" if up else "to the nearest", unit)
