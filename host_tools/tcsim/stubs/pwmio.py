"""pwmio: PWMOut records (time, pin, frequency, duty) in the tones of the world
that was current when it was made (tcsim/stubs/_world.py)."""

try:
    from typing import Any  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world  # type: ignore[no-redef]


class PWMOut:
    def __init__(self, pin: Any, *, duty_cycle: int = 0, frequency: int = 500,
                 variable_frequency: bool = False) -> None:
        self.pin = pin
        self._duty = duty_cycle
        self._freq = frequency
        self.variable_frequency = variable_frequency
        self._world = _world.current()
        self._log()

    def _log(self) -> None:
        w = self._world
        w.tones.append((w.now_ms, getattr(self.pin, "name", str(self.pin)), self._freq,
                        self._duty))

    @property
    def duty_cycle(self) -> Any:
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, v: Any) -> None:
        if v != self._duty:
            self._duty = v
            self._log()

    @property
    def frequency(self) -> Any:
        return self._freq

    @frequency.setter
    def frequency(self, v: Any) -> None:
        if v != self._freq:
            self._freq = v
            self._log()

    def deinit(self) -> None:
        self.duty_cycle = 0
