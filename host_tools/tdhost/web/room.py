"""The room's side of the web (docs/web.md §7-§9): the players' phone page with its QR
code and "find my seat", the big screen's display settings the TD chooses (panels,
layout, theme, sound), the TD's printouts, and a per-address rate limit for the public
routes.

    routes(hub, headers, act_ok, token_ok)   # Starlette routes added by make_app

Nothing here is TD-only except ``POST /api/display`` and ``/td/print``; the seat finder
answers one name at a time from the seating (what the draw sheet on the wall shows),
never a list of players.
"""

import io
import json
import os
import socket
import threading
import time

import segno
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from tdhost.league.text import ordinal

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
RATE_N = 30  # requests a phone (an address) may make ...
RATE_S = 10.0  # ... in this many seconds to the rate-limited routes
PANELS = ("schedule", "chipups", "stats", "payouts", "qr", "news")
PANEL_WORDS = {"schedule": "blind schedule", "chipups": "chip-ups", "stats": "players and stacks",
               "payouts": "payouts", "qr": "phone QR code", "news": "seat moves"}
THEMES = ("dark", "contrast")
LAYOUTS = ("auto", "16x9", "4x3")
MIN_QUERY = 3  # letters of a name before the seat finder answers


class Display:
    """What the big screens show, chosen on the console: ``settings`` (a dict) and ``rev``
    (changes with every change, so the event streams send it at once)."""

    def __init__(self):
        self.settings = {"panels": list(PANELS), "theme": "dark", "layout": "auto",
                         "sound": True, "speak": False}
        self.rev = 0

    def update(self, args):
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

    def __init__(self, n=RATE_N, per_s=RATE_S):
        self.n, self.per_s = n, per_s
        self.seen = {}
        self.lock = threading.Lock()

    def allow(self, who):
        now = time.monotonic()
        with self.lock:
            if len(self.seen) > 5000:  # forget quiet addresses
                self.seen = {k: v for k, v in self.seen.items() if v and now - v[-1] < self.per_s}
            q = [t for t in self.seen.get(who, ()) if now - t < self.per_s]
            if len(q) >= self.n:
                self.seen[who] = q
                return False
            q.append(now)
            self.seen[who] = q
            return True


def lan_address():
    """This machine's address on the local network (no packet is sent), or None."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.254.254.254", 1))
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def phone_url(host_header):
    """The phone page's address for a QR code: the host the big screen was opened on, or
    this machine's network address when that is the laptop itself (127.0.0.1, localhost)."""
    host = host_header or "127.0.0.1"
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    if name in ("127.0.0.1", "localhost", "::1", "[::1]"):
        lan = lan_address()
        if lan:
            host = lan + (":" + port if port else "")
    return "http://%s/p" % host


def qr_svg(url):
    """The QR code of *url* as SVG text (segno; dark modules on a white quiet zone)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=8, border=2, dark="#000",
                                    light="#fff", xmldecl=False, svgns=True)
    return out.getvalue().decode("utf-8")


def _key(name):
    return " ".join(str(name).split()).casefold()


def find_seat(snap, query):
    """The players whose name matches *query* (the whole name, or the start of one of its
    words, at least MIN_QUERY letters), at most five: [{"name", "text", ...}]."""
    q = _key(query)
    if len(q) < MIN_QUERY:
        return []
    regs = snap.get("registration") or []
    exact = [r for r in regs if _key(r["name"]) == q]
    hits = exact or [r for r in regs if any(w.startswith(q) for w in _key(r["name"]).split())
                     or _key(r["name"]).startswith(q)]
    places = {r["name"]: r.get("place") for r in snap.get("results") or []}
    moving = {}
    for p in snap.get("pending") or []:
        if p.get("action") == "move_out" and p.get("state") not in ("done", "refused"):
            moving[p.get("player")] = "%s.%s" % (p["to_table"], p["to_seat"])
    out = []
    for r in hits[:5]:
        name, seat, state = r["name"], r.get("seat"), r.get("state")
        row = {"name": name, "seat": seat, "moving_to": moving.get(name), "place": None}
        if state == "out":
            pl = places.get(name)
            row["place"] = pl
            row["text"] = "%s is out%s." % (name, ": %s place" % ordinal(pl) if pl else "")
        elif state == "standby":
            row["text"] = "%s is on the standby list." % name
        elif seat:
            t, s = seat.split(".")
            row["text"] = "%s: table %s seat %s" % (name, t, s)
            if row["moving_to"]:
                t2, s2 = row["moving_to"].split(".")
                row["text"] += " → moving to table %s seat %s" % (t2, s2)
            row["text"] += "."
        else:
            row["text"] = "%s is registered; the seats are not drawn yet." % name
        out.append(row)
    return out


def routes(hub, headers, act_ok, token_ok):
    """The routes of this module.  ``act_ok(request)`` (async): None when a TD action may
    go ahead, else its error response; ``token_ok(request)``: the request carries the TD's
    token (tdhost.web.app's checks)."""
    limit = RateLimit()

    def limited(request):
        who = request.client.host if request.client else "?"
        if limit.allow(who):
            return None
        return JSONResponse({"error": "Too many requests from this phone: wait a few seconds."},
                            status_code=429, headers=dict(headers, **{"Retry-After": "10"}))

    async def phone(request):
        return limited(request) or FileResponse(os.path.join(STATIC, "phone.html"),
                                                headers=headers)

    async def qr(request):
        busy = limited(request)
        if busy:
            return busy
        svg = qr_svg(phone_url(request.headers.get("host")))
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def phone_link(request):
        return JSONResponse({"url": phone_url(request.headers.get("host"))}, headers=headers)

    async def seat(request):
        busy = limited(request)
        if busy:
            return busy
        q = request.query_params.get("name", "")
        if len(_key(q)) < MIN_QUERY:
            return JSONResponse({"error": "Type at least %d letters of your name." % MIN_QUERY},
                                status_code=400, headers=headers)

        def look():
            with hub.lock:
                return find_seat(hub.live.snapshot(), q)
        found = await run_in_threadpool(look)
        if not found:
            return JSONResponse({"error": "Nobody called %s is in this tournament."
                                 % " ".join(q.split())[:40]},
                                status_code=404, headers=headers)
        return JSONResponse({"found": found}, headers=headers)

    async def display(request):
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
        def has_money():
            with hub.lock:
                return bool(hub.live.snapshot().get("money"))
        words = describe(new, await run_in_threadpool(has_money))
        return JSONResponse({"ok": True, "text": "The big screen: %s." % words,
                             "display": new}, headers=headers)

    async def printable(request):
        if not token_ok(request):
            return JSONResponse({"error": "The printouts need the TD's token: open the "
                                          "console link again."},
                                status_code=401, headers=headers)
        return FileResponse(os.path.join(STATIC, "print.html"), headers=headers)

    return [
        Route("/td/print", printable),
        Route("/p", phone),
        Route("/qr.svg", qr),
        Route("/api/phone-link", phone_link),
        Route("/api/seat", seat),
        Route("/api/display", display, methods=["GET", "POST"]),
    ]


def describe(s, money=True):
    """The display settings in words, for the TD's message line (a free tournament's
    without the payouts: no word of money)."""
    layout = {"auto": "automatic", "16x9": "16:9", "4x3": "4:3"}[s["layout"]]
    return "%s; %s layout; %s theme; sound %s%s" % (
        ", ".join(PANEL_WORDS[p] for p in s["panels"] if money or p != "payouts")
        or "the clock only", layout,
        "high-contrast" if s["theme"] == "contrast" else "dark",
        "on" if s["sound"] else "muted", ", blinds spoken" if s["speak"] else "")
