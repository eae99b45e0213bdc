"""A fault-injecting TCP proxy between MQTT clients and a broker, on 127.0.0.1
(docs/mqtt.md, "Faults"; issue #4 "Sync").  Used by tests/host/test_faults*.py.

    proxy = FaultProxy(broker.port).start()          # clients connect to proxy.port
    proxy.set("blackhole", client="tc-01")           # that box's network goes silent
    proxy.set("delay", ms=300, direction=UP)         # every packet to the broker 300 ms late
    proxy.set("pass")                                # everything mended
    rec = proxy.recorded(client="tc-01", direction=DOWN)[0]   # a PUBLISH the box was sent
    proxy.inject(rec.packet, client="tc-01")         # ... played to it again later
    proxy.stop()

**One thread**, one ``selectors`` loop, non-blocking sockets.  For every
client it accepts, the proxy opens its own connection to the broker; the two
directions are *UP* (client -> broker) and *DOWN* (broker -> client).

**Packet-aware.**  Bytes are cut into MQTT packets by the fixed header's
remaining length (1-4 bytes, MQTT 3.1.1 section 2.2.3) before a fault acts, so
faults act on whole packets and the stream stays well framed.  The client id
is read from the CONNECT packet: faults can be aimed at one client (a box id,
the host's ``tdhost-<event>``) before or after it connects.

**Modes** (per direction; for everyone, one client, or one connection;
switchable at run time from any thread):

========== ================================================================
pass       forward at once
blackhole  accept and swallow every packet; the TCP connections stay open
           (a closed client is not passed on either: the broker never hears)
delay      forward each packet ``ms`` milliseconds late, order kept
reset      at the next packet close both sides (``reset()``: at once)
duplicate  send each PUBLISH twice (the copy of a QoS 1/2 one with DUP set)
reorder    hold a PUBLISH until the next one and send that one first
           (a PUBLISH alone is let go after ``HOLD_MS``)
corrupt    flip one bit of one byte in each PUBLISH payload (in a frame, a
           letter or digit of its signed part: its MAC must refuse it)
========== ================================================================

A connection's own mode (``conn=``) wins over its client's (``client=``),
which wins over the default; ``set(mode)`` alone sets the default and drops
the others for that direction.

**Bounded.**  At most ``buffer_max`` bytes wait per direction of a
connection (a side that is full is not read: TCP pushes back), a packet
announcing more than ``PACKET_MAX`` bytes or a malformed length closes its
connection, the record of PUBLISH packets keeps the last ``RECORD_MAX``.
``stop()`` closes every socket and ends the thread.
"""

import collections
import errno
import random
import selectors
import socket
import threading
import time

UP = "up"  # client -> broker
DOWN = "down"  # broker -> client
BOTH = "both"
PASS = "pass"
BLACKHOLE = "blackhole"
DELAY = "delay"
RESET = "reset"
DUPLICATE = "duplicate"
REORDER = "reorder"
CORRUPT = "corrupt"
MODES = (PASS, BLACKHOLE, DELAY, RESET, DUPLICATE, REORDER, CORRUPT)

BUFFER_MAX = 1 << 20  # bytes waiting per direction of a connection
PACKET_MAX = 1 << 20  # an MQTT packet's remaining length, at most
RECORD_MAX = 512  # PUBLISH packets remembered (all connections)
HOLD_MS = 200  # reorder: a PUBLISH with no successor goes after this long
READ_MAX = 65536  # bytes per recv
TAIL = 74  # a frame's last bytes: ,"mac":"<64 hex>"}  (tableclock.protocol)
FROM_END = 96  # the host looks for "from" in a frame's first 96 bytes (tdhost.links.mqtt)
# XOR 1 keeps these letters and digits letters and digits (JSON stays JSON)
FLIPPABLE = frozenset(b"0123456789bcdefghijklmnopqrstuvwxyBCDEFGHIJKLMNOPQRSTUVWXY")

_CONNECT = 1
_PUBLISH = 3
_IN_PROGRESS = (0, errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EAGAIN)


# ------------------------------------------------------------- packets
def remaining_length(buf, start=1):
    """(remaining length, bytes of its encoding) of the packet at the start
    of *buf*; None while incomplete; ValueError when malformed."""
    n = 0
    for i in range(4):
        if start + i >= len(buf):
            return None
        b = buf[start + i]
        n |= (b & 0x7F) << (7 * i)
        if not b & 0x80:
            return n, i + 1
    raise ValueError("an MQTT remaining length longer than 4 bytes")


def encode_length(n):
    """The remaining-length bytes of *n* (0 .. 268435455)."""
    if not 0 <= n < 1 << 28:
        raise ValueError("an MQTT remaining length must be 0 to 268435455, not %d" % n)
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def publish_packet(topic, payload, qos=0, pid=1, retain=False, dup=False):
    """A PUBLISH packet (bytes): *topic* (str or bytes), *payload* (bytes)."""
    t = topic.encode() if isinstance(topic, str) else bytes(topic)
    body = len(t).to_bytes(2, "big") + t
    if qos:
        body += pid.to_bytes(2, "big")
    body += bytes(payload)
    head = 0x30 | (qos << 1) | (0x08 if dup else 0) | (0x01 if retain else 0)
    return bytes([head]) + encode_length(len(body)) + body


def parse_publish(packet):
    """(topic bytes, qos, pid or None, payload offset) of a whole PUBLISH
    packet; ValueError when it is not one."""
    if not packet or packet[0] >> 4 != _PUBLISH:
        raise ValueError("not a PUBLISH packet")
    got = remaining_length(packet)
    if got is None:
        raise ValueError("a PUBLISH packet cut short")
    _, k = got
    i = 1 + k
    if i + 2 > len(packet):
        raise ValueError("a PUBLISH packet without its topic")
    tl = packet[i] << 8 | packet[i + 1]
    topic = bytes(packet[i + 2:i + 2 + tl])
    i += 2 + tl
    qos = (packet[0] >> 1) & 3
    pid = None
    if qos:
        pid = packet[i] << 8 | packet[i + 1] if i + 2 <= len(packet) else None
        i += 2
    if i > len(packet):
        raise ValueError("a PUBLISH packet shorter than its header says")
    return topic, qos, pid, i


def client_id(packet):
    """The client id of a CONNECT packet, or None."""
    try:
        _, k = remaining_length(packet)
        i = 1 + k
        nl = packet[i] << 8 | packet[i + 1]  # protocol name ("MQTT", "MQIsdp")
        i += 2 + nl + 1 + 1 + 2  # name, level, flags, keep-alive
        cl = packet[i] << 8 | packet[i + 1]
        return bytes(packet[i + 2:i + 2 + cl]).decode("utf-8", "replace")
    except (TypeError, IndexError, ValueError):
        return None


def corrupt_payload(payload, rng):
    """*payload* with one bit flipped (module notes, ``corrupt``).  In a
    frame the byte is a letter or digit of the signed part after the first
    96 bytes (or after the version, in a short frame), so the frame still
    parses and names its sender, and only its MAC can tell."""
    p = bytearray(payload)
    n = len(p)
    while n and p[n - 1] in (0x0A, 0x0D):
        n -= 1
    lo, hi = 0, n
    if p[:6] == b'{"v":"' and n > 12 + TAIL:
        hi = n - TAIL
        lo = FROM_END if hi - FROM_END >= 8 else 12
    if hi <= lo:
        if not p:
            return bytes(p)
        lo, hi = 0, len(p)
    spots = [i for i in range(lo, hi) if p[i] in FLIPPABLE]
    if spots:
        i = spots[rng.randrange(len(spots))]
        p[i] ^= 0x01
    else:
        i = rng.randrange(lo, hi)
        p[i] ^= 0x20
    return bytes(p)


class Record:
    """A PUBLISH the proxy saw: ``conn``, ``client``, ``direction``,
    ``topic`` (str), ``payload`` (bytes), ``packet`` (the whole packet,
    bytes, as it arrived), ``at`` (time.monotonic())."""

    __slots__ = ("conn", "client", "direction", "topic", "payload", "packet", "at")

    def __init__(self, conn, client, direction, topic, payload, packet, at):
        self.conn = conn
        self.client = client
        self.direction = direction
        self.topic = topic
        self.payload = payload
        self.packet = packet
        self.at = at

    def __repr__(self):
        return "Record(%s %s %s %r)" % (self.client, self.direction, self.topic,
                                        self.payload[:40])


# --------------------------------------------------------- connections
class _Side:
    """One direction of one connection: bytes read and not yet cut into
    packets, packets waiting (with the time they are due), the one being
    written, a PUBLISH held for reorder."""

    def __init__(self):
        self.inbuf = bytearray()
        self.queue = collections.deque()  # [due (monotonic s), bytes]
        self.qbytes = 0
        self.out = bytearray()
        self.last_due = 0.0
        self.held = None  # (packet, since)
        self.eof = False

    def waiting(self):
        return self.qbytes + len(self.out) + len(self.inbuf) + (
            len(self.held[0]) if self.held else 0)

    def drained(self):
        return not self.queue and not self.out and self.held is None


class _Conn:
    def __init__(self, cid, csock):
        self.id = cid
        self.client = None
        self.csock = csock
        self.bsock = None
        self.ready = False  # the broker side is connected
        self.open = True
        self.modes = {}  # direction: (mode, ms): this connection's own
        self.sides = {UP: _Side(), DOWN: _Side()}
        self.events = {}  # socket: registered selector events


class FaultProxy:
    """The proxy (module notes).

    :param broker_port: the broker's TCP port; :param broker_host: its host.
    :param port: the port to listen on (0: a free one, see ``.port``).
    :param buffer_max: bytes waiting per direction of a connection.
    :param seed: for ``corrupt``'s choice of byte.
    """

    def __init__(self, broker_port, broker_host="127.0.0.1", port=0, host="127.0.0.1",
                 buffer_max=BUFFER_MAX, seed=1):
        self.broker = (broker_host, broker_port)
        self.host = host
        self.buffer_max = buffer_max
        self.rng = random.Random(seed)
        self._lock = threading.RLock()
        self._default = {UP: (PASS, 0), DOWN: (PASS, 0)}
        self._rules = {}  # client id: {direction: (mode, ms)}
        self._conns = {}  # id: _Conn
        self._next_id = 1
        self._records = collections.deque(maxlen=RECORD_MAX)
        self._kill = []  # connection ids to close (reset())
        self._stopping = False
        self._thread = None
        self.counts = collections.Counter()
        self._sel = selectors.DefaultSelector()
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind((host, port))
        self._listener.listen(128)
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._sel.register(self._listener, selectors.EVENT_READ, None)
        self._sel.register(self._wake_r, selectors.EVENT_READ, None)

    # -- control (any thread) ----------------------------------------------
    def start(self):
        """Run the proxy's thread; returns self."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="faultproxy", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout_s=5.0):
        """Close every connection and the listener; end the thread.  Safe
        to call twice."""
        self._stopping = True
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                raise RuntimeError("the fault proxy's thread did not end within %g s"
                                   % timeout_s)
            self._thread = None
        else:
            self._shutdown()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def url(self, user=None, password=None):
        """``mqtt://[user:password@]HOST:PORT`` of the proxy."""
        from tdhost.links.broker import broker_url

        return broker_url(self.host, self.port, user, password)

    def set(self, mode, direction=BOTH, client=None, conn=None, ms=0):
        """Switch *direction* (UP, DOWN or BOTH) to *mode* (one of MODES;
        *ms* for DELAY) for connection *conn* (an id from ``connections()``),
        for every connection of *client* (its MQTT client id, now and
        later), or, with neither, for everyone (the default, and the other
        settings of that direction dropped)."""
        if mode not in MODES:
            raise ValueError("unknown fault mode %r: use one of %s" % (mode, ", ".join(MODES)))
        if direction not in (UP, DOWN, BOTH):
            raise ValueError("direction must be %r, %r or %r, not %r" % (UP, DOWN, BOTH,
                                                                        direction))
        if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0:
            raise ValueError("the delay must be a whole number of ms >= 0, not %r" % (ms,))
        ds = (UP, DOWN) if direction == BOTH else (direction,)
        m = (mode, ms if mode == DELAY else 0)
        with self._lock:
            for d in ds:
                if conn is not None:
                    c = self._conns.get(conn)
                    if c is None:
                        raise ValueError("no open connection %r" % (conn,))
                    c.modes[d] = m
                elif client is not None:
                    self._rules.setdefault(client, {})[d] = m
                else:
                    self._default[d] = m
                    for r in self._rules.values():
                        r.pop(d, None)
                    for c in self._conns.values():
                        c.modes.pop(d, None)
        self._wake()

    def reset(self, client=None, conn=None):
        """Close (both sides of) the connections of *client*, connection
        *conn*, or every connection; the number closed."""
        with self._lock:
            ids = [c.id for c in self._conns.values() if c.open and (
                (conn is None and client is None) or c.id == conn
                or (client is not None and c.client == client))]
            self._kill.extend(ids)
        self._wake()
        return len(ids)

    def inject(self, data, client=None, direction=DOWN, conn=None):
        """Send *data* (bytes: whole packets) on the newest open connection
        of *client* (or connection *conn*) toward the client (DOWN) or the
        broker (UP), whatever the mode: an attacker on the wire.  False when
        there is no such connection."""
        if direction not in (UP, DOWN):
            raise ValueError("direction must be %r or %r" % (UP, DOWN))
        with self._lock:
            cands = [c for c in self._conns.values() if c.open and (
                c.id == conn if conn is not None else c.client == client)]
            if not cands:
                return False
            c = max(cands, key=lambda x: x.id)
            s = c.sides[direction]
            s.queue.append([time.monotonic(), bytes(data)])
            s.qbytes += len(data)
            self.counts["injected"] += 1
        self._wake()
        return True

    def recorded(self, client=None, direction=None, topic=None):
        """The PUBLISH packets seen (``Record``), oldest first, filtered by
        client id, direction and topic suffix (e.g. ``"/in"``)."""
        with self._lock:
            out = list(self._records)
        return [r for r in out if (client is None or r.client == client)
                and (direction is None or r.direction == direction)
                and (topic is None or r.topic.endswith(topic))]

    def connections(self):
        """The open connections: dicts with id, client, up and down (mode names)."""
        with self._lock:
            return [{"id": c.id, "client": c.client, "up": self._mode(c, UP)[0],
                     "down": self._mode(c, DOWN)[0]}
                    for c in self._conns.values() if c.open]

    def wait_connected(self, client, timeout_s=5.0, after=0):
        """True once a connection of *client* with an id above *after* is
        open (it has sent its CONNECT) within *timeout_s* real seconds."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if any(c["client"] == client and c["id"] > after for c in self.connections()):
                return True
            time.sleep(0.005)
        return False

    def _wake(self):
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass

    # -- the thread ----------------------------------------------------------
    def _mode(self, c, d):
        m = c.modes.get(d)
        if m is None and c.client is not None:
            m = self._rules.get(c.client, {}).get(d)
        return m or self._default[d]

    def _run(self):
        try:
            while not self._stopping:
                with self._lock:
                    timeout = self._arm(time.monotonic())
                for key, mask in self._sel.select(timeout):
                    with self._lock:
                        self._event(key, mask)
                with self._lock:
                    now = time.monotonic()
                    for cid in self._kill:
                        c = self._conns.get(cid)
                        if c is not None:
                            self.counts["resets"] += 1
                            self._close(c)
                    self._kill = []
                    for c in list(self._conns.values()):
                        self._timers(c, now)
                        for d in (UP, DOWN):
                            self._pump(c, d, now)
        finally:
            with self._lock:
                self._shutdown()

    def _shutdown(self):
        for c in list(self._conns.values()):
            self._close(c)
        for s in (self._listener, self._wake_r, self._wake_w):
            try:
                self._sel.unregister(s)
            except (KeyError, ValueError):
                pass
            s.close()
        self._sel.close()

    def _arm(self, now):
        """Selector registrations for what each socket may do now; the
        select timeout until the next due packet or held PUBLISH."""
        due = 0.5
        for c in list(self._conns.values()):
            want = {}
            if c.bsock is not None and not c.ready:
                want[c.bsock] = selectors.EVENT_WRITE
            for d in (UP, DOWN):
                s = c.sides[d]
                src, dst = (c.csock, c.bsock) if d == UP else (c.bsock, c.csock)
                if src is not None and (d == UP or c.ready) and not s.eof and (
                        s.waiting() < self.buffer_max):
                    want[src] = want.get(src, 0) | selectors.EVENT_READ
                if s.out and dst is not None and (d == DOWN or c.ready):
                    want[dst] = want.get(dst, 0) | selectors.EVENT_WRITE
                if s.queue and not s.out:
                    due = min(due, max(0.0, s.queue[0][0] - now))
                if s.held is not None:
                    due = min(due, max(0.0, s.held[1] + HOLD_MS / 1000 - now))
            for sock in (c.csock, c.bsock):
                if sock is None:
                    continue
                ev = want.get(sock, 0)
                old = c.events.get(sock, 0)
                if ev == old:
                    continue
                if old and ev:
                    self._sel.modify(sock, ev, c)
                elif ev:
                    self._sel.register(sock, ev, c)
                else:
                    self._sel.unregister(sock)
                c.events[sock] = ev
        return due

    def _event(self, key, mask):
        sock = key.fileobj
        if sock is self._wake_r:
            try:
                while self._wake_r.recv(4096):
                    pass
            except OSError:
                pass
            return
        if sock is self._listener:
            self._accept()
            return
        c = key.data
        if not c.open:
            return
        if sock is c.bsock and not c.ready and mask & selectors.EVENT_WRITE:
            err = c.bsock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                self.counts["refused"] += 1  # the broker is not there
                self._close(c)
                return
            c.ready = True
        if mask & selectors.EVENT_READ:
            self._read(c, UP if sock is c.csock else DOWN)

    def _accept(self):
        for _ in range(64):
            try:
                cs, _ = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            cs.setblocking(False)
            c = _Conn(self._next_id, cs)
            self._next_id += 1
            self._conns[c.id] = c
            self.counts["accepted"] += 1
            bs = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            bs.setblocking(False)
            c.bsock = bs
            rc = bs.connect_ex(self.broker)
            if rc not in _IN_PROGRESS:
                self.counts["refused"] += 1
                self._close(c)

    def _read(self, c, d):
        s = c.sides[d]
        src = c.csock if d == UP else c.bsock
        room = min(READ_MAX, max(1, self.buffer_max - s.waiting()))
        try:
            data = src.recv(room)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._close(c)
            return
        if not data:
            s.eof = True
            return
        s.inbuf += data
        now = time.monotonic()
        while c.open:
            try:
                got = remaining_length(s.inbuf)
            except ValueError:
                self.counts["malformed"] += 1
                self._close(c)
                return
            if got is None:
                return
            n, k = got
            if n > PACKET_MAX:
                self.counts["oversize"] += 1
                self._close(c)
                return
            end = 1 + k + n
            if len(s.inbuf) < end:
                return
            pkt = bytes(s.inbuf[:end])
            del s.inbuf[:end]
            self._packet(c, d, pkt, now)

    def _packet(self, c, d, pkt, now):
        kind = pkt[0] >> 4
        self.counts["packets_" + d] += 1
        if d == UP and kind == _CONNECT and c.client is None:
            c.client = client_id(pkt)
        if kind == _PUBLISH:
            try:
                topic, _, _, at = parse_publish(pkt)
                self._records.append(Record(c.id, c.client, d, topic.decode("utf-8", "replace"),
                                            pkt[at:], pkt, now))
            except ValueError:
                pass
        mode, ms = self._mode(c, d)
        s = c.sides[d]
        if mode == BLACKHOLE:
            self.counts["swallowed"] += 1
            return
        if mode == RESET:
            self.counts["resets"] += 1
            self._close(c)
            return
        if kind == _PUBLISH and mode == DUPLICATE:
            self.counts["duplicated"] += 1
            self._emit(s, pkt, now)
            self._emit(s, bytes([pkt[0] | (0x08 if pkt[0] & 0x06 else 0)]) + pkt[1:], now)
            return
        if kind == _PUBLISH and mode == REORDER:
            if s.held is None:
                s.held = (pkt, now)
                return
            self.counts["reordered"] += 1
            self._emit(s, pkt, now)
            self._emit(s, s.held[0], now)
            s.held = None
            return
        if kind == _PUBLISH and mode == CORRUPT:
            try:
                _, _, _, at = parse_publish(pkt)
                pkt = pkt[:at] + corrupt_payload(pkt[at:], self.rng)
                self.counts["corrupted"] += 1
            except ValueError:
                pass
        if mode == DELAY and ms:
            self.counts["delayed"] += 1
            self._emit(s, pkt, now + ms / 1000)
            return
        self._emit(s, pkt, now)

    def _emit(self, s, pkt, due):
        due = max(due, s.last_due)  # never ahead of a packet delayed before it
        s.last_due = due
        s.queue.append([due, pkt])
        s.qbytes += len(pkt)

    def _timers(self, c, now):
        for d in (UP, DOWN):
            s = c.sides[d]
            if s.held is not None and (self._mode(c, d)[0] != REORDER
                                       or now - s.held[1] >= HOLD_MS / 1000):
                pkt = s.held[0]
                s.held = None
                self._emit(s, pkt, now)
            if c.open and s.eof and s.drained() and self._mode(c, d)[0] != BLACKHOLE:
                self._close(c)  # the peer closed and all it sent went on

    def _pump(self, c, d, now):
        """Write what is due on direction *d* until the socket takes no more."""
        if not c.open or (d == UP and not c.ready):
            return
        s = c.sides[d]
        dst = c.bsock if d == UP else c.csock
        while True:
            if not s.out:
                if not s.queue or s.queue[0][0] > now:
                    return
                _, data = s.queue.popleft()
                s.qbytes -= len(data)
                s.out = bytearray(data)
            try:
                n = dst.send(s.out)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self._close(c)
                return
            del s.out[:n]
            if s.out:
                return

    def _close(self, c):
        if not c.open:
            return
        c.open = False
        self.counts["closed"] += 1
        for sock in (c.csock, c.bsock):
            if sock is None:
                continue
            if c.events.get(sock):
                try:
                    self._sel.unregister(sock)
                except (KeyError, ValueError):
                    pass
            try:
                sock.close()
            except OSError:
                pass
        c.events = {}
        self._conns.pop(c.id, None)
