"""A simulated room: many whole boxes (:class:`Box`, the firmware's App and host link) in one
process on one virtual clock, each in its own stub world, linked to the host.

    room = Room(clock_ms_start=1_760_000_000_000, seed=7)
    box = room.add_box(1, "compact", key=KEY, key_id="ev1-k1", setup=SETUP)  # over a cable
    room.on_host = lambda now: host.poll(now); room.run(30 * 60 * 1000)

docs/simulator.md, "A room of boxes" (worlds, the clock, dealers, transports, rendering).
"""

import random
from time import perf_counter
from typing import Any, Callable, Dict, List, Optional, Tuple

from greenlet import GreenletExit, getcurrent, greenlet
from PIL import Image

from . import stubs

stubs.install()  # before anything imports board, microcontroller, usb_cdc, displayio

import board  # noqa: E402
import displayio  # noqa: E402
import microcontroller  # noqa: E402
import usb_cdc  # noqa: E402

from tableclock import record  # noqa: E402
from tableclock.store import NvmStore  # noqa: E402
from tableclock.table import Table  # noqa: E402
from tcbox import hardware, screen as _screen_mod, usb_link, widgets  # noqa: E402
from tcbox.boards import BOARDS  # noqa: E402
from tcbox.crashlog import LOG  # noqa: E402
from tcbox.defaults import SETUP as DEFAULT_SETUP  # noqa: E402

from . import sim as _sim  # noqa: E402
from .display import make_display, to_image  # noqa: E402
from .sim import Sim  # noqa: E402
from .stubs import _world  # noqa: E402
from .transports import transport as _transport  # noqa: E402

Screen = _screen_mod.Screen  # the real one (add_box may stand a LazyScreen in for it)
PERIOD_MS = 100  # room.run's step: every box's loop runs this often (virtual ms)
BOOT_MS = 3000  # a board spends up to this long booting before code.py (seeded per box)


class _KeepWorld:
    """While a room works on its boxes: the world current before is put
    back after."""

    def __enter__(self) -> None:
        self.world = _world.current()

    def __exit__(self, *exc: Any) -> None:
        _world.use(self.world)


# ------------------------------------------------------------------ screen
_TEMPLATES: Dict[Tuple[int, int], Any] = {}  # (width, height) -> a Screen


def _template(width: int, height: int) -> Any:  # a tcbox.screen.Screen
    """A Screen of that size, made once: its pages' menu rows and page choice."""
    template = _TEMPLATES.get((width, height))
    if template is None:
        template = _TEMPLATES[(width, height)] = Screen(None, width, height)
    return template


class LazyScreen:
    """tcbox.screen.Screen's API that keeps only the fields until looked at.

    ``update(fields)`` stores a copy and returns how many fields changed.
    Any other attribute (``root``, ``page``, ``pages``, ``texts()``...) is
    the real Screen's, built on first use and brought up to the last fields
    (with each page's menu scrolled where the live screen would have it).
    ``release()`` drops it again.
    """

    def __init__(self, display: Any, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.compact = height < 200
        self.shown: Optional[Dict[str, Any]] = None
        self.real: Any = None  # the tcbox.screen.Screen, once looked at
        self.stale = False
        template = _template(width, height)
        self.rows = [page[2].rows if page[2] is not None else 0  # the players' page: none
                     for page in template.pages]
        self.which = template._which
        self.tops = [0] * len(self.rows)
        self.builds = 0

    def update(self, fields: Dict[str, Any]) -> int:
        old = self.shown
        n = len(fields)
        if old is not None:
            n = 0
            for k in fields:
                if old.get(k) != fields[k]:
                    n += 1
        self.shown = dict(fields)
        page = self.which(fields)
        if self.rows[page]:
            self.tops[page] = widgets.menu_top(self.tops[page],
                                                   len(fields.get("menu") or ()),
                                                   fields.get("menu_i") or 0, self.rows[page])
        self.stale = True
        return n

    def materialize(self) -> Any:
        """The real Screen showing the last fields."""
        screen = self.real
        if screen is None:
            screen = self.real = Screen(None, self.width, self.height)
            self.builds += 1
            self.stale = True
        if self.stale and self.shown is not None:
            for page in range(len(self.tops)):
                if screen.pages[page][2] is not None:
                    screen.pages[page][2].top_i = self.tops[page]
            screen.update(self.shown)
        self.stale = False
        return screen

    def release(self) -> None:
        self.real = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.materialize(), name)


# -------------------------------------------------------------- the nvm
def provision(nvm: Any, setup: Any = None, pairing: Any = None) -> None:
    """Write *nvm* as a box leaves pairing and a host's config: erased, then
    one power-loss record (tableclock.record, where tcbox.hardware.build
    reads it) of a table from *setup* (the default table without one) and
    the link's part: the *pairing* dict (key in hex, key_id, table, event)
    and its table number."""
    nvm.erase()
    extra = {}
    if pairing is not None:
        extra = {"p": dict(pairing), "t": pairing["table"]}
    slots = record.Slots(NvmStore(nvm, 0, LOG))
    slots.save(record.dump(Table(setup or DEFAULT_SETUP), extra))


# ------------------------------------------------------------------ a box
class Box(Sim):
    """One box of a :class:`Room` (module notes): a Sim in a world of its own.

    ``table`` is always the App's (the host's seating may replace it);
    ``link`` the App's host link; ``host_port`` the transport's host end;
    ``on`` whether it has power.  Time moves only with the room: a dealer's
    ``press``/``tick`` (``run_for``) waits in its greenlet for the room.
    """

    def __init__(self, room: "Room", n: int, board_name: str, world: _world.World,
                 transport: Any, box_id: str, render: str, seed: int) -> None:
        if board_name not in BOARDS:
            raise ValueError("unknown board %r (boards: %s)" % (
                board_name, ", ".join(sorted(BOARDS))))
        if render not in ("lazy", "full"):
            raise ValueError("render must be 'lazy' or 'full', not %r" % (render,))
        self.room = room
        self.n = n
        self.board_name = board_name
        self.world = world
        self.transport = transport
        self.box_id = box_id
        self.render = render
        self.nonces = random.Random(seed)
        self.on = False
        self.boots = 0
        self.restart = False
        self.resets = 0
        self.watch: List[Callable[[Sim], None]] = []
        self.bot: Any = None  # the dealer playing here (play)
        self.fiber: Any = None  # its greenlet
        self.wake: Optional[int] = None
        self.box: Any = None  # the firmware's App once booted
        profile = self.profile = BOARDS[board_name]
        self.roles = [k["role"] for k in profile["keys"]]
        self.pins = {k["role"]: k["pin"] for k in profile["keys"]}
        self.width = profile["display"]["width"]
        self.height = profile["display"]["height"]
        self.display: Any = None  # a Blinka display only while a screenshot is drawn
        self.step_wall_s = 0.0
        self.step_ms = 0

    @property
    def host_port(self) -> Any:
        return self.transport.host_port

    @property
    def table(self) -> Any:  # type: ignore[override]  # (Sim keeps its own)
        return self.box.table

    @property
    def link(self) -> Any:
        """The box's link to the host: its App's one part (tcbox/startup.py), or None."""
        return self.box.parts[0] if self.box is not None and self.box.parts else None

    # -- power ---------------------------------------------------------
    def boot(self) -> "Box":  # type: ignore[override]  # (Sim.boot makes a Sim)
        """Power up as code.py does, in this box's world: tcbox.hardware.build
        with the transport's box end as ``usb_cdc.data``, then one step."""
        world = self.world
        saved = (hardware.display, usb_link.box_id, _screen_mod.Screen)
        with _KeepWorld():
            _world.use(world)
            world.reset()
            usb_cdc.set_ports(world, data=self.transport.box_port)  # type: ignore[attr-defined]
            board.DISPLAY = None
            board.board_id = self.profile["board_id"]
            try:
                hardware.display = lambda spec: None  # Screen(None, ...): groups only
                usb_link.box_id = lambda: self.box_id
                if self.render == "lazy":
                    _screen_mod.Screen = LazyScreen  # type: ignore[misc, assignment]
                self.box = hardware.build(self.board_name)
            finally:
                hardware.display, usb_link.box_id, _screen_mod.Screen = saved  # type: ignore[misc]
            if self.link is not None:
                self.link.urandom = self.nonces.randbytes  # seeded hello nonces
            self.screen = self.box.screen
            self.keys = self.box.keys
            self.ring = self.box.ring
            self.buzzer = self.box.buzzer
            self.on = True
            self.restart = False
            self.boots += 1
            self.step()
        return self

    def power_cut(self) -> None:
        """The power goes off now (between two loop steps): the box stops,
        its transport carries nothing; its dealer waits for the power."""
        self.on = False
        self.transport.cut()

    def power_on(self) -> None:
        """The next power-up: the box boots from its nvm, its dealer starts
        its script again (tcsim/dealers.py)."""
        self.transport.mend()
        self.reboot()

    def reboot(self) -> None:
        """Boot again (after ``microcontroller.reset()`` or a power cut)."""
        self.boot()
        if self.bot is not None:
            self.play(self.bot)

    # -- the loop ------------------------------------------------------
    def step(self) -> None:
        """One loop iteration as tcbox.hardware.run does it (App.step, the
        link's share in it), in this box's world.  A power cut during it (an
        armed nvm cut) switches the box off; a reset reboots it next step."""
        if not self.on:
            return
        world = self.world
        _world.use(world)
        at = world.now_ms
        t0 = perf_counter()
        try:
            now = world.ticks_ms()
            self.box.step(now)
            microcontroller.watchdog.check()  # type: ignore[union-attr]
        except microcontroller.ResetRequested:  # type: ignore[attr-defined]  # the stub's
            self.resets += 1
            self.restart = True
        except _world.PowerCut:
            self.power_cut()
        self.step_wall_s = perf_counter() - t0
        self.step_ms = world.now_ms - at
        for watcher in self.watch:
            watcher(self)

    def _dealing(self) -> None:
        if self.fiber is None or getcurrent() is not self.fiber:
            raise RuntimeError("box %s: only its dealer presses and waits (Box.play); time "
                               "passes with room.step() or room.run()" % self.box_id)

    def press(self, role: str, ms: int = _sim.SHORT_MS) -> None:
        """The dealer holds a key for *ms*, then waits a little (Sim.press)."""
        self._dealing()
        Sim.press(self, role, ms)

    def run_for(self, ms: int, period: Optional[int] = None) -> None:
        """A dealer waits *ms* (in its greenlet): the room goes on meanwhile."""
        if ms <= 0:
            return
        self._dealing()
        self.wake = self.room.now_ms + ms
        self.fiber.parent.switch()

    def play(self, bot: Any) -> None:
        """Let *bot* (an object with ``run()``, e.g. tcsim.dealers.RoomNight)
        deal at this box from the next step on, in a greenlet of its own.
        A dealer already playing stops first."""
        self.stop()
        self.bot = bot
        self.fiber = greenlet(bot.run)
        self.wake = self.room.now_ms

    def stop(self) -> None:
        """Stop this box's dealer, if any."""
        fiber = self.fiber
        self.fiber = None
        self.wake = None
        if fiber is not None and not fiber.dead:
            try:
                fiber.throw(GreenletExit)
            except GreenletExit:
                pass

    def resume(self) -> None:
        """Let the dealer go on if its wait is over (the room calls this)."""
        fiber = self.fiber
        if fiber is not None and self.wake is not None and self.wake <= self.room.now_ms:
            self.wake = None
            fiber.parent = getcurrent()  # whoever steps the room
            fiber.switch()

    # -- what a person sees ----------------------------------------------
    def texts(self) -> List[str]:
        return _sim.label_texts(self.screen.root)

    def image(self) -> Any:
        """The screen as a PIL image, drawn now on a Blinka display made for it."""
        display = make_display(self.width, self.height)
        try:
            display.root_group = self.screen.root
            return to_image(display)
        finally:
            displayio.release_displays()

    def save_png(self, path: str, zoom: int = 1) -> str:
        img = self.image()
        if zoom != 1:
            img = img.resize((img.width * zoom, img.height * zoom), Image.Resampling.NEAREST)
        img.save(path)
        return path


# ----------------------------------------------------------------- the room
class Room:
    """Boxes on one virtual clock (module notes).

    :param clock_ms_start: the Unix time (ms) the room's clock starts at.
    :param seed: every box's tick offset and link nonces come from it.
    :param render: "lazy" or "full" (module notes), for the boxes added.
    """

    def __init__(self, clock_ms_start: int = 0, seed: int = 1, render: str = "lazy") -> None:
        self.start_ms = clock_ms_start
        self.seed = seed
        self.render = render
        self.now_ms = 0
        self.boxes: List[Box] = []
        # the host's side, called with room.clock() after every step
        self.on_host: Optional[Callable[[int], None]] = None
        self.steps = 0

    def clock(self) -> int:
        """The room's time as Unix ms (for the host: BoxLink(clock=room.clock))."""
        return self.start_ms + self.now_ms

    def box(self, n: int) -> "Box":
        """The box of table *n*."""
        for box in self.boxes:
            if box.n == n:
                return box
        raise KeyError("no box for table %r" % (n,))

    def add_box(self, n: int, board_name: str = "compact", transport: Any = "cable",
                setup: Optional[Dict[str, Any]] = None, key: Optional[bytes] = None,
                key_id: Optional[str] = None, event: Optional[str] = None,
                box_id: Optional[str] = None, render: Optional[str] = None) -> "Box":
        """A new box for table *n*, powered up now.

        :param transport: "cable", "pty" or a transport object (module notes).
        :param setup: its table (the default table without one).
        :param key: the event key: the box is paired with it (``key_id``,
            table *n*, *event*) and holds *setup*, as after pairing and a
            host's config; without a key its nvm is erased (a box fresh from
            the bring-up: the default table, not paired).
        :param box_id: default ``tc-%02d`` of *n*.
        """
        if board_name not in BOARDS:
            raise ValueError("unknown board %r (boards: %s)" % (
                board_name, ", ".join(sorted(BOARDS))))
        if any(box.n == n for box in self.boxes):
            raise ValueError("table %r has a box already" % (n,))
        rng = random.Random("%s/%s" % (self.seed, n))
        world = _world.World(start=_world.START + rng.randrange(BOOT_MS),
                         name=box_id or "tc-%02d" % n)
        if key is not None:
            pairing = {"key": key.hex(), "key_id": key_id or "k", "table": n}
            if event is not None:
                pairing["event"] = event
            provision(world.nvm, setup, pairing)
        elif setup is not None:
            provision(world.nvm, setup)
        else:
            world.nvm.erase()
        box = Box(self, n, board_name, world, _transport(transport), world.name,
                render or self.render, rng.getrandbits(64))
        self.boxes.append(box)
        box.boot()
        return box

    def step(self, ms: int = PERIOD_MS) -> None:
        """*ms* of virtual time pass: each running box's loop runs once, the
        dealers whose wait is over act, the transports deliver, the host's
        side runs (``on_host``)."""
        self.now_ms += ms
        self.steps += 1
        with _KeepWorld():
            for box in self.boxes:
                if box.restart:
                    box.reboot()
                if not box.on:
                    continue
                box.world.advance(ms)
                box.step()
                if box.on:
                    box.resume()
        self.sync()
        if self.on_host is not None:
            self.on_host(self.clock())
            self.sync()

    def run(self, ms: int, period: int = PERIOD_MS) -> None:
        """Steps of *period* ms until *ms* have passed."""
        end = self.now_ms + ms
        while self.now_ms < end:
            self.step(min(period, end - self.now_ms))

    def sync(self) -> None:
        for box in self.boxes:
            box.transport.sync()

    def close(self) -> None:
        """Stop the dealers, close the transports (the ptys)."""
        for box in self.boxes:
            box.stop()
            box.transport.close()
