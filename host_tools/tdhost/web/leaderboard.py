"""The area leaderboard for the room: the standings of the venue's area as the last
`tdhost season pull` left them in the league file (tdhost.league.pulled), read offline
(no network), made safe to show (tdhost.safetext), and served to the big screen and the
players' page as ``GET /api/leaderboard`` (public, rate-limited).  The league server owns
the standings; this module only reads the venue's copy, at most every FRESH_S seconds, so
a pull made while `tdhost serve` runs shows within that time.  Nothing is shown before a
first pull.  docs/web.md §10, docs/league.md "Pull".
"""

import datetime
import threading
import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tdhost.league import pulled as _pulled
from tdhost.league.store import StoreError
from tdhost.rules.points import points_text
from tdhost.safetext import shortened

TOP = 30  # rows of the area's standings sent (the big screen shows the first that fit)
FRESH_S = 15.0  # the league file is read again after this many seconds
NAME_CHARS = 40  # a name from the league server is cut after this many characters
NOTHING: dict[str, Any] = {"shown": False, "rows": []}


def as_of(at: str) -> str:
    """The pull's time (ISO 8601, UTC, as tdhost.season.pull stores it) in the room's
    local time, as the big screen says it: "4 Dec 23:10"; the text itself when unreadable."""
    try:
        when = datetime.datetime.fromisoformat(at)
    except ValueError:
        return shortened(at, NAME_CHARS)
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    local = when.astimezone()
    return "%d %s %02d:%02d" % (local.day, local.strftime("%b"), local.hour, local.minute)


def board(path: str | None, top: int = TOP) -> dict[str, Any]:
    """The area leaderboard of league file *path* for the room: {"shown": True, "league",
    "area", "venue", "at", "as_of", "rows": [{"rank", "name", "member", "points",
    "text"}] best first, at most *top*}; ``NOTHING`` before a first pull, without a file,
    or when it cannot be read (the room's screens just show no leaderboard)."""
    if not path:
        return NOTHING
    try:
        info, rows = _pulled.standings(path)
    except StoreError:
        return NOTHING
    if not info or not rows.get("area"):
        return NOTHING
    out = []
    for r in rows["area"][:top]:
        name = shortened(r["name"], NAME_CHARS)
        pts = points_text(r["points"])
        pts += " pt" if pts == "1" else " pts"
        out.append({"rank": int(r["rank"]), "name": name,
                    "member": "#%d" % r["member"] if r["member"] else "", "points": pts,
                    "text": "%d. %s %s" % (int(r["rank"]), name, pts)})
    return {"shown": True, "league": shortened(info.get("league", ""), NAME_CHARS),
            "area": shortened(info.get("area", ""), NAME_CHARS),
            "venue": shortened(info.get("venue", ""), NAME_CHARS),
            "at": info.get("at", ""), "as_of": as_of(info.get("at", "")), "rows": out}


class Board:
    """The leaderboard of one league file, read again at most every FRESH_S seconds
    (``current()``, from any thread)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._read_at = -FRESH_S
        self._last: dict[str, Any] = NOTHING

    def current(self) -> dict[str, Any]:
        with self._lock:
            if time.monotonic() - self._read_at >= FRESH_S:
                self._last = board(self.path)
                self._read_at = time.monotonic()
            return self._last


def league_file(live: Any) -> str | None:
    """The league file a Live plays from (``live.store.path``), or None (a Live without
    one, like the web tests' contract fake: no leaderboard)."""
    path = getattr(getattr(live, "store", None), "path", None)
    return path if isinstance(path, str) else None


def routes(live: Any, headers: dict[str, str], limited: Any) -> list[BaseRoute]:
    """``GET /api/leaderboard`` over the league file of *live*; ``limited(request)``: the
    room's rate limit (tdhost.web.room_pages), None or its 429 response."""
    shown = Board(league_file(live))

    async def leaderboard(request: Request) -> Response:
        busy = limited(request)
        if busy is not None:
            return busy
        return JSONResponse(await run_in_threadpool(shown.current), headers=headers)

    return [Route("/api/leaderboard", leaderboard)]
