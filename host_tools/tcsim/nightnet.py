"""Wi-Fi and MQTT for a simulated room, step by step in virtual time (docs/demo.md,
"MQTT in virtual time"; docs/mqtt.md for the link itself).

    net = Net(broker)                   # tdhost.links.broker.start_embedded(): a real amqtt broker
    net.install()                       # the stubs' wifi.radio and socketpool.SocketPool
    box = room.add_box(3, key=KEY, key_id=KID, setup=None, transport=net.transport(),
                       pairing_settings=...)   # see night.add_mqtt_box: the pairing names it
    hub = MqttHub(broker.url, KID, KEY, KID, store, on_link=..., clock=room.clock)
    net.watch_hub(hub)                  # counts what the hub gets and publishes
    room.step()                         # every transport's sync() is net.pump()

**The boxes' side is the firmware's own** (tcbox.mqtt_link: MqttPort over adafruit_minimqtt,
MqttLink, WifiWatch), built by ``tcbox.hardware.build()`` from the pairing's Wi-Fi/MQTT
settings.  What the simulator's stubs lack is given here:

- ``wifi.radio`` becomes a :class:`RadioProxy`: each box (each stub world) has its own
  :class:`Radio`, up or down (:meth:`Net.wifi_down` / :meth:`Net.wifi_up`: a table's Wi-Fi
  drops; the box's WifiWatch sees it, closes its connection and rejoins on its own
  schedule: 10 s, 20 s ... 5 min apart);
- ``socketpool.SocketPool`` makes :class:`Socket`\\ s: real TCP connections to the broker,
  with every byte counted.

**Why a pump.**  The broker and paho's network thread run in real time, the room in
virtual time.  If frames were delivered whenever the threads got round to it, the same seed
would not give the same night.  So a room step delivers everything sent during it before
the next step: after the boxes step, and again after the host polls, ``pump()`` waits
(really, in wall time; at most ``WAIT_S``) until

- every PUBLISH a box sent has reached the hub (counted in paho's ``on_message``), and
  every CONNECT, SUBSCRIBE and PINGREQ its CONNACK, SUBACK or PINGRESP;
- every frame the hub published to a box's ``in`` topic while that box was subscribed has
  reached the box's socket (counted as it arrives).

With a room and ``every`` > 1 (the host polls every ``every``-th step) the pumps happen in
those steps only: frames sent in between wait for the next one, as if the network were that
much slower, and one wait covers them all.  A box reads only what a pump let in (its socket
reads from a buffer the pump fills, never from the network directly), so what it sees after
each step is the same on every run.  The
hub's queue is put in a fixed order before the host polls (:meth:`Net.order_hub`: by box,
then by each box's own frame order), so links are made and events applied in the same
order too.  A pump that gives up (``late``) breaks that promise for the frames it waited
for; the demo prints the count.

Nothing here blocks a box's loop in *virtual* time: a pump happens between steps.
"""

import errno
import re
import select
import socket
from time import perf_counter

from .stubs import _world

WAIT_S = 3.0  # the longest a pump waits for frames on their way (wall seconds)
RECONNECT_S = 15.0  # the longest a broker restart waits for the hub to come back
SLICE_S = 0.0005  # a pump looks again this often
RX_MAX = 1 << 20  # bytes a box's socket buffers (far more than a step brings)
_SEQ = re.compile(rb'"boot":(\d+)')
_SEQ2 = re.compile(rb'"seq":(\d+)')

# MQTT control packet types (the high nibble of the first byte)
CONNECT, CONNACK, PUBLISH, SUBSCRIBE, SUBACK, PINGREQ, PINGRESP = 1, 2, 3, 8, 9, 12, 13
ANSWERS = {CONNECT: CONNACK, SUBSCRIBE: SUBACK, PINGREQ: PINGRESP}


# ------------------------------------------------------------------ packets
class Packets:
    """Splits a byte stream into MQTT packets: ``feed(data)`` returns the complete ones as
    (type, flags, body) tuples; a partial packet waits for the rest."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data):
        self.buf += data
        out = []
        b = self.buf
        i = 0
        while True:
            if len(b) - i < 2:
                break
            n = mult = 0
            k = i + 1
            ok = False
            while k < len(b) and k < i + 5:
                n += (b[k] & 0x7F) << mult
                mult += 7
                k += 1
                if not b[k - 1] & 0x80:
                    ok = True
                    break
            if not ok or len(b) - k < n:
                break
            out.append((b[i] >> 4, b[i] & 0x0F, bytes(b[k:k + n])))
            i = k + n
        if i:
            del b[:i]
        return out


def publish_parts(flags, body):
    """(topic, payload) of a PUBLISH packet's *body*."""
    tl = (body[0] << 8) | body[1]
    topic = body[2:2 + tl].decode("utf-8", "replace")
    start = 2 + tl + (2 if (flags >> 1) & 3 else 0)
    return topic, body[start:]


# ------------------------------------------------------------------ Wi-Fi
class Radio:
    """One box's Wi-Fi: ``up`` while its table's access point is there."""

    def __init__(self):
        self.up = True
        self.joins = 0
        self.refused = 0


def radio():
    """The current world's (box's) Radio."""
    return _world.current().part("nightnet.radio", Radio)


class RadioProxy:
    """``wifi.radio`` for every box: reads and joins act on the current box's Radio (the
    room makes a box's world current while it steps that box)."""

    power_management = None
    hostname = "tcsim"
    mac_address = b"\x02\x74\x63\x73\x69\x6d"
    enabled = True

    @property
    def connected(self):
        return radio().up

    @property
    def ipv4_address(self):
        return "10.7.0.%d" % (1 + len(_world.current().name) % 200) if radio().up else None

    def connect(self, ssid, password=None, *, channel=0, bssid=None, timeout=None):
        r = radio()
        r.joins += 1
        if not r.up:
            r.refused += 1
            raise ConnectionError("No network")


# ------------------------------------------------------------------ sockets
class BoxNet:
    """What the pump knows about one box's MQTT connection (its current socket)."""

    def __init__(self, name):
        self.name = name
        self.sock = None
        self.reset()

    def reset(self):
        self.rx = bytearray()  # what the box may read (filled by pumps only)
        self.eof = False
        self.packets_in = Packets()
        self.packets_out = Packets()
        self.answers_due = 0
        self.answers = 0
        self.subscribed = False
        self.frames_due = 0  # hub publishes to this box while it was subscribed
        self.frames = 0

    def settled(self):
        return self.answers >= self.answers_due and self.frames >= self.frames_due


class Socket:
    """A box's TCP socket to the broker, as socketpool's: connect and send go to the
    network at once; reads come from what the pump buffered (never waiting: nothing is on
    its way once a pump is over)."""

    def __init__(self, net, box):
        self.net = net
        self.box = box
        self.s = None
        self.closed = False

    def settimeout(self, t):
        pass  # reads never wait; the budget is the firmware's business (its ticks)

    def setblocking(self, flag):
        pass

    def setsockopt(self, *args):
        pass

    def connect(self, addr):
        box = self.box
        if box.sock is not None:
            box.sock.close()
        box.reset()
        box.sock = self
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(1.0)
        try:
            s.connect(addr)
        except OSError:
            s.close()
            self.closed = True
            raise
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _quickack(s)
        s.setblocking(False)
        self.s = s
        self.net.open.append(self)

    def send(self, buf):
        if self.closed or self.s is None:
            raise OSError(errno.ENOTCONN, "not connected")
        data = bytes(buf)
        try:
            n = self.s.send(data)
        except BlockingIOError:
            n = 0
        if n < len(data):  # the kernel's buffer is full (never seen): the rest, waiting
            try:
                self.s.setblocking(True)
                self.s.settimeout(1.0)
                self.s.sendall(data[n:])
            finally:
                self.s.setblocking(False)
        box = self.box
        net = self.net
        for kind, flags, body in box.packets_out.feed(data):
            if kind in ANSWERS:
                box.answers_due += 1
            elif kind == PUBLISH:
                topic, payload = publish_parts(flags, body)
                if payload and net.hub_alive:
                    net.hub_due += 1
                if topic.endswith("/out") and b'"kind":"event"' in payload[:60]:
                    net.sent_events[box.name] = payload  # for a replay (make faults)
        return len(data)

    def recv_into(self, buf, nbytes=0):
        if self.closed:
            raise OSError(errno.ENOTCONN, "closed")
        box = self.box
        n = nbytes or len(buf)
        if not box.rx:
            if box.eof:
                return 0  # the broker closed the connection
            raise OSError(errno.EAGAIN, "no data")
        k = min(n, len(box.rx))
        buf[:k] = box.rx[:k]
        del box.rx[:k]
        return k

    def drain(self):
        """Take what the kernel holds for this socket (a pump)."""
        box = self.box
        while not self.closed and not box.eof:
            try:
                data = self.s.recv(65536)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data = b""
            if not data:
                box.eof = True
                return
            _quickack(self.s)
            if len(box.rx) + len(data) <= RX_MAX:
                box.rx += data
            for kind, _flags, _body in box.packets_in.feed(data):
                if kind == PUBLISH:
                    box.frames += 1
                elif kind in (CONNACK, SUBACK, PINGRESP):
                    box.answers += 1
                    if kind == SUBACK:
                        box.subscribed = True

    def fileno(self):
        return self.s.fileno() if self.s is not None else -1

    def close(self):
        if self.closed:
            return
        self.closed = True
        if self.s is not None:
            try:
                self.s.close()
            except OSError:
                pass
        if self in self.net.open:
            self.net.open.remove(self)
        if self.box.sock is self:
            self.box.reset()
            self.box.sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Pool:
    """socketpool.SocketPool for the boxes: AF_INET, SOCK_STREAM, ``getaddrinfo`` and
    ``socket()`` making :class:`Socket`\\ s of the current box."""

    AF_INET = socket.AF_INET
    SOCK_STREAM = socket.SOCK_STREAM
    IPPROTO_TCP = socket.IPPROTO_TCP
    SOL_SOCKET = socket.SOL_SOCKET

    def __init__(self, net):
        self.net = net

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):
        return [(self.AF_INET, self.SOCK_STREAM, 0, "", (host, port))]

    def socket(self, family=socket.AF_INET, type=socket.SOCK_STREAM, proto=0):
        return Socket(self.net, self.net.box(_world.current().name))


# ------------------------------------------------------------------ transport
class NullPort:
    """The USB data port of a box that talks over Wi-Fi: nothing is plugged in."""

    connected = False
    timeout = 0
    write_timeout = None
    in_waiting = 0

    def read(self, n=1):
        return b""

    def write(self, buf):
        return 0


class MqttTransport:
    """tcsim.room's transport object for a box on Wi-Fi: ``box_port`` is a USB port with
    nothing plugged in (the firmware builds its MqttLink from the pairing instead),
    ``host_port`` None (the hub makes the host's side), ``sync()`` the net's pump,
    ``cut()``: the power goes off (its TCP connection dies with it)."""

    host_port = None

    def __init__(self, net, name):
        self.net = net
        self.name = name
        self.box_port = NullPort()

    def sync(self):
        net = self.net
        if net.room is not None and net.room.steps % net.every:
            return True  # not a step the host polls in: frames wait for the next one
        return net.pump()

    def cut(self):
        b = self.net.boxes.get(self.name)
        if b is not None and b.sock is not None:
            b.sock.close()

    def mend(self):
        pass

    def close(self):
        self.cut()


# ------------------------------------------------------------------ the net
class Net:
    """The room's Wi-Fi and its MQTT broker (module notes).

    :param broker: a running tdhost.links.broker broker (``.host``, ``.port``, ``stop()``).
    :param restart: a function that starts the broker again on the same port (a new
        handle), for :meth:`restart_broker`.
    """

    def __init__(self, broker, restart=None):
        self.broker = broker
        self.restarter = restart
        self.host = "127.0.0.1"
        self.port = broker.port
        self.boxes = {}
        self.open = []
        self.room = None  # the room: pumps only in the steps the host polls in (``every``)
        self.every = 1
        self.hub = None
        self.hub_alive = False  # a hub is connected: the broker passes the boxes' frames on
        self.event = None
        self.attacker = None  # a paho client of make faults' (garbage, forgeries, replays)
        self.sent_events = {}  # box -> the last event frame it published
        self.sent_in = {}  # box -> the last frame the hub published to it
        self.hub_due = 0  # PUBLISHes with a payload the boxes sent
        self.hub_got = 0  # ... that reached the hub
        self.subacks = 0
        self.late = 0  # pumps that gave up
        self.broker_errors = []  # what amqtt failed on (see _amqtt_error)
        self.pumps = 0
        self.waits = 0  # pumps that had to wait
        self.wait_s = 0.0
        self._saved = None

    def box(self, name):
        b = self.boxes.get(name)
        if b is None:
            b = self.boxes[name] = BoxNet(name)
        return b

    def transport(self, name):
        self.box(name)
        return MqttTransport(self, name)

    def settings(self, ssid="lppl-room"):
        """The pairing's Wi-Fi/MQTT settings for a box on this net (docs/mqtt.md)."""
        return {"wifi_ssid": ssid, "wifi_password": "demo-night", "mqtt_host": self.host,
                "mqtt_port": self.port}

    # -- the stubs -------------------------------------------------------
    def install(self):
        """Give the simulator's ``wifi`` and ``socketpool`` stubs this net (and count, rather
        than print, the amqtt errors asyncio reports: ``broker_errors``)."""
        import logging

        import socketpool
        import wifi

        logging.getLogger("asyncio").addFilter(self._amqtt_error)

        self._saved = (wifi.radio, socketpool.SocketPool)
        wifi.radio = RadioProxy()
        net = self

        class SocketPool(Pool):
            def __init__(self, radio=None):
                Pool.__init__(self, net)

        socketpool.SocketPool = SocketPool

    def _amqtt_error(self, record):
        """amqtt 0.12.1 sometimes fails a client's CONNECT while others reconnect after a
        restart ("dictionary changed size during iteration" in _handle_client_session): the
        client connects again later.  Noted in ``broker_errors``, not printed."""
        exc = record.exc_info[1] if record.exc_info else None
        tb = exc.__traceback__ if exc is not None else None
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None and "amqtt" in tb.tb_frame.f_code.co_filename:
            self.broker_errors.append("%s: %s" % (type(exc).__name__, exc))
            return False
        if exc is None and "amqtt" in record.getMessage():  # the killed broker's tasks
            return False
        return True

    def uninstall(self):
        import logging

        logging.getLogger("asyncio").removeFilter(self._amqtt_error)
        if self._saved is not None:
            import socketpool
            import wifi

            wifi.radio, socketpool.SocketPool = self._saved
            self._saved = None

    # -- Wi-Fi -------------------------------------------------------------
    def radio_of(self, world):
        return world.part("nightnet.radio", Radio)

    def wifi_down(self, world):
        """The access point of that box's table goes away."""
        self.radio_of(world).up = False

    def wifi_up(self, world):
        self.radio_of(world).up = True

    # -- the hub -----------------------------------------------------------
    def watch_hub(self, hub):
        """Count what *hub* (tdhost.links.mqtt.MqttHub) gets from the boxes and publishes to
        them (wrapping paho's callbacks and ``publish``)."""
        self.hub = hub
        self.event = hub.event
        prefix = "tc/%s/box/" % hub.event
        c = hub.client
        on_message = hub._on_message
        net = self

        def counted(client, userdata, msg):
            on_message(client, userdata, msg)
            if msg.payload and not msg.retain and msg.topic.startswith(prefix):
                net.hub_got += 1

        def subscribed(client, userdata, mid, reason_codes, properties=None):
            net.subacks += 1
            net.hub_alive = True  # from now on the broker passes the boxes' frames on

        on_connect = hub._on_connect

        def connected(client, userdata, flags, reason_code, properties=None):
            sock = client.socket()  # frames one by one, not held back by Nagle's algorithm
            if sock is not None:
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except (OSError, AttributeError):
                    pass
            on_connect(client, userdata, flags, reason_code, properties)

        c.on_connect = connected
        c.on_message = counted
        c.on_subscribe = subscribed
        publish = c.publish

        def counting(topic, payload=None, qos=0, retain=False, properties=None):
            info = publish(topic, payload, qos=qos, retain=retain)
            if topic.startswith(prefix) and topic.endswith("/in"):
                name = topic[len(prefix):-3]
                b = net.boxes.get(name)
                if b is not None and b.subscribed and b.sock is not None:
                    b.frames_due += 1
                if payload and b'"kind":"instruction"' in payload[:60]:
                    net.sent_in[name] = payload
            return info

        c.publish = counting
        self.hub_alive = False

    def kill_hub(self):
        """The host process dies (kill -9): paho's thread stops, its connection drops
        without a DISCONNECT; what the broker would have passed on to it is lost."""
        hub, self.hub = self.hub, None
        self.hub_alive = False
        if hub is None:
            return
        hub.client.loop_stop()
        sock = hub.client.socket()
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass
        self.forgive()

    def inject(self, topic, payload):
        """Publish *payload* on *topic* as a stranger on the network would (QoS 0), and
        wait until it is where the broker takes it (counted like the boxes' frames)."""
        if self.attacker is None:
            import paho.mqtt.client as mqtt
            from paho.mqtt.enums import CallbackAPIVersion

            a = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="stranger")
            a.connect(self.host, self.port, 30)
            a.loop_start()
            end = perf_counter() + 5
            while not a.is_connected() and perf_counter() < end:
                select.select([], [], [], 0.005)
            sock = a.socket()
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.attacker = a
        prefix = "tc/%s/box/" % self.event
        if topic.startswith(prefix) and topic.endswith("/in"):
            b = self.boxes.get(topic[len(prefix):-3])
            if b is not None and b.subscribed and b.sock is not None:
                b.frames_due += 1
        elif topic.startswith(prefix) and payload and self.hub_alive:
            self.hub_due += 1
        self.attacker.publish(topic, payload, qos=0)
        return self.pump()

    def order_hub(self):
        """Put the hub's queue in a fixed order: by box id, then each box's frames in the
        order it sent them (boot, seq); called before the hub polls."""
        hub = self.hub
        if hub is None:
            return
        with hub._lock:
            q = hub._queue
            if len(q) < 2:
                return
            items = sorted(q, key=_frame_key)
            q.clear()
            q.extend(items)

    # -- the pump --------------------------------------------------------------
    def settled(self):
        if self.hub_got < self.hub_due:
            return False
        for b in self.boxes.values():
            if b.sock is not None and not b.settled():
                return False
        return True

    def pump(self):
        """Wait until everything sent is where it goes (module notes); False if that took
        longer than WAIT_S (then what did not come is forgotten)."""
        self.pumps += 1
        if self.settled():
            return True
        self.waits += 1
        t0 = perf_counter()
        end = t0 + WAIT_S
        while True:
            for s in list(self.open):
                s.drain()
            if self.settled():
                self.wait_s += perf_counter() - t0
                return True
            now = perf_counter()
            if now > end:
                self.late += 1
                self.forgive()
                self.wait_s += now - t0
                return False
            fds = [s for s in self.open if not s.box.eof]
            if fds:
                select.select(fds, [], [], SLICE_S)
            else:
                select.select([], [], [], SLICE_S)

    def forgive(self):
        """What was awaited is lost (it will not come): count from here."""
        self.hub_got = self.hub_due = max(self.hub_got, self.hub_due)
        for b in self.boxes.values():
            b.answers_due = b.answers = max(b.answers, b.answers_due)
            b.frames_due = b.frames = max(b.frames, b.frames_due)

    # -- faults --------------------------------------------------------------
    def restart_broker(self):
        """The broker dies (every connection drops at once) and starts again on the same
        port; returns once the hub is connected and subscribed again.  Frames on their way
        are lost, as with a real restart."""
        hub = self.hub
        subacks = self.subacks
        self.hub_alive = False
        _kill(self.broker)
        for s in list(self.open):  # the boxes' connections are gone with it
            s.close()
        if hub is not None:
            sock = hub.client.socket()
            if sock is not None:
                try:
                    sock.close()  # paho notices and connects again (1 s)
                except OSError:
                    pass
        if self.attacker is not None:
            self.attacker.loop_stop()
            self.attacker = None  # a new connection next time
        self.broker = self.restarter(self.port)
        end = perf_counter() + RECONNECT_S
        while hub is not None and self.subacks <= subacks and perf_counter() < end:
            select.select([], [], [], 0.01)
        self.forgive()
        return hub is None or self.subacks > subacks

    def close(self):
        for s in list(self.open):
            s.close()
        if self.attacker is not None:
            self.attacker.loop_stop()
            self.attacker.disconnect()
        self.uninstall()


def _kill(broker):
    """Stop an embedded amqtt broker at once, as if its process were killed: its listening
    socket closes, its event loop stops (amqtt's own shutdown waits for each session, and
    once in a while did not finish within the 10 s tdhost.links.broker allows)."""
    import asyncio

    loop = getattr(broker, "_loop", None)
    thread = getattr(broker, "_thread", None)
    if loop is None or thread is None or not thread.is_alive():
        broker.stop()
        return

    def kill():
        try:
            for srv in broker._broker._servers.values():
                srv.instance.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
        finally:
            loop.call_later(0.3, loop.stop)  # the cancelled tasks end meanwhile

    import logging

    # its tasks report their cancellation ("Broadcast loop stopped by exception"): expected
    quiet = [logging.getLogger(n) for n in list(logging.root.manager.loggerDict)
             if n == "amqtt" or n.startswith("amqtt.")]
    was = [lg.disabled for lg in quiet]
    for lg in quiet:
        lg.disabled = True
    try:
        loop.call_soon_threadsafe(kill)
        thread.join(5)
    finally:
        for lg, w in zip(quiet, was):
            lg.disabled = w


def _quickack(s):
    """Acknowledge at once (Linux's TCP_QUICKACK, which a read turns off again): the
    broker writes a frame in two pieces, and with delayed acks the second one waits 40 ms
    for the first one's ack (Nagle's algorithm on the broker's side)."""
    q = getattr(socket, "TCP_QUICKACK", None)
    if q is not None:
        try:
            s.setsockopt(socket.IPPROTO_TCP, q, 1)
        except OSError:
            pass


def _frame_key(item):
    topic, payload, retained = item
    parts = topic.split("/")
    box = parts[3] if len(parts) > 4 else ""
    m = _SEQ.search(payload, 0, 200)
    n = _SEQ2.search(payload, 0, 200)
    return (box, int(m.group(1)) if m else 0, int(n.group(1)) if n else 0,
            0 if parts[-1] == "out" else 1)
