"""How a simulated box reaches the host over USB: tdhost.links.pipe's in-memory cable, or a real
pseudo-terminal (the box on the master, the host on the slave by name), and ``transport()``
which a room's ``add_box(transport=...)`` goes through.  docs/simulator.md, "A room of boxes"
(Transports); the MQTT transport is tcsim.nightnet's.
"""

import fcntl
import os
import select
import struct
import termios
import tty
from time import perf_counter
from typing import Any, Union

SYNC_S = 0.2  # the longest a pty's sync waits for the kernel (wall seconds)


def _fionread(fd: int) -> int:
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


class PtyPort:
    """usb_cdc.Serial's API on a pty master, non-blocking: the box's end.
    ``put``/``got``: bytes written and read so far."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fd = fd
        self.connected = True
        self.timeout = 0
        self.write_timeout = None
        self.put = 0
        self.got = 0

    @property
    def in_waiting(self) -> int:
        return _fionread(self.fd)

    def read(self, n: int = 1) -> bytes:
        try:
            data = os.read(self.fd, n)
        except (BlockingIOError, OSError):
            return b""
        self.got += len(data)
        return data

    def write(self, buf: bytes) -> int:
        try:
            n = os.write(self.fd, buf)
        except (BlockingIOError, OSError):
            return 0
        self.put += n
        return n

    def drain(self) -> None:
        """Throw away what waits (the board's USB buffers after a power cut)."""
        while self.in_waiting:
            if not self.read(65536):
                break


class HostPtyEnd:
    """The host's end of a pty: the pyserial port ``tdhost.links.usb.open_port``
    opened on the slave's name, counting what passes.  Without an ``fd``
    attribute of its own, tdhost.links.usb.write_some writes through ``write``
    here, which does what write_some does with a POSIX port (a select,
    one os.write: never blocks)."""

    def __init__(self, ser: Any) -> None:
        self.ser = ser
        self.put = 0
        self.got = 0

    @property
    def baudrate(self) -> int:
        return self.ser.baudrate

    @property
    def in_waiting(self) -> int:
        return self.ser.in_waiting

    def read(self, n: int = 1) -> bytes:
        data = self.ser.read(n) or b""
        self.got += len(data)
        return data

    def write(self, buf: bytes) -> int:
        fd = self.ser.fd
        if not select.select([], [fd], [], 0)[1]:
            return 0
        try:
            n = os.write(fd, buf)
        except BlockingIOError:
            return 0
        self.put += n
        return n

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.ser.close()


class CableTransport:
    """tdhost.links.pipe's in-memory cable: ``box_port`` is its box end,
    ``host_port`` its host end."""

    def __init__(self, capacity: int = 65536) -> None:
        from tdhost.links.pipe import Cable

        self.cable = Cable(capacity)
        self.box_port = self.cable.a
        self.host_port = self.cable.b

    def sync(self) -> bool:
        return True

    def cut(self) -> None:
        self.cable.cut()

    def mend(self) -> None:
        self.cable.mend()

    def close(self) -> None:
        pass


class PtyTransport:
    """A real pseudo-terminal: the box on the master (:class:`PtyPort`), the
    host on the slave by name (``tdhost.links.usb.open_port``, :class:`HostPtyEnd`)."""

    def __init__(self) -> None:
        from tdhost.links.usb import open_port

        master, slave = os.openpty()
        tty.setraw(slave)  # no echo before pyserial opens it
        self.master = master
        self.slave = slave
        self.name = os.ttyname(slave)
        self.box_port = PtyPort(master)
        self.host_port = HostPtyEnd(open_port(self.name))
        self.late = 0  # syncs that gave up waiting
        self.closed = False

    def sync(self, wait_s: float = SYNC_S) -> bool:
        """Wait until the kernel has moved every byte each end wrote (a pty
        delivers in its own time); False if that took over *wait_s*."""
        box, host = self.box_port, self.host_port
        end = perf_counter() + wait_s
        while True:
            if (box.in_waiting >= host.put - box.got
                    and host.in_waiting >= box.put - host.got):
                return True
            if perf_counter() > end:
                self.late += 1
                return False
            select.select([], [], [], 0.0002)

    def cut(self) -> None:
        self.box_port.connected = False

    def mend(self) -> None:
        self.box_port.drain()
        self.box_port.connected = True

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.host_port.close()
            os.close(self.master)
            os.close(self.slave)


def transport(spec: Union[str, Any]) -> Any:
    """The transport *spec* names: ``"cable"``, ``"pty"``, or a transport object as it is
    (``box_port``, ``host_port``, ``sync()``, ``cut()``, ``mend()``, ``close()``)."""
    if spec == "cable":
        return CableTransport()
    if spec == "pty":
        return PtyTransport()
    if isinstance(spec, str):
        raise ValueError("unknown transport %r (cable, pty, or a transport object)" % spec)
    return spec
