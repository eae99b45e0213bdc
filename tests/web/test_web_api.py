"""The web server's API (host_tools/tdhost/web/app.py, docs/web.md): who may see what, who
may act, refusals as one sentence, and the event stream after an action.  Served by
Starlette's TestClient, and by uvicorn in a thread for the stream; the tournament is the
in-memory FakeLive (tests/web/fake_live.py) on a fixed virtual clock."""

import json
import threading
import warnings

import httpx
import pytest
from fake_live import FakeLive

with warnings.catch_warnings():  # starlette 1.10 would rather have httpx2 than httpx here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tdhost.web.app import COOKIE, make_app, public
from tdhost.web.server import run_in_thread

TOKEN = "test-td-token-0123"
T0 = 1741032000000  # 2025-03-03 20:00:00 UTC in ms
BEARER = {"Authorization": "Bearer " + TOKEN}
JSON = {"Content-Type": "application/json"}


def night(**kw):
    return FakeLive(clock=lambda: T0, **kw)


def client(live, **kw):
    return TestClient(make_app(live, TOKEN), base_url="http://testserver", **kw)


def post(c, action, args=None, headers=None):
    return c.post("/api/act/" + action, content=json.dumps(args or {}),
                  headers=dict(JSON, **(headers or {})))


# ------------------------------------------------------------------------- what is seen

def test_public_state_leaves_out_the_private_parts():
    c = client(night())
    s = c.get("/api/state").json()
    assert s["view"] == "public"
    assert s["clock"]["sb"] == 25 and s["clock"]["bb"] == 50  # LPPL level 1
    assert s["clock"]["ms_left"] == 20 * 60000
    assert s["players"] == {"entries": 23, "left": 23, "average_stack": 3000,
                            "chips_in_play": 69000}
    for private in ("registration", "standby", "log", "pending", "leaderboard"):
        assert private not in s
    assert s["tables"] == [{"table": 1, "broken": False, "players": 8},
                           {"table": 2, "broken": False, "players": 8},
                           {"table": 3, "broken": False, "players": 7}]
    assert "Alice Moreton" not in json.dumps(s)  # no seat list on the big screen


def test_public_shows_results_only_when_finished():
    snap = night().snapshot()
    snap["results"] = [{"place": 1, "name": "Ann", "points": 40.0}]
    assert public(snap)["results"] == []
    snap["tournament"] = dict(snap["tournament"], state="finished")
    assert public(snap)["results"] == [{"place": 1, "name": "Ann", "points": 40.0}]


def test_the_td_gets_the_whole_snapshot():
    live = night()
    s = client(live).get("/api/state", headers=BEARER).json()
    assert s["view"] == "td"
    assert set(live.snapshot()) <= set(s)
    assert s["tables"][0]["seats"]["1"]["name"] == "Alice Moreton"
    assert len(s["registration"]) == 23


# ------------------------------------------------------------------------- who may act

@pytest.mark.parametrize("headers", [
    {},
    {"Authorization": "Bearer wrong-token-4567"},
    {"Authorization": "Basic " + TOKEN},
    {"Cookie": COOKIE + "=wrong-token-4567", "Origin": "http://testserver"},
])
def test_actions_without_the_token_are_refused_and_change_nothing(headers):
    live = night()
    c = client(live)
    before = live.snapshot()
    for action, args in (("pause", {}), ("bust", {"names": ["Ben Taylor"]}), ("undo", {}),
                         ("level", {"level": 4}), ("nonsense", {})):
        r = post(c, action, args, headers)
        assert r.status_code == 401, (action, r.status_code)
        assert "token" in r.json()["error"]
    assert live.version == 1
    assert live.snapshot() == before


def test_the_token_acts():
    live = night()
    r = post(client(live), "pause", headers=BEARER)
    assert r.status_code == 200
    assert r.json() == {"ok": True, "text": "Clock paused with 20:00 left in the level.",
                        "version": 2}
    assert live.snapshot()["clock"]["paused"] is True


def test_token_link_sets_an_httponly_cookie_and_the_console_opens():
    c = client(night(), follow_redirects=False)
    assert c.get("/td").status_code == 401
    assert c.get("/td?token=wrong-token-4567").status_code == 401
    r = c.get("/td?token=" + TOKEN)
    assert r.status_code == 303 and r.headers["location"] == "/td"
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    page = c.get("/td")  # the client keeps the cookie
    assert page.status_code == 200 and 'id="tables"' in page.text
    assert c.get("/api/state").json()["view"] == "td"
    assert c.get("/td/logout").status_code == 303
    assert c.get("/td").status_code == 401


def test_cookie_actions_need_a_same_origin_request():
    live = night()
    c = client(live)
    c.get("/td?token=" + TOKEN)
    for headers in ({}, {"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Referer": "http://evil.example/td"}):
        r = post(c, "pause", headers=headers)
        assert r.status_code == 403, headers
        assert r.json()["error"] == "A request from another site cannot act on the tournament."
    assert live.version == 1
    assert post(c, "pause", headers={"Origin": "http://testserver"}).status_code == 200
    assert post(c, "resume", headers={"Referer": "http://testserver/td"}).status_code == 200
    assert live.version == 3


def test_a_form_post_is_not_an_action():
    live = night()
    r = client(live).post("/api/act/pause", data={"x": "1"}, headers=BEARER)
    assert r.status_code == 415
    assert live.version == 1


def test_big_screen_needs_no_token():
    c = client(night())
    page = c.get("/")
    assert page.status_code == 200 and 'id="time"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert c.get("/static/big.js").status_code == 200


def test_short_token_refused():
    with pytest.raises(ValueError):
        make_app(night(), "short")


# ----------------------------------------------------------------------------- refusals

@pytest.mark.parametrize("action,args,status,sentence", [
    ("resume", {}, 400, "The clock is already running."),
    ("register", {"names": ["Zed"]}, 400,
     "The tournament has started: enter a latecomer with late."),
    ("bust", {"names": ["Nobody Here"]}, 400, "Nobody Here is not playing at any table."),
    ("level", {"level": 17}, 400, "The level must be a whole number from 1 to 14."),
    ("undo", {}, 400, "There is nothing to undo."),
    ("teleport", {}, 404, "There is no action called 'teleport'."),
])
def test_refused_action_returns_the_sentence_and_changes_nothing(action, args, status, sentence):
    live = night()
    before = live.snapshot()
    r = post(client(live), action, args, BEARER)
    assert r.status_code == status
    assert r.json() == {"error": sentence}
    assert live.version == 1 and live.snapshot() == before


@pytest.mark.parametrize("body", [b"[1, 2]", b"{not json", b"\xff\xfe", b'"pause"'])
def test_bad_bodies_are_refused(body):
    live = night()
    r = client(live).post("/api/act/pause", content=body, headers=dict(JSON, **BEARER))
    assert r.status_code == 400
    assert r.json()["error"] in ("The arguments are not valid JSON.",
                                 "The arguments must be a JSON object.")
    assert live.version == 1


def test_an_empty_body_is_no_arguments():
    live = night()
    r = client(live).post("/api/act/pause", content=b"", headers=dict(JSON, **BEARER))
    assert r.status_code == 200 and live.version == 2


# --------------------------------------------------------------------- the lock is held

class OwnedLock:
    """An RLock that knows whether the calling thread holds it."""

    def __init__(self):
        self._lock = threading.RLock()
        self._owner = None
        self._depth = 0

    def acquire(self, blocking=True):
        ok = self._lock.acquire(blocking)
        if ok:
            self._owner, self._depth = threading.get_ident(), self._depth + 1
        return ok

    def release(self):
        self._depth -= 1
        if not self._depth:
            self._owner = None
        self._lock.release()

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()

    def mine(self):
        return self._owner == threading.get_ident()


class GuardedLive:
    """FakeLive that fails the test when touched without the lock."""

    def __init__(self, live, lock):
        self._live, self._lock = live, lock

    @property
    def version(self):
        assert self._lock.mine(), "live.version read without the lock"
        return self._live.version

    def snapshot(self):
        assert self._lock.mine(), "live.snapshot() without the lock"
        return self._live.snapshot()

    def act(self, action, args):
        assert self._lock.mine(), "live.act() without the lock"
        return self._live.act(action, args)


def test_every_access_to_live_holds_the_shared_lock():
    lock = OwnedLock()
    live = night()
    c = TestClient(make_app(GuardedLive(live, lock), TOKEN, lock))
    assert c.get("/api/state").status_code == 200
    assert post(c, "pause", headers=BEARER).status_code == 200
    with served(GuardedLive(live, lock), lock) as web:
        first = next(events(web.url, {}))
        assert first["clock"]["paused"] is True


# ------------------------------------------------------------------------ event stream

class served:
    """run_in_thread for a with-block (the server's own module, no browser)."""

    def __init__(self, live, lock=None):
        self.live, self.lock = live, lock

    def __enter__(self):
        self.web = run_in_thread(self.live, "127.0.0.1", 0, TOKEN, self.lock)
        return self.web

    def __exit__(self, *exc):
        self.web.stop()


def events(url, headers, timeout_s=5.0):
    """The snapshots of /api/events, one per `snapshot` event (reads bounded by timeout_s)."""
    with httpx.stream("GET", url + "/api/events", headers=headers,
                      timeout=httpx.Timeout(timeout_s)) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        kind = None
        for line in r.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "snapshot":
                yield json.loads(line[6:])


def test_event_stream_sends_a_new_snapshot_after_an_action():
    live = night()
    with served(live) as web:
        stream = events(web.url, {})
        first = next(stream)
        assert first["view"] == "public" and first["clock"]["paused"] is False
        r = httpx.post(web.url + "/api/act/pause", json={}, headers=BEARER, timeout=5)
        assert r.status_code == 200
        second = next(stream)
        assert second["clock"]["paused"] is True
        assert second["clock"]["ms_left"] == 20 * 60000
        r = httpx.post(web.url + "/api/act/level", json={"level": 6}, headers=BEARER,
                       timeout=5)
        third = next(stream)
        assert (third["clock"]["sb"], third["clock"]["bb"]) == (200, 400)  # after the break
        stream.close()


def test_event_stream_for_the_td_is_the_whole_snapshot():
    with served(night()) as web:
        first = next(events(web.url, BEARER))
        assert first["view"] == "td" and len(first["registration"]) == 23


def test_stop_ends_open_streams():
    with served(night()) as web:
        stream = events(web.url, {})
        next(stream)
        web.stop()
        assert not web.alive()
        with pytest.raises((StopIteration, httpx.HTTPError)):
            next(stream)


def test_sample_night_of_the_screenshots():
    from web_shots import sample_night

    s = sample_night().snapshot()
    assert s["clock"]["level"] == 5 and s["players"]["left"] == 20
    assert [(m["player"], m["from"], m["to"]) for m in s["moves"]] == \
        [("Vince Polley", "1.8", "3.3")]
    waiting = [p for p in s["pending"] if p["state"] == "sent"]
    assert [(p["player"], p["table"], p["seat"], p["to_table"]) for p in waiting] == \
        [("Wendy Oakes", 2, 8, 3)]


# ------------------------------------------------------------------- oversize bodies

def _raw_post(port, head, send_body):
    """POST over a raw socket: send *head*, then body chunks from *send_body(sock)* until the
    server answers; returns (status line, bytes of body sent before the answer came)."""
    import socket

    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(head)
        sent = send_body(s)
        s.settimeout(10)
        answer = s.recv(4096)
        return answer.split(b"\r\n", 1)[0], sent
    finally:
        s.close()


def test_an_oversize_body_is_refused_while_it_is_read():
    """Issue 16: a 200 MB body used to be read whole before the 413 (RSS 47 -> 438 MB).
    Now a declared length over the limit is refused before any of it is read, and a
    chunked body as soon as it passes the limit."""
    with served(night()) as web:
        big = 200 * 1024 * 1024
        head = ("POST /api/act/pause HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                % (TOKEN, big)).encode()
        status, sent = _raw_post(web.port, head, lambda s: 0)
        assert status == b"HTTP/1.1 413 Request Entity Too Large" or b" 413 " in status, status
        status, sent = _raw_post(web.port, head.replace(b"/api/act/pause", b"/api/display"),
                                 lambda s: 0)
        assert b" 413 " in status, status  # the big screens' settings too
        head = ("POST /api/act/pause HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                % TOKEN).encode()

        def chunked(s):
            import select

            sent = 0
            piece = b"[" * 65536
            frame = b"%x\r\n" % len(piece) + piece + b"\r\n"
            while sent < big:
                if select.select([s], [], [], 0.01)[0]:
                    break
                try:
                    s.sendall(frame)
                except OSError:
                    break
                sent += len(piece)
            return sent
        status, sent = _raw_post(web.port, head, chunked)
        assert b" 413 " in status, status
        assert sent < 8 * 1024 * 1024, sent  # stopped within a few MB, never 200 MB
