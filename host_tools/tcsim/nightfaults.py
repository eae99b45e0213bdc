"""The league night under faults (`make faults`): host kills, power cuts, Wi-Fi drops, a broker
restart, garbage, forged and replayed frames, placed (seeded) where the clean run shows the
night did not need what they interrupt; then :func:`compare` with the clean run.

    clean = run_night(tables=7, seed=1); faults = Faults(Plan(seed=1), clean)
    report = compare(clean, run_night(tables=7, seed=1, faults=faults))

docs/demo.md §4, "The faults run" (the faults, where they go, what is checked).
"""

import argparse
import random
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from tableclock import protocol

from .nightresult import tournament_ms

if TYPE_CHECKING:
    from .virtualnight import Night

MIN = 60000
HOST_DOWN_MS = 5000  # a killed host is back this long after (virtual ms)
POWER_OFF_MS = 5000  # a box without power for this long
WIFI_MS = 10 * MIN  # a Wi-Fi drop lasts ten minutes
QUIET_BEFORE_MS = 3000
QUIET_AFTER_MS = 25000
IDLE_MS = 35000  # a cut in the middle of a write: during a dealer's wait this long
INJECT_QUIET_MS = 30000  # a frame injected for a table: no host event for it this long after
CLOCK_BOUND_MS = 1500  # a linked box's level clock against the host's, once settled:
SETTLE_MS = 60000  # linked this long (a box slews errors under 5 s at 10 %: 50 s at most)
CLOCK_ANY_MS = 65000  # any box with power (the record's clock is saved every 30 s)
SAMPLE_MS = 5000  # the clocks are compared this often
OTHER_KEY = bytes(range(100, 132))  # a forger's key

Fault = List[Any]  # [at unix ms, kind, table, ...what that kind needs], by time


class Plan:
    """How many faults of each kind (the full run's defaults; a reduced run passes fewer)."""

    def __init__(self, seed: int = 1, host_kills: int = 2, power_cuts: int = 8,
                 wifi_drops: int = 3, broker_restarts: int = 1,
                 injections: int = 30) -> None:
        self.seed = seed
        self.host_kills = host_kills
        self.power_cuts = power_cuts
        self.wifi_drops = wifi_drops
        self.broker_restarts = broker_restarts
        self.injections = injections


def _quiet(trace: List[Any], start: int, end: int, table: Optional[int] = None) -> bool:
    """No host event in [start, end] (for *table*, or any when None)."""
    for at, tables in trace:
        if start <= at <= end and (table is None or tables is None or table in tables):
            return False
    return True


def _pick_injections(rng: Any, n: int, trace: List[Any], span: Tuple[int, int],
                     played: List[int], off: Dict[int, int], todo: List[Fault],
                     skipped: List[str]) -> None:
    """Garbage, forgeries and replays (*n*, into *todo*) at moments when the clean run's
    record shows no host event for that table from QUIET_BEFORE_MS before to
    INJECT_QUIET_MS after: a box's link takes one frame from the host per loop step, so an
    injected frame delays the host's frames queued behind it by a step (100 ms), and a
    dealer who starts a turn in that step sees an instruction seconds later than in the
    clean run."""
    for _ in range(n):
        for _try in range(4000):
            at = rng.randrange(span[0], max(span[0] + 1, span[1]) + 1, 100)
            on = [tb for tb in played if off.get(tb, 1 << 62) > at + MIN]
            if not on:
                continue
            tb = rng.choice(on)
            if _quiet(trace, at - QUIET_BEFORE_MS, at + INJECT_QUIET_MS, tb):
                todo.append([at, "inject", tb])
                break
        else:
            skipped.append("injection: no quiet moment in the clean run's record")


class Faults:
    """The faults of one run, placed from the clean run *clean* (a run_night result)."""

    def __init__(self, plan: Plan, clean: Dict[str, Any]) -> None:
        self.plan = plan
        self.clean = clean
        self.rng = random.Random("faults/%s" % plan.seed)
        self.night: Any = None  # the tcsim.virtualnight.Night attached
        self.todo: List[Fault] = []  # by time
        self.log: List[Tuple[int, str]] = []  # (unix ms, text)
        self.skipped: List[str] = []
        self.counts = {"host_kills": 0, "power_cuts": 0, "cuts_mid_write": 0, "wifi_drops": 0,
                       "broker_restarts": 0, "garbage": 0, "forged": 0, "replayed": 0}
        self.clock_max = 0  # ms: a linked box against the master clock
        self.clock_worst: Optional[str] = None
        self.boots: Dict[int, int] = {}  # table -> its box's boot count at the last sample
        self.clock_any = 0  # ms: any box with power
        self.live_since: Dict[int, int] = {}  # box -> unix ms its link went live
        self.next_sample = 0
        self.armed: Dict[int, int] = {}  # box number -> unix ms the dealer's shuffle ends
        self.down: Dict[int, int] = {}  # box number -> unix ms its power comes back
        self.wifi: Dict[int, int] = {}  # box number -> unix ms its Wi-Fi comes back
        self.host_back: Optional[int] = None
        self.steps_missed = 0  # a box with power whose loop did not run in a step
        self.seen_ms: Dict[int, int] = {}
        self.slowest_step_s = 0.0

    # -- placing ---------------------------------------------------------------------
    def attach(self, night: "Night") -> "Faults":
        """Place the faults for *night* (its boxes and transports); returns self."""
        self.night = night
        trace = self.clean["trace"]
        t0 = night.t0
        end = self.clean["end_ms"]
        span = (t0 + 3 * MIN, end - 5 * MIN)
        used: List[int] = []  # the faults' moments
        plan = self.plan

        def pick(kind: str, n: int, before: int, after: int,
                 table_of: Optional[Callable[[int], Optional[int]]] = None,
                 gap: int = 60000) -> None:
            for _ in range(n):
                for _try in range(4000):
                    at = self.rng.randrange(span[0], max(span[0] + 1, span[1]) + 1, 1000)
                    table = table_of(at) if table_of else None
                    if table_of and table is None:
                        continue
                    if any(abs(at - u) < gap for u in used):
                        continue
                    if _quiet(trace, at - before, at + after, table):
                        used.append(at)
                        self.todo.append([at, kind, table])
                        break
                else:
                    self.skipped.append("%s: no quiet moment in the clean run's record" % kind)

        mqtt = [n for n, k in night.transport_of.items() if k == "mqtt"
                and n <= night.cast.drawn_tables]
        played = [n for n in night.transport_of if n <= night.cast.drawn_tables]

        off = self.clean.get("unplugged") or {}

        def any_of(tables: List[int]) -> Callable[[int], Optional[int]]:
            def one(at: int) -> Optional[int]:  # a table whose box is still on then (and for
                #                                 the fault's length)
                ok = [tb for tb in tables if off.get(tb, at + WIFI_MS + 2 * MIN) > at + WIFI_MS
                      + MIN]
                return self.rng.choice(ok) if ok else None
            return one

        pick("host_kill", plan.host_kills, QUIET_BEFORE_MS, HOST_DOWN_MS + QUIET_AFTER_MS)
        pick("broker_restart", plan.broker_restarts if night.net else 0, QUIET_BEFORE_MS,
             QUIET_AFTER_MS)
        pick("wifi_drop", plan.wifi_drops if night.net else 0, QUIET_BEFORE_MS, WIFI_MS + 90000,
             any_of(mqtt), gap=30000)
        offline = [(fault[0], fault[0] + WIFI_MS + 90000, fault[2]) for fault in self.todo
                   if fault[1] == "wifi_drop"]
        self._pick_cuts(plan.power_cuts, trace, span, used, offline)
        _pick_injections(self.rng, plan.injections, trace, span, played, off, self.todo,
                         self.skipped)
        self.todo.sort(key=lambda x: (x[0], x[1]))
        return self

    def _pick_cuts(self, n: int, trace: List[Any], span: Tuple[int, int], used: List[int],
                   offline: List[Tuple[int, int, int]]) -> None:
        """Power cuts while a dealer shuffles (the clean run's ``quiet``: when each dealer
        waited how long): the even ones in the middle of the next nvm write (the clock's
        30-s save comes during a wait of IDLE_MS or more), the odd ones between two steps
        (a wait of 2 x POWER_OFF_MS or more).  Never while that table's Wi-Fi is down
        (*offline*: (from, to, table)): a box that boots without a network keeps the clock of
        its record (up to 30 s old) until it can hear the host again, and deals by it."""
        off = self.clean.get("unplugged") or {}
        waits = sorted((at, tb, ms) for tb, q in self.clean["quiet"].items() for at, ms in q
                       if span[0] <= at <= span[1] and at + ms + MIN < off.get(tb, 1 << 62))
        for k in range(n):
            how = "mid-write" if k % 2 == 0 else "between steps"
            need = IDLE_MS if how == "mid-write" else 2 * POWER_OFF_MS
            ok = [wait for wait in waits
                  if wait[2] >= need and all(abs(wait[0] - u) >= 60000 for u in used)
                  and _quiet(trace, wait[0] - QUIET_BEFORE_MS, wait[0] + wait[2] + 10000, wait[1])
                  and not any(a - MIN <= wait[0] <= b and tb == wait[1] for a, b, tb in offline)]
            if not ok:
                self.skipped.append("power cut (%s): no dealer's wait long enough in a quiet "
                                    "moment of the clean run" % how)
                continue
            at, tb, ms = self.rng.choice(ok)
            used.append(at)
            self.todo.append([at + 1000, "power_cut", tb, how, at + ms])

    def say(self, text: str) -> None:
        self.log.append((self.night.room.clock(), text))
        self.night.show.say("FAULT " + text)

    # -- between two room steps ------------------------------------------------------------
    def between(self) -> None:
        n = self.night
        now = n.room.clock()
        self._watch_steps()
        if self.host_back is not None and now >= self.host_back:
            self.host_back = None
            n.start_host()
            self.say("the host starts again on the same league and link files")
        for tb, at in list(self.down.items()):
            if now >= at:
                del self.down[tb]
                box = n.boxes[tb]
                box.transport.mend()
                box.boot()  # from its nvm; the dealer goes on with what he was doing
                self.say("power is back at table %d: the box boots (boot %d)" % (
                    tb, box.link.boot if box.link else 0))
        for tb, at in list(self.wifi.items()):
            if now >= at:
                del self.wifi[tb]
                n.net.wifi_up(n.boxes[tb].world)
                self.say("the Wi-Fi of table %d is back" % tb)
        for tb, until in list(self.armed.items()):
            box = n.boxes[tb]
            if not box.on:  # the armed write came: the power went off in the middle of it
                del self.armed[tb]
                box.world.nvm.cut_after(None)
                self.counts["cuts_mid_write"] += 1
                self.counts["power_cuts"] += 1
                self.down[tb] = now + POWER_OFF_MS
                self.say("power cut at table %d in the middle of an nvm write" % tb)
            elif now >= until:
                del self.armed[tb]
                box.world.nvm.cut_after(None)
                self.skipped.append("power cut at table %d: no write came" % tb)
        while self.todo and self.todo[0][0] <= now:
            fault = self.todo.pop(0)
            if fault[1] == "power_cut":
                if not self._power_cut(fault, now):
                    self.skipped.append("power cut at table %s: its box is off" % fault[2])
                continue
            getattr(self, "_" + fault[1])(fault, now)

    def _host_kill(self, fault: Fault, now: int) -> None:
        if self.night.live is None:
            return
        self.night.kill_host()
        self.counts["host_kills"] += 1
        self.host_back = now + HOST_DOWN_MS
        self.say("kill -9 of the host (back in %d s)" % (HOST_DOWN_MS // 1000))

    def _broker_restart(self, fault: Fault, now: int) -> None:
        net = self.night.net
        ok = net.restart_broker()
        self.counts["broker_restarts"] += 1
        self.say("the MQTT broker restarts%s" % ("" if ok else
                                                 " (the hub did not come back in time)"))

    def _wifi_drop(self, fault: Fault, now: int) -> None:
        tb = fault[2]
        box = self.night.boxes[tb]
        if tb in self.wifi or not box.on:
            self.skipped.append("Wi-Fi drop at table %d: busy" % tb)
            return
        self.night.net.wifi_down(box.world)
        self.wifi[tb] = now + WIFI_MS
        self.counts["wifi_drops"] += 1
        self.say("the Wi-Fi of table %d drops for %d minutes" % (tb, WIFI_MS // MIN))

    def _power_cut(self, fault: Fault, now: int) -> bool:
        """Cut (or arm the cut of) table fault[2]'s power now; False when its box is off."""
        tb, how, wake = fault[2], fault[3], fault[4]
        box = self.night.boxes[tb]
        if not box.on or tb in self.down or tb in self.armed:
            return False
        if how == "mid-write":
            rng = self.rng
            box.world.nvm.cut_after(rng.randrange(1, 200), 0xFF if rng.random() < 0.5 else None)
            self.armed[tb] = wake - POWER_OFF_MS - 1000
            return True
        box.power_cut()
        self.counts["power_cuts"] += 1
        self.down[tb] = now + POWER_OFF_MS
        self.say("power cut at table %d (between two loop steps)" % tb)
        return True

    def _inject(self, fault: Fault, now: int) -> None:
        """Garbage, a forgery or a replay, on a random way in or out."""
        n = self.night
        tb = fault[2]
        box = n.boxes[tb]
        box_id = box.box_id
        kind = self.rng.choice(("garbage", "forged", "replayed"))
        to_host = self.rng.random() < 0.5
        data: Optional[bytes]
        if kind == "garbage":
            data = self.rng.choice((b"\x00\xff garbage \xfe\n", b"not a frame at all\n",
                                    b'{"v":"1.1","kind":"event"\n', b"\n\n\n"))
        elif kind == "forged":
            if to_host:
                data = protocol.Sender(OTHER_KEY, box_id, 999).encode(
                    {"kind": "event", "id": "999-1", "what": "bust", "seat": 1, "hand": 1,
                     "chips_start": 100}, protocol.HOST)
            else:
                data = protocol.Sender(OTHER_KEY, protocol.HOST, 999).encode(
                    {"kind": "instruction", "id": "forged-1", "action": "move_out",
                     "seat": 1, "to_table": 9, "to_seat": 1}, box_id)
        else:
            data = self._replay(tb, to_host)
            if data is None:
                kind, data = "garbage", b"replay: nothing captured yet\n"
        if n.transport_of[tb] == "mqtt":
            if n.net is None or (to_host and not n.net.hub_alive):
                return
            topic = "tc/%s/box/%s/%s" % (n.net.event, box_id, "out" if to_host else "in")
            n.net.inject(topic, data)
        else:
            port = box.transport.box_port if to_host else box.transport.host_port
            port.write(data)
            box.transport.sync()
        self.counts[kind] += 1

    def _replay(self, tb: int, to_host: bool) -> Optional[bytes]:
        n = self.night
        box = n.boxes[tb]
        if n.transport_of[tb] == "mqtt":
            src = n.net.sent_events if to_host else n.net.sent_in
            return src.get(box.box_id)
        return None  # the pty's frames are not captured: garbage instead

    # -- watching ------------------------------------------------------------------------
    def _watch_steps(self) -> None:
        """No box froze: every box with power ran its loop in this step (its world's clock
        is the room's, less the time it was dark), and how long the longest step took."""
        n = self.night
        for box in n.boxes.values():
            if not box.on:
                continue
            if box.step_wall_s > self.slowest_step_s:
                self.slowest_step_s = box.step_wall_s
            if box.world.now_ms == self.seen_ms.get(box.n):
                self.steps_missed += 1
            self.seen_ms[box.n] = box.world.now_ms

    def poll(self, now: int) -> None:
        """After each host poll: the boxes' clocks against the master clock."""
        if now < self.next_sample:
            return
        self.next_sample = now + SAMPLE_MS
        n = self.night
        live = n.live
        if live is None or not live.tournament.started or live.tournament.ended:
            return
        master = live.master(now)
        from tcbox.link.states import LIVE

        for tb, box in n.boxes.items():
            if not box.on or tb > n.cast.drawn_tables:
                self.live_since.pop(tb, None)
                continue
            off_ms = abs(tournament_ms(box.table.clock) - tournament_ms(master))
            self.clock_any = max(self.clock_any, off_ms)
            if box.link is not None and box.link.state == LIVE and self.boots.get(tb) == box.boots:
                since = self.live_since.setdefault(tb, now)
                if now - since >= SETTLE_MS and off_ms > self.clock_max:
                    self.clock_max = off_ms
                    self.clock_worst = "table %d at %s, linked since %s" % (
                        tb, _hms(now), _hms(since))
            else:
                self.live_since.pop(tb, None)
            self.boots[tb] = box.boots

    def figures(self) -> Dict[str, Any]:
        n = self.night
        return {"faults": dict(self.counts), "skipped": list(self.skipped),
                "clock_max_ms": self.clock_max, "clock_any_ms": self.clock_any,
                "clock_worst": self.clock_worst,
                "slowest_step_ms": round(self.slowest_step_s * 1000, 1),
                "steps_missed": self.steps_missed,
                "dark_at_end": [box.n for box in n.boxes.values() if not box.on
                                and box.n not in n.unplugged],
                "log": [text for _, text in self.log]}


def _hms(ms: int) -> str:
    from .nightshow import clock_text

    return clock_text(ms)


def compare(clean: Dict[str, Any], faulted: Dict[str, Any]) -> List[str]:
    """What differs between the clean run and the faulted one (an empty list: nothing)."""
    out = []
    for key in ("results", "league", "winner"):
        if clean[key] != faulted[key]:
            out.append("the %s differ" % key)
    for key in ("busts", "players_out", "moves", "broken"):
        if clean[key] != faulted[key]:
            out.append("%s: %s in the clean run, %s with faults" % (key, clean[key],
                                                                   faulted[key]))
    if clean["bust_events"] != faulted["bust_events"]:
        out.append("the boxes' bust events differ")
    if clean["league_busts"] != faulted["league_busts"]:
        out.append("the league's busts differ")
    figures = faulted.get("fault_figures") or {}
    if figures.get("clock_max_ms", 0) > CLOCK_BOUND_MS:
        out.append("a linked box's clock was %d ms off the host's (bound %d; %s)" % (
            figures["clock_max_ms"], CLOCK_BOUND_MS, figures.get("clock_worst")))
    if figures.get("clock_any_ms", 0) > CLOCK_ANY_MS:
        out.append("a box's clock was %d ms off the host's (bound %d)" % (
            figures["clock_any_ms"], CLOCK_ANY_MS))
    if faulted.get("doubled"):
        out.append("applied twice: %s" % ", ".join(faulted["doubled"]))
    if figures.get("steps_missed") or figures.get("dark_at_end"):
        out.append("a box froze: %d loop steps missed, dark at the end: %s" % (
            figures["steps_missed"], figures["dark_at_end"]))
    return out


def run_faults(tables: int = 7, profile: str = "lppl", seed: int = 1, plan: Optional[Plan] = None,
               echo: Callable[[str], None] = print, minutes: Optional[int] = None,
               out_dir: Optional[str] = None) -> Dict[str, Any]:
    """The clean run, then the same night with faults; returns {"clean", "faulted",
    "differences", "figures"} (``differences`` empty: identical results and every check
    passed)."""
    import os
    import time

    from .virtualnight import run_night

    plan = plan or Plan(seed)
    t0 = time.monotonic()
    sub = (lambda name: os.path.join(out_dir, name)) if out_dir else (lambda name: None)
    echo("The clean run (seed %d) ..." % seed)
    clean = run_night(tables, profile, seed, out_dir=sub("clean"), echo=echo, quiet=True,
                      shots=False, minutes=minutes)
    echo("... %s wins after %d busts; %.0f s." % (clean["winner"], clean["busts"],
                                                   clean["wall_s"]))
    echo("The same night with faults:")
    faults = Faults(plan, clean)
    faulted = run_night(tables, profile, seed, out_dir=sub("faults"), echo=echo, faults=faults,
                        shots=False, minutes=minutes, results=False)
    diff = compare(clean, faulted)
    fault_figures = faulted["fault_figures"]
    figures = dict(fault_figures["faults"], clock_max_ms=fault_figures["clock_max_ms"],
                   clock_any_ms=fault_figures["clock_any_ms"],
                   slowest_step_ms=fault_figures["slowest_step_ms"],
                   skipped=len(fault_figures["skipped"]),
                   steps_missed=fault_figures["steps_missed"],
                   wall_s=round(time.monotonic() - t0, 1),
                   mqtt_late=(faulted.get("mqtt") or {}).get("late", 0),
                   notices=faulted["notices"])
    return {"clean": clean, "faulted": faulted, "differences": diff, "figures": figures}


def report(result: Dict[str, Any], echo: Callable[[str], None] = print) -> None:
    figures = result["figures"]
    echo("Faults: %d host kills, %d power cuts (%d in the middle of an nvm write), %d Wi-Fi "
         "drops of 10 minutes, %d broker restarts, %d garbage, %d forged and %d replayed "
         "frames; %d skipped." % (
             figures["host_kills"], figures["power_cuts"], figures["cuts_mid_write"],
             figures["wifi_drops"], figures["broker_restarts"], figures["garbage"],
             figures["forged"], figures["replayed"], figures["skipped"]))
    for note in result["faulted"]["fault_figures"]["skipped"]:
        echo("  skipped: %s" % note)
    errs = (result["faulted"].get("mqtt") or {}).get("broker_errors") or []
    if errs:
        echo("The embedded broker (amqtt) failed %d connection%s after its restart (%s); the "
             "boxes connected again." % (len(errs), "" if len(errs) == 1 else "s", errs[0]))
    echo("Clocks: a linked box at most %d ms off the host's master clock (bound %d); any box "
         "with power at most %d ms (bound %d, the record's 30-s clock save). No box froze: "
         "%d loop steps missed by a box with power; the slowest step took %.1f ms of wall "
         "time." % (figures["clock_max_ms"], CLOCK_BOUND_MS, figures["clock_any_ms"], CLOCK_ANY_MS,
                    figures["steps_missed"], figures["slowest_step_ms"]))
    c, g = result["clean"], result["faulted"]
    echo("Busts: %d (%d players) in both runs; moves %d/%d; the league's busts %s; every box "
         "event behind a bust applied %s." % (
             c["busts"], c["players_out"], c["moves"], g["moves"],
             "the same" if c["league_busts"] == g["league_busts"] else "DIFFERENT",
             "once" if not g["doubled"] else "TWICE (%s)" % ", ".join(g["doubled"])))
    if result["differences"]:
        echo("DIFFERENT from the clean run: %s." % "; ".join(result["differences"]))
    else:
        echo("Results and league table identical to the clean run (%s wins). %.0f s in all."
             % (g["winner"], figures["wall_s"]))


def main_faults(args: argparse.Namespace) -> int:
    """`python -m tcsim.virtualnight --faults` (make faults): 0 when identical, 1 otherwise."""
    result = run_faults(args.tables, args.profile, args.seed, out_dir=args.out)
    report(result)
    return 1 if result["differences"] else 0
