"""supervisor: ticks_ms() from the virtual clock (wraps at 2**29), runtime."""

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world


def ticks_ms():
    return _world.ticks_ms()


class _Runtime:
    autoreload = True
    serial_connected = False
    serial_bytes_available = 0
    usb_connected = True
    run_reason = 0
    safe_mode_reason = 0


runtime = _Runtime()


def reload():
    try:
        from .microcontroller import reset
    except ImportError:
        from microcontroller import reset
    reset()


def set_next_code_file(filename, **kwargs):
    pass


def disable_autoreload():
    runtime.autoreload = False
