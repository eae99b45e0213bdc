"""The dealers and the floor of a league night in a simulated room: :class:`LeagueDealer` (a
RoomNight that confirms moves as at a real table, plays bolder as the blinds rise, and keys
each decision to the table's state so a box back from a power cut meets the same decision)
and :class:`Floor` (checks that every moved player sits down with the chips they left with).
docs/demo.md, "What happens" (The dealers).
"""

from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from .dealers import RoomNight
from .driver import DriverError

WALK_MS = 20000  # a moved player reaches the new table this long after the receive appears
REPEAT_MAX = 50  # turns seeing the same state before the count stops growing
QUIET_MS = 10000  # waits at least this long are noted (make faults cuts the power then)


class Floor:
    """The chips between the tables: a check, not a part of the night.

    ``install(boxes)`` wraps the boxes' tcbox.instructions.at_table.carry_out and settle
    (nothing they do changes) to note, for every ``move_out`` a box carries out, the chips in
    the seat just before the player left (read from the table, not from what the box reports).
    ``arrived(table, ins)`` -- a dealer confirming a ``receive`` -- compares the receive's
    ``stack`` with them: ``arrivals`` counts the moved players seated, ``mismatched`` those
    whose receive gave other chips, ``drift`` the chips that made (+) or lost (-)."""

    def __init__(self) -> None:
        # (to_table, to_seat, from_table) -> the chips the player carries
        self.chips: Dict[Tuple[Any, Any, Any], Any] = {}
        self.table_of: Dict[str, int] = {}  # box id -> table number
        self._orders: Optional[Tuple[Any, Any]] = None
        self.arrivals = 0
        self.mismatched = 0
        self.drift = 0

    def install(self, boxes: Iterable[Any]) -> None:
        from tcbox.instructions import at_table

        from .stubs import _world

        self.table_of = {box.box_id: box.n for box in boxes}
        carry_out, settle = at_table.carry_out, at_table.settle
        self._orders = (carry_out, settle)
        floor = self

        def here() -> Optional[int]:
            return floor.table_of.get(_world.current().name)

        def carried(table: Any, ins: Any, *where: Any) -> Any:
            before = dict(table.stacks)
            res = carry_out(table, ins, *where)
            if isinstance(ins, dict) and ins.get("action") == "move_out" and \
                    res[0] == at_table.DONE:
                floor._carry(here(), ins.get("to_table"), ins.get("to_seat"),
                             before.get(ins.get("seat")))
            return res

        def settled(table: Any) -> Any:
            before = dict(table.stacks)
            waiting = [list(move) for move in table.moves]
            out = settle(table)
            for move, (_iid, res, _reason, _stack) in zip(waiting, out):
                if res == at_table.DONE and move[1] == at_table.OUT:
                    floor._carry(here(), move[3], move[4], before.get(move[2]))
            return out

        at_table.carry_out, at_table.settle = carried, settled

    def uninstall(self) -> None:
        if self._orders is not None:
            from tcbox.instructions import at_table

            at_table.carry_out, at_table.settle = self._orders
            self._orders = None

    def _carry(self, src: Any, to_table: Any, to_seat: Any, chips: Any) -> None:
        if src is not None and chips:
            self.chips[(to_table, to_seat, src)] = chips

    def arrived(self, table: int, ins: Dict[str, Any]) -> None:
        """The ``receive`` *ins* at *table* is confirmed: check its chips (class notes).
        A receive that names no table the player comes from (a latecomer, a standby player,
        a player sent back) is not a move between boxes: nothing to check."""
        src = ins.get("from_table")
        if src is None:
            return
        chips = self.chips.pop((table, ins.get("seat"), src), None)
        if chips is None:
            return  # left a table without a box: the TD walked them over
        self.arrivals += 1
        if ins.get("stack") != chips:
            self.mismatched += 1
            self.drift += (ins.get("stack") or 0) - chips


def depth(st: Dict[str, Any], seat: int) -> float:
    """A stack in big blinds (plus antes), for the dealer's sense of the blinds."""
    stack = st["stacks"].get(str(seat), 0) + st["bets"].get(str(seat), 0)
    return stack / float(max(1, st["bb"] + st["sb"] + (st["ante"] or 0)))


def allin_rate(bbs: float) -> float:
    """How often a player with *bbs* big blinds pushes when it is up to them."""
    if bbs > 30:
        return 0.01
    if bbs > 15:
        return 0.04
    if bbs > 8:
        return 0.10
    return 0.25


class Rebooted(Exception):
    """The box restarted during a press sequence: the rest of it is not pressed."""


class LeagueDealer(RoomNight):
    """A dealer at a box whose tournament the host runs (module notes).

    :param box: a tcsim.room.Box.  :param seed: the night's seed.
    :param floor: the room's :class:`Floor`.  :param pace: think times times this.
    """

    def __init__(self, box: Any, seed: int = 1, floor: Optional[Floor] = None,
                 pace: float = 1.0) -> None:
        RoomNight.__init__(self, box, seed=seed, pace=pace)
        self.seed = seed
        self.floor = floor or Floor()
        self.table_no = box.n
        self.last_key: Optional[Tuple[Any, ...]] = None
        self.repeat = 0
        self.errors = 0  # turns given up after a reboot under the dealer's hands
        # receive id -> virtual ms it was first seen on screen
        self.waiting_since: Dict[Any, int] = {}
        self.boots = box.boots
        # the box's boot count when the press sequence began
        self.seq_boots: Optional[int] = None
        # (room clock ms, ms): the dealer's waits of QUIET_MS or more
        self.quiet: List[Tuple[int, int]] = []
        box.press = self._press  # every press of this dealer goes through the guard
        self.dealer.do = self._sequence(self.dealer.do)  # type: ignore[method-assign]
        self.dealer.confirm = self._sequence(  # type: ignore[method-assign]
            self.dealer.confirm)

    # -- the generator -----------------------------------------------------
    def reseed(self, st: Dict[str, Any]) -> None:
        key = (st["hand"], st["street"], st["action"], st["pot"], st["to_call"],
               tuple(sorted(st["stacks"].items())), tuple(sorted(st["bets"].items())),
               st["paused"], st["on_break"], tuple(st["away"]))
        if key == self.last_key:
            self.repeat = min(self.repeat + 1, REPEAT_MAX)
        else:
            self.last_key = key
            self.repeat = 0
        self.rng.seed("%s/%s/%r/%d" % (self.seed, self.table_no, key, self.repeat))

    # -- one turn ----------------------------------------------------------------
    def idle(self, seconds: float) -> None:
        ms = int(seconds * 1000 * self.pace)
        if ms >= QUIET_MS:
            self.quiet.append((self.sim.room.clock(), ms))
        RoomNight.idle(self, seconds)

    def _sequence(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """*fn* (the driver's do or confirm) as one press sequence: a reboot in the middle
        of it stops the rest (see _press)."""
        def run(*args: Any) -> Any:
            self.seq_boots = self.sim.boots
            try:
                return fn(*args)
            finally:
                self.seq_boots = None
        return run

    def _press(self, role: str, ms: int = 80) -> None:
        box = self.sim
        if self.seq_boots is not None and box.boots != self.seq_boots:
            raise Rebooted()
        type(box).press(box, role, ms)
        if self.seq_boots is not None and box.boots != self.seq_boots:
            raise Rebooted()

    def turn(self) -> Any:
        self.boots = self.sim.boots
        try:
            return self._turn()
        except Exception:  # noqa: BLE001 -- only after a reboot under the dealer's hands
            if self.sim.boots == self.boots:
                raise
            self.errors += 1
            return "rebooted"

    def _turn(self) -> Any:
        self.turns += 1
        sim = self.sim
        app = sim.box
        st = self.state()
        self.reseed(st)
        ins = app.info.get("instruction") if app.awaiting() else None
        if ins is not None and self._ready(ins):
            if app.dirty:
                sim.step()  # on screen first (the presses are found on the menu shown)
            try:
                self.dealer.confirm()
            except DriverError:  # not offered on this screen (a showdown): later
                self._count("confirm later")
            else:
                self._count("confirm")
                self._confirmed(ins)
                return "confirm"
        if st["paused"]:  # the host paused the clock: its resume comes over the link
            self.idle(5)
            return "paused"
        chore = self._chores(st)
        if chore is not None:
            return chore
        if st["street"] is None and app.table.hold == "redraw":
            self.idle(2)  # the final table sits down once every table finished its hand
            return "waiting"
        if st["street"] is None:
            if ins is not None and sum(1 for v in st["stacks"].values() if v > 0) < 2:
                self.idle(2)
                return "waiting"
            return self._between_hands(st)
        if st["street"] == "showdown":
            return self._showdown(st)
        return self._act(st)

    def _confirmed(self, ins: Any) -> None:
        """The dealer has just confirmed *ins*: a ``receive``'s player sits down (the
        floor checks their chips)."""
        if isinstance(ins, dict) and ins.get("action") == "receive":
            self.waiting_since.pop(ins.get("id"), None)
            self.floor.arrived(self.table_no, ins)

    def _chores(self, st: Dict[str, Any]) -> Optional[str]:
        """Something the dealer does before the hand's own business, as a word for the
        turn, or None (none here: tcsim.scale's dealer deals no new hand once closing)."""
        return None

    def _ready(self, ins: Any) -> bool:
        """May the dealer confirm *ins* now?  A ``receive`` once the player has walked
        over (``WALK_MS`` after it appeared); anything else at once."""
        if not isinstance(ins, dict) or ins.get("action") != "receive":
            return True
        now = self.sim.room.clock()
        since = self.waiting_since.setdefault(ins.get("id"), now)
        return now - since >= WALK_MS

    def _act(self, st: Dict[str, Any]) -> Any:
        rng = self.rng
        seat = st["action"]
        if st["shot_clock"] is None and rng.random() < 0.04:
            return RoomNight._act(self, st)  # a slow player: the clock is called
        self.idle(rng.uniform(2, 15))  # thinking
        st = self.state()
        if st["street"] in (None, "showdown") or st["action"] != seat or st["paused"]:
            return "wait"
        if rng.random() < 0.02:  # away in the middle of a hand (not the actor)
            others = [other for other in st["in_hand"] if other != seat and other not in st["away"]]
            if others:
                self.do({"do": "away", "seat": rng.choice(others)})
                return "away"
        owe = st["to_call"]
        stack = st["stacks"][str(seat)]
        top = st["bets"].get(str(seat), 0) + stack
        lo = st["min_raise_to"]
        bbs = depth(st, seat)
        push = allin_rate(bbs)
        roll = rng.random()
        if owe >= stack:  # calling puts the player all-in
            call = 0.2 if bbs > 15 else 0.5
            ev = {"do": "allin" if rng.random() < call else "fold"}
        elif lo is not None and roll < push:
            ev = {"do": "allin"}
        elif lo is not None and roll < push + 0.12:
            to = lo + st["bb"] * rng.randint(0, 3)  # what the amount entry makes
            ev = {"do": "allin"} if to >= top else {"do": "raise", "to": to}
        elif owe and roll < 0.55:
            ev = {"do": "fold"}
        else:
            ev = {"do": "call" if owe else "check"}
        self.do(ev)
        return ev["do"]
