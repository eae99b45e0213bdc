"""The dealers and the floor of a league night in a simulated room (docs/demo.md; issue #7).

``LeagueDealer(box, seed, floor)`` is a tcsim.dealers.RoomNight (random but legal betting
through the box's keys, showdowns and splits, players away and back, clocks called, misclicks
the box refuses) that deals a tournament the host runs:

- **Seat changes as at a real table.**  A ``move_out`` is confirmed when the dealer sees it
  (the box carries it out at the hand's end); a ``receive`` only once the player has walked
  over (:class:`Floor`: the other box carried out its ``move_out``, then ``WALK_MS``).  A
  player who never comes -- they busted at their old table before leaving it, so the host
  called the move off -- is confirmed away: the dealer confirms the ``receive`` (the only
  key there is) and takes the seat out again between hands ("Seat N is out"), which the host
  logs as a notice.
- **The blinds decide the play.**  All-ins are rare while stacks are deep (more than 30 big
  blinds: 1 % of decisions), common when short (under 8: 25 %); an all-in is called less
  often by a deep stack.  So the night starts slowly and ends: LPPL's structure reaches
  3000/6000 with 150,000 chips in play.
- **Decisions keyed to the table.**  Each turn reseeds the dealer's generator from the seed,
  the table, the hand number and the state of the hand (seats, bets, pot, street) and how
  many turns saw that same state.  The same seed gives the same night; and a box that loses
  its power and comes back with the same table (the power-loss record) sees the same
  decision again rather than the next number of a sequence.
- A box that loses its power under the dealer's hands: the dealer stops pressing (the rest
  of a sequence would land on a menu that started afresh) and looks at the table again next
  turn; the dealer's own plan (when to act next) goes on, as a person's would.

Pure simulation code (CPython): the box's firmware is tcsim.room's.
"""

from .dealers import RoomNight
from .driver import DriverError

WALK_MS = 20000  # a moved player reaches the new table this long after leaving the old one
GIVE_UP_MS = 15 * 60000  # a receive waited this long: the dealer seats the player anyway
REPEAT_MAX = 50  # turns seeing the same state before the count stops growing
QUIET_MS = 10000  # waits at least this long are noted (make faults cuts the power then)


class Floor:
    """What happens between the tables: who has left which seat for where.

    Times are the room's clock (Unix ms).  ``watch(boxes, now_ms)`` reads each box's
    instruction record (``link.instrs``: id, result, reason, body; the body is kept only
    until the box answers, so it is noted when the instruction arrives) and notes every
    ``move_out`` a box carried out (``done``): the player arrives at the
    ``to_table``/``to_seat`` it names ``WALK_MS`` later.  A
    ``move_out`` the box refused means that player is not coming; so does a move the host
    called off (*live()*: the host's Live, which the TD asks).  ``left_at`` notes a player
    the TD walked over himself (a table without a box)."""

    def __init__(self, live=None):
        self.live = live  # a callable returning the host's tdhost.live.Live, or None
        self.bodies = {}  # (box id, instruction id) -> body
        self.left = {}  # (to_table, to_seat, from_table) -> virtual ms the player left
        self.off = set()  # (to_table, to_seat, from_table): the move will not happen
        self.seen = set()  # (box id, instruction id) answered
        self.chips = {}  # (to_table, to_seat, from_table) -> the chips the player carries
        self.table_of = {}  # box id -> table number
        self._orders = None
        self.arrivals = 0
        self.told = 0  # receives without chips: the TD told the dealer the player's chips
        self.corrected = 0  # receives whose chips were not what the player brought
        self.drift = 0  # the chips those receives would have added (+) or lost (-)

    def watch(self, boxes, now_ms):
        for b in boxes:
            link = b.link if b.on else None
            if link is None:
                continue
            for r in link.instrs:
                iid, result, body = r[0], r[1], r[3]
                k = (b.box_id, iid)
                if isinstance(body, dict):
                    self.bodies.setdefault(k, body)
                if result not in ("done", "refused") or k in self.seen:
                    continue
                self.seen.add(k)
                body = self.bodies.pop(k, None)
                if body is None or body.get("action") != "move_out":
                    continue
                key = (body.get("to_table"), body.get("to_seat"), b.n)
                if result == "done":
                    self.left_at(key, now_ms)
                else:
                    self.off.add(key)

    # -- the chips a moved player carries ----------------------------------------
    def install(self, boxes):
        """Watch the boxes carry out their seat changes (tcbox.orders.carry_out and settle,
        wrapped: nothing they do changes) to note the chips each moved player takes along."""
        from tcbox import orders

        from .stubs import _world

        self.table_of = {b.box_id: b.n for b in boxes}
        carry_out, settle = orders.carry_out, orders.settle
        self._orders = (carry_out, settle)
        floor = self

        def here():
            return floor.table_of.get(_world.current().name)

        def carried(t, ins):
            res = carry_out(t, ins)  # (result, reason, the stack a move_out took along)
            if isinstance(ins, dict) and ins.get("action") == "move_out" and \
                    res[0] == orders.DONE:
                floor._carry(here(), ins.get("to_table"), ins.get("to_seat"), res[2])
            return res

        def settled(t):
            waiting = [list(m) for m in t.moves]
            out = settle(t)
            for m, (_iid, res, _reason, stack) in zip(waiting, out):
                if res == orders.DONE and m[1] == orders.OUT:
                    floor._carry(here(), m[3], m[4], stack)
            return out

        orders.carry_out, orders.settle = carried, settled

    def uninstall(self):
        if self._orders is not None:
            from tcbox import orders

            orders.carry_out, orders.settle = self._orders
            self._orders = None

    def _carry(self, src, to_table, to_seat, chips):
        if src is not None and chips:
            self.chips[(to_table, to_seat, src)] = chips

    def left_at(self, key, now_ms):
        self.left[key] = now_ms
        self.off.discard(key)

    def arrived(self, table, ins, now_ms):
        """Has the player of *ins* (a ``receive`` at *table*) walked in?  A receive that
        names no table they come from (a latecomer, a standby player) is there at once.

        The player sits down with the chips they brought from the old table: a receive that
        gives no chips (the host planned the move before any status of the player's box
        showed them at their seat) or other chips (the host's are from the box's last status,
        before the hand the player left after) gets them written into it, as the TD would
        tell the dealer: the box has no key to enter them (docs/demo.md, "What the demo
        found")."""
        src = ins.get("from_table")
        if src is None:
            return True
        key = (table, ins.get("seat"), src)
        t = self.left.get(key)
        if t is not None and now_ms - t >= WALK_MS:
            self.left.pop(key)
            self.arrivals += 1
            chips = self.chips.pop(key, None)
            if chips and ins.get("stack") != chips:
                if ins.get("stack"):
                    self.corrected += 1
                    self.drift += ins["stack"] - chips
                else:
                    self.told += 1
                ins["stack"] = chips  # the player sits down with the chips they brought
            return True
        return False

    def not_coming(self, table, ins):
        if (table, ins.get("seat"), ins.get("from_table")) in self.off:
            return True
        return self.called_off(ins)

    def called_off(self, ins):
        """Did the host cancel instruction *ins* (the TD tells the dealer)?"""
        live = self.live() if self.live is not None else None
        if live is None:
            return False
        r = live.t.instrs.get(ins.get("id"))
        if r is None:
            return False
        from tdhost import instructions as _ins

        return _ins.cancelled(r)


def depth(st, seat):
    """A stack in big blinds (plus antes), for the dealer's sense of the blinds."""
    stack = st["stacks"].get(str(seat), 0) + st["bets"].get(str(seat), 0)
    return stack / float(max(1, st["bb"] + st["sb"] + (st["ante"] or 0)))


def allin_rate(bbs):
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

    def __init__(self, box, seed=1, floor=None, pace=1.0):
        RoomNight.__init__(self, box, seed=seed, pace=pace)
        self.seed = seed
        self.floor = floor or Floor()
        self.table_no = box.n
        self.phantoms = []  # seats confirmed for a player who is not coming
        self.last_key = None
        self.repeat = 0
        self.errors = 0  # turns given up after a reboot under the dealer's hands
        self.removed = 0
        self.called_off = 0  # instructions confirmed that the host had called off
        self.gave_up = 0
        self.waiting_since = {}  # receive id -> virtual ms first seen
        self.boots = box.boots
        self.seq_boots = None  # the box's boot count when the press sequence began
        self.quiet = []  # (room clock ms, ms): the dealer's waits of QUIET_MS or more
        box.press = self._press  # every press of this dealer goes through the guard
        self.dealer.do = self._sequence(self.dealer.do)
        self.dealer.confirm = self._sequence(self.dealer.confirm)

    # -- the generator -----------------------------------------------------
    def reseed(self, st):
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
    def idle(self, seconds):
        ms = int(seconds * 1000 * self.pace)
        if ms >= QUIET_MS:
            self.quiet.append((self.sim.room.clock(), ms))
        RoomNight.idle(self, seconds)

    def _sequence(self, fn):
        """*fn* (the driver's do or confirm) as one press sequence: a reboot in the middle
        of it stops the rest (see _press)."""
        def run(*args):
            self.seq_boots = self.sim.boots
            try:
                return fn(*args)
            finally:
                self.seq_boots = None
        return run

    def _press(self, role, ms=80):
        box = self.sim
        if self.seq_boots is not None and box.boots != self.seq_boots:
            raise Rebooted()
        type(box).press(box, role, ms)
        if self.seq_boots is not None and box.boots != self.seq_boots:
            raise Rebooted()

    def turn(self):
        self.boots = self.sim.boots
        try:
            return self._turn()
        except Exception:  # noqa: BLE001 -- only after a reboot under the dealer's hands
            if self.sim.boots == self.boots:
                raise
            self.errors += 1
            return "rebooted"

    def _turn(self):
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
                self._count("confirm")
                return "confirm"
            except DriverError:  # not offered on this screen (a showdown): later
                self._count("confirm later")
        if st["paused"]:  # the host paused the clock: its resume comes over the link
            self.idle(5)
            return "paused"
        if st["street"] is None and self.phantoms:
            return self._take_out()
        if st["street"] is None:
            if ins is not None and sum(1 for v in st["stacks"].values() if v > 0) < 2:
                self.idle(2)
                return "waiting"
            return self._between_hands(st)
        if st["street"] == "showdown":
            return self._showdown(st)
        return self._act(st)

    def _ready(self, ins):
        """May the dealer confirm *ins* now?"""
        if not isinstance(ins, dict):
            return True
        if ins.get("action") != "receive":
            if self.floor.called_off(ins):
                self.called_off += 1  # the box has no other key for it than Confirm
            return True
        now = self.sim.room.clock()
        if self.floor.arrived(self.table_no, ins, now):
            return True
        if self.floor.not_coming(self.table_no, ins):
            self.phantoms.append(ins.get("seat"))
            return True
        since = self.waiting_since.setdefault(ins.get("id"), now)
        if now - since >= GIVE_UP_MS:
            self.gave_up += 1
            return True
        return False

    def _take_out(self):
        seat = self.phantoms.pop(0)
        if str(seat) in self.state()["stacks"]:
            self.do({"do": "bust", "seat": seat})
            self.removed += 1
        return "take out"

    def _act(self, st):
        rng = self.rng
        seat = st["action"]
        if st["shot_clock"] is None and rng.random() < 0.04:
            return RoomNight._act(self, st)  # a slow player: the clock is called
        self.idle(rng.uniform(2, 15))  # thinking
        st = self.state()
        if st["street"] in (None, "showdown") or st["action"] != seat or st["paused"]:
            return "wait"
        if rng.random() < 0.02:  # away in the middle of a hand (not the actor)
            others = [s for s in st["in_hand"] if s != seat and s not in st["away"]]
            if others:
                self.do({"do": "away", "seat": rng.choice(others)})
                return "away"
        owe = st["to_call"]
        stack = st["stacks"][str(seat)]
        top = st["bets"].get(str(seat), 0) + stack
        lo = st["min_raise_to"]
        bbs = depth(st, seat)
        push = allin_rate(bbs)
        r = rng.random()
        if owe >= stack:  # calling puts the player all-in
            call = 0.2 if bbs > 15 else 0.5
            ev = {"do": "allin" if rng.random() < call else "fold"}
        elif lo is not None and r < push:
            ev = {"do": "allin"}
        elif lo is not None and r < push + 0.12:
            to = lo + st["bb"] * rng.randint(0, 3)  # what the amount entry makes
            ev = {"do": "allin"} if to >= top else {"do": "raise", "to": to}
        elif owe and r < 0.55:
            ev = {"do": "fold"}
        else:
            ev = {"do": "call" if owe else "check"}
        self.do(ev)
        return ev["do"]
