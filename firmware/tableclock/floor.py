"""The floor's book (warnings and penalties per seat) and the table's seat
events (away, back, sit, leave, bust, colour-up).  The floor procedures
themselves are in procedures.py, loaded at the first one.  The rules and
their sources: docs/rules.md, §13 "Floor procedures".
"""

from .fields import MAX_CHIPS, Refused, as_int
from .pots import coloured

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict, Iterable, Sequence, Tuple  # noqa: F401 (type comments)


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

TYPE_CHECKING = False  # mypy takes it as True (no typing import on the board)
if TYPE_CHECKING:
    from typing import Any  # noqa: F401


class SeatEvents:
    """The table's seat events: away and back, TD business, a player seated,
    leaving or busted, a colour-up (a base class of table.Table, on its attributes)."""

    if TYPE_CHECKING:  # the attributes and methods of the class this is a base of
        _between_hands = None  # type: Any
        _seat = None  # type: Any
        away = None  # type: Any
        busted = None  # type: Any
        chip = None  # type: Any
        clock = None  # type: Any
        entering = None  # type: Any
        floor = None  # type: Any
        hand = None  # type: Any
        hands = None  # type: Any
        held = None  # type: Any
        last = None  # type: Any
        profile = None  # type: Any
        removed = None  # type: Any
        seat_changes = None  # type: Any
        stacks = None  # type: Any
        undo_ok = None  # type: Any
        waiting = None  # type: Any

    def _ev_away(self, ev):
        seat = self._seat(ev)
        if self.away.is_away(seat):
            raise Refused(34, seat)  # Seat %d is already away
        self.away.back(seat)  # (from TD business)
        self.away.leave(seat)
        self.last = "Seat %d is away" % seat
        hand = self.hand
        if hand is not None and hand.actor == seat:
            self.undo_ok = False
            self.last = "Seat %d is away: %s" % (seat, hand.auto_act(seat))
            hand.run(seat)

    def _ev_td_business(self, ev):
        """LPPL ¶6: "a TD's hand cannot be folded if the action is with him but
        he is away from his seat on TD business ... the other players on his
        table must wait until his return unless he clearly states he is
        folding"."""
        seat = self._seat(ev)
        if seat in self.away.td:
            raise Refused(35, seat)  # Seat %d is already away on TD business
        self.away.back(seat)
        self.away.td.append(seat)
        self.last = "Seat %d is away on TD business: the table waits" % seat

    def _ev_back(self, ev):
        seat = self._seat(ev)
        if not self.away.is_away(seat) and seat not in self.away.td:
            raise Refused(36, seat)  # Seat %d is not away
        self.away.back(seat)
        self.last = "Seat %d is back" % seat

    def _ev_sit(self, ev):
        seat = self._seat(ev, occupied=False)
        c = as_int(ev.get("stack"))
        if c is None or c <= 0 or c > MAX_CHIPS:
            raise Refused(37)  # Sit needs "stack": the player's chips, a positive whole number
        carry(self, seat, ev)  # what the player brings from another table (checked first)
        self.stacks[seat] = c
        self.seat_changes += 1
        if self.hands or self.hand is not None:
            self.waiting.append(seat)
        self.last = "Seat %d sits down with %d" % (seat, c)

    def _ev_leave(self, ev):
        seat = self._seat(ev)
        if self.hand is not None and seat in self.hand.live:
            raise Refused(39, seat)  # Seat %d is still in this hand: finish the hand first
        self._empty(seat)
        self.last = "Seat %d leaves the table" % seat

    def _ev_bust(self, ev):
        seat = self._seat(ev)
        if self.hand is not None and seat in self.hand.live:
            raise Refused(39, seat)  # Seat %d is still in this hand: finish the hand first
        self.removed += self.stacks[seat]
        self._empty(seat)
        self.busted.append(seat)
        self.last = "Seat %d is out" % seat

    def _empty(self, seat):
        del self.stacks[seat]
        self.seat_changes += 1
        self.away.forget(seat)
        self.floor.forget(seat)
        if seat in self.waiting:
            self.waiting.remove(seat)
        if seat in self.held:
            self.held.remove(seat)
        if seat in self.entering:
            self.entering.remove(seat)

    def _ev_colour_up(self, ev):
        """Colour the stacks up to the chip of the colour-up in force (or
        ``chip``), rounding per profile (LPPL nearest, TDA 21 up)."""
        self._between_hands("colour up")
        unit = ev.get("chip")
        if unit is None:
            cu = self.clock.colour_up()
            unit = cu.get("chip") if cu else None
        unit = as_int(unit)
        if not unit or unit < 1:
            raise Refused(40)  # No colour-up is due: give "chip", the smallest chip left in play
        up = self.profile["colour_up_rounding"] == "up"
        for seat in self.stacks:
            c = self.stacks[seat]
            self.stacks[seat] = coloured(c, unit, up)
            self.removed += c - self.stacks[seat]
        if unit > self.chip:
            self.chip = unit
        self.last = "Colour-up: stacks rounded %s to %d" % ("up" if up else "to the nearest", unit)
