"""What one connection may cost the embedded broker (amqtt 0.12.1; docs/mqtt.md, "Limits"):
``Bounded``, amqtt's Broker with the guards Mosquitto has -- each packet's size read from its
fixed header and refused before any of it is buffered, a whole CONNECT within a deadline of
the accept, a client silent for 1.5 x its keep-alive closed, at most so many connections,
every connection's socket closed when it ends -- and ``Tally``, which says those closings and
the broker's repeated log lines once a minute instead of once each.  Why amqtt needs them
(it has none of these on its own): docs/mqtt.md, "Limits".
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections import deque
from functools import partial
from typing import TYPE_CHECKING, Any

from amqtt.adapters import ReaderAdapter, StreamWriterAdapter
from amqtt.contexts import ListenerType

from tdhost.links.brokerfanout import Fanout

if TYPE_CHECKING:  # the broker's settings (tdhost.links.broker, which imports this module)
    from tdhost.links.broker import Limits


log = logging.getLogger("tdhost.broker")

CONNECT = 1  # the MQTT packet type a connection must start with
LENGTH_BYTES = 4  # the most bytes a fixed header's remaining length may take
TALLY_S = 60.0  # seconds between the tally's lines
SAID_AT_ONCE = 3  # repeated log lines said as they come in a minute; the rest counted
MSG_KEY = 160  # characters of a log line that tell it from another (Tally.filter)
DIGITS = re.compile(r"\d+")

# why a connection was closed -> how the tally says it
WHY = {
    "deadline": "sent no whole CONNECT within %(connect_s)g s",
    "too_large": "sent a packet over %(packet)d bytes",
    "keepalive": "went silent for 1.5 times its keep-alive",
    "not_connect": "began with another packet than CONNECT",
    "malformed": "sent a malformed packet length",
    "crowded": "made room for a newer connection (%(connections)d at most)",
    "full": "found the broker full (%(connections)d connections)",
}


def keep_alive_of(body: bytes) -> int:
    """The keep-alive seconds in a CONNECT packet's *body* (0 when it is too short)."""
    if len(body) < 2:
        return 0
    at = 2 + int.from_bytes(body[0:2], "big") + 2  # protocol name, level, flags
    if len(body) < at + 2:
        return 0
    return int.from_bytes(body[at:at + 2], "big")


class Tally:
    """The broker's closings and repeated log lines, said once a minute (serve's terminal
    must not scroll away under a flood of probes): the first of each kind at once, then a
    count.  Also a logging filter for amqtt's and asyncio's loggers."""

    def __init__(self, limits: Limits) -> None:
        self.words = {"connect_s": limits.connect_s, "packet": limits.packet,
                      "connections": limits.connections}
        self.closed: dict[str, int] = {}
        self.lines: dict[tuple[str, Any], int] = {}
        self.since = time.monotonic()
        self._lock = threading.Lock()  # filter() runs in whichever thread logs

    def close(self, why: str, peer: Any) -> None:
        n = self.closed.get(why, 0)
        self.closed[why] = n + 1
        if n == 0:
            log.warning("The broker closed a connection from %s that %s.", _host(peer),
                        WHY[why] % self.words)

    def filter(self, record: logging.LogRecord) -> bool:
        """A logging filter: the first SAID_AT_ONCE of each message a minute pass (a message
        is its text with the numbers left out: amqtt names each task and packet id)."""
        key = (record.name, DIGITS.sub("#", str(record.msg)[:MSG_KEY]))
        with self._lock:
            n = self.lines.get(key, 0)
            if n >= SAID_AT_ONCE:
                self.lines[key] = n + 1
                return False
            if len(self.lines) < 1000:
                self.lines[key] = n + 1
            return True

    def flush(self) -> None:
        """Say what the last minute held beyond what was said at once; start a new one."""
        minutes = max(1, round((time.monotonic() - self.since) / 60.0))
        span = "minute" if minutes == 1 else "%d minutes" % minutes
        more = {why: n - 1 for why, n in self.closed.items() if n > 1}
        if more:
            log.warning("The broker closed %d more connection%s in the last %s: %s.",
                        sum(more.values()), "" if sum(more.values()) == 1 else "s", span,
                        "; ".join("%d that %s" % (n, WHY[why] % self.words)
                                  for why, n in sorted(more.items())))
        with self._lock:
            left = sum(n - SAID_AT_ONCE for n in self.lines.values() if n > SAID_AT_ONCE)
            self.lines.clear()
        if left:
            log.warning("%d repeated lines of the broker's log were left out in the last %s.",
                        left, span)
        self.closed.clear()
        self.since = time.monotonic()


def _host(peer: Any) -> str:
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


class Conn:
    """One open connection: its transport, when it was accepted, its idle limit (None until
    its CONNECT came), when its last whole packet came and the timer that checks both."""

    __slots__ = ("transport", "peer", "opened", "idle_s", "last", "timer", "closed")

    def __init__(self, transport: Any, opened: float) -> None:
        self.transport = transport
        self.peer = transport.get_extra_info("peername")
        self.opened = opened
        self.idle_s: float | None = None
        self.last = opened
        self.timer: asyncio.TimerHandle | None = None
        self.closed = False


class PacketStream(asyncio.StreamReader):
    """The bytes of one connection cut into whole packets as they arrive (asyncio's
    StreamReaderProtocol feeds it): each packet's size read from its fixed header and
    refused before the rest is buffered, the first a CONNECT; the socket paused while more
    than twice the packet limit waits for amqtt.  No task or timer per packet: the
    connection's one timer (``Bounded.check``) holds the deadlines, and a read that amqtt
    times out leaves every packet in place."""

    def __init__(self, broker: "Bounded", loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=broker.limits.packet, loop=loop)
        self.broker = broker
        self.loop = loop
        self.transport: Any = None  # set by the protocol (set_transport) before any data
        self.conn: Conn | None = None  # set by Bounded.stream_connected
        self.packets: deque[bytes] = deque()
        self._in = bytearray()
        self._queued = 0  # bytes in self.packets
        self._wait: "asyncio.Future[None] | None" = None
        self._ended = False
        self._held = False  # the transport paused by this reader

    def set_transport(self, transport: Any) -> None:
        super().set_transport(transport)
        self.transport = transport

    def feed_data(self, data: Any) -> None:
        if self._ended:
            return
        self._in += data
        self._cut()

    def attach(self, conn: Conn) -> None:
        self.conn = conn
        self._cut()

    def _cut(self) -> None:
        conn, buf = self.conn, self._in
        while conn is not None and not self._ended and len(buf) >= 2:
            length, shift, at = 0, 0, 1
            while True:
                if at >= len(buf):
                    return self._hold()  # the fixed header's length not whole yet
                length += (buf[at] & 0x7F) << shift
                shift += 7
                at += 1
                if not buf[at - 1] & 0x80:
                    break
                if at > LENGTH_BYTES:
                    return self._end("malformed")
            if at + length > self.broker.limits.packet:
                return self._end("too_large")
            if conn.idle_s is None and buf[0] >> 4 != CONNECT:
                return self._end("not_connect")
            if len(buf) < at + length:
                break
            packet = bytes(buf[:at + length])
            del buf[:at + length]
            conn.last = self.loop.time()
            if conn.idle_s is None:
                self.broker.connected(conn, keep_alive_of(packet[at:]))
            self.packets.append(packet)
            self._queued += len(packet)
            self._wake()
        self._hold()

    def _hold(self) -> None:
        if not self._held and len(self._in) + self._queued > 2 * self.broker.limits.packet:
            self._held = True
            self.transport.pause_reading()

    def _end(self, why: str) -> None:
        if self.conn is not None:
            self.broker.close(self.conn, why)
        self._ended = True
        self._in.clear()
        self._wake()

    def _wake(self) -> None:
        if self._wait is not None and not self._wait.done():
            self._wait.set_result(None)

    def feed_eof(self) -> None:
        super().feed_eof()
        self._ended = True
        self._wake()

    def set_exception(self, exc: Exception) -> None:
        super().set_exception(exc)
        self._ended = True
        self._wake()

    async def packet(self) -> bytes | None:
        """The next whole packet, or None once the connection has ended."""
        while not self.packets:
            if self._ended:
                return None
            self._wait = self.loop.create_future()
            await self._wait  # a cancelled wait takes nothing away
        packet = self.packets.popleft()
        self._queued -= len(packet)
        if self._held and len(self._in) + self._queued <= self.broker.limits.packet:
            self._held = False
            self.transport.resume_reading()
        return packet


class PacketReader(ReaderAdapter):
    """One connection's packets as amqtt reads them: bytes from whole packets only."""

    def __init__(self, stream: PacketStream) -> None:
        self._stream = stream
        self._packet = b""
        self._at = 0

    async def read(self, n: int = -1) -> bytes:
        if 0 <= n <= len(self._packet) - self._at:  # the usual case: no copy of what is left
            self._at += n
            return self._packet[self._at - n:self._at]
        out = b""
        while n < 0 or len(out) < n:
            if self._at >= len(self._packet):
                if n < 0 and out:
                    break
                packet = await self._stream.packet()
                if packet is None:
                    if n < 0:
                        break
                    raise asyncio.IncompleteReadError(out, n)
                self._packet, self._at = packet, 0
            take = len(self._packet) - self._at if n < 0 else min(
                n - len(out), len(self._packet) - self._at)
            out += self._packet[self._at:self._at + take]
            self._at += take
        return out

    def feed_eof(self) -> None:
        self._stream.feed_eof()


class Bounded(Fanout):
    """amqtt's Broker (with the fan-out of tdhost.links.brokerfanout) with the limits (module
    notes); ``limits`` a tdhost.links.broker.Limits."""

    def __init__(self, config: Any, *, loop: asyncio.AbstractEventLoop | None = None,
                 limits: Limits) -> None:
        super().__init__(config, loop=loop)
        self.limits = limits
        self.tally = Tally(self.limits)
        self.conns: dict[int, Conn] = {}  # open connections, oldest first
        self.waiting: dict[int, Conn] = {}  # those without a CONNECT yet, oldest first
        self._tally_timer: asyncio.TimerHandle | None = None

    async def start(self) -> None:
        await super().start()
        self._tick()

    def _tick(self) -> None:
        self.tally.flush()
        self._tally_timer = asyncio.get_running_loop().call_later(TALLY_S, self._tick)

    async def shutdown(self) -> None:
        if self._tally_timer is not None:
            self._tally_timer.cancel()
        await super().shutdown()

    async def _create_server_instance(self, listener_name: str, listener_type: Any,
                                      address: str | None, port: int,
                                      ssl_context: Any) -> Any:
        if listener_type != ListenerType.TCP:
            return await super()._create_server_instance(listener_name, listener_type,
                                                         address, port, ssl_context)
        # asyncio.start_server's, with a PacketStream for its reader
        loop = asyncio.get_running_loop()
        connected = partial(self.stream_connected, listener_name=listener_name)
        return await loop.create_server(
            lambda: asyncio.StreamReaderProtocol(PacketStream(self, loop), connected),
            address, port, reuse_address=True, ssl=ssl_context)

    async def stream_connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                               listener_name: str) -> None:
        transport = writer.transport
        conn = self._admit(transport)
        if conn is None:
            transport.abort()
            return
        assert isinstance(reader, PacketStream)
        reader.attach(conn)
        try:
            await self._client_connected(listener_name, PacketReader(reader),
                                         StreamWriterAdapter(writer))
        finally:
            self._leave(conn)
            # whatever stage it ended at, its socket goes now (amqtt leaves a connection
            # closed before a whole CONNECT to the garbage collector)
            if transport.get_write_buffer_size():
                transport.abort()
            else:
                transport.close()

    async def _handle_client_session(self, reader: Any, writer: Any, client_session: Any,
                                     handler: Any, server: Any, listener_name: Any) -> None:
        # keep-alive is this class's (Conn's timer); amqtt 0.12.1's broker side only times
        # out for nothing (its handle_read_timeout and handle_write_timeout do nothing), at
        # the cost of a task and a timer for each packet read and a timer for each sent
        client_session.keep_alive = 0
        await super()._handle_client_session(reader, writer, client_session, handler, server,
                                             listener_name)

    def _admit(self, transport: Any) -> Conn | None:
        conn = Conn(transport, asyncio.get_running_loop().time())
        if len(self.conns) >= self.limits.connections:
            if not self.waiting:
                self.tally.close("full", conn.peer)
                return None
            self.close(next(iter(self.waiting.values())), "crowded")
        self.conns[id(conn)] = conn
        self.waiting[id(conn)] = conn
        conn.timer = asyncio.get_running_loop().call_at(
            conn.opened + self.limits.connect_s, self.check, conn)
        return conn

    def _leave(self, conn: Conn) -> None:
        self.conns.pop(id(conn), None)
        self.waiting.pop(id(conn), None)
        if conn.timer is not None:
            conn.timer.cancel()
            conn.timer = None

    def check(self, conn: Conn) -> None:
        """*conn*'s timer: closed without a whole CONNECT by its deadline, or with no whole
        packet for its idle limit; otherwise looked at again when that could next be so."""
        conn.timer = None
        if conn.closed:
            return
        if conn.idle_s is None:
            self.close(conn, "deadline")
            return
        loop = asyncio.get_running_loop()
        due = conn.last + conn.idle_s
        if loop.time() >= due:
            self.close(conn, "keepalive")
        else:
            conn.timer = loop.call_at(due, self.check, conn)

    def connected(self, conn: Conn, keep_alive: int) -> None:
        """*conn*'s CONNECT came asking *keep_alive* seconds (0, or more than the limit's:
        the limit's)."""
        most = self.limits.keep_alive_s
        conn.idle_s = 1.5 * (keep_alive if 0 < keep_alive <= most else most)
        self.waiting.pop(id(conn), None)

    def close(self, conn: Conn, why: str) -> None:
        """Close *conn* at once for *why* (a key of WHY), counted in the tally."""
        if conn.closed:
            return
        conn.closed = True
        self._leave(conn)
        self.tally.close(why, conn.peer)
        conn.transport.abort()
