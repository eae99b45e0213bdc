"""The boxes' side of the simulated network: each box's Wi-Fi radio and its counted TCP
sockets to the broker, in place of the stubs' ``wifi.radio`` and ``socketpool.SocketPool``.

tcsim.nightnet's Net installs them and pumps what they buffer; docs/demo.md §3, "Virtual
time, and MQTT in it".
"""

import errno
import socket
from collections import deque
from typing import TYPE_CHECKING, Deque, Dict, List, Optional, Tuple

from .stubs import _world

if TYPE_CHECKING:
    from .nightnet import Net

RX_MAX = 1 << 20  # bytes a box's socket buffers (far more than a step brings)

# MQTT control packet types (the high nibble of the first byte)
CONNECT, CONNACK, PUBLISH, SUBSCRIBE, SUBACK, PINGREQ, PINGRESP = 1, 2, 3, 8, 9, 12, 13
ANSWERS = {CONNECT: CONNACK, SUBSCRIBE: SUBACK, PINGREQ: PINGRESP}

Packet = Tuple[int, int, bytes]  # (type, flags, body)


# ------------------------------------------------------------------ packets
class Packets:
    """Splits a byte stream into MQTT packets: ``feed(data)`` returns the complete ones as
    (type, flags, body) tuples; a partial packet waits for the rest."""

    def __init__(self) -> None:
        self.buf = bytearray()

    def feed(self, data: bytes) -> List[Packet]:
        return [(kind, flags, body) for kind, flags, body, _ in self.feed_raw(data)]

    def feed_raw(self, data: bytes) -> List[Tuple[int, int, bytes, bytes]]:
        """``feed``, each packet with its bytes as they came: (type, flags, body, raw)."""
        self.buf += data
        out = []
        buf = self.buf
        i = 0
        while True:
            if len(buf) - i < 2:
                break
            n = mult = 0
            k = i + 1
            ok = False
            while k < len(buf) and k < i + 5:
                n += (buf[k] & 0x7F) << mult
                mult += 7
                k += 1
                if not buf[k - 1] & 0x80:
                    ok = True
                    break
            if not ok or len(buf) - k < n:
                break
            out.append((buf[i] >> 4, buf[i] & 0x0F, bytes(buf[k:k + n]), bytes(buf[i:k + n])))
            i = k + n
        if i:
            del buf[:i]
        return out


def publish_parts(flags: int, body: bytes) -> Tuple[str, bytes]:
    """(topic, payload) of a PUBLISH packet's *body*."""
    tl = (body[0] << 8) | body[1]
    topic = body[2:2 + tl].decode("utf-8", "replace")
    start = 2 + tl + (2 if (flags >> 1) & 3 else 0)
    return topic, body[start:]


# ------------------------------------------------------------------ Wi-Fi
class Radio:
    """One box's Wi-Fi: ``up`` while its table's access point is there."""

    def __init__(self) -> None:
        self.up = True
        self.joins = 0
        self.refused = 0


def radio_of(world: "_world.World") -> Radio:
    """The Radio of the box whose stub world is *world*."""
    return world.part("nightnet.radio", Radio)


def radio() -> Radio:
    """The current world's (box's) Radio."""
    return radio_of(_world.current())


class RadioProxy:
    """``wifi.radio`` for every box: reads and joins act on the current box's Radio (the
    room makes a box's world current while it steps that box)."""

    power_management = None
    hostname = "tcsim"
    mac_address = b"\x02\x74\x63\x73\x69\x6d"
    enabled = True

    @property
    def connected(self) -> bool:
        return radio().up

    @property
    def ipv4_address(self) -> Optional[str]:
        return "10.7.0.%d" % (1 + len(_world.current().name) % 200) if radio().up else None

    def connect(self, ssid: str, password: Optional[str] = None, *, channel: int = 0,
                bssid: Optional[bytes] = None, timeout: Optional[float] = None) -> None:
        box_radio = radio()
        box_radio.joins += 1
        if not box_radio.up:
            box_radio.refused += 1
            raise ConnectionError("No network")


# ------------------------------------------------------------------ sockets
class BoxConnection:
    """What the pump knows about one box's MQTT connection (its current socket)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sock: Optional[BoxSocket] = None
        self.reset()

    def reset(self) -> None:
        self.rx = bytearray()  # what the box may read (filled by pumps only)
        # with the Wi-Fi's jitter on (Net.jitter): what reached the box's radio but is
        # still on the air, [virtual ms it is readable from, bytes], in order
        self.air: Deque[Tuple[int, bytes]] = deque()
        self.air_due = 0  # the last chunk's due time: a chunk never overtakes another
        self.eof = False
        self.packets_in = Packets()
        self.packets_out = Packets()
        self.answers_due = 0
        self.answers = 0
        self.subscribed = False
        self.frames_due = 0  # hub publishes to this box while it was subscribed
        self.frames = 0
        # payload -> how many of those publishes with it are still on their way: the
        # frames are awaited by what they carry, not counted, because the broker sends
        # frames nobody counts too (retained ones on subscribing, publishes between a
        # reconnect's CONNECT and SUBACK), and a count that runs ahead stops waiting
        self.expected: Dict[bytes, int] = {}

    def expect(self, payload: bytes) -> None:
        """The hub (or make faults) published *payload* to this box: wait for it."""
        self.frames_due += 1
        self.expected[payload] = self.expected.get(payload, 0) + 1

    def arrived(self, payload: bytes) -> None:
        self.frames += 1
        left = self.expected.get(payload)
        if left is not None:
            if left > 1:
                self.expected[payload] = left - 1
            else:
                del self.expected[payload]

    def settled(self) -> bool:
        return self.answers >= self.answers_due and not self.expected


class BoxSocket:
    """A box's TCP socket to the broker, as socketpool's: connect and send go to the
    network at once; reads come from what the pump buffered (never waiting: nothing is on
    its way once a pump is over)."""

    def __init__(self, net: "Net", conn: BoxConnection) -> None:
        self.net = net
        self.conn = conn
        self.tcp: Optional[socket.socket] = None
        self.closed = False
        # with the Wi-Fi's jitter on: what the box sent that is still on the air, [virtual
        # ms it reaches the broker, bytes], in order (lost if the socket closes first)
        self.air: Deque[Tuple[int, bytes]] = deque()
        self.air_due = 0

    def settimeout(self, seconds: Optional[float]) -> None:
        pass  # reads never wait; the budget is the firmware's business (its ticks)

    def setblocking(self, flag: bool) -> None:
        pass

    def setsockopt(self, *args: object) -> None:
        pass

    def connect(self, addr: Tuple[str, int]) -> None:
        conn = self.conn
        if conn.sock is not None:
            conn.sock.close()
        conn.reset()
        conn.sock = self
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.settimeout(1.0)
        try:
            tcp.connect(addr)
        except OSError:
            tcp.close()
            self.closed = True
            raise
        tcp.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        quickack(tcp)
        tcp.setblocking(False)
        self.tcp = tcp
        self.net.open.append(self)

    def send(self, buf: bytes) -> int:
        if self.closed or self.tcp is None:
            raise OSError(errno.ENOTCONN, "not connected")
        data = bytes(buf)
        net = self.net
        if net.jitter is not None:  # on the air for a while (Net.release writes it)
            now = net.now_ms()
            self.air_due = max(self.air_due, now + net.jitter.delay(self.conn.name, "up"))
            self.air.append((self.air_due, data))
            return len(data)
        self.write(data)
        return len(data)

    def release(self, now: int) -> None:
        """Write what the box sent that has been on the air long enough (Net.pump)."""
        air = self.air
        while air and not self.closed and air[0][0] <= now:
            try:
                self.write(air.popleft()[1])
            except OSError:  # the broker went away meanwhile: lost, as on the air
                air.clear()

    def write(self, data: bytes) -> None:
        """*data* to the broker now, its MQTT packets counted (what the pump awaits)."""
        tcp = self.tcp
        if self.closed or tcp is None:
            raise OSError(errno.ENOTCONN, "not connected")
        try:
            n = tcp.send(data)
        except BlockingIOError:
            n = 0
        if n < len(data):  # the kernel's buffer is full (never seen): the rest, waiting
            try:
                tcp.setblocking(True)
                tcp.settimeout(1.0)
                tcp.sendall(data[n:])
            finally:
                tcp.setblocking(False)
        conn = self.conn
        net = self.net
        for kind, flags, body in conn.packets_out.feed(data):
            if kind in ANSWERS:
                conn.answers_due += 1
            elif kind == PUBLISH:
                topic, payload = publish_parts(flags, body)
                if payload and net.hub_alive:
                    net.hub_due += 1
                if topic.endswith("/out") and b'"kind":"event"' in payload[:60]:
                    net.sent_events[conn.name] = payload  # for a replay (make faults)

    def recv_into(self, buf: bytearray, nbytes: int = 0) -> int:
        if self.closed:
            raise OSError(errno.ENOTCONN, "closed")
        conn = self.conn
        n = nbytes or len(buf)
        air = conn.air
        if air:  # what the Wi-Fi has carried by now
            now = self.net.now_ms()
            while air and air[0][0] <= now:
                conn.rx += air.popleft()[1]
        if not conn.rx:
            if conn.eof and not air:
                return 0  # the broker closed the connection
            raise OSError(errno.EAGAIN, "no data")
        k = min(n, len(conn.rx))
        buf[:k] = conn.rx[:k]
        del conn.rx[:k]
        return k

    def drain(self) -> None:
        """Take what the kernel holds for this socket (a pump)."""
        conn = self.conn
        tcp = self.tcp
        while tcp is not None and not self.closed and not conn.eof:
            try:
                data = tcp.recv(65536)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data = b""
            if not data:
                conn.eof = True
                return
            quickack(tcp)
            jitter = self.net.jitter
            if jitter is None and len(conn.rx) + len(data) <= RX_MAX:
                conn.rx += data
            for kind, flags, body, raw in conn.packets_in.feed_raw(data):
                if jitter is not None:  # on the box's air for a while (read by recv_into):
                    # a delay per packet, not per read (how the kernel cut the stream into
                    # reads depends on the machine's load; the packets do not)
                    conn.air_due = max(conn.air_due,
                                       self.net.now_ms() + jitter.delay(conn.name, "down"))
                    conn.air.append((conn.air_due, raw))
                if kind == PUBLISH:
                    conn.arrived(publish_parts(flags, body)[1])
                elif kind in (CONNACK, SUBACK, PINGRESP):
                    conn.answers += 1
                    if kind == SUBACK:
                        conn.subscribed = True

    def fileno(self) -> int:
        return self.tcp.fileno() if self.tcp is not None else -1

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.tcp is not None:
            try:
                self.tcp.close()
            except OSError:
                pass
        if self in self.net.open:
            self.net.open.remove(self)
        if self.conn.sock is self:
            self.conn.reset()
            self.conn.sock = None

    def __enter__(self) -> "BoxSocket":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class BoxSocketPool:
    """socketpool.SocketPool for the boxes: AF_INET, SOCK_STREAM, ``getaddrinfo`` and
    ``socket()`` making :class:`BoxSocket`\\ s of the current box.  The stub's
    ``SocketPool(radio)`` becomes ``BoxSocketPool(net, radio)`` (Net.install)."""

    AF_INET = socket.AF_INET
    SOCK_STREAM = socket.SOCK_STREAM
    IPPROTO_TCP = socket.IPPROTO_TCP
    SOL_SOCKET = socket.SOL_SOCKET

    def __init__(self, net: "Net", radio: object = None) -> None:
        self.net = net

    def getaddrinfo(self, host: str, port: int, family: int = 0, type: int = 0,
                    proto: int = 0, flags: int = 0) -> list:
        return [(self.AF_INET, self.SOCK_STREAM, 0, "", (host, port))]

    def socket(self, family: int = socket.AF_INET, type: int = socket.SOCK_STREAM,
               proto: int = 0) -> BoxSocket:
        return BoxSocket(self.net, self.net.box(_world.current().name))


def quickack(tcp: socket.socket) -> None:
    """Acknowledge at once (Linux's TCP_QUICKACK, which a read turns off again): the
    broker writes a frame in two pieces, and with delayed acks the second one waits 40 ms
    for the first one's ack (Nagle's algorithm on the broker's side)."""
    flag = getattr(socket, "TCP_QUICKACK", None)
    if flag is not None:
        try:
            tcp.setsockopt(socket.IPPROTO_TCP, flag, 1)
        except OSError:
            pass
