"""The web pages served by uvicorn in a background thread beside the host's poll loop,
which holds the same lock around ``live.poll()`` (docs/web.md "Running it"): port 0 picks a
free port; the socket is bound before the thread starts, so a port in use fails at once.
"""

import socket
import threading
import time
from typing import Any

import uvicorn
from starlette.applications import Starlette

from tdhost.web import room_pages as _room
from tdhost.web.app import LiveContract, make_app

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0


class Handle:
    """A running web server: ``url`` (big screen), ``console_url`` (with the token),
    ``port``, ``lock``, ``app``, ``phones`` (why no phone can open the players' page, or
    None); ``stop()``."""

    def __init__(self, url: str, token: str, port: int, lock: Any, app: Starlette,
                 server: uvicorn.Server, thread: threading.Thread) -> None:
        self.url = url
        self.console_url = url + "/td?token=" + token
        self.port = port
        self.phones = _room.unreachable(app.state.hub.listen)  # why phones can't, or None
        self.lock = lock
        self.app = app
        self._server = server
        self._thread = thread

    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        """Ends the event streams and the server; returns once the thread has finished
        (at most about STOP_TIMEOUT_S seconds)."""
        self.app.state.hub.closing.set()
        self._server.should_exit = True
        self._thread.join(STOP_TIMEOUT_S)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(STOP_TIMEOUT_S)


def _bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError:
        sock.close()
        raise
    return sock


def _url(host: str, port: int) -> str:
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = "[%s]" % host
    return "http://%s:%d" % (host, port)


def run_in_thread(live: LiveContract, host: str = "127.0.0.1", port: int = 8000,
                  token: Any = None, lock: Any = None, log_level: str = "warning") -> Handle:
    """Serves ``make_app(live, token, lock)`` on host:port from a daemon thread; returns a
    Handle once the server accepts connections.  ``lock`` must be the lock the caller holds
    around ``live.poll()`` (a new RLock when None: then only the web touches live)."""
    lock = lock if lock is not None else threading.RLock()
    app = make_app(live, token, lock, host)
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_config=None, log_level=log_level, access_log=False,
                            lifespan="off", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="tdhost-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            raise RuntimeError("the web server did not start on %s:%d" % (host, port))
        time.sleep(0.01)
    return Handle(_url(host, port), token, port, lock, app, server, thread)
