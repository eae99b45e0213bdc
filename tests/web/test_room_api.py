"""The room's routes without a browser (docs/web.md §7, §8): the phone page and its seat
finder need no token and give nothing TD-only, answer one name at a time and are
rate-limited per address; the QR code is SVG made on the host for the phone page's
address; the display settings change only with the TD's token and refuse bad values with
a sentence, changing nothing."""

import json
import time

import segno
from starlette.testclient import TestClient
from test_web_api import BEARER, JSON, TOKEN, client, night

from tdhost.web import room_pages
from tdhost.web.app import make_app


def test_find_my_seat_answers_one_name_and_nothing_private():
    c = client(night())
    r = c.get("/api/seat", params={"name": "  ALICE moreton "})
    assert r.status_code == 200
    assert r.json() == {"found": [{"name": "Alice Moreton", "seat": "1.1", "moving_to": None,
                                   "place": None, "text": "Alice Moreton: table 1 seat 1."}]}
    r = c.get("/api/seat", params={"name": "mor"})  # the start of a word: Alice Moreton
    assert [f["name"] for f in r.json()["found"]] == ["Alice Moreton"]
    assert c.get("/api/seat", params={"name": "e"}).json() == {
        "error": "Type at least 3 letters of your name."}
    r = c.get("/api/seat", params={"name": "Zed"})
    assert (r.status_code, r.json()) == (404, {
        "error": "Nobody called Zed is in this tournament."})
    # the page itself: no token, no console, no script from elsewhere
    page = c.get("/p")
    assert page.status_code == 200 and "Find my seat" in page.text
    assert TOKEN not in page.text and "/td" not in page.text
    assert page.headers["content-security-policy"].startswith("default-src 'self'")


def test_public_routes_are_rate_limited_per_address():
    c = client(night())
    codes = [c.get("/api/seat", params={"name": "Alice"}).status_code
             for _ in range(room_pages.RATE_N + 3)]
    assert codes[:room_pages.RATE_N] == [200] * room_pages.RATE_N
    assert codes[room_pages.RATE_N:] == [429] * 3
    r = c.get("/p")
    assert r.status_code == 429 and r.headers["retry-after"] == "10"
    assert r.json()["error"] == "Too many requests from this phone: wait a few seconds."
    assert c.get("/api/state").status_code == 200  # the big screen's own data is not


def test_rate_limit_forgets_after_its_window():
    lim = room_pages.RateLimit(n=2, per_s=0.05)
    assert [lim.allow("a"), lim.allow("a"), lim.allow("a"), lim.allow("b")] == \
        [True, True, False, True]
    time.sleep(0.06)
    assert lim.allow("a")


def test_the_qr_code_is_svg_of_the_phone_page():
    c = client(night())
    r = c.get("/qr.svg", headers={"host": "192.168.1.20:8000"})
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text == room_pages.qr_svg("http://192.168.1.20:8000/p")
    assert r.text.startswith("<svg") and "path" in r.text
    # the same modules as segno's own code for that address (a QR of another one differs)
    code = segno.make("http://192.168.1.20:8000/p", error="m")
    assert room_pages.qr_svg("http://192.168.1.20:8000/p") != room_pages.qr_svg("http://10.0.0.1:8000/p")
    assert code.designator.endswith("-M")
    assert c.get("/api/phone-link", headers={"host": "pub.local:8000"}).json() == {
        "url": "http://pub.local:8000/p", "problem": None}
    # a big screen opened on the laptop itself: the QR names its network address instead
    lan = room_pages.lan_address()
    if lan:
        assert room_pages.phone_url("127.0.0.1:8000") == "http://%s:8000/p" % lan
    # served on an address of its own on the network: that one
    assert room_pages.phone_url("127.0.0.1:8000", "192.168.1.20") == "http://192.168.1.20:8000/p"


def test_no_qr_code_phones_cannot_open():
    """tdhost serve on 127.0.0.1 (its default): no phone reaches it, so no QR code, and the
    sentence that says how to fix it."""
    why = "Phones can't reach 127.0.0.1: start tdhost serve with --listen 0.0.0.0"
    c = TestClient(make_app(night(), TOKEN, listen="127.0.0.1"), base_url="http://testserver")
    link = c.get("/api/phone-link", headers={"host": "127.0.0.1:8000"}).json()
    assert link["url"] is None and link["problem"].startswith(why)
    r = c.get("/qr.svg", headers={"host": "127.0.0.1:8000"})
    assert r.status_code == 404 and r.json()["error"].startswith(why)
    assert room_pages.unreachable("::1").startswith("Phones can't reach ::1")
    assert room_pages.unreachable("192.168.1.20") is None and room_pages.unreachable(None) is None


def test_display_settings_need_the_token_and_refuse_bad_values():
    live = night()
    c = client(live)
    assert c.get("/api/display").json()["sound"] is True
    r = c.post("/api/display", content='{"sound": false}', headers=JSON)
    assert r.status_code == 401
    for bad, why in (({"theme": "pink"}, "Theme cannot be 'pink'."),
                     ({"panels": ["clock"]}, "Panels are a list of: schedule, chipups, stats, "
                                             "payouts, qr, news, league."),
                     ({"volume": 3}, "There is no display setting 'volume'.")):
        r = c.post("/api/display", content=json.dumps(bad), headers=dict(JSON, **BEARER))
        assert (r.status_code, r.json()) == (400, {"error": why})
    assert c.get("/api/display").json()["theme"] == "dark"
    r = c.post("/api/display", content='{"sound": false, "panels": ["qr", "schedule"]}',
               headers=dict(JSON, **BEARER))
    assert r.json()["text"] == ("The big screen: blind schedule, phone QR code; automatic "
                                "layout; dark theme; sound muted.")
    s = c.get("/api/state").json()
    assert s["display"]["sound"] is False and s["display"]["panels"] == ["schedule", "qr"]
    assert s["money"] is None  # the LPPL fake: free


def test_find_my_seat_in_every_state():
    snap = {"registration": [
        {"name": "Ann Lee", "member": True, "state": "in", "seat": "2.4"},
        {"name": "Bob Hart", "member": False, "state": "out", "seat": None},
        {"name": "Cat Diaz", "member": False, "state": "standby", "seat": None},
        {"name": "Dan Roe", "member": False, "state": "registered", "seat": None},
        {"name": "Annie Dee", "member": False, "state": "in", "seat": "1.1"}],
        "results": [{"place": 12, "name": "Bob Hart", "points": None}],
        "pending": [{"action": "move_out", "player": "Ann Lee", "state": "sent",
                     "to_table": 3, "to_seat": 7}]}
    texts = lambda q: [f["text"] for f in room_pages.find_seat(snap, q)]  # noqa: E731
    assert texts("ann lee") == ["Ann Lee: table 2 seat 4 → moving to table 3 seat 7."]
    assert texts("ann") == ["Ann Lee: table 2 seat 4 → moving to table 3 seat 7.",
                            "Annie Dee: table 1 seat 1."]
    assert texts("hart") == ["Bob Hart is out: 12th place."]
    assert texts("cat") == ["Cat Diaz is on the standby list."]
    assert texts("dan roe") == ["Dan Roe is registered; the seats are not drawn yet."]
    assert texts("an") == [] and texts("zed") == []
