"""A box's USB serial port on the host: finding and opening it (never at 1200 baud, never
blocking), the lines it sends, the event key's files and pairing a box over the cable
(docs/protocol.md, "USB serial"; docs/host.md "Pairing").  The link itself: tdhost.links.boxlink.
"""

import hashlib
import os
import select
import time
from binascii import hexlify
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import serial
import serial.tools.list_ports

from tableclock.canonjson import ProtocolError, parse
from tableclock.protocol import HOST, Sender, decode
from tableclock.wire import Lines
from tdhost.links.wire_messages import Candidate, Pair, Peek

ADAFRUIT_VID = 0x239A
ESPRESSIF_VID = 0x303A
BOX_VIDS = {ADAFRUIT_VID: "Adafruit", ESPRESSIF_VID: "Espressif"}
RESET_BAUD = 1200  # opening a board at this rate resets it into the bootloader
BAUD = 115200  # ignored by USB CDC; anything but 1200
READ_MAX = 8192  # bytes read per poll
FRAME_START = b'{"v":"'  # how every frame's line begins (anything else is noise)


class Port(Protocol):
    """What the links need of a port: a pyserial one, tdhost.links.pipe's cable end or the
    MQTT hub's per-box port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: Any) -> int | None: ...


class ResetBaudError(ValueError):
    """A serial port at 1200 baud: that would reset the box into its bootloader."""


class PairError(RuntimeError):
    """Pairing did not complete; the text says why."""


# ---------------------------------------------------------------- ports
def guard_baud(baudrate: int | None) -> None:
    """ResetBaudError for 1200 baud: opening a board's port at that rate and closing it
    resets the board into its bootloader (a table would lose its box mid-hand)."""
    if baudrate == RESET_BAUD:
        raise ResetBaudError("refusing 1200 baud: opening a board's port at 1200 baud resets it"
                             " into the bootloader")


def check_port(ser: object) -> None:
    """Refuse a port configured at 1200 baud (``guard_baud``)."""
    guard_baud(getattr(ser, "baudrate", None))


def candidates(ports: list[Any] | None = None) -> list[Candidate]:
    """Serial ports whose USB vendor is Adafruit or Espressif, by device name; ``data``
    is True when the interface looks like CircuitPython's data port.
    *ports*: list_ports.comports() by default."""
    if ports is None:
        ports = serial.tools.list_ports.comports()
    out: list[Candidate] = []
    for p in ports:
        if p.vid not in BOX_VIDS:
            continue
        iface = getattr(p, "interface", None) or ""
        desc = p.description or ""
        out.append({
            "device": p.device, "vid": p.vid, "pid": p.pid, "maker": BOX_VIDS[p.vid],
            "serial_number": p.serial_number, "description": desc, "interface": iface,
            "data": "data" in (iface + " " + desc).lower(),
        })
    out.sort(key=lambda c: c["device"])
    return out


def open_port(device: str, baudrate: int = BAUD) -> serial.Serial:
    """*device* (a path, or a pyserial URL such as ``loop://``) opened
    non-blocking.  Never at 1200 baud."""
    guard_baud(baudrate)
    ser = serial.serial_for_url(device, do_not_open=True)
    ser.baudrate = baudrate
    ser.timeout = 0
    # loop:// raises at once with write_timeout=0 (and write_some bounds its writes);
    # POSIX ports are written by write_some without pyserial's write
    ser.write_timeout = None if "://" in device else 0
    check_port(ser)
    ser.open()
    return ser


def write_some(ser: Port, data: bytes | memoryview) -> int:
    """Write what the port takes now of *data*; the number of bytes (0 when its buffer is
    full).  Never blocks: pyserial's ``write`` with ``write_timeout=0`` busy-loops while
    the device does not read, so a POSIX port is asked with ``select`` and written with
    one ``os.write``."""
    fd = getattr(ser, "fd", None)
    if isinstance(fd, int) and fd >= 0:
        _, ready, _ = select.select([], [fd], [], 0)
        if not ready:
            return 0
        try:
            return os.write(fd, data)
        except BlockingIOError:
            return 0
    q = getattr(ser, "queue", None)  # pyserial's loop://: a bounded queue
    if q is not None and (getattr(q, "maxsize", None) or 0):
        data = data[:max(0, q.maxsize - q.qsize())]
        if not data:
            return 0
    try:
        return ser.write(data) or 0
    except serial.SerialTimeoutException:
        return 0


def read_some(ser: Port, limit: int = READ_MAX) -> bytes:
    """The bytes waiting on the port (up to *limit*), b"" when none."""
    n = ser.in_waiting
    if not n:
        return b""
    return ser.read(min(n, limit)) or b""


def lines_waiting(ser: Port, lines: Lines) -> Iterator[bytes]:
    """Each whole line the port has now, through the framing *lines* (what is left of a
    line waits there for the next call); at most READ_MAX bytes read: never blocks."""
    data = read_some(ser)
    while data:
        data = data[lines.feed(data):]
        while True:
            line = lines.line()
            if line is None:
                break
            yield line


def peek(line: bytes) -> Peek | None:
    """The unverified envelope of a frame (from, kind, key_id...) for
    diagnostics only, or None."""
    try:
        env = parse(line)
    except ProtocolError:
        return None
    if not isinstance(env, dict):
        return None
    body: dict[str, Any] = env["body"] if isinstance(env.get("body"), dict) else {}
    return {"from": env.get("from"), "kind": env.get("kind"), "key_id": body.get("key_id"),
            "table": body.get("table"), "fw": body.get("fw")}


def peeked(ser: Port, lines: Lines) -> Iterator[tuple[bytes, Peek | None]]:
    """(line, its envelope or None when it is no frame) for each line waiting."""
    for line in lines_waiting(ser, lines):
        yield line, peek(line) if line.startswith(FRAME_START) else None


def _for(seconds: float, clock: Callable[[], float], sleep: Callable[[float], None],
         pause: float) -> Iterator[None]:
    """Loop turns for *seconds* on *clock*, *pause* apart."""
    start = clock()
    while clock() - start < seconds:
        yield
        sleep(pause)


# ---------------------------------------------------------------- keys
def key_id_of(key: bytes) -> str:
    """A key's default id: ``k-`` and 8 hex digits of its SHA-256."""
    return "k-" + hashlib.sha256(key).hexdigest()[:8]


def read_key_file(path: str) -> bytes:
    """The key in *path*: hex digits (32 bytes: 64 digits), spaces ignored."""
    with open(path, encoding="ascii") as f:
        text = "".join(f.read().split())
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise ValueError("%s does not hold a key in hex digits" % path)
    if len(key) < 16:
        raise ValueError("%s holds a %d-byte key; keys have at least 16 bytes (32 are made)"
                         % (path, len(key)))
    return key


def new_key_file(path: str) -> bytes:
    """Make a fresh 32-byte key in *path* (readable by its owner only)."""
    key = os.urandom(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex() + "\n")
    return key


# ---------------------------------------------------------------- pairing
def box_on(ser: Port, timeout_s: float = 10.0, clock: Callable[[], float] = time.monotonic,
           sleep: Callable[[float], None] = time.sleep) -> str:
    """The box id the box on *ser* says hello with (unverified: the pairing that
    follows is confirmed by a hello signed with the new key).  PairError after
    *timeout_s* seconds without a hello."""
    check_port(ser)
    lines = Lines()
    for _ in _for(timeout_s, clock, sleep, 0.01):
        for _line, p in peeked(ser, lines):
            if p is not None and p["kind"] == "hello" and isinstance(p["from"], str):
                return p["from"]
    raise PairError("no box said hello within %g s (is this the box's data port, and is"
                    " its firmware running?)" % timeout_s)


def pair(ser: Port, table: int, key: bytes, key_id: str | None = None, event: str | None = None,
         settings: dict[str, Any] | None = None, timeout_s: float = 10.0, resend_s: float = 1.0,
         clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
         keys: str | None = None, box: str | None = None) -> str:
    """Give the box on *ser* the *key* (the event's, or with ``keys="box"`` the
    box's own: protocol.box_key), its *table* and the Wi-Fi/MQTT *settings* (a
    dict), over USB; returns the box id once it says hello with the new key
    (*box*: only that box's hello counts).  PairError after *timeout_s* seconds."""
    check_port(ser)
    if key_id is None:
        key_id = key_id_of(key)
    msg: Pair = {"kind": "pair", "key": hexlify(key).decode(), "key_id": key_id,
                 "table": table}
    if event is not None:
        msg["event"] = event
    if settings:
        msg["settings"] = settings
    if keys is not None:
        msg["keys"] = keys
    tx = Sender(key, HOST, 0)
    lines = Lines()
    sent = None
    out = b""
    for _ in _for(timeout_s, clock, sleep, 0.01):
        if not out and (sent is None or clock() - sent >= resend_s):
            out = tx.encode(msg, "*")
            sent = clock()
        if out:
            out = out[write_some(ser, out):]
        for line in lines_waiting(ser, lines):
            try:
                got = decode(line, key, HOST)
            except ProtocolError:
                continue
            if got["kind"] == "hello" and got.get("key_id") == key_id \
                    and got.get("table") == table and box in (None, got["from"]):
                return got["from"]
    raise PairError("no box confirmed the pairing within %g s (is this the box's data port,"
                    " and is its firmware running?)" % timeout_s)


def listen(ser: Port, seconds: float, clock: Callable[[], float] = time.monotonic,
           sleep: Callable[[float], None] = time.sleep) -> tuple[list[Peek], int]:
    """What the box on *ser* says in *seconds*: the envelopes of its frames
    (unverified, see ``peek``) and the number of other lines."""
    lines = Lines()
    frames: list[Peek] = []
    other = 0
    for _ in _for(seconds, clock, sleep, 0.05):
        for line, p in peeked(ser, lines):
            if p is None:
                other += 1 if line else 0
            else:
                frames.append(p)
    return frames, other
