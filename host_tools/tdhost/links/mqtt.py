"""The host's end of the Wi-Fi/MQTT link (docs/mqtt.md, "The host"): ``MqttHub`` makes one
tdhost.links.boxlink.BoxLink per box seen on ``tc/<event>/box/<id>/...`` (on a ``HubPort``)
once a frame checks out with that box's key, publishes what the links write, and keeps the
retained table topics (clock, status) for screens and late readers.
"""

import collections
import logging
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tableclock.canonjson import ProtocolError
from tableclock.protocol import HOST, MAX_FRAME, UNPAIRED_KEY, Forged, box_key, decode
from tableclock.wire import check_id, kind_of
from tdhost.clocks import monotonic_ms
from tdhost.links.boxlink import BoxEventHandler, BoxLink, Feed
from tdhost.links.hoststore import HostStore
from tdhost.links.usb import peek
from tdhost.links.wifinotes import WifiNotes

QUEUE_MAX = 10000  # messages from the broker waiting for poll (the oldest dropped)
POLL_MAX = 2000  # messages taken per poll
PORT_MAX = 65536  # bytes waiting for one BoxLink
BOXES_MAX = 1024  # BoxLinks, 300-table events fit (then new box ids are counted, not linked)
SEEN_MAX = 1024  # entries kept in foreign/unpaired/presence/statuses
PUBLISH_QUEUE = 4096  # paho's outgoing queue while the broker is away
# QoS-1 publishes paho keeps unacknowledged at once: a level change is a frame per box
# plus its table's clock; paho's default 20 sent 600 of them (300 boxes) 20 per round trip
# to the broker, the last after 70-840 ms (bench/README.md, "Sync over MQTT")
INFLIGHT_MAX = 2 * BOXES_MAX
KEEPALIVE_S = 30
RECONNECT_MAX_S = 4  # paho's back-off: 1 s doubling to this (live again within 10 s)
PAIR_AGAIN = ("box %s (table %s) was paired before each box had its own key and login:"
              " pair it again (tdhost pair PORT --table N --key-file ... --wifi-ssid ...)")

log = logging.getLogger("tdhost.mqtt")


def parse_url(url: str) -> tuple[str, int, str | None, str | None]:
    """``mqtt://[user[:password]@]host[:port]`` -> (host, port, user, password);
    ValueError with a sentence for anything else."""
    try:
        u = urlsplit(url)
        port = u.port or 1883
    except ValueError as e:
        raise ValueError("%r is not an MQTT URL (%s)" % (url, e))
    if u.scheme != "mqtt":
        raise ValueError("%r is not an MQTT URL: use mqtt://[user:password@]host[:port]"
                         " (TLS is not supported)" % url)
    if not u.hostname:
        raise ValueError("%r names no broker host" % url)
    user = unquote(u.username) if u.username is not None else None
    password = unquote(u.password) if u.password is not None else None
    return u.hostname, port, user, password


def _keep(d: dict[str, Any], k: str, v: Any) -> None:
    """d[k] = v in a dict bounded to SEEN_MAX entries (the oldest go)."""
    d.pop(k, None)
    if len(d) >= SEEN_MAX:
        d.pop(next(iter(d)))
    d[k] = v


class HubPort:
    """One box's virtual serial port for its BoxLink: bytes the broker
    delivered wait here (``feed``); what the BoxLink writes is published
    line by line on the box's ``in`` topic."""

    baudrate = None  # not a serial port: tdhost.links.usb.check_port has nothing to refuse

    def __init__(self, hub: "MqttHub", box: str) -> None:
        self.hub = hub
        self.box = box
        self.link: BoxLink | None = None
        self.inbox = bytearray()
        self.acc = bytearray()
        self.last_status: bytes | None = None  # the raw status frame last delivered
        self.overflow = 0

    @property
    def connected(self) -> bool:
        return self.hub.connected

    @property
    def in_waiting(self) -> int:
        return len(self.inbox)

    def read(self, n: int = 1) -> bytes:
        data = bytes(self.inbox[:n])
        del self.inbox[:n]
        return data

    def feed(self, payload: bytes) -> None:
        if not payload.endswith(b"\n"):
            payload += b"\n"
        if len(self.inbox) + len(payload) > PORT_MAX:
            self.overflow += 1
            return
        self.inbox += payload

    def write(self, data: Any) -> int:
        self.acc += bytes(data)
        while True:
            i = self.acc.find(b"\n")
            if i < 0:
                break
            line = bytes(self.acc[:i + 1])
            del self.acc[:i + 1]
            if i:
                self.hub._send(self, line)
        return len(data)

    def flush(self) -> None:
        pass


class MqttHub:
    """Every box of one event over one MQTT broker (module notes).

    :param url: ``mqtt://user:password@host:port`` (``parse_url``).
    :param event: the event's topic name (an id; the boxes use their key id
        unless paired with ``mqtt_event``).
    :param key: the event key (bytes); :param key_id: its id.
    :param store: a tdhost.links.hoststore.HostStore (boot counter, each event once).
    :param on_link: called with each new BoxLink.
    :param feed: what the host sends a box for its table (tdhost.links.boxlink.Feed).
    :param on_event: called once per new box event (BoxLink's).
    :param clock: ms clock for the BoxLinks (default: monotonic ms).
    :param box_keys: each box signs with its own key (``box_key``; the default: secure
        by default), not the event's shared key (False: boxes paired before 1.3 only).
    :param notes: a tdhost.links.wifinotes.WifiNotes told of each box to pair again (the
        console shows it).
    :param client_id: default: the user name (brokers with logins demand it), else
        ``tdhost-<event>``.
    """

    def __init__(self, url: str, event: str, key: bytes, key_id: str, store: HostStore,
                 on_link: Callable[[BoxLink], object] | None = None, feed: Feed | None = None,
                 on_event: BoxEventHandler | None = None,
                 clock: Callable[[], int] | None = None, client_id: str | None = None,
                 start: bool = True, box_keys: bool = True,
                 notes: WifiNotes | None = None) -> None:
        self.host, self.port, self.user, self.password = parse_url(url)
        self.event = check_id("the MQTT event", event)
        self.key = key
        self.key_id = key_id
        self.store = store
        self.on_link = on_link
        self.feed = feed
        self.on_event = on_event
        self.clock = clock or monotonic_ms
        self.links: dict[str, BoxLink] = {}  # by box id
        self.ports: dict[str, HubPort] = {}  # each link's port, by box id
        self.foreign: dict[str, Any] = {}  # box id: what its frame claims (another key)
        self.unpaired: dict[str, Any] = {}  # box id: its hello (no key yet)
        self.presence: dict[str, bytes | None] = {}  # box id: its retained hello (None: gone)
        self.statuses: dict[str, bytes] = {}  # box id: its retained status (history)
        self.box_keys = box_keys
        self.pair_again: dict[str, Any] = {}  # box id: its frame (signed with the event key)
        self.notes = notes
        self.connected = False
        self.error: str | None = None  # why the broker refused or dropped the hub, if it did
        self.connects = 0
        self.lost = 0
        self.mismatched = 0
        self.invalid = 0
        self.too_large = 0
        self.too_many = 0
        self.ignored = 0
        self.published = 0
        self.publish_errors = 0
        self._lock = threading.Lock()
        self._queue: collections.deque[tuple[str, bytes, bool]] = collections.deque()
        base = "tc/%s/" % self.event
        self._prefix = base + "box/"
        self._subs = [(base + "box/+/out", 1), (base + "box/+/status", 1),
                      (base + "box/+/presence", 1)]
        c = mqtt.Client(CallbackAPIVersion.VERSION2,
                        client_id=client_id or self.user or "tdhost-" + event,
                        clean_session=True)
        if self.user is not None:
            c.username_pw_set(self.user, self.password)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.reconnect_delay_set(1, RECONNECT_MAX_S)
        c.max_queued_messages_set(PUBLISH_QUEUE)
        c.max_inflight_messages_set(INFLIGHT_MAX)
        self.client = c
        self._started = False
        if start:
            self.start()

    # -- paho's thread ---------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                    properties: Any = None) -> None:
        if reason_code.is_failure:
            self.error = "the broker refused the host: %s" % reason_code
            return
        self.error = None
        self.connected = True
        self.connects += 1
        client.subscribe(self._subs)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any = None) -> None:
        self.connected = False
        if reason_code.is_failure:
            self.error = "lost the broker: %s" % reason_code

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            if len(self._queue) >= QUEUE_MAX:
                self._queue.popleft()
                self.lost += 1
            self._queue.append((msg.topic, bytes(msg.payload), bool(msg.retain)))

    # -- the caller's thread --------------------------------------------
    def start(self) -> None:
        """Connect in the background (never blocks; paho retries)."""
        if self._started:
            return
        self._started = True
        self.client.connect_async(self.host, self.port, KEEPALIVE_S)
        self.client.loop_start()

    def close(self) -> None:
        """Disconnect and stop paho's thread."""
        if not self._started:
            return
        self._started = False
        self.client.disconnect()
        self.client.loop_stop()
        self.connected = False

    def __enter__(self) -> "MqttHub":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def poll(self, now: int | None = None) -> None:
        """Route what the broker delivered, poll every BoxLink, publish what
        they send; never blocks (bounded: ``POLL_MAX`` messages)."""
        now = self.clock() if now is None else now
        with self._lock:
            n = min(len(self._queue), POLL_MAX)
            batch = [self._queue.popleft() for _ in range(n)]
        for topic, payload, retained in batch:
            self._route(topic, payload, retained)
        for box, link in list(self.links.items()):
            before = link.status
            link.poll(now)
            if link.status is not before:
                self._table_status(self.ports[box], link)

    def _route(self, topic: str, payload: bytes, retained: bool) -> None:
        if not topic.startswith(self._prefix):
            self.ignored += 1
            return
        parts = topic[len(self._prefix):].split("/")
        if len(parts) != 2:
            self.ignored += 1
            return
        box, leaf = parts
        if leaf == "presence":
            _keep(self.presence, box, payload or None)
            return
        if retained:  # history from before this subscription, not a frame for a link
            if leaf == "status" and payload:
                _keep(self.statuses, box, payload)
            return
        if not payload:
            return
        if len(payload) > MAX_FRAME + 2:
            self.too_large += 1
            return
        if payload.find(b'"from":"%s"' % box.encode(), 0, 96) < 0:
            self.mismatched += 1  # a frame from another box on this box's topic
            return
        link = self.links.get(box)
        if link is None:
            link = self._new_link(box, payload)
            if link is None:
                return
        port = self.ports[box]
        port.feed(payload)
        if leaf == "status":
            port.last_status = payload

    def key_of(self, box: str) -> bytes:
        """The key *box*'s frames are signed with (and the host's frames to it)."""
        return box_key(self.key, box) if self.box_keys else self.key

    def _new_link(self, box: str, payload: bytes) -> BoxLink | None:
        """A BoxLink for *box* if its frame is signed with its key."""
        line = payload.rstrip(b"\r\n")
        key = self.key_of(box)
        try:
            msg = decode(line, key, HOST)
        except Forged:
            self._stranger(box, line)
            return None
        except ProtocolError:
            self.invalid += 1
            return None
        if msg["from"] != box:
            self.mismatched += 1
            return None
        if len(self.links) >= BOXES_MAX:
            self.too_many += 1
            return None
        port = HubPort(self, box)
        link = BoxLink(port, key, self.key_id, self.store, feed=self.feed,
                       on_event=self.on_event, clock=self.clock)
        port.link = link
        self.links[box] = link
        self.ports[box] = port
        if self.on_link is not None:
            self.on_link(link)
        return link

    def _stranger(self, box: str, line: bytes) -> None:
        """A first frame that does not check out with *box*'s key: unpaired,
        paired before per-box keys (said once), or another event's."""
        keeps: tuple[tuple[dict[str, Any], bytes | None], ...] = (
            (self.unpaired, UNPAIRED_KEY), (self.pair_again, self.key if self.box_keys else None))
        for keep, key in keeps:
            if key is None:
                continue
            try:
                msg = decode(line, key, HOST)
            except ProtocolError:
                continue
            if keep is self.pair_again and box not in keep:
                log.warning(PAIR_AGAIN, box, msg.get("table"))
                if self.notes is not None:
                    self.notes.pair_again(box, msg.get("table"))
            _keep(keep, box, msg)
            return
        _keep(self.foreign, box, peek(line))

    def _publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        if info.rc == mqtt.MQTT_ERR_SUCCESS or info.rc == mqtt.MQTT_ERR_NO_CONN:
            self.published += 1  # NO_CONN: queued by paho until it is back
        else:
            self.publish_errors += 1

    def _send(self, port: HubPort, frame: bytes) -> None:
        """A frame a BoxLink wrote: to its box, and a clock to its table."""
        self._publish(self._prefix + port.box + "/in", frame)
        table = port.link.table if port.link is not None else None
        if table and kind_of(frame) == b"clock":
            self._publish("tc/%s/table/%d/clock" % (self.event, table), frame, retain=True)

    def _table_status(self, port: HubPort, link: BoxLink) -> None:
        raw = port.last_status
        if raw and link.table:
            self._publish("tc/%s/table/%d/status" % (self.event, link.table), raw, retain=True)
