"""digitalio: DigitalInOut keeps its value; inputs read their pull level, or
the pressed level of a key the world holds down (``_world.World.hold``: the
boards' keys pull up when active low, down when active high)."""

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world


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
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT
        self.pull = None
        self.drive_mode = DriveMode.PUSH_PULL
        self._value = False

    @property
    def value(self):
        if self.direction == Direction.INPUT:
            if getattr(self.pin, "name", self.pin) in _world.current().held:
                return self.pull != Pull.UP  # pressed: away from the pull
            return self.pull == Pull.UP
        return self._value

    @value.setter
    def value(self, v):
        self._value = bool(v)

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self._value = bool(value)
        self.drive_mode = drive_mode

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def deinit(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
