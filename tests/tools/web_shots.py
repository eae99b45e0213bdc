"""Screenshots of the web pages for docs/screens/ (docs/web.md), in Debian's headless
chromium driven by Playwright (no downloaded browser: never ``playwright install``).

    make web-shots                                       # the real host, three boxes
    .venv/bin/python tests/tools/web_shots.py --demo     # the demo night (tcsim.serve_demo)
    .venv/bin/python tests/tools/web_shots.py --url http://127.0.0.1:8000 --token TOKEN
                                                         # a running `tdhost serve` instead
    .venv/bin/python tests/tools/web_shots.py --fake     # tests/web/fake_live.py's night

Writes web-td.png (the console on a 1366x768 laptop screen), web-td-phone.png (the whole
console at a 390 px phone's width, touch), web-big-16x9.png (1280x720) and web-big-4x3.png
(1024x768).  The default is the real host (tdhost.live.night.Live) with three whole simulated
boxes on the room's virtual clock (tests/web/night.py, as the browser tests use it): 20
players drawn and started from the console's contract, a box's bust, the balancing move it
brings and a latecomer waiting for their seat (console and 16:9), then the first break
(4:3); web-phone.png is the players' page (390 px wide, the whole page) in the same night.
Then a home game with money (docs/examples/home_money.toml, on the real Live without
boxes): web-big-money.png (16:9), web-big-contrast.png (4:3, high contrast),
web-phone-money.png and web-print.png (the table sheets as printed).  ``--demo``
photographs ``tdhost serve --demo``'s night instead (dealer bots) the moment a balancing
move waits for the boxes.  A developer's tool: not part of the installed host.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

from tdhost.web.chromium import chromium_missing, launch_chromium

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "docs", "screens")
TOKEN = "sample-td-token"
DEMO_SEED = 22  # a night whose first minutes show a move made and one waiting (tcsim.serve_demo)
DEMO_STEP_MS = 5000  # the demo's time moves on in these steps between looks (virtual ms)


def _shot(browser, url, path, width, height, full_page=False, ready="#time", touch=False):
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                              is_mobile=touch)
    page = ctx.new_page()
    try:
        page.goto(url)
        page.wait_for_function("document.querySelector(%r).textContent.includes(':')" % ready)
        page.keyboard.press("Shift")  # the TV set up: its chimes allowed (docs/web.md "Sound")
        page.wait_for_timeout(300)  # fonts, the first tick and the QR code's address settled
        page.screenshot(path=path, full_page=full_page)
    finally:
        ctx.close()
    return path


def shoot(url, token, out_dir=OUT, between=None):
    """Photographs the console and the big screen at 16:9 and 4:3 at ``url``, in that
    order; calls ``between(name)`` before each shot ("td", "td-phone", "big-16x9",
    "big-4x3") so a
    sample night can change state.  Returns the paths written."""
    from playwright.sync_api import sync_playwright

    os.makedirs(out_dir, exist_ok=True)
    shots = (("td", "/td?token=" + token, 1366, 768, False, False),
             ("td-phone", "/td?token=" + token, 390, 844, True, True),
             ("big-16x9", "/", 1280, 720, False, False),
             ("phone", "/p", 390, 844, True, True),
             ("big-4x3", "/", 1024, 768, False, False))
    paths = []
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for name, path, w, h, full, touch in shots:
                if between is not None:
                    between(name)
                paths.append(_shot(browser, url + path, os.path.join(out_dir, "web-%s.png" % name),
                                   w, h, full, touch=touch))
        finally:
            browser.close()
    return paths


def sample_night():
    """The sample night of tests/web/fake_live.py a little way in: level 5, two players out,
    one move made and one waiting for the TD, a box that has gone quiet."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
    try:
        from fake_live import FakeLive
    except ImportError:
        raise SystemExit("the sample night is tests/web/fake_live.py in the repository; "
                         "or photograph a running host with --url and --token")
    now = int(time.time() * 1000)
    live = FakeLive(links={1: "live", 2: "live", 3: "offline"})
    live.contact[3] = now - 47000
    live.act("level", {"level": 5})
    live.act("adjust", {"seconds": -437})
    live.act("bust", {"names": ["Ian McAllister"]})
    for action in ("move_out", "receive"):  # the receive follows the move_out (§10.6)
        for p in live.snapshot()["pending"]:
            if p["action"] == action and p["state"] == "sent":
                live.act("confirm", {"id": p["id"]})
    live.act("bust", {"names": ["Una Byrne", "Chloe Price"], "chips": [1800, 950]})
    return live


def _demo_until(demo, cond, what, ms):
    """Let the demo's virtual time run until ``cond(snapshot)``, at most *ms*."""
    for _ in range(ms // DEMO_STEP_MS):
        if cond(demo.live.snapshot()):
            return
        demo.advance(DEMO_STEP_MS)
    raise SystemExit("the demo night (seed %d) never got to %s within %d virtual minutes"
                     % (demo.seed, what, ms // 60000))


def move_waiting(snap):
    """Three tables playing, a move made, and a move the boxes have not carried out yet."""
    return (not snap["broken"] and snap["moves"] and any(
        p["action"] == "move_out" and p["state"] in ("sent", "acknowledged")
        for p in snap["pending"]))


def demo_shots(out_dir, seed=DEMO_SEED):
    """tdhost serve --demo's night (tcsim.serve_demo, virtual time), served and photographed."""
    from tdhost.cli.demo import night_class
    from tdhost.web.server import run_in_thread

    Demo = night_class()

    workdir = tempfile.mkdtemp(prefix="tdhost-shots-")
    try:
        demo = Demo.build(workdir, seed=seed, realtime=False)
        try:
            _demo_until(demo, move_waiting, "a waiting balancing move", 30 * 60000)
            web = run_in_thread(demo.live, "0.0.0.0", 0, TOKEN)  # the QR code

            def between(name):
                if name == "big-4x3":
                    with web.lock:
                        _demo_until(demo, lambda s: s["clock"]["is_break"],
                                    "the first break", 3 * 3600 * 1000)

            try:
                return shoot(web.url, TOKEN, out_dir, between)
            finally:
                web.stop()
        finally:
            demo.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def room_shots(out_dir):
    """The real host and three simulated boxes (tests/web/night.py), scripted: module notes."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
    try:
        from night import Night, allin_hand
    except ImportError:
        raise SystemExit("the scripted night is tests/web/night.py in the repository; use "
                         "--demo, or photograph a running host with --url and --token")
    from tdhost.cli.demo import night_class
    from tdhost.web.server import run_in_thread

    names = night_class().NAMES
    workdir = tempfile.mkdtemp(prefix="tdhost-shots-")
    night = Night(workdir)
    live = night.live
    try:
        web = run_in_thread(live, "0.0.0.0", 0, TOKEN)  # the QR code: phones could connect
        night.lock = web.lock
        try:
            night.until("every box live", lambda: all(lk.state == "live" for lk in live.links))
            with web.lock:
                live.act("register", {"names": names[:20]})
                live.act("draw", {"seed": 7})
                live.act("start", {})
            night.advance(90000)
            with web.lock:
                seating = {tb: dict(s) for tb, s in live.tournament.seating().items()}
            short = min(seating, key=lambda tb: len(seating[tb]))
            seats = sorted(seating[short])
            night.job(short, allin_hand(seats[3], seats[4]))
            night.until("the balancing move", lambda: any(
                p["action"] == "move_out" for p in live.snapshot()["pending"]), 20000)
            night.advance(45000)
            with web.lock:
                live.act("late", {"name": names[20]})
            night.advance(4000)

            def between(name):
                if name != "big-4x3":
                    return
                with web.lock:
                    for lv in (2, 3, 4, 5):
                        live.act("level", {"level": lv})
                    left = live.snapshot()["clock"]["ms_left"] // 1000
                    live.act("adjust", {"seconds": 2 - left})
                night.advance(3000)

            return shoot(web.url, TOKEN, out_dir, between)
        finally:
            web.stop()
    finally:
        night.close()
        shutil.rmtree(workdir, ignore_errors=True)


def _print_shot(browser, url, path):
    """The table sheets' page as paper shows it (print media)."""
    page = browser.new_page(viewport={"width": 800, "height": 1000})
    try:
        page.goto(url + "/td/print/tables?token=" + TOKEN)
        page.emulate_media(media="print")
        page.wait_for_timeout(300)
        page.screenshot(path=path, full_page=True)
    finally:
        page.close()
    return path


def money_shots(out_dir):
    """A home game with money on the real Live (no boxes; a virtual clock): 27 players,
    level 3, two re-buys, three players out with their bounties; photographed at 16:9, on a
    phone, at 4:3 in the high-contrast theme, and its table sheets as printed."""
    import httpx

    from tdhost.cli.demo import night_class
    from tdhost.live.night import Live
    from tdhost.web.server import run_in_thread

    _demo = night_class()
    workdir = tempfile.mkdtemp(prefix="tdhost-shots-")
    now = [int(time.time() * 1000) // 60000 * 60000]
    names = _demo.NAMES + ["Zach Fowler", "Quentin Ashby-Ward", "Kate Morris"]
    try:
        db = os.path.join(workdir, "home.sqlite")
        _demo.new_tournament(db, os.path.join(ROOT, "docs", "examples", "home_money.toml"))
        live = Live(db, clock=lambda: now[0], seed=3)
        live.act("register", {"names": names[:27]})
        live.act("draw", {"seed": 3})
        live.act("start", {})
        now[0] += 47 * 60000 + 23000  # level 3, 12:37 left
        live.poll(now[0])
        for n in ("Ben Taylor", "Sue Granger"):
            live.act("rebuy", {"name": n})
        for out, by in (("Mo Hassan", "Ben Taylor"), ("Jo Brennan", "Alice Moreton"),
                        ("Kate Morris", "Ben Taylor")):
            live.act("bust", {"names": [out]})
            live.act("knockout", {"name": out, "by": by})
        web = run_in_thread(live, "0.0.0.0", 0, TOKEN)  # the QR code: phones could connect
        paths = []
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                try:
                    paths.append(_shot(browser, web.url + "/", os.path.join(
                        out_dir, "web-big-money.png"), 1280, 720))
                    paths.append(_shot(browser, web.url + "/p", os.path.join(
                        out_dir, "web-phone-money.png"), 390, 844, True, touch=True))
                    httpx.post(web.url + "/api/display", json={"theme": "contrast",
                               "layout": "4x3"}, headers={"Authorization": "Bearer " + TOKEN})
                    paths.append(_shot(browser, web.url + "/", os.path.join(
                        out_dir, "web-big-contrast.png"), 1024, 768))
                    paths.append(_print_shot(browser, web.url, os.path.join(
                        out_dir, "web-print.png")))
                finally:
                    browser.close()
        finally:
            web.stop()
            live.close()
        return paths
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tests/tools/web_shots.py", description=__doc__.split(
        "\n")[0])
    ap.add_argument("--url", help="a running host (default: the real host and three "
                    "simulated boxes, scripted by tests/web/night.py)")
    ap.add_argument("--demo", action="store_true",
                    help="the demo night of tcsim.serve_demo (dealer bots) instead")
    ap.add_argument("--fake", action="store_true",
                    help="the sample night of tests/web/fake_live.py instead of the demo")
    ap.add_argument("--seed", type=int, default=DEMO_SEED, help="the demo night's seed")
    ap.add_argument("--token", default=TOKEN, help="the TD token of --url")
    ap.add_argument("--out", default=OUT, help="directory for the PNG files (%(default)s)")
    a = ap.parse_args(argv)
    why = chromium_missing()
    if why:
        raise SystemExit(why)
    if a.url:
        paths = shoot(a.url.rstrip("/"), a.token, a.out)
    elif a.demo:
        paths = demo_shots(a.out, a.seed)
    elif not a.fake:
        paths = room_shots(a.out) + money_shots(a.out)
    else:
        from tdhost.web.server import run_in_thread

        live = sample_night()
        web = run_in_thread(live, "0.0.0.0", 0, TOKEN)  # the QR code: phones could connect

        def between(name):
            if name == "big-4x3":
                with web.lock:
                    live.act("hand_for_hand", {"on": True})

        try:
            paths = shoot(web.url, TOKEN, a.out, between)
        finally:
            web.stop()
    for p in paths:
        print(p)


if __name__ == "__main__":
    main()
