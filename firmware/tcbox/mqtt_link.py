"""The box's link over Wi-Fi/MQTT (docs/mqtt.md; docs/protocol.md, "MQTT").

``MqttPort`` gives tcbox/link/box_end.py's Link the usb_cdc.Serial API on an
MqttSession (tcbox/mqtt_net.py), so the outbox, exactly-once, anti-replay and
link states stay in one place; ``MqttLink`` services the port each loop.

    link = mqtt_link.make(table, extra)   # None unless the pairing has Wi-Fi + MQTT settings
    app.add(link)                         # a part of the App: its hooks run in app.step(now)

Pairing stays on USB (docs/mqtt.md, "Pairing a box for Wi-Fi").
"""


from tableclock.protocol import BOX_KEYS, MAX_FRAME
from tableclock.wire import Lines, kind_of

from .link.box_end import Link
from .link.pairing import settings_of, wants_mqtt
from .link.states import HELLO_SENT, LIVE
from .mqtt_net import (
    MASK,
    OFF,
    STATES,
    UP,
    WIFI,
    MqttSession,
    WifiWatch,
    client_class,
)
from .presses import ticks_diff

INBOX_MAX = 16  # frames from the broker waiting for Link.read (the oldest dropped)
INBOX_BYTES = 8192
TAP_READ = 256  # bytes read from the USB port per poll (pair frames only)
PAIR_AGAIN = "pair again"  # shown "Wi-Fi: pair again": a pairing from before BOX_KEYS


# ------------------------------------------------------------------- port
class MqttPort(MqttSession):
    """The Link's port over MQTT: frames in (a bounded inbox) and out (each
    on its kind's topic), on the MqttSession it extends; a ``pair`` frame
    from the network is refused (``refused_pairs``).  Topics: docs/mqtt.md.

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
        self.usb = usb
        self.tap = Lines(1024) if usb is not None else None
        self.trusted_until = None  # a pair frame from USB waits for the Link
        self.inbox = []  # frames (bytes, newline-terminated) for read()
        self.inbox_bytes = 0
        self.head_at = 0  # bytes of inbox[0] already read
        self.acc = bytearray()  # a frame being written
        MqttSession.__init__(self, pool, box_id, event, host, port, user, password, wifi,
                             ticks, rand)
        self.dropped = 0
        self.refused_pairs = 0
        self.published = 0
        self.received = 0

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

    def service(self, now, calm=True):
        """A pair frame from USB first, then the session's work
        (MqttSession.service)."""
        if self.tap is not None:
            self._tap(now)
        MqttSession.service(self, now, calm)

    def _close(self):
        MqttSession._close(self)
        self.acc = bytearray()
        self.inbox = []
        self.inbox_bytes = 0
        self.head_at = 0

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
    """tcbox.link.box_end.Link on an MqttPort: ``poll`` services the port first (one
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
        table = self.table
        port.poll(now, table is None or getattr(table, "hand", None) is None)
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
        settings, event = settings_of(pairing)
        port = self.port
        if not wants_mqtt(settings):
            port.off("restart for USB")
            return
        if self.pair_again(pairing):
            return
        try:
            port.configure(event, settings["mqtt_host"], settings.get("mqtt_port", 1883),
                           settings.get("mqtt_user"), settings.get("mqtt_password"))
        except ValueError as e:
            port.off(str(e))
            return
        w = port.wifi
        if w is not None and (w.ssid != settings["wifi_ssid"]
                              or w.password != settings.get("wifi_password", "")):
            w.ssid = settings["wifi_ssid"]
            w.password = settings.get("wifi_password", "")
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
        return text + self.unsent_text()

    def counters(self):
        d = Link.counters(self)
        d.update(self.port.counters())
        return d


# ------------------------------------------------------------------ make
# settings_of and wants_mqtt live in link/pairing.py (hardware.build asks them before
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
