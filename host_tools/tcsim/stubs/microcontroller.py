"""microcontroller: Pin, nvm (8 KiB, as on ESP32; _world.Nvm: a test can cut
the power in the middle of a write), reset(), cpu, watchdog.

``nvm`` and ``watchdog`` are the current world's (tcsim/stubs/_world.py: one
per simulated box), looked up each time they are read."""

try:
    from typing import Any  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

try:
    from . import _world
    from .watchdog import WatchDogMode, WatchDogTimeout
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world  # type: ignore[no-redef]
    from watchdog import WatchDogMode, WatchDogTimeout  # type: ignore[assignment]


class Pin:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> Any:
        return "board." + self.name


class ResetRequested(SystemExit):
    """microcontroller.reset() in the simulator: the sim catches it and
    starts the box again (nvm survives)."""


PowerCut = _world.PowerCut  # raised by nvm writes a test cut short (Nvm.cut_after)


def reset() -> None:
    _world.current().resets += 1
    raise ResetRequested("microcontroller.reset()")


def on_next_reset(run_mode: Any) -> None:
    pass


class RunMode:
    NORMAL = 0
    SAFE_MODE = 1
    UF2 = 2
    BOOTLOADER = 3


class _Cpu:
    frequency = 240000000
    temperature = 40.0
    voltage = 3.3
    uid = b"\x74\x63\x73\x69\x6d\x00"
    reset_reason = 0


cpu = _Cpu()
cpus = (cpu,)


class _Watchdog:
    """The board's watchdog (``microcontroller.watchdog``): with a mode set,
    ``check()`` (called by the simulator) fires once *timeout* seconds of
    virtual time pass without ``feed()``."""

    def __init__(self, world: Any) -> None:
        self.world = world
        self.timeout = 0
        self.mode = None
        self.fed = 0

    def feed(self) -> None:
        self.fed = self.world.now_ms

    def deinit(self) -> None:
        self.mode = None

    def check(self) -> None:
        if self.mode is None or self.timeout <= 0:
            return
        now = self.world.now_ms
        if now - self.fed > self.timeout * 1000:
            if self.mode == WatchDogMode.RAISE:
                self.fed = now
                raise WatchDogTimeout()
            reset()


def __getattr__(name: str) -> Any:
    """``nvm`` and ``watchdog``: the current world's."""
    w = _world.current()
    if name == "nvm":
        return w.nvm
    if name == "watchdog":
        wd = w.parts.get("watchdog")
        if wd is None:
            wd = w.parts["watchdog"] = _Watchdog(w)
        return wd
    raise AttributeError(name)
