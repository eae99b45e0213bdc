"""The scale drill: 300 tables on an external Mosquitto, under faults, in one process
(`make scale`; issue #7 "Scale": "an external Mosquitto (or EMQX) with per-box credentials
and ACLs, the host pointed at it by URL; tested here with Mosquitto and 300 simulated boxes
in one process (lightweight, sharing the virtual clock)", "fault drills up to 300 tables";
docs/demo.md §8, docs/mqtt.md "Brokers").

    result = run_scale(tables=300, seed=1)      # result["ok"], result["checks"], figures
    python -m tcsim.scale [--tables 300] [--seed 1] [--minutes 18] [--json]

What runs, in this process on the room's virtual clock (tcsim.room.Room):

- **the broker**: /usr/sbin/mosquitto as docs/mqtt.md deploys it for a big event
  (``tdhost.links.broker.Mosquitto``, what ``start_mosquitto`` starts): no anonymous clients, one
  user per box named by its box id and one for the host, each with its own password, and
  the ``%u`` ACL (``tdhost.links.broker.default_acl``, the rules of docs/mosquitto/acl); plus
  ``set_tcp_nodelay true`` (NODELAY below: wall time only);
- **the host**: ``tdhost.live.night.Live`` on a temporary league file, its
  ``tdhost.links.mqtt.MqttHub``
  pointed at the broker by URL with the host's user and password (as ``tdhost serve --mqtt
  mqtt://host:PASSWORD@127.0.0.1:PORT``);
- **the tournament**: N tables of 8 seats (a TOML file like docs/examples/us_free.toml,
  ``max_players`` 8N - 3), every player registered, drawn and started through ``Live.act``;
- **the boxes**: N lightweight boxes (``tcsim.room.Box``, lazy screens), each paired for
  Wi-Fi/MQTT with its own broker password (its user is its box id), so the firmware's
  MqttLink over adafruit_minimqtt talks to Mosquitto; MQTT steps with the room through
  tcsim.nightnet (``MosquittoNet`` below: nightnet's ``Net`` with the per-box passwords, one
  pump per step, and a broker restart that stops and starts the same Mosquitto);
- **the dealers** (:class:`ScaleDealer`, tcsim.nightbots' LeagueDealer) play and confirm
  every instruction shown at once (a TD's bust comes as a ``take_out`` of the seat).

**The drill** (``plan_for(minutes)``): the TD moves the level (the figure: virtual and wall
time until the last box shows it), busts players in waves through ``Live.act("bust")`` (two
at a time from a table, so balancing moves players and tables break), the Wi-Fi of 10 % of
the tables drops for 10 minutes, Mosquitto restarts once (stopped and started on its port
with the same files), the host is killed (``kill -9``: nothing closed) and starts again on
the same files, the TD moves the level again once every box is back; at *minutes* the
dealers deal no new hand, and the room runs until everything is settled (at most 5 minutes).

**The checks** (``result["checks"]``, each with what it found): every box LIVE, and its link
live at the host; no instruction pending (the league's, or on a box); every box's seats are
the league's seating (the same seats taken, the same names -- those of the host's last
``seating`` and the ``receive`` instructions carried out since, :class:`Names` -- every stack
positive); chips conserved (the boxes' stacks plus what left play at the boxes -- the
players the TD busted -- equal the chips entered); every box's clock within 1 s of the
host's; each box event applied once (night.py's ``exactly_once``); every level change shown
on every box.  The CLI prints them with the figures and exits 1 when one fails.

The faults come at fixed moments of virtual time, not where a clean run shows they change
nothing (as ``make faults`` places them): the drill checks that everything ends consistent,
not that it ends as a clean run would.
"""

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time

from tableclock.protocol import BOX_KEYS, box_key
from tdhost.league.refusal import ActionRefused
from tdhost.links.hoststore import HostStore
from tdhost.live import instructions as _ins, plan as _plan
from tdhost.live.night import Live

from .nightbots import LeagueDealer
from .room import Room, provision

KEY = bytes(range(40, 72))  # the event key the boxes are paired with
KEY_ID = "scale"
SEATS = 8
TABLES_MAX = 1000  # tdhost.links.mqtt.BOXES_MAX is 1,024
SPARE = 3  # seats left free: max_players = 8N - SPARE
STACK = 5000
START_MS = 1_741_464_000_000  # 2025-03-08 20:00 UTC: the room powers up
STEP_MS = 100  # each box's loop runs every 100 ms of virtual time
HOST_EVERY = 2  # the host polls (and MQTT is pumped) every other step
MIN = 60000
LINK_WAIT_MS = 120000  # every box LIVE this soon after the last one powered up
HOST_DOWN_MS = 5000  # a killed host is back this much later
WIFI_SHARE = 10  # percent of the tables whose Wi-Fi drops
CLOCK_MS = 1000  # a box's clock at most this far from the host's at the end
CLOSING_PACE = 0.25  # the dealers' think times once no new hand is dealt (a hand of eight
#                      took up to 10 virtual minutes at the real pace)
SETTLE_MS = 5 * MIN  # the most the room may take to settle after the plan
MINUTES = 16  # the full drill's play (about 18 virtual minutes with the settling): at 300
#               tables 25 minutes took 10 min 14 s of wall time here, over the 10 wanted
BOARDS = ("compact", "table")
# Mosquitto holds a small packet back while the previous one is unacknowledged (Nagle's
# algorithm) unless told not to.  In the pump's lock-step each packet held back cost the step
# a delayed ack (40 ms of wall time): the 12-table drill took 8.0 s per virtual minute
# without this line, 1.3 s with it.  Real boxes do not wait for each other: the line changes
# this drill's wall time, not what a box sees.
NODELAY = "set_tcp_nodelay true\n"


class DrillError(RuntimeError):
    """The drill could not run (no Mosquitto, the boxes did not link...)."""


# ---------------------------------------------------------------- the tournament
def toml_text(tables, minutes=15):
    """A tournament of *tables* 8-seat tables (profile us_free, like
    docs/examples/us_free.toml), ``max_players`` 8 * tables - SPARE."""
    levels = "".join("[[levels]]\nsb = %d\nbb = %d\nminutes = %d\n\n" % (25 * k, 50 * k, minutes)
                     for k in (1, 2, 3, 4, 6, 8, 10, 15, 20, 30))
    return ("[league]\nname = \"Scale drill\"\n\n[tournament]\nname = \"%d tables\"\n"
            "date = 2025-03-08\nprofile = \"us_free\"\nseats_per_table = %d\n"
            "max_players = %d\nstandby = 0\nstarting_stack = %d\n\n%s"
            "[points]\nformula = \"sqrt\"\n" % (tables, SEATS, players_for(tables),
                                                STACK, levels))


def players_for(tables):
    return SEATS * tables - SPARE


def new_league(db, toml_path):
    """The league file *db* with the tournament of *toml_path* (``tdhost new``)."""
    from tdhost import tfile
    from tdhost.league import store as _store, times as _times, transaction

    setup, text = tfile.load(toml_path)
    store = _store.Store(db, create=True)
    try:
        transaction.append(store, lambda lg, seq: ([(1, "new", {
            "setup": setup, "file": os.path.basename(toml_path), "toml": text}, None)], None),
            _times.iso(_times.now()))
    finally:
        store.close()
    return setup


def names(n):
    return ["Player %04d" % (i + 1) for i in range(n)]


# ---------------------------------------------------------------- MQTT on Mosquitto
def mosquitto_net(tmp, box_ids, seed):
    """Mosquitto with a user per box and the host (random passwords), and nightnet's Net
    on it; returns (net, broker, passwords)."""
    from tdhost.links.broker import Mosquitto

    from .nightnet import Net

    rng = random.Random("mosquitto/%s" % seed)
    users = {u: "%016x" % rng.getrandbits(64) for u in ["host"] + list(box_ids)}
    broker = Mosquitto(tmp, users=users)  # start_mosquitto(tmp, users=users), and NODELAY
    with open(broker.conf, "a") as f:
        f.write(NODELAY)
    broker.start()

    class MosquittoNet(Net):
        """nightnet's Net on Mosquitto: each box's settings carry its own password (its
        user is its box id, the firmware's default); a restart stops the same mosquitto
        process and starts it again on its port with its files (passwords, ACL)."""

        def settings(self, box_id=None, ssid="scale-room"):
            s = Net.settings(self, ssid)
            s["mqtt_password"] = users[box_id]
            return s

        def transport(self, name):
            """The first box's transport pumps; the others' ``sync`` does nothing: one
            pump settles every box's frames (Net's pump looks at all of them, and with a
            pump per box a room step cost 300 x 300 looks)."""
            t = Net.transport(self, name)
            if len(self.boxes) > 1:
                t.sync = _settled
            return t

    net = MosquittoNet(broker, restart=lambda port: broker.start())
    return net, broker, users


def _settled():
    return True


# ---------------------------------------------------------------- the dealers
class ScaleDealer(LeagueDealer):
    """The league night's dealer (tcsim.nightbots.LeagueDealer: betting that gets bolder
    as the blinds rise, showdowns, players away, clocks called, misclicks) with the drill's
    instruction policy: every instruction shown is confirmed at once -- the host sends a
    ``receive`` only once the player has left the old table (protocol 1.2), and a TD's
    bust comes as a ``take_out`` the box carries out itself (1.3) -- and once ``closing``,
    no new hand is dealt.  (LeagueDealer's turn with its own ``_ready`` and ``_chores``:
    the night's walk-over wait for a receive is not the drill's.)"""

    def __init__(self, box, seed=1):
        LeagueDealer.__init__(self, box, seed=seed)  # its own Floor: nobody walks over
        self.closing = False
        self.taken_out = 0  # take_outs confirmed

    def _ready(self, ins):
        """Every instruction at once."""
        return True

    def _confirmed(self, ins):
        """Counts the take_outs (the night's floor check of arrivals is not the drill's)."""
        if isinstance(ins, dict) and ins.get("action") == "take_out":
            self.taken_out += 1

    def _chores(self, st):
        """Once ``closing``, deal no new hand."""
        if st["street"] is None and self.closing:
            self.idle(5)
            return "closed"
        return None

    def misclick(self, what):
        """RoomNight's misclick, whose check (the table unchanged by the refused press)
        cannot hold when the host's level change lands during the 700 ms press: then the
        press is counted, not checked."""
        index = self.sim.table.clock.index
        try:
            LeagueDealer.misclick(self, what)
        except AssertionError:
            if self.sim.table.clock.index == index:
                raise
            self._count("misclick during a level change")


# ---------------------------------------------------------------- what each box was told
class Names:
    """The names a box holds for its seats: those of the host's last ``seating``, then the
    ``name`` of each ``receive`` it carried out (tcbox.linkhost.seating and tcbox.orders
    wrapped while the drill runs; nothing they do changes).  ``told[box id]``: the last few
    of them, (room clock ms, "seating" or "receive", seats) -- for a failure's detail."""

    def __init__(self, clock):
        self.clock = clock
        self.at = {}  # box id -> {seat (int): name}
        self.later = {}  # (box id, instruction id) -> name of a receive done after the hand
        self.told = {}
        self._saved = None

    def _note(self, box, what, seats):
        t = self.told.setdefault(box, [])
        t.append((self.clock(), what, seats))
        del t[:-6]

    def install(self):
        from tcbox import linkhost, orders

        from .stubs import _world

        seating, carry_out, settle = linkhost.seating, orders.carry_out, orders.settle
        self._saved = (seating, carry_out, settle)
        me = self

        def seated(link, msg):
            seating(link, msg)
            if isinstance(msg.get("names"), dict):
                box = _world.current().name
                me.at[box] = {int(k): v for k, v in msg["names"].items() if str(k).isdigit()}
                me._note(box, "seating", sorted(me.at[box]))

        def sat(box, seat, name):
            me.at.setdefault(box, {})[seat] = name
            me._note(box, "receive", [seat])

        def carried(t, ins):
            res = carry_out(t, ins)
            if isinstance(ins, dict) and ins.get("action") == "receive":
                box = _world.current().name
                if res[0] == orders.DONE:
                    sat(box, ins.get("seat"), ins.get("name"))
                elif res[0] == orders.LATER:
                    me.later[(box, ins.get("id"))] = ins.get("name")
            return res

        def settled(t):
            waiting = [list(m) for m in t.moves]
            out = settle(t)
            box = _world.current().name
            for m, r in zip(waiting, out):  # r: (instruction id, result, reason, ...)
                name = me.later.pop((box, r[0]), None)
                if r[1] == orders.DONE and m[1] == orders.IN and name is not None:
                    sat(box, m[2], name)
            return out

        linkhost.seating, orders.carry_out, orders.settle = seated, carried, settled

    def uninstall(self):
        if self._saved is not None:
            from tcbox import linkhost, orders

            linkhost.seating, orders.carry_out, orders.settle = self._saved
            self._saved = None


# ---------------------------------------------------------------- the plan
def plan_for(minutes):
    """The drill's moments, in virtual ms after "shuffle up and deal": (at, what, arg).
    *minutes*: when the dealers stop dealing new hands (the room then settles, at most
    SETTLE_MS more).  From 16 minutes on, the full drill: level change at 1:00, the TD's
    busts at 2:00, 5:00 and 11:00, the Wi-Fi of 10 % of the tables down from 3:00 to 13:00,
    Mosquitto restarted at 7:00, the host killed at 9:00, the second level change once
    every box is back (from 14:00).  From 4 to 16 minutes the reduced drill (the test),
    scaled from 6 minutes: level 0:30, busts 1:00 and 3:00, a 2-minute Wi-Fi drop from
    1:15, broker restart 1:45, host kill 2:15, level once every box is back (from 3:30)."""
    if minutes < 4:
        raise ValueError("a drill needs at least 4 virtual minutes")
    close = int(minutes * MIN)
    if minutes >= 16:
        return [(1 * MIN, "level", None), (2 * MIN, "busts", 1), (3 * MIN, "wifi_down", 10 * MIN),
                (5 * MIN, "busts", 2), (7 * MIN, "broker_restart", None),
                (9 * MIN, "host_kill", None), (11 * MIN, "busts", 3),
                (14 * MIN, "level_when_back", None), (close, "close", None)]
    f = minutes / 6.0
    at = lambda m: int(m * f * MIN)  # noqa: E731
    return [(at(0.5), "level", None), (at(1), "busts", 1), (at(1.25), "wifi_down", at(2)),
            (at(1.75), "broker_restart", None), (at(2.25), "host_kill", None),
            (at(3), "busts", 2), (at(3.5), "level_when_back", None), (close, "close", None)]


# ---------------------------------------------------------------- the drill
class Drill:
    """The room, the broker, the host and the plan (module notes); ``run_scale`` drives
    it."""

    def __init__(self, tables, seed, minutes, echo):
        if not isinstance(tables, int) or isinstance(tables, bool) or not 2 <= tables <= TABLES_MAX:
            raise ValueError("tables must be a whole number from 2 to %d" % TABLES_MAX)
        self.tables = tables
        self.seed = seed
        self.minutes = minutes
        self.plan = plan_for(minutes)
        self.echo = echo
        self.rng = random.Random("scale/%s" % seed)
        self.tmp = tempfile.mkdtemp(prefix="tableclock-scale-")
        self.db = os.path.join(self.tmp, "league.sqlite")
        self.links_db = os.path.join(self.tmp, "league-links.sqlite")
        toml = os.path.join(self.tmp, "scale.toml")
        with open(toml, "w", encoding="utf-8") as f:
            f.write(toml_text(tables))
        self.setup = new_league(self.db, toml)
        self.room = Room(START_MS, seed=seed)
        self.room.on_host = self.host_poll
        self.ids = {n: "tc-%03d" % n for n in range(1, tables + 1)}
        self.names = Names(self.room.clock)
        self.boxes = {}
        self.dead = []
        self.hub = None
        self.hubs = []
        self.live = None
        self.store = None
        self.net = self.broker = None
        self.frames_to_host = 0
        self.poll_s = []
        self.step_s = []
        self.levels = []  # level changes measured
        self.measuring = None
        self.log = []
        self.counts = {"td_busts": 0, "wifi_drops": 0, "broker_restarts": 0, "host_kills": 0}
        self.wifi_back = {}
        self.host_back = None
        self.t0 = None

    def say(self, text):
        line = "%s %s" % (_hms(self.room.now_ms - (self.t0 or 0)) if self.t0 else "  --  ",
                          text)
        self.log.append(line)
        self.echo(line)

    # -- the host ---------------------------------------------------------------------
    def start_mqtt(self):
        self.net, self.broker, self.users = mosquitto_net(self.tmp, self.ids.values(),
                                                          self.seed)
        self.net.room = self.room
        self.net.every = HOST_EVERY
        self.net.install()

    def start_host(self):
        """A host on the league and link files (again after a kill): Live, the link store,
        the MQTT hub on the broker's URL with the host's user and password."""
        from tdhost.links.mqtt import MqttHub

        self.store = HostStore(self.links_db)
        self.live = Live(self.db, clock=self.room.clock, key=KEY, key_id=KEY_ID,
                         seed=self.seed)
        subacks = self.net.subacks
        hub = MqttHub(self.broker.url_for("host"), KEY_ID, KEY, KEY_ID, self.store,
                      on_link=self._link, clock=self.room.clock, box_keys=True,
                      start=False)
        self.net.watch_hub(hub)
        inner = hub.client.on_message

        def counted(client, userdata, msg):
            if msg.payload and not msg.retain:
                self.frames_to_host += 1
            inner(client, userdata, msg)

        hub.client.on_message = counted
        hub.start()
        self.hub = hub
        self.hubs.append(hub)
        end = time.monotonic() + 10
        while self.net.subacks == subacks and time.monotonic() < end:
            time.sleep(0.005)
        if self.net.subacks == subacks:
            raise DrillError("the host did not connect to Mosquitto (%s)" % (
                hub.error or "no answer within 10 s"))

    def _link(self, link):
        link.wall = self.room.clock  # host_ms on the room's clock
        self.live.add_link(link)

    def kill_host(self):
        self.dead += [self.live, self.store]
        self.live = self.store = None
        self.net.kill_hub()
        self.hub = None

    def host_poll(self, now):
        if self.room.steps % HOST_EVERY or self.live is None:
            return
        t0 = time.perf_counter()
        self.net.order_hub()
        self.hub.poll(now)
        self.live.poll(now)
        self.poll_s.append(time.perf_counter() - t0)

    # -- the boxes ----------------------------------------------------------------------
    def add_boxes(self):
        for n, box_id in self.ids.items():
            b = self.room.add_box(n, BOARDS[(n - 1) % 2], transport=self.net.transport(box_id),
                                  key=KEY, key_id=KEY_ID, box_id=box_id)
            provision(b.world.nvm, None, {"key": box_key(KEY, box_id).hex(), "key_id": KEY_ID,
                                          "table": n, "settings": self.net.settings(box_id),
                                          "keys": BOX_KEYS})
            b.boot()  # paired for Wi-Fi/MQTT: the firmware's MqttLink
            self.boxes[n] = b
            if n % 10 == 0:
                self.room.step(STEP_MS)

    def all_live(self):
        from tcbox.link import LIVE

        return all(b.on and b.link is not None and b.link.state == LIVE
                   for b in self.boxes.values())

    def not_live(self):
        from tcbox.link import LIVE

        return [n for n, b in self.boxes.items() if b.link is None or b.link.state != LIVE]

    # -- the drill ----------------------------------------------------------------------
    def prepare(self):
        self.say("Mosquitto %s on port %d: %d users (host + one per box), the %%u ACL" % (
            _mosquitto_version(), self.broker.port, len(self.users)))
        self.start_host()
        t = time.monotonic()
        players = names(players_for(self.tables))
        self.act("register", {"names": players})
        self.act("draw", {"seed": self.seed})
        self.add_boxes()
        self.say("%d boxes powered up (%.0f s wall)" % (self.tables, time.monotonic() - t))
        t = time.monotonic()
        waited = 0
        while not self.all_live():
            if waited > LINK_WAIT_MS:
                raise DrillError("boxes %s did not link to the host within %d s" % (
                    ", ".join(map(str, self.not_live()[:20])), LINK_WAIT_MS // 1000))
            self.room.run(1000)
            waited += 1000
        self.link_s = time.monotonic() - t
        self.say("every box LIVE after %d virtual s (%.0f s wall)" % (waited // 1000,
                                                                      self.link_s))
        self.act("start", {})
        self.t0 = self.room.now_ms
        self.room.run(1000)
        for n, b in self.boxes.items():
            b.play(ScaleDealer(b, seed=self.seed * 10000 + n))

    def act(self, action, args, quiet=False):
        try:
            out = self.live.act(action, args)
        except ActionRefused as err:
            self.say("TD %s: refused: %s" % (action, err))
            return None
        if not quiet:
            text = out["text"]
            self.say("TD %s: %s" % (action, text if len(text) < 160 else text[:157] + "..."))
        return out

    def play(self):
        """Steps through the plan, then until settled (at most 5 virtual minutes)."""
        todo = list(self.plan)
        end_ms = None
        wall0 = time.perf_counter()
        v0 = self.room.now_ms
        while True:
            now = self.room.now_ms - self.t0
            self.between(now, todo)
            if end_ms is None and not todo:
                end_ms = self.room.now_ms + SETTLE_MS
            if end_ms is not None and (self.settled() or self.room.now_ms >= end_ms):
                break
            t = time.perf_counter()
            self.room.step(STEP_MS)
            self.step_s.append(time.perf_counter() - t)
            if self.measuring is not None:
                self._measure()
        self.room.run(10000)  # the last acks and statuses
        self.play_wall_s = time.perf_counter() - wall0
        self.play_virtual_ms = self.room.now_ms - v0

    def between(self, now, todo):
        if self.host_back is not None and self.room.now_ms >= self.host_back:
            self.host_back = None
            self.start_host()
            self.say("the host starts again on the same league and link files")
        for n, at in list(self.wifi_back.items()):
            if self.room.now_ms >= at:
                del self.wifi_back[n]
                self.net.wifi_up(self.boxes[n].world)
                if not self.wifi_back:
                    self.say("the Wi-Fi is back at every table")
        while todo and todo[0][0] <= now:
            at, what, arg = todo[0]
            if what == "level_when_back":
                if self.live is None or (not self.all_live() and now < at + 5 * MIN):
                    return
            todo.pop(0)
            getattr(self, "_" + what)(arg)

    # -- the plan's moments -------------------------------------------------------------
    def _level(self, arg=None, back=False):
        live = self.live
        clock = live.master()
        number = max([0] + [lv[4] for lv in clock.levels[:clock.index + 1]]) + 1
        out = self.act("level", {"level": number})
        if out is None:
            return
        self.measuring = {"index": live.master().index, "v0": self.room.now_ms,
                          "w0": time.perf_counter(), "first": None,
                          "boxes": [n for n, b in self.boxes.items() if b.on], "back": back}

    def _level_when_back(self, arg):
        self._level(back=True)

    def _measure(self):
        m = self.measuring
        shown = [n for n in m["boxes"] if self.boxes[n].table.clock.index >= m["index"]]
        if shown and m["first"] is None:
            m["first"] = self.room.now_ms - m["v0"]
        if len(shown) == len(m["boxes"]):
            self.levels.append({"boxes": len(shown), "first_ms": m["first"],
                                "last_ms": self.room.now_ms - m["v0"],
                                "wall_s": round(time.perf_counter() - m["w0"], 3),
                                "all_live": self.all_live()})
            self.say("the level change shows on all %d boxes after %.1f virtual s "
                     "(%.2f s wall)" % (len(shown), (self.room.now_ms - m["v0"]) / 1000.0,
                                        time.perf_counter() - m["w0"]))
            self.measuring = None
        elif self.room.now_ms - m["v0"] > 5 * MIN:
            self.levels.append({"boxes": len(m["boxes"]), "shown": len(shown),
                                "first_ms": m["first"], "last_ms": None, "wall_s": None})
            self.say("the level change reached only %d of %d boxes in 5 minutes" % (
                len(shown), len(m["boxes"])))
            self.measuring = None

    def _busts(self, wave):
        """The TD busts players: two at each of a few tables (so they are short and
        balancing moves players), none who is moving or waiting to sit down (a receive of
        their own pending: the chips they carry would leave play uncounted by any box)."""
        live = self.live
        if live is None:
            return
        t = live.tournament
        moving = set(_ins.moving_players(t)) | _ins.arriving(t)
        broken = _plan.broken_tables(t)
        seating = t.seating()
        tables = sorted(tb for tb, seats in seating.items() if tb not in broken
                        and len([nm for nm in seats.values() if nm not in moving]) >= 4)
        k = max(4, self.tables // 10)
        picks = []
        for tb in self.rng.sample(tables, min(len(tables), (k + 1) // 2)):
            free = sorted(nm for nm in seating[tb].values() if nm not in moving)
            picks += self.rng.sample(free, 2)
        picks = picks[:k]
        for name in picks:
            if self.act("bust", {"names": [name]}, quiet=True) is not None:
                self.counts["td_busts"] += 1
        self.say("TD busts wave %d: %d players out (%d still in)" % (
            wave, len(picks), len(live.tournament.remaining())))

    def _wifi_down(self, ms):
        k = max(1, self.tables * WIFI_SHARE // 100)
        tables = sorted(self.rng.sample(sorted(self.boxes), k))
        for n in tables:
            self.net.wifi_down(self.boxes[n].world)
            self.wifi_back[n] = self.room.now_ms + ms
        self.counts["wifi_drops"] += k
        self.say("the Wi-Fi of %d tables drops for %d minutes (%s)" % (
            k, ms // MIN, _some(tables)))

    def _broker_restart(self, arg):
        t = time.perf_counter()
        ok = self.net.restart_broker()
        self.counts["broker_restarts"] += 1
        self.say("Mosquitto restarts on port %d (%.1f s wall)%s" % (
            self.broker.port, time.perf_counter() - t,
            "" if ok else "; the hub did not come back within 15 s"))

    def _host_kill(self, arg):
        self.kill_host()
        self.counts["host_kills"] += 1
        self.host_back = self.room.now_ms + HOST_DOWN_MS
        self.say("kill -9 of the host (back in %d s)" % (HOST_DOWN_MS // 1000))

    def _close(self, arg):
        for b in self.boxes.values():
            if b.bot is not None:
                b.bot.closing = True
                b.bot.pace = CLOSING_PACE
        self.say("the dealers deal no new hand and hurry the hands running: the room "
                 "settles")

    # -- settled? ---------------------------------------------------------------------
    def settled(self):
        live = self.live
        if live is None or self.host_back is not None or self.wifi_back:
            return False
        if any(b.bot is None or not b.bot.closing for b in self.boxes.values()):
            return False
        if _ins.pending(live.tournament) or live.busts.open:
            return False
        for b in self.boxes.values():
            app = b.box
            if (app.table.hand is not None or app.awaiting() or app.waiting or app.table.moves
                    or (b.link is not None and b.link.outbox)):
                return False
        return self.all_live()

    # -- the checks ---------------------------------------------------------------------
    def checks(self):
        from tcbox.link import LIVE

        from .night import Night
        from .nightfaults import _elapsed

        live = self.live
        t = live.tournament
        out = []

        def check(name, bad, detail=""):
            out.append({"check": name, "ok": not bad, "detail": detail if bad else "",
                        "failures": bad[:10] if bad else []})

        check("every box LIVE", ["table %d: %s" % (n, b.link.state if b.link else "no link")
                                 for n, b in self.boxes.items()
                                 if b.link is None or b.link.state != LIVE])
        hosts = {lk.table: lk.state for lk in live.links if lk.table is not None}
        check("the host links every box live",
              ["table %d: %s" % (n, hosts.get(n)) for n in self.boxes if hosts.get(n) != "live"])
        pend = ["%s (%s%s)" % (r["text"], _ins.state(r), ": %s" % _ins.reason(r)
                               if _ins.reason(r) else "") for r in _ins.pending(t)]
        for n, b in self.boxes.items():
            app = b.box
            if app.awaiting() or app.waiting or app.table.moves:
                pend.append("table %d: %d on the screen, %d in table.moves" % (
                    n, app.awaiting() + len(app.waiting), len(app.table.moves)))
        check("no instruction pending", pend)
        seating = t.seating()
        bad = []
        for n, b in self.boxes.items():
            league = seating.get(n, {})
            stacks = b.table.stacks
            held = self.names.at.get(b.box_id, {})
            extra = sorted(set(stacks) - set(league))
            missing = sorted(set(league) - set(stacks))
            if extra or missing:
                bad.append("table %d: %s" % (n, "; ".join(
                    ["seat %d taken at the box (%s, %d chips), empty in the league" % (
                        s, held.get(s), stacks[s]) for s in extra]
                    + ["seat %d empty at the box, %s in the league" % (s, league[s])
                       for s in missing])))
            for s, name in sorted(league.items()):
                if s in stacks and held.get(s) != name:
                    bad.append("table %d seat %d: box %r, league %r (the box was told: %s)" % (
                        n, s, held.get(s), name, "; ".join(
                            "%s %s %s" % (_hms(at - self.room.start_ms - self.t0), what, seats)
                            for at, what, seats in self.names.told.get(b.box_id, []))))
            bad += ["table %d seat %d: %d chips" % (n, s, c) for s, c in stacks.items()
                    if c <= 0]
        check("every box seats the league's players", bad)
        entered = sum(e.stack or 0 for e in t.players.values() if e.state in ("in", "out"))
        on_boxes = sum(sum(b.table.stacks.values()) for b in self.boxes.values())
        removed = sum(b.table.removed for b in self.boxes.values())
        diff = on_boxes + removed - entered
        check("chips conserved", [] if diff == 0 else [
            "boxes %d + left play %d = %d, entered %d (%+d)" % (on_boxes, removed,
                                                               on_boxes + removed, entered,
                                                               diff)])
        master = live.master()
        offs = {n: abs(_elapsed(b.table.clock) - _elapsed(master)) for n, b in self.boxes.items()}
        check("every box's clock within %d ms of the host's" % CLOCK_MS,
              ["table %d: %d ms" % (n, d) for n, d in sorted(offs.items()) if d > CLOCK_MS])
        once = Night.exactly_once(self)
        check("each box event applied once", once["doubled"])
        missed = [lv for lv in self.levels if lv.get("last_ms") is None]
        check("every level change reached every box",
              ["%d of %d boxes" % (lv.get("shown", 0), lv["boxes"]) for lv in missed]
              + ([] if self.levels else ["no level change measured"]))
        return out, {"clock_max_ms": max(offs.values()), "entered": entered,
                     "on_boxes": on_boxes, "left_play": removed,
                     "box_busts": sum(len(v) for v in once["bust_events"].values()),
                     "league_busts": len(once["league_busts"])}

    # -- the figures --------------------------------------------------------------------
    def counted(self):
        c = dict(self.counts)
        moves = broken = by_box = notices = 0
        for ev in self.live.store.events():
            if ev.undoes:
                continue
            if ev.action == "move":
                moves += 1
            elif ev.action == "instr" and ev.payload.get("action") == "break_table":
                broken += 1
            elif ev.action == "bust" and ev.payload.get("by") == "box":
                by_box += len([n for tier in ev.payload.get("tiers", []) for n in tier])
            elif ev.action == "notice":
                notices += 1
        c.update({"moves": moves, "tables_broken": broken, "box_busts": by_box,
                  "notices": notices, "players_left": len(self.live.tournament.remaining()),
                  "instructions": len(self.live.tournament.instrs),
                  "confirmed": sum(b.bot.counts.get("confirm", 0)
                                   for b in self.boxes.values()),
                  "taken_out": sum(b.bot.taken_out for b in self.boxes.values()),
                  "hands": sum(b.bot.hands for b in self.boxes.values())})
        return c

    def figures(self):
        polls = sorted(self.poll_s)
        steps = sorted(self.step_s)
        vmin = self.play_virtual_ms / float(MIN)
        pub = rec = 0
        for b in self.boxes.values():
            port = getattr(b.link, "port", None)
            cnt = port.counters() if hasattr(port, "counters") else {}
            pub += cnt.get("mqtt_published", 0)
            rec += cnt.get("mqtt_received", 0)
        return {
            "wall_s_per_virtual_min": round(self.play_wall_s / vmin, 2),
            "virtual_min": round(vmin, 1), "play_wall_s": round(self.play_wall_s, 1),
            "step_ms_p50": _ms(_pct(steps, 50)), "step_ms_p99": _ms(_pct(steps, 99)),
            "step_ms_mean": _ms(statistics.fmean(steps)) if steps else None,
            "host_poll_ms_p50": _ms(_pct(polls, 50)), "host_poll_ms_p99": _ms(_pct(polls, 99)),
            "host_poll_ms_max": _ms(polls[-1]) if polls else None,
            "level_changes": self.levels,
            "frames": {"boxes_published": pub, "boxes_received": rec,
                       "host_received": self.frames_to_host,
                       "host_published": sum(h.published for h in self.hubs)},
            "pump": {"pumps": self.net.pumps, "waits": self.net.waits,
                     "wait_s": round(self.net.wait_s, 1), "gave_up": self.net.late},
            "link_up_wall_s": round(self.link_s, 1),
        }

    def close(self):
        for b in self.room.boxes:
            b.stop()
        self.room.close()
        for h in self.hubs:
            try:
                h.close()
            except Exception:  # noqa: BLE001 -- a killed hub's client
                pass
        if self.net is not None:
            self.net.close()
        if self.broker is not None:
            self.broker.stop()
        self.names.uninstall()
        for obj in [self.live, self.store] + self.dead:
            try:
                if obj is not None:
                    obj.close()
            except Exception:  # noqa: BLE001 -- closing what may be gone already
                pass
        shutil.rmtree(self.tmp, ignore_errors=True)


def _pct(xs, p):
    if not xs:
        return None
    return xs[min(len(xs) - 1, int(len(xs) * p / 100.0))]


def _ms(s):
    return None if s is None else round(s * 1000, 2)


def _hms(ms):
    s = abs(ms) // 1000
    return "%s%d:%02d" % ("-" if ms < 0 else "+", s // 60, s % 60)


def _some(xs, k=8):
    return ", ".join(map(str, xs[:k])) + (" ..." if len(xs) > k else "")


def _mosquitto_version():
    import subprocess

    from tdhost.links.broker import MOSQUITTO

    try:
        p = subprocess.run([MOSQUITTO, "-h"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return "?"
    m = re.search(r"mosquitto version (\S+)", p.stdout + p.stderr)
    return m.group(1) if m else "?"


# ---------------------------------------------------------------- running it
def run_scale(tables=300, seed=1, minutes=MINUTES, echo=print):
    """The drill (module notes); returns {"ok", "checks", "figures", "counts", "log",
    "tables", "seed", "minutes", "wall_s"}.  Raises tdhost.links.broker.MosquittoMissing
    without Mosquitto, DrillError when the room cannot be set up."""
    import logging

    logging.getLogger("tdhost").setLevel(logging.ERROR)
    t0 = time.monotonic()
    d = Drill(tables, seed, minutes, echo)
    try:
        d.names.install()
        d.start_mqtt()
        d.prepare()
        d.play()
        checks, extra = d.checks()
        res = {"tables": tables, "seed": seed, "minutes": minutes,
               "players": players_for(tables), "ok": all(c["ok"] for c in checks),
               "checks": checks, "counts": d.counted(), "figures": d.figures(),
               "log": list(d.log)}
        res["figures"].update(extra)
        res["wall_s"] = round(time.monotonic() - t0, 1)
        return res
    finally:
        d.close()


def report(res, echo=print):
    f = res["figures"]
    c = res["counts"]
    echo("")
    echo("Scale drill: %d tables, %d players, seed %d, %.1f virtual minutes in %.0f s wall "
         "(%.1f s per virtual minute)." % (res["tables"], res["players"], res["seed"],
                                           f["virtual_min"], res["wall_s"],
                                           f["wall_s_per_virtual_min"]))
    echo("Faults: %d Wi-Fi drops, %d broker restart, %d host kill.  TD busts %d, box busts %d,"
         " moves %d, tables broken %d, instructions %d (%d confirmed on the boxes), hands %d."
         % (c["wifi_drops"], c["broker_restarts"], c["host_kills"], c["td_busts"],
            c["box_busts"], c["moves"], c["tables_broken"], c["instructions"],
            c["confirmed"], c["hands"]))
    for lv in f["level_changes"]:
        echo("Level change: %s" % ("all %d boxes within %.1f virtual s (first %.1f s), %.2f s"
                                   " wall" % (lv["boxes"], lv["last_ms"] / 1000.0,
                                              (lv["first_ms"] or 0) / 1000.0, lv["wall_s"])
                                   if lv.get("last_ms") is not None else
                                   "only %d of %d boxes" % (lv.get("shown", 0), lv["boxes"])))
    echo("Room step: p50 %s ms, p99 %s ms; host poll: p50 %s ms, p99 %s ms, max %s ms." % (
        f["step_ms_p50"], f["step_ms_p99"], f["host_poll_ms_p50"], f["host_poll_ms_p99"],
        f["host_poll_ms_max"]))
    fr = f["frames"]
    echo("Frames through Mosquitto: %d from the boxes (%d reached the host), %d from the host"
         " (%d reached the boxes); pumps waited %.0f s, gave up %d." % (
             fr["boxes_published"], fr["host_received"], fr["host_published"],
             fr["boxes_received"], f["pump"]["wait_s"], f["pump"]["gave_up"]))
    for ch in res["checks"]:
        echo("%s %s%s" % ("ok    " if ch["ok"] else "FAILED", ch["check"],
                          "" if ch["ok"] else ": " + "; ".join(ch["failures"])))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tcsim.scale",
                                 description="The scale drill: N tables on Mosquitto under "
                                             "faults (docs/demo.md, \"Scale drill\").")
    ap.add_argument("--tables", type=int, default=300, help="boxes and tables (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=MINUTES,
                    help="virtual minutes until no new hand is dealt; then the room settles "
                         "(default %g; 4 to under 16: the test's reduced drill)" % MINUTES)
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = ap.parse_args(argv)
    from tdhost.links.broker import BrokerError

    if not 2 <= args.tables <= TABLES_MAX:
        ap.error("--tables must be from 2 to %d" % TABLES_MAX)
    if args.minutes < 4:
        ap.error("--minutes must be at least 4")
    echo = (lambda line: print(line, file=sys.stderr)) if args.json else print
    try:
        res = run_scale(args.tables, args.seed, args.minutes, echo=echo)
    except (DrillError, BrokerError) as err:
        print("scale: %s." % str(err).rstrip("."), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(res))
    else:
        report(res)
    return 0 if res["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
