"""The bytes both ends of a link share (docs/protocol.md): line framing,
a frame's kind read without verifying it, and ids safe in an MQTT topic.
Used by the box (tcbox) and the host (tdhost); CircuitPython-safe.
"""

from tableclock.protocol import MAX_FRAME

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Optional  # noqa: F401 (type comments)


_IDCHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-"


class Lines:
    """Bytes in, lines out, in a fixed buffer of *size* bytes.

    ``feed(data)`` takes at most ``room()`` bytes; ``line()`` returns the
    next complete line without its newline (and a ``\\r`` before it), or
    None.  A line that fills the buffer without a newline is thrown away up
    to the next newline, counted in ``overlong``.
    """

    def __init__(self, size=MAX_FRAME):  # type: (int) -> None
        self.buf = bytearray(size)
        self.fill = 0
        self.scan = 0  # no newline before this
        self.skipping = False
        self.overlong = 0

    def room(self):  # type: () -> int
        return len(self.buf) - self.fill

    def feed(self, data):  # type: (bytes) -> int
        n = min(len(data), self.room())
        self.buf[self.fill:self.fill + n] = data[:n] if n < len(data) else data
        self.fill += n
        return n

    def _drop(self, upto):
        """Forget the first *upto* bytes."""
        rest = self.fill - upto
        if rest > 0:
            self.buf[0:rest] = self.buf[upto:self.fill]
        self.fill = rest if rest > 0 else 0
        self.scan = 0

    def line(self):  # type: () -> Optional[bytes]
        while True:
            i = self.buf.find(b"\n", self.scan, self.fill)
            if i < 0:
                self.scan = self.fill
                if self.fill == len(self.buf):  # a line longer than the buffer
                    if not self.skipping:
                        self.overlong += 1
                    self.skipping = True
                    self.fill = self.scan = 0
                return None
            if self.skipping:  # the end of an over-long line
                self.skipping = False
                self._drop(i + 1)
                continue
            end = i - 1 if i > 0 and self.buf[i - 1] == 0x0D else i
            out = bytes(self.buf[0:end])
            self._drop(i + 1)
            return out

    def clear(self):  # type: () -> None
        self.fill = self.scan = 0
        self.skipping = False


def kind_of(frame):  # type: (bytes) -> Optional[bytes]
    """A frame's kind (bytes) from its canonical prefix ``{"v":"1.0","kind":"K",``,
    unverified: for routing only (the host's hub uses it too)."""
    i = frame.find(b'"kind":"', 0, 48)
    if i < 0:
        return None
    j = frame.find(b'"', i + 8, i + 40)
    return frame[i + 8:j] if j > 0 else None


def check_id(what, text):  # type: (str, Any) -> str
    """*text* if it is an id (1-32 of ``A-Z a-z 0-9 . _ : -``: safe in a topic),
    else ValueError."""
    if not isinstance(text, str) or not 1 <= len(text) <= 32:
        raise ValueError("%s must be 1 to 32 letters, digits or . _ : -" % what)
    for ch in text:
        if ch not in _IDCHARS:
            raise ValueError("%s %r has a character topics cannot carry (%r)" % (what, text, ch))
    return text
