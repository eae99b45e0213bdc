"""An in-memory serial cable: two ends with the API the links use (``in_waiting``,
``read``, ``write`` taking what fits, ``connected``, ``baudrate``), for the live host's
tests, the simulated room and the demo; ``cut()``/``mend()`` pull and plug it
(docs/simulator.md)."""

from typing import Any


class CableEnd:
    """One end of a Cable: reads what the other end wrote."""

    def __init__(self, cable: "Cable", inbox: bytearray, outbox: bytearray) -> None:
        self._cable = cable
        self._in = inbox
        self._out = outbox
        self.baudrate = 115200
        self.reads = 0
        self.writes = 0

    @property
    def connected(self) -> bool:
        return self._cable.up

    @property
    def in_waiting(self) -> int:
        return len(self._in)

    def read(self, n: int = 1) -> bytes:
        self.reads += 1
        data = bytes(self._in[:n])
        del self._in[:n]
        return data

    def write(self, buf: Any) -> int:
        """The bytes taken: none while the cable is cut, what fits in ``capacity``."""
        self.writes += 1
        if not self._cable.up:
            return 0
        room = self._cable.capacity - len(self._out)
        n = min(len(buf), max(0, room))
        if n:
            self._out.extend(bytes(buf[:n]))
        return n

    def flush(self) -> None:
        pass


class Cable:
    """Both directions of one cable; ``a`` and ``b`` are its ends.  ``capacity`` bounds
    the bytes waiting in each direction (a reader that stops makes ``write`` return 0, as
    a full USB buffer does)."""

    def __init__(self, capacity: int = 65536) -> None:
        self.capacity = capacity
        self.up = True
        ab = bytearray()
        ba = bytearray()
        self.a = CableEnd(self, ba, ab)
        self.b = CableEnd(self, ab, ba)

    def cut(self) -> None:
        """Drop the cable: bytes in flight are lost, writes take nothing."""
        self.up = False
        del self.a._in[:]
        del self.b._in[:]

    def mend(self) -> None:
        self.up = True
