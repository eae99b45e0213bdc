"""The web pages served by uvicorn in a background thread, beside the host's poll loop
(docs/web.md "Running it").

    lock = threading.RLock()
    web = run_in_thread(live, "0.0.0.0", 8000, token, lock=lock)
    print(web.url, web.console_url)
    while running:
        with lock:
            live.poll()          # Live is not thread-safe: the web holds the same lock
        time.sleep(0.02)
    web.stop()

Port 0 picks a free port (tests).  The socket is bound here, before the thread starts, so a
port in use fails at once with OSError in the caller.  ``stop()`` ends the event streams,
asks uvicorn to exit and waits at most a few seconds.
"""

import socket
import threading
import time

import uvicorn

from tdhost.web.app import make_app

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0


class Handle:
    """A running web server: ``url`` (big screen), ``console_url`` (with the token),
    ``port``, ``lock``, ``app``; ``stop()``."""

    def __init__(self, url, token, port, lock, app, server, thread):
        self.url = url
        self.console_url = url + "/td?token=" + token
        self.port = port
        self.lock = lock
        self.app = app
        self._server = server
        self._thread = thread

    def alive(self):
        return self._thread.is_alive()

    def stop(self):
        """Ends the event streams and the server; returns once the thread has finished
        (at most about STOP_TIMEOUT_S seconds)."""
        self.app.state.hub.closing.set()
        self._server.should_exit = True
        self._thread.join(STOP_TIMEOUT_S)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(STOP_TIMEOUT_S)


def _bind(host, port):
    family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError:
        sock.close()
        raise
    return sock


def _url(host, port):
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = "[%s]" % host
    return "http://%s:%d" % (host, port)


def run_in_thread(live, host="127.0.0.1", port=8000, token=None, lock=None,
                  log_level="warning"):
    """Serves ``make_app(live, token, lock)`` on host:port from a daemon thread; returns a
    Handle once the server accepts connections.  ``lock`` must be the lock the caller holds
    around ``live.poll()`` (a new RLock when None: then only the web touches live)."""
    lock = lock if lock is not None else threading.RLock()
    app = make_app(live, token, lock)
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
