"""The whole night end to end: the real host (tdhost.live.night.Live on a league file), three whole
simulated boxes (tcsim.room: the firmware's App and link, tables 1 and 3 the compact build,
table 2 the table build) on in-memory cables to host BoxLinks, the real web server in a
thread sharing Live's lock, and both pages in headless Chromium (issue #6, docs/web.md).

The TD registers 20 players, draws the seats and starts from the console (its forms); a
dealer at the short table plays a hand through the box's own keys in which one player goes
all-in against an equal stack and loses (tcsim.driver.Dealer finds the presses);
the box reports the bust over its link, the host records it and plans the balancing move
(LPPL ¶45: 5, 7, 7 -> a player from a table of 7 to the short table), the console offers it,
the dealer of the table the player leaves confirms its move_out with the Confirm key, the box
answers with the player's chips and only then does the receive go to the other box (protocol
1.2), whose dealer confirms it; the console shows it done and the big screen lists it; the
TD jumps to level 2 from the console and the big screen and every box's screen show 50/100
and the host's time; on through levels 3 to 5 to the colour-up break, which the big screen
(banner under the clock at 16:9 and 4:3) and every box show alike; a request without the
token is refused and changes nothing.  Then
``tdhost serve --demo`` itself, as a process: what it prints, three live boxes dealing, a
clean stop on Ctrl-C that removes its temporary league file.

Time: the room's virtual clock, which the test moves (``advance``/``until``, 100 ms steps,
each under the web's lock as tdhost serve's loop holds it); the pages run on real time.
Every wait is bounded (browser.WAIT_MS for a page, a number of virtual seconds for the
room) and ends as soon as the expected thing is there; nothing measures time.
"""

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import httpx
from browser import js_errors, open_console, open_page, served, text, wait_text, wait_visible
from night import Hands, Night, allin_hand

from tcsim import serve_demo

NAMES = serve_demo.NAMES[:20]
SEED = 7  # the draw's seed, typed into the console


def row(page, iid):
    """An instruction's line on the console, in words."""
    return page.locator('#pending li[data-id="%s"] .words' % iid).inner_text().strip()


def yes(page, says):
    """The console's question is on screen and says *says*: the TD answers yes."""
    wait_visible(page, "#ask")
    assert says in text(page, "#ask-text"), text(page, "#ask-text")
    page.click("#ask-yes")
    wait_visible(page, "#ask", visible=False)


def shows(box, words):
    """The box shows *words* in one of its labels (the players' view puts the level and the
    next blinds on one line: "Level 2   Next 75/150")."""
    return any(words in t for t in box.texts())


def box_time_s(texts):
    """The level time a box shows (m:ss), in seconds."""
    for t in texts:
        m = re.fullmatch(r"(\d+):(\d\d)", t)
        if m:
            return int(m.group(1)) * 60 + int(m.group(2))
    return None


def agree(night):
    """Every box shows the host's time left in the level, to the second or two (the
    room's virtual time: the boxes follow the host's clock)."""
    with night.lock:
        host_s = night.live.snapshot()["clock"]["ms_left"] / 1000.0
        shown = {tb: box_time_s(b.texts()) for tb, b in night.boxes.items()}
    for tb, s in shown.items():
        assert s is not None and abs(s - host_s) <= 2, (tb, s, host_s)


def test_the_night_end_to_end(browser, tmp_path):
    night = Night(tmp_path)
    live = night.live
    try:
        with served(live) as web:
            night.lock = web.lock
            night.until("every box live", lambda: all(
                lk.state == "live" for lk in live.links), 10000)
            big = open_page(browser, web.url + "/")
            page = open_console(browser, web)

            # --- registration, the draw and the start, from the console's forms
            page.fill("#reg-names", ", ".join(NAMES))
            page.press("#reg-names", "Enter")
            wait_text(page, "#msg", "%s is registered (20 of 48)." % NAMES[-1])
            wait_text(page, "#reg", NAMES[-1])
            wait_text(big, "#left", "20")
            # the LPPL is free: no money on the big screen, the phones or the console
            phone = open_page(browser, web.url + "/p", 390, 844)
            wait_text(phone, "#left", "20")
            for p in (big, phone, page):
                assert not re.search(r"[£$€]|prize|payout|buy-in", p.inner_text("body"), re.I)
            assert page.is_hidden("#room-money") and big.is_hidden("#pool-stat")
            phone.context.close()
            page.fill("#draw-seed", str(SEED))
            page.click("#draw-form button:has-text('Draw seats')")
            wait_text(page, "#msg", "Random draw, seed %d: 20 players at 3 tables." % SEED)
            with night.lock:
                seating = {tb: dict(s) for tb, s in live.tournament.seating().items()}
            assert sorted(len(s) for s in seating.values()) == [6, 7, 7]
            night.until("the boxes seated as drawn", lambda: all(
                sorted(b.table.stacks) == sorted(seating[tb]) for tb, b in
                night.boxes.items()))
            for tb, b in night.boxes.items():  # names from the host, on the box
                assert {int(k): v for k, v in b.link.names.items()} == seating[tb]
            page.click("#start-form button")
            yes(page, "the clock starts level 1 (25 / 50, 20:00) on every box")
            wait_text(page, "#msg", "Shuffle up and deal")
            night.advance(1000)
            wait_text(big, "#blinds", "25 / 50")
            for tb in night.boxes:
                card = '.tcard[data-table="%d"]' % tb
                wait_text(page, card + " .link", "live")
                wait_text(page, card, seating[tb][min(seating[tb])])
                assert text(page, card + " .tfoot .who").endswith("tc-%02d" % tb)

            # --- a bust at the short table, through its box's keys
            short = min(seating, key=lambda tb: len(seating[tb]))
            seats = sorted(seating[short])
            loser, winner = seats[3], seats[4]
            name = seating[short][loser]
            st = night.job(short, allin_hand(loser, winner))
            assert st["busted"] == [loser] and st["stacks"][str(winner)] >= 6000
            night.until("the host's balancing move", lambda: len(
                [p for p in live.snapshot()["pending"] if p["action"] == "move_out"]) == 1)
            with night.lock:
                assert live.tournament.get(name).state == "out"
                busts = [ev.payload for ev in live.lg.events if ev.action == "bust"]
            assert len(busts) == 1 and busts[0]["by"] == "box"  # the box's event, once
            assert busts[0]["tiers"] == [[name]] and busts[0]["table"] == short
            pend = night.snap()["pending"]
            out = [p for p in pend if p["action"] == "move_out"][0]
            assert not [p for p in pend if p["action"] == "receive"]  # not before it is done
            mover = out["player"]
            assert out["to_table"] == short
            src, dst = out["table"], short
            assert len(seating[src]) == 7 and out["seat"] in seating[src]
            assert seating[src][out["seat"]] == mover

            wait_text(page, "#results", name)
            wait_text(big, "#left", re.compile(r"^19$"))
            assert text(big, "#entries") == "20"
            wait_text(page, "#pending", mover)
            assert row(page, out["id"]) == "Move %s: table %d seat %d → table %d seat %d " \
                "(waiting for both dealers)" % (mover, src, out["seat"], dst, out["to_seat"])
            # ... and the box of the table the player leaves shows it; the other box nothing
            want = "Move seat %d to table %d seat %d" % (out["seat"], dst, out["to_seat"])
            night.until("the move_out on the source box's screen", lambda:
                        night.boxes[src].box.awaiting() and not night.boxes[src].box.dirty
                        and want in " ".join(night.boxes[src].texts()))
            assert not night.boxes[dst].box.awaiting()

            # --- the dealers confirm: first the table the player leaves; its box answers
            # with the chips the player took along, and only then the receive goes out
            night.job(src, Hands.confirm)
            night.until("move_out done", lambda: [p["state"] for p in live.snapshot()[
                "pending"] if p["id"] == out["id"]] == ["done"])
            with night.lock:
                answers = live.tournament.instrs[out["id"]]["results"]
                rcv = [p for p in live.snapshot()["pending"] if p["action"] == "receive"]
            assert [(x["by"], x["result"], x.get("stack")) for x in answers
                    if x["result"] == "done"] == [("box", "done", 3000)]
            assert len(rcv) == 1 and rcv[0]["player"] == mover and rcv[0]["table"] == short
            rcv = rcv[0]
            # one line for the move: its second half now
            wait_visible(page, '#pending li[data-id="%s"]' % out["id"], visible=False)
            wait_text(page, '#pending li[data-id="%s"]' % rcv["id"], "waiting for table")
            assert row(page, rcv["id"]) == "Move %s: table %d seat %d → table %d seat %d " \
                "(left table %d; waiting for table %d's dealer)" % (
                    mover, src, out["seat"], dst, out["to_seat"], src, dst)
            assert out["seat"] not in night.boxes[src].table.stacks
            arrives = "Seat %d: %s arrives from table %d with 3,000 chips" % (
                out["to_seat"], mover, src)
            night.until("the receive on the destination box's screen", lambda:
                        night.boxes[dst].box.awaiting() and not night.boxes[dst].box.dirty
                        and arrives in night.boxes[dst].texts())
            # ... then the table they join: the move is complete
            night.job(dst, Hands.confirm)
            night.until("the move recorded", lambda: live.snapshot()["pending"] == [])
            wait_visible(page, "#pending-none")
            wait_text(page, "#moves", "%s: table %d seat %d → table %d seat %d" % (
                mover, src, out["seat"], dst, out["to_seat"]))
            wait_text(page, '.tcard[data-table="%d"]' % dst, mover)
            wait_text(big, "#news", "%s: table %d seat %d → table %d seat %d" % (
                mover, src, out["seat"], dst, out["to_seat"]))  # in words on the TV too
            assert night.boxes[dst].table.stacks[out["to_seat"]] == 3000
            with night.lock:
                assert sorted(len(s) for s in live.tournament.seating().values()) == [6, 6, 7]
                moves = [ev.payload for ev in live.lg.events if ev.action == "move"]
            assert len(moves) == 1 and moves[0]["by"] == "boxes"

            # --- a level change from the console: the big screen and every box agree
            page.fill("#level-no", "2")
            page.press("#level-no", "Enter")
            yes(page, "Level 2 starts now, at its full time, on every box")
            wait_text(page, "#msg", re.compile("level 2", re.I))
            wait_text(big, "#blinds", "50 / 100")
            wait_text(big, "#level", re.compile("^level 2$", re.I))
            night.until("every box at level 2", lambda: all(
                "50/100" in b.texts() and shows(b, "Level 2")
                for b in night.boxes.values()), 5000)
            agree(night)
            wait_text(page, "#blinds", "50 / 100")

            # --- on to the colour-up break: levels 3, 4, 5 (no skip: LPPL ¶17), level 5's
            # time taken off but 2 s, the room runs 3 s
            for lv in (3, 4, 5):
                page.fill("#level-no", str(lv))
                page.press("#level-no", "Enter")
                yes(page, "Level %d starts now" % lv)
                wait_text(page, "#msg", re.compile("level %d starts" % lv, re.I))
            left_s = night.snap()["clock"]["ms_left"] // 1000
            got = page.evaluate("""async (s) => {
                const r = await fetch("/api/act/adjust", {method: "POST",
                    credentials: "same-origin", headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({seconds: -s})});
                return r.status; }""", left_s - 2)
            assert got == 200
            night.advance(3000)
            assert night.snap()["clock"]["is_break"]
            wait_text(big, "#level", re.compile("^break$", re.I))
            wait_text(big, "#blinds", "200 / 400")
            assert text(big, "#blinds-label") == "NEXT LEVEL BLINDS"
            # the schedule starts after the level shown above it: 200 / 400 once
            assert big.inner_text("body").count("200 / 400") == 1
            wait_text(big, "#chipups li.now", "After level 5: the 25 and 50 chips go out")
            wait_text(big, "#colour", "Colour-up after level 5")
            # a box on a break shows "Break: level 6 next" with the coming level's blinds
            night.until("every box on the break", lambda: all(
                shows(b, "Break") and shows(b, "200/400")
                for b in night.boxes.values()), 5000)
            agree(night)
            for w, h in ((1280, 720), (1024, 768)):  # the banner under the clock, on screen
                big.set_viewport_size({"width": w, "height": h})
                big.wait_for_timeout(100)  # a resize is laid out on the next frame
                bar = big.locator("#colour").bounding_box()
                clock = big.locator("#blinds").bounding_box()
                top = big.locator(".bs-top").bounding_box()
                assert bar["y"] >= clock["y"] + clock["height"] and \
                    bar["y"] + bar["height"] <= h, (w, h, bar, clock)
                assert big.locator("#level").bounding_box()["y"] >= top["y"] + top["height"]
                assert big.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1",
                                    big.locator("#colour").element_handle())

            # --- no token, no action (the page's own fetch, and a script's POST)
            version, before = live.version, night.snap()
            status = big.evaluate("""async () => {
                const r = await fetch("/api/act/level", {method: "POST",
                    headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({level: 6})});
                return r.status; }""")
            assert status == 401
            r = httpx.post(web.url + "/api/act/pause", json={}, timeout=5)
            assert r.status_code == 401
            assert live.version == version and night.snap() == before  # (virtual time)
            assert js_errors(big) == [] and js_errors(page) == []
    finally:
        night.close()


# ----------------------------------------------------------------------- tdhost serve --demo

class Output:
    """A process's output lines, read by a thread (a pipe's own reads would block)."""

    def __init__(self, proc):
        self.lines = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(proc.stdout,), daemon=True)
        self.thread.start()

    def _read(self, f):
        for line in f:
            self.lines.put(line.rstrip("\n"))

    def line(self, prefix, deadline):
        """The next line starting with *prefix*, before *deadline* (time.monotonic())."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("tdhost serve --demo never printed %r (printed %r)"
                                     % (prefix, seen))
            if line.startswith(prefix):
                return line
            seen.append(line)


def test_serve_demo_plays_a_night_on_three_boxes_and_cleans_up():
    """The command itself: it prints both addresses and the token, the console's state shows
    three live boxes holding the drawn seats and hands being dealt, Ctrl-C stops it and the
    temporary league file is gone.  Bounded waits (seconds of real time; at 20x a first hand
    comes within a few)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tdhost", "serve", "--demo", "--demo-speed", "20", "--port", "0",
         "--poll-ms", "20"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = Output(proc)
    try:
        deadline = time.monotonic() + 30
        first = out.line("Serving tournament 1, Monday night at the Red Lion", deadline)
        db = re.search(r" from (\S+demo-league\.sqlite);", first).group(1)
        assert os.path.exists(db)
        out.line("Demo: 20 players at tables 1-3", deadline)
        url = out.line("Big screen: ", deadline).split(": ", 1)[1]
        console = out.line("TD console: ", deadline).split(": ", 1)[1]
        token = out.line("TD token: ", deadline).split(": ", 1)[1]
        assert console == url + "/td?token=" + token
        assert httpx.get(url + "/", timeout=5).status_code == 200
        snap = None
        while time.monotonic() < deadline:
            snap = httpx.get(url + "/api/state", timeout=5,
                             headers={"Authorization": "Bearer " + token}).json()
            tables = snap["tables"]
            if [t["link"] for t in tables] == ["live"] * 3 and any(
                    (t["hand"] or 0) >= 1 for t in tables):
                break
            time.sleep(0.2)
        assert snap["view"] == "td" and snap["tournament"]["state"] == "running", snap
        assert [(t["table"], t["box"], t["link"]) for t in snap["tables"]] == [
            (1, "tc-01", "live"), (2, "tc-02", "live"), (3, "tc-03", "live")]
        assert sorted(len(t["seats"]) for t in snap["tables"]) == [6, 7, 7]
        assert any((t["hand"] or 0) >= 1 for t in snap["tables"]), snap["tables"]
        assert all(s["stack"] is not None for t in snap["tables"] for s in t["seats"].values())
        proc.send_signal(signal.SIGINT)
        out.line("Stopped after ", time.monotonic() + 10)
        assert proc.wait(10) == 0
        assert not os.path.exists(os.path.dirname(db))
    finally:
        if proc.poll() is None:  # a failed test: stop it as the TD would, else kill it
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
