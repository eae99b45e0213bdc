"""The box's end of the host link over a serial port: the link states, the
outbox and one bounded slice of work per ``poll`` (docs/protocol.md, "USB
serial" and "On the box"), and its hooks as a part of tcbox.app.App
(docs/box.md, "The App and its parts"); its part of the power-loss record
(``extra``, ``restore``); the host's frames: the set-up (config and
seating: the pending set-up, the new table built from it), the clock, the
instructions (the box's book: tcbox/instructions/book.py; a config's fields: frames.py).
Pure logic: no hardware import.
"""

import json
from binascii import hexlify, unhexlify

from tableclock.canonjson import ProtocolError, parse
from tableclock.clocksync import Slew
from tableclock.fields import SetupError
from tableclock.floor import history_of
from tableclock.hand import BROKEN, REDRAW
from tableclock.protocol import (
    HOST,
    MAX_COUNTER,
    UNPAIRED_KEY,
    UNPAIRED_KEY_ID,
    Receiver,
    Sender,
    Stale,
    decode,
)
from tableclock.table import Table, drop_setup_code
from tableclock.wire import Lines

from ..instructions.book import Book
from ..presses import ticks_diff
from .events import EVENT_FIELDS, event_message, for_record, instruction_event, rank
from .frames import players_of, same_setup, setup_of
from .hostclock import HostClock, clock_toward
from .states import (
    CONFIGURED,
    DISCONNECTED,
    HELLO_FAST,
    HELLO_MS,
    HELLO_SENT,
    HELLO_SLOW_MS,
    LIVE,
    STATES,
)

try:
    from .. import VERSION as FW
except ImportError:  # an older tcbox without a version
    FW = "0"

READ_MAX = 512  # bytes read per poll
PAIR_MAX = 448  # bytes of JSON: the pairing (key, table, event, settings) in the record
# box events kept until acknowledged; when full, an informational one gives way
# (the oldest), and busts and answers are kept up to OUTBOX_HARD (the link line
# says "events waiting"; docs/protocol.md "Box facts")
OUTBOX_MAX = 64
OUTBOX_HARD = 128
# the power-loss record holds the table (2.5 KB mid-hand at 10 seats) and this
# link's part in a 3968-byte slot: pairing (~250 B), the instructions' part
# (tcbox/instructions/book.py) and the unsent events, each bounded: busts first,
# then answers, each whole and oldest first, then the newest informational ones
# in the room left
EXTRA_EVENTS_MAX = 512  # bytes of JSON for the events kept in the power-loss record
CONFIG_WAIT_MS = 10000  # CONFIGURED without seating and clock: hello again
SILENCE_MS = 20000  # LIVE without a frame from the host: link lost, hello again
RESEND_MS = 5000  # unacknowledged events go again
STATUS_MS = 30000  # status heartbeat
STATUS_MIN_MS = 1000  # statuses on changes, at most this often

RESULTS = ("acknowledged", "done", "refused")
SEAT_CHANGES = ("receive", "move_out", "take_out")  # instructions that seat or unseat
UNSHOWN_MAX = 8  # seat changes kept until a seating shows them (take_seating)
_ENVELOPE = ("kind", "v", "from", "to", "boot", "seq")  # a frame's, not an instruction's


def _urandom(n):
    import os

    return os.urandom(n)


# ------------------------------------------------------------------- link
class Link:
    """One box's serial link to the host (module notes).

    :param port: a usb_cdc.Serial-like object, non-blocking.
    :param box_id: this box's id (protocol id: 1-32 of A-Z a-z 0-9 . _ : -).
    :param table: the tableclock Table the host's clock and config act on.
    :param key: the event key (bytes); None: not paired (``restore`` may
        bring the pairing back from the record).
    """

    def __init__(self, port, box_id, table=None, key=None, key_id=None, fw=FW,
                 urandom=None):
        self.port = port
        self.box_id = box_id
        self.table = table
        self.fw = fw
        self.urandom = urandom or _urandom
        self.app = None  # the tcbox.app.App this link is a part of (``added``)
        self.boot = 0
        self.tx = Sender(UNPAIRED_KEY, box_id, 0)
        self.pairing = None  # {"key", "key_id", "table", "event"?, "settings"?}
        self.table_no = None
        self._set_key(key, key_id)
        self.lines = Lines()
        self.state = DISCONNECTED
        self.nonce = None
        self.hello_at = None  # when the next hello is due
        self.hello_tries = 0
        self.host_boot = None  # the host's boot counter pinned by the config
        self.since = 0  # when the state began
        self.last_rx = 0  # last frame accepted from the host
        self.got_seating = False  # CONFIGURED: seating came
        self.got_clock = False  # CONFIGURED: clock came
        self.pending_setup = None  # a new setup waiting for seating (and the hand's end)
        self.pending_players = None  # (players, button, history) from seating
        self.pending_clock = None  # (msg, ms) while a new table waits
        self.names = {}  # seat (str): name, from seating
        self.sv = None  # the seating version those names are (take_seating), since the config
        self.acted_sv = None  # newest ``sv`` of a seat instruction done here (take_seating)
        # seat changes done here that no seating has shown yet: [seat (str), name, seated]
        self.unshown = []
        self.out = None  # the frame being written
        self.out_at = 0  # bytes of it written
        self.newline = False  # a frame was cut short: end that line first
        self.pong = None  # a ping to answer: its t (or -1 without)
        self.hostclock = HostClock()  # the host's time: the sync from our pings
        self.slew = None  # the table's clock following the host's (``slewing``)
        self.status_due = False
        self.status_at = None
        self.outbox = []  # [event, sent ms or None, JSON size]; event: [id, what, ...]
        self.n = 0  # events made in this boot
        self.unsaved = 0  # busts and answers the last record had no room for (``extra``)
        self.book = Book()  # the host's instructions, each with its state (the App's too)
        self.last_state = None
        self.save_due = False  # something the record must keep at once (pairing)
        # counters
        self.garbage = 0
        self.dropped = 0
        self.too_large = 0
        self.stalls = 0
        self.frames_in = 0
        self.frames_out = 0
        self.refused_pairs = 0
        self.stale_seatings = 0  # seatings older than the one applied (take_seating)
        self.early = 0  # seat instructions that came before their seating or predecessor
        self.ops = 0  # reads, writes, decodes and encodes so far (bounded per poll)

    # -- keys, persistence ---------------------------------------------
    def _set_key(self, key, key_id):
        if key is None:
            key, key_id = UNPAIRED_KEY, UNPAIRED_KEY_ID
        self.key = key
        self.key_id = key_id or "k"
        self.paired = key != UNPAIRED_KEY
        self.rx = Receiver(key, self.box_id, 2)
        self.tx.key = key

    def extra(self):
        """The link's part of the power-loss record (JSON-ready, no times: it
        changes only when something worth a write changed): the boot counter,
        the unsent events (below), the book of instructions, the pairing
        and the table number.  The table's facts are taken first: a record
        made with this part holds the events of the changes it holds."""
        self.drain()
        # ``unsaved``: the busts and answers left out (events.py ``for_record``)
        keep, self.unsaved = for_record(self.outbox, EXTRA_EVENTS_MAX)
        d = {"b": self.boot, "o": keep, "i": self.book.record()}
        if self.pairing is not None:
            d["p"] = self.pairing
        if self.table_no is not None:
            d["t"] = self.table_no
        return d

    def restore(self, extra):
        """Start from the record's *extra* (None: a new box): the boot
        counter moves on by one (so save at once: ``extra()`` changed), and
        unsent events, pending instructions and the pairing come back.  A
        damaged part is ignored."""
        boot = 0
        if isinstance(extra, dict):
            b = extra.get("b")
            if isinstance(b, int) and not isinstance(b, bool) and 0 <= b < MAX_COUNTER:
                boot = b + 1
            for part in ("p", "t", "o", "i"):
                try:
                    self._restore_part(part, extra.get(part))
                except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                    pass
        self.boot = boot
        self.tx.boot = boot
        self.tx.seq = 0
        self.n = 0
        self.save_due = True

    def _restore_part(self, part, v):
        if part == "p" and isinstance(v, dict):
            key = unhexlify(v["key"])
            if len(key) >= 16:
                self._set_key(key, v["key_id"])
                self.pairing = v
        elif part == "t" and isinstance(v, int):
            self.table_no = v
        elif part == "o" and isinstance(v, list):
            for ev in v:
                if isinstance(ev, list) and len(ev) >= 2 and ev[1] in EVENT_FIELDS:
                    self._keep(ev)
        elif part == "i" and isinstance(v, list):
            self.book.restore(v)

    # -- a part of the App (tcbox/app.py HOOKS; docs/box.md "The App and its parts")
    def added(self, app):
        """This link is a part of *app* from now on: its book of instructions is the
        App's (``use_book``), it hands it the host's instructions (``instruct``), a new
        table (``take_table``) and clock changes (``changed``); its line and the book's
        instruction are on the first screen already (a box restored after a power cut
        shows what it showed before)."""
        self.app = app
        app.use_book(self.book)
        app.show_link(self.info_text(), self.table_no)

    def after_step(self, app, now):
        """The link's share of each loop iteration, after the App's: a slice
        of link work, the slewed clock, the table's facts no save took, the
        link's line on the setup screen, a save it needs."""
        self.poll(now)
        slew = self.slew
        if slew is not None and self.table is not None:
            slew.step(self.table.clock, now)  # a small error worked off: up to 10% fast or slow
        st = app.state
        if st is not None and st is not self.last_state:
            self.observe(st)  # a change the next status tells
        else:
            self.drain()  # facts no save took (the clock's: a shot clock ran out)
        app.show_link(self.info_text(), self.table_no)
        if self.save_due:
            self.save_due = False
            app.save()

    def slewing(self):
        """The Slew that works a small error of the table's clock off (made
        at the host's first clock)."""
        if self.slew is None:
            self.slew = Slew()
        return self.slew

    def on_state(self, app, st):
        """Each redraw's state, at the redraw (``observe``)."""
        self.observe(st)

    def on_save(self, app):
        """Before each save: the table's facts into the outbox (so the event
        of a change goes into the same write as the change: a power cut
        loses both or neither), then the link's part of the record."""
        return self.extra()  # (it takes the table's facts first)

    def on_result(self, app, iid, result, reason, stack):
        """What became of instruction *iid* at the table: ``instruction_done``."""
        self.instruction_done(iid, result, reason, stack)

    def seating(self, app):
        """The host's names by seat and this box's table number, for an
        instruction carried out (tcbox/instructions/at_table.py)."""
        return self.names, self.table_no

    # -- the app's side ------------------------------------------------
    def observe(self, st):
        """The table's state after an accepted event (or any redraw): the
        table's facts go into the outbox (``drain``), and a changed state
        makes a status due."""
        old = self.last_state
        self.last_state = st
        self.drain()
        if old is not None and old is not st:
            self.status_due = True

    def drain(self):
        """The facts the table recorded when they happened (busts, hands, away
        and back, the clock called: ``Table.fact``) into the outbox, each
        once with its id."""
        table = self.table
        if table is None or not table.nfacts:
            return
        s = table.facts  # per fact: what and three fields (Table.fact)
        for i in range(0, 4 * table.nfacts, 4):
            what = s[i]
            if what == "bust" and s[i + 1] in table.stacks:
                # filled again before the link took it: the host's take_out and a receive
                # into that seat carried out together at a hand's end (the App saves the
                # hand's own busts before): the league has both, and a bust told after
                # the receive would be the new player's (tdhost.live.bust_collector.td_out:
                # "reported before the seat is filled again, or not at all")
                continue
            ev = [what]
            for k in range(len(EVENT_FIELDS[what])):
                ev.append(s[i + 1 + k])
            if what == "hand_ended":  # its winners while the table shows them (keys: str)
                ev[2] = None
                if table.hand is None and table.hands == ev[1] and table.winners:
                    won = {}
                    for seat in table.winners:
                        if table.winners[seat]:
                            won[str(seat)] = table.winners[seat]
                    ev[2] = won or None
            self.event(ev)
        table.nfacts = 0  # taken: the table's slots are reused (Table.fact)
        self.status_due = True

    def event(self, ev):
        """Queue a box event ``[what, field, ...]``; returns its id (None on
        a box that is not paired: there is no host to tell)."""
        if not self.paired:
            return None
        self.n += 1
        eid = "%d-%d" % (self.boot, self.n)
        self._keep([eid] + ev)
        return eid

    def _keep(self, ev):
        """Into the outbox.  Full (OUTBOX_MAX), the oldest informational event
        gives way (or the new one, informational too); a bust or an answer is
        kept beyond, up to OUTBOX_HARD (then the oldest answer, else the
        oldest bust, gives way): the link line says "events waiting"."""
        box = self.outbox
        if len(box) >= OUTBOX_MAX:
            r = rank(ev)
            at = -1  # the oldest informational event
            for i in range(len(box)):
                if rank(box[i][0]) == 2:
                    at = i
                    break
            if at < 0 and r == 2:
                self.dropped += 1
                return
            if at < 0 and len(box) >= OUTBOX_HARD:
                at = 0  # the oldest answer (the book gives it again), else the oldest bust
                for i in range(len(box)):
                    if rank(box[i][0]) == 1:
                        at = i
                        break
            if at >= 0:
                box.pop(at)
                self.dropped += 1
        box.append([ev, None, len(json.dumps(ev)) + 1])

    def error(self, text):
        """Tell the host something went wrong (an ``error`` event)."""
        return self.event(["error", text[:200]])

    def instruction_done(self, iid, result, reason=None, stack=None):
        """The dealer saw (``acknowledged``), carried out (``done``) or could
        not carry out (``refused``, *reason*) instruction *iid*; *stack*:
        for a ``move_out`` done, the chips the player left with (protocol
        1.2), kept to answer a repeat of *iid* the same way."""
        if result not in RESULTS:
            raise ValueError("result must be one of " + ", ".join(RESULTS))
        if result == "done":
            r = self.book.find(iid)
            body = r[3] if r is not None and isinstance(r[3], dict) else None
            v = body.get("sv") if body is not None else None
            if isinstance(v, int) and (self.acted_sv is None or v > self.acted_sv):
                self.acted_sv = v  # the table has changed past that seating
            if body is not None and body.get("action") in SEAT_CHANGES \
                    and body.get("name") is not None:
                seat = str(body.get("seat"))
                self.unshown = [u for u in self.unshown if u[0] != seat]  # (the newest counts)
                if len(self.unshown) >= UNSHOWN_MAX:
                    self.unshown.pop(0)
                self.unshown.append([seat, body["name"], body["action"] == "receive"])
        stack = self.book.answer(iid, result, reason, stack)
        self.status_due = True  # the host sees the table as the answer left it
        self.save_due = True
        eid = self.event(instruction_event(iid, result, reason, stack))
        # then what carrying it out recorded (a take_out's bust): the host hears the
        # answer first, and a take_out's bust before the next answer (a receive into
        # that seat: tdhost.live.bust_collector.td_out)
        self.drain()
        return eid

    def info_text(self):
        """One short line for the screen's info field (App.info["link"])."""
        if not self.paired:
            text = "USB: not paired"
        elif self.state == LIVE:
            text = "USB ok"
        elif self.state == DISCONNECTED:
            text = "USB: no host"
        else:
            text = "USB: waiting"
        return text + self.unsent_text()

    def unsent_text(self):
        """The end of the link line: the events not acknowledged yet; "events
        waiting" when the outbox is full or the record had no room for a bust
        or an answer (a power cut now would lose it: the host must come)."""
        n = len(self.outbox)
        if not n:
            return ""
        if n >= OUTBOX_MAX or self.unsaved:
            return " (events waiting: %d)" % n
        return " (%d unsent)" % n

    def counters(self):
        rx = self.rx
        return {"state": STATES[self.state], "outbox": len(self.outbox),
                "dropped": self.dropped, "garbage": self.garbage,
                "overlong": self.lines.overlong, "duplicates": rx.duplicates,
                "stale": rx.stale, "forged": rx.forged, "invalid": rx.invalid,
                "frames_in": self.frames_in, "frames_out": self.frames_out,
                "stalls": self.stalls, "too_large": self.too_large, "unsaved": self.unsaved,
                "refused_pairs": self.refused_pairs, "pings": self.hostclock.pings,
                "stale_seatings": self.stale_seatings, "early": self.early,
                "pongs": self.hostclock.pongs, "odd_clocks": self.hostclock.odd_clocks,
                "sync_resets": self.hostclock.sync.resets}

    # -- the loop ------------------------------------------------------
    def poll(self, now):
        """One slice of link work at *now* (ticks ms, wrapping at 2**29)."""
        port = self.port
        if not getattr(port, "connected", True):
            if self.state != DISCONNECTED:
                self._disconnect()
            return
        if self.state == DISCONNECTED:
            self._hello_again(now)
        self._read()
        line = self.lines.line()
        if line is not None:
            self._frame(line, now)
        if self.book.parked:  # seat instructions whose seating or predecessor came
            m = self.book.ready(self.sv, now, ticks_diff)
            while m is not None:
                self.take_instruction(m, True)
                m = self.book.ready(self.sv, now, ticks_diff)
        self.apply_pending(now)
        self._timers(now)
        self._write(now)

    def _disconnect(self):
        self.state = DISCONNECTED
        self.lines.clear()
        if self.out is not None and self.out_at:
            self.newline = True  # the host may hold a part of a line
        self.out = None

    def _read(self):
        port = self.port
        try:
            n = port.in_waiting
        except OSError:
            return
        n = min(n, READ_MAX, self.lines.room())
        if n <= 0:
            return
        self.ops += 1
        try:
            data = port.read(n)
        except OSError:
            return
        if data:
            self.lines.feed(data)

    def _write(self, now):
        if self.out is None:
            frame = self._next(now)
            if frame is None:
                return
            if self.newline:
                frame = b"\n" + frame
                self.newline = False
            self.out = frame
            self.out_at = 0
        self.ops += 1
        try:
            n = self.port.write(memoryview(self.out)[self.out_at:])
        except OSError:
            n = 0
        if not n:
            self.stalls += 1
            return
        self.out_at += n
        if self.out_at >= len(self.out):
            self.out = None
            self.frames_out += 1

    def _encode(self, msg):
        self.ops += 1
        try:
            return self.tx.encode(msg, HOST)
        except ProtocolError:
            self.too_large += 1
            return None

    def _next(self, now):
        """The next frame to send, or None."""
        if self.state == HELLO_SENT and ticks_diff(now, self.hello_at) >= 0:
            self.hello_tries += 1
            wait = HELLO_MS if self.hello_tries < HELLO_FAST else HELLO_SLOW_MS
            self.hello_at = (now + wait) & ((1 << 29) - 1)
            return self._encode({"kind": "hello", "fw": self.fw, "table": self.table_no,
                                 "key_id": self.key_id, "nonce": self.nonce})
        if self.pong is not None:
            msg = {"kind": "pong"}
            if self.pong >= 0:
                msg["t"] = self.pong
            self.pong = None
            return self._encode(msg)
        if not self.paired:
            return None
        msg = self.hostclock.ping(self.state, now)  # clock sync: CONFIGURED or LIVE, when due
        if msg is not None:
            return self._encode(msg)
        for e in self.outbox:
            if e[1] is None or ticks_diff(now, e[1]) >= RESEND_MS:
                e[1] = now
                frame = self._encode(event_message(e[0]))
                if frame is None:
                    self.outbox.remove(e)  # cannot ever be sent
                return frame
        if self.state != LIVE:
            return None
        since = STATUS_MS if self.status_at is None else ticks_diff(now, self.status_at)
        if since >= STATUS_MS or (self.status_due and since >= STATUS_MIN_MS):
            self.status_due = False
            self.status_at = now
            st = self.table.state() if self.table is not None else self.last_state
            if st is None:
                return None
            msg = {"kind": "status", "state": st, "table": self.table_no}
            if self.sv is not None:
                msg["sv"] = self.sv  # the host sends a newer seating when this is behind
            return self._encode(msg)
        return None

    def _timers(self, now):
        if self.state == CONFIGURED and ticks_diff(now, self.since) >= CONFIG_WAIT_MS:
            self._hello_again(now)
        elif self.state == LIVE and ticks_diff(now, self.last_rx) >= SILENCE_MS:
            self._hello_again(now)

    def _hello_again(self, now):
        self.state = HELLO_SENT
        self.since = now
        self.nonce = str(hexlify(self.urandom(8)), "ascii")
        self.hello_at = now
        self.hello_tries = 0

    # -- the host's frames (the set-up, the seating, the clock, instructions)
    def _fresh_config(self, line):
        """A Stale frame that is a config echoing this hello's nonce is
        fresh anyway (the host lost its boot counter): start its window
        again.  Anything else stays refused."""
        if self.nonce is None or line.find(b'"kind":"config"', 0, 40) < 0:
            return None
        self.ops += 1
        try:
            msg = decode(line, self.key, self.box_id)
        except ProtocolError:
            return None
        if msg["kind"] != "config" or self.nonce is None or msg.get("nonce") != self.nonce:
            return None
        self.rx.forget(HOST)
        self.rx.stale -= 1
        return self.rx.accept(line)

    def take_config(self, msg, now):
        """The host's config (its nonce checked by ``_frame``): the setup it carries
        waits for the seating (``apply_pending``); the link is CONFIGURED."""
        self.rx.pin(HOST, msg["boot"], msg["seq"])
        setup = setup_of(msg)
        table = self.table
        # the same set-up: the table goes on -- unless its box broke it and now serves
        # another table (moved: a new table from that table's seating)
        if table is not None and same_setup(setup, table.setup) and not (
                table.hold == BROKEN and self.table_no != msg["table"]):
            self.pending_setup = None
        else:
            probe = dict(setup)  # the config's own fields, checked by the rules
            probe["players"] = {"1": 1, "2": 1}
            probe["button"] = 1
            try:
                Table(probe)
            except (SetupError, ValueError, TypeError, KeyError) as e:
                self.error("config refused: %s" % e)
                return
            self.pending_setup = setup
        if self.host_boot != msg["boot"] or self.table_no != msg["table"]:
            self.acted_sv = None  # another host run numbers afresh (or another table)
        self.host_boot = msg["boot"]
        self.table_no = msg["table"]
        self.state = CONFIGURED
        self.since = now
        self.last_rx = now
        self.got_seating = self.got_clock = False
        self.sv = None  # a new session (maybe another table): the host's next seating counts
        self.book.unpark()  # (the host sends its instructions again)
        self.pending_players = None
        self.pending_clock = None
        self.hostclock.again(now)  # sync again at once, fast (the estimator keeps its samples)
        for entry in self.outbox:  # resend at once after a reconnect
            entry[1] = None


    def take_seating(self, msg):
        """The host's seating: the names; before the table's first hand, or after
        a confirmed ``redraw`` (the table's hold REDRAW, tcbox/instructions/at_table.py), a new
        table from its stacks and button, built by ``apply_pending`` once no hand
        runs.  Otherwise play has begun: the table's own seats and chips count.
        A seating older than the one applied (its ``sv``, the table's seating
        version) came late, overtaken: refused, counted in ``stale_seatings``.  One
        not newer than the seating a seat instruction carried out here was written
        against (``acted_sv``) gives the names only: the table has changed since
        (rebuilt from it, it would seat again a player who left); so does one whose
        names do not show yet a seat change carried out here (``unshown``: the host
        numbered it before that answer reached it, chaos seed 532)."""
        sv = msg.get("sv")
        if sv is not None and self.sv is not None and sv < self.sv:
            self.stale_seatings += 1
            return
        self.got_seating = True
        self.names = msg["names"]
        if self.unshown:  # what these names show has reached the host
            self.unshown = [u for u in self.unshown
                            if (self.names.get(u[0]) == u[1]) != u[2]]
        if sv is not None and sv != self.sv:
            self.sv = sv  # the next status says it (the host sends a newer one when behind)
            self.status_due = True
        if sv is not None and self.acted_sv is not None and sv <= self.acted_sv:
            return  # (the host sends a newer one when its names changed since)
        stacks = msg.get("stacks")
        table = self.table
        button = msg.get("button")
        if msg.get("keep") is True and table is not None and (
                self.pending_setup is None or same_setup(self.pending_setup, table.setup)):
            # US 2's re-draw: the table's own players and chips, the host's button
            # (its stacks are a status that may predate a player sitting down:
            # the scale drill lost a mover's chips that way; docs/protocol.md).
            # A box without a table (a spare) builds one from the stacks below.
            if table.hold == REDRAW and button is not None:
                self.pending_setup = setup_of(table.setup)
                self.pending_players = (None, button, None)
            return
        history = msg.get("history")  # what the players bring from other tables
        if self.pending_setup is not None:
            self.pending_players = (stacks, button, history)
            return
        if table is None or not stacks or table.hold == BROKEN:
            return  # (a seating never opens a broken table again: chaos seed 58)
        redraw = table.hold == REDRAW
        if self.unshown and not redraw:
            return  # older than a seat change done here (chaos seed 532): names only
        if not redraw and (table.hands or table.hand is not None):
            return  # play has begun: the table's own chips count
        want = {}
        try:
            for k in stacks:
                want[int(k)] = stacks[k]
        except ValueError:
            return
        if redraw and len(want) < 2:
            return  # no final table to build: wait for one
        if redraw or want != table.stacks or (button is not None and button != table.first_button):
            self.pending_setup = setup_of(table.setup)
            self.pending_players = (stacks, button, history)


    def apply_pending(self, now):
        """Build the new table once the setup and the seating are both
        here and no hand is running.  With the same setup the new table's
        clock goes on from the old one's (level, ms left, paused) until the
        host's next ``clock``."""
        if self.pending_setup is None or self.pending_players is None:
            return
        table = self.table
        if table is not None and (table.hand is not None or table.moves):
            return  # (changes waiting for the hand's end go first)
        stacks, button, history = self.pending_players
        if table is None and not (stacks and len(stacks) >= 2):
            # a spare box (the league seats nobody here yet): no table, and nothing
            # wrong to report; the setup waits for a seating with two players
            self.pending_players = None
            return
        setup = dict(self.pending_setup)
        if stacks and len(stacks) >= 2:
            setup["players"] = stacks
            if isinstance(history, dict):
                setup["history"] = history
        elif table is not None:
            if stacks is None and len(table.stacks) < 2:
                return  # a re-draw (``keep``) waits for two players
            setup["players"] = players_of(table.stacks)
            # its own players again: each keeps their warnings, penalties and LPPL ¶72's
            # allowance (docs/rules.md §14)
            setup["history"] = history_of(table)
            if button is not None and button not in table.stacks:
                button = None  # the drawn button's player has left: the first seat
        players = setup.get("players")
        if button is None and isinstance(players, dict) and players:
            if table is not None and str(table.first_button) in players:
                button = table.first_button
            else:
                for k in players:
                    seat = int(k) if k.isdigit() else 0
                    if seat and (button is None or seat < button):
                        button = seat
        setup["button"] = button
        self.pending_setup = self.pending_players = None
        try:
            new = Table(setup)
        except (SetupError, ValueError, TypeError, KeyError, AttributeError) as e:
            self.error("seating refused: %s" % e)
            return
        finally:
            drop_setup_code()  # not held while the table runs: tableclock/table.py
        if self.pending_clock is not None:
            msg, at = self.pending_clock
            self.pending_clock = None
            left = msg["ms_left"]
            if not msg["paused"]:
                left = max(0, left - ticks_diff(now, at))
            clock_toward(new.clock, msg["level_index"], left, msg["paused"])
        elif table is not None and same_setup(setup, table.setup):
            clock = table.clock  # the table's clock goes on
            clock_toward(new.clock, clock.index, clock.left_ms, clock.paused, 0)
        self.drain()  # the old table's last facts, with its own numbers
        if table is not None and same_setup(setup, table.setup):
            # the same night at the same table (a re-draw): the chips that left play here
            # before it still did (the scale drill's chip count lost them on every re-draw)
            new.removed = table.removed
        self.table = new
        self.last_state = None
        if self.app is not None:
            self.app.take_table(new)
        self.save_due = True
        if self.slew is not None:
            self.slew.pending = 0  # a correction for the old table's clock
        if self.app is not None:
            self.app.changed()


    def take_instruction(self, msg, parked=False):
        """An instruction from the host: handed to the app once per id (the book's
        entry says what became of it); a repeat is answered again (the same result,
        reason and stack).  A seat instruction that came before what it was written
        after is parked (``Book.early``); *parked*: one the link hands on from there."""
        iid = msg["id"]
        book = self.book
        r = book.seen(iid)
        if r is None and not parked and book.early(msg, self.sv):
            # written against a seating this box has not got (overtaken, or lost), or after
            # a seat change for the same seat that has not come yet: parked until it comes;
            # the status shows the box behind, and the host sends that seating (and this
            # instruction) again (docs/protocol.md "Ordered seatings")
            book.park(msg, self.last_rx)
            self.early += 1
            self.status_due = True
            return
        if r is not None:  # a repeat: never carried out twice
            if r[1] in RESULTS:
                for e in self.outbox:
                    ev = e[0]
                    if ev[1] == "instruction" and ev[2] == iid and ev[3] == r[1]:
                        return  # its answer is on its way
                stack = r[3] if r[1] == "done" else None
                self.event(instruction_event(iid, r[1], r[2], stack))
            return
        body = {}
        for k in msg:
            if k not in _ENVELOPE:
                body[k] = msg[k]
        body["kind"] = "instruction"
        self.save_due = True
        if self.app is None:
            self.instruction_done(iid, "refused", "this box cannot show instructions")
            return
        if body.get("action") != "withdraw":
            book.hand(iid, body)  # for the dealer: in the book before the App shows it
        self.app.instruct(body)

    def _clock(self, msg, now):
        """The host's clock: the table's clock follows it (slewed), or it
        waits with the new table the host's set-up is building."""
        self.got_clock = True
        at = self.hostclock.reading_at(msg["host_ms"], now)
        if self.pending_setup is not None:
            self.pending_clock = (msg, at)
            return
        if self.table is not None and clock_toward(self.table.clock, msg["level_index"],
                                                   msg["ms_left"], msg["paused"],
                                                   slew=self.slewing(), now=now, at=at):
            if self.app is not None:
                self.app.changed()

    def _pair(self, line, now):
        """A pair frame: signed with the key it carries (the USB cable is
        the trust); the box takes the key, the table and the settings."""
        self.ops += 1
        try:
            env = parse(line)
            hexkey = env["body"]["key"]
            key = unhexlify(hexkey)
            msg = decode(line, key, self.box_id)
        except (ProtocolError, ValueError, TypeError, KeyError):
            self.refused_pairs += 1
            return
        if msg["kind"] != "pair" or not 16 <= len(key) <= 64:
            self.refused_pairs += 1
            return
        pairing = {"key": hexkey, "key_id": msg["key_id"], "table": msg["table"]}
        for k in ("event", "settings", "keys"):
            if k in msg:
                pairing[k] = msg[k]
        if len(json.dumps(pairing)) > PAIR_MAX:  # it must fit the power-loss record
            self.refused_pairs += 1
            return
        self.frames_in += 1
        self.pairing = pairing
        self._set_key(key, msg["key_id"])
        self.rx.pin(HOST, msg["boot"], msg["seq"])
        self.table_no = msg["table"]
        self.host_boot = None
        self.save_due = True
        self._hello_again(now)  # the host sees the pairing in a hello with the new key

    def _frame(self, line, now):
        """One line from the host: checked, then handled by its kind."""
        if not line:
            return
        if line[:6] != b'{"v":"':
            self.garbage += 1
            return
        if line.find(b'"kind":"pair"', 0, 40) > 0:
            self._pair(line, now)
            return
        self.ops += 1
        try:
            msg = self.rx.accept(line)
        except Stale:
            msg = self._fresh_config(line)
        except ProtocolError:
            return
        if msg is None:
            return
        self.frames_in += 1
        kind = msg["kind"]
        if not self.paired and kind != "ping":
            return  # the unpaired key authenticates nothing
        if kind == "config":
            if msg.get("nonce") == self.nonce and self.nonce is not None:
                self.take_config(msg, now)
            return
        if self.state >= CONFIGURED:
            if self.host_boot is not None and msg["boot"] > self.host_boot:
                self._hello_again(now)  # the host restarted: it must know us again
            else:
                self.last_rx = now
        elif self.hello_tries >= HELLO_FAST:  # slow hellos, yet a host is there: at once
            self.hello_at = now
        if kind == "ping":
            self.pong = msg.get("t", -1)
            return
        if kind == "pong":
            self.hostclock.pong(self.state, msg, now)
            return
        if kind == "ack":  # safe in any state: ids the host really has
            self._acked(msg["ids"])
            return
        if self.state < CONFIGURED:
            return  # older than this hello, maybe: only config, ping and ack count
        if kind == "seating":
            self.take_seating(msg)
        elif kind == "clock":
            self._clock(msg, now)
        elif kind == "instruction" and self.state == LIVE:
            self.take_instruction(msg)
        if self.state == CONFIGURED and self.got_seating and self.got_clock:
            self.state = LIVE
            self.since = now
            self.status_due = True
            self.status_at = None

    def _acked(self, ids):
        """The host has the events *ids*: out of the outbox."""
        i = 0
        while i < len(self.outbox):
            if self.outbox[i][0][0] in ids:
                self.outbox.pop(i)
            else:
                i += 1
