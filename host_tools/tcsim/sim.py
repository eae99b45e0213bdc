"""The box on the desktop: the firmware's own adapters and loop on the stub hardware and a
virtual clock.  :class:`Sim` builds a board around a table (``Sim.boot``: as code.py does,
from nvm); ``press``, ``tick`` and ``do`` are a dealer's hands, ``snapshot()`` what a person
sees.  Each Sim runs in its stub world (tcsim/stubs/_world.py), so boxes can take turns.
docs/simulator.md, "The loop".
"""

from time import perf_counter
from typing import Any, Callable, List, Tuple

from . import stubs

world = stubs.install()  # before anything imports board, keypad, displayio...

import board  # noqa: E402
import displayio  # noqa: E402
import microcontroller  # noqa: E402
from adafruit_display_text import LabelBase  # noqa: E402

from tableclock.table import Table  # noqa: E402
from tcbox.app import App  # noqa: E402
from tcbox.boards import BOARDS  # noqa: E402
from tcbox.hardware import Buzzer, KeyScanner, Ring  # noqa: E402
from tcbox.presses import LONG_MS  # noqa: E402
from tcbox.screen import Screen  # noqa: E402

from .display import make_display, render_png, to_image  # noqa: E402

SHORT_MS = 80  # a short press
LONG_HOLD = 500  # script presses held this long or longer are long presses
GAP_MS = 120  # between two presses of the dealer
SCAN_MS = 10  # the loop's period while keys move


def board_names() -> Any:
    return sorted(BOARDS)


class Sim:
    """One simulated box.

    :param board_name: a key of tcbox.boards.BOARDS ("compact", "table").
    :param setup: the replay contract's setup dict.
    :param engine: kept for old scripts: the loop is always tcbox.app.App.
    """

    def __init__(self, board_name: str, setup: Any, engine: str = "app", info: Any = None) -> None:
        self._power_up(board_name)
        self.screen = Screen(self.display, self.width, self.height)
        self.table = Table(setup)
        profile = self.profile
        self.keys = KeyScanner(profile["keys"])
        self.ring = Ring(profile["ring"]) if profile.get("ring") else None
        self.buzzer = Buzzer(profile["buzzer"]) if profile.get("buzzer") else None
        n = profile["ring"]["pixels"] if profile.get("ring") else 0
        self.box = App(self.table, self.roles, self.screen, self.keys, ring=self.ring,
                       buzzer=self.buzzer, seats_in_ring=n, board=profile["name"])
        self._started(info)

    @classmethod
    def boot(cls, board_name: str, info: Any = None) -> Any:
        """Power the box up as code.py does: ``tcbox.hardware.build()`` on
        the stubs, with the simulator's display in place of the board's.
        The virtual clock starts again at 0; nvm keeps what it holds
        (``world.nvm.erase()`` first for a box fresh from the bring-up)."""
        from tcbox import hardware

        self = cls.__new__(cls)
        self._power_up(board_name)
        real = hardware.display
        hardware.display = lambda spec: board.DISPLAY  # an SPI panel: the sim's display
        try:
            self.box = hardware.build(board_name)
        finally:
            hardware.display = real
        self.screen = self.box.screen
        self.table = self.box.table
        self.keys = self.box.keys
        self.ring = self.box.ring
        self.buzzer = self.box.buzzer
        self._started(info)
        return self

    def _power_up(self, board_name: str) -> None:
        """The virtual world from zero and the board's display."""
        if board_name not in BOARDS:
            raise ValueError("unknown board %r (boards: %s)" % (board_name,
                                                                ", ".join(board_names())))
        world.reset_world()
        self.world = world.current()  # this box's clock, keys, nvm (tcsim/stubs/_world.py)
        self.board_name = board_name
        self.profile = profile = BOARDS[board_name]
        self.roles = [k["role"] for k in profile["keys"]]
        self.pins = {k["role"]: k["pin"] for k in profile["keys"]}
        self.width = profile["display"]["width"]
        self.height = profile["display"]["height"]
        self.display = make_display(self.width, self.height)
        board.DISPLAY = self.display
        board.board_id = profile["board_id"]

    def _started(self, info: Any) -> None:
        if info:
            self.box.info = dict(info)
        self.resets = 0
        self.watch: List[Callable[["Sim"], None]] = []
        self.step()

    # -- time and keys ---------------------------------------------------
    def step(self) -> None:
        """One loop iteration at the virtual clock's time.  Afterwards
        ``step_wall_s`` is the wall time ``App.step`` took, ``step_ms`` the
        virtual time that passed during it (0: nothing in it waits), and each
        callable in ``watch`` is called with the Sim."""
        world.use(self.world)
        at = world.now_ms
        t0 = perf_counter()
        try:
            self.box.step(world.ticks_ms())
            microcontroller.watchdog.check()  # type: ignore[union-attr]
        except microcontroller.ResetRequested:  # type: ignore[attr-defined]  # the stub's
            self.resets += 1
        self.step_wall_s = perf_counter() - t0
        self.step_ms = world.now_ms - at
        for watcher in self.watch:
            watcher(self)

    def run_for(self, ms: int, period: int = SCAN_MS) -> None:
        """Let *ms* pass, running the loop every *period* ms."""
        world.use(self.world)
        end = world.now_ms + ms
        while world.now_ms < end:
            step_ms = period
            if self.buzzer is not None and getattr(self.buzzer, "notes", None):
                step_ms = SCAN_MS  # a tone is playing: its notes are short
            world.advance(min(step_ms, end - world.now_ms))
            self.step()

    def press(self, role: str, ms: int = SHORT_MS) -> None:
        """Hold the key with *role* for *ms*, release it, pause briefly.

        Holds of LONG_HOLD (500) ms or more are long presses: they are held
        at least until the firmware's LONG_MS so the press is long whatever
        its threshold; shorter ones are kept below it.
        """
        if role not in self.pins:
            raise ValueError("the %s board has no %r key (keys: %s)" % (
                self.board_name, role, ", ".join(self.roles)))
        if ms >= LONG_HOLD:
            ms = max(ms, LONG_MS + 2 * SCAN_MS)
        else:
            ms = min(ms, LONG_MS - 2 * SCAN_MS)
        pin = self.pins[role]
        world.use(self.world)
        world.schedule(pin, True, world.now_ms)
        world.schedule(pin, False, world.now_ms + ms)
        self.run_for(ms + GAP_MS)

    def tick(self, seconds: float) -> None:
        """Let *seconds* pass with no key touched."""
        ms = int(seconds * 1000 + 0.5)
        self.run_for(ms, period=100 if ms <= 10000 else 250)

    def host(self, event: Any) -> None:
        """An event from the host (not from the keys): the table applies it
        and the box redraws, as when the host link delivers a command."""
        self.table.handle(event)
        self.box.dirty = True
        self.step()

    # -- what a person sees ----------------------------------------------
    @property
    def menu(self) -> Any:
        return self.box.menu

    def state(self) -> Any:
        return self.table.state()

    def texts(self) -> Any:
        """Every visible label string, top to bottom, left to right (a label
        wrapped onto lines gives its lines joined by a space)."""
        return label_texts(self.display.root_group)

    def leds(self) -> Any:
        if self.ring is None:
            return []
        return [list(c) for c in self.ring.px.shown]

    def snapshot(self) -> Any:
        return {"texts": self.texts(), "leds": self.leds(), "state": self.state()}

    def image(self) -> Any:
        return to_image(self.display)

    def save_png(self, path: str, zoom: int = 1) -> Any:
        return render_png(self.display, path, zoom)


def label_texts(group: Any) -> Any:
    """Every visible label string under *group*, top to bottom, left to
    right; labels flush side by side on one line read as one text (the
    clock's minutes and seconds: tcbox/widgets.py ClockSlot)."""
    out: List[Tuple[int, int, str, int]] = []  # (y, x, text, right edge)
    _labels(group, 0, 0, out)
    out.sort()
    texts = []
    end = None
    for y, x, text, right in out:
        if end is not None and end == (y, x):
            texts[-1] += text
        else:
            texts.append(text)
        end = (y, right)
    return texts


def _labels(group: Any, x: Any, y: Any, out: Any) -> None:
    if getattr(group, "hidden", False):
        return
    x += group.x
    y += group.y
    if isinstance(group, LabelBase):
        if group.text:  # a wrapped label's lines joined by a space
            right = x + group.bounding_box[2] * group.scale
            out.append((y, x, group.text.replace("\n", " "), right))
        return
    for i in range(len(group)):
        item = group[i]
        if isinstance(item, displayio.Group):
            _labels(item, x, y, out)
