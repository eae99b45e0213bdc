"""A whole league night, simulated end to end in virtual time (`make demo`): the host (Live on
a temporary league file, the embedded MQTT broker, one box on a pty), one simulated box per
table, the TD's actions and the dealers, seeded and deterministic (``realtime=True``: the real
pace, the web served).  docs/demo.md, "What happens" and "Virtual time, and MQTT in it".

    result = run_night(tables=7, profile="lppl", seed=1)      # about a minute of wall time
    python -m tcsim.virtualnight --tables 7 --profile lppl --seed 1 [--realtime] [--out DIR]
"""

import argparse
import gc
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional

from tableclock.protocol import BOX_KEYS, box_key
from tdhost.league.refusal import ActionRefused
from tdhost.live.host import Host

from . import nightshow
from .nightbots import Floor, LeagueDealer
from .nightleague import TD, Cast, new_league
from .nightresult import night_result
from .room import Box, Room, provision

if TYPE_CHECKING:
    from .nightfaults import Faults

KEY = bytes(range(7, 39))  # the event key the boxes are paired with (the demo's own)
KEY_ID = "lppl-night"
BOARDS = ("compact", "table")
START_MS = 1_741_031_700_000  # 2025-03-03 19:55 UTC: the room powers up
LEAD_MS = 5 * 60000  # from the room's start to "shuffle up and deal" (20:00)
UNPLUG_MS = 60000  # a box whose table the league left empty is switched off this much later
STEP_MS = 100  # each box's loop runs every 100 ms of virtual time
HOST_EVERY = 2  # the host polls every other step: every 200 ms of virtual time
MAX_MS = 10 * 3600 * 1000  # a night that has not ended after ten virtual hours stops
LINK_WAIT_MS = 60000  # the boxes' links must be live this soon after power-up


class NightError(RuntimeError):
    """The night could not be played (a box never linked, the broker did not start...)."""


def _out_dir(out_dir: Optional[str], profile: str, seed: int) -> str:
    if out_dir is None:
        return tempfile.mkdtemp(prefix="tableclock-night-%s-seed%d-" % (profile, seed))
    os.makedirs(out_dir, exist_ok=True)
    return out_dir


class Night:
    """The room, the host and the TD of one night (module notes); ``run_night`` drives it."""

    def __init__(self, tables: int, profile: str, seed: int, out_dir: Optional[str],
                 echo: Callable[[str], None], mqtt: bool = True,
                 minutes: Optional[int] = None) -> None:
        if not isinstance(tables, int) or isinstance(tables, bool) or not 1 <= tables <= 32:
            raise ValueError("tables must be a whole number from 1 to 32")
        self.tables = tables
        self.profile = profile
        self.seed = seed
        self.echo = echo
        self.out_dir = out_dir
        self.tmp = tempfile.mkdtemp(prefix="tableclock-night-db-")
        self.db = os.path.join(self.tmp, "league.sqlite")
        self.setup = new_league(self.db, profile, minutes)
        self.cast = Cast(self.setup, tables)
        self.room = Room(START_MS, seed=seed)
        self.t0 = START_MS + LEAD_MS
        self.floor = Floor()
        self.broker: Any = None  # the embedded MQTT broker
        self.net: Any = None  # a tcsim.nightnet.Net while the boxes are on MQTT
        self.faults: Optional["Faults"] = None  # make faults
        self.links_db = os.path.join(self.tmp, "league-links.sqlite")
        self.host: Optional[Host] = self.new_host()  # None while the host is down
        self.show = nightshow.Show(self, echo)
        self.td = TD(self.live, self.setup, self.cast, self.t0, self.show.say, seed,
                     ace8=(profile == "lppl"))
        self.boxes: Dict[int, Box] = {}
        self.transport_of: Dict[int, str] = {}  # table -> "mqtt", "pty" or "cable"
        self.dead: List[Any] = []  # what killed hosts left behind (closed at the end)
        self.restarts = 0
        # table -> room clock ms the league first had nobody there
        self.empty_since: Dict[int, int] = {}
        self.unplugged: Dict[int, int] = {}  # table -> room clock ms its box was switched off
        self.room.on_host = self.host_poll
        if mqtt:
            try:
                self._start_mqtt()
            except BaseException:
                self.close()
                raise

    # -- the host -------------------------------------------------------------
    def new_host(self) -> Host:
        """The host as serve builds it (tdhost.live.host), all on the room's clock."""
        return Host(self.db, self.links_db, KEY, KEY_ID, clock=self.room.clock, seed=self.seed,
                    link_clock=self.room.clock)

    @property
    def live(self) -> Any:
        """The host's Live (None while the host is down)."""
        return None if self.host is None else self.host.live

    @property
    def hub(self) -> Any:
        """The host's MQTT hub (None while the host is down, or with no MQTT)."""
        return None if self.host is None else self.host.hub

    def _start_mqtt(self) -> None:
        try:
            from tdhost.links.broker import start_embedded

            from .nightnet import Net
        except ImportError as err:
            self.echo("MQTT unavailable here (%s): every box on a cable instead." % err)
            return
        self.broker = start_embedded()
        self.net = Net(self.broker, restart=lambda port: start_embedded(port=port))
        self.net.room = self.room
        self.net.every = HOST_EVERY
        self.net.install()
        self._start_hub()

    def _start_hub(self) -> None:
        assert self.host is not None, "the host runs"
        subacks = self.net.subacks
        hub = self.host.start_hub(self.net.broker.url, client_id="tdhost-night", start=False)
        self.net.watch_hub(hub)  # before it connects: its socket without Nagle's delay
        hub.start()
        end = time.monotonic() + 10
        while self.net.subacks == subacks and time.monotonic() < end:
            time.sleep(0.005)
        if self.net.subacks == subacks:
            raise NightError("the host did not connect to the embedded MQTT broker")

    def kill_host(self) -> None:
        """kill -9: the host's Live, link store, MQTT hub and USB link are dropped as they
        are, nothing closed or flushed (the files are SQLite's: consistent at any moment)."""
        self.dead.append(self.host)  # dropped as it is, closed at the end
        self.host = None
        if self.net is not None:
            self.net.kill_hub()

    def start_host(self) -> None:
        """The host starts again on the same files: a new Live, link store, hub and USB link
        (the boxes' links find it by themselves)."""
        self.host = host = self.new_host()
        self.td.live = host.live
        for n, kind in self.transport_of.items():
            if kind != "mqtt" and n not in self.unplugged:
                host.add_port(self.boxes[n].host_port)
        if self.net is not None:
            self._start_hub()
        self.restarts += 1

    def host_poll(self, now: int) -> None:
        """After every HOST_EVERY-th room step: the hub, Live, the TD, the
        progress lines (``tdhost serve`` polls every 50 ms of real time; 200 ms of virtual
        time is as good for the night and halves the host's share of the wall time)."""
        host = self.host
        if self.room.steps % HOST_EVERY or host is None:
            return  # (None: the host is down)
        if host.hub is not None:
            self.net.order_hub()
        host.poll(now)
        self.td.poll(now)
        if self.room.steps % 50 == 0:
            self.unplug(now)
        self.show.poll(now)
        if self.faults is not None:
            self.faults.poll(now)  # what the faults run watches (clocks)

    # -- the boxes --------------------------------------------------------------
    def add_boxes(self) -> None:
        """One box per table, powered up at different moments, linked to the host."""
        pty = self.cast.drawn_tables if self.tables > 1 else None
        for n in range(1, self.tables + 1):
            board = BOARDS[(n - 1) % 2]
            name = "tc-%02d" % n
            if n == pty or self.net is None:
                kind = "pty" if n == pty else "cable"
                box = self.room.add_box(n, board, transport=kind, key=KEY, key_id=KEY_ID)
                assert self.host is not None, "the boxes come with the host up"
                self.host.add_port(box.host_port)
            else:
                kind = "mqtt"
                box = self.room.add_box(n, board, transport=self.net.transport(name), key=KEY,
                                      key_id=KEY_ID)
                pairing = {"key": box_key(KEY, box.box_id).hex(), "key_id": KEY_ID, "table": n,
                           "settings": self.net.settings(), "keys": BOX_KEYS}
                provision(box.world.nvm, None, pairing)  # paired for Wi-Fi: boot again
                box.boot()
            self.boxes[n] = box
            self.transport_of[n] = kind
            self.room.run(137)  # the boxes power up at different moments
        self.td.boxed = set(self.boxes)
        self.floor.install(self.room.boxes)

    def unplug(self, now: int) -> None:
        """The TD switches off the box of a table the night no longer uses (broken, or the
        spare): nobody of the league sits there for UNPLUG_MS, no instruction for it is
        pending, and its box has nothing left to say (every event acknowledged) or to show."""
        from tdhost.live import instruction_log as _ins

        tournament = self.live.tournament
        if not tournament.started:
            return
        seating = tournament.seating()
        pending = {row["table"] for row in _ins.pending(tournament)}
        final = tournament.final
        if final is not None and not final.get("seated"):  # its players are still there
            pending |= set(final.get("had") or ())
        for n, box in self.boxes.items():
            if not box.on or n in self.unplugged:
                continue
            if seating.get(n) or n in pending:
                self.empty_since.pop(n, None)
                continue
            since = self.empty_since.setdefault(n, now)
            app = box.box
            if (now - since < UNPLUG_MS or app.awaiting() or app.book.waiting
                    or (box.link is not None and box.link.outbox)):
                continue
            box.stop()
            box.power_cut()
            if self.transport_of[n] != "mqtt":  # its USB cable is unplugged too
                for link in list(self.live.links):
                    if getattr(link, "ser", None) is box.host_port:
                        self.live.remove_link(link)
                box.transport.sync = lambda: True  # nothing moves on it any more
            self.unplugged[n] = now
            self.show.say("the box of table %d is switched off: nobody plays there now" % n)

    def links_live(self) -> bool:
        from tcbox.link.states import LIVE

        return all(box.on and box.link is not None and box.link.state == LIVE
                   for box in self.boxes.values())

    def deal(self) -> None:
        for n, box in self.boxes.items():
            if n > self.cast.drawn_tables:
                continue  # the TD's spare: nobody to deal to
            box.play(LeagueDealer(box, seed=self.seed * 1000 + n, floor=self.floor))

    # -- the night ---------------------------------------------------------------
    def prepare(self) -> None:
        """Registration and the draw, the boxes up and linked, the start, the dealers."""
        self.td.before()
        self.add_boxes()
        waited = 0
        while not self.links_live():
            if waited > LINK_WAIT_MS:
                from tcbox.link.states import LIVE

                down = [box.box_id for box in self.boxes.values() if box.link is None
                        or box.link.state != LIVE]
                raise NightError("boxes %s did not link to the host within %d s" % (
                    ", ".join(down), LINK_WAIT_MS // 1000))
            self.room.run(1000)
            waited += 1000
        self.show.linked()
        self.room.run(self.t0 - self.room.clock())
        self.td.start()
        self.room.run(1000)
        self.deal()

    def play(self, until_ms: int = MAX_MS, realtime: bool = False, lock: Any = None) -> None:
        """Steps until the tournament ends (or *until_ms* of virtual time)."""
        room = self.room
        if not realtime:
            gc.collect()
            gc.freeze()  # the boxes' own objects only, for the collector
            try:
                lock = self.show.lock  # the web's, while a big-screen shot is taken
                faults = self.faults
                while room.now_ms < until_ms and (self.live is None
                                                  or not self.live.tournament.ended):
                    with lock:
                        room.step(STEP_MS)
                    if faults is not None:
                        faults.between()
                    if self.show.ready:
                        self.show.flush()
                self.show.settle()
            finally:
                gc.unfreeze()
            return
        t0 = time.monotonic()
        v0 = room.now_ms
        while room.now_ms < until_ms:
            target = v0 + int((time.monotonic() - t0) * 1000)
            steps = 0
            while room.now_ms < target and steps < 20:
                with lock:
                    room.step(STEP_MS)
                steps += 1
                if self.show.ready:
                    self.show.flush()
            time.sleep(0.02)

    def close(self) -> None:
        self.floor.uninstall()
        for box in self.room.boxes:
            box.stop()
        self.room.close()
        for host in [self.host] + self.dead:
            try:
                if host is not None:
                    host.close()
            except Exception:  # noqa: BLE001 -- closing what may be gone already
                pass
        broker = self.broker
        if self.net is not None:
            broker = self.net.broker  # (a new one after a restart)
            self.net.close()
        if broker is not None:
            broker.stop()
        self.show.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    # -- what came of it --------------------------------------------------------
    def transport_summary(self) -> str:
        pty = self.cast.drawn_tables if self.tables > 1 else None
        mq = self.tables - (1 if pty else 0)
        if self.net is None:
            return "%d on cables%s" % (mq, ", 1 on a pty" if pty else "")
        return "%d on Wi-Fi/MQTT%s" % (mq, ", 1 on USB (a pty)" if pty else "")


def run_night(tables: int = 7, profile: str = "lppl", seed: int = 1, realtime: bool = False,
              out_dir: Optional[str] = None, faults: Optional["Faults"] = None,
              echo: Callable[[str], None] = print, mqtt: bool = True, shots: bool = True,
              until_ms: int = MAX_MS, minutes: Optional[int] = None, quiet: bool = False,
              results: bool = True) -> Dict[str, Any]:
    """Play a whole night (module notes); returns the result dict: ``results`` (place,
    name, entry, points), ``league`` (rank, name, points), ``winner``, ``virtual_ms``,
    ``wall_s``, ``busts``, ``moves``, ``broken``, ``levels``, the dealers' and the MQTT
    pump's counts, ``shots`` (paths written) and ``out_dir``.

    :param tables: boxes in the room (8 seats each on the LPPL night).
    :param profile: ``lppl``, ``us_free`` or ``wph`` (docs/examples/<profile>.toml).
    :param realtime: the real pace, the web pages served, until Ctrl-C.
    :param faults: a tcsim.nightfaults plan (``make faults``), or None.
    :param echo: prints a line.  :param mqtt: False: every box on a cable.
    :param shots: False: no screenshots (tests).  :param quiet: no lines, no tables.
    :param results: False: no results and league tables at the end (the figures only).
    :param minutes: every level and break this long (a quicker night: the tests).
    """
    logging.getLogger("tdhost").setLevel(logging.ERROR)
    if not isinstance(tables, int) or isinstance(tables, bool) or not 1 <= tables <= 32:
        raise ValueError("tables must be a whole number from 1 to 32")
    if profile not in ("lppl", "us_free", "wph"):
        raise ValueError("unknown profile %r (profiles: lppl, us_free, wph)" % (profile,))
    if shots or (results and not quiet) or out_dir is not None:
        out_dir = _out_dir(out_dir, profile, seed)
    t0 = time.monotonic()
    say = (lambda line: None) if quiet else echo
    night = Night(tables, profile, seed, out_dir, say, mqtt=mqtt, minutes=minutes)
    night.show.shots_on = shots
    try:
        say("A %s night, seed %d: %d boxes (%s), %d players drawn at %d tables%s." % (
            profile, seed, tables, night.transport_summary(), night.cast.registered,
            night.cast.drawn_tables, "; shots and results in %s" % out_dir if out_dir else ""))
        night.prepare()
        if faults is not None:
            night.faults = faults.attach(night)
        if realtime:
            _serve(night, echo)
        else:
            night.play(until_ms)
        res = night_result(night, time.monotonic() - t0)
        if not quiet:
            night.show.final(res, results)
        return res
    finally:
        night.close()


def _serve(night: Night, echo: Callable[[str], None]) -> None:
    """--realtime: the web pages, the room at the real pace, until Ctrl-C."""
    from tdhost.web.app import new_token
    from tdhost.web.server import run_in_thread

    lock = threading.RLock()
    token = new_token()
    handle = run_in_thread(night.live, "127.0.0.1", 0, token, lock)
    night.show.lock = lock  # the screenshots use the served pages
    night.show.web = handle
    night.show.served = True
    echo("Big screen: %s" % handle.url)
    echo("TD console: %s" % handle.console_url)
    echo("TD token: %s" % token)
    echo("Ctrl-C stops.")
    try:
        night.play(MAX_MS, realtime=True, lock=lock)
    except KeyboardInterrupt:
        echo("Stopped.")
    finally:
        try:
            handle.stop()
        except KeyboardInterrupt:  # a second Ctrl-C while the web stops
            pass


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tcsim.virtualnight",
                                 description="A whole league night, simulated end to end "
                                             "(docs/demo.md).")
    ap.add_argument("--tables", type=int, default=7, help="boxes in the room (default 7)")
    ap.add_argument("--profile", default="lppl", choices=("lppl", "us_free", "wph"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--realtime", action="store_true",
                    help="the real pace, with the big screen and TD console served")
    ap.add_argument("--out", default=None, help="the folder for screenshots and results "
                                                "(default: a new one under the temp dir)")
    ap.add_argument("--faults", action="store_true",
                    help="the night under faults, compared with a clean run (make faults)")
    ap.add_argument("--cables", action="store_true", help="every box on a cable (no MQTT)")
    args = ap.parse_args(argv)
    try:
        if args.faults:
            from .nightfaults import main_faults

            return main_faults(args)
        run_night(args.tables, args.profile, args.seed, args.realtime, args.out,
                  mqtt=not args.cables)
    except (ValueError, NightError, ActionRefused) as err:
        print("night: %s." % str(err).rstrip("."), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
