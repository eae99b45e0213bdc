"""What the scale drill sets up: its tournament (N tables of 8, profile us_free), Mosquitto
with a user and password per box and the %u ACL (nightnet's Net on it), and the dealers who
confirm every instruction at once.  docs/demo.md §8, "Scale drill".
"""

import os
import random
import re
import subprocess
import time
from typing import Any, Dict, Iterable, List, Optional, Tuple

from .nightbots import LeagueDealer
from .nightnet import MqttTransport, Net

SEATS = 8
SPARE = 3  # seats left free: max_players = 8N - SPARE
STACK = 5000
# Mosquitto holds a small packet back while the previous one is unacknowledged (Nagle's
# algorithm) unless told not to.  In the pump's lock-step each packet held back cost the step
# a delayed ack (40 ms of wall time): the 12-table drill took 8.0 s per virtual minute
# without this line, 1.3 s with it.  Real boxes do not wait for each other: the line changes
# this drill's wall time, not what a box sees.
NODELAY = "set_tcp_nodelay true\n"


class DrillError(RuntimeError):
    """The drill could not run (no Mosquitto, the boxes did not link...)."""


# ---------------------------------------------------------------- the tournament
def toml_text(tables: int, minutes: int = 15) -> str:
    """A tournament of *tables* 8-seat tables (profile us_free, like
    docs/examples/us_free.toml), ``max_players`` 8 * tables - SPARE."""
    levels = "".join("[[levels]]\nsb = %d\nbb = %d\nminutes = %d\n\n" % (25 * k, 50 * k, minutes)
                     for k in (1, 2, 3, 4, 6, 8, 10, 15, 20, 30))
    return ("[league]\nname = \"Scale drill\"\n\n[tournament]\nname = \"%d tables\"\n"
            "date = 2025-03-08\nprofile = \"us_free\"\nseats_per_table = %d\n"
            "max_players = %d\nstandby = 0\nstarting_stack = %d\n\n%s"
            "[points]\nformula = \"sqrt\"\n" % (tables, SEATS, players_for(tables),
                                                STACK, levels))


def players_for(tables: int) -> int:
    return SEATS * tables - SPARE


def new_league(db: str, toml_path: str) -> Dict[str, Any]:
    """The league file *db* with the tournament of *toml_path* (``tdhost new``)."""
    from tdhost import tournamentfile
    from tdhost.league import store as _store, times as _times, transaction

    setup, text = tournamentfile.load(toml_path)
    store = _store.Store(db, create=True)
    try:
        transaction.append(store, lambda lg, seq: ([(1, "new", {
            "setup": setup, "file": os.path.basename(toml_path), "toml": text}, None)], None),
            _times.iso(_times.now()))
    finally:
        store.close()
    return setup


def player_names(n: int) -> List[str]:
    return ["Player %04d" % (i + 1) for i in range(n)]


def bust_picks(tournament: Any, rng: random.Random, count: int) -> List[str]:
    """The *count* players the TD busts: two at each of a few tables (so they are short and
    balancing moves players), none who is moving or waiting to sit down (a receive of
    their own pending: the chips they carry would leave play uncounted by any box)."""
    from tdhost.live import instruction_log as _ins, room_plan as _plan

    moving = set(_ins.moving_players(tournament)) | _ins.arriving(tournament)
    broken = _plan.broken_tables(tournament)
    seating = tournament.seating()
    tables = sorted(table for table, seats in seating.items() if table not in broken
                    and len([name for name in seats.values() if name not in moving]) >= 4)
    picks: List[str] = []
    for table in rng.sample(tables, min(len(tables), (count + 1) // 2)):
        free = sorted(name for name in seating[table].values() if name not in moving)
        picks += rng.sample(free, 2)
    return picks[:count]


# ---------------------------------------------------------------- MQTT on Mosquitto
class MosquittoNet(Net):
    """nightnet's Net on Mosquitto: each box's settings carry its own password (its user is
    its box id, the firmware's default); a restart stops the same mosquitto process and
    starts it again on its port with its files (passwords, ACL)."""

    def __init__(self, broker: Any, users: Dict[str, str]) -> None:
        Net.__init__(self, broker, restart=lambda port: broker.start())
        self.users = users
        self.frames_to_host = 0  # frames with a payload that reached a host's hub

    def start_hub(self, hub: Any) -> Any:
        """Watch and start *hub* (a tdhost.links.mqtt.MqttHub made with ``start=False``), counting
        the frames it gets; returns it once it is subscribed (DrillError after 10 s)."""
        subacks = self.subacks
        self.watch_hub(hub)
        inner = hub.client.on_message

        def counted(client: Any, userdata: Any, msg: Any) -> None:
            if msg.payload and not msg.retain:
                self.frames_to_host += 1
            inner(client, userdata, msg)

        hub.client.on_message = counted
        hub.start()
        end = time.monotonic() + 10
        while self.subacks == subacks and time.monotonic() < end:
            time.sleep(0.005)
        if self.subacks == subacks:
            raise DrillError("the host did not connect to Mosquitto (%s)" % (
                hub.error or "no answer within 10 s"))
        return hub

    def settings(self, box_id: Optional[str] = None,  # type: ignore[override]
                 ssid: str = "scale-room") -> Dict[str, Any]:
        settings = Net.settings(self, ssid)
        settings["mqtt_password"] = self.users[box_id or ""]
        return settings

    def transport(self, name: str) -> MqttTransport:
        """The first box's transport pumps; the others' ``sync`` does nothing: one pump
        settles every box's frames (Net's pump looks at all of them, and with a pump per
        box a room step cost 300 x 300 looks)."""
        transport = Net.transport(self, name)
        if len(self.boxes) > 1:
            transport.sync = _settled  # type: ignore[method-assign]
        return transport


def _settled() -> bool:
    return True


def mosquitto_net(tmp: str, box_ids: Iterable[str],
                  seed: int) -> Tuple[MosquittoNet, Any, Dict[str, str]]:
    """Mosquitto with a user per box and the host (random passwords), and nightnet's Net
    on it; returns (net, broker, passwords)."""
    from tdhost.links.broker import Mosquitto

    rng = random.Random("mosquitto/%s" % seed)
    users = {u: "%016x" % rng.getrandbits(64) for u in ["host"] + list(box_ids)}
    broker = Mosquitto(tmp, users=users)  # start_mosquitto(tmp, users=users), and NODELAY
    with open(broker.conf, "a") as conf:
        conf.write(NODELAY)
    broker.start()
    return MosquittoNet(broker, users), broker, users


def mosquitto_version() -> str:
    from tdhost.links.broker import MOSQUITTO

    try:
        proc = subprocess.run([MOSQUITTO, "-h"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return "?"
    found = re.search(r"mosquitto version (\S+)", proc.stdout + proc.stderr)
    return found.group(1) if found else "?"


# ---------------------------------------------------------------- the dealers
class ScaleDealer(LeagueDealer):
    """The league night's dealer (tcsim.nightbots.LeagueDealer: betting that gets bolder
    as the blinds rise, showdowns, players away, clocks called, misclicks) with the drill's
    instruction policy: every instruction shown is confirmed at once -- the host sends a
    ``receive`` only once the player has left the old table (protocol 1.2), and a TD's
    bust comes as a ``take_out`` the box carries out itself (1.3) -- and once ``closing``,
    no new hand is dealt.  (LeagueDealer's turn with its own ``_ready`` and ``_chores``:
    the night's walk-over wait for a receive is not the drill's.)"""

    def __init__(self, box: Any, seed: int = 1) -> None:
        LeagueDealer.__init__(self, box, seed=seed)  # its own Floor: nobody walks over
        self.closing = False
        self.taken_out = 0  # take_outs confirmed

    def _ready(self, ins: Any) -> bool:
        """Every instruction at once."""
        return True

    def _confirmed(self, ins: Any) -> None:
        """Counts the take_outs (the night's floor check of arrivals is not the drill's)."""
        if isinstance(ins, dict) and ins.get("action") == "take_out":
            self.taken_out += 1

    def _chores(self, st: Dict[str, Any]) -> Optional[str]:
        """Once ``closing``, deal no new hand."""
        if st["street"] is None and self.closing:
            self.idle(5)
            return "closed"
        return None

    def misclick(self, what: str) -> None:
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
