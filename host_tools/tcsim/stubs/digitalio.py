"""digitalio: DigitalInOut keeps its value; inputs read their pull level, or
the pressed level of a key the world holds down (``_world.World.hold``: the
boards' keys pull up when active low, down when active high)."""

try:
    from typing import Any  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world  # type: ignore[no-redef]


class Direction:
    INPUT = "input"
    OUTPUT = "output"


class Pull:
    UP = "up"
    DOWN = "down"


class DriveMode:
    PUSH_PULL = "push_pull"
    OPEN_DRAIN = "open_drain"


class DigitalInOut:
    def __init__(self, pin: Any) -> None:
        self.pin = pin
        self.direction = Direction.INPUT
        self.pull = None
        self.drive_mode = DriveMode.PUSH_PULL
        self._value = False

    @property
    def value(self) -> Any:
        if self.direction == Direction.INPUT:
            if getattr(self.pin, "name", self.pin) in _world.current().held:
                return self.pull != Pull.UP  # pressed: away from the pull
            return self.pull == Pull.UP
        return self._value

    @value.setter
    def value(self, v: Any) -> None:
        self._value = bool(v)

    def switch_to_output(self, value: bool = False, drive_mode: Any = DriveMode.PUSH_PULL) -> None:
        self.direction = Direction.OUTPUT
        self._value = bool(value)
        self.drive_mode = drive_mode

    def switch_to_input(self, pull: Any = None) -> None:
        self.direction = Direction.INPUT
        self.pull = pull

    def deinit(self) -> None:
        pass

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.deinit()
