"""The web application: the big screen, the TD console and their JSON/SSE endpoints
(``make_app(live, token, lock)``; every route, the auth model and the reasons: docs/web.md).
``live`` is the Live contract (``LiveContract``): not thread-safe, so every call holds
``lock`` (shared with the host's poll loop) in a worker thread; the 100 ms version check
only *tries* the lock.
"""

import hmac
import html
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import AsyncIterator, MutableMapping
from typing import Any, Protocol
from urllib.parse import urlsplit

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from tdhost.actions import console_names
from tdhost.league.refusal import ActionRefused
from tdhost.league.store import StoreError
from tdhost.web import paper as _paper, room_pages as _room

log = logging.getLogger("tdhost.web")

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
COOKIE = "tdhost_td"
COOKIE_AGE_S = 24 * 3600  # one night and the morning after
POLL_S = 0.1  # how often each event stream looks at live.version (seconds)
RESEND_S = 15.0  # a fresh snapshot at least this often (seconds): keep-alive and clock resync
FRESH_S = 0.3  # a snapshot this recent (seconds) is shared between streams of one version
MAX_BODY = 64 * 1024  # bytes of an action's JSON body

# The console's actions (tdhost.actions); anything else is refused before Live sees it.
ACTIONS = frozenset(console_names())
# What the room may see on the big screen: no registration, standby list, stacks, box
# links, instructions, audit log or league table.
PUBLIC_KEYS = ("event", "tournament", "now_ms", "clock", "players", "moves", "broken",
               "final_table", "hand_for_hand", "schedule", "money")


class LiveContract(Protocol):
    """What the web needs of tdhost.live.night.Live: its version, a snapshot, the TD's acts
    and the check of one before the console asks (tdhost.league.refusal.ActionRefused,
    with a sentence, when refused; tdhost.league.store.StoreError, with the CLI's
    sentence, when the league file cannot be written now)."""

    version: int

    def snapshot(self) -> dict[str, Any]: ...

    def act(self, action: str, args: dict[str, Any]) -> Any: ...

    def check(self, action: str, args: dict[str, Any]) -> Any: ...


Lock = Any  # a threading.RLock (or Lock) held around every call into Live
HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; form-action 'self'",
}


def new_token() -> str:
    """A fresh TD token: 128 random bits, URL-safe text (22 characters)."""
    return secrets.token_urlsafe(16)


def public(snap: dict[str, Any]) -> dict[str, Any]:
    """The room's part of a snapshot: the clock, the counts, moves and breaks; per table only
    its number, whether it is broken and how many play there; results once finished."""
    out = {k: snap.get(k) for k in PUBLIC_KEYS}
    out["tables"] = [{"table": t.get("table"), "broken": bool(t.get("broken")),
                      "players": len(t.get("seats") or {})} for t in snap.get("tables") or []]
    finished = (snap.get("tournament") or {}).get("state") == "finished"
    out["results"] = list(snap.get("results") or [])[:10] if finished else []
    return out


class Hub:
    """Live behind its lock, shared by every request of one app.

    ``closing`` (a threading.Event) ends every event stream: set it before stopping the server.
    """

    def __init__(self, live: LiveContract, lock: Lock, listen: str | None = None) -> None:
        self.live = live
        self.listen = listen  # the address the web listens on (None: not known)
        self.lock = lock
        self.closing = threading.Event()
        self.display = _room.Display()  # the big screens' panels, theme, sound (room.py)
        self._cache: tuple[int, int, float, str, str] | None = None  # version, display rev,
        #                                                    monotonic s, full, public json

    def peek_version(self) -> int | None:
        """live.version if the lock is free right now, else None (never waits)."""
        if not self.lock.acquire(blocking=False):
            return None
        try:
            return self.live.version
        finally:
            self.lock.release()

    def message(self, full: bool) -> tuple[int, str]:
        """(version, JSON text) of a fresh snapshot; blocks on the lock (worker thread only)."""
        with self.lock:
            version = self.live.version
            c = self._cache
            rev = self.display.rev
            if c is None or c[0] != version or c[1] != rev \
                    or time.monotonic() - c[2] > FRESH_S:
                snap = self.live.snapshot()
                shown = self.display.settings
                c = (version, rev, time.monotonic(),
                     _dumps(dict(snap, view="td", display=shown)),
                     _dumps(dict(public(snap), view="public", display=shown)))
                self._cache = c
        return version, c[3] if full else c[4]

    def check(self, action: str, args: dict[str, Any]) -> Any:
        """live.check under the lock: would the action be taken (nothing is written)."""
        with self.lock:
            return self.live.check(action, args)

    def act(self, action: str, args: dict[str, Any]) -> tuple[Any, int]:
        """live.act under the lock: (result dict, version after)."""
        with self.lock:
            result = self.live.act(action, args)
            return result, self.live.version


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


def _auth(request: Request, token: str) -> str | None:
    """"bearer" or "cookie" when the request carries the TD's token, else None."""
    h = request.headers.get("authorization", "")
    if h[:7].lower() == "bearer " and _same(h[7:].strip(), token):
        return "bearer"
    c = request.cookies.get(COOKIE)
    if c and _same(c, token):
        return "cookie"
    return None


def _same_origin(request: Request) -> bool:
    """True when the browser says the request comes from a page of this host (Origin, or
    Referer when a browser sends no Origin); a cookie alone is not enough for an action."""
    host = request.headers.get("host", "")
    src = request.headers.get("origin") or request.headers.get("referer")
    if not src or src == "null":
        return False
    return urlsplit(src).netloc.lower() == host.lower()


class _NoCache:
    """ASGI wrapper adding ``Cache-Control: no-cache`` (revalidate with the ETag) to the
    static files, so a TV that stays on all night picks up a new page after an upgrade."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        async def send_no_cache(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + [
                    (b"cache-control", b"no-cache")]
            await send(message)

        await self.app(scope, receive, send_no_cache)


def _error(status: int, sentence: str) -> JSONResponse:
    return JSONResponse({"error": sentence}, status_code=status, headers=HEADERS)


def _login_page(status: int, note: str, path: str = "/td") -> HTMLResponse:
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TD console</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="/static/style.css"></head><body class="td login">'
        "<main><h1>TD console</h1><p>%s</p>"
        '<form method="get" action="%s"><label>TD token <input name="token" '
        'autocomplete="current-password" type="password" autofocus></label> '
        "<button>Open the console</button></form>"
        '<p class="hint">The token is printed by <code>tdhost serve</code>. '
        'The big screen needs none: <a href="/">the clock</a>.</p></main></body></html>'
    ) % (note, path)
    return HTMLResponse(body, status_code=status, headers=HEADERS)


async def read_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None as soon as it is known to be larger than *limit* bytes
    (its Content-Length, or the bytes read so far): an oversize body is never read whole."""
    length = request.headers.get("content-length", "")
    if length.strip().isdigit() and int(length) > limit:
        return None
    chunks, n = [], 0
    async for chunk in request.stream():
        n += len(chunk)
        if n > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def make_app(live: LiveContract, token: str, lock: Lock = None,
             listen: str | None = None) -> Starlette:
    """The Starlette app over ``live`` (the Live contract); ``token``: the TD's secret
    (non-empty text); ``lock``: the lock the host's poll loop holds around ``live.poll()``
    (a new RLock when None); ``listen``: the address it is served on (phones cannot reach
    127.0.0.1: no QR code then; None: not known).  ``app.state.hub.closing.set()`` ends
    all event streams."""
    if not isinstance(token, str) or len(token) < 8:
        raise ValueError("the TD token must be text of at least 8 characters")
    hub = Hub(live, lock if lock is not None else threading.RLock(), listen)

    async def big(request: Request) -> Response:
        return FileResponse(os.path.join(STATIC, "big.html"), headers=HEADERS)

    def sign_in(request: Request, what: str) -> Response | None:
        """None when *request* is the TD's; else the page that signs in: the token in the
        address sets the cookie and comes back without it, no token asks for it."""
        path = request.url.path
        given = request.query_params.get("token")
        if given is not None:
            if not _same(given, token):
                return _login_page(401, "That token is not the TD's token.", path)
            r = RedirectResponse(path, status_code=303, headers=HEADERS)
            r.set_cookie(COOKIE, token, max_age=COOKIE_AGE_S, path="/", httponly=True,
                         samesite="lax")
            return r
        if _auth(request, token) is None:
            return _login_page(401, "%s the TD's token." % what, path)
        return None

    async def td(request: Request) -> Response:
        return sign_in(request, "The console needs") or FileResponse(
            os.path.join(STATIC, "td.html"), headers=HEADERS)

    async def printout(request: Request) -> Response:
        """/td/print: the list of printouts; /td/print/PART: one, as a page (tdhost.web.paper)."""
        refused = sign_in(request, "The printouts need")
        if refused is not None:
            return refused
        part = request.path_params.get("part")
        if part is not None and part not in _paper.PARTS:
            return HTMLResponse("<!doctype html><title>No such printout</title><p>There is "
                                "no printout called %s: <a href=\"/td/print\">the printouts"
                                "</a>.</p>" % html.escape(part), status_code=404,
                                headers=HEADERS)

        def page() -> str:
            with hub.lock:
                snap = hub.live.snapshot()
            return _paper.index(snap) if part is None else _paper.render(part, snap, web=True)
        return HTMLResponse(await run_in_threadpool(page), headers=HEADERS)

    async def logout(request: Request) -> Response:
        r = RedirectResponse("/", status_code=303, headers=HEADERS)
        r.delete_cookie(COOKIE, path="/")
        return r

    async def state(request: Request) -> Response:
        full = _auth(request, token) is not None
        _, text = await run_in_threadpool(hub.message, full)
        return Response(text, media_type="application/json", headers=HEADERS)

    async def events(request: Request) -> Response:
        full = _auth(request, token) is not None

        async def stream() -> AsyncIterator[str]:
            yield "retry: 1000\n\n"
            last: int | None = None
            sent_at, rev = 0.0, None
            while not hub.closing.is_set():
                v = hub.peek_version()
                if (v is not None and v != last) or time.monotonic() - sent_at >= RESEND_S \
                        or rev != hub.display.rev:
                    rev = hub.display.rev
                    version, text = await run_in_threadpool(hub.message, full)
                    last, sent_at = version, time.monotonic()
                    yield "id: %d\nevent: snapshot\ndata: %s\n\n" % (version, text)
                await anyio.sleep(POLL_S)

        headers = dict(HEADERS, **{"X-Accel-Buffering": "no"})
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def act(request: Request) -> Response:
        return await run_act(request, checking=False)

    async def check(request: Request) -> Response:
        return await run_act(request, checking=True)

    async def run_act(request: Request, checking: bool) -> Response:
        """POST /api/act/NAME does the action; POST /api/check/NAME (bust, level) only
        says whether the host would take it, and for a bust whom the names mean."""
        name = request.path_params["action"]
        refused = await td_may_act(request)
        if refused is not None:
            return refused
        body = await read_body(request, MAX_BODY)
        if body is None:
            return _error(413, "The request is larger than %d bytes." % MAX_BODY)
        if name not in ACTIONS:
            return _error(404, "There is no action called %r." % name)
        try:
            args = json.loads(body.decode("utf-8")) if body.strip() else {}
        except (UnicodeDecodeError, ValueError, RecursionError):
            return _error(400, "The arguments are not valid JSON.")
        if not isinstance(args, dict):
            return _error(400, "The arguments must be a JSON object.")
        try:
            if checking:
                found = await run_in_threadpool(hub.check, name, args)
                return JSONResponse(dict(found or {}, ok=True), headers=HEADERS)
            result, version = await run_in_threadpool(hub.act, name, args)
        except ActionRefused as err:
            return _error(400, str(err))
        except StoreError as err:  # the league file cannot be written now: nothing was
            log.warning("%s", err)  # recorded; the CLI's sentence (store.unusable)
            return _error(503, str(err))
        except Exception:
            log.exception("action %s %r failed", name, args)
            return _error(500, "The host failed on this action (see its log); "
                               "nothing has changed.")  # Live.act: nothing written
        out = {"ok": True, "text": (result or {}).get("text", ""), "version": version}
        return JSONResponse(out, headers=HEADERS)

    async def td_may_act(request: Request) -> Response | None:
        """None when *request* may change something as the TD, else the error response."""
        who = _auth(request, token)
        if who is None:
            return _error(401, "This needs the TD's token: open the console link again.")
        if who == "cookie" and not _same_origin(request):
            return _error(403, "A request from another site cannot act on the tournament.")
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return _error(415, "Send the action's arguments as JSON (application/json).")
        return None

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    routes: list[BaseRoute] = [
        Route("/", big),
        Route("/td", td),
        Route("/td/logout", logout),
        Route("/td/print", printout),
        Route("/td/print/{part}", printout),
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/api/act/{action}", act, methods=["POST"]),
        Route("/api/check/{action}", check, methods=["POST"]),
        Route("/favicon.ico", favicon),
        *_room.routes(hub, HEADERS, td_may_act),
        Mount("/static", _NoCache(StaticFiles(directory=STATIC)), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub
    return app
