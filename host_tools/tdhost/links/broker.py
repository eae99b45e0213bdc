"""The MQTT brokers of a Wi-Fi night (docs/mqtt.md, "Brokers"): amqtt embedded in a thread
of its own (``start_embedded``; logins and ACL: tdhost.links.brokerauth) or Debian's
Mosquitto (``start_mosquitto``), both with one user per box and the same ACL
(``default_acl``), no anonymous clients, a client's id its user name; ``choose`` picks one
for the number of paired boxes.
"""

import asyncio
import logging
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

log = logging.getLogger("tdhost.broker")

RefusedHook = Callable[[str, str | None, str | None, Any], object]  # why, user, client id, from

MOSQUITTO = "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"
START_S = 10.0  # seconds a broker may take to listen
STOP_S = 3.0  # seconds amqtt's own shutdown may take before its sockets are closed by hand
# The limits both brokers are given (docs/mqtt.md, "Limits"); Mosquitto's config_text
# writes them, the embedded broker holds them (tdhost.links.brokerlimits).
MAX_PACKET = 8192  # bytes of a whole MQTT packet: a frame is at most 4096 (+ topic)
CONNECT_S = 10.0  # seconds from the accept to a whole CONNECT (embedded; Mosquitto: below)
KEEPALIVE_MAX_S = 120  # seconds: the longest keep-alive a client gets (boxes and host: 60)
CONNECTIONS_MAX = 1100  # open connections: 1,024 boxes (tdhost.links.mqtt) and the host
FD_SPARE = 256  # descriptors kept for the web pages, the files and the host's own sockets


@dataclass(frozen=True)
class Limits:
    """What one client may cost a broker: *packet* bytes a packet, *connect_s* seconds to
    a whole CONNECT, *keep_alive_s* the longest keep-alive (0 asks for no keep-alive: it
    gets this one), *connections* open at once."""

    packet: int = MAX_PACKET
    connect_s: float = CONNECT_S
    keep_alive_s: int = KEEPALIVE_MAX_S
    connections: int = CONNECTIONS_MAX


def connections_allowed(wanted: int) -> int:
    """*wanted* connections, or fewer so that the process's descriptor limit keeps FD_SPARE
    for everything else; the soft limit is raised towards the hard one first (a laptop's
    soft limit is often 1,024 with a hard one far above)."""
    if sys.platform == "win32":
        return wanted
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = wanted + FD_SPARE
    if soft != resource.RLIM_INFINITY and soft < need:
        new = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(16, min(wanted, soft - FD_SPARE))


class BrokerError(RuntimeError):
    """A broker did not start or stop; the text says why."""


class MosquittoMissing(BrokerError):
    """/usr/sbin/mosquitto (or mosquitto_passwd) is not installed."""


def broker_url(host: str, port: int, user: str | None = None, password: str | None = None) -> str:
    auth = ""
    if user is not None:
        auth = quote(user, safe="")
        if password is not None:
            auth += ":" + quote(password, safe="")
        auth += "@"
    return "mqtt://%s%s:%d" % (auth, host, port)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (for a broker started by a
    program that cannot report the port it chose)."""
    s = socket.socket()
    try:
        s.bind((host, 0))
        return int(s.getsockname()[1])
    finally:
        s.close()


def _wait_listening(host: str, port: int, seconds: float,
                    alive: Callable[[], bool] | None = None) -> bool:
    """True once a TCP connect to host:port succeeds within *seconds*."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if alive is not None and not alive():
            return False
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.02)
    return False


# ------------------------------------------------------------------ amqtt
class Embedded:
    """An amqtt broker on its own thread and asyncio loop.

    :ivar port: the TCP port it listens on.
    :ivar url: ``mqtt://HOST:PORT`` (anonymous).
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0,
                 users: dict[str, str] | None = None,
                 on_refused: RefusedHook | None = None, limits: Limits | None = None) -> None:
        self.host = host
        self.port = port
        self.users = None if users is None else dict(users)
        limits = limits or Limits()
        self.limits = Limits(limits.packet, limits.connect_s, limits.keep_alive_s,
                             connections_allowed(limits.connections))
        self.on_refused = on_refused  # (why, user, client id, address) of a refused login
        self.url: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: Any = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="amqtt", daemon=True)

    def _config(self) -> dict[str, Any]:
        # no $SYS publisher (it writes every 20 s to anyone subscribed to #) and no
        # per-packet logging
        plugins: dict[str, Any]
        if self.users is None:  # open: tests and the simulator only (module notes)
            plugins = {"amqtt.plugins.authentication.AnonymousAuthPlugin":
                       {"allow_anonymous": True}}
        else:
            plugins = {"tdhost.links.brokerauth.Logins": {"users": self.users}}  # ACL: Guarded
        return {
            "listeners": {"default": {"type": "tcp", "bind": "%s:%d" % (self.host, self.port)}},
            "plugins": plugins,
        }

    def url_for(self, user: str) -> str:
        """``mqtt://user:password@HOST:PORT`` for one of its users."""
        assert self.users is not None
        return broker_url(self.host, self.port, user, self.users[user])

    def _run(self) -> None:
        from tdhost.links.brokerauth import Guarded
        from tdhost.links.brokerlimits import Bounded

        make = Bounded if self.users is None else Guarded

        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)

        async def start() -> None:
            self._broker = make(self._config(), loop=loop, limits=self.limits)
            if self.users is not None:  # tdhost.links.brokerauth.Guarded: refusals told
                self._broker.users = self.users
                self._broker.on_refused = self.on_refused
            await self._broker.start()
            server = self._broker._servers["default"].instance
            self.port = server.sockets[0].getsockname()[1]

        try:
            loop.run_until_complete(start())
        except Exception as e:  # noqa: BLE001 -- reported to the starting thread
            self._error = e
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        quiet = _quiet_loggers()
        for logger in quiet:  # asyncio's and amqtt's repeated lines: said once a minute
            logger.addFilter(self._broker.tally)
        try:
            loop.run_forever()
        finally:
            for logger in quiet:
                logger.removeFilter(self._broker.tally)
            pending = asyncio.all_tasks(loop)  # after a forced close: end them quietly
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.wait(pending, timeout=1.0))
            loop.close()

    def start(self) -> "Embedded":
        self._thread.start()
        if not self._ready.wait(START_S):
            raise BrokerError("the embedded MQTT broker did not start within %g s" % START_S)
        if self._error is not None:
            raise BrokerError("the embedded MQTT broker did not start: %s" % self._error)
        self.url = broker_url(self.host, self.port)
        return self

    def stop(self) -> None:
        """Shut the broker down (its clients see their connections close)
        and end its thread.  Safe to call twice."""
        loop = self._loop
        if loop is None or not self._thread.is_alive():
            return

        async def shutdown() -> None:
            try:
                await asyncio.wait_for(self._broker.shutdown(), STOP_S)
            except Exception:  # noqa: BLE001 -- amqtt 0.12.1 may wait for ever (below)
                self._force_close()
            finally:
                loop.stop()

        asyncio.run_coroutine_threadsafe(shutdown(), loop)
        self._thread.join(START_S)
        if self._thread.is_alive():
            raise BrokerError("the embedded MQTT broker did not stop within %g s" % START_S)

    def _force_close(self) -> None:
        """What amqtt's shutdown did not do: its listening sockets and every client's
        connection closed.  (Its handler.stop() can wait for ever for a reader task that
        a cancellation never ends: seen about one restart in three with boxes connected.)"""
        for server in self._broker._servers.values():
            try:
                server.instance.close()
            except Exception:  # noqa: BLE001 -- closed already
                pass
        for _session, handler in list(self._broker._sessions.values()):
            writer = getattr(getattr(handler, "writer", None), "_writer", None)
            if writer is not None:
                writer.transport.abort()

    def __enter__(self) -> "Embedded":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _quiet_loggers() -> list[logging.Logger]:
    """The loggers whose repeated lines the embedded broker's tally holds back: asyncio's
    (an accept failing for want of descriptors, each time) and amqtt's."""
    names = ["asyncio"] + sorted(n for n in logging.Logger.manager.loggerDict
                                 if n == "amqtt" or n.startswith("amqtt."))
    return [logging.getLogger(n) for n in names]


def start_embedded(port: int = 0, host: str = "127.0.0.1", users: dict[str, str] | None = None,
                   on_refused: RefusedHook | None = None,
                   limits: Limits | None = None) -> Embedded:
    """Start amqtt on *host*:*port* (0: a free port) in a background thread with
    *users* ``{name: password}`` and the ACL (None: open to anyone, for tests and
    the simulator only); returns the running ``Embedded`` (``.port``, ``.url``,
    ``.url_for(user)``, ``.stop()``).  *on_refused(why, user, client id, address)*
    hears each refused login (tdhost.links.brokerauth.refused_as; from the broker's thread).
    *limits*: what one client may cost it (default ``Limits()``, docs/mqtt.md "Limits"; the
    connections fewer when the descriptor limit cannot hold them)."""
    # amqtt logs every connection at INFO and each refused client as an
    # exception; the host's own messages say what matters
    logging.getLogger("amqtt").setLevel(logging.ERROR)
    logging.getLogger("transitions").setLevel(logging.WARNING)
    return Embedded(host, port, users, on_refused, limits).start()


# -------------------------------------------------------------- Mosquitto
def default_acl(host_user: str = "host") -> str:
    """The ACL text: *host_user* reads and writes everything under ``tc/``;
    every other user is a box whose user name is its box id (``%u``) and
    may only write its own ``out``, ``status`` and ``presence`` and read
    its own ``in`` (docs/mqtt.md)."""
    return "\n".join([
        "# the TD host: every event's topics",
        "user %s" % host_user,
        "topic readwrite tc/#",
        "",
        "# every other user is a box, named by its box id (tdhost pair --mqtt-user)",
        "pattern write tc/+/box/%u/out",
        "pattern write tc/+/box/%u/status",
        "pattern write tc/+/box/%u/presence",
        "pattern read tc/+/box/%u/in",
        "",
    ])


def config_text(port: int, host: str, passwd_path: str, acl_path: str,
                limits: Limits | None = None) -> str:
    """mosquitto.conf for one listener with users, the ACL and *limits* (default
    ``Limits()``; Mosquitto 2.0 has no option for a CONNECT deadline: it closes a
    connection that sends nothing after 1.5 x 60 s, and ``max_connections`` bounds how many
    it holds meanwhile -- docs/mqtt.md "Limits")."""
    limits = limits or Limits()
    return "\n".join([
        "per_listener_settings false",
        "allow_anonymous false",
        "password_file %s" % passwd_path,
        "acl_file %s" % acl_path,
        "persistence false",
        "max_packet_size %d" % limits.packet,
        "max_keepalive %d" % limits.keep_alive_s,
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",  # refused logins (tdhost serve --broker mosquitto shows them)
        "connection_messages true",
        "listener %d %s" % (port, host),
        "max_connections %d" % limits.connections,  # a listener's setting
        # a client's id is its user name whatever it asks for: no login takes over the
        # session of a box or the host (docs/mqtt.md, "Threats"); a listener's setting
        "use_username_as_clientid true",
        # started by root (a CI container), mosquitto would switch to the user
        # "mosquitto", who cannot read these files; otherwise the option is ignored
        "user %s" % ("root" if hasattr(os, "geteuid") and os.geteuid() == 0 else "mosquitto"),
        "",
    ])


class Mosquitto:
    """A mosquitto process with a config, password file and ACL in *tmpdir*.

    :ivar port: its TCP port.  :ivar url: ``mqtt://HOST:PORT`` (no user:
        use ``url_for(user)``).
    """

    def __init__(self, tmpdir: Any, port: int = 0, host: str = "127.0.0.1",
                 users: dict[str, str] | None = None, acl: str | None = None,
                 binary: str | None = None, on_refused: RefusedHook | None = None,
                 limits: Limits | None = None) -> None:
        binary = binary or MOSQUITTO
        if not os.path.isfile(binary) or shutil.which(MOSQUITTO_PASSWD) is None:
            raise MosquittoMissing("Mosquitto is not installed (%s or %s missing; on Debian:"
                                   " apt-get install mosquitto)" % (binary, MOSQUITTO_PASSWD))
        self.binary = binary
        self.dir = str(tmpdir)
        self.host = host
        self.port = port or free_port(host)
        self.users = dict(users or {})
        limits = limits or Limits()
        # its descriptors are this process's limit, which it inherits
        self.limits = Limits(limits.packet, limits.connect_s, limits.keep_alive_s,
                             connections_allowed(limits.connections))
        self.acl = default_acl() if acl is None else acl
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_at = 0
        self._last_from: str | None = None
        self._said: set[str] = set()
        self.on_refused = on_refused  # as Embedded's: why is "login" (Mosquitto's log says)
        self.url = broker_url(host, self.port)
        self.conf = os.path.join(self.dir, "mosquitto.conf")
        os.makedirs(self.dir, mode=0o700, exist_ok=True)  # serve --demo names a new one
        self._write()

    def _write(self) -> None:
        passwd = os.path.join(self.dir, "passwd")
        acl = os.path.join(self.dir, "acl")
        open(passwd, "w").close()
        for user, password in self.users.items():
            subprocess.run([MOSQUITTO_PASSWD, "-b", passwd, user, password], check=True,
                           capture_output=True)
        with open(acl, "w") as f:
            f.write(self.acl)
        with open(self.conf, "w") as f:
            f.write(config_text(self.port, self.host, passwd, acl, self.limits))
        for p in (passwd, acl, self.conf):  # mosquitto 2.0 warns about readable secrets
            os.chmod(p, 0o600)

    def url_for(self, user: str) -> str:
        """``mqtt://user:password@HOST:PORT`` for one of its users."""
        return broker_url(self.host, self.port, user, self.users[user])

    def poll(self, now: int | None = None) -> None:
        """Say each refused login in its log once per address (on ``tdhost.links.broker``, which
        serve's console shows); a serve transport.  Mosquitto does not log the user."""
        path = os.path.join(self.dir, "mosquitto.log")
        try:
            with open(path, "rb") as f:
                f.seek(self._log_at)
                data = f.read(65536)
        except OSError:
            return
        end = data.rfind(b"\n") + 1
        self._log_at += end
        for line in data[:end].decode("utf-8", "replace").splitlines():
            if "New connection from " in line:
                self._last_from = line.split("New connection from ", 1)[1].split(" on ")[0]
            elif line.endswith("disconnected, not authorised."):
                ip = (self._last_from or "?").rsplit(":", 1)[0]
                if self.on_refused is not None:
                    self.on_refused("login", None, None, ip)
                if ip not in self._said and len(self._said) < 1000:
                    self._said.add(ip)
                    log.warning("Mosquitto refused a login from %s: no user, an unknown user"
                                " (a box paired before each box had its own login must be"
                                " paired again: tdhost pair) or a wrong password.", ip)

    def start(self) -> "Mosquitto":
        if self.proc is not None and self.proc.poll() is None:
            return self
        out = open(os.path.join(self.dir, "mosquitto.log"), "ab")
        try:
            self.proc = subprocess.Popen([self.binary, "-c", self.conf], stdout=out,
                                         stderr=subprocess.STDOUT)
        finally:
            out.close()
        if not _wait_listening(self.host, self.port, START_S,
                               alive=lambda: self.proc is not None and self.proc.poll() is None):
            self.stop()
            raise BrokerError("mosquitto did not listen on %s:%d within %g s (see %s)"
                              % (self.host, self.port, START_S,
                                 os.path.join(self.dir, "mosquitto.log")))
        return self

    def stop(self) -> None:
        """Stop the process (its clients see their connections close)."""
        p = self.proc
        if p is None:
            return
        self.proc = None
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(START_S)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(START_S)

    def __enter__(self) -> "Mosquitto":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_mosquitto(tmpdir: Any, port: int = 0, users: dict[str, str] | None = None,
                    acl: str | None = None, host: str = "127.0.0.1",
                    on_refused: RefusedHook | None = None,
                    limits: Limits | None = None) -> Mosquitto:
    """Run Mosquitto on *host*:*port* (0: a free port) with *users*
    ``{name: password}`` and *acl* (text; default ``default_acl()``), its
    files in *tmpdir*; returns the running ``Mosquitto``.  Raises
    ``MosquittoMissing`` without the binary.  *on_refused*: as start_embedded's,
    called from ``poll`` (its log read).  *limits*: as start_embedded's (its connect_s
    unused: Mosquitto's own)."""
    return Mosquitto(tmpdir, port, host, users, acl, on_refused=on_refused,
                     limits=limits).start()


# ------------------------------------------------------------ the night's broker
# More paired boxes than this: Mosquitto when installed.  bench/sync_bench.py, logins and
# ACL on, this 2-core machine under load: a level change reached 150 boxes at p99 387 ms,
# 200 at 744-1042 ms, 300 at 1043 ms, and 500 missed 888 of 1500 changes (Mosquitto: 500 at
# p99 619 ms).  Why: amqtt matched every message against every subscription (119 us a
# message at 500 boxes) in Python, in the host's own process; since #30 it looks the topic up
# (tdhost.links.brokerfanout) and its CPU per box frame fell to a third (docs/mqtt.md,
# "Limits"), but the level-change rows above were measured before: re-measure on a quiet
# machine before raising this.
EMBEDDED_MAX_BOXES = 150


def choose(kind: str, boxes: int) -> tuple[str, str | None]:
    """(kind, why) for ``tdhost serve --wifi --broker KIND`` (auto, embedded or
    mosquitto) with *boxes* paired boxes; *why* is a sentence when auto chose."""
    if kind != "auto":
        return kind, None
    installed = os.path.isfile(MOSQUITTO) and shutil.which(MOSQUITTO_PASSWD) is not None
    if boxes > EMBEDDED_MAX_BOXES and installed:
        return "mosquitto", ("%d boxes are paired, more than the embedded broker carries with"
                             " its logins on (%d): using Mosquitto" % (boxes, EMBEDDED_MAX_BOXES))
    if boxes > EMBEDDED_MAX_BOXES:
        return "embedded", ("%d boxes are paired, more than the embedded broker carries with"
                            " its logins on (%d), and Mosquitto is not installed (apt-get"
                            " install mosquitto): level changes will reach the last boxes"
                            " late" % (boxes, EMBEDDED_MAX_BOXES))
    return "embedded", None


def broker_line(host: str, port: int, kind: str, boxes: int) -> str:
    """The console's line for the night's broker: its address as the boxes know it."""
    return "Broker: mqtt://%s:%d (%s, the logins of %d paired box%s, no anonymous clients)" % (
        host, port, "Mosquitto" if kind == "mosquitto" else "embedded", boxes,
        "" if boxes == 1 else "es")


def start_night(kind: str, users: dict[str, str], host: str = "0.0.0.0", port: int = 1883,
                tmpdir: Any = None,
                on_refused: RefusedHook | None = None) -> Embedded | Mosquitto:
    """The broker of a Wi-Fi night (``tdhost serve --wifi``): *kind* embedded or
    mosquitto, *users* ``{name: password}`` (``host`` and every paired box), on
    *host*:*port*; Mosquitto's files in *tmpdir* (a private folder); *on_refused*
    hears each refused login (the console's Wi-Fi notes)."""
    if kind == "mosquitto":
        return start_mosquitto(tmpdir, port=port, users=users, host=host,
                               on_refused=on_refused)
    return start_embedded(port=port, host=host, users=users, on_refused=on_refused)
