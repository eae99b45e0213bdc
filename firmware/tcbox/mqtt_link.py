"""The box's Wi-Fi/MQTT transport (docs/mqtt.md; docs/protocol.md, "MQTT").

``MqttPort`` gives tcbox/link.py's Link the usb_cdc.Serial API over
adafruit_minimqtt, so the outbox, exactly-once, anti-replay and link states
stay in one place; ``MqttLink.poll(now)`` gives the port one time budget
(``BUDGET_MS``) per loop iteration, then runs Link.poll.

    link = mqtt_link.make(table, extra)   # None unless the pairing has Wi-Fi + MQTT settings
    attach(app, link)                     # then tick(app, link, now) after each app.step(now)

How each of MiniMQTT's blocking calls is avoided, and what can still take
longer (the boot's Wi-Fi join, a rejoin, one DNS lookup): docs/mqtt.md "The
box: never blocking".  Pairing stays on USB: a ``pair`` frame from the
network is refused (``refused_pairs``); docs/mqtt.md "Pairing a box for Wi-Fi".
"""

import errno

from tableclock.protocol import BOX_KEYS, MAX_FRAME
from tableclock.wire import check_id, kind_of  # noqa: F401 -- re-exported

from .link import HELLO_SENT, LIVE, Link
from .linkparts import Lines, settings_of, wants_mqtt  # noqa: F401 -- re-exported
from .presses import ticks_diff

MASK = (1 << 29) - 1  # ticks wrap (adafruit_ticks, supervisor.ticks_ms)
BUDGET_MS = 25  # the most a poll spends waiting on sockets
READ_EVERY_MS = 20  # an idle connection is looked at this often (a packet: at once again)
KEEPALIVE_S = 60  # in CONNECT: the broker drops the box after 1.5 x this without a packet
PING_MS = 20000  # PINGREQ when nothing came (or went) for this long
DEAD_MS = 45000  # nothing at all from the broker for this long: reconnect
HANDSHAKE_MS = 5000  # CONNACK and SUBACK must come within this (over several polls)
BACKOFF_MIN_MS = 1000  # connect attempts: 1 s, 2 s, 4 s, then every 6 s (+ jitter):
BACKOFF_MAX_MS = 6000  # back within 10 s of the broker (docs/mqtt.md, "Recovery")
WIFI_FIRST_MS = 10000  # Wi-Fi down this long before the first rejoin (the radio may manage)
WIFI_MAX_MS = 300000  # rejoin attempts 10 s, 20 s ... 5 min apart
WIFI_FORCE_MS = 120000  # down this long: rejoin even during a hand
WIFI_TIMEOUT_S = 5  # one rejoin blocks the loop up to this (the watchdog allows 8 s)
TOPIC_MAX = 128  # bytes of a topic name
IN_MAX = MAX_FRAME + TOPIC_MAX + 4  # an incoming PUBLISH's remaining length, at most
INBOX_MAX = 16  # frames from the broker waiting for Link.read (the oldest dropped)
INBOX_BYTES = 8192
TAP_READ = 256  # bytes read from the USB port per poll (pair frames only)

# port states
OFF = 0  # no settings (or a pairing for USB): restart the box
PAIR_AGAIN = "pair again"  # shown "Wi-Fi: pair again": a pairing from before BOX_KEYS
WIFI = 1  # Wi-Fi down
IDLE = 2  # waiting for the next connect attempt
CONNACK = 3  # CONNECT sent
SUBACK = 4  # SUBSCRIBE sent
UP = 5  # subscribed: frames flow
STATES = ("off", "wifi down", "idle", "connack", "suback", "up")

_PINGREQ = b"\xc0\x00"
_EAGAIN = errno.EAGAIN
_ETIMEDOUT = errno.ETIMEDOUT
_ENOTCONN = errno.ENOTCONN


def real_ticks():
    """A real-time ms clock for the socket budget: supervisor.ticks_ms on a
    board, time.monotonic_ns on CPython (tests pass their own)."""
    try:
        from supervisor import ticks_ms

        return ticks_ms
    except ImportError:
        import time

        def ticks():
            return (time.monotonic_ns() // 1000000) & MASK

        return ticks


def _urandom_byte():
    import os

    return os.urandom(1)[0]


def _again(e):
    """An OSError meaning "nothing now" (EAGAIN/EWOULDBLOCK, a timeout)."""
    n = getattr(e, "errno", None)
    if n is None and e.args and isinstance(e.args[0], int):
        n = e.args[0]
    return n is None or n in (_EAGAIN, _ETIMEDOUT, getattr(errno, "EWOULDBLOCK", _EAGAIN))


def _numeric(host):
    parts = host.split(".")
    return len(parts) == 4 and all(p.isdigit() for p in parts)


# ------------------------------------------------------- socket budget
class _Pool:
    """The socket pool MiniMQTT is given: it wraps the real one (socketpool,
    or CPython's socket module in tests) so that every socket call is capped
    by what is left of the poll's budget (``arm``), the first byte of a
    packet can be looked for without waiting (``probe``, one call; ``nowait``,
    every call), and an IP address is never looked up.  A host name is looked
    up once and kept."""

    def __init__(self, pool, ticks=None):
        self.pool = pool
        self.ticks = ticks or real_ticks()
        self.AF_INET = getattr(pool, "AF_INET", 2)
        self.SOCK_STREAM = getattr(pool, "SOCK_STREAM", 1)
        t = getattr(pool, "timeout", None)
        if t is not None:  # CPython: MiniMQTT catches socket.timeout there
            self.timeout = t
        self.until = 0
        self.probe = False
        self.nowait = False
        self.idle = 0  # looks that found nothing
        self.addrs = {}

    def arm(self, ms=BUDGET_MS):
        self.until = (self.ticks() + ms) & MASK

    def left_ms(self):
        return ticks_diff(self.until, self.ticks())

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):
        key = (host, port)
        a = self.addrs.get(key)
        if a is None:
            if _numeric(host):
                a = [(self.AF_INET, self.SOCK_STREAM, 0, "", (host, port))]
            else:  # blocks: once per boot (docs/mqtt.md: give the broker's IP address)
                a = self.pool.getaddrinfo(host, port, 0, self.SOCK_STREAM)
            self.addrs[key] = a
        return a

    def socket(self, family=2, type=1, proto=0):
        return _Sock(self, self.pool.socket(family, type))

    def nothing(self):
        """The exception MiniMQTT takes for "no packet now"."""
        t = getattr(self, "timeout", None)
        if t is not None:
            return t("no packet")
        return OSError(_EAGAIN, "no packet")


class _Sock:
    """One socket under the pool's budget (see _Pool).  A timeout in the
    middle of a packet, a refused send or a closed peer mark it ``dead``:
    the MQTT stream cannot be resumed, the port reconnects."""

    def __init__(self, pool, sock):
        self.p = pool
        self.s = sock
        self.t = BUDGET_MS / 1000  # float: socket timeout, in seconds
        self.dead = False

    def settimeout(self, t):
        if t is not None:
            self.t = t

    def _arm(self):
        left = self.p.left_ms()
        t = self.t
        if left <= 0:
            t = 0
        elif left < t * 1000:
            t = left / 1000  # float: socket timeout, in seconds
        self.s.settimeout(t)
        return t

    def connect(self, addr):
        if not self._arm():
            raise OSError(_ETIMEDOUT, "no time left in this poll")
        self.s.connect(addr)

    def send(self, buf):
        if self.dead:
            raise OSError(_ENOTCONN, "connection closed")
        self._arm()
        try:
            return self.s.send(buf)
        except OSError as e:
            self.dead = True
            if _again(e):
                raise OSError(_ETIMEDOUT, "send timed out")  # not EAGAIN: MiniMQTT retries that
            raise

    def recv_into(self, buf, nbytes=0):
        if self.dead:
            raise OSError(_ENOTCONN, "connection closed")
        look = self.p.probe or self.p.nowait
        self.p.probe = False
        if look:
            self.s.settimeout(0)
        else:
            self._arm()
        try:
            got = self.s.recv_into(buf, nbytes)
        except OSError as e:
            if not _again(e):
                self.dead = True
                raise
            if look:
                self.p.idle += 1
                raise self.p.nothing()
            self.dead = True  # the rest of a packet did not come in time
            raise OSError(_ETIMEDOUT, "the rest of a packet did not come")
        if got == 0 and (nbytes or len(buf)):
            self.dead = True  # the broker closed the connection
            raise OSError(_ENOTCONN, "closed by the broker")
        return got

    def close(self):
        self.dead = True
        try:
            self.s.close()
        except OSError:
            pass


_CLIENT = None


def client_class():
    """(MiniMQTT's MQTT with the incoming size check, MMQTTException);
    ImportError without adafruit_minimqtt."""
    global _CLIENT
    if _CLIENT is None:
        try:
            from adafruit_minimqtt.adafruit_minimqtt import (  # type: ignore[import-untyped]
                MQTT,
                MMQTTException,
            )
        except ImportError:
            raise ImportError("adafruit_minimqtt is not on the box (circup install -r"
                              " requirements.txt)")

        class Client(MQTT):
            too_large = 0

            def _decode_remaining_length(self):
                n = MQTT._decode_remaining_length(self)
                if n > IN_MAX:  # before the payload is read (or allocated)
                    self.too_large += 1
                    raise MMQTTException("an incoming packet of %d bytes (the limit is %d)"
                                         % (n, IN_MAX))
                return n

        _CLIENT = (Client, MMQTTException)
    return _CLIENT


# ------------------------------------------------------------------ Wi-Fi
class WifiWatch:
    """Keeps the radio (``wifi.radio``, or a fake with ``connected`` and
    ``connect(ssid, password, timeout=)``) on the network.

    ``up(now)`` says whether it is; while it is not, ``poll(now, calm)``
    rejoins: first after ``WIFI_FIRST_MS``, then 10 s doubling to 5 min apart,
    only when *calm* (no hand running) unless Wi-Fi has been down
    ``WIFI_FORCE_MS``.  A rejoin blocks up to ``WIFI_TIMEOUT_S`` seconds."""

    def __init__(self, radio, ssid, password="", timeout_s=WIFI_TIMEOUT_S):
        self.radio = radio
        self.ssid = ssid
        self.password = password or ""
        self.timeout_s = timeout_s
        self.down_since = None
        self.next_at = None
        self.backoff = 0
        self.stale = False  # new settings: join the new network
        self.joins = 0
        self.failures = 0
        self.error = None

    def connected(self):
        try:
            return bool(self.radio.connected)
        except AttributeError:
            return getattr(self.radio, "ipv4_address", None) is not None

    def up(self, now):
        if not self.stale and self.connected():
            self.down_since = None
            self.backoff = 0
            return True
        if self.down_since is None:
            self.down_since = now
            self.next_at = (now + (0 if self.stale else WIFI_FIRST_MS)) & MASK
        return False

    def join(self):
        """One blocking attempt; True when joined."""
        self.joins += 1
        try:
            self.radio.connect(self.ssid, self.password, timeout=self.timeout_s)
        except Exception as e:  # noqa: BLE001 -- ConnectionError, OSError ...: never the loop's end
            self.failures += 1
            self.error = str(e)
            return False
        self.stale = False
        self.error = None
        return self.connected()

    def poll(self, now, calm=True):
        if self.next_at is not None and ticks_diff(now, self.next_at) < 0:
            return
        if not calm and ticks_diff(now, self.down_since) < WIFI_FORCE_MS:
            return
        if self.join():
            return
        wait = WIFI_FIRST_MS << self.backoff
        if wait < WIFI_MAX_MS:
            self.backoff += 1
        else:
            wait = WIFI_MAX_MS
        self.next_at = (now + wait) & MASK


# ------------------------------------------------------------------- port
class MqttPort:
    """The Link's port over MQTT (module notes; topics in docs/mqtt.md).

    :param pool: a socket pool (``socketpool.SocketPool(wifi.radio)``; in
        tests CPython's ``socket`` module or a fake).
    :param box_id: this box's id; also its MQTT client id and, by default,
        its user name.
    :param event: the event's topic name (an id; the key id by default).
    :param wifi: a WifiWatch (or a fake with ``up(now)`` and
        ``poll(now, calm)``); None: the network is always there.
    :param usb: a serial port read for ``pair`` frames only (and given a copy
        of each ``hello``); None: none.
    :param ticks: ms clock for the socket budget (real time; default
        ``real_ticks()``).  :param rand: a byte 0-255 for the back-off jitter.
    """

    def __init__(self, pool, box_id, event, host, port=1883, user=None, password=None,
                 wifi=None, usb=None, ticks=None, rand=None):
        self.pool = _Pool(pool, ticks)
        self.box_id = check_id("the box id", box_id)
        self.wifi = wifi
        self.usb = usb
        self.tap = Lines(1024) if usb is not None else None
        self.rand = rand or _urandom_byte
        self.client = None
        self.state = IDLE
        self.reason = "starting"
        self.configure(event, host, port, user, password)
        self.now = 0
        self.next_at = None  # next connect attempt (None: at once)
        self.backoff = 0
        self.deadline = 0
        self.last_rx = 0
        self.last_tx = 0
        self.ping_at = 0
        self.read_at = None
        self.trusted_until = None  # a pair frame from USB waits for the Link
        self.inbox = []  # frames (bytes, newline-terminated) for read()
        self.inbox_bytes = 0
        self.head_at = 0  # bytes of inbox[0] already read
        self.acc = bytearray()  # a frame being written
        # counters
        self.attempts = 0
        self.connects = 0
        self.failures = 0
        self.refusals = 0
        self.refused = False  # the last failure was a refusal (user, password, ACL)
        self.dropped = 0
        self.too_large = 0
        self.refused_pairs = 0
        self.published = 0
        self.received = 0
        self.pings = 0

    def configure(self, event, host, port=1883, user=None, password=None):
        """Broker and topics (new settings: the connection starts again)."""
        if not host or not isinstance(host, str):
            raise ValueError("the MQTT broker's host is missing")
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise ValueError("the MQTT port must be a number from 1 to 65535")
        self.event = check_id("the MQTT event", event)
        self.host = host
        self.port = port
        self.user = user or self.box_id
        self.password = password or ""
        base = "tc/%s/box/%s/" % (self.event, self.box_id)
        self.t_in = base + "in"
        self.t_out = base + "out"
        self.t_status = base + "status"
        self.t_presence = base + "presence"
        if self.client is not None:
            self._close()
            self.client = None  # a new client: new user, password and last will
        if self.state == OFF:
            self.state = IDLE
        self.next_at = None

    def off(self, reason):
        """Stop for good (until ``configure``): *reason* is shown."""
        self._close()
        self.state = OFF
        self.reason = reason

    # -- the Link's port API ----------------------------------------------
    @property
    def connected(self):
        if self.state == UP:
            return True
        t = self.trusted_until
        return t is not None and ticks_diff(t, self.now) > 0

    @property
    def in_waiting(self):
        return self.inbox_bytes - self.head_at

    def read(self, n=1):
        """Up to *n* bytes of the oldest frame waiting."""
        if not self.inbox:
            return b""
        head = self.inbox[0]
        k = len(head) - self.head_at
        if n < k:
            k = n
        data = head[self.head_at:self.head_at + k]
        self.head_at += k
        if self.head_at >= len(head):
            self.inbox.pop(0)
            self.inbox_bytes -= len(head)
            self.head_at = 0
        return data

    def write(self, buf):
        """Takes *buf* whole while connected (0 bytes otherwise); each
        complete line is published on its kind's topic at once."""
        if not self.connected:
            return 0
        n = len(buf)
        self.acc.extend(buf)
        while True:
            i = self.acc.find(b"\n")
            if i < 0:
                break
            line = bytes(self.acc[:i + 1])
            self.acc = self.acc[i + 1:]
            if i:
                self._publish(line)
        if len(self.acc) > MAX_FRAME:
            self.acc = bytearray()  # cannot be a frame
        return n

    # -- the loop -------------------------------------------------------
    def poll(self, now, calm=True):
        """One slice of network work at *now* (box ticks, ms): arms the
        poll's socket budget, then ``service``.  *calm*: no hand is running
        (a Wi-Fi rejoin may block)."""
        self.pool.arm()
        self.service(now, calm)

    def service(self, now, calm=True):
        """Wi-Fi, one connect step or one packet read, the keep-alive;
        within the budget armed by ``poll``."""
        self.now = now
        if self.tap is not None:
            self._tap(now)
        if self.state == OFF:
            return
        w = self.wifi
        if w is not None and not w.up(now):
            if self.state != WIFI:
                self._close()
                self.state = WIFI
                self.reason = "no Wi-Fi"
            w.poll(now, calm)
            return
        if self.state == WIFI:
            self.state = IDLE
            self.next_at = None  # Wi-Fi is back: try at once
        if self.state == IDLE:
            if self.next_at is None or ticks_diff(now, self.next_at) >= 0:
                self._begin(now)
            return
        if self.state != UP:  # CONNACK or SUBACK
            if ticks_diff(now, self.deadline) >= 0:
                self._fail(now, "no answer from the broker")
            else:
                self._slice(now)
            return
        if self.read_at is None or ticks_diff(now, self.read_at) >= 0:
            self._slice(now)
        if self.state != UP:
            return
        if ticks_diff(now, self.last_rx) >= DEAD_MS:
            self._fail(now, "the broker went silent")
        elif ticks_diff(now, self.ping_at) >= PING_MS and (
                ticks_diff(now, self.last_rx) >= PING_MS
                or ticks_diff(now, self.last_tx) >= KEEPALIVE_S * 500):
            self.ping_at = now
            self.pings += 1
            try:
                self.client._send_bytes(_PINGREQ)  # no wait: the PINGRESP comes as a packet
                self.last_tx = now
            except OSError:
                self._fail(now, "the connection broke")

    def _begin(self, now):
        """One connect attempt: TCP connect and CONNECT, and the CONNACK
        if it is there at once."""
        self.attempts += 1
        try:
            cls, err = client_class()
        except ImportError:
            self.off("adafruit_minimqtt is missing")
            return
        c = self.client
        if c is None:
            c = cls(broker=self.host, port=self.port, username=self.user,
                    password=self.password, client_id=self.box_id, is_ssl=False,
                    keep_alive=KEEPALIVE_S, recv_timeout=1, socket_pool=self.pool,
                    ssl_context=None, use_binary_mode=True,
                    socket_timeout=BUDGET_MS / 1000,  # float: seconds for MiniMQTT
                    connect_retries=1)
            c.on_message = self._message
            c.will_set(self.t_presence, b"", True, 0)  # retained, empty: clears the presence
            self.client = c
        idle = self.pool.idle
        ok = self._handshake(c, err, now, c._connect, True)
        if ok is None:
            return
        if ok:
            self._subscribe(now)
        elif self.pool.idle > idle:
            self.state = CONNACK
            self.deadline = (now + HANDSHAKE_MS) & MASK
        else:
            self._fail(now, "the broker did not answer")

    def _handshake(self, c, err, now, call, arg):
        """*call(arg)* with MiniMQTT's own waits cut to one look: True when
        done, False when its answer has not come yet, None after a failure
        (handled)."""
        c._recv_timeout = -1  # its wait loops stop after the first look
        self.pool.nowait = True
        try:
            call(arg)
            return True
        except err as e:
            code = getattr(e, "code", None)
            if code is not None:
                self._fail(now, "the broker refused the box (code %d)" % code, True)
                return None
            s = c._sock
            if s is None or s.dead:
                self._fail(now, "the connection broke")
                return None
            return False
        except (OSError, MemoryError, RuntimeError) as e:
            self._fail(now, "no broker (%s)" % e)
            return None
        finally:
            c._recv_timeout = 1
            self.pool.nowait = False

    def _subscribe(self, now):
        c = self.client
        _, err = client_class()
        idle = self.pool.idle
        ok = self._handshake(c, err, now, c.subscribe, self.t_in)
        if ok is None:
            return
        if ok:
            self._up(now)
        elif self.pool.idle > idle:
            self.state = SUBACK
            self.deadline = (now + HANDSHAKE_MS) & MASK
        else:
            self._fail(now, "the broker refused the subscription", True)

    def _slice(self, now):
        """At most one packet: a PUBLISH (into the inbox), a PINGRESP, or the
        CONNACK/SUBACK the handshake waits for."""
        c = self.client
        _, err = client_class()
        self.pool.probe = True
        try:
            op = c._wait_for_msg()
            if op is None:
                self.read_at = (now + READ_EVERY_MS) & MASK
                return
            self.read_at = None  # more may be waiting
            self.last_rx = now
            if op == 0x20:  # CONNACK
                rc = c._sock_exact_recv(3)
                if rc[2]:
                    self._fail(now, "the broker refused the box (code %d)" % rc[2], True)
                    return
                c._is_connected = True
                self._subscribe(now)
            elif op == 0x90:  # SUBACK
                body = c._sock_exact_recv(c._decode_remaining_length())
                for i in range(2, len(body)):
                    if body[i] == 0x80:
                        self._fail(now, "the broker refused the subscription", True)
                        return
                if self.state == SUBACK:
                    self._up(now)
            elif op not in (0x30, 0xD0):  # any other answer: read past it
                n = c._decode_remaining_length()
                if n:
                    c._sock_exact_recv(n)
        except err as e:
            if c.too_large:  # the size check refused a packet
                self.too_large += c.too_large
                c.too_large = 0
            self._fail(now, "MQTT error (%s)" % e)
        except (OSError, MemoryError, RuntimeError, AssertionError, ValueError) as e:
            self._fail(now, "the connection broke (%s)" % e)
        finally:
            self.pool.probe = False

    def _up(self, now):
        self.state = UP
        self.reason = ""
        self.refused = False
        self.connects += 1
        self.backoff = 0
        self.last_rx = self.last_tx = self.ping_at = now
        self.read_at = None

    def _close(self):
        c = self.client
        if c is not None:
            try:
                c._close_socket()
            except (OSError, RuntimeError):
                c._sock = None
            c._is_connected = False
        if self.state != OFF:
            self.state = IDLE
        self.acc = bytearray()
        self.inbox = []
        self.inbox_bytes = 0
        self.head_at = 0

    def _fail(self, now, reason, refused=False):
        """Close and wait before the next attempt (1 s, 2 s, 4 s, then 6 s; up
        to 25 % more at random)."""
        self._close()
        self.failures += 1
        self.refused = refused
        if refused:
            self.refusals += 1
        self.reason = reason
        wait = BACKOFF_MIN_MS << self.backoff
        if wait < BACKOFF_MAX_MS:
            self.backoff += 1
        else:
            wait = BACKOFF_MAX_MS
        wait += wait * (self.rand() & 0xFF) // 1024
        self.next_at = (now + wait) & MASK

    # -- frames ---------------------------------------------------------
    def _message(self, client, topic, message):
        """MiniMQTT's on_message: a frame for the Link (bounded inbox)."""
        if topic != self.t_in or not message:
            return
        self.received += 1
        if len(message) > MAX_FRAME:
            self.too_large += 1
            return
        if message.find(b'"kind":"pair"', 0, 48) >= 0:
            self.refused_pairs += 1  # pairing only over USB (docs/protocol.md)
            return
        data = bytes(message)
        if data[-1:] != b"\n":
            data += b"\n"
        self._queue(data)

    def _queue(self, data):
        while self.inbox and (len(self.inbox) >= INBOX_MAX
                              or self.inbox_bytes + len(data) > INBOX_BYTES):
            gone = self.inbox.pop(0)
            self.inbox_bytes -= len(gone)
            self.head_at = 0
            self.dropped += 1
        self.inbox.append(data)
        self.inbox_bytes += len(data)

    def _publish(self, frame):
        """One whole frame (with its newline) to its kind's topic: QoS 0."""
        kind = kind_of(frame)
        if kind == b"hello" and self.usb is not None:
            self._mirror(frame)
        if self.state != UP:
            return
        c = self.client
        try:
            if kind == b"status":
                c.publish(self.t_status, frame, True, 0)
            else:
                c.publish(self.t_out, frame, False, 0)
                if kind == b"hello":
                    c.publish(self.t_presence, frame, True, 0)
            self.published += 1
            self.last_tx = self.now
        except Exception as e:  # noqa: BLE001 -- MMQTTException, OSError ...: reconnect
            self._fail(self.now, "publishing failed (%s)" % e)

    def _mirror(self, frame):
        u = self.usb
        if not getattr(u, "connected", True):
            return
        try:
            u.write(frame)
        except OSError:
            pass

    def _tap(self, now):
        """A ``pair`` frame on the USB port goes to the Link (trusted)."""
        u = self.usb
        try:
            n = min(u.in_waiting, TAP_READ, self.tap.room())
            if n > 0:
                data = u.read(n)
                if data:
                    self.tap.feed(data)
        except OSError:
            return
        line = self.tap.line()
        if line and line[:6] == b'{"v":"' and line.find(b'"kind":"pair"', 0, 48) > 0:
            self._queue(line + b"\n")
            self.trusted_until = (now + 2000) & MASK

    def counters(self):
        return {"mqtt": STATES[self.state], "mqtt_reason": self.reason,
                "mqtt_attempts": self.attempts, "mqtt_connects": self.connects,
                "mqtt_failures": self.failures, "mqtt_refusals": self.refusals,
                "mqtt_dropped": self.dropped, "mqtt_too_large": self.too_large,
                "mqtt_refused_pairs": self.refused_pairs, "mqtt_published": self.published,
                "mqtt_received": self.received, "mqtt_pings": self.pings}


# ------------------------------------------------------------------- link
class MqttLink(Link):
    """tcbox.link.Link on an MqttPort: ``poll`` services the port first (one
    budget for the whole iteration), a new pairing from USB re-points the
    port, and the screen's link line names Wi-Fi and MQTT."""

    def __init__(self, port, box_id, table=None, key=None, key_id=None, **kw):
        Link.__init__(self, port, box_id, table, key, key_id, **kw)
        self.seen_pairing = None
        self.seen_connects = 0

    def restore(self, extra):
        Link.restore(self, extra)
        self.seen_pairing = self.pairing

    def poll(self, now):
        port = self.port
        t = self.table
        port.poll(now, t is None or getattr(t, "hand", None) is None)
        if port.connects != self.seen_connects:  # a new connection: hellos at once again
            self.seen_connects = port.connects
            if self.state == HELLO_SENT:
                self.hello_at = now
                self.hello_tries = 0
        Link.poll(self, now)
        if self.pairing is not self.seen_pairing:  # paired again over USB
            self.seen_pairing = self.pairing
            self.apply(self.pairing)

    def apply(self, pairing):
        """The Wi-Fi/MQTT settings of a new *pairing* (a pairing without
        them: the box must restart to use USB)."""
        s, event = settings_of(pairing)
        port = self.port
        if not wants_mqtt(s):
            port.off("restart for USB")
            return
        if self.pair_again(pairing):
            return
        try:
            port.configure(event, s["mqtt_host"], s.get("mqtt_port", 1883),
                           s.get("mqtt_user"), s.get("mqtt_password"))
        except ValueError as e:
            port.off(str(e))
            return
        w = port.wifi
        if w is not None and (w.ssid != s["wifi_ssid"] or w.password != s.get("wifi_password", "")):
            w.ssid = s["wifi_ssid"]
            w.password = s.get("wifi_password", "")
            w.stale = True

    def pair_again(self, pairing):
        """True (and the port off, saying so) for a Wi-Fi pairing made before
        each box had its own key (protocol.BOX_KEYS): the broker and the host
        know this box only by its own key and login now."""
        if isinstance(pairing, dict) and pairing.get("keys") == BOX_KEYS:
            return False
        self.port.off(PAIR_AGAIN)
        print("Wi-Fi link: this box was paired before each box had its own key;"
              " pair it again (tdhost pair, docs/mqtt.md)")
        return True

    def info_text(self):
        port = self.port
        if port.state == OFF:
            text = "Wi-Fi: " + port.reason
        elif port.state == WIFI:
            text = "Wi-Fi: no network"
        elif port.state != UP:
            text = "MQTT: refused" if port.refused else "MQTT: no broker"
        elif self.state == LIVE:
            text = "Wi-Fi ok"
        else:
            text = "Wi-Fi: waiting"
        if self.outbox:
            text += " (%d unsent)" % len(self.outbox)
        return text

    def counters(self):
        d = Link.counters(self)
        d.update(self.port.counters())
        return d


# ------------------------------------------------------------------ make
# settings_of and wants_mqtt live in linkparts (hardware.build asks them before
# importing this module, so a USB box never loads it)
def make(table, extra=None, settings=None):
    """The box's MqttLink, restored from the record's *extra*, when the
    pairing's *settings* (default: those in *extra*) name Wi-Fi and a broker;
    else None (tcbox/hardware.py then uses USB).  Joins Wi-Fi once if the
    radio is not on it yet (blocking: at boot, before the watchdog)."""
    event = None
    if settings is None:
        settings, event = settings_of(extra.get("p") if isinstance(extra, dict) else None)
    elif isinstance(extra, dict):
        event = settings_of(extra.get("p"))[1]
    if not wants_mqtt(settings):
        return None
    event = settings.get("mqtt_event") or event
    try:
        import socketpool
        import wifi

        client_class()
    except ImportError as e:
        print("Wi-Fi link unavailable:", e)
        return None
    from .usb_link import box_id, port

    radio = wifi.radio
    try:  # the station answers at once instead of at the next beacon
        radio.power_management = wifi.PowerManagement.NONE
    except (AttributeError, NotImplementedError, ValueError):
        pass
    watch = WifiWatch(radio, settings["wifi_ssid"], settings.get("wifi_password", ""))
    if not watch.connected():
        watch.join()
    bid = box_id()
    try:
        mp = MqttPort(socketpool.SocketPool(radio), bid, event, settings["mqtt_host"],
                      settings.get("mqtt_port", 1883), settings.get("mqtt_user"),
                      settings.get("mqtt_password"), wifi=watch, usb=port())
    except ValueError as e:
        print("Wi-Fi link not started:", e)
        return None
    link = MqttLink(mp, bid, table)
    link.restore(extra)
    link.pair_again(link.pairing)
    return link
