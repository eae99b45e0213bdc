"""The sync figures for `make bench` (issue #4 "Sync"; docs/mqtt.md): how fast a level
change reaches 50, 200 and 500 boxes over the embedded broker and over Mosquitto, how many
frames a second one host takes, how many bytes a status frame is.  bench/run.py runs this
and adds its figures to its table (results.json: ``sync``); alone it prints its own table:

    python bench/sync_bench.py [--json] [--quick] [--broker mosquitto] [--sizes 300]
                               [--levels-only] [--broker-cpu]

1. Level change -> box.  The host (tdhost.links.mqtt.MqttHub, one BoxLink per box,
   polled every 5 ms, each box's frames checked with its own key) and the broker, as
   `tdhost serve --wifi` runs it (amqtt in the host's process or /usr/sbin/mosquitto, each
   with a login per box, client id = user, and the ACL) run here; the boxes run in a second
   process (``--worker``): the firmware's own tcbox.mqtt_link.MqttLink/MqttPort over
   adafruit_minimqtt on CPython sockets with a Table each, all polled in one loop (each box
   every loop; the loop's length is reported).  The boxes come up 50, then 200, then 500
   (the worker powers up 5 a loop; the host waits up to ``UP_S`` until every BoxLink is
   live, then 2 s more); then the TD moves the level ``CHANGES`` times, 1.5 s apart.  A
   box's figure for one change is the time from the host's change (the feed's
   clock_version moves, just before a hub poll) to the first box loop whose table shows
   the new level (time.monotonic: one clock for both processes).  p50 and p99 over the
   boxes that were live at the change, all changes; a live box that never shows a change
   makes the figure MISSED; boxes that did not come up are named in the row.
   Because those boxes share one Python process (the last waits for the other 299), on
   Mosquitto the way is also cut in parts (issue #20), over ``CHANGES`` more changes
   during which the boxes' process waits (``hold``) until paho has written the frames:
   the change to each box's socket (the kernel's arrival time of the clock frame's
   packet, SO_TIMESTAMPNS), the box's own poll that shows it (its CPU time), and their sum
   plus the box's idle look (READ_EVERY_MS) as the time for boxes on their own CPUs; and
   the host's CPU for the poll that sends the change.
   Between loops the boxes' process sleeps until a box's socket has bytes (at most
   IDLE_WAIT_S), not a fixed 1 ms: idle, 300 boxes no longer spin half a core.
2. Frames per second one host handles: a second process publishes pre-signed status frames
   (of an 8-seat table mid-hand) from 200 boxes over Mosquitto (QoS 0) as fast as it can,
   4,000 in all; the figure is the frames the host's BoxLinks accepted divided by the time
   from the first to the last.  The same with event frames (each stored in SQLite and
   acknowledged) as a second row.
3. The embedded broker's own CPU (``broker_cpu``; alone ``--broker-cpu``): its thread's CPU
   for a box's frame to the host, a frame from the host to every box and a box's connect,
   with 500 box logins over raw sockets from a second process (issue #30: the goal row), and
   (``amqtt_costs``) the microseconds it spends finding one message's filters among 500
   boxes' subscriptions, and on its ACL checks.
4. Bytes per status frame: ``tableclock.protocol.encode`` of a ``status`` with the state of
   an 8- and a 10-seat table mid-hand (bets on the turn), newline included; the MQTT PUBLISH
   on the box's status topic adds the row's "+ N" bytes.

All on this 2-core machine: the host, the broker and 500 simulated boxes share two cores,
so the figures are an upper bound for real boxes, which bring their own CPUs.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT / "host_tools",):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
if str(ROOT / "firmware") not in sys.path:
    sys.path.append(str(ROOT / "firmware"))  # at the end: firmware/code.py is not stdlib's code
sys.path.append(str(ROOT / "tests" / "host"))  # vtime: the host's feed
sys.path.append(str(ROOT / "tests" / "core"))  # link_util: the stand-in App vtime uses

from vtime import Feed  # noqa: E402

from figures import figure, goal_of, report  # noqa: E402
from tableclock.protocol import HOST, Sender, box_key  # noqa: E402
from tableclock.table import Table  # noqa: E402
from tcbox.link.states import LIVE  # noqa: E402
from tcbox.mqtt_net import READ_EVERY_MS  # noqa: E402
from tdhost.links import broker as B  # noqa: E402

SYNC_GOALS = {
    "level_change": {
        "at_most": 1000, "unit": "ms",
        "why": "issue Sync: a level change reaches every connected box within one second "
               "(judged on p99 over all boxes and changes)",
    },
}
SYNC_GOALS["room_level_change"] = {
    "below": 100, "unit": "ms",
    "why": "issue #20: 300 boxes' level change p99 under 100 ms on Mosquitto (each box on "
           "its own CPU: the change to its socket + its idle look + its own poll)",
}
SYNC_GOALS["broker_frame_us"] = {
    "at_most": 650, "unit": "us",
    "why": "issue #30: with 500 boxes the embedded broker's thread spends at most this CPU on "
           "a box's frame to the host (its packet, the host's delivery, both PUBACKs); at 830-"
           "930 us the boxes' frames queued the level changes for seconds (bench/README.md)",
}
ROOM_GOAL_BOXES = 300  # the #20 goal is judged at this size; the other sizes show the growth
KEY = bytes(range(32))
EVENT = "bench"
SIZES = (50, 200, 300, 500)
CHANGES = 4
CHANGE_GAP_S = 1.5
UP_S = 25.0  # the most the boxes of one size may take to come up (live, every BoxLink)
ADD_PER_LOOP = 5  # boxes powered up per worker loop (all 500 at once would be a stampede)
HOST_POLL_S = 0.005
# the socket rows' changes: the boxes' process waits until paho has written the change's
# frames and this long more (Mosquitto's fan-out), so that its CPU is not in their way
HOLD_AFTER_S = 0.01
IDLE_WAIT_S = 0.005  # the boxes' process sleeps at most this between loops (_wait)
# 40 levels: 8 changes for each of the 4 sizes
LEVELS = [{"sb": 25 * k, "bb": 50 * k, "ante": 0, "minutes": 20} for k in range(1, 41)]
SETUP = {"profile": "lppl", "seats": 8, "players": {str(s): 5000 for s in range(1, 9)},
         "button": 1, "levels": LEVELS}
NAMES = {"names": {str(s): "Player %d" % s for s in range(1, 9)}}
MASK = (1 << 29) - 1


def box_id(i):
    return "tc-%04d" % i


def _ms():
    return time.monotonic_ns() // 1000000


def _ticks():
    return _ms() & MASK


# ------------------------------------------------------------------ the boxes (worker)
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; CPython does not name it


class _StampedPool:
    """CPython's socket module for one box, its socket asking the kernel for each
    segment's arrival time (SO_TIMESTAMPNS): ``stamps`` holds the arrival times
    (CLOCK_REALTIME ns) of the bytes each ``recv_into`` returned, oldest first."""

    AF_INET = socket.AF_INET
    SOCK_STREAM = socket.SOCK_STREAM
    timeout = socket.timeout
    getaddrinfo = staticmethod(socket.getaddrinfo)

    def __init__(self):
        self.stamps = []
        self.sock = None  # the latest socket

    def socket(self, family=socket.AF_INET, type=socket.SOCK_STREAM):
        self.sock = _StampedSock(self, socket.socket(family, type))
        return self.sock


class _StampedSock:
    def __init__(self, pool, sock):
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.pool = pool
        self.s = sock

    def settimeout(self, t):
        self.s.settimeout(t)

    def connect(self, addr):
        self.s.connect(addr)

    def send(self, buf):
        return self.s.send(buf)

    def close(self):
        self.s.close()

    def recv_into(self, buf, nbytes=0):
        view = memoryview(buf)[:nbytes or len(buf)]
        got, anc, _, _ = self.s.recvmsg_into([view], socket.CMSG_SPACE(16))
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
                sec, ns = struct.unpack("qq", data[:16])
                self.pool.stamps.append(sec * 1000000000 + ns)
        return got


class _Box:
    def __init__(self, i, port, users):
        from tcbox.mqtt_link import MqttLink, MqttPort

        bid = box_id(i)
        self.pool = _StampedPool()
        mp = MqttPort(self.pool, bid, EVENT, "127.0.0.1", port, bid, "pw-" + bid,
                      rand=lambda: (i * 37) & 0xFF, ticks=_ticks)
        self.t = Table(dict(SETUP))
        self.link = MqttLink(mp, bid, self.t, key=box_key(KEY, bid), key_id=EVENT)
        self.link.restore({"b": 1, "t": i})
        self.shown = {}  # level index: monotonic s when first shown
        self.delivered = {}  # level index: monotonic s its frame reached the box's socket
        self.handled = {}  # level index: CPU s of the box's own poll that showed it
        self.port_message = mp._message
        mp._message = self._message  # before its first connect: MiniMQTT is given this
        self.index = self.t.clock.index
        self.last = _ticks()

    def poll(self):
        now = _ticks()
        dt = (now - self.last) & MASK
        self.last = now
        t = self.link.table
        t.advance(dt)
        del self.pool.stamps[:]
        cpu0 = time.thread_time()  # its CPU, not the wait for the process's other boxes
        self.link.poll(now)
        took = time.thread_time() - cpu0
        t = self.link.table
        if t.clock.index != self.index:
            self.index = t.clock.index
            self.shown.setdefault(self.index, time.monotonic())
            self.handled.setdefault(self.index, took)

    def _message(self, client, topic, message):
        """The port's on_message, noting when a clock frame's packet reached the socket:
        the arrival of its first bytes (the poll reads one packet), per level index."""
        i = message.find(b'"level_index":')
        if i >= 0 and message.find(b'"kind":"clock"') >= 0 and self.pool.stamps:
            j = k = i + len('"level_index":')
            while message[k:k + 1].isdigit():
                k += 1
            level = int(message[j:k])
            mono = (self.pool.stamps[0] - (time.time_ns() - time.monotonic_ns())) / 1e9
            self.delivered.setdefault(level, mono)
        self.port_message(client, topic, message)


def worker(port, users):
    """Boxes on stdin's command: ``add N`` (up to N boxes), ``report`` (JSON
    of what each box showed when), ``quit``.  Polls every box each loop."""
    import selectors

    boxes = []
    want = 0
    sel = selectors.DefaultSelector()
    sel.register(sys.stdin, selectors.EVENT_READ)
    loops = 0
    loop_s = 0.0
    while True:
        if sel.select(0):
            cmd = sys.stdin.readline().split()
            if not cmd or cmd[0] == "quit":
                return
            if cmd[0] == "add":
                want = int(cmd[1])
            elif cmd[0] == "hold":  # until "go": the kernel keeps and stamps what arrives
                print("held", flush=True)
                sys.stdin.readline()
            elif cmd[0] == "report":
                print(json.dumps({"shown": [b.shown for b in boxes],
                                  "delivered": [b.delivered for b in boxes],
                                  "handled": [b.handled for b in boxes],
                                  "live": sum(1 for b in boxes if b.link.state == LIVE),
                                  "live_boxes": [b.link.state == LIVE for b in boxes],
                                  "loop_ms": round(1000 * loop_s / max(1, loops), 2)}),
                      flush=True)
                loops = 0
                loop_s = 0.0
        for _ in range(min(ADD_PER_LOOP, want - len(boxes))):  # power-ups spread out
            boxes.append(_Box(len(boxes) + 1, port, users))
        t0 = time.perf_counter()
        for b in boxes:
            b.poll()
        loops += 1
        loop_s += time.perf_counter() - t0
        if not boxes:
            time.sleep(0.01)
        else:
            _wait(boxes, IDLE_WAIT_S)


def _wait(boxes, seconds):
    """Sleep until a box's socket (or stdin) has bytes, at most *seconds*: the
    boxes' process does not spin between packets (real boxes have their own CPUs)."""
    import select

    p = select.poll()
    p.register(sys.stdin, select.POLLIN)
    for b in boxes:
        sock = b.pool.sock
        if sock is not None and sock.s.fileno() >= 0:
            p.register(sock.s, select.POLLIN)
    p.poll(seconds * 1000)


# ------------------------------------------------------------------ the host
class _Mosquitto(B.Mosquitto):
    """Mosquitto with many users: one ``mosquitto_passwd -U`` for them all."""

    def _write(self):
        passwd = os.path.join(self.dir, "passwd")
        acl = os.path.join(self.dir, "acl")
        with open(passwd, "w") as f:
            for user, password in self.users.items():
                f.write("%s:%s\n" % (user, password))
        subprocess.run([B.MOSQUITTO_PASSWD, "-U", passwd], check=True, capture_output=True)
        with open(acl, "w") as f:
            f.write(self.acl)
        with open(self.conf, "w") as f:
            f.write(B.config_text(self.port, self.host, passwd, acl))
        for p in (passwd, acl, self.conf):
            os.chmod(p, 0o600)


BLASTER_ACL = "\n# the throughput bench's publisher\nuser blaster\ntopic write tc/#\n"


def start_broker(kind, tmp, n):
    """The broker with a login per box (and the host's), as `tdhost serve --wifi`."""
    users = {"host": "host-pw", "blaster": "blast-pw"}
    for i in range(1, n + 1):
        users[box_id(i)] = "pw-" + box_id(i)
    if kind == "amqtt":
        b = B.start_embedded(users=users)
        return b, b.url_for("host")
    m = _Mosquitto(tmp, users=users, acl=B.default_acl() + BLASTER_ACL).start()
    return m, m.url_for("host")


def _hub(url, store, feed):
    from tdhost.links import mqtt

    return mqtt.MqttHub(url, EVENT, KEY, EVENT, store, feed=feed, box_keys=True)


hub_polls = [0]  # hub polls so far (_pump's)


def _pump(hub, seconds, until=None):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        hub.poll()
        hub_polls[0] += 1
        if until is not None and until():
            return True
        time.sleep(HOST_POLL_S)
    return until is None


def pct(xs, p):
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, int(round(p / 100 * len(s))) - 1))]


def _spread(name, xs):
    """{name_p50, name_p99, name_max, name_samples} of *xs* (ms)."""
    return {name + "_p50": pct(xs, 50) if xs else None, name + "_p99": pct(xs, 99) if xs else None,
            name + "_max": max(xs) if xs else None, name + "_samples": len(xs)}


def level_changes(kind, sizes=SIZES, changes=CHANGES):
    """{size: {"p50", "p99", "max", "missing", "boxes_live", "box_loop_ms", ...}}."""
    from tdhost.links.hoststore import HostStore

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        b, url = start_broker(kind, tmp, max(sizes))
        store = HostStore(os.path.join(tmp, "host.sqlite"))
        feed = Feed(_ms, SETUP, NAMES)  # real time
        hub = _hub(url, store, feed)
        w = subprocess.Popen([sys.executable, __file__, "--worker", str(b.port), "--users"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            level = 0
            for n in sizes:
                load0 = os.getloadavg()[0]
                t_up = time.monotonic()
                w.stdin.write("add %d\n" % n)
                w.stdin.flush()
                live = _pump(hub, UP_S, lambda n=n: sum(
                    1 for ln in hub.links.values() if ln.state == "live") >= n)
                up_s = time.monotonic() - t_up
                _pump(hub, 2.0)  # the fast pings after each config are done
                cpu0, polls0 = time.thread_time(), hub_polls[0]
                _pump(hub, 0.5)
                idle_ms = (time.thread_time() - cpu0) * 1000 / max(1, hub_polls[0] - polls0)
                w.stdin.write("report\n")
                w.stdin.flush()
                before = json.loads(w.stdout.readline())
                marks = []  # (level, t0): the changes the boxes take in turn
                held = []  # (level, t0): the changes made while the boxes' process waits
                host_ms = []  # the host's poll that sends the change: its length
                host_cpu_ms = []  # that poll's CPU time (its thread's)
                proc_ms = []  # the host process's CPU time meanwhile (paho's thread too)
                for k in range(2 * changes):
                    if k >= changes:  # the boxes' process sleeps through this change
                        w.stdin.write("hold\n")
                        w.stdin.flush()
                        assert w.stdout.readline().strip() == "held"
                    level += 1
                    feed.level(level)
                    t0 = time.monotonic()
                    cpu0 = time.thread_time()
                    proc0 = time.process_time()
                    (held if k >= changes else marks).append((level, t0))
                    hub.poll()
                    host_ms.append((time.monotonic() - t0) * 1000)
                    host_cpu_ms.append((time.thread_time() - cpu0) * 1000)
                    proc_ms.append((time.process_time() - proc0) * 1000)
                    if k >= changes:  # paho has written every frame: the boxes go on
                        _pump(hub, CHANGE_GAP_S, lambda: not hub.client._out_packet)
                        time.sleep(HOLD_AFTER_S)
                        w.stdin.write("go\n")
                        w.stdin.flush()
                    _pump(hub, CHANGE_GAP_S - (time.monotonic() - t0))
                w.stdin.write("report\n")
                w.stdin.flush()
                rep = json.loads(w.stdout.readline())
                lat = []
                sock = []  # the change to the box's socket (host + broker)
                own = []  # the change to the socket + the box's own poll showing it
                took = []  # the box's own poll showing it
                missing = 0
                for i, shown in enumerate(rep["shown"][:n]):
                    if i >= len(before["live_boxes"]) or not before["live_boxes"][i]:
                        continue  # not powered up or not connected when the TD changed it
                    for lv, t0 in marks + held:
                        t = shown.get(str(lv))
                        if t is None:
                            missing += 1
                            continue
                        if (lv, t0) in marks:
                            lat.append((t - t0) * 1000)
                            continue
                        d = rep["delivered"][i].get(str(lv))
                        h = rep["handled"][i].get(str(lv))
                        if d is not None and h is not None:
                            sock.append((d - t0) * 1000)
                            took.append(h * 1000)
                            own.append((d - t0 + h) * 1000 + READ_EVERY_MS)
                out[n] = {"boxes_live": before["live"], "all_live": live, "missing": missing,
                          "p50": pct(lat, 50) if lat else None,
                          "p99": pct(lat, 99) if lat else None,
                          "max": max(lat) if lat else None, "samples": len(lat),
                          **_spread("socket", sock), **_spread("own", own),
                          **_spread("handling", took),
                          "host_poll_ms": [round(x, 1) for x in host_ms],
                          "host_cpu_ms": [round(x, 1) for x in host_cpu_ms],
                          "host_idle_poll_ms": round(idle_ms, 2),
                          "host_proc_cpu_ms": [round(x, 1) for x in proc_ms],
                          "box_loop_ms": rep["loop_ms"], "box_loop_ms_before": before["loop_ms"],
                          "hub_lost": hub.lost, "links": len(hub.links),
                          "up_s": round(up_s, 1),
                          "load_avg": [round(load0, 1), round(os.getloadavg()[0], 1)]}
        finally:
            try:
                w.stdin.write("quit\n")
                w.stdin.flush()
                w.wait(20)
            except (OSError, subprocess.TimeoutExpired):
                w.kill()
            hub.close()
            store.close()
            b.stop()
    return out


# ------------------------------------------------------------------ host throughput
def mid_hand(seats):
    """A table of *seats* players mid-hand: bets on the flop and the turn."""
    t = Table({"profile": "lppl", "seats": seats,
               "players": {str(s): 5000 + 25 * s for s in range(1, seats + 1)},
               "button": 1, "levels": LEVELS})
    t.handle({"do": "hand"})
    while t.state()["street"] == "preflop":
        t.handle({"do": "call"} if t.state()["to_call"] else {"do": "check"})
    for _ in range(2):
        st = t.state()
        t.handle({"do": "bet", "to": st["min_raise_to"]})
        while t.state()["street"] == st["street"] and t.state()["action"] is not None:
            t.handle({"do": "call"})
    return t


def status_frame(seats, sender="tc-0001", seq=1):
    t = mid_hand(seats)
    return Sender(box_key(KEY, sender), sender, 1).encode(
        {"kind": "status", "state": t.state(), "table": 12}, HOST)


def blaster(port, kind, boxes, total):
    """Publish *total* pre-signed frames (*kind*: status or event) from *boxes*
    boxes round-robin, QoS 0, as fast as paho takes them."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    st = mid_hand(8).state()
    senders = [Sender(box_key(KEY, box_id(i)), box_id(i), 1) for i in range(1, boxes + 1)]
    frames = []
    for k in range(total):
        i = k % boxes
        s = senders[i]
        if kind == "status":
            msg = {"kind": "status", "state": st, "table": i + 1}
            leaf = "status"
        else:
            msg = {"kind": "event", "id": "1-%d" % (k // boxes + 1), "what": "away",
                   "seat": 1 + k % 8}
            leaf = "out"
        frames.append(("tc/%s/box/%s/%s" % (EVENT, box_id(i + 1), leaf), s.encode(msg, HOST)))
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="blaster")
    c.username_pw_set("blaster", "blast-pw")
    c.max_queued_messages_set(0)
    c.connect("127.0.0.1", port)
    c.loop_start()
    print("ready", flush=True)
    sys.stdin.readline()
    for topic, f in frames:
        c.publish(topic, f, qos=0)
    time.sleep(1.0)
    c.disconnect()
    c.loop_stop()


def throughput(kind, boxes=200, total=8000):
    """Frames per second the host's BoxLinks accept (Mosquitto)."""
    from tdhost.links.hoststore import HostStore

    with tempfile.TemporaryDirectory() as tmp:
        m, url = start_broker("mosquitto", tmp, 0)
        store = HostStore(os.path.join(tmp, "host.sqlite"))
        hub = _hub(url, store, None)
        w = subprocess.Popen([sys.executable, __file__, "--blast", str(m.port), kind,
                              str(boxes), str(total)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        try:
            assert w.stdout.readline().strip() == "ready"
            _pump(hub, 10, lambda: hub.connected)
            w.stdin.write("go\n")
            w.stdin.flush()
            first = None
            end = time.monotonic() + 60

            def accepted():
                return sum(ln.rx.accepted for ln in hub.links.values())

            while time.monotonic() < end:
                hub.poll()
                n = accepted()
                if n and first is None:
                    first = time.monotonic()
                if n >= total:
                    break
                time.sleep(0.001)
            last = time.monotonic()
            n = accepted()
            return {"frames": n, "of": total, "seconds": round(last - (first or last), 3),
                    "per_s": n / (last - first) if first and last > first else None,
                    "lost": hub.lost, "links": len(hub.links),
                    "events_stored": len(store.events()) if kind == "event" else None}
        finally:
            try:
                w.wait(20)
            except subprocess.TimeoutExpired:
                w.kill()
            hub.close()
            store.close()
            m.stop()


# ------------------------------------------------------------------ the embedded broker's CPU
CPU_BOXES = 500
CPU_FRAMES = 4  # QoS 1 frames each box sends the host
CPU_CHANGES = 4  # QoS 1 frames the host sends each box (a level change each)


def _mqtt(kind, body):
    n, out = len(body), bytearray()
    while True:
        n, digit = n >> 7, n & 0x7F
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes([kind]) + bytes(out) + body


def _utf8(text):
    b = text.encode()
    return struct.pack("!H", len(b)) + b


def _connect_packet(user, password):
    return _mqtt(0x10, _utf8("MQTT") + bytes([4, 0xC2]) + struct.pack("!H", 60) + _utf8(user)
                 + _utf8(user) + _utf8(password))


def _publish_packet(topic, pid, payload):
    return _mqtt(0x32, _utf8(topic) + struct.pack("!H", pid) + payload)


async def _cpu_clients(port, n, frames, changes):
    """The ``broker_cpu`` clients (a second process): the host and *n* boxes over raw
    sockets, each phase said on stdout when it begins."""
    import asyncio

    async def packet(r):
        head = await r.readexactly(1)
        length, shift = 0, 0
        while True:
            b = (await r.readexactly(1))[0]
            length |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        return head[0], await r.readexactly(length)

    def pid_of(body):
        return body[2 + struct.unpack("!H", body[:2])[0]:][:2]

    host_r, host_w = await asyncio.open_connection("127.0.0.1", port)
    host_w.write(_connect_packet("host", "host-pw"))
    await packet(host_r)
    host_w.write(_mqtt(0x82, struct.pack("!H", 1) + _utf8("tc/%s/box/+/out" % EVENT) + b"\x01"))
    await packet(host_r)
    heard = [0]

    async def host_reads():
        while True:
            kind, body = await packet(host_r)
            if kind >> 4 == 3:
                host_w.write(b"\x40\x02" + pid_of(body))
                heard[0] += 1

    reading = asyncio.create_task(host_reads())
    print("connect", flush=True)
    boxes = []
    for i in range(1, n + 1):
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(_connect_packet(box_id(i), "pw-" + box_id(i)))
        await packet(r)
        w.write(_mqtt(0x82, struct.pack("!H", 1) + _utf8("tc/%s/box/%s/in" % (EVENT, box_id(i)))
                      + b"\x01"))
        await packet(r)
        boxes.append((i, r, w))
    print("frames", flush=True)
    payload = b"x" * 300

    async def send(i, r, w):
        for k in range(1, frames + 1):
            w.write(_publish_packet("tc/%s/box/%s/out" % (EVENT, box_id(i)), k, payload))
            await packet(r)  # its PUBACK

    await asyncio.gather(*(send(*b) for b in boxes))
    while heard[0] < n * frames:
        await asyncio.sleep(0.01)
    print("changes", flush=True)

    async def receive(i, r, w):
        for _ in range(changes):
            _, body = await packet(r)
            w.write(b"\x40\x02" + pid_of(body))

    receiving = [asyncio.create_task(receive(*b)) for b in boxes]
    for k in range(changes):
        for i, _, _ in boxes:
            host_w.write(_publish_packet("tc/%s/box/%s/in" % (EVENT, box_id(i)),
                                         (k * n + i) % 65535 + 1, payload))
        await host_w.drain()
    await asyncio.gather(*receiving)
    print("end", flush=True)
    reading.cancel()


def broker_cpu(n=CPU_BOXES, frames=CPU_FRAMES, changes=CPU_CHANGES):
    """The embedded broker's own CPU (its thread's, so that other load on the machine
    matters little) for *n* box logins: a connect and subscribe each, *frames* QoS 1 frames
    from each box to the host, then *changes* QoS 1 frames from the host to every box.
    {"connect_ms": per box, "frame_us": per box frame, "change_ms": per change to all}."""
    import threading

    users = {"host": "host-pw", **{box_id(i): "pw-" + box_id(i) for i in range(1, n + 1)}}
    b = B.start_embedded(users=users)
    try:
        def cpu():
            got, done = [], threading.Event()
            b._loop.call_soon_threadsafe(lambda: (got.append(time.thread_time()), done.set()))
            if not done.wait(60):
                raise RuntimeError("the broker's loop did not answer within 60 s")
            return got[0]

        p = subprocess.Popen([sys.executable, __file__, "--cpu-clients", str(b.port), str(n),
                              str(frames), str(changes)], stdout=subprocess.PIPE, text=True)
        marks = {}
        for line in p.stdout:
            marks[line.strip()] = cpu()
        if p.wait(120) != 0 or "end" not in marks:
            raise RuntimeError("the clients stopped (exit %s)" % p.returncode)
    finally:
        b.stop()
    return {"connect_ms": (marks["frames"] - marks["connect"]) * 1000 / n,
            "frame_us": (marks["changes"] - marks["frames"]) * 1e6 / (n * frames),
            "change_ms": (marks["end"] - marks["changes"]) * 1000 / changes}


# ------------------------------------------------------------------ why amqtt falls behind
def amqtt_costs(n=500, rounds=2000):
    """Microseconds the embedded broker spends on one message with *n* boxes subscribed:
    finding the filters it matches (tdhost.links.brokerfanout: its topic looked up, the
    wildcard filters tried; amqtt 0.12.1 tried all of them, about 120 us), and the ACL
    checks (publish + one delivery), in the broker's own code, no network."""
    import asyncio

    from amqtt.contexts import Action
    from amqtt.session import Session

    from tdhost.links.broker import Limits
    from tdhost.links.brokerauth import Guarded

    async def run():
        users = {"host": "h", **{box_id(i): "p" for i in range(1, n + 1)}}
        b = Guarded({"listeners": {"default": {"type": "tcp", "bind": "127.0.0.1:0"}},
                     "plugins": {"tdhost.links.brokerauth.Logins": {"users": users}}},
                    limits=Limits())
        host = Session()
        host.username = host.client_id = "host"
        for leaf in ("out", "status", "presence"):
            await b.add_subscription(("tc/%s/box/+/%s" % (EVENT, leaf), 1), host)
        for i in range(1, n + 1):
            box = Session()
            box.username = box.client_id = box_id(i)
            await b.add_subscription(("tc/%s/box/%s/in" % (EVENT, box_id(i)), 1), box)
        topic = "tc/%s/box/%s/status" % (EVENT, box_id(1))
        s = Session()
        s.username = s.client_id = box_id(1)
        t0 = time.perf_counter()
        for _ in range(rounds):
            b.filters_for(topic)
        match = (time.perf_counter() - t0) / rounds * 1e6
        t0 = time.perf_counter()
        for _ in range(rounds):
            await b._topic_filtering(s, topic, Action.PUBLISH)
            await b._topic_filtering(s, topic, Action.RECEIVE)
        return match, (time.perf_counter() - t0) / rounds * 1e6

    return asyncio.run(run())


# ------------------------------------------------------------------ figures
def room_rows(n, r, who, name) -> list:
    """Mosquitto's rows for *n* boxes beside the one-process row: the change to each box's
    socket, that plus the box's own look and poll (issue #20's goal at ROOM_GOAL_BOXES),
    the box's own poll, the host's CPU for the change (bench/README.md, "Sync over MQTT")."""
    goal = goal_of(SYNC_GOALS, "room_level_change") if n == ROOM_GOAL_BOXES else None
    rows = [
        figure("socket_mosquitto_%d_p99" % n, "level change -> %s' sockets (host + %s): p99"
               % (who, name), r["socket_p99"], "ms", error="no change reached a socket"),
        figure("room_mosquitto_%d_p99" % n, "level change -> %s, each on its own CPU "
               "(socket + %d ms look + own poll), %s: p99" % (who, READ_EVERY_MS, name),
               r["own_p99"], "ms", goal, error="no change reached a socket"),
        figure("box_poll_mosquitto_%d_p99" % n, "one box's poll that shows the change (%s, "
               "one process): p99" % who, r["handling_p99"], "ms",
               error="no change shown", digits=1),
        figure("host_change_cpu_%d" % n, "host: CPU of the poll that sends a level change "
               "to %s (max of %d)" % (who, len(r["host_cpu_ms"])),
               max(r["host_cpu_ms"]) if r["host_cpu_ms"] else None, "ms", digits=1),
    ]
    if r["missing"]:
        rows[1]["status"] = "MISSED"
        rows[1]["name"] += " (%d changes never shown)" % r["missing"]
    return rows


def measure(quick=False, brokers=("amqtt", "mosquitto"), sizes=None, levels_only=False) -> dict:
    import logging

    # amqtt 0.12.1 iterates a dict that another client's connect changes (a RuntimeError
    # in its connection handler, logged by asyncio): that client connects again
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    sizes = sizes or ((20, 50) if quick else SIZES)
    figs = []
    details: dict = {"boxes": "the firmware's MqttLink/MqttPort over adafruit_minimqtt, in "
                              "one worker process", "changes": CHANGES}
    t0 = time.perf_counter()
    for kind in brokers:
        name = "embedded amqtt" if kind == "amqtt" else "Mosquitto"
        name += " (logins, ACL)"
        try:
            res = level_changes(kind, sizes, 2 if quick else CHANGES)
        except B.MosquittoMissing as e:
            figs.append(figure("level_%s" % kind, "level change -> boxes, %s" % name, None,
                               "ms", error=str(e)))
            continue
        except Exception as e:  # noqa: BLE001 -- a failed measurement is reported
            figs.append(figure("level_%s" % kind, "level change -> boxes, %s" % name, None,
                               "ms", error="%s: %s" % (type(e).__name__, e)))
            continue
        details["level_" + kind] = res
        for n in sizes:
            r = res[n]
            live = r["boxes_live"]
            who = "%d boxes" % n if live == n else "%d of %d boxes up" % (live, n)
            for p in ("p50", "p99"):
                f = figure("level_%s_%d_%s" % (kind, n, p),
                           "level change -> %s (one process), %s: %s" % (who, name, p), r[p],
                           "ms",
                           goal_of(SYNC_GOALS, "level_change"), error="no box came up")
                if r["missing"] or not live:  # the run worked; the boxes or broker did not
                    f["status"] = "MISSED"
                    if r["missing"]:
                        f["name"] += " (%d changes never shown)" % r["missing"]
                    f.pop("error", None)
                figs.append(f)
            if kind == "mosquitto":
                figs += room_rows(n, r, who, name)
    if levels_only:
        details["seconds"] = round(time.perf_counter() - t0, 1)
        return {"goals": SYNC_GOALS, "figures": figs, "details": details}
    try:
        c = broker_cpu(CPU_BOXES // 10 if quick else CPU_BOXES)
        details["broker_cpu"] = {k: round(v, 1) for k, v in c.items()}
        boxes = CPU_BOXES // 10 if quick else CPU_BOXES
        figs.append(figure("broker_frame_us_%d" % boxes, "embedded broker's own CPU: a box's "
                           "frame to the host, %d boxes (QoS 1, both PUBACKs)" % boxes,
                           c["frame_us"], "us", goal_of(SYNC_GOALS, "broker_frame_us")))
        figs.append(figure("broker_change_ms_%d" % boxes, "embedded broker's own CPU: one "
                           "frame from the host to each of %d boxes" % boxes, c["change_ms"],
                           "ms"))
        figs.append(figure("broker_connect_ms_%d" % boxes, "embedded broker's own CPU: one "
                           "box's connect and subscribe, up to %d boxes" % boxes,
                           c["connect_ms"], "ms", digits=1))
    except Exception as e:  # noqa: BLE001 -- a failed measurement is reported
        figs.append(figure("broker_frame_us_%d" % CPU_BOXES, "embedded broker's own CPU: a "
                           "box's frame to the host", None, "us",
                           error="%s: %s" % (type(e).__name__, e)))
    try:
        match_us, acl_us = amqtt_costs()
        details["amqtt_500"] = {"match_us": round(match_us), "acl_us": round(acl_us)}
        figs.append(figure("amqtt_match_us_500", "embedded amqtt: one message's filters found"
                           " among 500 boxes' subscriptions", match_us, "us", digits=1))
        figs.append(figure("amqtt_acl_us", "embedded amqtt: the ACL checks of one message",
                           acl_us, "us"))
    except Exception as e:  # noqa: BLE001 -- a failed measurement is reported
        figs.append(figure("amqtt_match_us_500", "embedded amqtt: one message matched against"
                           " 500 boxes' subscriptions", None, "us",
                           error="%s: %s" % (type(e).__name__, e)))
    for kind in ("status", "event"):
        try:
            r = throughput(kind, 40 if quick else 200, 2000 if quick else 4000)
        except Exception as e:  # noqa: BLE001
            r = {"per_s": None, "error": "%s: %s" % (type(e).__name__, e)}
        details["throughput_" + kind] = r
        figs.append(figure("host_%s_per_s" % kind, "host: %s frames handled per second"
                           % kind, r.get("per_s"), "/s", error=r.get("error")))
    topic = len("tc/ev1-k1/box/tc-0123456789ab/status")
    for seats in (8, 10):
        f = status_frame(seats, "tc-0123456789ab")
        figs.append(figure("status_bytes_%d" % seats, "status frame, %d seats mid-hand (MQTT "
                           "PUBLISH + %d)" % (seats, topic + 4), len(f), "B"))
        details["status_%d" % seats] = len(f)
    details["seconds"] = round(time.perf_counter() - t0, 1)
    return {"goals": SYNC_GOALS, "figures": figs, "details": details}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the results as one JSON line")
    ap.add_argument("--quick", action="store_true", help="20 and 50 boxes, fewer frames")
    ap.add_argument("--broker", choices=("amqtt", "mosquitto"), action="append",
                    help="only this broker's level-change rows (may repeat; default both)")
    ap.add_argument("--sizes", help="box counts, e.g. 50,200,300,500 (default: all)")
    ap.add_argument("--levels-only", action="store_true",
                    help="only the level-change rows (no throughput, amqtt costs, bytes)")
    ap.add_argument("--broker-cpu", action="store_true",
                    help="only the embedded broker's own CPU at 500 boxes (about 30 s)")
    ap.add_argument("--cpu-clients", nargs=4, type=int, help=argparse.SUPPRESS)
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--users", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--blast", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.users)
        return 0
    if args.cpu_clients:
        import asyncio

        asyncio.run(_cpu_clients(*args.cpu_clients))
        return 0
    if args.broker_cpu:
        c = broker_cpu()
        f = figure("broker_frame_us_%d" % CPU_BOXES, "embedded broker's own CPU: a box's frame"
                   " to the host, %d boxes" % CPU_BOXES, c["frame_us"], "us",
                   goal_of(SYNC_GOALS, "broker_frame_us"))
        return report({"goals": SYNC_GOALS, "figures": [f], "details": {"broker_cpu": c}},
                      args.json, "change %.0f ms, connect %.1f ms" % (c["change_ms"],
                                                                     c["connect_ms"]))
    if args.blast:
        port, kind, boxes, total = args.blast
        blaster(int(port), kind, int(boxes), int(total))
        return 0
    sizes = tuple(int(x) for x in args.sizes.split(",")) if args.sizes else None
    res = measure(args.quick, tuple(args.broker or ("amqtt", "mosquitto")), sizes,
                  args.levels_only)
    return report(res, args.json, "%s s" % res["details"].get("seconds"))


if __name__ == "__main__":
    sys.exit(main())
