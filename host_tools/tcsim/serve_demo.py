"""`tdhost serve --demo`: the live night with a sample tournament (20 players, LPPL) and a
room of three simulated boxes on cables, dealt by bots, the room stepped with Live's clock
(:class:`ScaledClock` at *speed*, bounded steps per poll).  tdhost finds :class:`Demo` through
the ``tdhost.demo`` entry point (pyproject.toml).  docs/web.md, "Running it" (The demo).

    demo = Demo.build(workdir, seed=7, speed=1.0)   # league file, Live, three boxes, dealers
    demo.stepper.poll(now); demo.live.poll(now); demo.close()
"""

import logging
import os
import secrets
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from tdhost import tournamentfile
from tdhost.clocks import unix_ms
from tdhost.league import store as _store, times as _times, transaction
from tdhost.live import instruction_log as _ins
from tdhost.live.host import Host

from . import EXAMPLES
from .dealers import RoomNight
from .room import Box, Room

log = logging.getLogger("tdhost.demo")

LPPL = os.path.join(EXAMPLES, "lppl.toml")
KEY_ID = "demo"
BOARDS = {1: "compact", 2: "table", 3: "compact"}  # the box build at each table
STEP_MS = 100  # the room's step (virtual ms): every box's loop runs this often
MAX_STEPS = 60  # steps per poll at most (6 s of the room's time: 50x keeps up)
RETRY_S = 5  # a dealer whose turn failed deals again after this long (the room's seconds)
PLAYERS = 20
NAMES = [
    "Alice Moreton", "Ben Taylor", "Chloe Price", "Dev Patel", "Eddie Clarke", "Fran Hughes",
    "Gaz Whitlock", "Hannah Lee", "Ian McAllister", "Jo Brennan", "Kev Adeyemi", "Lucy Fenwick",
    "Mo Hassan", "Nina Kowalski", "Ollie Stubbs", "Priya Shah", "Rob Dunmore", "Sue Granger",
    "Tariq Malik", "Una Byrne", "Vince Polley", "Wendy Oakes", "Xavier Lund", "Yasmin Roe",
]



def new_tournament(db: str, toml: str = LPPL) -> int:
    """Create the league file *db* (it must not exist yet) with one tournament set up from
    the tournament file *toml*, as ``tdhost new TOML --db DB`` does.  Returns its number."""
    setup, text = tournamentfile.load(toml)
    store = _store.Store(db, create=True)
    try:
        def decide(lg: Any, seq: int) -> Tuple[List[Any], int]:
            number = max(lg.tournaments, default=0) + 1
            payload = {"setup": setup, "file": os.path.basename(toml), "toml": text}
            return [(number, "new", payload, None)], number

        _, number = transaction.append(store, decide, _times.iso(_times.now()))
    finally:
        store.close()
    return number


def link_boxes(host: Host, room: Room, boards: Optional[Dict[int, str]] = None
               ) -> Dict[int, Box]:
    """One simulated box per table of *boards* ({table: board name}, default BOARDS) in
    *room*, paired with the host's event key for that table, on a cable to a port of
    *host* (tdhost.live.host).  Returns {table: tcsim.room.Box}."""
    out = {}
    assert host.key is not None and host.key_id is not None, "the demo's host has a key"
    for table, board in sorted((boards or BOARDS).items()):
        box = room.add_box(table, board, key=host.key, key_id=host.key_id)
        host.add_port(box.host_port)
        out[table] = box
    return out


class ScaledClock:
    """Unix ms from *start_ms* on, running *speed* times as fast as *monotonic* (seconds)."""

    def __init__(self, start_ms: int, speed: float = 1.0,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        if not speed > 0:
            raise ValueError("the demo's speed must be above 0")
        self.start_ms = start_ms
        self.speed = speed
        self.monotonic = monotonic
        self.t0 = monotonic()

    def __call__(self) -> int:
        return self.start_ms + int((self.monotonic() - self.t0) * 1000 * self.speed)


class DemoDealer(RoomNight):
    """tcsim.dealers.RoomNight for the demo: its own checks (that the box refuses a
    misclick and nothing changes) are the simulator tests' business, so a failed check is
    logged, not raised; a turn that fails is logged and the dealer deals on after
    ``RETRY_S``.  Nothing a dealer does can stop the room or the serve loop."""

    def misclick(self, what: str) -> None:
        try:
            super().misclick(what)
        except AssertionError as err:
            log.info("demo dealer at %s: %s", self.sim.box_id, err)

    def run(self) -> None:
        while True:
            try:
                self.turn()
            except Exception:  # noqa: BLE001 -- a demo goes on (GreenletExit still stops it)
                log.exception("demo dealer at %s", self.sim.box_id)
                self.idle(RETRY_S)


class RoomStepper:
    """tdhost serve's transport for the demo: ``poll(now)`` steps *room* until its clock
    (Unix ms) has reached *now*, ``STEP_MS`` at a time and at most *max_steps* steps, then
    calls ``after()`` if given.  ``behind_ms`` is how far the room was still behind after
    the last poll."""

    def __init__(self, room: Room, max_steps: int = MAX_STEPS,
                 after: Optional[Callable[[], None]] = None) -> None:
        self.room = room
        self.max_steps = max_steps
        self.after = after
        self.behind_ms = 0

    def poll(self, now: int) -> None:
        room = self.room
        for _ in range(self.max_steps):
            left = now - room.clock()
            if left <= 0:
                break
            room.step(min(STEP_MS, left))
        self.behind_ms = max(0, now - room.clock())
        if self.after is not None:
            self.after()

    def close(self) -> None:
        self.room.close()


class Demo:
    """The demo night (module notes): ``db``, ``live``, ``room``, ``boxes`` {table: Box},
    ``stepper`` (realtime only), ``key``."""

    NAMES = NAMES  # the players it registers, in order (for tests/tools/web_shots.py, which reaches
    new_tournament = staticmethod(new_tournament)  # this module through the entry point only)

    def __init__(self, workdir: str, seed: int = 7, speed: float = 1.0, realtime: bool = True,
                 start_ms: Optional[int] = None,
                 monotonic: Callable[[], float] = time.monotonic,
                 wifi: Optional[Tuple[str, str, int]] = None) -> None:
        self.workdir = workdir
        self.seed = seed
        self.db = os.path.join(workdir, "demo-league.sqlite")
        self.key = secrets.token_bytes(32)
        start_ms = unix_ms() if start_ms is None else start_ms
        new_tournament(self.db)
        self.room = Room(clock_ms_start=start_ms, seed=seed)
        self.clock = ScaledClock(start_ms, speed, monotonic) if realtime else self.room.clock
        # the host as serve builds it; the boxes' cables on the room's clock
        self.host = Host(self.db, os.path.join(workdir, "demo-links.sqlite"), self.key, KEY_ID,
                         clock=self.clock, seed=seed, link_clock=self.room.clock)
        self.live = self.host.live
        self.broker: Any = None  # a Wi-Fi night's broker and Net (serve --demo --wifi)
        self.net: Any = None
        self.lines: List[str] = []  # what serve prints about it (the broker's line)
        if wifi is None:
            self.boxes = link_boxes(self.host, self.room)
        else:
            self.boxes = self._wifi_boxes(*wifi)
        self.stepper: Optional[RoomStepper] = None
        self.pace: Optional[float] = None  # the dealers' pace once asked for (deal)
        self.dealing = False
        if realtime:
            self.stepper = RoomStepper(self.room, after=self._dealers)
        else:
            self.room.on_host = self.host.poll

    def _wifi_boxes(self, kind: str, listen: str, port: int) -> Dict[int, Box]:
        """``serve --demo --wifi``: the broker of a Wi-Fi night (tdhost.links.broker.start_night:
        logins, ACL) and the three boxes paired for it as ``tdhost pair --wifi-ssid`` pairs
        them (their own keys and logins), over real TCP to it (tcsim.nightnet); the hub
        is one more serve transport (``transports``)."""
        from tableclock.protocol import BOX_KEYS, box_key
        from tcsim.nightnet import Net
        from tcsim.room import provision
        from tdhost.links import broker as _broker, logins

        names = {table_no: "tc-%02d" % table_no for table_no in BOARDS}
        users = {name: logins.new_password() for name in names.values()}
        users["host"] = logins.new_password()
        kind, why = _broker.choose(kind, len(names))
        notes = self.live.wifi  # refused logins and boxes to pair again: the console
        notes.tables.update({name: table_no for table_no, name in names.items()})
        self.broker = _broker.start_night(kind, users, listen, port,
                                          os.path.join(self.workdir, "broker"),
                                          on_refused=notes.refused)
        if why:
            self.lines.append(why)
        self.lines.append(_broker.broker_line(
            "127.0.0.1" if listen in ("0.0.0.0", "::") else listen, self.broker.port, kind,
            len(names)))
        net = Net(self.broker)
        net.room = self.room
        net.install()
        self.net = net
        out = {}
        for table, board in sorted(BOARDS.items()):
            box = self.room.add_box(table, board, transport=net.transport(names[table]),
                                  key=self.key, key_id=KEY_ID)
            settings = dict(net.settings(), mqtt_password=users[box.box_id])
            pairing = {"key": box_key(self.key, box.box_id).hex(), "key_id": KEY_ID,
                       "table": table, "settings": settings, "keys": BOX_KEYS}
            provision(box.world.nvm, None, pairing)  # paired for Wi-Fi: boot again
            box.boot()
            out[table] = box
        hub = self.host.start_hub(self.broker.url_for("host"), start=False)
        net.watch_hub(hub)
        hub.start()
        return out

    @property
    def transports(self) -> List[Any]:
        """What serve polls: the room's stepper, and the hub on Wi-Fi (and Mosquitto:
        its log's refused logins)."""
        mosquitto = getattr(self, "broker", None)
        mosquitto = mosquitto if hasattr(mosquitto, "poll") else None
        return [part for part in (self.stepper, self.host.hub, mosquitto) if part is not None]

    @classmethod
    def build(cls, workdir: str, seed: int = 7, speed: float = 1.0, realtime: bool = True,
              players: int = PLAYERS, dealers: bool = True, pace: float = 1.0,
              monotonic: Callable[[], float] = time.monotonic,
              wifi: Optional[Tuple[str, str, int]] = None) -> "Demo":
        """The demo night started (module notes): *players* registered (at most
        len(NAMES)), drawn with *seed*, started; a dealer at every box (*pace*: their
        think times multiplied by it) unless *dealers* is False.  *monotonic*: the wall
        clock (seconds) real time is scaled from (tests give a virtual one).  *wifi*:
        (broker kind, listen, port): the boxes over that broker (``serve --demo --wifi``)."""
        demo = cls(workdir, seed, speed, realtime, monotonic=monotonic, wifi=wifi)
        try:
            demo.sample(players)
            if dealers:
                demo.deal(pace)
        except BaseException:
            demo.close()
            raise
        return demo

    def _settle(self, ms: int) -> None:
        """*ms* of the room's virtual time for the boxes to hear the host (virtual time
        only; in real time serve's loop delivers it within the first polls)."""
        if self.stepper is None:
            self.advance(ms)

    def sample(self, players: int = PLAYERS) -> None:
        """Register, draw and start the sample tournament; the boxes get their seating."""
        if not 2 <= players <= len(NAMES):
            raise ValueError("the demo seats 2 to %d players" % len(NAMES))
        self.live.act("register", {"names": NAMES[:players]})
        self.live.act("draw", {"seed": self.seed})
        self._settle(2000)
        self.live.act("start", {})
        self._settle(1000)

    def seated(self) -> bool:
        """Has the night started with every box live and holding the league's seating?"""
        seating = self.live.tournament.seating()
        return bool(self.live.tournament.started) and all(
            link.state == "live" for link in self.live.links) and all(
            sorted(box.table.stacks) == sorted(seating.get(tb, {}))
            for tb, box in self.boxes.items())

    def deal(self, pace: float = 1.0) -> None:
        """A dealer bot at every box (:class:`DemoDealer`, seeded per table), as soon as
        the boxes hold the host's seating (a dealer must not deal the box's old table)."""
        self.pace = pace
        self._dealers()

    def _dealers(self) -> None:
        """Start the dealers once the boxes are seated; a dealer whose table has nothing left
        to do (:meth:`idle_tables`) goes home."""
        if self.pace is None:
            return
        if not self.dealing:
            if self.seated():
                self.dealing = True
                for table, box in self.boxes.items():
                    box.play(DemoDealer(box, seed=self.seed * 100 + table, pace=self.pace))
            return
        for table in self.idle_tables():
            self.boxes[table].stop()

    def idle_tables(self) -> List[int]:
        """Tables whose dealer has nothing left to do: the league seats nobody there, no
        instruction for it is pending (a broken table's ``break_table``, the final draw's
        ``redraw``: its dealer confirms them), the final table is not waiting for the end
        of its hand, and its box awaits no answer (as tcsim.virtualnight's ``unplug``)."""
        tournament = self.live.tournament
        seating = tournament.seating()
        busy = {row["table"] for row in _ins.pending(tournament)}
        final = tournament.final
        if final is not None and not final.get("seated"):  # its players are still there
            busy |= set(final.get("had") or ())
        return [table for table, box in sorted(self.boxes.items())
                if box.fiber is not None and not seating.get(table) and table not in busy
                and not box.box.awaiting() and not box.box.book.waiting]

    def advance(self, ms: int) -> None:
        """*ms* of the room's virtual time pass (``realtime=False`` only): boxes, dealers
        and Live (room.on_host) step together."""
        self.room.run(ms, STEP_MS)
        self._dealers()

    def close(self) -> None:
        """Stop the dealers and close the league and link files (the caller removes
        *workdir*)."""
        for close in (self.room.close, self.host.close, self.net and self.net.uninstall,
                      self.broker and self.broker.stop):
            if not close:
                continue
            try:
                close()
            except Exception:  # noqa: BLE001 -- closing what may be gone already
                pass
