"""The host's end of the USB serial link to the boxes (docs/protocol.md, "USB serial").

    for c in candidates():                     # ports with an Adafruit/Espressif USB VID
        print(c["device"], "%04x:%04x" % (c["vid"], c["pid"]))
    ser = open_port("/dev/ttyACM1")            # non-blocking; never at 1200 baud
    store = HostStore("tdhost-link.sqlite")    # host boot counter + every box event, once
    link = BoxLink(ser, key, "ev1-k1", store, feed=StaticFeed({4: {...}}), on_event=print)
    while True:
        link.poll()                            # never blocks
        time.sleep(0.01)

    box = pair(open_port(dev), table=4, key=key, key_id="ev1-k1")   # over USB only

**1200 baud.**  Opening a CircuitPython board's serial port at 1200 baud and
closing it ("1200 bps touch") resets the board into its bootloader: a table
would lose its box mid-hand.  ``open_port`` refuses that rate
(``ResetBaudError``) and ``BoxLink``/``pair`` check the port they are given.

**Never blocking.**  Reads use ``timeout=0``.  pyserial's ``write`` with
``write_timeout=0`` busy-loops while the device does not read (it retries
EAGAIN until the timeout, which zero never reaches), so ``write_some`` asks
``select`` first and writes with one ``os.write`` on POSIX ports; a box that
stops reading leaves the frames queued on the host (bounded), not the host
stuck.

**Exactly once.**  Each box event is inserted into the SQLite store under
``(box, id)`` before it is acknowledged; a repeat (the box resends until it
sees the ack, also after its own restart) is acknowledged again but not
applied again, and the store survives host restarts.  ``on_event`` is
called once per new event (the store is the record; the callback a notice).

**Nothing lost in a host crash.**  The ack tells the box to forget an event
once it is in the store, but the consumer (tdhost.live) may still have it
only in memory.  So a link whose ``scope`` is set (Live sets it: one string
per tournament) stores its events as *pending* for that scope; the consumer
reads them back in order (``HostStore.pending``) and marks each ``done``
once its effect is in its own file (``HostStore.done``).  A host killed in
between finds them pending again at its restart (docs/host.md §10.3).
Events stored without a scope (``tdhost usb``, tests) are done at once.

**The host's clock is the master** (docs/protocol.md, "Clock sync on the
box").  ``BoxLink`` answers a box's ``ping`` with a ``pong`` carrying
``host_ms`` (protocol 1.1) and sends the feed's ``clock`` snapshot after each
``hello``, every ``CLOCK_MS`` and at once when the feed's clock changes
(``feed.clock_version``, or ``send_clock()``): see ``BoxLink``.
"""

import hashlib
import json
import os
import select
import sqlite3
import time
from binascii import hexlify
from collections import deque

import serial
import serial.tools.list_ports

from tableclock.protocol import (
    HOST,
    UNPAIRED_KEY,
    UNPAIRED_KEY_ID,
    Forged,
    ProtocolError,
    Receiver,
    Sender,
    Stale,
    decode,
    parse,
)
from tableclock.wire import Lines
from tdhost.league.store import count_write as _count_write

ADAFRUIT_VID = 0x239A
ESPRESSIF_VID = 0x303A
BOX_VIDS = {ADAFRUIT_VID: "Adafruit", ESPRESSIF_VID: "Espressif"}
RESET_BAUD = 1200  # opening a board at this rate resets it into the bootloader
BAUD = 115200  # ignored by USB CDC; anything but 1200
READ_MAX = 8192  # bytes read per poll
QUEUE_MAX = 128  # frames waiting for a box that does not read
PING_MS = 5000
CLOCK_MS = 10000  # the clock snapshot again every 10 s (and at once on a change)
OFFLINE_MS = 20000
INSTR_RESEND_MS = 5000
RESULTS = ("acknowledged", "done", "refused")


class ResetBaudError(ValueError):
    """A serial port at 1200 baud: that would reset the box into its bootloader."""


class PairError(RuntimeError):
    """Pairing did not complete; the text says why."""


def _ms():
    return int(time.monotonic() * 1000)


def _unix_ms():
    return int(time.time() * 1000)


def _feed_version(feed):
    """What tells that the feed's clock changed: ``feed.clock_version``, else
    ``feed.version`` (any change), else None (only the periodic sends)."""
    v = getattr(feed, "clock_version", None)
    return getattr(feed, "version", None) if v is None else v


# ---------------------------------------------------------------- ports
def guard_baud(baudrate):
    if baudrate == RESET_BAUD:
        raise ResetBaudError("refusing 1200 baud: opening a board's port at 1200 baud resets it"
                             " into the bootloader")


def check_port(ser):
    """Refuse a port configured at 1200 baud (see the module notes)."""
    guard_baud(getattr(ser, "baudrate", None))


def candidates(ports=None):
    """Serial ports whose USB vendor is Adafruit or Espressif, as dicts:
    device, vid, pid, maker, serial_number, description, interface, data
    (True when the interface looks like CircuitPython's data port).
    *ports*: list_ports.comports() by default."""
    if ports is None:
        ports = serial.tools.list_ports.comports()
    out = []
    for p in ports:
        if p.vid not in BOX_VIDS:
            continue
        iface = getattr(p, "interface", None) or ""
        desc = p.description or ""
        out.append({
            "device": p.device, "vid": p.vid, "pid": p.pid, "maker": BOX_VIDS[p.vid],
            "serial_number": p.serial_number, "description": desc, "interface": iface,
            "data": "data" in (iface + " " + desc).lower(),
        })
    out.sort(key=lambda c: c["device"])
    return out


def open_port(device, baudrate=BAUD):
    """*device* (a path, or a pyserial URL such as ``loop://``) opened
    non-blocking.  Never at 1200 baud."""
    guard_baud(baudrate)
    ser = serial.serial_for_url(device, do_not_open=True)
    ser.baudrate = baudrate
    ser.timeout = 0
    # loop:// raises at once with write_timeout=0 (and write_some bounds its writes);
    # POSIX ports are written by write_some without pyserial's write
    ser.write_timeout = None if "://" in device else 0
    check_port(ser)
    ser.open()
    return ser


def write_some(ser, data):
    """Write what the port takes now of *data*; the number of bytes (0 when
    its buffer is full).  Never blocks."""
    fd = getattr(ser, "fd", None)
    if isinstance(fd, int) and fd >= 0:
        _, ready, _ = select.select([], [fd], [], 0)
        if not ready:
            return 0
        try:
            return os.write(fd, data)
        except BlockingIOError:
            return 0
    q = getattr(ser, "queue", None)  # pyserial's loop://: a bounded queue
    if q is not None and getattr(q, "maxsize", 0):
        data = data[:max(0, q.maxsize - q.qsize())]
        if not data:
            return 0
    try:
        return ser.write(data) or 0
    except serial.SerialTimeoutException:
        return 0


def read_some(ser, limit=READ_MAX):
    """The bytes waiting on the port (up to *limit*), b"" when none."""
    n = ser.in_waiting
    if not n:
        return b""
    return ser.read(min(n, limit)) or b""


def peek(line):
    """The unverified envelope of a frame (from, kind, key_id...) for
    diagnostics only, or None."""
    try:
        env = parse(line)
    except ProtocolError:
        return None
    if not isinstance(env, dict):
        return None
    body = env.get("body") if isinstance(env.get("body"), dict) else {}
    return {"from": env.get("from"), "kind": env.get("kind"), "key_id": body.get("key_id"),
            "table": body.get("table"), "fw": body.get("fw")}


def key_id_of(key):
    """A key's default id: ``k-`` and 8 hex digits of its SHA-256."""
    return "k-" + hashlib.sha256(key).hexdigest()[:8]


def read_key_file(path):
    """The key in *path*: hex digits (32 bytes: 64 digits), spaces ignored."""
    with open(path, encoding="ascii") as f:
        text = "".join(f.read().split())
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise ValueError("%s does not hold a key in hex digits" % path)
    if len(key) < 16:
        raise ValueError("%s holds a %d-byte key; keys have at least 16 bytes (32 are made)"
                         % (path, len(key)))
    return key


def new_key_file(path):
    """Make a fresh 32-byte key in *path* (readable by its owner only)."""
    key = os.urandom(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex() + "\n")
    return key


# ---------------------------------------------------------------- store
class HostStore:
    """The host's link state in SQLite: its boot counter and every box
    event it has applied, keyed by (box, id), with its ``scope`` and
    whether its consumer is ``done`` with it (module notes)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER)")
        self.db.execute("CREATE TABLE IF NOT EXISTS events (box TEXT, id TEXT, what TEXT,"
                        " body TEXT, at INTEGER, PRIMARY KEY (box, id))")
        cols = {r[1] for r in self.db.execute("PRAGMA table_info(events)")}
        if "scope" not in cols:  # a store from before: its events count as done
            self.db.execute("ALTER TABLE events ADD COLUMN scope TEXT")
            self.db.execute("ALTER TABLE events ADD COLUMN done INTEGER NOT NULL DEFAULT 1")
        self.db.execute("CREATE INDEX IF NOT EXISTS events_pending ON events (box, done)")
        self.db.commit()

    def _commit(self):
        _count_write()  # the crash tests' hook (tdhost.league.store)
        self.db.commit()
        _count_write()

    def next_boot(self):
        """The boot counter, moved on by one and kept."""
        row = self.db.execute("SELECT v FROM meta WHERE k = 'boot'").fetchone()
        boot = (row[0] if row else 0) + 1
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('boot', ?)", (boot,))
        self._commit()
        return boot

    def add_event(self, box, msg, scope=None):
        """Keep the event *msg* of *box*; False when it was there already.
        With a *scope* it is pending for that scope's consumer until
        ``done``; without, done at once."""
        body = {k: msg[k] for k in msg if k not in ("kind", "v", "from", "to", "boot", "seq")}
        cur = self.db.execute("INSERT OR IGNORE INTO events (box, id, what, body, at, scope, "
                              "done) VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (box, msg["id"], msg["what"], json.dumps(body, sort_keys=True),
                               int(time.time() * 1000), scope, 0 if scope else 1))
        self._commit()
        return cur.rowcount == 1

    def events(self, box=None):
        """The events kept, in the order they came: dicts with "box"."""
        q = "SELECT box, body FROM events"
        args = ()
        if box is not None:
            q += " WHERE box = ?"
            args = (box,)
        out = []
        for b, body in self.db.execute(q + " ORDER BY rowid", args):
            d = json.loads(body)
            d["box"] = b
            out.append(d)
        return out

    def pending(self, box, scope):
        """The events of *box* stored for *scope* and not ``done``, in the
        order they came, as messages (with "from")."""
        out = []
        for body, in self.db.execute("SELECT body FROM events WHERE box = ? AND done = 0 AND "
                                     "scope = ? ORDER BY rowid", (box, scope)):
            d = json.loads(body)
            d["from"] = box
            out.append(d)
        return out

    def done(self, box, ids):
        """The consumer is done with these events of *box* (its effect is kept
        elsewhere): they are no longer ``pending``."""
        ids = list(ids)
        if not ids:
            return
        cur = self.db.execute("UPDATE events SET done = 1 WHERE box = ? AND done = 0 AND id IN "
                              "(%s)" % ", ".join("?" * len(ids)), [box] + ids)
        if cur.rowcount:
            self._commit()
        else:
            self.db.rollback()

    def close(self):
        self.db.close()


class StaticFeed:
    """What the host sends a box for its table: ``{table: {"config": {...},
    "seating": {...}, "clock": {...}}}`` (bodies without kind).  A clock
    without host_ms runs from when the link first sends it (see BoxLink)."""

    def __init__(self, tables):
        self.tables = tables

    def for_table(self, table, box):
        return self.tables.get(table)


# ---------------------------------------------------------------- link
class BoxLink:
    """The host's link to the one box on a serial port (module notes).

    :param ser: an open pyserial port (``open_port``) or any object with
        ``in_waiting``, ``read(n)`` and ``write(b)``.
    :param store: a HostStore (boot counter, events once).
    :param feed: ``for_table(table, box) -> {"config", "seating", "clock"}``
        or None (the box then waits).  See "The clock" below.
    :param on_event: called once per new box event (the message dict).
    :param clock: the link's timer in ms (monotonic; ``poll(now)`` takes the
        same time); tests pass a virtual one.
    :param wall: the host's clock in Unix ms for ``host_ms`` (pongs and clock
        snapshots).  Default: Unix time when the link was made plus *clock*'s
        ms since, so it never steps (NTP) and follows a virtual *clock*.

    **The clock.**  The host's tournament clock is the master; the box
    follows it (docs/protocol.md, "Clock sync on the box"):

    - a box's ``ping`` is answered at once (ahead of queued frames) with a
      ``pong`` echoing its ``t`` and ``host_ms`` = ``wall()``: the box's
      round-trip samples;
    - the feed's ``clock`` (``level_index``, ``ms_left``, ``paused``) goes
      after every ``hello``, again every ``CLOCK_MS`` (10 s) while the box is
      configured or live, and at once -- in the next ``poll``, so within the
      host's poll interval -- when ``feed.clock_version`` changed (any value:
      the feed changes it on a level change, pause/resume, time added or
      removed; a feed without it is watched through ``feed.version``, if
      any), or when the host calls ``send_clock()``;
    - a snapshot is as of its ``host_ms`` (Unix ms on ``wall``): a feed that
      computes ``ms_left`` when asked may leave it out (it is read now); a
      feed that returns the same values again (StaticFeed, a paused clock)
      keeps the ``host_ms`` from when those values were first sent, so its
      clock runs on from there instead of starting over.
    """

    def __init__(self, ser, key, key_id, store, feed=None, on_event=None, clock=_ms,
                 wall=None):
        check_port(ser)
        self.ser = ser
        self.key = key
        self.key_id = key_id
        self.store = store
        self.feed = feed
        self.on_event = on_event
        self.clock = clock
        self._unix0 = _unix_ms()
        self._clock0 = clock()
        self.wall = wall if wall is not None else self._wall
        self.boot = store.next_boot()
        self.rx = Receiver(key, HOST)
        self.tx = Sender(key, HOST, self.boot)
        self.lines = Lines()
        self.queue = deque()
        self.out = None
        self.out_at = 0
        self.box = None  # the box id, from its hello
        self.scope = None  # the consumer's scope: events stay pending until done (notes)
        self.hello = None  # its last hello
        self.table = None
        self.state = "unknown"  # configured, live, offline
        self.status = None  # the box's last status state
        self.last_rx = None
        self.last_ping = None
        self.clock_at = None  # when the clock snapshot last went (clock ms)
        self.clock_seen = None  # the feed's clock version then
        self.snap = None  # (level_index, ms_left, paused), host_ms: a snapshot without host_ms
        self.clocks_sent = 0
        self.pongs = 0
        self.instrs = {}  # id: [body, last sent ms, result]
        self.acks = []
        self.foreign = None  # a box with another key: what its frame claims
        self.unpaired = None  # a box without a key: its hello (unpaired key)
        self.garbage = 0
        self.new_events = 0
        self.repeats = 0
        self.dropped = 0
        self.stalls = 0

    def _wall(self):
        return self._unix0 + (self.clock() - self._clock0)

    # -- sending --------------------------------------------------------
    def send(self, msg, to=None, first=False):
        """Queue *msg* for the box (addressed to it; pings to "*" before
        its hello).  A full queue drops its oldest frame.  *first*: ahead of
        the queued frames (a pong: its round trip must not wait for them)."""
        if to is None:
            to = self.box if self.box is not None else "*"
        frame = self.tx.encode(msg, to)
        if len(self.queue) >= QUEUE_MAX:
            self.queue.popleft()
            self.dropped += 1
        if first:
            self.queue.appendleft(frame)
        else:
            self.queue.append(frame)

    def send_clock(self, now=None):
        """Send the feed's clock snapshot to the box now (its clock changed:
        a level change, pause/resume, time added).  *now*: on the link's
        ``clock`` (default: read it).  False when there is no box, table,
        feed or clock to send."""
        if self.box is None or self.table is None or self.feed is None:
            return False
        self.clock_at = self.clock() if now is None else now
        self.clock_seen = _feed_version(self.feed)
        plan = self.feed.for_table(self.table, self.box)
        c = plan.get("clock") if plan else None
        if c is None:
            return False
        self.send(self._clock_msg(c))
        return True

    def _clock_msg(self, c):
        msg = dict(c, kind="clock")
        if "host_ms" not in msg:
            key = (msg.get("level_index"), msg.get("ms_left"), msg.get("paused"))
            if self.snap is None or self.snap[0] != key:
                self.snap = (key, self.wall())
            msg["host_ms"] = self.snap[1]
        self.clocks_sent += 1
        return msg

    def instruct(self, body):
        """Send an instruction (``{"id", "action", ...}``) until the box
        answers it; returns its id."""
        msg = dict(body, kind="instruction")
        self.instrs[msg["id"]] = [msg, self.clock(), None]
        if self.box is not None:
            self.send(msg)
        return msg["id"]

    def _flush(self):
        """Write queued frames until the port takes no more."""
        for _ in range(QUEUE_MAX):
            if self.out is None:
                if not self.queue:
                    return
                self.out = self.queue.popleft()
                self.out_at = 0
            n = write_some(self.ser, memoryview(self.out)[self.out_at:])
            if not n:
                self.stalls += 1
                return
            self.out_at += n
            if self.out_at >= len(self.out):
                self.out = None

    # -- the loop -------------------------------------------------------
    def poll(self, now=None):
        """Read and answer what the box sent, ping, resend; never blocks."""
        check_port(self.ser)
        now = self.clock() if now is None else now
        data = read_some(self.ser)
        while data:  # at most READ_MAX bytes: a bounded number of lines
            data = data[self.lines.feed(data):]
            while True:
                line = self.lines.line()
                if line is None:
                    break
                self._line(line, now)
        if self.acks:
            self.send({"kind": "ack", "ids": self.acks})
            self.acks = []
        if self.last_ping is None or now - self.last_ping >= PING_MS:
            self.last_ping = now
            self.send({"kind": "ping", "t": now % 1000000})
        if self.box is not None and self.feed is not None and self.state in ("configured",
                                                                             "live"):
            if (self.clock_at is None or abs(now - self.clock_at) >= CLOCK_MS
                    or _feed_version(self.feed) != self.clock_seen):
                self.send_clock(now)
        if self.box is not None:
            for r in self.instrs.values():  # until the box answers (any result)
                if r[2] is None and now - r[1] >= INSTR_RESEND_MS:
                    r[1] = now
                    self.send(r[0])
        if self.last_rx is not None and now - self.last_rx >= OFFLINE_MS:
            self.state = "offline"
        self._flush()

    def _line(self, line, now):
        if not line:
            return
        if line[:6] != b'{"v":"':
            self.garbage += 1
            return
        try:
            msg = self.rx.accept(line)
        except Forged:
            self._foreign(line)
            return
        except Stale:
            msg = None
        except ProtocolError:
            return
        if msg is None:  # a duplicate or stale frame: a box whose boot counter went back?
            msg = self._restarted(line)
            if msg is None:
                return
        self.last_rx = now
        kind = msg["kind"]
        if self.box is None:  # (verified) a box that was live before this host started
            self.box = msg["from"]
        if self.state == "offline":
            self.state = "configured" if self.hello is not None else "unknown"
        if kind == "hello":
            self._hello(msg, now)
        elif kind == "ping":  # 1.1: the box's clock sync
            pong = {"kind": "pong", "host_ms": self.wall()}
            if "t" in msg:
                pong["t"] = msg["t"]
            self.send(pong, msg["from"], first=True)
            self.pongs += 1
        elif kind == "event":
            self._event(msg)
        elif kind == "status":
            self.status = msg["state"]
            self.state = "live"

    def _restarted(self, line):
        """A duplicate or stale frame that is a verified hello with a new
        nonce: the box restarted without moving its boot counter on (its
        record was lost).  Start its window again; anything else stays
        refused."""
        try:
            msg = decode(line, self.key, HOST)
        except ProtocolError:
            return None
        if msg["kind"] != "hello" or (self.hello is not None
                                      and self.hello.get("nonce") == msg.get("nonce")):
            return None
        self.rx.forget(msg["from"])
        return self.rx.accept(line)

    def _foreign(self, line):
        p = peek(line)
        if p is None:
            return
        if p["key_id"] == UNPAIRED_KEY_ID:
            try:
                self.unpaired = decode(line, UNPAIRED_KEY, HOST)
                return
            except ProtocolError:
                pass
        self.foreign = p

    def _hello(self, msg, now):
        box = msg["from"]
        if self.box is not None and box != self.box:  # another box on this port
            self.instrs = {k: v for k, v in self.instrs.items() if v[2] is None}
        self.box = box
        self.hello = msg
        self.state = "unknown"
        self.table = msg.get("table")
        plan = self.feed.for_table(self.table, box) if self.feed and self.table else None
        if not plan:
            return
        config = dict(plan["config"], kind="config", table=self.table, key_id=self.key_id)
        if msg.get("nonce"):
            config["nonce"] = msg["nonce"]
        self.send(config)
        if plan.get("seating") is not None:
            self.send(dict(plan["seating"], kind="seating"))
        self.clock_at = now
        self.clock_seen = _feed_version(self.feed)
        if plan.get("clock") is not None:
            self.send(self._clock_msg(plan["clock"]))
        self.state = "configured"
        for r in self.instrs.values():  # send on at once after a reconnect
            if r[2] is None:
                self.send(r[0])
                r[1] = self.clock()

    def _event(self, msg):
        box = msg["from"]
        if self.store.add_event(box, msg, self.scope):
            self.new_events += 1
            if msg["what"] == "instruction":
                r = self.instrs.get(msg["instr"])
                if r is not None:
                    r[2] = msg["result"]
            if self.on_event is not None:
                self.on_event(msg)
        else:
            self.repeats += 1
        if msg["id"] not in self.acks:
            self.acks.append(msg["id"])


# ---------------------------------------------------------------- pairing
def box_on(ser, timeout_s=10.0, clock=time.monotonic, sleep=time.sleep):
    """The box id the box on *ser* says hello with (unverified: the pairing that
    follows is confirmed by a hello signed with the new key).  PairError after
    *timeout_s* seconds without a hello."""
    check_port(ser)
    lines = Lines()
    start = clock()
    while clock() - start < timeout_s:
        data = read_some(ser)
        while data:
            data = data[lines.feed(data):]
            while True:
                line = lines.line()
                if line is None:
                    break
                p = peek(line) if line[:6] == b'{"v":"' else None
                if p is not None and p["kind"] == "hello" and isinstance(p["from"], str):
                    return p["from"]
        sleep(0.01)
    raise PairError("no box said hello within %g s (is this the box's data port, and is"
                    " its firmware running?)" % timeout_s)


def pair(ser, table, key, key_id=None, event=None, settings=None, timeout_s=10.0,
         resend_s=1.0, clock=time.monotonic, sleep=time.sleep, keys=None, box=None):
    """Give the box on *ser* the *key* (the event's, or with ``keys="box"`` the
    box's own: protocol.box_key), its *table* and the Wi-Fi/MQTT *settings* (a
    dict), over USB; returns the box id once it says hello with the new key
    (*box*: only that box's hello counts).  PairError after *timeout_s* seconds."""
    check_port(ser)
    if key_id is None:
        key_id = key_id_of(key)
    msg = {"kind": "pair", "key": hexlify(key).decode(), "key_id": key_id, "table": table}
    if event is not None:
        msg["event"] = event
    if settings:
        msg["settings"] = settings
    if keys is not None:
        msg["keys"] = keys
    tx = Sender(key, HOST, 0)
    lines = Lines()
    start = clock()
    sent = None
    out = b""
    while clock() - start < timeout_s:
        if not out and (sent is None or clock() - sent >= resend_s):
            out = tx.encode(msg, "*")
            sent = clock()
        if out:
            out = out[write_some(ser, out):]
        data = read_some(ser)
        while data:
            data = data[lines.feed(data):]
            while True:
                line = lines.line()
                if line is None:
                    break
                try:
                    got = decode(line, key, HOST)
                except ProtocolError:
                    continue
                if got["kind"] == "hello" and got.get("key_id") == key_id \
                        and got.get("table") == table and box in (None, got["from"]):
                    return got["from"]
        sleep(0.01)
    raise PairError("no box confirmed the pairing within %g s (is this the box's data port,"
                    " and is its firmware running?)" % timeout_s)


def listen(ser, seconds, clock=time.monotonic, sleep=time.sleep):
    """What the box on *ser* says in *seconds*: the envelopes of its frames
    (unverified, see ``peek``) and the number of other lines."""
    lines = Lines()
    frames = []
    other = 0
    start = clock()
    while clock() - start < seconds:
        data = read_some(ser)
        while data:
            data = data[lines.feed(data):]
            while True:
                line = lines.line()
                if line is None:
                    break
                p = peek(line) if line[:6] == b'{"v":"' else None
                if p is None:
                    other += 1 if line else 0
                else:
                    frames.append(p)
        sleep(0.05)
    return frames, other
