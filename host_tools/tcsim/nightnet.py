"""Wi-Fi and MQTT for a simulated room, step by step in virtual time: the Net (the room's
Wi-Fi and broker, and the pump that delivers every frame sent in a step before the next one)
and each box's MQTT transport.  The boxes' radios and sockets are tcsim.boxnet's.

    net = Net(broker); net.install()    # a running tdhost.links.broker broker; the stubs get it
    box = room.add_box(3, transport=net.transport(name), ...); net.watch_hub(hub)

Why a pump, and what it waits for: docs/demo.md §3, "Virtual time, and MQTT in it".
"""

import functools
import logging
import random
import re
import select
import socket
from time import perf_counter
from typing import Any, Callable, Dict, List, Optional, Tuple

from .boxnet import BoxConnection, BoxSocket, BoxSocketPool, RadioProxy, radio_of
from .stubs import _world

WAIT_S = 3.0  # the longest a pump waits for frames on their way (wall seconds)
RECONNECT_S = 15.0  # the longest a broker restart waits for the hub to come back
SLICE_S = 0.0005  # a pump looks again this often
_SEQ = re.compile(rb'"boot":(\d+)')
_SEQ2 = re.compile(rb'"seq":(\d+)')


# ------------------------------------------------------------------ the air
class BusyWifi:
    """The jitter of a busy Wi-Fi (a crowded channel: many stations, retries, a neighbour's
    network on the same channel), each box's own: every chunk a box's socket sends (``up``)
    or the pump brings it (``down``) is on the air ``delay(box, way)`` ms of virtual time --
    mostly 5-60 ms, one in five up to 400 ms more, one in fifty a stall of up to 1.5 s more
    (retries after a collision).  TCP keeps a connection's chunks in order, so a chunk
    never overtakes the one before it (boxnet's ``air``): a stall holds back what follows.
    The same seed gives the same delays: each box draws from its own generator."""

    BASE_MS = (5, 60)
    SLOW = (5, 400)  # one in SLOW[0] chunks: up to SLOW[1] ms more
    STALL = (50, 1500)  # one in STALL[0]: up to STALL[1] ms more

    def __init__(self, seed: Any) -> None:
        self.seed = seed
        self.rngs: Dict[Tuple[str, str], random.Random] = {}
        self.chunks = 0
        self.delayed_ms = 0
        self.most_ms = 0

    def delay(self, box: str, way: str) -> int:
        rng = self.rngs.get((box, way))
        if rng is None:
            rng = self.rngs[(box, way)] = random.Random("wifi/%s/%s/%s" % (self.seed, box, way))
        ms = rng.randint(*self.BASE_MS)
        if rng.randrange(self.SLOW[0]) == 0:
            ms += rng.randrange(self.SLOW[1])
        if rng.randrange(self.STALL[0]) == 0:
            ms += rng.randrange(self.STALL[1])
        self.chunks += 1
        self.delayed_ms += ms
        self.most_ms = max(self.most_ms, ms)
        return ms

    def counts(self) -> Dict[str, Any]:
        return {"chunks": self.chunks, "mean_ms": round(self.delayed_ms / self.chunks, 1)
                if self.chunks else None, "max_ms": self.most_ms}


# ------------------------------------------------------------------ transport
class NullPort:
    """The USB data port of a box that talks over Wi-Fi: nothing is plugged in."""

    connected = False
    timeout = 0
    write_timeout = None
    in_waiting = 0

    def read(self, n: int = 1) -> bytes:
        return b""

    def write(self, buf: bytes) -> int:
        return 0


class MqttTransport:
    """tcsim.room's transport object for a box on Wi-Fi: ``box_port`` is a USB port with
    nothing plugged in (the firmware builds its MqttLink from the pairing instead),
    ``host_port`` None (the hub makes the host's side), ``sync()`` the net's pump,
    ``cut()``: the power goes off (its TCP connection dies with it)."""

    host_port = None

    def __init__(self, net: "Net", name: str) -> None:
        self.net = net
        self.name = name
        self.box_port = NullPort()

    def sync(self) -> bool:
        net = self.net
        if net.room is not None and net.room.steps % net.every:
            return True  # not a step the host polls in: frames wait for the next one
        return net.pump()

    def cut(self) -> None:
        conn = self.net.boxes.get(self.name)
        if conn is not None and conn.sock is not None:
            conn.sock.close()

    def mend(self) -> None:
        pass

    def close(self) -> None:
        self.cut()


# ------------------------------------------------------------------ the net
class Net:
    """The room's Wi-Fi and its MQTT broker (module notes).

    :param broker: a running tdhost.links.broker broker (``.host``, ``.port``, ``stop()``).
    :param restart: a function that starts the broker again on the same port (a new
        handle), for :meth:`restart_broker`.
    """

    def __init__(self, broker: Any, restart: Optional[Callable[[int], Any]] = None) -> None:
        self.broker = broker
        self.restarter = restart
        self.host = "127.0.0.1"
        self.port = broker.port
        self.boxes: Dict[str, BoxConnection] = {}
        self.open: List[BoxSocket] = []
        self.room: Any = None  # the room: pumps only in the steps the host polls in (``every``)
        self.every = 1
        # a BusyWifi (or anything with ``delay(box, way)``): the boxes' chunks are on the air
        # that long, in virtual time (the room's clock); None: at once
        self.jitter: Any = None
        self.hub: Any = None
        self.hub_alive = False  # a hub is connected: the broker passes the boxes' frames on
        self.event: Optional[str] = None
        self.attacker: Any = None  # a paho client of make faults' (garbage, forgeries, replays)
        self.sent_events: Dict[str, bytes] = {}  # box -> the last event frame it published
        self.sent_in: Dict[str, bytes] = {}  # box -> the last frame the hub published to it
        self.hub_due = 0  # PUBLISHes with a payload the boxes sent
        self.hub_got = 0  # ... that reached the hub
        self.subacks = 0
        self.late = 0  # pumps that gave up
        self.broker_errors: List[str] = []  # what amqtt failed on (see _amqtt_error)
        self.pumps = 0
        self.waits = 0  # pumps that had to wait
        self.wait_s = 0.0
        self._saved: Optional[Tuple[Any, Any]] = None

    def now_ms(self) -> int:
        """The room's virtual time (the Wi-Fi's jitter is counted in it)."""
        return self.room.now_ms if self.room is not None else 0

    def box(self, name: str) -> BoxConnection:
        """The connection state of the box called *name* (made on first use)."""
        conn = self.boxes.get(name)
        if conn is None:
            conn = self.boxes[name] = BoxConnection(name)
        return conn

    def transport(self, name: str) -> MqttTransport:
        self.box(name)
        return MqttTransport(self, name)

    def settings(self, ssid: str = "lppl-room") -> Dict[str, Any]:
        """The pairing's Wi-Fi/MQTT settings for a box on this net (docs/mqtt.md)."""
        return {"wifi_ssid": ssid, "wifi_password": "demo-night", "mqtt_host": self.host,
                "mqtt_port": self.port}

    # -- the stubs -------------------------------------------------------
    def install(self) -> None:
        """Give the simulator's ``wifi`` and ``socketpool`` stubs this net (and count, rather
        than print, the amqtt errors asyncio reports: ``broker_errors``)."""
        import socketpool
        import wifi

        logging.getLogger("asyncio").addFilter(self._amqtt_error)

        self._saved = (wifi.radio, socketpool.SocketPool)
        # (mypy reads circuitpython-stubs' wifi and socketpool, not tcsim.stubs')
        wifi.radio = RadioProxy()  # type: ignore[assignment]
        socketpool.SocketPool = functools.partial(BoxSocketPool, self)  # type: ignore

    def _amqtt_error(self, record: logging.LogRecord) -> bool:
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

    def uninstall(self) -> None:
        logging.getLogger("asyncio").removeFilter(self._amqtt_error)
        if self._saved is not None:
            import socketpool
            import wifi

            wifi.radio, socketpool.SocketPool = self._saved  # type: ignore[misc]
            self._saved = None

    # -- Wi-Fi -------------------------------------------------------------
    def wifi_down(self, world: _world.World) -> None:
        """The access point of that box's table goes away."""
        radio_of(world).up = False

    def wifi_up(self, world: _world.World) -> None:
        radio_of(world).up = True

    # -- the hub -----------------------------------------------------------
    def watch_hub(self, hub: Any) -> None:
        """Count what *hub* (tdhost.links.mqtt.MqttHub) gets from the boxes and publishes to
        them (wrapping paho's callbacks and ``publish``)."""
        self.hub = hub
        self.event = hub.event
        prefix = "tc/%s/box/" % hub.event
        client = hub.client
        on_message = hub._on_message
        net = self

        def counted(client: Any, userdata: Any, msg: Any) -> None:
            on_message(client, userdata, msg)
            if msg.payload and not msg.retain and msg.topic.startswith(prefix):
                net.hub_got += 1

        def subscribed(client: Any, userdata: Any, mid: int, reason_codes: Any,
                       properties: Any = None) -> None:
            net.subacks += 1
            net.hub_alive = True  # from now on the broker passes the boxes' frames on

        on_connect = hub._on_connect

        def connected(client: Any, userdata: Any, flags: Any, reason_code: Any,
                      properties: Any = None) -> None:
            sock = client.socket()  # frames one by one, not held back by Nagle's algorithm
            if sock is not None:
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except (OSError, AttributeError):
                    pass
            on_connect(client, userdata, flags, reason_code, properties)

        client.on_connect = connected
        client.on_message = counted
        client.on_subscribe = subscribed
        publish = client.publish

        def counting(topic: str, payload: Optional[bytes] = None, qos: int = 0,
                     retain: bool = False, properties: Any = None) -> Any:
            info = publish(topic, payload, qos=qos, retain=retain)
            if topic.startswith(prefix) and topic.endswith("/in"):
                name = topic[len(prefix):-3]
                conn = net.boxes.get(name)
                if conn is not None and conn.subscribed and conn.sock is not None:
                    conn.expect(payload.encode() if isinstance(payload, str)
                                else bytes(payload or b""))
                if payload and b'"kind":"instruction"' in payload[:60]:
                    net.sent_in[name] = payload
            return info

        client.publish = counting
        self.hub_alive = False

    def kill_hub(self) -> None:
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

    def inject(self, topic: str, payload: bytes) -> bool:
        """Publish *payload* on *topic* as a stranger on the network would (QoS 0), and
        wait until it is where the broker takes it (counted like the boxes' frames)."""
        if self.attacker is None:
            import paho.mqtt.client as mqtt
            from paho.mqtt.enums import CallbackAPIVersion

            stranger = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="stranger")
            stranger.connect(self.host, self.port, 30)
            stranger.loop_start()
            end = perf_counter() + 5
            while not stranger.is_connected() and perf_counter() < end:
                select.select([], [], [], 0.005)
            sock: Any = stranger.socket()
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.attacker = stranger
        prefix = "tc/%s/box/" % self.event
        if topic.startswith(prefix) and topic.endswith("/in"):
            conn = self.boxes.get(topic[len(prefix):-3])
            if conn is not None and conn.subscribed and conn.sock is not None:
                conn.expect(payload)
        elif topic.startswith(prefix) and payload and self.hub_alive:
            self.hub_due += 1
        self.attacker.publish(topic, payload, qos=0)
        return self.pump()

    def order_hub(self) -> None:
        """Put the hub's queue in a fixed order: by box id, then each box's frames in the
        order it sent them (boot, seq); called before the hub polls."""
        hub = self.hub
        if hub is None:
            return
        with hub._lock:
            queue = hub._queue
            if len(queue) < 2:
                return
            items = sorted(queue, key=_frame_key)
            queue.clear()
            queue.extend(items)

    # -- the pump --------------------------------------------------------------
    def settled(self) -> bool:
        if self.hub_got < self.hub_due:
            return False
        for conn in self.boxes.values():
            if conn.sock is not None and not conn.settled():
                return False
        return True

    def pump(self) -> bool:
        """Wait until everything sent is where it goes (docs/demo.md §3); False if that took
        longer than WAIT_S (then what did not come is forgotten)."""
        self.pumps += 1
        if self.jitter is not None:  # what the boxes sent that is off the air by now
            at = self.now_ms()
            for sock in list(self.open):
                if sock.air:
                    sock.release(at)
        if self.settled():
            return True
        self.waits += 1
        t0 = perf_counter()
        end = t0 + WAIT_S
        while True:
            for sock in list(self.open):
                sock.drain()
            if self.settled():
                self.wait_s += perf_counter() - t0
                return True
            now = perf_counter()
            if now > end:
                self.late += 1
                self.forgive()
                self.wait_s += now - t0
                return False
            fds = [sock for sock in self.open if not sock.conn.eof]
            if fds:
                select.select(fds, [], [], SLICE_S)
            else:
                select.select([], [], [], SLICE_S)

    def forgive(self) -> None:
        """What was awaited is lost (it will not come): count from here."""
        self.hub_got = self.hub_due = max(self.hub_got, self.hub_due)
        for conn in self.boxes.values():
            conn.answers_due = conn.answers = max(conn.answers, conn.answers_due)
            conn.frames_due = conn.frames = max(conn.frames, conn.frames_due)
            conn.expected.clear()

    # -- faults --------------------------------------------------------------
    def restart_broker(self) -> bool:
        """The broker dies (every connection drops at once) and starts again on the same
        port; returns once the hub is connected and subscribed again.  Frames on their way
        are lost, as with a real restart."""
        hub = self.hub
        subacks = self.subacks
        self.hub_alive = False
        _kill(self.broker)
        for box_sock in list(self.open):  # the boxes' connections are gone with it
            box_sock.close()
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
        assert self.restarter is not None, "a Net made without restart="
        self.broker = self.restarter(self.port)
        end = perf_counter() + RECONNECT_S
        while hub is not None and self.subacks <= subacks and perf_counter() < end:
            select.select([], [], [], 0.01)
        self.forgive()
        return hub is None or self.subacks > subacks

    def close(self) -> None:
        for sock in list(self.open):
            sock.close()
        if self.attacker is not None:
            self.attacker.loop_stop()
            self.attacker.disconnect()
        self.uninstall()


def _kill(broker: Any) -> None:
    """Stop an embedded amqtt broker at once, as if its process were killed: its listening
    socket closes, its event loop stops (amqtt's own shutdown waits for each session, and
    once in a while did not finish within the 10 s tdhost.links.broker allows)."""
    import asyncio

    loop = getattr(broker, "_loop", None)
    thread = getattr(broker, "_thread", None)
    if loop is None or thread is None or not thread.is_alive():
        broker.stop()
        return

    def kill() -> None:
        try:
            for srv in broker._broker._servers.values():
                srv.instance.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
        finally:
            loop.call_later(0.3, loop.stop)  # the cancelled tasks end meanwhile

    # its tasks report their cancellation ("Broadcast loop stopped by exception"): expected
    quiet = [logging.getLogger(n) for n in list(logging.root.manager.loggerDict)
             if n == "amqtt" or n.startswith("amqtt.")]
    was = [logger.disabled for logger in quiet]
    for logger in quiet:
        logger.disabled = True
    try:
        loop.call_soon_threadsafe(kill)
        thread.join(5)
    finally:
        for logger, was_disabled in zip(quiet, was):
            logger.disabled = was_disabled


def _frame_key(item: Tuple[str, bytes, bool]) -> Tuple[str, int, int, int]:
    topic, payload, retained = item
    parts = topic.split("/")
    box = parts[3] if len(parts) > 4 else ""
    boot = _SEQ.search(payload, 0, 200)
    seq = _SEQ2.search(payload, 0, 200)
    return (box, int(boot.group(1)) if boot else 0, int(seq.group(1)) if seq else 0,
            0 if parts[-1] == "out" else 1)
