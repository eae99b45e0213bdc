"""The scale drill itself: its plan of faults in virtual time and the Drill that runs the
room, Mosquitto and the host through it, then until the room has settled.  tcsim.scale runs
it and reports; docs/demo.md §8, "Scale drill" (The drill).
"""

import os
import random
import shutil
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from tableclock.protocol import BOX_KEYS, box_key
from tdhost.league.refusal import ActionRefused
from tdhost.live import instruction_log as _ins
from tdhost.live.host import Host

from .nightnet import BusyWifi
from .room import Box, Room, provision
from .scalecheck import LevelWatch, Names, hms
from .scaleroom import (
    DrillError,
    MosquittoNet,
    ScaleDealer,
    bust_picks,
    mosquitto_net,
    mosquitto_version,
    new_league,
    player_names,
    players_for,
    toml_text,
)

KEY = bytes(range(40, 72))  # the event key the boxes are paired with
KEY_ID = "scale"
TABLES_MAX = 1000  # tdhost.links.mqtt.BOXES_MAX is 1,024
START_MS = 1_741_464_000_000  # 2025-03-08 20:00 UTC: the room powers up
STEP_MS = 100  # each box's loop runs every 100 ms of virtual time
HOST_EVERY = 2  # the host polls (and MQTT is pumped) every other step
MIN = 60000
LINK_WAIT_MS = 120000  # every box LIVE this soon after the last one powered up
HOST_DOWN_MS = 5000  # a killed host is back this much later
WIFI_SHARE = 10  # percent of the tables whose Wi-Fi drops
CLOSING_PACE = 0.25  # the dealers' think times once no new hand is dealt (a hand of eight
#                      took up to 10 virtual minutes at the real pace)
SETTLE_MS = 5 * MIN  # the most the room may take to settle after the plan
# once settled, the room runs this much longer before the checks: the last acks, and one
# box heartbeat (tcbox.link.box_end.STATUS_MS, 30 s) and a round trip more -- issue #29: a
# difference between a box and the league that lasts beyond one heartbeat with nothing
# under way is healed by the host (a status showing a box behind brings the seating again)
AFTER_MS = 30000 + 10000
BOARDS = ("compact", "table")
WIFI = ("busy", "quiet")  # the room's Wi-Fi: a busy one's jitter (nightnet.BusyWifi), or none

Moment = Tuple[int, str, Any]  # (virtual ms after the start, what, its argument)


# ---------------------------------------------------------------- the plan
def plan_for(minutes: float) -> List[Moment]:
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
    scale = minutes / 6.0

    def at(m: float) -> int:
        return int(m * scale * MIN)

    return [(at(0.5), "level", None), (at(1), "busts", 1), (at(1.25), "wifi_down", at(2)),
            (at(1.75), "broker_restart", None), (at(2.25), "host_kill", None),
            (at(3), "busts", 2), (at(3.5), "level_when_back", None), (close, "close", None)]


# ---------------------------------------------------------------- the drill
class Drill:
    """The room, the broker, the host and the plan (docs/demo.md §8); tcsim.scale's
    ``run_scale`` drives it."""

    def __init__(self, tables: int, seed: int, minutes: float,
                 echo: Callable[[str], None], wifi: str = "busy") -> None:
        if not isinstance(tables, int) or isinstance(tables, bool) or not 2 <= tables <= TABLES_MAX:
            raise ValueError("tables must be a whole number from 2 to %d" % TABLES_MAX)
        if wifi not in WIFI:
            raise ValueError("wifi must be one of %s" % ", ".join(WIFI))
        self.wifi = wifi
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
        with open(toml, "w", encoding="utf-8") as toml_file:
            toml_file.write(toml_text(tables))
        self.setup = new_league(self.db, toml)
        self.room = Room(START_MS, seed=seed)
        self.room.on_host = self.host_poll
        self.ids = {n: "tc-%03d" % n for n in range(1, tables + 1)}
        self.names = Names(self.room.clock)
        self.boxes: Dict[int, Box] = {}
        self.dead: List[Any] = []
        self.hubs: List[Any] = []  # every host's hub (their counts)
        self.host: Optional[Host] = None  # the host (tdhost.live.host) while it runs
        self.net: Any = None  # a MosquittoNet once start_mqtt ran
        self.broker: Any = None
        self.users: Dict[str, str] = {}
        self.poll_s: List[float] = []
        self.step_s: List[float] = []
        self.level_watch = LevelWatch(self.say)
        self.log: List[str] = []
        self.counts = {"td_busts": 0, "wifi_drops": 0, "broker_restarts": 0, "host_kills": 0}
        self.wifi_back: Dict[int, int] = {}
        self.host_back: Optional[int] = None
        self.t0 = 0  # room ms of "shuffle up and deal" (0: not yet)
        self.link_s = 0.0
        self.play_wall_s = 0.0
        self.play_virtual_ms = 0

    def say(self, text: str) -> None:
        line = "%s %s" % (hms(self.room.now_ms - self.t0) if self.t0 else "  --  ", text)
        self.log.append(line)
        self.echo(line)

    # -- the host ---------------------------------------------------------------------
    def start_mqtt(self) -> None:
        net: MosquittoNet
        net, self.broker, self.users = mosquitto_net(self.tmp, self.ids.values(), self.seed)
        self.net = net
        self.net.room = self.room
        self.net.every = HOST_EVERY
        if self.wifi == "busy":
            self.net.jitter = BusyWifi(self.seed)
        self.net.install()

    def start_host(self) -> None:
        """A host on the league and link files (again after a kill), as serve builds it
        (tdhost.live.host) on the room's clock: Live, the link store, the MQTT hub on the
        broker's URL with the host's user and password."""
        self.host = Host(self.db, self.links_db, KEY, KEY_ID, clock=self.room.clock,
                         seed=self.seed, link_clock=self.room.clock)
        self.hubs.append(self.net.start_hub(self.host.start_hub(self.broker.url_for("host"),
                                                                start=False)))

    @property
    def live(self) -> Any:
        """The host's Live (None while the host is down)."""
        return None if self.host is None else self.host.live

    def kill_host(self) -> None:
        self.dead.append(self.host)
        self.host = None
        self.net.kill_hub()

    def host_poll(self, now: int) -> None:
        host = self.host
        if self.room.steps % HOST_EVERY or host is None:
            return
        wall0 = time.perf_counter()
        self.net.order_hub()
        host.poll(now)
        self.poll_s.append(time.perf_counter() - wall0)

    # -- the boxes ----------------------------------------------------------------------
    def add_boxes(self) -> None:
        for n, box_id in self.ids.items():
            box = self.room.add_box(n, BOARDS[(n - 1) % 2],
                                    transport=self.net.transport(box_id), key=KEY,
                                    key_id=KEY_ID, box_id=box_id)
            provision(box.world.nvm, None, {"key": box_key(KEY, box_id).hex(),
                                            "key_id": KEY_ID, "table": n,
                                            "settings": self.net.settings(box_id),
                                            "keys": BOX_KEYS})
            box.boot()  # paired for Wi-Fi/MQTT: the firmware's MqttLink
            self.boxes[n] = box
            if n % 10 == 0:
                self.room.step(STEP_MS)

    def all_live(self) -> bool:
        from tcbox.link.states import LIVE

        return all(box.on and box.link is not None and box.link.state == LIVE
                   for box in self.boxes.values())

    def not_live(self) -> List[int]:
        from tcbox.link.states import LIVE

        return [n for n, box in self.boxes.items()
                if box.link is None or box.link.state != LIVE]

    # -- the drill ----------------------------------------------------------------------
    def prepare(self) -> None:
        self.say("Mosquitto %s on port %d: %d users (host + one per box), the %%u ACL; %s" % (
            mosquitto_version(), self.broker.port, len(self.users),
            "a busy Wi-Fi's jitter on every box's link" if self.net.jitter is not None
            else "no jitter on the links"))
        self.start_host()
        wall0 = time.monotonic()
        players = player_names(players_for(self.tables))
        self.act("register", {"names": players})
        self.act("draw", {"seed": self.seed})
        self.add_boxes()
        self.say("%d boxes powered up (%.0f s wall)" % (self.tables, time.monotonic() - wall0))
        wall0 = time.monotonic()
        waited = 0
        while not self.all_live():
            if waited > LINK_WAIT_MS:
                raise DrillError("boxes %s did not link to the host within %d s" % (
                    ", ".join(map(str, self.not_live()[:20])), LINK_WAIT_MS // 1000))
            self.room.run(1000)
            waited += 1000
        self.link_s = time.monotonic() - wall0
        self.say("every box LIVE after %d virtual s (%.0f s wall)" % (waited // 1000,
                                                                      self.link_s))
        self.act("start", {})
        self.t0 = self.room.now_ms
        self.room.run(1000)
        for n, box in self.boxes.items():
            box.play(ScaleDealer(box, seed=self.seed * 10000 + n))

    def act(self, action: str, args: Dict[str, Any],
            quiet: bool = False) -> Optional[Dict[str, Any]]:
        try:
            out = self.live.act(action, args)
        except ActionRefused as err:
            self.say("TD %s: refused: %s" % (action, err))
            return None
        if not quiet:
            text = out["text"]
            self.say("TD %s: %s" % (action, text if len(text) < 160 else text[:157] + "..."))
        return out

    def play(self) -> None:
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
            step0 = time.perf_counter()
            self.room.step(STEP_MS)
            self.step_s.append(time.perf_counter() - step0)
            self.level_watch.step(self.room.now_ms, self.boxes, self.all_live)
        self.room.run(AFTER_MS)  # the last acks, a heartbeat's statuses and what they bring
        self.play_wall_s = time.perf_counter() - wall0
        self.play_virtual_ms = self.room.now_ms - v0

    def between(self, now: int, todo: List[Moment]) -> None:
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
    def _level(self, arg: Any = None, back: bool = False) -> None:
        live = self.live
        clock = live.master()
        number = max([0] + [lv[4] for lv in clock.levels[:clock.index + 1]]) + 1
        out = self.act("level", {"level": number})
        if out is None:
            return
        self.level_watch.start(live.master().index, self.room.now_ms,
                               [n for n, box in self.boxes.items() if box.on], back)

    def _level_when_back(self, arg: Any) -> None:
        self._level(back=True)

    def _busts(self, wave: int) -> None:
        """The TD busts a tenth of the tables' worth of players (scaleroom.bust_picks)."""
        live = self.live
        if live is None:
            return
        picks = bust_picks(live.tournament, self.rng, max(4, self.tables // 10))
        for name in picks:
            if self.act("bust", {"names": [name]}, quiet=True) is not None:
                self.counts["td_busts"] += 1
        self.say("TD busts wave %d: %d players out (%d still in)" % (
            wave, len(picks), len(live.tournament.remaining())))

    def _wifi_down(self, ms: int) -> None:
        k = max(1, self.tables * WIFI_SHARE // 100)
        tables = sorted(self.rng.sample(sorted(self.boxes), k))
        for n in tables:
            self.net.wifi_down(self.boxes[n].world)
            self.wifi_back[n] = self.room.now_ms + ms
        self.counts["wifi_drops"] += k
        self.say("the Wi-Fi of %d tables drops for %d minutes (%s)" % (
            k, ms // MIN, ", ".join(map(str, tables[:8])) + (" ..." if k > 8 else "")))

    def _broker_restart(self, arg: Any) -> None:
        wall0 = time.perf_counter()
        ok = self.net.restart_broker()
        self.counts["broker_restarts"] += 1
        self.say("Mosquitto restarts on port %d (%.1f s wall)%s" % (
            self.broker.port, time.perf_counter() - wall0,
            "" if ok else "; the hub did not come back within 15 s"))

    def _host_kill(self, arg: Any) -> None:
        self.kill_host()
        self.counts["host_kills"] += 1
        self.host_back = self.room.now_ms + HOST_DOWN_MS
        self.say("kill -9 of the host (back in %d s)" % (HOST_DOWN_MS // 1000))

    def _close(self, arg: Any) -> None:
        for box in self.boxes.values():
            if box.bot is not None:
                box.bot.closing = True
                box.bot.pace = CLOSING_PACE
        self.say("the dealers deal no new hand and hurry the hands running: the room "
                 "settles")

    def settled(self) -> bool:
        live = self.live
        if live is None or self.host_back is not None or self.wifi_back:
            return False
        if any(box.bot is None or not box.bot.closing for box in self.boxes.values()):
            return False
        if _ins.pending(live.tournament) or live.busts.open:
            return False
        for box in self.boxes.values():
            app = box.box
            if (app.table.hand is not None or app.awaiting() or app.book.waiting or app.table.moves
                    or (box.link is not None and box.link.outbox)):
                return False
        return self.all_live()

    def close(self) -> None:
        for box in self.room.boxes:
            box.stop()
        self.room.close()
        for host in [self.host] + self.dead:  # with its hub (a killed one's client)
            try:
                if host is not None:
                    host.close()
            except Exception:  # noqa: BLE001 -- closing what may be gone already
                pass
        if self.net is not None:
            self.net.close()
        if self.broker is not None:
            self.broker.stop()
        self.names.uninstall()
        shutil.rmtree(self.tmp, ignore_errors=True)
