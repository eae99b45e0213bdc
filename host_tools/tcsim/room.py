"""A simulated room: many whole boxes (:class:`Box`, the firmware's App and host link) in one
process on one virtual clock, each in its own stub world, linked to the host.

    room = Room(clock_ms_start=1_760_000_000_000, seed=7)
    box = room.add_box(1, "compact", key=KEY, key_id="ev1-k1", setup=SETUP)  # over a cable
    room.on_host = lambda now: host.poll(now); room.run(30 * 60 * 1000)

docs/simulator.md, "A room of boxes" (worlds, the clock, dealers, transports, rendering).
"""

import gc
import random
from time import perf_counter

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
from tcbox import app as _app_mod, hardware, screen as _screen_mod, usb_link  # noqa: E402
from tcbox.boards import BOARDS  # noqa: E402
from tcbox.crashlog import LOG  # noqa: E402
from tcbox.defaults import SETUP as DEFAULT_SETUP  # noqa: E402
from tcbox.linkparts import tick  # noqa: E402

from . import sim as _sim  # noqa: E402
from .display import make_display, to_image  # noqa: E402
from .sim import Sim  # noqa: E402
from .stubs import _world  # noqa: E402
from .transports import transport as _transport  # noqa: E402

Screen = _screen_mod.Screen  # the real one (add_box may stand a LazyScreen in for it)
PERIOD_MS = 100  # room.run's step: every box's loop runs this often (virtual ms)
BOOT_MS = 3000  # a board spends up to this long booting before code.py (seeded per box)


class QuietGc:
    """The ``gc`` tcbox.app sees while a room steps (module notes)."""

    def __init__(self):
        self.collects = 0

    def collect(self, *generation):
        self.collects += 1
        return 0

    def __getattr__(self, name):
        return getattr(gc, name)


class _Boxes:
    """While a room works on its boxes: the world current before is put
    back, and tcbox.app sees the room's QuietGc."""

    def __init__(self, room):
        self.quiet = room.gc

    def __enter__(self):
        self.world = _world.current()
        self.gc = _app_mod.gc
        _app_mod.gc = self.quiet

    def __exit__(self, *exc):
        _app_mod.gc = self.gc
        _world.use(self.world)


# ------------------------------------------------------------------ screen
_TEMPLATES = {}


def _template(width, height):
    """A Screen of that size, made once: its pages' menu rows and page choice."""
    t = _TEMPLATES.get((width, height))
    if t is None:
        t = _TEMPLATES[(width, height)] = Screen(None, width, height)
    return t


class LazyScreen:
    """tcbox.screen.Screen's API that keeps only the fields until looked at.

    ``update(fields)`` stores a copy and returns how many fields changed.
    Any other attribute (``root``, ``page``, ``pages``, ``texts()``...) is
    the real Screen's, built on first use and brought up to the last fields
    (with each page's menu scrolled where the live screen would have it).
    ``release()`` drops it again.
    """

    def __init__(self, display, width, height):
        self.width = width
        self.height = height
        self.compact = height < 200
        self.shown = None
        self.real = None
        self.stale = False
        t = _template(width, height)
        self.rows = [p[2].rows if p[2] is not None else 0 for p in t.pages]  # players': none
        self.which = t._which
        self.tops = [0] * len(self.rows)
        self.builds = 0

    def update(self, f):
        old = self.shown
        n = len(f)
        if old is not None:
            n = 0
            for k in f:
                if old.get(k) != f[k]:
                    n += 1
        self.shown = dict(f)
        p = self.which(f)
        if self.rows[p]:
            self.tops[p] = _screen_mod.menu_top(self.tops[p], len(f.get("menu") or ()),
                                                f.get("menu_i") or 0, self.rows[p])
        self.stale = True
        return n

    def materialize(self):
        """The real Screen showing the last fields."""
        s = self.real
        if s is None:
            s = self.real = Screen(None, self.width, self.height)
            self.builds += 1
            self.stale = True
        if self.stale and self.shown is not None:
            for p in range(len(self.tops)):
                if s.pages[p][2] is not None:
                    s.pages[p][2].top_i = self.tops[p]
            s.update(self.shown)
        self.stale = False
        return s

    def release(self):
        self.real = None

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.materialize(), name)


# -------------------------------------------------------------- the nvm
def provision(nvm, setup=None, pairing=None):
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

    def __init__(self, room, n, board_name, world, transport, box_id, render, seed):
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
        self.watch = []
        self.bot = None
        self.fiber = None
        self.wake = None
        self.box = None
        p = self.profile = BOARDS[board_name]
        self.roles = [k["role"] for k in p["keys"]]
        self.pins = {k["role"]: k["pin"] for k in p["keys"]}
        self.width = p["display"]["width"]
        self.height = p["display"]["height"]
        self.display = None  # a Blinka display only while a screenshot is drawn
        self.step_wall_s = 0.0
        self.step_ms = 0

    @property
    def host_port(self):
        return self.transport.host_port

    @property
    def table(self):
        return self.box.table

    @property
    def link(self):
        return self.box.link if self.box is not None else None

    # -- power ---------------------------------------------------------
    def boot(self):
        """Power up as code.py does, in this box's world: tcbox.hardware.build
        with the transport's box end as ``usb_cdc.data``, then one step."""
        w = self.world
        saved = (hardware.display, usb_link.box_id, _screen_mod.Screen)
        with _Boxes(self.room):
            _world.use(w)
            w.reset()
            usb_cdc.set_ports(w, data=self.transport.box_port)
            board.DISPLAY = None
            board.board_id = self.profile["board_id"]
            try:
                hardware.display = lambda spec: None  # Screen(None, ...): groups only
                usb_link.box_id = lambda: self.box_id
                if self.render == "lazy":
                    _screen_mod.Screen = LazyScreen
                self.box = hardware.build(self.board_name)
            finally:
                hardware.display, usb_link.box_id, _screen_mod.Screen = saved
            if self.box.link is not None:
                self.box.link.urandom = self.nonces.randbytes  # seeded hello nonces
            self.screen = self.box.screen
            self.keys = self.box.keys
            self.ring = self.box.ring
            self.buzzer = self.box.buzzer
            self.on = True
            self.restart = False
            self.boots += 1
            self.step()
        return self

    def power_cut(self):
        """The power goes off now (between two loop steps): the box stops,
        its transport carries nothing; its dealer waits for the power."""
        self.on = False
        self.transport.cut()

    def power_on(self):
        """The next power-up: the box boots from its nvm, its dealer starts
        its script again (tcsim/dealers.py)."""
        self.transport.mend()
        self.reboot()

    def reboot(self):
        """Boot again (after ``microcontroller.reset()`` or a power cut)."""
        self.boot()
        if self.bot is not None:
            self.play(self.bot)

    # -- the loop ------------------------------------------------------
    def step(self):
        """One loop iteration as tcbox.hardware.run does it (App.step, then
        the link's tick), in this box's world.  A power cut during it (an
        armed nvm cut) switches the box off; a reset reboots it next step."""
        if not self.on:
            return
        w = self.world
        _world.use(w)
        at = w.now_ms
        t0 = perf_counter()
        try:
            now = w.ticks_ms()
            self.box.step(now)
            if self.box.link is not None:
                tick(self.box, self.box.link, now)
            microcontroller.watchdog.check()
        except microcontroller.ResetRequested:
            self.resets += 1
            self.restart = True
        except _world.PowerCut:
            self.power_cut()
        self.step_wall_s = perf_counter() - t0
        self.step_ms = w.now_ms - at
        for f in self.watch:
            f(self)

    def _dealing(self):
        if self.fiber is None or getcurrent() is not self.fiber:
            raise RuntimeError("box %s: only its dealer presses and waits (Box.play); time "
                               "passes with room.step() or room.run()" % self.box_id)

    def press(self, role, ms=_sim.SHORT_MS):
        """The dealer holds a key for *ms*, then waits a little (Sim.press)."""
        self._dealing()
        Sim.press(self, role, ms)

    def run_for(self, ms, period=None):
        """A dealer waits *ms* (in its greenlet): the room goes on meanwhile."""
        if ms <= 0:
            return
        self._dealing()
        self.wake = self.room.now_ms + ms
        self.fiber.parent.switch()

    def play(self, bot):
        """Let *bot* (an object with ``run()``, e.g. tcsim.dealers.RoomNight)
        deal at this box from the next step on, in a greenlet of its own.
        A dealer already playing stops first."""
        self.stop()
        self.bot = bot
        self.fiber = greenlet(bot.run)
        self.wake = self.room.now_ms

    def stop(self):
        """Stop this box's dealer, if any."""
        f = self.fiber
        self.fiber = None
        self.wake = None
        if f is not None and not f.dead:
            try:
                f.throw(GreenletExit)
            except GreenletExit:
                pass

    def resume(self):
        """Let the dealer go on if its wait is over (the room calls this)."""
        f = self.fiber
        if f is not None and self.wake is not None and self.wake <= self.room.now_ms:
            self.wake = None
            f.parent = getcurrent()  # whoever steps the room
            f.switch()

    # -- what a person sees ----------------------------------------------
    def texts(self):
        return _sim.label_texts(self.screen.root)

    def image(self):
        """The screen as a PIL image, drawn now on a Blinka display made for it."""
        d = make_display(self.width, self.height)
        try:
            d.root_group = self.screen.root
            return to_image(d)
        finally:
            displayio.release_displays()

    def save_png(self, path, zoom=1):
        img = self.image()
        if zoom != 1:
            img = img.resize((img.width * zoom, img.height * zoom), Image.NEAREST)
        img.save(path)
        return path


# ----------------------------------------------------------------- the room
class Room:
    """Boxes on one virtual clock (module notes).

    :param clock_ms_start: the Unix time (ms) the room's clock starts at.
    :param seed: every box's tick offset and link nonces come from it.
    :param render: "lazy" or "full" (module notes), for the boxes added.
    """

    def __init__(self, clock_ms_start=0, seed=1, render="lazy"):
        self.start_ms = clock_ms_start
        self.seed = seed
        self.render = render
        self.now_ms = 0
        self.boxes = []
        self.on_host = None  # callable(room.clock()): the host's side, after every step
        self.steps = 0
        self.gc = QuietGc()

    def clock(self):
        """The room's time as Unix ms (for the host: BoxLink(clock=room.clock))."""
        return self.start_ms + self.now_ms

    def box(self, n):
        """The box of table *n*."""
        for b in self.boxes:
            if b.n == n:
                return b
        raise KeyError("no box for table %r" % (n,))

    def add_box(self, n, board_name="compact", transport="cable", setup=None, key=None,
                key_id=None, event=None, box_id=None, render=None):
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
        if any(b.n == n for b in self.boxes):
            raise ValueError("table %r has a box already" % (n,))
        rng = random.Random("%s/%s" % (self.seed, n))
        w = _world.World(start=_world.START + rng.randrange(BOOT_MS),
                         name=box_id or "tc-%02d" % n)
        if key is not None:
            pairing = {"key": key.hex(), "key_id": key_id or "k", "table": n}
            if event is not None:
                pairing["event"] = event
            provision(w.nvm, setup, pairing)
        elif setup is not None:
            provision(w.nvm, setup)
        else:
            w.nvm.erase()
        b = Box(self, n, board_name, w, _transport(transport), w.name,
                render or self.render, rng.getrandbits(64))
        self.boxes.append(b)
        b.boot()
        return b

    def step(self, ms=PERIOD_MS):
        """*ms* of virtual time pass: each running box's loop runs once, the
        dealers whose wait is over act, the transports deliver, the host's
        side runs (``on_host``)."""
        self.now_ms += ms
        self.steps += 1
        with _Boxes(self):
            for b in self.boxes:
                if b.restart:
                    b.reboot()
                if not b.on:
                    continue
                b.world.advance(ms)
                b.step()
                if b.on:
                    b.resume()
        self.sync()
        if self.on_host is not None:
            self.on_host(self.clock())
            self.sync()

    def run(self, ms, period=PERIOD_MS):
        """Steps of *period* ms until *ms* have passed."""
        end = self.now_ms + ms
        while self.now_ms < end:
            self.step(min(period, end - self.now_ms))

    def sync(self):
        for b in self.boxes:
            b.transport.sync()

    def close(self):
        """Stop the dealers, close the transports (the ptys)."""
        for b in self.boxes:
            b.stop()
            b.transport.close()
