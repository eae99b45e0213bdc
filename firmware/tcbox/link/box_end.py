"""The box's end of the host link over a serial port: the link states, the
outbox and one bounded slice of work per ``poll`` (docs/protocol.md, "USB
serial" and "On the box").  The host's frames are handled in frames.py,
the record in powerloss.py, the App's wiring in wiring.py (this package).
Pure logic: no hardware import.
"""

import json
from binascii import hexlify

from tableclock.canonjson import ProtocolError
from tableclock.clocksync import OffsetEstimator
from tableclock.protocol import HOST, UNPAIRED_KEY, UNPAIRED_KEY_ID, Receiver, Sender
from tableclock.wire import Lines

from ..presses import ticks_diff
from . import frames
from .events import event_message, events_between, instruction_event
from .powerloss import record_of, restore_record
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
OUTBOX_MAX = 64  # box events kept until acknowledged (the oldest dropped)
CONFIG_WAIT_MS = 10000  # CONFIGURED without seating and clock: hello again
SILENCE_MS = 20000  # LIVE without a frame from the host: link lost, hello again
RESEND_MS = 5000  # unacknowledged events go again
STATUS_MS = 30000  # status heartbeat
STATUS_MIN_MS = 1000  # statuses on changes, at most this often

RESULTS = ("acknowledged", "done", "refused")


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
        self.on_table = None  # callback(new Table)
        self.on_instruction = None  # callback(instruction dict)
        self.on_change = None  # callback(): redraw
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
        self.sv = None  # the seating version those names are (frames.seating), since the config
        self.parked = []  # seat instructions newer than the names: until their seating comes
        self.out = None  # the frame being written
        self.out_at = 0  # bytes of it written
        self.newline = False  # a frame was cut short: end that line first
        self.pong = None  # a ping to answer: its t (or -1 without)
        self.sync = OffsetEstimator()  # the host's clock from our pings (frames.pong)
        self.ping_at = 0  # box tick the next ping is due (set by each config)
        self.pings = 0  # pings since the last config
        self.pongs = 0  # their answers
        self.unanswered = 0  # pings since the last answer
        self.odd_clocks = 0  # clock readings whose host_ms did not fit the estimate
        self.status_due = False
        self.status_at = None
        self.outbox = []  # [event, sent ms or None, JSON size]; event: [id, what, ...]
        self.n = 0  # events made in this boot
        self.instrs = []  # [id, result or None, reason, body or stack or None], oldest first
        self.rehand = []  # restored pending instructions for on_instruction
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
        self.stale_seatings = 0  # seatings older than the one applied (frames.seating)
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
        """The link's part of the power-loss record (powerloss.record_of)."""
        return record_of(self)

    def restore(self, extra):
        """Start from the record's *extra* (powerloss.restore_record)."""
        restore_record(self, extra)

    # -- the app's side ------------------------------------------------
    def observe(self, st):
        """The table's state after an accepted event (or any redraw): the
        box events since the last state seen go into the outbox."""
        old = self.last_state
        self.last_state = st
        if old is None or old is st:
            return
        start = None
        table = self.table
        if table is not None:
            hand = table.hand if table.hand is not None else table.last_hand
            start = getattr(hand, "start", None)
        for ev in events_between(old, st, start):
            self.event(ev)
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
        if len(self.outbox) >= OUTBOX_MAX:
            self.outbox.pop(0)
            self.dropped += 1
        self.outbox.append([ev, None, len(json.dumps(ev)) + 1])

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
        r = frames.instr(self, iid)
        if r is None:
            r = frames.remember(self, iid, None)
        r[1] = result
        r[2] = reason
        self.status_due = True  # the host sees the table as the answer left it
        if result != "done":
            stack = None
        if result != "acknowledged":
            r[3] = stack  # final: the instruction itself is not needed again
        self.save_due = True
        return self.event(instruction_event(iid, result, reason, stack))

    def early_for(self, msg):
        """Has seat instruction *msg* come before what it was written after: the seating
        of its ``sv`` (newer than the names held), or the instruction its ``after`` names
        (a seat change for the same seat, not seen here yet)?  (docs/protocol.md
        "Ordered seatings")"""
        sv = msg.get("sv")
        if sv is not None and self.sv is not None and sv > self.sv:
            return True
        after = msg.get("after")
        return after is not None and frames.instr(self, after) is None

    def _release(self, now):
        """Hand on the parked seat instructions whose seating and predecessor are here
        now, in the order they came (each poll while any is parked); one parked for
        ``PARK_MS`` goes on anyway (a host that never sends that seating, a box without
        a table that sends no status: never stuck; a refusal then says why)."""
        parked = self.parked
        i = 0
        while i < len(parked):
            m = parked[i]
            if self.early_for(m[0]) and ticks_diff(now, m[1]) < frames.PARK_MS:
                i += 1
            else:
                parked.pop(i)
                frames.instruction(self, m[0], True)
                i = 0  # it may be the one another waits for

    def pending(self):
        """Instructions the dealer has not confirmed yet (dicts)."""
        return [r[3] for r in self.instrs if r[1] is None and r[3]]

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
        if self.outbox:
            text += " (%d unsent)" % len(self.outbox)
        return text

    def counters(self):
        rx = self.rx
        return {"state": STATES[self.state], "outbox": len(self.outbox),
                "dropped": self.dropped, "garbage": self.garbage,
                "overlong": self.lines.overlong, "duplicates": rx.duplicates,
                "stale": rx.stale, "forged": rx.forged, "invalid": rx.invalid,
                "frames_in": self.frames_in, "frames_out": self.frames_out,
                "stalls": self.stalls, "too_large": self.too_large,
                "refused_pairs": self.refused_pairs, "pings": self.pings,
                "stale_seatings": self.stale_seatings, "early": self.early,
                "pongs": self.pongs, "odd_clocks": self.odd_clocks,
                "sync_resets": self.sync.resets}

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
            frames.frame(self, line, now)
        if self.rehand and self.on_instruction is not None:
            self.on_instruction(self.rehand.pop(0))
        if self.parked:
            self._release(now)
        frames.apply_pending(self, now)
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
        msg = frames.ping(self, now)  # clock sync: CONFIGURED or LIVE, when due
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
