"""supervisor: ticks_ms() from the virtual clock (wraps at 2**29), runtime."""

try:
    from typing import Any  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world  # type: ignore[no-redef]


def ticks_ms() -> Any:
    return _world.ticks_ms()


class _Runtime:
    autoreload = True
    serial_connected = False
    serial_bytes_available = 0
    usb_connected = True
    run_reason = 0
    safe_mode_reason = 0


runtime = _Runtime()


def reload() -> None:
    try:
        from .microcontroller import reset
    except ImportError:
        from microcontroller import reset
    reset()


def set_next_code_file(filename: Any, **kwargs: Any) -> None:
    pass


def disable_autoreload() -> None:
    runtime.autoreload = False
