"""The figures of docs/mqtt.md "Limits": ``tdhost serve --demo --wifi`` (three simulated
boxes over the broker, the web console) attacked over loopback, once per broker, while
this script reads serve's (and Mosquitto's) memory, asks the console for its state every
100 ms and watches the boxes' links in it.  Run once by hand (about 2 minutes):

    .venv/bin/python tests/tools/broker_attacks.py [embedded|mosquitto ...] [ATTACK ...]

(ATTACK: big_publish, probes, half_open; none given: all three.)

Attacks: a 250 MB PUBLISH from one box's login; 3 x 1,100 probes (connect, hold 2 s,
close) with serve under a 1,024-descriptor limit; 1,100 connections that send nothing and
stay open past the CONNECT deadline.  serve's passwords are made known to this script by
running it with ``tdhost.links.logins.new_password`` replaced (a test tool's liberty).
"""

import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import psutil

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "host"))
from test_broker_limits import _length, _utf8  # noqa: E402

from tdhost.links.broker import CONNECT_S, free_port  # noqa: E402

PASSWORD = "attack-known-password"  # every login of the demo night (module notes)
TOKEN = "attack-token-1234"
SERVE = """
import sys
import tdhost.links.logins as logins
logins.new_password = lambda: %r
from tdhost.cli.app import cli
cli(sys.argv[1:])
""" % PASSWORD
BIG = 250 * 1000 * 1000


def connect_packet(user):
    body = _utf8("MQTT") + bytes([4, 0xC2]) + (60).to_bytes(2, "big") + _utf8(user)
    body += _utf8(user) + _utf8(PASSWORD)
    return b"\x10" + _length(len(body)) + body


class Serve:
    """``tdhost serve --demo --wifi`` in a child process under *nofile* descriptors."""

    def __init__(self, kind, nofile=1024):
        self.broker_port, self.web_port = free_port(), free_port()
        self.out = open("/tmp/broker-attacks-%s.log" % kind, "w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVE, "serve", "--demo", "--wifi", "--broker", kind,
             "--broker-listen", "127.0.0.1", "--broker-port", str(self.broker_port),
             "--port", str(self.web_port), "--token", TOKEN],
            stdout=self.out, stderr=subprocess.STDOUT,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile)))
        self.ps = psutil.Process(self.proc.pid)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                tables = self.state()[1]["tables"]
                if len(tables) == 3 and all(t["link"] == "live" for t in tables):
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise SystemExit("the demo's boxes did not come live: see %s" % self.out.name)

    def state(self):
        req = urllib.request.Request("http://127.0.0.1:%d/api/state" % self.web_port,
                                     headers={"Authorization": "Bearer " + TOKEN})
        t = time.monotonic()
        with urllib.request.urlopen(req, timeout=30) as r:
            body = json.loads(r.read())
        return time.monotonic() - t, body

    def rss(self):
        procs = [self.ps] + self.ps.children(recursive=True)
        return sum(p.memory_info().rss for p in procs if p.is_running())

    def broker_rss(self):
        """Mosquitto's own RSS (0 for the embedded broker: it is serve's)."""
        return sum(p.memory_info().rss for p in self.ps.children(recursive=True)
                   if p.is_running() and p.name() == "mosquitto")

    def lines(self):
        self.out.flush()
        with open(self.out.name) as f:
            return sum(1 for _ in f)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.out.close()


class Watch:
    """While an attack runs: serve's peak RSS, the console's slowest answer, the longest
    time any table showed its box other than live, the longest silence it showed."""

    def __init__(self, serve):
        self.serve = serve
        self.rss = serve.rss()
        self.broker = serve.broker_rss()
        self.slowest = 0.0
        self.offline = 0.0
        self.silence = 0
        self.failed = 0
        self._down_since = None
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._memory, daemon=True),
                         threading.Thread(target=self._console, daemon=True)]
        for t in self._threads:
            t.start()

    def _memory(self):
        while not self._stop.wait(0.05):
            try:
                self.rss = max(self.rss, self.serve.rss())
                self.broker = max(self.broker, self.serve.broker_rss())
            except psutil.Error:
                pass

    def _console(self):
        while not self._stop.wait(0.1):
            t0 = time.monotonic()
            try:
                took, state = self.serve.state()
            except OSError:
                self.failed += 1
                self.slowest = max(self.slowest, time.monotonic() - t0)
                continue
            self.slowest = max(self.slowest, took)
            tables = state["tables"]
            now = time.monotonic()
            if all(t["link"] == "live" for t in tables):
                if self._down_since is not None:
                    self.offline = max(self.offline, now - self._down_since)
                self._down_since = None
            elif self._down_since is None:
                self._down_since = now
            for t in tables:
                if t["last_contact_ms"] is not None:
                    self.silence = max(self.silence, state["now_ms"] - t["last_contact_ms"])

    def stop(self):
        self._stop.set()
        for t in self._threads:
            t.join(35)
        if self._down_since is not None:
            self.offline = max(self.offline, time.monotonic() - self._down_since)
        return self


def big_publish(serve):
    s = socket.create_connection(("127.0.0.1", serve.broker_port), timeout=5)
    s.sendall(connect_packet("tc-01"))
    s.recv(4)
    topic = _utf8("tc/demo/box/tc-01/out")
    s.sendall(b"\x30" + _length(len(topic) + BIG) + topic)
    chunk = b"x" * (1 << 20)
    sent = 0
    try:
        while sent < BIG:
            s.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass
    s.close()
    return "%d MB of 250 sent before the broker closed the connection" % (sent // 1000000)


def probes(serve):
    refused = 0
    for _ in range(3):
        held = []
        for _ in range(1100):
            try:
                held.append(socket.create_connection(("127.0.0.1", serve.broker_port),
                                                     timeout=2))
            except OSError:
                refused += 1
        time.sleep(2)
        for s in held:
            s.close()
    time.sleep(1)
    return "%d of 3,300 connects refused; serve's descriptors afterwards: %d" % (
        refused, serve.ps.num_fds())


def half_open(serve):
    held = []
    for _ in range(1100):
        try:
            held.append(socket.create_connection(("127.0.0.1", serve.broker_port), timeout=2))
        except OSError:
            pass
    time.sleep(CONNECT_S + 2)
    closed = 0
    for s in held:
        s.setblocking(False)
        try:
            if s.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    return "%d of %d held open closed by the broker after %g s" % (
        closed, len(held), CONNECT_S + 2)


def main(kinds, only):
    for kind in kinds:
        serve = Serve(kind)
        try:
            calm = Watch(serve)
            time.sleep(10)
            calm.stop()
            print("%s, no attack (10 s): RSS %.0f MB (Mosquitto's own %.1f MB), console's"
                  " slowest answer %.2f s, longest silence shown %.1f s, offline shown %.1f s"
                  % (kind, calm.rss / 1e6, calm.broker / 1e6, calm.slowest,
                     calm.silence / 1000, calm.offline))
            for name, attack in (("250 MB PUBLISH from a box login", big_publish),
                                 ("3 x 1,100 probes, 1,024 descriptors", probes),
                                 ("1,100 connections sending nothing", half_open)):
                if only and attack.__name__ not in only:
                    continue
                lines = serve.lines()
                watch = Watch(serve)
                t = time.monotonic()
                said = attack(serve)
                time.sleep(max(0.0, 5 - (time.monotonic() - t)))  # the boxes' next pings
                watch.stop()
                print("%s, %s: %s; peak RSS %.0f MB (Mosquitto's own %.1f MB); console's"
                      " slowest answer %.2f s (%d failed); longest silence shown %.1f s;"
                      " offline shown %.1f s; %d lines in serve's terminal" % (
                          kind, name, said, watch.rss / 1e6, watch.broker / 1e6,
                          watch.slowest, watch.failed,
                          watch.silence / 1000, watch.offline, serve.lines() - lines))
                sys.stdout.flush()
        finally:
            serve.stop()


if __name__ == "__main__":
    args = sys.argv[1:]
    main([a for a in args if a in ("embedded", "mosquitto")] or ["embedded", "mosquitto"],
         [a for a in args if a not in ("embedded", "mosquitto")])
