"""The rig of the fault tests (tests/host/test_faults*.py; docs/mqtt.md, "Faults").

A broker (amqtt or Mosquitto), tests/tools/faultproxy.FaultProxy in front of it
for the boxes, the host's MqttHub (paho, straight to the broker) with a
HostStore file and a feed whose tournament clock runs on virtual time, and
simulated boxes: the firmware's own MqttLink/MqttPort (adafruit_minimqtt on
CPython sockets, as in tests/host/test_mqtt_link.py) on a tableclock Table
that a scripted dealer plays.

Time is virtual wherever the code takes a clock: ``rig.v`` (ms; V and Feed
are tests/host/vtime.py's) drives the host (hub and BoxLinks), the
feed's clock and the boxes' ticks (which start a minute before the 2**29
wrap and may run *ppm* fast); only the network is real.  ``rig.run(until)``
loops (box steps, hub poll, ``step`` virtual ms, a real ``nap``) until
*until()* holds, bounded in real seconds.  While a box's clock-sync ping is
on the way (at most FLIGHT_S real seconds), virtual time runs no faster than
real time: a round trip then takes the virtual time the network took, as on
a real table, instead of ``step`` ms per loop (which made a loaded machine's
samples look like a slow network's and failed the 250 ms bound).
"""

import socket
import time

from vtime import Feed, V

from faultproxy import FaultProxy
from link_util import StandIn
from tableclock import record
from tableclock.clocksync import ticks_diff
from tableclock.protocol import BOX_KEYS, box_key
from tableclock.table import Table
from tcbox.link.states import LIVE
from tcbox.mqtt_link import MqttLink, MqttPort
from tcbox.mqtt_net import MASK
from tdhost.links.broker import start_embedded, start_mosquitto
from tdhost.links.hoststore import HostStore
from tdhost.links.mqtt import MqttHub
from tdhost.live.instruction_book import InstructionBook

KEY = bytes(range(32))
OTHER_KEY = bytes(range(100, 132))
EVENT = "ev1"
HOST_ID = "tdhost-" + EVENT  # the hub's MQTT client id
LEVELS = [{"sb": 25 * k, "bb": 50 * k, "ante": 0, "minutes": 20} for k in range(1, 6)]
SETUP = {"profile": "lppl", "seats": 6, "players": {str(s): 3000 for s in range(1, 7)},
         "button": 1, "levels": LEVELS}
NAMES = {"names": {str(s): "P%d" % s for s in range(1, 7)}}
USERS = {"host": "host-secret", "tc-01": "pw-01", "tc-02": "pw-02"}
PAIRING = {"key": KEY.hex(), "key_id": EVENT, "table": 4}  # over USB: the event key


def wifi_pairing(box_id):
    """A Wi-Fi pairing as ``tdhost pair --wifi-ssid`` leaves it: the box's own key."""
    return {"key": box_key(KEY, box_id).hex(), "key_id": EVENT, "table": 4, "keys": BOX_KEYS}
WRAP = 1 << 29
TICKS0 = WRAP - 60000  # the boxes' ticks wrap a minute in
REAL_S = 20.0  # the most one wait may take (real seconds)
FLIGHT_S = 0.5  # a ping unanswered this long (real seconds) is lost: virtual time runs on


def real_ms():
    """The MqttPort's socket budget runs on real time."""
    return (time.monotonic_ns() // 1000000) & MASK


class Broker:
    """One broker under test (*kind*: amqtt or mosquitto, with *users*), restartable on
    its port.  tests/host/test_mqtt_link.py's too."""

    def __init__(self, kind, tmp_path, users=USERS):
        self.kind = kind
        self.tmp = tmp_path
        self.users = users
        self.b = self._start(0)

    def _start(self, port):
        if self.kind == "amqtt":
            return start_embedded(port=port)
        return start_mosquitto(self.tmp, port=port, users=self.users)

    @property
    def port(self):
        return self.b.port

    def url(self, user="host"):
        return self.b.url if self.kind == "amqtt" else self.b.url_for(user)

    def creds(self, user):
        return (user, self.users[user]) if self.kind == "mosquitto" else (None, None)

    def stop(self):
        self.b.stop()

    def restart(self):
        port = self.b.port
        self.b.stop()
        self.b = self._start(port)


class SimBox:
    """A box: the firmware's MqttLink + MqttPort through the rig's proxy, a
    Table, and a dealer.  ``made``: the id of every box event it queued;
    ``shown``: the instruction ids it showed the dealer (``auto``: the
    dealer carries each out at once: ``done``)."""

    def __init__(self, rig, box_id="tc-01", extra=None, table=None, auto=True, ppm=0):
        self.rig = rig
        self.id = box_id
        self.ppm = ppm
        user, pw = rig.broker.creds(box_id)
        self.port = MqttPort(socket, box_id, EVENT, "127.0.0.1", rig.proxy.port, user, pw,
                             rand=lambda: 0, ticks=real_ms)
        self.link = MqttLink(self.port, box_id, table or Table(dict(SETUP)))
        self.made = []
        self.shown = []
        self.auto = auto
        event = self.link.event

        def queued(ev):
            eid = event(ev)
            self.made.append(eid)
            return eid

        self.link.event = queued
        self.link.restore(extra if extra is not None else {"b": 6, "t": 4,
                                                           "p": wifi_pairing(box_id)})
        self.app = StandIn(self._shown)  # the box's App, as its link sees it
        self.app.add(self.link)
        self.due = None  # an instruction the dealer carries out at the next step (``auto``)
        e = self.link.book.shown()  # after a power cut the App shows the book's one again
        if e is not None:  # (tcbox/instructions/pending.use_book)
            self.shown.append(e[0])
            self.due = e[0] if auto else None
        self.last = self.ticks()
        self.flight = None  # time.monotonic() when the unanswered ping went, or None

    @property
    def t(self):
        return self.link.table

    def ticks(self):
        v = self.rig.v.t
        return (TICKS0 + v + v * self.ppm // 1000000) & MASK

    def _shown(self, body):
        self.shown.append(body["id"])
        if self.auto:
            self.link.instruction_done(body["id"], "done")

    def step(self):
        now = self.ticks()
        dt = ticks_diff(now, self.last)
        self.last = now
        if dt > 0:
            self.t.advance(dt)
        pings = self.link.hostclock.pings
        if self.due is not None:
            self.link.instruction_done(self.due, "done")
            self.due = None
        self.link.after_step(self.app, now)
        if self.link.hostclock.pings != pings and self.link.hostclock.unanswered:
            self.flight = time.monotonic()
        elif not self.link.hostclock.unanswered:
            self.flight = None

    def in_flight(self, real_now):
        """A ping of this box is on the way (sent less than FLIGHT_S ago)."""
        return self.flight is not None and real_now - self.flight < FLIGHT_S

    def do(self, ev):
        """One dealer's event on the table; the box events it makes are queued."""
        err = self.t.handle(ev)
        assert err is None, (ev, err)
        self.link.observe(self.t.state())

    def start_hand(self):
        self.link.observe(self.t.state())
        self.do({"do": "hand"})

    def finish_hand(self, bust=False):
        """Play the running hand out: with *bust*, the first to act moves
        all in and the next player who covers calls and wins; else
        everyone folds to the big blind."""
        shover = caller = None
        while self.t.hand is not None:
            st = self.t.state()
            a = st["action"]
            if a is None:
                ins = st["in_hand"]
                rank = [[caller], [shover]] if caller else [ins]
                self.do({"do": "showdown", "ranking": rank})
            elif bust and shover is None:
                shover = a
                self.do({"do": "allin"})
            elif shover is not None and caller is None and (
                    st["stacks"][str(a)] >= st["stacks"].get(str(shover), 0)):
                caller = a
                self.do({"do": "call"})
            else:
                self.do({"do": "fold"})

    def play_hand(self, bust=False):
        self.start_hand()
        self.finish_hand(bust)

    def events(self):
        """Ids of the box events made (every one must reach the host once)."""
        return [e for e in self.made if e is not None]

    def power_cut(self, **kw):
        """The box as it boots again after a power cut now: its table and
        the link's part from the power-loss record (tableclock.record)."""
        rec = record.decode(record.encode(record.dump(self.t, self.link.extra())))
        t2, extra = record.load(rec)
        return SimBox(self.rig, self.id, extra=extra, table=t2, ppm=self.ppm, **kw)

    def clock_error(self):
        """|box's tournament position - host's|, ms."""
        return self.rig.feed.error(self.t.clock)


class Rig:
    """Broker, proxy, host store and hub, boxes (module notes)."""

    def __init__(self, kind, tmp_path):
        self.kind = kind
        self.tmp = tmp_path
        self.v = V(1000)
        self.broker = Broker(kind, tmp_path)
        self.proxy = FaultProxy(self.broker.port).start()
        self.db = str(tmp_path / "host.sqlite")
        self.store = HostStore(self.db)
        self.feed = Feed(self.v, SETUP, NAMES)
        self.applied = []  # every on_event of every hub: each box event once
        self.hub = None
        self.hubs = []
        self.boxes = []
        self.real = real_ms()  # the real ms at the last loop's end
        self.start_host()

    def start_host(self):
        self.book = InstructionBook()  # the host's, as Live gives its links (a new one per life)
        self.hub = MqttHub(self.broker.url(), EVENT, KEY, EVENT, self.store, feed=self.feed,
                           clock=self.v, on_event=self.applied.append,
                           on_link=lambda link: setattr(link, "book", self.book))
        self.hubs.append(self.hub)
        return self.hub

    def stop_host(self):
        self.hub.close()
        self.store.close()
        self.hub = None

    def restart_host(self):
        """The host process (re)starts: a new hub and BoxLinks on the same store file."""
        if self.hub is not None:
            self.stop_host()
        self.store = HostStore(self.db)
        return self.start_host()

    def add_box(self, box_id="tc-01", **kw):
        b = SimBox(self, box_id, **kw)
        self.boxes.append(b)
        return b

    def replace(self, old, new):
        self.boxes[self.boxes.index(old)] = new

    def link(self, box):
        """The host's BoxLink of *box* (None before it is heard)."""
        return self.hub.links.get(box.id) if self.hub is not None else None

    def live(self, box):
        h = self.link(box)
        return box.link.state == LIVE and h is not None and h.state == "live"

    def settled(self, box):
        """Live, nothing unsent, every instruction handed to its link answered."""
        h = self.link(box)
        return (self.live(box) and not box.link.outbox
                and all(e.result is not None for e in self.book.handed.values()
                        if e.link is h))

    def instruct(self, link, body):
        """The host hands *link* an instruction (as Live does: the book, then the link)."""
        self.book.hand(link, body)
        link.send_instructions()

    def loop(self, step, nap):
        for b in self.boxes:
            b.step()
        if self.hub is not None:
            self.hub.poll(self.v.t)
        real = real_ms()
        now = time.monotonic()
        if any(b.in_flight(now) for b in self.boxes):  # module notes
            step = min(step, (real - self.real) & MASK)
        self.real = real
        self.v.t += step
        if nap:
            time.sleep(nap)

    def run(self, until, step=20, nap=0.001, real_s=REAL_S):
        """Loop until *until()*; False if it does not come within *real_s*."""
        end = time.monotonic() + real_s
        while time.monotonic() < end:
            self.loop(step, nap)
            if until():
                return True
        return False

    def spin(self, ms, step=20, nap=0.001, real_s=REAL_S):
        """Loop for *ms* of virtual time (at most *real_s* real seconds)."""
        stop = self.v.t + ms
        return self.run(lambda: self.v.t >= stop, step, nap, real_s)

    def stored(self, box):
        return [e["id"] for e in self.store.events(box.id)]

    def close(self):
        for h in self.hubs:
            h.close()
        try:
            self.store.close()
        except Exception:  # noqa: BLE001 -- closed already
            pass
        self.proxy.stop()
        self.broker.stop()


def exactly_once(rig, *boxes):
    """Every event the boxes made is in the host's store once and was
    applied (on_event) once; nothing else is there."""
    made = []
    for b in boxes:
        made += b.events()
    assert len(made) == len(set(made)), "a box made an event id twice"
    box_id = boxes[0].id
    stored = rig.stored(boxes[0])
    assert sorted(stored) == sorted(made), (sorted(set(made) - set(stored)),
                                            sorted(set(stored) - set(made)))
    applied = [m["id"] for m in rig.applied if m["from"] == box_id]
    assert sorted(applied) == sorted(made), "on_event: %s" % applied
