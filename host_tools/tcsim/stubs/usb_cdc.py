"""usb_cdc: console and data ports as in-memory pipes, the current world's (made on first use;
a room puts its own port there: ``set_ports``).  ``data.feed(b"...")`` is what the host sends,
``data.sent`` what the box wrote; ``timeout=0`` reads return what is there.
"""

try:
    from typing import Any, Optional  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass

try:
    from . import _world
except ImportError:  # a top-level module (MicroPython with MICROPYPATH)
    import _world  # type: ignore[no-redef]


class Serial:
    def __init__(self) -> None:
        self.timeout = None
        self.write_timeout = None
        self.connected = False
        self._in = bytearray()
        self.sent = bytearray()

    def feed(self, data: bytes) -> None:
        self._in += data

    @property
    def in_waiting(self) -> Any:
        return len(self._in)

    def read(self, n: Optional[int] = None) -> Any:
        if not self._in:
            return None
        if n is None or n >= len(self._in):
            out = bytes(self._in)
            self._in = bytearray()
            return out
        out = bytes(self._in[:n])
        self._in = self._in[n:]
        return out

    def readline(self) -> Any:
        i = self._in.find(b"\n")
        if i < 0:
            return None
        return self.read(i + 1)

    def readinto(self, buf: bytearray) -> Optional[int]:
        data = self.read(len(buf))
        if not data:
            return None
        buf[:len(data)] = data
        return len(data)

    def write(self, buf: bytes) -> Any:
        self.sent += buf
        return len(buf)

    def flush(self) -> None:
        pass

    def reset_input_buffer(self) -> None:
        self._in = bytearray()

    def reset_output_buffer(self) -> None:
        pass


def _ports() -> Any:
    return {"console": Serial(), "data": Serial()}


def set_ports(world: Any, console: Any = None, data: Optional[bytes] = None) -> None:
    """Give *world*'s box these ports (None: that port is absent, as on a
    board whose boot.py did not enable it)."""
    world.parts["usb_cdc"] = {"console": console, "data": data}


def __getattr__(name: str) -> Any:
    """``console`` and ``data``: the current world's."""
    if name == "console" or name == "data":
        w = _world.current()
        ports = w.parts.get("usb_cdc")
        if ports is None:
            ports = w.parts["usb_cdc"] = _ports()
        return ports[name]
    raise AttributeError(name)


def enable(console: bool = True, data: bool = False) -> None:
    pass


def disable() -> None:
    pass
