"""One poker table: seats, the level clock and the hand in play.

The replay contract's engine (docs/replay.md): ``Table(setup)``, then
``apply(event)`` per event, each returning the state dict (``handle`` does
the same without building the state).  A refused event changes nothing and
sets ``error`` to a sentence a dealer understands: every handler checks
before it changes anything.

Two attributes belong to the host's instructions (tcbox/instructions/at_table.py sets
them; the record keeps them): ``hold``, why no new hand may start (hand for
hand, a broken table), and ``moves``, seat changes and chip removals
waiting for the hand's end.  ``hand`` refuses while either stands in the
way.

``EVENTS`` is the table's one event registry: each event's name and its
handler, a function of the table and the event in the module of its concept
(actions: betting; hand: the deal; floor: seats; clockevents: the clock;
procedures: the floor procedures, loaded at the first one).  The rules live in
the modules these call: clock (levels), button (dead button, heads-up, waiting
seats), betting (who may bet what), hand (the course of a hand), pots (side
pots, odd chips), away (absent players' blinds), shotclock.  docs/rules.md
maps each to the sentence it comes from.
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple  # noqa: F401
    if TYPE_CHECKING:
        from .hand import Hand  # noqa: F401


from . import actions, clockevents, drop, floor
from .away import AwayBook
from .button import first_positions
from .clock import ClockError
from .fields import Refused, SetupError, as_int, check_whole, setup_int
from .hand import new_hand
from .state import state

# events after which the dealer's undo still takes back the last action: the
# actions themselves (each saves a new undo point) and what leaves a hand alone
_ACTIONS = ("check", "call", "fold", "bet", "raise", "allin")
_KEEPS_UNDO = _ACTIONS + ("tick", "pause", "resume", "adjust", "jump", "clock", "warn", "oot")
# facts held until the box's link takes them (Table.fact): a hand's end with a
# bust at each of 9 seats
FACTS_MAX = 10


def drop_setup_code():  # type: () -> None
    """Drop the setup's checks, the level list's reader and the house rules'
    table (config.py, levels.py, profiles.py) once the tables needed are
    built: the box and the replay build one rarely (issue #20: 6.8 KB of
    heap, .mpy, the 200-hand replay 86 -> 83 KiB; levels.py 1.3 KB more).
    The next ``Table(setup)`` imports them again; tests that build many
    tables keep them (a .py board would compile them each time)."""
    drop("tableclock.config")
    drop("tableclock.levels")
    drop("tableclock.profiles")


class Table:
    """A table of ``seats`` seats running one tournament's clock and hands.

    :param setup: the replay contract's setup dict (docs/replay.md).
    :raises SetupError: when the setup makes no sense.
    """

    def __init__(self, setup):  # type: (Dict[str, Any]) -> None
        if not isinstance(setup, dict):
            raise SetupError("The setup must be a JSON object")
        # the setup's checks and the house rules: imported here, not at boot
        # (drop_setup_code)
        from . import config

        profile = config.profile_of(setup)
        self.setup = setup  # kept for the power-loss record (record.py)
        self.profile = profile
        self.profile_name = setup.get("profile")
        self.n = setup_int(setup, "seats", 2, 10)
        self.stacks = config.seats_of(setup, self.n)
        self.first_button = setup_int(setup, "button", 1, self.n)
        self.chip = config.chip_of(setup)
        self.clock = config.clock_of(setup, profile)
        self.shot = config.shot_clock_of(setup, profile)
        self.away = AwayBook(profile["away_rounds"] if profile["away"] == "lppl" else 0)
        for seat in config.absent_of(setup, self.stacks):
            self.away.leave(seat, late=True)
        self.floor = floor.FloorBook()
        config.history_into(self, setup)
        self.waiting = []  # type: List[int]  # newly seated players waiting for the button
        # waiting seats already held back once: not dealt on the button
        self.held = []  # type: List[int]
        self.entering = []  # type: List[int]  # seats that post a dead big blind to enter
        self.seat_changes = 0  # sits, leaves and busts (a misdeal needs none)
        # what the deal changed, for a misdeal
        self.predeal = None  # type: Optional[Tuple[Any, ...]]
        # the last hand's predeal: its containers are refilled
        self.spare_predeal = None  # type: Optional[Tuple[Any, ...]]
        self.undo_ok = False  # the last event was an action the dealer may undo
        self.undo_text = None  # type: Optional[str]  # what that action was
        self.replaying = False  # an undo is playing the hand again
        self.undone = []  # type: List[str]  # what the dealer undid in this hand
        self.hands = 0
        self.hand = None  # type: Optional[Hand]
        # shown between hands; its object is dealt into next (hand.deal_hand)
        self.last_hand = None  # type: Optional[Hand]
        self.btn, self.sb_pos, self.bb_pos = first_positions(
            self.first_button, sorted(self.stacks), self.n)
        self.sb_seat = self.sb_pos
        self.dealer = self.btn if self.btn in self.stacks else self.sb_pos
        self.busted = []  # type: List[int]
        self.bust_ties = []  # type: List[List[int]]
        self.winners = {}  # type: Dict[int, int]
        self.removed = 0  # chips that left play (busts, colour-up rounding, deductions)
        self.hold = None  # type: Optional[str]  # None, HFH, HFH_ONE or BROKEN (above)
        # the host's seat changes (and chip removals) waiting for the hand's end
        # (tcbox/instructions/at_table.py): [instruction id, kind (0 out, 1 in, 2 deduct), seat,
        # to_table / stack / chips, to_seat / from_table / None; an arrival's
        # away_used and [warnings, slow_play, penalties] after]
        self.moves = []  # type: List[List[Any]]
        # the facts: what happened here that the host is told of, recorded when it
        # happened until the box's link takes them (``fact``); per fact 4 slots: what
        # and up to 3 fields.  Made once: a fact allocates nothing (issue #20)
        self.facts = [None] * (4 * FACTS_MAX)  # type: List[Any]
        self.nfacts = 0
        self.last = None  # type: Optional[str]
        self.error = None  # type: Optional[str]

    # ------------------------------------------------------------ events
    def apply(self, ev):  # type: (Dict[str, Any]) -> Dict[str, Any]
        """Apply one event dict; return the state.  Never raises."""
        self.handle(ev)
        return state(self)

    def state(self):  # type: () -> Dict[str, Any]
        return state(self)

    def handle(self, ev):  # type: (Dict[str, Any]) -> Optional[str]
        """Apply one event dict without building the state (the box's path).

        Returns None when accepted, else the refusal sentence (kept in
        ``error`` too).
        """
        try:
            self._dispatch(ev)
            self.error = None
            if ev["do"] not in _KEEPS_UNDO:  # only the last action can be undone
                self.undo_ok = False
            elif ev["do"] in _ACTIONS:
                self.undo_text = self.last
        except (Refused, ClockError) as e:
            self.error = str(e)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            self.error = "Bad event: %s" % e
        return self.error

    def _dispatch(self, ev):
        if not isinstance(ev, dict):
            raise Refused(0)  # An event must be an object like {"do": "call"}
        do = ev.get("do")
        if not isinstance(do, str):
            raise Refused(1)  # An event needs "do" naming what happened, e.g. "call"
        check_whole(ev)  # chips and seats are whole numbers, never "200" or 2.0
        fn = EVENTS.get(do)  # no string built, no bound method (issue #20, bench alloc_handle)
        if fn is None:
            raise Refused(2, do[:20])  # Unknown event %r
        fn(self, ev)

    def advance(self, ms):  # type: (int) -> bool
        """Let *ms* milliseconds pass (the box's loop calls this directly, the ``tick``
        event too; nothing is allocated unless something happens).  Returns True when
        a level or break ended or the shot clock expired."""
        if self.clock.paused:
            return False
        ended = self.clock.advance(ms)
        if self.shot.advance(ms) < 0:
            return ended > 0
        hand = self.hand
        seat = hand.actor
        rule = self.profile["clock_expiry"]
        if rule == "alert":  # US 4: "not to be used as a strict enforcement"
            self.shot.run_out()
            self.last = "Time: seat %d, %d s are up" % (seat, self.shot.limit_ms // 1000)
            return True
        self.shot.stop()
        self.undo_ok = False
        if rule == "slow_play":  # LPPL ¶51: "1st time a warning, thereafter automatic fold"
            from .procedures import slow_play  # loaded at the first (_procedure)

            self.last = "Time is up. " + slow_play(self, seat)
            return True
        self.last = "Time: seat %d %s" % (seat, hand.timed_out(seat))
        hand.run(seat)
        return True

    def _seat(self, ev, occupied=True):
        seat = as_int(ev.get("seat"))
        if seat is None:
            raise Refused(3)  # This event needs "seat": a seat number
        if seat < 1 or seat > self.n:
            raise Refused(4, seat, self.n)  # There is no seat %d at this %d-seat table
        if occupied and seat not in self.stacks:
            raise Refused(5, seat)  # Seat %d is empty
        if not occupied and seat in self.stacks:
            raise Refused(6, seat)  # Seat %d is taken
        return seat

    def _need_hand(self):
        if self.hand is None:
            raise Refused(7)  # No hand is running: press New hand first
        return self.hand

    def _need_actor(self, ev):
        hand = self._need_hand()
        if hand.actor is None:
            raise Refused(8)  # Betting is over: enter the showdown
        if "seat" in ev and as_int(ev.get("seat")) != hand.actor:
            raise Refused(9, hand.actor)  # It is seat %d's turn to act
        return hand  # its actor acts (no tuple of the two: issue #20, 32 B of an action)

    def _between_hands(self, what):
        if self.hand is not None:
            raise Refused(10, what)  # Finish the hand first, then %s

    def fact(self, what, a, b=None, c=None):
        # type: (str, Optional[int], Optional[int], Optional[int]) -> None
        """Record a fact the host is told of (the box event *what* with its fields in
        the order of tcbox/link/events.py's EVENT_FIELDS): a seat's bust (seat, chips
        at the hand's start, hand), a hand started (hand, button) or ended (hand), a
        seat away, back, or on the clock (seat).  Bounded: with FACTS_MAX held (nobody
        takes them: a replay, a table without a link) the oldest informational one
        gives way, else the oldest; nothing is allocated.  The box's link takes them
        (tcbox/link/box_end.py ``drain``) and sets ``nfacts`` to 0: the slots are reused."""
        s = self.facts
        n = self.nfacts
        if n >= FACTS_MAX:
            at = 0
            for i in range(n):
                if s[4 * i] != "bust":
                    at = i
                    break
            for j in range(4 * at, 4 * (n - 1)):
                s[j] = s[j + 4]
            n -= 1
        i = 4 * n
        s[i] = what
        s[i + 1] = a
        s[i + 2] = b
        s[i + 3] = c
        self.nfacts = n + 1

    def chip_unit(self):  # type: () -> int
        """The smallest chip in play: the setup's, raised by colour-ups."""
        chip = self.chip
        for entry in self.clock.colour_ups:
            n = as_int(entry.get("chip"))
            if n and n > chip and self.clock.passed_level(entry.get("after_level")):
                chip = n
        return chip

    def end_hand(self, won, tiers):  # type: (Dict[int, int], Optional[List[List[int]]]) -> None
        """Pay *won* (the table's ``winners``, filled by the caller), then take out the busted
        players in finishing order: fewer chips at the start of the hand finishes lower (LPPL,
        US 14); LPPL: with equal chips the better hand finishes higher; still equal -> listed
        by seat and flagged in ``bust_ties`` for the TD."""
        hand = self.hand
        for seat in won:
            if seat in self.stacks:
                self.stacks[seat] += won[seat]
        self.winners = won
        self.fact("hand_ended", hand.number)
        self.floor.hands_dealt(hand.penalised)  # missed one more hand each
        use_hand = tiers is not None and self.profile["bust_tiebreak_hand"]

        first = len(self.busted)  # after any taken out during the hand
        for seat in hand.dealt:
            if self.stacks.get(seat, 1) == 0:
                self.busted.append(seat)  # in place: no list of the busts (issue #20)
        if len(self.busted) > first:
            self._bust_out(first, hand, tiers if use_hand else None)
        self.shot.stop()
        self.last_hand = hand
        self.hand = None
        self.undo_ok = False
        self.spare_predeal = self.predeal
        self.predeal = None

    def _bust_out(self, first, hand, tiers):
        """Take out the seats of ``busted[first:]`` and sort them in finishing order (end_hand);
        *tiers* when the showdown's hands break ties.  An insertion sort with a comparison:
        no key function, closure or tuple per seat (issue #20: about 450 B of a showdown
        with a bust, bench alloc_showdown_max)."""
        out = self.busted
        for i in range(first + 1, len(out)):
            seat = out[i]
            j = i
            while j > first and _finish(hand, tiers, seat, out[j - 1]) < 0:
                out[j] = out[j - 1]
                j -= 1
            out[j] = seat
        ties = None
        i = first
        while i < len(out):
            j = i
            while j + 1 < len(out) and _rank(hand, tiers, out[j + 1], out[i]) == 0:
                j += 1
            if j > i:
                if ties is None:
                    ties = []
                ties.append(out[i:j + 1])
            i = j + 1
        for i in range(first, len(out)):
            seat = out[i]
            self.fact("bust", seat, hand.start[seat], hand.number)
            floor.empty_seat(self, seat)
        if ties is not None:
            self.bust_ties = ties
        elif self.bust_ties:
            self.bust_ties = []


def _procedure(table, ev):
    """A floor procedure (procedures.py, its function named as the event): the module loads
    at the first one, not at boot (issue #20: 6.3 KB of heap, .mpy)."""
    from . import procedures

    getattr(procedures, ev["do"])(table, ev)


# The table's one event registry: each event's name -> its handler, a function taking the
# table and the event dict, in the module of its concept (docs/architecture.md).
EVENTS = {
    # betting (actions.py)
    "check": actions.check, "call": actions.call, "fold": actions.fold, "bet": actions.bet,
    "raise": actions.bet, "allin": actions.allin, "oot": actions.oot,
    "showdown": actions.showdown,
    # the deal (hand.py)
    "hand": new_hand,
    # the seats (floor.py)
    "away": floor.away, "td_business": floor.td_business, "back": floor.back,
    "sit": floor.sit, "leave": floor.leave, "bust": floor.bust, "colour_up": floor.colour_up,
    # the clock (clockevents.py)
    "tick": clockevents.tick, "pause": clockevents.pause, "resume": clockevents.resume,
    "adjust": clockevents.adjust, "jump": clockevents.jump, "clock": clockevents.clock,
    # the floor procedures (procedures.py)
    "misdeal": _procedure, "foul": _procedure, "relevel": _procedure, "undo": _procedure,
    "warn": _procedure, "penalty": _procedure, "kill": _procedure, "slow": _procedure,
    "disqualify": _procedure, "enter": _procedure, "deduct": _procedure,
}

def _rank(hand, tiers, a, b):
    """Compare the finishing places of busted seats *a* and *b* (-1: *a* finishes lower):
    chips at the start of the hand, then, with *tiers*, the showdown's hand (none is lowest)."""
    if hand.start[a] != hand.start[b]:
        return -1 if hand.start[a] < hand.start[b] else 1
    if tiers is None:
        return 0
    ta = _tier_of(tiers, a)
    tb = _tier_of(tiers, b)
    return 0 if ta == tb else (-1 if ta > tb else 1)


def _finish(hand, tiers, a, b):
    """_rank, then the seat number: the order busted seats are listed in."""
    r = _rank(hand, tiers, a, b)
    return r if r else (-1 if a < b else (1 if a > b else 0))


def _tier_of(tiers, seat):
    for i in range(len(tiers)):
        if seat in tiers[i]:
            return i
    return len(tiers)  # no hand at the showdown: lowest

