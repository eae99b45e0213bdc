"""The chaos drill (`make chaos`; docs/live.md "The chaos drill", docs/demo.md): one league
night on the live host with everything going wrong at random, seeded, on one virtual clock,
and after every quiet period the checks that host and boxes agree.

The room is tests/host/liveroom.py's (a league file set up with the CLI, ``Live`` on it),
with boxes that are the firmware's own parts: ``tcbox.link.box_end.Link`` on a Table, and the App's
instruction handling (``tcbox.instructions.pending.HostInstructions``: shown, the dealer's Confirm,
withdraws at once, the seat changes settled at the hand's end).  Each box's cable is a
:class:`FaultCable`: whole lines late by a random delay (so reordered), dropped and
duplicated while the chaos runs.

A run is ``ROUNDS`` rounds: ``CHAOS_MS`` of steps (module ``steps``: the TD's actions through
``Live.act``, the CLI's commands on the same file from another connection, ``restore`` that
must be refused while serve holds the file, host kills, box power cuts), with random dealer
play and misclicks throughout; then a quiet period (links healthy, no TD action, the dealers
finish their hands and carry out every instruction) and the checks (:func:`check`).

The steps are drawn from the seed up front, each ``[at ms, kind, pick]`` (*pick* a number
that chooses the player, the level... from what the league has then): a failing seed writes
them to a JSON recipe, and ``--recipe FILE`` replays exactly that (steps may be deleted from
the file to narrow a failure down).

    python tests/tools/chaos.py --seeds 1-20          # make chaos [SEEDS=1-20]
    python tests/tools/chaos.py --recipe /tmp/chaos-17.json
"""

import argparse
import datetime
import json
import os
import random
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for _p in (os.path.join(ROOT, "tests", "core"), os.path.join(ROOT, "tests", "host"),
           os.path.join(ROOT, "host_tools")):  # core: link_util's StandIn (liveroom.py)
    if _p not in sys.path:
        sys.path.insert(0, _p)
if os.path.join(ROOT, "firmware") not in sys.path:
    sys.path.append(os.path.join(ROOT, "firmware"))  # after the stdlib: its code.py (conftest)

import pathlib  # noqa: E402

from hostutil import T0, run  # noqa: E402
from liveroom import KEY, KEY_ID, MASK, Room  # noqa: E402

from tableclock import record  # noqa: E402
from tableclock.hand import BROKEN  # noqa: E402
from tcbox.app import HOOKS  # noqa: E402
from tcbox.instructions.book import Book  # noqa: E402
from tcbox.instructions.pending import HostInstructions  # noqa: E402
from tcbox.link.box_end import LIVE, Link  # noqa: E402
from tdhost.league import store as _store  # noqa: E402
from tdhost.league.refusal import ActionRefused  # noqa: E402
from tdhost.links.boxlink import BoxLink  # noqa: E402
from tdhost.live import instruction_log as _ins, room_plan as _room  # noqa: E402
from tdhost.live.night import Live  # noqa: E402

STEP_MS = 100  # the room's loop: every box and the host once
ROUNDS = 3
CHAOS_MS = 150000  # steps, faults and misclicks this long per round
QUIET_MS = 240000  # then at most this long to settle
STEPS_PER_ROUND = 12
PLAYERS = 26
SEATS = 8
KINDS = ("bust", "bust", "undo", "undo", "redo", "late", "pause", "resume", "level", "adjust",
         "cli_bust", "cli_undo", "cli_move", "cli_plan", "restore", "host_kill", "power_cut",
         "power_cut")
POWER_OFF_MS = 8000
# the draw and "shuffle up and deal": not undone while the boxes play (reported: the host
# lets the TD undo them then, and the boxes play on; see the drill's notes in docs/live.md)
FIRST = ("draw", "start")
HAND_EVERY_MS = (10000, 60000)  # a dealer starts a hand this long after the last one
ACT_EVERY_MS = (300, 3000)  # a player acts this long after the last action
CONFIRM_MS = (500, 20000)  # a dealer confirms an instruction this long after it shows


class Failure(AssertionError):
    """An invariant that did not hold (the sentence says which and where)."""


# ----------------------------------------------------------------- the cable
class FaultEnd:
    """One end of a :class:`FaultCable` (the API of tdhost.links.pipe.CableEnd)."""

    def __init__(self, cable, name):
        self.cable = cable
        self.name = name
        self.baudrate = 115200
        self.inbox = bytearray()  # delivered, not read yet
        self.flight = []  # [due ms, n, line] written by the OTHER end, not delivered yet
        self.partial = bytearray()  # this end's bytes written after its last newline

    @property
    def connected(self):
        return self.cable.up

    @property
    def in_waiting(self):
        self.cable.deliver()
        return len(self.inbox)

    def read(self, n=1):
        data = bytes(self.inbox[:n])
        del self.inbox[:n]
        return data

    def write(self, buf):
        if not self.cable.up:
            return 0
        self.partial.extend(bytes(buf))
        while True:
            i = self.partial.find(b"\n")
            if i < 0:
                break
            line = bytes(self.partial[:i + 1])
            del self.partial[:i + 1]
            self.cable.send(self, line)
        return len(buf)

    def flush(self):
        pass


class FaultCable:
    """A cable whose lines arrive after a random delay (hence out of order), some lost, some
    twice, while ``faults`` is on; in order after a short delay otherwise."""

    def __init__(self, clock, rng, silent_drops=False):
        self.clock = clock
        self.rng = rng
        self.powered = True  # False from a power cut to the power coming back
        self.down_until = 0  # a link drop: nothing passes until then
        self.silent_drops = silent_drops
        self.faults = True
        self.n = 0
        self.a = FaultEnd(self, "box")
        self.b = FaultEnd(self, "host")
        self.counts = {"dropped": 0, "doubled": 0, "lines": 0}

    def other(self, end):
        return self.b if end is self.a else self.a

    def send(self, end, line):
        to = self.other(end)
        now = self.clock()
        self.counts["lines"] += 1
        copies = 1
        delay = 5
        if self.faults:
            r = self.rng.random()
            if r < 0.03:
                self.counts["dropped"] += 1
                if not self.silent_drops:  # as USB and MQTT lose frames: the link drops
                    self._clear()
                    self.down_until = now + self.rng.choice((200, 1000, 3000))
                return
            if r < 0.06:
                self.counts["doubled"] += 1
                copies = 2
            delay = self.rng.choice((5, 20, 50, 150, 400, 1200))
        elif to.flight:
            delay = max(5, to.flight[-1][0] - now)  # in order once healthy
        for k in range(copies):
            self.n += 1
            to.flight.append([now + delay + 30 * k, self.n, line])
        to.flight.sort()

    def deliver(self):
        now = self.clock()
        for end in (self.a, self.b):
            while end.flight and end.flight[0][0] <= now:
                end.inbox.extend(end.flight.pop(0)[2])

    @property
    def up(self):
        return self.powered and self.clock() >= self.down_until

    def _clear(self):
        for end in (self.a, self.b):
            end.flight = []
            end.partial = bytearray()
            end.inbox = bytearray()

    def cut(self):
        """Nothing in flight arrives; writes are refused until ``mend``."""
        self.powered = False
        self._clear()

    def mend(self):
        self.powered = True


# ----------------------------------------------------------------- a box
def _calm(st):
    """A table's state without its last refusal: what a refused press must leave alone."""
    return json.dumps({k: v for k, v in st.items() if k not in ("error", "last")},
                      sort_keys=True)


class Desk(HostInstructions):
    """What the box's App keeps of the host's instructions (tcbox.instructions.pending, its book
    tcbox.instructions.book): the one on screen, the ones waiting, the answers; no screen, no
    keys.  Its link is its part as the App's is (``add``, tcbox/app.py HOOKS), with the App's
    services to it."""

    saver = None
    state = None

    def __init__(self, box):
        self.box = box
        self.info = {}
        self.book = Book()  # its link's, once added (use_book)
        self.dirty = False
        self.level_key = None
        self.hooked = {name: [] for name in HOOKS}
        self.menu = type("Menu", (), {"note": ""})()
        self.table = None

    def save(self):
        pass

    def add(self, part):
        """tcbox.app.App.add."""
        for name in HOOKS:
            if getattr(part, name, None) is not None:
                self.hooked[name].append(part)
        part.added(self)

    def take_table(self, table):
        self.table = table
        self.state = None
        self.level_key = None
        self.dirty = True
        self.save()

    def changed(self):
        self.dirty = True

    def show_link(self, text, table_no):
        pass


class ChaosBox:
    """One table's box: Link + Table + Desk on a FaultCable; a seeded dealer."""

    def __init__(self, room, table, box_id):
        self.room = room
        self.number = table
        self.id = box_id
        self.rng = random.Random("dealer/%s/%s" % (room.seed, table))
        self.cable = FaultCable(room.clock, random.Random("link/%s/%s" % (room.seed, table)),
                                room.silent_drops)
        self.made = []  # every box event id queued (boot-n)
        # player -> [(chips, seq)]: the chips the dealer took off at each take_out done (an
        # entry undone and entered again is taken out once per entry: seed 792)
        self.taken = {}
        self.off_until = None  # a power cut: back at this room time
        self.boots = 0
        self._boot(None, None)
        self.link.table_no = table
        self.host = None
        self.connect()

    def _boot(self, table, extra):
        self.boots += 1
        self.link = Link(self.cable.a, self.id, table, key=KEY, key_id=KEY_ID,
                         urandom=random.Random("nonce/%s/%s/%s" % (
                             self.room.seed, self.number, self.boots)).randbytes)
        self.link.restore(extra)
        self.desk = Desk(self)
        self.desk.table = table
        self.desk.add(self.link)
        event = self.link.event

        def queued(ev):
            eid = event(ev)
            if eid is not None:
                self.made.append((eid, ev[0]))
            return eid
        self.link.event = queued
        done = self.link.instruction_done

        def answered(iid, result, reason=None, stack=None):
            ins = self._shown.get(iid)
            if ins and ins.get("action") == "take_out" and result == "done" and ins.get("name"):
                self.taken.setdefault(ins.get("name"), []).append(
                    (stack or 0, self.room.written_at(iid)))
            elif ins and ins.get("action") == "move_out" and result == "done":
                self.room.walking[ins.get("name")] = (stack or 0, self.room.live.last_seq)
            elif ins and ins.get("action") == "receive" and result == "done":
                self.room.walking.pop(ins.get("name"), None)
                self.seated_back(ins.get("name"))
            if ins and ins.get("action") == "take_out" and result == "done" \
                    and not ins.get("name"):  # the TD cleared a seat a slip filled
                self.room.adjust -= stack or 0
                self.room.strangers.pop((self.number, ins.get("seat")), None)
                self.room.fixing.discard((self.number, ins.get("seat")))
            elif ins and ins.get("action") == "receive" and result == "done" \
                    and ins.get("name") in self.room.lost:
                name = ins.get("name")  # seated again after a slip took them off
                self.room.adjust += ins.get("stack") or 0
                self.room.lost.pop(name, None)
                self.room.fixing.discard(name)
            return done(iid, result, reason, stack)
        self.link.instruction_done = answered
        instruct = self.desk.instruct

        def shown(ins):
            if isinstance(ins, dict) and ins.get("id") is not None:
                self._shown[ins["id"]] = ins
            instruct(ins)
        self._shown = getattr(self, "_shown", {})
        self.desk.instruct = shown  # the link hands each instruction to the desk's
        self.next_hand = self.room.now + self.rng.randrange(*HAND_EVERY_MS)
        self.next_act = 0
        self.confirm_at = None

    def seated_back(self, name):
        """*name* sat down again at a box: chips a take_out took off them at a box came back
        into play with them (a bust undone), unless they entered afresh since (a late entry
        undone and entered again: ``chips_gone`` counts that one)."""
        lg = self.room.live.lg
        for b in self.room.boxes.values():
            b.taken[name] = [took for took in b.taken.get(name, ()) if any(
                ev.action in ("late", "reenter") and ev.seq > took[1]
                and ev.seq not in lg.undone and ev.payload.get("name") == name
                for ev in lg.events)]

    def connect(self):
        self.host = BoxLink(self.cable.b, KEY, KEY_ID, self.room.store, clock=self.room.clock)
        self.room.live.add_link(self.host)

    @property
    def table(self):
        return self.link.table

    @property
    def on(self):
        return self.off_until is None

    def power_cut(self, now):
        """The power goes now: what the box keeps is its power-loss record."""
        t = self.link.table
        self.record = record.decode(record.encode(record.dump(t, self.link.extra()))) \
            if t is not None else None
        self.saved_extra = self.link.extra()
        self.off_until = now + POWER_OFF_MS
        self.cable.cut()

    def power_on(self):
        self.cable.mend()
        if self.record is not None:
            t2, extra = record.load(self.record)
        else:
            t2, extra = None, self.saved_extra
        self.off_until = None
        self._boot(t2, extra)

    def do(self, ev):
        """A dealer's key press: the table takes it or refuses it (a sentence, nothing
        changed); the link sees the state after."""
        t = self.table
        before = _calm(t.state()) if ev.get("misclick") else None
        ev = {k: v for k, v in ev.items() if k != "misclick"}
        err = t.handle(ev)
        if before is not None and err is not None:
            if _calm(t.state()) != before:
                raise Failure("table %d: the refused press %s changed the table" % (
                    self.number, ev))
            if not err.strip():
                raise Failure("table %d: the press %s was refused without a sentence" % (
                    self.number, ev))
        self.link.observe(t.state())
        if t.moves and t.hand is None:
            self.desk.settle()
        return err

    def step(self, now, quiet):
        if not self.on:
            if now >= self.off_until:
                self.power_on()
            return
        t = self.table
        if t is not None:
            t.advance(STEP_MS)
            if t.moves and t.hand is None:
                self.desk.settle()
        self.link.poll(now & MASK)
        t = self.table
        if t is not None and self.link.last_state is None:
            self.link.observe(t.state())
        if t is not None and self.link.state == LIVE:
            self.deal(now, quiet)

    # -- the dealer ---------------------------------------------------
    def deal(self, now, quiet):
        t = self.table
        desk = self.desk
        if desk.info.get("instruction"):
            if self.confirm_at is None:
                self.confirm_at = now + (1000 if quiet else self.rng.randrange(*CONFIRM_MS))
            if now >= self.confirm_at:
                self.confirm_at = None
                desk.ack()
                self.link.observe(t.state())
                if t.moves and t.hand is None:
                    desk.settle()
            return
        if not quiet and self.rng.random() < 0.004:
            self.misclick()
        if t.hand is None:
            if quiet or now < self.next_hand or t.hold is not None:
                return
            if self.do({"do": "hand"}) is None:
                self.next_act = now + self.rng.randrange(*ACT_EVERY_MS)
            self.next_hand = now + self.rng.randrange(*HAND_EVERY_MS)
            return
        if now < self.next_act and not quiet:
            return
        self.next_act = now + self.rng.randrange(*ACT_EVERY_MS)
        st = t.state()
        if st["street"] is None:
            return
        actor = st["action"]
        if actor is None:
            ins = list(st["in_hand"])
            self.rng.shuffle(ins)
            tiers = []
            for seat in ins:
                if tiers and self.rng.random() < 0.15:
                    tiers[-1].append(seat)  # a split pot
                else:
                    tiers.append([seat])
            self.do({"do": "showdown", "ranking": [sorted(x) for x in tiers]})
            return
        r = self.rng.random()
        if not quiet and r < 0.03 and t.undo_ok:
            self.do({"do": "undo"})
            return
        choice = self.rng.choices(("fold", "call", "check", "allin", "raise"),
                                  (50, 20, 25, 1, 4))[0]
        ev = {"do": choice}
        if choice == "raise":
            ev["to"] = max(st["bets"].values() or [0]) * 2 + self.rng.choice((50, 100, 300))
        if self.do(ev) is not None:  # that press does not fit: the sensible one
            for alt in ("check", "call", "fold"):
                if self.do({"do": alt}) is None:
                    break

    def misclick(self):
        """A key press that does not fit the moment: refused with a sentence, the table
        unchanged (checked in ``do``)."""
        t = self.table
        empty = [s for s in range(1, t.n + 1) if s not in t.stacks]
        taken = sorted(t.stacks)
        evs = [{"do": "call", "seat": (t.hand.actor or 0) % t.n + 1} if t.hand else {"do": "call"},
               {"do": "showdown", "ranking": [taken]} if t.hand is None else {"do": "hand"},
               {"do": "sit", "seat": taken[0], "stack": 3000} if taken else {"do": "fold"},
               {"do": "leave", "seat": empty[0]} if empty else {"do": "check"},
               {"do": "bogus"}]
        ev = dict(self.rng.choice(evs), misclick=True)
        self.do(ev)


# ----------------------------------------------------------------- the room
class ChaosRoom(Room):
    """liveroom.Room's league file and Live, with ChaosBoxes; the TD, the CLI and the
    faults of a recipe's steps."""

    def __init__(self, tmp, seed, steps, silent_drops=False):
        self.seed = seed
        self.silent_drops = silent_drops
        self.quiet = False
        # a dealer's slips (steps ``slip_lost``, ``slip_stranger``) and the TD's one-click
        # fixes of what the seat check shows (docs/live.md "The seat check")
        self.lost = {}  # player -> chips the dealer took off the box by mistake
        self.strangers = {}  # (table, seat) -> chips of a player the dealer seated unasked
        self.adjust = 0  # chips the slips put on the boxes (+) or took off (-), and the fixes
        self.fixing = set()  # players and (table, seat)s whose fix the TD has asked for
        self.next_fix = 0
        self.later = []  # the picks of slip_stranger steps: done once the room is quiet
        super().__init__(pathlib.Path(tmp), n=PLAYERS, seed=seed, start=False, boxes=False)
        self.lock = _store.ServeLock(self.db, "as tdhost serve holds it")
        run(["backup", "--db", self.db], now=self.when())
        self.backup = _store.backups(self.db)[-1]
        self.boxes = {}
        self.walking = {}  # player -> (chips, seq): left a box in a move_out, not sat down yet
        drawn = sorted(self.live.tournament.seating())
        for tb in drawn + [drawn[-1] + 1]:  # and a spare box for a table opened tonight
            self.boxes[tb] = ChaosBox(self, tb, "tc-%02d" % tb)
        self.run(3000)
        self.now = max(self.now, int(T0.timestamp() * 1000))
        self.live.act("start", {})
        self.run(3000)
        self.steps = steps
        self.done = []  # (step, what came of it)
        self.lates = 0
        self.quiet = False

    def when(self):
        return datetime.datetime.fromtimestamp(self.now / 1000, tz=datetime.timezone.utc)

    def written_at(self, iid):
        """The seq of the league event that wrote instruction *iid* (the entry a take_out
        was for: a late entry redone after it is a new one, chips_gone)."""
        for ev in reversed(self.live.lg.events):
            if ev.action == "instr" and ev.payload.get("id") == iid:
                return ev.seq
        return self.live.last_seq

    def step(self, ms=STEP_MS):
        for b in self.boxes.values():
            b.step(self.now, self.quiet)
        self.live.poll(self.now)
        if self.quiet and self.now >= self.next_fix and (self.lost or self.strangers):
            self.next_fix = self.now + 5000
            self.td_fixes()
        self.now += ms

    def td_fixes(self):
        """The TD, once the room is quiet (busy until then: a slip lasts, the host plans
        around it), looks at the console: a player the seat check found missing at their box
        whom a dealer's slip took off is seated there again with the chips counted at the
        table (Seat at the box…); a seat a slip filled unasked is cleared (Clear seat…)."""
        snap = self.live.snapshot()
        for r in snap["registration"]:
            name = r["name"]
            if r["not_at_box"] and name in self.lost and name not in self.fixing:
                self.fixing.add(name)
                self.done.append((["fix", "seat_at_box", name], self.act(
                    "seat_at_box", {"name": name, "stack": self.lost[name]})))
        t = self.live.tournament
        for name in sorted(self.lost):
            entry = t.get(name)
            mine = [r for r in _ins.pending(t) if r.get("player") == name]
            if entry is None or entry.state != "in" or not entry.seat or mine \
                    or entry.seat[0] not in _room.broken_tables(t) or name + "/move" in self.fixing:
                continue
            # their table breaks and the host cannot move them (the box lost them): the TD
            # moves them by hand, then confirms the refused move_out with the chips counted
            # (not a seat the boxes are about to fill: `tdhost move` refuses it)
            after, busy = _room.seating_after_moves(t), set(_room.taken_seats(t))
            free = ["%d.%d" % (tb, seat) for tb in sorted(after) if after[tb]
                    and tb not in _room.broken_tables(t) for seat in range(1, SEATS + 1)
                    if seat not in after[tb] and (tb, seat) not in t.offered_seats()
                    and (tb, seat) not in busy]
            if free:
                said = self.cli(["move", name, free[0], "--yes"])
                self.done.append((["fix", "cli_move", name], said))
                if said == "ok":  # (else again at the next look)
                    self.fixing.add(name + "/move")
        for p in snap["pending"]:
            if p["action"] == "move_out" and p["state"] == "refused" \
                    and p["player"] in self.lost and p["id"] not in self.fixing:
                self.fixing.add(p["id"])  # the TD counted the chips they left with
                self.done.append((["fix", "confirm", p["id"]], self.act(
                    "confirm", {"id": p["id"], "stack": self.lost[p["player"]]})))
        for x in snap["box_only"]:
            key = (x["table"], x["seat"])
            if key in self.strangers and key not in self.fixing:
                self.fixing.add(key)
                self.done.append((["fix", "clear_seat", "%d.%d" % key], self.act(
                    "clear_seat", {"seat": "%d.%d" % key})))

    def slip(self, kind, pick):
        """A dealer's slip between hands (a step): ``slip_lost`` takes a seated player off
        the box (the league still seats them: a move_out of theirs is refused "Seat N is
        empty"); ``slip_stranger`` seats somebody in a seat the league leaves empty."""
        t = self.live.tournament
        boxes = [b for _, b in sorted(self.boxes.items()) if b.on and b.table is not None
                 and b.table.hand is None and b.table.hold is None and b.link.state == LIVE
                 and b.table.hands  # (before its first hand a seating rebuilds the table)
                 and not b.desk.info.get("instruction") and not b.desk.book.waiting
                 and not b.table.moves and b.number in t.seating()]
        if not boxes:
            return "no table between hands"
        b = boxes[pick % len(boxes)]
        tb, tab = b.number, b.table
        busy = set()
        for r in _ins.pending(t) + _ins.take_outs(t):
            busy.add(r.get("player"))
            for where in ([r["table"], r["body"].get("seat")], r.get("to"), r.get("from")):
                if where:
                    busy.add(tuple(where))
        if kind == "slip_lost":
            league = t.seating().get(tb, {})
            seats = [s for s in sorted(tab.stacks) if league.get(s) is not None
                     and league[s] == b.link.names.get(str(s)) and league[s] not in busy
                     and (tb, s) not in busy and league[s] not in self.lost]
            if not seats:
                return "nobody to take off"
            s = seats[pick % len(seats)]
            chips = tab.stacks[s]
            if b.do({"do": "leave", "seat": s}) is not None:
                return "the table refused it"
            self.lost[league[s]] = chips
            self.adjust -= chips
            return "table %d: the dealer took %s (seat %d, %d chips) off the box" % (
                tb, league[s], s, chips)
        after = _room.seating_after_moves(t).get(tb, {})
        seats = [s for s in range(1, SEATS + 1) if s not in tab.stacks and s not in after
                 and (tb, s) not in busy and (tb, s) not in t.offered_seats()]
        if not seats:
            return "no free seat"
        s = seats[pick % len(seats)]
        chips = 1000 + 100 * (pick % 20)
        if b.do({"do": "sit", "seat": s, "stack": chips}) is not None:
            return "the table refused it"
        self.strangers[(tb, s)] = chips
        self.adjust += chips
        return "table %d: the dealer seated somebody in seat %d with %d chips" % (tb, s, chips)

    def run(self, ms=1000, step=STEP_MS):
        for _ in range(ms // step):
            self.step(step)

    def host_kill(self):
        """The host process dies and starts again on the same file: a new Live, new host
        links; serve's lock goes with the process and comes back with the new one."""
        self.live.close()
        self.lock.release()
        self.lock = _store.ServeLock(self.db, "as tdhost serve holds it")
        for b in self.boxes.values():
            for end in (b.cable.a,):
                end.flight = []  # what the dead host was sending is lost
            b.cable.b.partial = bytearray()
            b.cable.b.inbox = bytearray()
        self.live = Live(self.db, clock=self.clock, key=KEY, key_id=KEY_ID)
        for b in self.boxes.values():
            b.connect()

    def close(self):
        self.live.close()
        self.lock.release()

    def summary(self):
        """What the run went through, in numbers."""
        hands = sum(b.table.hands for b in self.boxes.values() if b.table is not None)
        busts = sum(1 for b in self.boxes.values() for _, what in b.made if what == "bust")
        lines = {k: sum(b.cable.counts[k] for b in self.boxes.values())
                 for k in ("lines", "dropped", "doubled")}
        rulings = len(self.live.tournament.rulings)  # asked of the league, not undone
        return ("%d hands at the tables now, %d box busts, %d lines: %d lost, %d doubled, "
                "%d boots, %d ruling%s asked" % (
                    hands, busts, lines["lines"], lines["dropped"], lines["doubled"],
                    sum(b.boots for b in self.boxes.values()), rulings,
                    "" if rulings == 1 else "s"))

    # -- the TD ------------------------------------------------------------
    def players_in(self):
        t = self.live.tournament
        return sorted(e.name for e in t.entries("in"))

    def act(self, action, args):
        """A TD action through Live.act: done, or refused with one sentence."""
        try:
            return "ok: " + self.live.act(action, args)["text"]
        except ActionRefused as e:
            if not str(e).strip() or "\n" in str(e).strip():
                raise Failure("%s was refused without one sentence: %r" % (action, str(e)))
            return "refused: " + str(e)

    def cli(self, args, expect=(0, 1, 2)):
        res = run(list(args) + ["--db", self.db], now=self.when(), expect=None)
        if res.exit_code not in expect:
            raise Failure("tdhost %s: exit %s: %s" % (" ".join(args), res.exit_code,
                                                       res.output))
        if res.exit_code != 0:
            said = (res.stderr or res.output).strip()
            if not said or "Traceback" in said:
                raise Failure("tdhost %s refused without a sentence: %r" % (args[0], said))
            return "exit %d: %s" % (res.exit_code, said.splitlines()[-1])
        return "ok"

    def do_step(self, kind, pick):
        players = self.players_in()
        name = players[pick % len(players)] if players else None
        if kind == "bust" and name:
            return self.act("bust", {"names": [name]})
        if kind == "undo":
            done = self.live.journal.done
            if done and done[-1]["action"] in FIRST:
                return "not taken: the TD does not undo %s on a running night" % (
                    done[-1]["action"])
            return self.act(kind, {})
        if kind == "redo":
            return self.act(kind, {})
        if kind == "late":
            self.lates += 1
            return self.act("late", {"name": "Late %d-%d" % (pick % 100, self.lates)})
        if kind == "pause" and name and pick % 2:
            # the TD pauses for a dispute: the player asks for the league's ruling, recorded
            # against the tournament (it changes nothing of the night)
            return "; ".join((self.act(kind, {}), self.act("ruling", {
                "name": name, "decision": "chaos step %d" % pick, "reasons": "disputed"})))
        if kind in ("pause", "resume"):
            return self.act(kind, {})
        if kind == "level":
            return self.act("level", {"level": 1 + pick % 3})  # colour-ups come after 5
        if kind == "adjust":
            return self.act("adjust", {"seconds": (pick % 7 - 3) * 60})
        if kind == "cli_bust" and name:
            return self.cli(["bust", name, "--yes"])
        if kind == "cli_undo":
            last = self.live.lg.last_action(self.live.tournament.number)
            if any(ev.action in FIRST for ev in last):
                return "not taken: the TD does not undo the start on a running night"
            return self.cli(["undo"])
        if kind == "cli_plan":
            return self.cli(["plan", "--apply", "--yes"])
        if kind == "cli_move" and name:
            seating = self.live.tournament.seating()
            free = [(tb, s) for tb in sorted(seating) for s in range(1, SEATS + 1)
                    if s not in seating[tb]]
            if not free:
                return "no free seat"
            tb, s = free[pick % len(free)]
            return self.cli(["move", name, "%d.%d" % (tb, s), "--yes"])
        if kind == "restore":
            before = self.log()
            res = run(["restore", self.backup, "--db", self.db], now=self.when(), expect=None)
            if res.exit_code != 2 or "running `tdhost serve`" not in res.stderr:
                raise Failure("restore while serve holds the file was not refused: exit %s %s"
                              % (res.exit_code, res.output))
            if self.log() != before:
                raise Failure("a refused restore changed the league file")
            return "refused"
        if kind == "slip_lost":
            return self.slip(kind, pick)
        if kind == "slip_stranger":  # once the room is quiet (docs/live.md "The chaos drill")
            self.later.append(pick)
            return "when the room is quiet"
        if kind == "host_kill":
            self.host_kill()
            return "host killed and started again"
        if kind == "power_cut":
            box = self.boxes[sorted(self.boxes)[pick % len(self.boxes)]]
            if not box.on:
                return "off already"
            box.power_cut(self.now)
            return "box %s off for %d s" % (box.id, POWER_OFF_MS // 1000)
        return "nothing to do"

    def log(self):
        return [(ev.seq, ev.action) for ev in self.live.store.events()]

    # -- a round --------------------------------------------------------------
    def chaos(self, start, steps):
        for b in self.boxes.values():
            b.cable.faults = True
        self.quiet = False
        todo = sorted(steps, key=lambda s: s[0])
        end = start + CHAOS_MS
        while self.now < end:
            while todo and todo[0][0] <= self.now - start:
                at, kind, pick = todo.pop(0)
                self.done.append(([at, kind, pick], self.do_step(kind, pick)))
            self.step()

    def settle(self):
        """Links healthy, no TD action, the dealers finish their hands and carry out every
        instruction: until everything is settled (True) or QUIET_MS passed (False)."""
        for b in self.boxes.values():
            b.cable.faults = False
        self.quiet = True
        end = self.now + QUIET_MS
        calm = 0
        while self.now < end:
            if self.later and (not self.unsettled(slips=False) or self.now > end - QUIET_MS // 2):
                # once everything else is settled (no hand, no plan to come: a host that
                # offers the seat meanwhile is a gap, docs/demo.md §9), a dealer seats somebody
                self.done.append((["quiet", "slip_stranger", self.later[0]], self.slip(
                    "slip_stranger", self.later.pop(0))))
            self.step()
            calm = calm + STEP_MS if self.settled() else 0
            if calm >= 10000:
                return True
        return False

    def settled(self):
        return not self.unsettled()

    def unsettled(self, slips=True):
        """What keeps the room from being settled, in words ([] when settled); *slips*: the
        dealers' slips count too."""
        out = []
        seating = self.live.tournament.seating()
        for tb, b in sorted(self.boxes.items()):
            t = b.table
            if t is None and not seating.get(tb) and b.on:
                continue  # a spare box: linked, no table until the host gives it players
            if not b.on:
                out.append("box %s has no power" % b.id)
            elif b.link.state != LIVE or b.host is None or b.host.state != "live":
                out.append("box %s not linked (box %s, host %s)" % (
                    b.id, b.link.state, b.host.state if b.host else None))
            elif b.link.outbox:
                out.append("box %s has %d events unsent" % (b.id, len(b.link.outbox)))
            elif t is not None and t.hand is not None:
                out.append("table %d plays a hand" % tb)
            elif t is not None and t.moves:
                out.append("table %d has seat changes waiting" % tb)
            elif b.desk.info.get("instruction") or b.desk.book.waiting:
                out.append("box %s shows an instruction" % b.id)
        stuck = open_instrs(self.live)
        if stuck:
            out.append("instructions open: %s" % stuck)
        if slips:
            out += self.slips_open()
        if slips and self.later:
            out.append("a dealer's slip to come")
        return out

    def slips_open(self):
        """The dealers' slips the TD has not fixed yet: a player the league still seats
        whom no box seats; a seat a slip filled at a table in play that still holds them
        where the league seats nobody."""
        out = []
        t = self.live.tournament
        seating = t.seating()
        for name in sorted(self.lost):
            entry = t.get(name)
            if entry is None or entry.state != "in" or not entry.seat:
                continue  # out since: nothing to seat again
            b = self.boxes.get(entry.seat[0])
            if b is None or b.table is None or entry.seat[1] not in b.table.stacks:
                out.append("%s, whom a slip took off, is not on the box yet" % name)
        for (tb, seat) in sorted(self.strangers):
            b = self.boxes.get(tb)
            if b is None or b.table is None or broken(b) or seat not in b.table.stacks \
                    or seating.get(tb, {}).get(seat) is not None:
                continue
            out.append("table %d seat %d, filled by a slip, is not cleared yet" % (tb, seat))
        return out


def open_instrs(live):
    return [(iid, r["action"], r.get("table"), _ins.state(r))
            for iid, r in live.tournament.instrs.items()
            if _ins.state(r) not in ("done", "refused", "cancelled")]


# ----------------------------------------------------------------- the checks
def broken(box):
    return box.table is not None and box.table.hold == BROKEN


def stacks(box):
    """The box's seats and chips ({} for a spare box without a table)."""
    return box.table.stacks if box.table is not None else {}


def chips_gone(left, states, entered_at, undone_lates, hand_out=()):
    """The chips that left play with players the TD entered out, of *left* [(player,
    (chips, seq))]: chips a take_out took off them, or that they left a box with for
    another table (a move_out done) and never sat down with; *states*: player -> their
    entry's state now (None: no entry); *entered_at*: player -> seq of their late entry that
    stands; *undone_lates*: [(seq, player, chips)] of late entries undone since;
    *hand_out*: (player, seq) of the take_outs whose seat a hand had emptied (the box
    reported the seat out before it answered ``done``).

    Chips taken from an entry that stands count when the player is out now (the receive
    of a player entered out on their way is called off: nobody carries those chips).  A
    take_out of a late entry undone since (the entry gone, or entered afresh after it,
    with new chips) took chips the entries do not count: what stays in play is what that
    entry brought to its seat less what it took away (a dead big blind posted, a pot lost),
    so the difference counts -- also when its take_out took nothing because a hand had
    busted them (what they brought stays in play: seed 382), not when it took nothing
    because they had not sat down yet (seed 22)."""
    gone = 0
    for name, (chips, seq) in left:
        if states.get(name) not in (None, "in") and entered_at.get(name, 0) < seq:
            gone += chips
        elif (chips or (name, seq) in hand_out) and (
                states.get(name) is None or entered_at.get(name, 0) > seq):
            brought = [c for at, who, c in undone_lates if who == name and at < seq]
            gone += chips - (brought[-1] if brought else 0)
    return gone


def check(room):
    """The invariants after a quiet period (docs/live.md "The chaos drill")."""
    live = room.live
    t = live.tournament
    seating = t.seating()
    bad = []
    # every box seats exactly the league's players
    for tb, b in sorted(room.boxes.items()):
        league = seating.get(tb, {})
        if not league and broken(b):
            continue  # a broken table's box plays no more: it keeps its last stacks
        box = {s: b.link.names.get(str(s)) for s in sorted(stacks(b))}
        if sorted(box) != sorted(league):
            bad.append("table %d: the box seats %s, the league %s" % (tb, box, league))
            continue
        for s, name in league.items():
            if box[s] != name:
                bad.append("table %d seat %d: the box says %r, the league %r" % (
                    tb, s, box[s], name))
    # chips: entries x their stack, minus chips taken off players the TD entered out
    start = t.setup["starting_stack"]
    entered = sum((e.stack if e.stack is not None else start) - e.deducted
                  for e in t.entrants())
    taken = []  # (player, (chips, seq)) of every take_out done
    for b in room.boxes.values():
        taken += [(name, took) for name, takes in b.taken.items() for took in takes]
    entered_at = {}  # player -> seq of their late entry that stands
    undone_lates = []  # (seq, player, chips) of the late entries undone since
    for ev in live.lg.events:
        if ev.action == "late" and ev.seq not in live.lg.undone:
            entered_at[ev.payload["name"]] = ev.seq
        elif ev.action == "late":
            undone_lates.append((ev.seq, ev.payload["name"], ev.payload.get("stack") or start))
    hand_out = set()  # the take_outs of seats a hand had emptied: reported, then done
    for ins in t.instrs.values():
        said = [r["result"] for r in ins["results"] if r.get("by") == "box"]
        if ins["action"] == "take_out" and ins.get("player") and "reported" in said \
                and "done" in said and said.index("reported") < said.index("done"):
            hand_out.add((ins["player"], room.written_at(ins["id"])))
    gone = chips_gone(taken + list(room.walking.items()),
                      {name: t.get(name).state if t.get(name) else None
                       for name in [name for name, _ in taken] + list(room.walking)},
                      entered_at, undone_lates, hand_out)
    for name in entered_at:  # a latecomer entered out before any box seated them: their
        entry = t.get(name)  # receive called off, their chips never reached a box
        own = [r for r in t.instrs.values() if r["action"] == "receive"
               and r.get("player") == name and not r.get("move")]
        if entry is not None and entry.state != "in" and own and all(
                _ins.cancelled(r) and "done" not in _ins.results(r) for r in own):
            gone += (entry.stack if entry.stack is not None else start) - entry.deducted
    # chips of players the TD entered out that the final table's draw left out of play (the
    # box had not taken them out: tdhost.live.final.left_play says them)
    gone += sum((t.final or {}).get("left", {}).values())
    money = sum(m.get("chips", 0) or 0 for m in t.money)
    on_boxes = sum(sum(stacks(b).values()) for tb, b in room.boxes.items()
                   if seating.get(tb) or not broken(b))
    # a dealer's slips: chips put on or taken off a box, less what the TD's fixes did;
    # a player seated unasked at a table broken since is no longer counted
    slips = room.adjust - sum(stacks(b).get(seat, 0) for (tb, seat), chips in
                              room.strangers.items() for b in [room.boxes[tb]]
                              if not seating.get(tb) and broken(b))
    if on_boxes != entered + money - gone + slips:
        bad.append("chips: %d on the boxes, but %d entered + %d bought - %d taken out by "
                   "the TD's busts %+d the dealers' slips = %d" % (
                       on_boxes, entered, money, gone, slips, entered + money - gone + slips))
    # no instruction stuck; every refusal with a sentence
    stuck = open_instrs(live)
    if stuck:
        bad.append("instructions not carried out: %s" % stuck)
    # the host's instruction book: nothing handed to a live box's link goes unanswered (it
    # would be sent again every 5 s for ever)
    live_links = [b.host for b in room.boxes.values()
                  if b.on and b.host is not None and b.host.state == "live"]
    unanswered = sorted(iid for iid, entry in live.book.handed.items()
                        if entry.result is None and any(entry.link is k for k in live_links))
    if unanswered:
        bad.append("instructions sent to a live box without an answer: %s" % unanswered)
    for iid, r in t.instrs.items():
        if _ins.state(r) == "refused" and not (_ins.reason(r) or "").strip():
            bad.append("instruction %s refused without a reason" % iid)
    # every box bust applied once: in one decision (one write: a hand's bust with the
    # take_outs it reports and the notices it makes share the group's src)
    seen = {}
    for ev in live.store.events():
        src = ev.payload.get("src") if isinstance(ev.payload, dict) else None
        if isinstance(src, list):
            for item in src:
                if isinstance(item, list) and len(item) == 2:
                    seen.setdefault(tuple(item), set()).add(ev.batch)
    for b in room.boxes.values():
        for eid, what in b.made:
            if what != "bust":
                continue
            n = len(seen.get((b.id, eid), ()))
            if n != 1:
                bad.append("box %s's bust %s is in the league %d times" % (b.id, eid, n))
    return bad


# ----------------------------------------------------------------- a run
def plan_steps(seed):
    """The steps of a run, drawn from *seed*: per round, [at ms in the round, kind, pick]."""
    rng = random.Random("steps/%s" % seed)
    rounds = []
    for _ in range(ROUNDS):
        steps = [[rng.randrange(0, CHAOS_MS - 20000, 100), rng.choice(KINDS),
                  rng.randrange(1 << 16)] for _ in range(STEPS_PER_ROUND)]
        rounds.append(steps)
    slips = random.Random("slips/%s" % seed)  # drawn apart: the other steps stay the seed's
    for steps in rounds:
        for _ in range(slips.choice((0, 1, 1, 2))):
            steps.append([slips.randrange(0, CHAOS_MS - 60000, 100),
                          slips.choice(("slip_lost", "slip_stranger")), slips.randrange(1 << 16)])
        steps.sort()
    return rounds


def run_seed(seed, rounds=None, out=None, echo=print, silent_drops=False):
    """One run; returns (ok, recipe path or None)."""
    rounds = plan_steps(seed) if rounds is None else rounds
    tmp = tempfile.mkdtemp(prefix="chaos-%s-" % seed)
    room = None
    t0 = time.monotonic()
    problems = []
    try:
        room = ChaosRoom(tmp, seed, rounds, silent_drops)
        for k, steps in enumerate(rounds):
            room.chaos(room.now, steps)
            if not room.settle():
                problems.append("round %d: not settled after %d s of quiet: %s" % (
                    k + 1, QUIET_MS // 1000, "; ".join(room.unsettled())))
            problems += ["round %d: %s" % (k + 1, x) for x in check(room)]
            if problems:
                break
    except Failure as e:
        problems.append(str(e))
    except Exception:  # noqa: BLE001 -- a traceback is a finding too
        problems.append(traceback.format_exc())
    finally:
        if room is not None:
            try:
                room.close()
            except Exception:  # noqa: BLE001
                pass
    secs = time.monotonic() - t0
    if not problems:
        echo("seed %s: ok (%d steps, %s, %.1f s)" % (seed, sum(len(r) for r in rounds),
                                                     room.summary(), secs))
        return True, None
    os.makedirs(out or tempfile.gettempdir(), exist_ok=True)
    path = os.path.join(out or tempfile.gettempdir(), "chaos-%s.json" % seed)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"seed": seed, "rounds": rounds, "problems": problems,
                   "silent_drops": silent_drops,
                   "done": [[s, what] for s, what in (room.done if room else [])],
                   "league": room.db if room else None}, f, indent=1)
    echo("seed %s: FAILED (%.1f s)" % (seed, secs))
    for p in problems:
        echo("  " + p)
    echo("  recipe: %s -- replay: python tests/tools/chaos.py --recipe %s  (or make chaos "
         "SEEDS=%s)" % (path, path, seed))
    return False, path


def seeds_of(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += list(range(int(a), int(b) + 1))
        elif part.strip():
            out.append(int(part))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1-20", help="e.g. 1-20 or 3,17")
    ap.add_argument("--recipe", help="replay a failing run's JSON recipe")
    ap.add_argument("--out", help="where failing recipes go (default: the temp directory)")
    ap.add_argument("--silent-drops", action="store_true",
                    help="lose lines while the link stays up (no transport does: docs/demo.md)")
    a = ap.parse_args(argv)
    if a.recipe:
        with open(a.recipe, encoding="utf-8") as f:
            r = json.load(f)
        ok, _ = run_seed(r["seed"], r["rounds"], a.out,
                         silent_drops=r.get("silent_drops", a.silent_drops))
        return 0 if ok else 1
    failed = [s for s in seeds_of(a.seeds)
              if not run_seed(s, out=a.out, silent_drops=a.silent_drops)[0]]
    print("chaos: %d seeds, %d failed%s" % (len(seeds_of(a.seeds)), len(failed),
                                          (": " + ", ".join(map(str, failed))) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
