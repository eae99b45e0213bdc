"""Floor procedures at the table: misdeals, the dealer's undo, warnings,
penalties, killed hands, disqualification, entering late and the TD's
deductions.  The rules and their sources: docs/rules.md, §13 "Floor
procedures".
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
        for s in seats:
            n = self.penalties.get(s, 0)
            if n > 1:
                self.penalties[s] = n - 1
            elif n == 1:
                del self.penalties[s]

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


# -- misdeal, relevel and undo ---------------------------------------------
def _check_redeal(t, what):
    h = t._need_hand()
    if h.substantial():
        raise Refused("Substantial action has occurred: no %s, the hand must go on" % what)
    if t.predeal is None or t.predeal[-1] != t.seat_changes:
        raise Refused("The seating changed during this hand: call the TD (no %s)" % what)
    return h


def misdeal(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """Void the hand and deal it again at the same level: everything posted
    goes back and is posted again, away blinds are not counted twice."""
    h = _check_redeal(t, "misdeal")
    t.redeal(h.level)
    t.last = "Misdeal: hand %d dealt again" % t.hands


def foul(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """A fouled deck: "regardless of SA, play will stop and all bets will be
    returned" (TDA 29-E): the hand is dealt again with a new deck."""
    h = t._need_hand()
    if t.predeal is None or t.predeal[-1] != t.seat_changes:
        raise Refused("The seating changed during this hand: call the TD")
    t.redeal(h.level)
    t.last = "Fouled deck: all bets returned, hand %d dealt again" % t.hands


def relevel(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """Restart a hand dealt at an old level at the clock's level (TDA 20)."""
    h = _check_redeal(t, "restart")
    if t.clock.on_break():
        raise Refused("It is the break: the hand goes on at level %d" % h.level[0])
    level = t.clock.blinds()
    if level[0] == h.level[0]:
        raise Refused("This hand is already at level %d" % level[0])
    t.redeal(level)
    t.last = "Hand %d restarted at level %d" % (t.hands, level[0])


def undo(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """Take back the last action of this hand (until the next one): the
    hand is dealt again as it was and every earlier action re-played, so
    nothing but a short log is kept per action."""
    h = t.hand
    if h is None:
        raise Refused("No hand is running: nothing to undo")
    k = len(h.log) - 1
    declared = dict(h.oot)  # what was declared out of turn and still waits
    while k >= 0 and not isinstance(h.log[k][3], int):  # the table's own moves after it
        if h.log[k][3] is not None:  # carried out for a declaration: it waits again
            declared[h.log[k][1]] = h.log[k][3]
        k -= 1
    if not t.undo_ok or k < 0:
        raise Refused("Nothing to undo: only the last action of this hand can be undone")
    if t.predeal is None or t.predeal[-1] != t.seat_changes:
        raise Refused("The seating changed during this hand: it cannot be undone")
    keep = h.log[:k]
    mark = h.log[k]
    seat = mark[1]
    last = t.undo_text or t.last
    undone = t.undone + [last]
    t.replaying = True
    try:
        away_now = t.redeal(h.level, False)
        h = t.hand
        for e in keep:
            h.replay(e)
    finally:
        t.replaying = False
    h.log = keep
    t.set_away(away_now)
    if mark[3] >= 0:  # the shot clock it had stopped runs on
        t.shot.seat = seat
        t.shot.left_ms = mark[3]
    t.undone = undone
    t.last = "Undone: %s" % last
    t.undo_ok = False
    h.oot = declared
    a = h.actor
    if a is not None and t.away.is_away(a):  # left the table meanwhile
        h.auto_act(a)
        h.run(a)
    elif a is not None and a in declared:
        h.run((a - 2) % t.n + 1)  # the action is with them: their declaration now


# -- warnings, penalties, killed hands ---------------------------------------
def warn(t, ev):  # type: (Table, Dict[str, Any]) -> None
    s = t._seat(ev)
    t.floor.warnings[s] = t.floor.warnings.get(s, 0) + 1
    t.last = "Seat %d: warning %d" % (s, t.floor.warnings[s])


def penalty(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """A missed-hand (``hands``) or missed-round (``rounds``) penalty; it
    starts with the next hand dealt."""
    s = t._seat(ev)
    hands = ev.get("hands")
    rounds = ev.get("rounds")
    if (hands is None) == (rounds is None):
        raise Refused('A penalty needs "hands" or "rounds" (one of them)')
    n = as_int(hands if hands is not None else rounds)
    if n is None or n < 1 or n > 100:
        raise Refused("A penalty is 1 to 100 hands or rounds")
    if rounds is not None:
        n *= len(t.stacks)  # one hand per player at the table, him included
    t.floor.penalties[s] = t.floor.penalties.get(s, 0) + n
    t.last = "Seat %d: penalty, misses %d hands" % (s, t.floor.penalties[s])


def _kill_now(t, s):
    """Kill seat *s*'s live hand now, out of turn."""
    h = t.hand
    if h is None or s not in h.live:
        return False
    t.undo_ok = False
    if h.actor == s:
        h.fold(s)
        h.run(s)
        return True
    h.kill(s)
    h.after_kill(s)  # the last live hand wins; a killed bet no longer faced
    return True


def kill(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """Fold a seat's hand at once (LPPL: a phone at the table)."""
    s = t._seat(ev)
    h = t.hand
    if h is None or s not in h.live:
        raise Refused("Seat %d has no live hand to kill" % s)
    _kill_now(t, s)
    t.last = "Seat %d: hand killed" % s


def slow(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """Slow play: a warning the first time; in LPPL an automatic fold after
    that, elsewhere another warning for the TD to act on."""
    s = t._seat(ev)
    h = t.hand
    if t.floor.slow.get(s, 0) > 0 and t.profile["slow_play_folds"] and (
            h is None or s not in h.live):
        raise Refused("Seat %d has been warned; there is no live hand to fold" % s)
    t.last = slow_play(t, s)


def slow_play(t, s):  # type: (Any, int) -> str
    """Seat *s* played slowly (the TD's ``slow``, or in LPPL a called clock
    that ran out): one more warning, and in LPPL after an earlier slow-play
    warning its live hand is folded.  Returns the sentence."""
    n = t.floor.slow.get(s, 0)
    t.floor.slow[s] = n + 1
    t.floor.warnings[s] = t.floor.warnings.get(s, 0) + 1
    if n > 0 and t.profile["slow_play_folds"] and _kill_now(t, s):
        return "Seat %d: slow play again, hand folded" % s
    return "Seat %d: slow play, warning %d" % (s, n + 1)


def disqualify(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """Take a player out: a live hand is killed, the chips behind leave play."""
    s = t._seat(ev)
    chips = t.stacks[s]
    _kill_now(t, s)
    if s in t.stacks:
        t.removed += t.stacks[s]
        t._empty(s)
    t.busted.append(s)
    t.last = "Seat %d disqualified: %d chips removed from play" % (s, chips)


# -- entering late -----------------------------------------------------------
def enter(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """A latecomer takes a seat (or a registered player who was not seated
    at the start arrives).  ``stack`` as the host computed it (after any
    latecomer deduction); ``dead_bb`` to post a dead big blind to enter."""
    s = as_int(ev.get("seat"))
    if s is None or s < 1 or s > t.n:
        raise Refused('Enter needs "seat": a seat from 1 to %d' % t.n)
    stack = ev.get("stack")
    if stack is not None:
        stack = as_int(stack)
        if stack is None or stack <= 0 or stack > MAX_CHIPS:
            raise Refused('"stack" must be a positive whole number of chips')
    dead = ev.get("dead_bb", False)
    if not isinstance(dead, bool):
        raise Refused('"dead_bb" must be true or false')
    if s in t.stacks:
        if not t.away.is_late(s):
            raise Refused("Seat %d is already playing" % s)
        if t.hand is not None and s in t.hand.live:
            raise Refused("Seat %d is in this hand: enter after it" % s)
        if stack is not None:
            t.removed += t.stacks[s] - stack
            t.stacks[s] = stack
        if t.hand is not None:  # a re-deal or undo would lose the new stack or dead BB
            t.seat_changes += 1
        t.away.back(s)
    else:
        if stack is None:
            raise Refused('Enter needs "stack" for an empty seat')
        t.stacks[s] = stack
        t.seat_changes += 1
        if not dead and (t.hands or t.hand is not None):
            t.waiting.append(s)
    if dead and s not in t.entering:
        t.entering.append(s)
    t.last = "Seat %d enters with %d%s" % (s, t.stacks[s], ", dead big blind" if dead else "")


# -- chips the TD takes away -------------------------------------------------
def deduct(t, ev):  # type: (Table, Dict[str, Any]) -> None
    """The TD removes ``chips`` from seat ``seat``'s stack; they leave play
    (``removed``, as a bust's).  Refused for a seat dealt into the running
    hand (its stack is in play until the hand ends) and when the stack is
    not larger than ``chips`` (taking a player's last chip is the TD's
    decision: ``bust``).  During a hand, for a seat sitting it out, the
    deal's snapshot is reduced too, so a misdeal or undo keeps it."""
    s = t._seat(ev)
    n = as_int(ev.get("chips"))
    if n is None or n < 1 or n > MAX_CHIPS:
        raise Refused('Deduct needs "chips": how many chips to remove, a positive whole number')
    h = t.hand
    if h is not None and s in h.dealt:
        raise Refused("Seat %d is in this hand: remove the chips after it" % s)
    if n >= t.stacks[s]:
        raise Refused("Seat %d has only %d chips: ask the TD" % (s, t.stacks[s]))
    t.stacks[s] -= n
    t.removed += n
    if h is not None and t.predeal is not None and s in t.predeal[0]:
        t.predeal[0][s] -= n  # a re-deal starts from the stacks at the deal
    t.last = "Seat %d: %d chips removed from play" % (s, n)


EVENTS = {
    "misdeal": misdeal,
    "foul": foul,
    "relevel": relevel,
    "undo": undo,
    "warn": warn,
    "penalty": penalty,
    "kill": kill,
    "slow": slow,
    "disqualify": disqualify,
    "enter": enter,
    "deduct": deduct,
}

TYPE_CHECKING = False  # mypy takes it as True (no typing import on the board)
if TYPE_CHECKING:
    from typing import Any  # noqa: F401

    from .table import Table  # noqa: F401


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
        s = self._seat(ev)
        if self.away.is_away(s):
            raise Refused("Seat %d is already away" % s)
        self.away.back(s)  # (from TD business)
        self.away.leave(s)
        self.last = "Seat %d is away" % s
        h = self.hand
        if h is not None and h.actor == s:
            self.undo_ok = False
            self.last = "Seat %d is away: %s" % (s, h.auto_act(s))
            h.run(s)

    def _ev_td_business(self, ev):
        """LPPL ¶6: "a TD's hand cannot be folded if the action is with him but
        he is away from his seat on TD business ... the other players on his
        table must wait until his return unless he clearly states he is
        folding"."""
        s = self._seat(ev)
        if s in self.away.td:
            raise Refused("Seat %d is already away on TD business" % s)
        self.away.back(s)
        self.away.td.append(s)
        self.last = "Seat %d is away on TD business: the table waits" % s

    def _ev_back(self, ev):
        s = self._seat(ev)
        if not self.away.is_away(s) and s not in self.away.td:
            raise Refused("Seat %d is not away" % s)
        self.away.back(s)
        self.last = "Seat %d is back" % s

    def _ev_sit(self, ev):
        s = self._seat(ev, occupied=False)
        c = as_int(ev.get("stack"))
        if c is None or c <= 0 or c > MAX_CHIPS:
            raise Refused('Sit needs "stack": the player\'s chips, a positive whole number')
        used = ev.get("away_used", False)
        if not isinstance(used, bool):
            raise Refused('"away_used" must be true or false')
        self.stacks[s] = c
        self.seat_changes += 1
        if used:  # LPPL ¶72 "only allowed once per player": used at another table
            self.away.reached_stage(s)
        if self.hands or self.hand is not None:
            self.waiting.append(s)
        self.last = "Seat %d sits down with %d" % (s, c)

    def _ev_leave(self, ev):
        s = self._seat(ev)
        if self.hand is not None and s in self.hand.live:
            raise Refused("Seat %d is still in this hand: finish the hand first" % s)
        self._empty(s)
        self.last = "Seat %d leaves the table" % s

    def _ev_bust(self, ev):
        s = self._seat(ev)
        if self.hand is not None and s in self.hand.live:
            raise Refused("Seat %d is still in this hand: finish the hand first" % s)
        self.removed += self.stacks[s]
        self._empty(s)
        self.busted.append(s)
        self.last = "Seat %d is out" % s

    def _empty(self, s):
        del self.stacks[s]
        self.seat_changes += 1
        self.away.forget(s)
        self.floor.forget(s)
        if s in self.waiting:
            self.waiting.remove(s)
        if s in self.held:
            self.held.remove(s)
        if s in self.entering:
            self.entering.remove(s)

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
            raise Refused('No colour-up is due: give "chip", the smallest chip left in play')
        up = self.profile["colour_up_rounding"] == "up"
        for s in self.stacks:
            c = self.stacks[s]
            self.stacks[s] = coloured(c, unit, up)
            self.removed += c - self.stacks[s]
        if unit > self.chip:
            self.chip = unit
        self.last = "Colour-up: stacks rounded %s to %d" % ("up" if up else "to the nearest", unit)
