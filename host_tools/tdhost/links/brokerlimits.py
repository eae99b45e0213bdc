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
import threading
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from amqtt.adapters import ReaderAdapter, StreamWriterAdapter
from amqtt.broker import Broker
from amqtt.contexts import ListenerType

if TYPE_CHECKING:  # the broker's settings (tdhost.links.broker, which imports this module)
    from tdhost.links.broker import Limits


log = logging.getLogger("tdhost.broker")

CONNECT = 1  # the MQTT packet type a connection must start with
LENGTH_BYTES = 4  # the most bytes a fixed header's remaining length may take
TALLY_S = 60.0  # seconds between the tally's lines
SAID_AT_ONCE = 3  # repeated log lines said as they come in a minute; the rest counted

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
        """A logging filter: the first SAID_AT_ONCE of each message a minute pass."""
        key = (record.name, record.msg)
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
    """One open connection: its transport, when it was accepted, and its idle limit
    (None until its CONNECT came)."""

    __slots__ = ("transport", "peer", "opened", "idle_s", "closed")

    def __init__(self, transport: Any, opened: float) -> None:
        self.transport = transport
        self.peer = transport.get_extra_info("peername")
        self.opened = opened
        self.idle_s: float | None = None
        self.closed = False


class PacketReader(ReaderAdapter):
    """The bytes of one connection as amqtt reads them, a whole packet at a time: its size
    checked from the fixed header before the rest is read, each packet within the
    connection's deadline (module notes)."""

    def __init__(self, stream: asyncio.StreamReader, conn: Conn, broker: "Bounded") -> None:
        self._stream = stream
        self._conn = conn
        self._broker = broker
        self._packet = b""
        self._at = 0
        self._next: "asyncio.Future[bytes | None] | None" = None
        self._eof = False

    async def read(self, n: int = -1) -> bytes:
        out = b""
        while n < 0 or len(out) < n:
            if self._at >= len(self._packet):
                if n < 0 and out:
                    break
                packet = await self._fetch_once()
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

    async def _fetch_once(self) -> bytes | None:
        if self._eof:
            return None
        if self._next is None:
            self._next = asyncio.ensure_future(self._fetch())
        # amqtt times its own reads out (and reads again): the packet under way survives
        packet = await asyncio.shield(self._next)
        self._next = None
        if packet is None:
            self._eof = True
        return packet

    async def _fetch(self) -> bytes | None:
        conn, limits, stream = self._conn, self._broker.limits, self._stream
        loop = asyncio.get_running_loop()
        connecting = conn.idle_s is None
        deadline = conn.opened + limits.connect_s if conn.idle_s is None else (
            loop.time() + conn.idle_s)
        try:
            async with asyncio.timeout_at(deadline):
                head = await stream.readexactly(2)
                length, shift = head[1] & 0x7F, 7
                while head[-1] & 0x80:
                    if len(head) > LENGTH_BYTES:
                        self._broker.close(conn, "malformed")
                        return None
                    head += await stream.readexactly(1)
                    length += (head[-1] & 0x7F) << shift
                    shift += 7
                if len(head) + length > limits.packet:
                    self._broker.close(conn, "too_large")
                    return None
                if connecting and head[0] >> 4 != CONNECT:
                    self._broker.close(conn, "not_connect")
                    return None
                body = await stream.readexactly(length) if length else b""
        except TimeoutError:
            self._broker.close(conn, "deadline" if connecting else "keepalive")
            return None
        except (asyncio.IncompleteReadError, OSError):
            return None
        if connecting:
            self._broker.connected(conn, keep_alive_of(body))
        return head + body

    def feed_eof(self) -> None:
        self._stream.feed_eof()


class Bounded(Broker):
    """amqtt's Broker with the limits (module notes); ``limits`` a tdhost.links.broker.Limits."""

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
        # limit: the stream buffers at most about twice this ahead of amqtt's reads
        return await asyncio.start_server(
            partial(self.stream_connected, listener_name=listener_name), address, port,
            reuse_address=True, ssl=ssl_context, limit=self.limits.packet)

    async def stream_connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                               listener_name: str) -> None:
        transport = writer.transport
        conn = self._admit(transport)
        if conn is None:
            transport.abort()
            return
        try:
            await self._client_connected(listener_name, PacketReader(reader, conn, self),
                                         StreamWriterAdapter(writer))
        finally:
            self._leave(conn)
            # whatever stage it ended at, its socket goes now (amqtt leaves a connection
            # closed before a whole CONNECT to the garbage collector)
            if transport.get_write_buffer_size():
                transport.abort()
            else:
                transport.close()

    def _admit(self, transport: Any) -> Conn | None:
        conn = Conn(transport, asyncio.get_running_loop().time())
        if len(self.conns) >= self.limits.connections:
            if not self.waiting:
                self.tally.close("full", conn.peer)
                return None
            self.close(next(iter(self.waiting.values())), "crowded")
        self.conns[id(conn)] = conn
        self.waiting[id(conn)] = conn
        return conn

    def _leave(self, conn: Conn) -> None:
        self.conns.pop(id(conn), None)
        self.waiting.pop(id(conn), None)

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
