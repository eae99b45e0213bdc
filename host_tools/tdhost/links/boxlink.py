"""The host's link to one box on a port (USB serial, tdhost.links.pipe's cable or the MQTT
hub's per-box port): config and seating after its hello, the clock, pings, the instructions
its book says are due (it keeps none of its own: tdhost.live.instruction_book) and each
event once (docs/protocol.md, "USB serial" and "Clock sync on the box"; a host crash:
docs/host.md §10.3).
"""

import logging
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from tableclock.canonjson import ProtocolError
from tableclock.protocol import (
    HOST,
    UNPAIRED_KEY,
    UNPAIRED_KEY_ID,
    Forged,
    Receiver,
    Sender,
    Stale,
    decode,
)
from tableclock.wire import Lines
from tdhost.clocks import monotonic_ms, unix_ms
from tdhost.links.hoststore import HostStore
from tdhost.links.usb import FRAME_START, Port, check_port, lines_waiting, peek, write_some
from tdhost.links.wire_messages import (
    BoxEvent,
    BoxState,
    Clock,
    Hello,
    Instruction,
    Peek,
    Ping,
    TableConfig,
    TablePlan,
)

QUEUE_MAX = 128  # frames waiting for a box that does not read
PING_MS = 5000
CLOCK_MS = 10000  # the clock snapshot again every 10 s (and at once on a change)
OFFLINE_MS = 20000

log = logging.getLogger("tdhost.links")

BoxEventHandler = Callable[[BoxEvent], object]  # told of each new box event, once


class Feed(Protocol):
    """What the host sends a box for its table (Live, StaticFeed); ``clock_version`` or
    ``version``, if it has one, changes when its clock does."""

    def for_table(self, table: int, box: str) -> TablePlan | None: ...

    def refusal(self, box: str, table: int | None) -> str | None:
        """Why *box* may not serve *table* (a sentence: not the table it was paired or
        assigned to), or None."""


class StaticFeed:
    """A feed of fixed plans: ``{table: {"config": {...}, "seating": {...}, "clock":
    {...}}}`` (bodies without kind).  A clock without host_ms runs from when the link
    first sends it."""

    def __init__(self, tables: dict[int, TablePlan]) -> None:
        self.tables = tables

    def for_table(self, table: int, box: str) -> TablePlan | None:
        return self.tables.get(table)

    def refusal(self, box: str, table: int | None) -> str | None:
        return None


def _feed_version(feed: Feed) -> object:
    """What tells that the feed's clock changed: ``feed.clock_version``, else
    ``feed.version`` (any change), else None (only the periodic sends)."""
    v = getattr(feed, "clock_version", None)
    return getattr(feed, "version", None) if v is None else v


class HostBook(Protocol):
    """The host's instruction book (tdhost.live.instruction_book.InstructionBook) as a link
    asks it: what to send its box now, and the box's answers."""

    def due(self, link: Any, now: int, every: bool = False) -> list[Instruction]:
        """The instruction frames *link* sends its box now (*every*: all it has not had
        answered: a hello), on the link's clock *now*."""

    def heard(self, link: Any, iid: str, result: str) -> None:
        """*link*'s box answered instruction *iid* with *result*."""


class BoxLink:
    """The host's link to the one box on a port (module notes).

    :param ser: an open port (``tdhost.links.usb.open_port``, anything with
        ``in_waiting``, ``read(n)`` and ``write(b)``).
    :param store: a HostStore (boot counter, events once).
    :param feed: ``for_table(table, box) -> {"config", "seating", "clock"}`` or None (the
        box then waits).
    :param on_event: called once per new box event (the message dict).
    :param book: the instruction book the link asks what to send (``due``) and tells the
        box's answers (``heard``); None: the link sends no instructions.
    :param clock: the link's timer in ms (monotonic; ``poll(now)`` takes the same time);
        tests pass a virtual one.
    :param wall: the host's clock in Unix ms for ``host_ms`` (pongs and clock snapshots).
        Default: Unix time when the link was made plus *clock*'s ms since, so it never
        steps (NTP) and follows a virtual *clock*.

    The host's clock is the master: a box's ``ping`` is answered at once with a ``pong``
    (its ``t``, ``host_ms``); the feed's ``clock`` goes after every hello, every
    ``CLOCK_MS`` while the box is configured or live, and in the next ``poll`` when the
    feed's clock version changed or the host calls ``send_clock()``.  A snapshot without
    ``host_ms`` keeps the one from when those values were first sent.
    """

    def __init__(self, ser: Port, key: bytes, key_id: str, store: HostStore,
                 feed: Feed | None = None, on_event: BoxEventHandler | None = None,
                 clock: Callable[[], int] = monotonic_ms,
                 wall: Callable[[], int] | None = None, book: HostBook | None = None) -> None:
        check_port(ser)
        self.ser = ser
        self.key = key
        self.key_id = key_id
        self.store = store
        self.feed = feed
        self.on_event = on_event
        self.book = book
        self.clock = clock
        self._unix0 = unix_ms()
        self._clock0 = clock()
        self.wall = wall if wall is not None else self._wall
        self.boot = store.next_boot()
        self.rx = Receiver(key, HOST)
        self.tx = Sender(key, HOST, self.boot)
        self.lines = Lines()
        self.queue: deque[bytes] = deque()
        self.out: bytes | None = None
        self.out_at = 0
        self.box: str | None = None  # the box id, from its hello
        self.scope: str | None = None  # the consumer's: events stay pending until done
        self.hello: Hello | None = None  # its last hello
        self.table: int | None = None
        self.refused: str | None = None  # why its last hello was refused (another table)
        self.state = "unknown"  # configured, live, offline
        self.status: BoxState | None = None  # the box's last status state
        self.sv: int | None = None  # the seating version its last status said it holds
        self.last_rx: int | None = None
        self.last_ping: int | None = None
        self.clock_at: int | None = None  # when the clock snapshot last went (clock ms)
        self.clock_seen: object = None  # the feed's clock version then
        self.snap: tuple[tuple[Any, Any, Any], int] | None = None  # a clock's values, host_ms
        self.clocks_sent = 0
        self.pongs = 0
        self.acks: list[str] = []
        self.foreign: Peek | None = None  # a box with another key: what its frame claims
        self.unpaired: dict[str, Any] | None = None  # a box without a key: its hello
        self.garbage = 0
        self.new_events = 0
        self.repeats = 0
        self.dropped = 0
        self.stalls = 0

    def _wall(self) -> int:
        return self._unix0 + (self.clock() - self._clock0)

    # -- sending --------------------------------------------------------
    def send(self, msg: Any, to: str | None = None, first: bool = False) -> None:
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

    def send_clock(self, now: int | None = None) -> bool:
        """Send the feed's clock snapshot to the box now (its clock changed:
        a level change, pause/resume, time added).  *now*: on the link's
        ``clock`` (default: read it).  False when there is no box, table,
        feed or clock to send."""
        if self.box is None or self.table is None or self.feed is None:
            return False
        self.clock_at = self.clock() if now is None else now
        self.clock_seen = _feed_version(self.feed)
        plan = self.feed.for_table(self.table, self.box)
        snapshot = plan.get("clock") if plan else None
        if snapshot is None:
            return False
        self.send(self._clock_msg(snapshot))
        return True

    def _clock_msg(self, snapshot: Clock) -> Clock:
        msg: Clock = {**snapshot, "kind": "clock"}
        if "host_ms" not in msg:
            values = (msg.get("level_index"), msg.get("ms_left"), msg.get("paused"))
            if self.snap is None or self.snap[0] != values:
                self.snap = (values, self.wall())
            msg["host_ms"] = self.snap[1]
        self.clocks_sent += 1
        return msg

    def send_instructions(self, now: int | None = None, every: bool = False) -> None:
        """Queue the instructions the book says are due for the box now (handed to this
        link and not answered: new ones, and each again every 5 s; *every*: all of them,
        after a hello).  Nothing before the box's hello or without a book."""
        if self.box is None or self.book is None:
            return
        for frame in self.book.due(self, self.clock() if now is None else now, every):
            self.send(frame)

    def _flush(self) -> None:
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
    def poll(self, now: int | None = None) -> None:
        """Read and answer what the box sent, ping, resend; never blocks."""
        check_port(self.ser)
        now = self.clock() if now is None else now
        for line in lines_waiting(self.ser, self.lines):
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
        self.send_instructions(now)  # until the box answers (any result)
        if self.last_rx is not None and now - self.last_rx >= OFFLINE_MS:
            self.state = "offline"
        self._flush()

    def _line(self, line: bytes, now: int) -> None:
        if not line:
            return
        if not line.startswith(FRAME_START):
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
        elif kind in ("event", "status") and (self.refused is not None or (
                kind == "status" and self.table is not None
                and msg.get("table", self.table) != self.table)):
            return  # a box refused for its table, or a status for another: not heard
        elif kind == "ping":  # 1.1: the box's clock sync
            pong: Ping = {"kind": "pong", "host_ms": self.wall()}
            if "t" in msg:
                pong["t"] = msg["t"]
            self.send(pong, msg["from"], first=True)
            self.pongs += 1
        elif kind == "event":
            self._event(msg)
        elif kind == "status":
            self.status = msg["state"]
            sv = msg.get("sv")
            self.sv = sv if isinstance(sv, int) and not isinstance(sv, bool) else None
            self.state = "live"

    def _restarted(self, line: bytes) -> dict[str, Any] | None:
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
        accepted: dict[str, Any] | None = self.rx.accept(line)
        return accepted

    def _foreign(self, line: bytes) -> None:
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

    def _hello(self, msg: Hello, now: int) -> None:
        box = msg["from"]
        self.box = box
        self.hello = msg
        self.state = "unknown"
        self.table = None
        self.sv = None  # a new session: the seating comes with its config
        table = msg.get("table")
        why = self.feed.refusal(box, table) if self.feed is not None else None
        if why is not None:
            if why != self.refused:
                log.warning("%s.", why)
            self.refused = why
            return
        self.refused = None
        self._configure(table, now)

    def move_to(self, table: int, now: int | None = None) -> bool:
        """The TD moved this box to *table*: its set-up, seating and clock for that table
        now, the config echoing its last hello's nonce (the box takes the table number
        from it and says hello with it from then on).  False before its hello."""
        if self.box is None or self.hello is None:
            return False
        self.state = "unknown"
        self.refused = None
        self._configure(table, self.clock() if now is None else now)
        return True

    def _configure(self, table: int | None, now: int) -> None:
        """Serve *table*: config, seating and clock, if the feed has them."""
        assert self.box is not None and self.hello is not None, "after a hello"
        box, msg = self.box, self.hello
        self.table = table
        feed = self.feed
        plan = feed.for_table(table, box) if feed and table else None
        if feed is None or not table or not plan:
            return
        config: TableConfig = {**plan["config"], "kind": "config", "table": table,
                          "key_id": self.key_id}
        if msg.get("nonce"):
            config["nonce"] = msg["nonce"]
        self.send(config)
        seating = plan.get("seating")
        if seating is not None:
            self.send({**seating, "kind": "seating"})
        self.clock_at = now
        self.clock_seen = _feed_version(feed)
        snapshot = plan.get("clock")
        if snapshot is not None:
            self.send(self._clock_msg(snapshot))
        self.state = "configured"
        self.send_instructions(self.clock(), every=True)  # at once after a reconnect

    def _event(self, msg: BoxEvent) -> None:
        box = msg["from"]
        if self.store.add_event(box, msg, self.scope):
            self.new_events += 1
            if msg["what"] == "instruction" and self.book is not None:
                self.book.heard(self, msg["instr"], msg["result"])
            if self.on_event is not None:
                self.on_event(msg)
        else:
            self.repeats += 1
        if msg["id"] not in self.acks:
            self.acks.append(msg["id"])
