"""board: every pin name exists (``board.D0``, ``board.A4``, ``board.TFT_CS``...).

The simulator sets ``board_id`` and ``DISPLAY`` (the Blinka display) for the
board profile it simulates.
"""

try:
    from typing import Any, Dict, List, Optional, Set, Tuple  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

try:
    from .microcontroller import Pin
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    from microcontroller import Pin  # type: ignore[assignment]

board_id = "tcsim"
DISPLAY = None
_pins: Dict[str, Any] = {}


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    p = _pins.get(name)
    if p is None:
        p = Pin(name)
        _pins[name] = p
    return p
