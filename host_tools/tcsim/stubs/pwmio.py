"""pwmio: PWMOut records (time, pin, frequency, duty) in the tones of the world
that was current when it was made (tcsim/stubs/_world.py)."""

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        self.pin = pin
        self._duty = duty_cycle
        self._freq = frequency
        self.variable_frequency = variable_frequency
        self._world = _world.current()
        self._log()

    def _log(self):
        w = self._world
        w.tones.append((w.now_ms, getattr(self.pin, "name", str(self.pin)), self._freq,
                        self._duty))

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, v):
        if v != self._duty:
            self._duty = v
            self._log()

    @property
    def frequency(self):
        return self._freq

    @frequency.setter
    def frequency(self, v):
        if v != self._freq:
            self._freq = v
            self._log()

    def deinit(self):
        self.duty_cycle = 0
