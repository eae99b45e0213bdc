"""Byte stores for the power-loss record (record.Slots): ``size``,
``read(offset, n) -> bytes`` and ``write(offset, data)``.

No hardware imports: the board passes its objects in.

- :class:`MemoryStore`: RAM (tests, the simulator);
- :class:`FileStore`: a file of ``size`` bytes (CPython tools; a CircuitPython
  flash file once ``boot.py`` remounted the drive writable);
- :class:`NvmStore`: ``microcontroller.nvm`` (8 KiB on ESP32, 4 KiB on
  RP2040), or a window of it.  Every write rewrites the whole nvm (and
  allocates its size on the heap): Slots writes each record with a single
  slice assignment.

A fresh store reads as 0xFF bytes: no record.
"""

import os

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, List, Optional  # noqa: F401 (type comments)


ERASED = 0xFF


class MemoryStore:
    """*size* bytes of RAM, kept in 1 KiB pieces: a fragmented MicroPython
    heap may have no free block of 8 KiB."""

    PIECE = 1024

    def __init__(self, size):  # type: (int) -> None
        self.size = size
        self.pieces = []  # type: List[bytearray]
        for i in range(0, size, self.PIECE):
            n = min(self.PIECE, size - i)
            self.pieces.append(bytearray(bytes([ERASED]) * n))

    def read(self, offset, n):  # type: (int, int) -> bytes
        end = min(offset + n, self.size)
        out = bytearray()
        while offset < end:
            p, o = divmod(offset, self.PIECE)
            k = min(self.PIECE - o, end - offset)
            out.extend(self.pieces[p][o:o + k])
            offset += k
        return bytes(out)

    def write(self, offset, data):  # type: (int, bytes) -> None
        if offset < 0 or offset + len(data) > self.size:
            raise ValueError("write of %d bytes at %d outside %d" % (len(data), offset, self.size))
        i = 0
        while i < len(data):
            p, o = divmod(offset + i, self.PIECE)
            k = min(self.PIECE - o, len(data) - i)
            self.pieces[p][o:o + k] = data[i:i + k]
            i += k


def _fill(f, n):
    piece = bytes([ERASED]) * 256
    while n > 0:
        f.write(piece if n >= 256 else piece[:n])
        n -= 256


class FileStore:
    """A file of *size* bytes at *path* (created, or extended, with 0xFF)."""

    def __init__(self, path, size):  # type: (str, int) -> None
        self.path = path
        self.size = size
        try:
            have = os.stat(path)[6]
        except OSError:
            have = -1
        if have < size:
            with open(path, "wb" if have < 0 else "ab") as f:
                _fill(f, size - max(have, 0))

    def read(self, offset, n):  # type: (int, int) -> bytes
        with open(self.path, "rb") as f:
            f.seek(offset)
            return f.read(n)

    def write(self, offset, data):  # type: (int, bytes) -> None
        with open(self.path, "r+b") as f:
            f.seek(offset)
            f.write(data)
            f.flush()
            try:
                os.fsync(f.fileno())
            except (AttributeError, OSError):
                pass  # MicroPython/CircuitPython: closing the file writes it
        try:
            os.sync()
        except (AttributeError, OSError):
            pass


class NvmStore:
    """``microcontroller.nvm`` (a bytearray-like object), or *size* bytes of
    it from *offset*.  Pass the object: ``NvmStore(microcontroller.nvm)``."""

    def __init__(self, nvm, offset=0, size=None):  # type: (Any, int, Optional[int]) -> None
        self.nvm = nvm
        self.base = offset
        self.size = (len(nvm) - offset) if size is None else size
        if offset < 0 or self.size <= 0 or offset + self.size > len(nvm):
            raise ValueError("nvm window %d+%d outside its %d bytes"
                             % (offset, self.size, len(nvm)))

    def read(self, offset, n):  # type: (int, int) -> bytes
        a = self.base + offset
        return bytes(self.nvm[a:a + n])

    def write(self, offset, data):  # type: (int, bytes) -> None
        a = self.base + offset
        self.nvm[a:a + len(data)] = data  # one nvm write
