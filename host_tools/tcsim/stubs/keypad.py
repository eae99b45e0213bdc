"""keypad: Keys with a debounced event queue; presses come from the simulator.

The simulator schedules key edges by pin name (``_world.schedule``); a Keys
that scans that pin queues an Event with the edge's timestamp (ticks ms).
Like the board: at most *max_events* queued, the oldest dropped on overflow
with ``overflowed`` set; ``get_into`` allocates nothing.  A Keys belongs to
the world that was current when it was made (``_world``: one per simulated
box) and takes its edges from that world only.
"""

try:
    from typing import Any, Dict, List, Optional, Set, Tuple  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world  # type: ignore[no-redef]


class Event:
    def __init__(self, key_number: int = 0, pressed: bool = True) -> None:
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = 0

    @property
    def released(self) -> Any:
        return not self.pressed

    def __eq__(self, other: Any) -> Any:
        return (self.key_number == other.key_number and self.pressed == other.pressed)

    def __hash__(self) -> Any:
        return self.key_number * 2 + (1 if self.pressed else 0)

    def __repr__(self) -> Any:
        return "<Event: key_number %d %s>" % (self.key_number,
                                             "pressed" if self.pressed else "released")


class EventQueue:
    def __init__(self, max_events: Any, world: Any = None) -> None:
        self._q: List[Any] = []
        self._max = max_events
        self._world = world if world is not None else _world.current()
        self.overflowed = False

    def _put(self, n: int, pressed: Any, ts: Any) -> None:
        if len(self._q) >= self._max:
            self._q.pop(0)
            self.overflowed = True
        self._q.append((n, pressed, ts))

    def get(self) -> Any:
        self._world.deliver()
        if not self._q:
            return None
        n, pressed, ts = self._q.pop(0)
        e = Event(n, pressed)
        e.timestamp = ts
        return e

    def get_into(self, event: Any) -> Any:
        self._world.deliver()
        if not self._q:
            return False
        n, pressed, ts = self._q.pop(0)
        event.key_number = n
        event.pressed = pressed
        event.timestamp = ts
        return True

    def clear(self) -> None:
        del self._q[:]
        self.overflowed = False

    def __len__(self) -> Any:
        self._world.deliver()
        return len(self._q)

    def __bool__(self) -> Any:
        return len(self) > 0


class Keys:
    def __init__(self, pins: Any, value_when_pressed: bool = False, pull: bool = True,
                 interval: float = 0.02,
                 max_events: int = 64, debounce_threshold: int = 1) -> None:
        self._pins = tuple(pins)
        self.value_when_pressed = value_when_pressed
        self.pull = pull
        self.key_count = len(self._pins)
        self._world = _world.current()
        self.events = EventQueue(max_events, self._world)
        self._down = [False] * self.key_count
        self._world.keys.append(self)
        for i in range(self.key_count):  # held at power-up: pressed at the first scan
            if getattr(self._pins[i], "name", self._pins[i]) in self._world.held:
                self.events._put(i, True, self._world.ticks_ms())

    def _index(self, pin: Any) -> Any:
        for i in range(len(self._pins)):
            if getattr(self._pins[i], "name", self._pins[i]) == pin:
                return i
        return -1

    def reset(self) -> None:
        self.events.clear()

    def deinit(self) -> None:
        if self in self._world.keys:
            self._world.keys.remove(self)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.deinit()
