"""The box's connection to an MQTT broker: Wi-Fi kept joined (WifiWatch),
sockets under each poll's time budget, and the MQTT session (connect,
keep-alive, back-off) that tcbox/mqtt_link.py's port runs on.  How no call
blocks the table: docs/mqtt.md, "The box: never blocking".
"""

import errno

from tableclock.protocol import MAX_FRAME
from tableclock.wire import check_id

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

# port states
OFF = 0  # no settings (or a pairing for USB): restart the box
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

    def settimeout(self, timeout):
        if timeout is not None:
            self.t = timeout

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


# ------------------------------------------------------------- session
class MqttSession:
    """The box's MQTT session with the broker: Wi-Fi first (a WifiWatch),
    then connect, subscribe, keep alive, and back off after a failure
    (docs/mqtt.md, "Recovery"); every step within one poll's socket budget.
    Its parameters: MqttPort's."""

    def __init__(self, pool, box_id, event, host, port=1883, user=None, password=None,
                 wifi=None, ticks=None, rand=None):
        self.pool = _Pool(pool, ticks)
        self.box_id = check_id("the box id", box_id)
        self.wifi = wifi
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
        # counters
        self.attempts = 0
        self.connects = 0
        self.failures = 0
        self.refusals = 0
        self.refused = False  # the last failure was a refusal (user, password, ACL)
        self.too_large = 0
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

    def _message(self, client, topic, message):
        """MiniMQTT's on_message (the port takes the frames)."""
