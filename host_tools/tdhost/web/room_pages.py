"""The room's side of the web (docs/web.md §7-§9): the players' phone page with its QR code
and "find my seat" (one name at a time, never a list of players), the big screen's display
settings, and a per-address rate limit for the public routes (the area leaderboard's
too: tdhost.web.leaderboard, §10).
Only ``POST /api/display`` is TD-only (the printouts: tdhost.web.paper).
"""

import io
import json
import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import segno
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tdhost.league.text import ordinal
from tdhost.web import leaderboard as _leaderboard

if TYPE_CHECKING:
    from tdhost.web.app import Hub

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
RATE_N = 30  # requests a phone (an address) may make ...
RATE_S = 10.0  # ... in this many seconds to the rate-limited routes
PANELS = ("schedule", "chipups", "stats", "payouts", "qr", "news", "league")
PANEL_WORDS = {"schedule": "blind schedule", "chipups": "chip-ups", "stats": "players and stacks",
               "payouts": "payouts", "qr": "phone QR code", "news": "seat moves",
               "league": "league leaderboard"}
THEMES = ("dark", "contrast")
LAYOUTS = ("auto", "16x9", "4x3")
MIN_QUERY = 3  # letters of a name before the seat finder answers


class Display:
    """What the big screens show, chosen on the console: ``settings`` (a dict) and ``rev``
    (changes with every change, so the event streams send it at once)."""

    def __init__(self) -> None:
        self.settings: dict[str, Any] = {"panels": list(PANELS), "theme": "dark", "layout": "auto",
                         "sound": True, "speak": False}
        self.rev = 0

    def update(self, args: dict[str, Any]) -> dict[str, Any]:
        """Applies a partial settings dict; ValueError with a sentence (nothing changes)."""
        new = dict(self.settings)
        for k, v in args.items():
            if k == "panels":
                if not isinstance(v, list) or not all(p in PANELS for p in v):
                    raise ValueError("panels are a list of: %s" % ", ".join(PANELS))
                new[k] = [p for p in PANELS if p in v]
            elif k == "theme" and v in THEMES or k == "layout" and v in LAYOUTS:
                new[k] = v
            elif k in ("sound", "speak") and isinstance(v, bool):
                new[k] = v
            elif k in ("theme", "layout", "sound", "speak"):
                raise ValueError("%s cannot be %r" % (k, v))
            else:
                raise ValueError("there is no display setting %r" % (k,))
        self.settings = new
        self.rev += 1
        return new


class RateLimit:
    """At most ``n`` requests in ``per_s`` seconds per client address (sliding window)."""

    def __init__(self, n: int = RATE_N, per_s: float = RATE_S) -> None:
        self.n, self.per_s = n, per_s
        self.seen: dict[str, list[float]] = {}
        self.lock = threading.Lock()

    def allow(self, who: str) -> bool:
        now = time.monotonic()
        with self.lock:
            if len(self.seen) > 5000:  # forget quiet addresses
                self.seen = {k: v for k, v in self.seen.items() if v and now - v[-1] < self.per_s}
            q = [at for at in self.seen.get(who, ()) if now - at < self.per_s]
            if len(q) >= self.n:
                self.seen[who] = q
                return False
            q.append(now)
            self.seen[who] = q
            return True


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.254.254.254", 1))
        return str(s.getsockname()[0])
    except OSError:
        return None
    finally:
        s.close()


def loopback(host: str) -> bool:
    """True for an address only this laptop reaches (127.x, localhost, ::1)."""
    host = host.strip("[]").lower()
    return host.startswith("127.") or host in ("localhost", "::1")


def unreachable(listen: str | None) -> str | None:
    """Why no phone can open the players' page when the web listens on *listen* (the
    address given to tdhost serve --listen; None: not known), or None.  One sentence with
    the fix, for the console and the terminal."""
    if listen is None:
        return None
    if loopback(listen):
        return ("Phones can't reach %s: start tdhost serve with --listen 0.0.0.0 for the "
                "players' page and its QR code." % listen.strip("[]"))
    if listen in ("", "0.0.0.0", "::") and lan_address() is None:
        return ("This laptop has no network address phones can reach: join the room's "
                "Wi-Fi, then start tdhost serve again.")
    return None


def phone_url(host_header: str | None, listen: str | None = None) -> str:
    """The phone page's address for a QR code: the host the big screen was opened on, or,
    when that is the laptop itself (127.0.0.1, localhost), the address the web listens on
    or this machine's network address."""
    host = host_header or "127.0.0.1"
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    if loopback(name):
        own = listen if listen and listen not in ("0.0.0.0", "::") and not loopback(listen) \
            else lan_address()
        if own:
            host = ("[%s]" % own if ":" in own else own) + (":" + port if port else "")
    return "http://%s/p" % host


def qr_svg(url: str) -> str:
    """The QR code of *url* as SVG text (segno; dark modules on a white quiet zone)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, dark="#000",
                                    light="#fff", xmldecl=False, svgns=True)
    return out.getvalue().decode("utf-8")


def _key(name: object) -> str:
    return " ".join(str(name).split()).casefold()


def find_seat(snap: dict[str, Any], query: str) -> list[dict[str, Any]]:
    """The players whose name matches *query* (the whole name, or the start of one of its
    words, at least MIN_QUERY letters), at most five: [{"name", "text", ...}]."""
    q = _key(query)
    if len(q) < MIN_QUERY:
        return []
    regs = snap.get("registration") or []
    exact = [reg for reg in regs if _key(reg["name"]) == q]
    hits = exact or [reg for reg in regs
                     if any(w.startswith(q) for w in _key(reg["name"]).split())
                     or _key(reg["name"]).startswith(q)]
    places = {res["name"]: res.get("place") for res in snap.get("results") or []}
    moving = {}
    for pend in snap.get("pending") or []:
        if pend.get("action") == "move_out" and pend.get("state") not in ("done", "refused"):
            moving[pend.get("player")] = "%s.%s" % (pend["to_table"], pend["to_seat"])
    out = []
    for reg in hits[:5]:
        name, seat, state = reg["name"], reg.get("seat"), reg.get("state")
        row: dict[str, Any] = {"name": name, "seat": seat, "moving_to": moving.get(name),
                               "place": None}
        if state == "out":
            pl = places.get(name)
            row["place"] = pl
            row["text"] = "%s is out%s." % (name, ": %s place" % ordinal(pl) if pl else "")
        elif state == "standby":
            row["text"] = "%s is on the standby list." % name
        elif seat:
            table, number = seat.split(".")
            row["text"] = "%s: table %s seat %s" % (name, table, number)
            if row["moving_to"]:
                to_table, to_seat = row["moving_to"].split(".")
                row["text"] += " → moving to table %s seat %s" % (to_table, to_seat)
            row["text"] += "."
        else:
            row["text"] = "%s is registered; the seats are not drawn yet." % name
        out.append(row)
    return out


def routes(hub: "Hub", headers: dict[str, str],
           act_ok: Callable[[Request], Awaitable[Response | None]]) -> list[BaseRoute]:
    """The routes of this module.  ``act_ok(request)`` (async): None when a TD action may
    go ahead, else its error response (tdhost.web.app's checks)."""
    limit = RateLimit()

    def limited(request: Request) -> Response | None:
        who = request.client.host if request.client else "?"
        if limit.allow(who):
            return None
        return JSONResponse({"error": "Too many requests from this phone: wait a few seconds."},
                            status_code=429, headers=dict(headers, **{"Retry-After": "10"}))

    async def phone(request: Request) -> Response:
        return limited(request) or FileResponse(os.path.join(STATIC, "phone.html"),
                                                headers=headers)

    async def qr(request: Request) -> Response:
        busy = limited(request)
        if busy:
            return busy
        problem = unreachable(hub.listen)
        if problem:
            return JSONResponse({"error": problem}, status_code=404, headers=headers)
        svg = qr_svg(phone_url(request.headers.get("host"), hub.listen))
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def phone_link(request: Request) -> Response:
        problem = unreachable(hub.listen)
        url = None if problem else phone_url(request.headers.get("host"), hub.listen)
        return JSONResponse({"url": url, "problem": problem}, headers=headers)

    async def seat(request: Request) -> Response:
        busy = limited(request)
        if busy:
            return busy
        q = request.query_params.get("name", "")
        if len(_key(q)) < MIN_QUERY:
            return JSONResponse({"error": "Type at least %d letters of your name." % MIN_QUERY},
                                status_code=400, headers=headers)

        def look() -> list[dict[str, Any]]:
            with hub.lock:
                return find_seat(hub.live.snapshot(), q)
        found = await run_in_threadpool(look)
        if not found:
            return JSONResponse({"error": "Nobody called %s is in this tournament."
                                 % " ".join(q.split())[:40]},
                                status_code=404, headers=headers)
        return JSONResponse({"found": found}, headers=headers)

    async def display(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse(hub.display.settings, headers=headers)
        bad = await act_ok(request)
        if bad is not None:
            return bad
        from tdhost.web.app import MAX_BODY, read_body  # app imports this module

        body = await read_body(request, MAX_BODY)  # an oversize body is never read whole
        if body is None:
            return JSONResponse({"error": "The request is larger than %d bytes." % MAX_BODY},
                                status_code=413, headers=headers)
        try:
            args = json.loads(body.decode("utf-8") or "{}")
            if not isinstance(args, dict):
                raise ValueError("the settings must be a JSON object")
            new = hub.display.update(args)
        except RecursionError:
            return JSONResponse({"error": "The settings are not valid JSON."},
                                status_code=400, headers=headers)
        except (UnicodeDecodeError, ValueError) as err:
            return JSONResponse({"error": str(err)[:1].upper() + str(err)[1:] + "."},
                                status_code=400, headers=headers)
        def has_money() -> bool:
            with hub.lock:
                return bool(hub.live.snapshot().get("money"))
        words = describe(new, await run_in_threadpool(has_money))
        return JSONResponse({"ok": True, "text": "The big screen: %s." % words,
                             "display": new}, headers=headers)

    return [
        Route("/p", phone),
        Route("/qr.svg", qr),
        Route("/api/phone-link", phone_link),
        Route("/api/seat", seat),
        Route("/api/display", display, methods=["GET", "POST"]),
        *_leaderboard.routes(hub.live, headers, limited),
    ]


def describe(settings: dict[str, Any], money: bool = True) -> str:
    """The display settings in words, for the TD's message line (a free tournament's
    without the payouts: no word of money)."""
    layout = {"auto": "automatic", "16x9": "16:9", "4x3": "4:3"}[settings["layout"]]
    return "%s; %s layout; %s theme; sound %s%s" % (
        ", ".join(PANEL_WORDS[panel] for panel in settings["panels"]
                  if money or panel != "payouts") or "the clock only", layout,
        "high-contrast" if settings["theme"] == "contrast" else "dark",
        "on" if settings["sound"] else "muted", ", blinds spoken" if settings["speak"] else "")
