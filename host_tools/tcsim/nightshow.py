"""What a simulated league night shows (tcsim.virtualnight): a progress line per key moment
(from the league's events and the master clock), screenshots of the boxes and the big screen
at five moments, and the results and league table at the end.  docs/demo.md, "What happens".
"""

import os
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from .virtualnight import Night

MOMENTS = ("first-hand", "first-move", "table-broken", "final-table", "winner")
FINAL_SHOT_DELAY_MS = 90000  # the final table's box is shot this long after the redraw


def clock_text(unix_ms: int) -> str:
    secs = (unix_ms // 1000) % 86400
    return "%02d:%02d:%02d" % (secs // 3600, secs // 60 % 60, secs % 60)


class Show:
    """Progress lines, screenshots and the final tables of one night (module notes)."""

    def __init__(self, night: "Night", echo: Callable[[str], None]) -> None:
        self.night = night
        self.echo = echo
        self.seq = 0
        self.index: Optional[int] = None
        self.clock_seen = None  # Live.clock_version when the level was last looked at
        self.lines = 0
        self.counts = {"busts": 0, "players_out": 0, "moves": 0, "broken": 0, "notices": 0,
                       "instructions": 0, "levels": 0}
        # (the final seating's stacks, the boxes' stacks then)
        self.final_chips: Optional[Tuple[int, int]] = None
        self.trace: List[Tuple[int, Optional[Tuple[int, ...]]]] = []  # (room clock ms, tables
        #   or None for all): what the host did when
        self.taken: Dict[str, List[str]] = {}  # moment -> paths
        self.due: List[List[Any]] = []  # [at room ms, moment, tables]
        # (moment, tables): shots to take once the step is over
        self.ready: List[Tuple[str, Sequence[int]]] = []
        self.shots_on = True
        self.big_note: Optional[str] = None
        self.web: Any = None  # tdhost.web.server's handle while served
        self.served = False  # the web is --realtime's (it stops it)
        self.browser: Any = None  # Playwright's chromium, once a big-screen shot is taken
        self.pw: Any = None
        self.lock = threading.RLock()

    # -- lines -----------------------------------------------------------------
    def say(self, text: str) -> None:
        self.lines += 1
        self.echo("%s  %s" % (clock_text(self.night.room.clock()), text))

    def linked(self) -> None:
        n = self.night
        parts = []
        for table_no, box in sorted(n.boxes.items()):
            parts.append("%s %s (%s)" % (box.box_id, box.board_name, n.transport_of[table_no]))
        self.say("boxes linked: " + ", ".join(parts))

    def poll(self, now: int) -> None:
        live = self.night.live
        if live.last_seq != self.seq:
            self._events(live)
        if live.tournament.started and live.clock_version != self.clock_seen:
            self.clock_seen = live.clock_version  # it moves at each level change
            idx = live.master(now).index
            if idx != self.index:
                self._level(live, idx)
        if self.shots_on:
            if "first-hand" not in self.taken and any(
                    box.on and box.table.hands for box in self.night.boxes.values()):
                tb = [n for n, box in sorted(self.night.boxes.items())
                      if box.on and box.table.hands]
                self.later(0, "first-hand", tb[:1])
            room_ms = self.night.room.now_ms
            while self.due and self.due[0][0] <= room_ms:
                _, moment, tables = self.due.pop(0)
                self.ready.append((moment, tables))

    def flush(self) -> None:
        """Take the shots that became due during the last step (outside the web's lock:
        the big screen asks Live for its state meanwhile)."""
        while self.ready:
            self.shot(*self.ready.pop(0))

    def _level(self, live: Any, idx: int) -> None:
        self.index = idx
        self.counts["levels"] += 1
        levels = live.tournament.setup["levels"]
        lv = levels[idx] if idx < len(levels) else None
        if lv is None:
            return
        if "break" in lv:
            self.say("break: %d minutes" % lv["break"])
        else:
            ante = ", ante %d" % lv["ante"] if lv.get("ante") else ""
            self.say("level %d: blinds %d/%d%s, %d minutes" % (
                sum(1 for x in live.tournament.setup["levels"][:idx + 1] if "break" not in x),
                lv["sb"], lv["bb"], ante, lv["minutes"]))

    def _events(self, live: Any) -> None:
        rows = live.store.db.execute(
            "SELECT seq, action, payload, undoes FROM events WHERE seq > ? ORDER BY seq",
            (self.seq,)).fetchall()
        import json

        tournament = live.tournament
        now = self.night.room.clock()
        for seq, action, payload, _undoes in rows:
            self.seq = seq
            body = json.loads(payload)
            self._trace(now, tournament, action, body)
            if action == "bust":
                self.counts["busts"] += 1
                out = [n for tier in body.get("tiers", []) for n in tier]
                self.counts["players_out"] += len(out)
                where = " at table %s" % body["table"] if body.get("table") else ""
                self.say("bust%s: %s" % (where, "; ".join(
                    "%s out, %s" % (n, tournament.place_of(n)) for n in reversed(out))))
                if tournament.ended:
                    self.say("winner: %s" % tournament.ended["tiers"][0][0])
                    self.later(0, "winner",
                               [tournament.final.get("table")] if tournament.final else [])
            elif action == "move":
                self.counts["moves"] += 1
                self.say("move: %s from table %d seat %d to table %d seat %d" % (
                    body["name"], body["from"][0], body["from"][1], body["seat"][0],
                    body["seat"][1]))
                if "first-move" not in self.taken:
                    self.later(0, "first-move", [body["from"][0], body["seat"][0]])
            elif action == "instr":
                self.counts["instructions"] += 1
                if body.get("action") == "break_table":
                    self.counts["broken"] += 1
                    self.say("table %d breaks: its players move to the other tables"
                             % body["table"])
            elif action == "instr_result":
                row = tournament.instrs.get(body.get("id"))
                if (row is not None and row.get("action") == "break_table"
                        and body.get("result") == "done" and "table-broken" not in self.taken):
                    self.later(0, "table-broken", [row["table"]])
            elif action == "draw" and body.get("final"):
                seats = sorted(body["seats"].items(), key=lambda kv: kv[1][1])
                self.say("final table at table %d (%s draw, seed %s): %s" % (
                    body["table"], body["mode"], body["seed"], ", ".join(
                        "%d %s" % (s[1], n) for n, s in seats)))
            elif action == "final_seated":
                self.say("%s%s" % (body["text"][:1].upper(), body["text"][1:]))
                self.later(FINAL_SHOT_DELAY_MS, "final-table", [tournament.final["table"]])
                boxes = sum(sum(box.table.stacks.values()) for box in self.night.boxes.values()
                            if box.on)
                self.final_chips = (sum(body["stacks"].values()), boxes)
            elif action == "notice":
                self.counts["notices"] += 1
                self.say("host notice: %s" % body.get("text"))

    def _trace(self, now: int, tournament: Any, action: str, payload: Dict[str, Any]) -> None:
        """Note which tables the host's event *action* concerns (make faults places its
        faults where the clean run shows that the night did not need them)."""
        tables: Optional[Tuple[int, ...]] = None
        if action in ("bust", "instr") and payload.get("table"):
            tables = (payload["table"],)
        elif action == "instr_result":
            row = tournament.instrs.get(payload.get("id"))
            tables = (row["table"],) if row is not None and row.get("table") else None
        elif action == "move":
            tables = (payload["from"][0], payload["seat"][0])
        elif action in ("late", "standby_take") and payload.get("seat"):
            tables = (payload["seat"][0],)
        elif action in ("notice", "register", "standby_pass", "arrive", "button"):
            return  # (a box's button: the next status writes it again if a fault lost it)
        self.trace.append((now, tables))

    # -- screenshots -------------------------------------------------------------
    def later(self, ms: int, moment: str, tables: Sequence[int]) -> None:
        if not self.shots_on or moment in self.taken or any(due[1] == moment for due in self.due):
            return
        self.due.append([self.night.room.now_ms + ms, moment, tables])
        self.due.sort(key=lambda due: due[0])

    def shot(self, moment: str, tables: Sequence[int]) -> None:
        """The boxes of *tables* and the big screen, now."""
        if moment in self.taken:
            return
        k = MOMENTS.index(moment) + 1
        out = self.night.out_dir
        assert out is not None, "screenshots need the night's folder"
        paths = []
        for tb in tables:
            box = self.night.boxes.get(tb)
            if box is None or not box.on:
                continue
            path = os.path.join(out, "%02d-%s-box%d.png" % (k, moment, tb))
            box.save_png(path, zoom=2)
            release = getattr(box.screen, "release", None)
            if release is not None:
                release()
            paths.append(path)
        big = self.big_screen(os.path.join(out, "%02d-%s-big-screen.png" % (k, moment)))
        if big:
            paths.append(big)
        self.taken[moment] = paths
        self.say("screenshots (%s): %s" % (moment, ", ".join(os.path.basename(shot_path)
                                                             for shot_path in paths)))

    def big_screen(self, path: str) -> Optional[str]:
        if self.big_note is not None:
            return None
        try:
            if self.browser is None:
                self._start_web()
            return self._big(path)
        except Exception as err:  # noqa: BLE001 -- no chromium, no Playwright: boxes only
            self.big_note = str(err).splitlines()[0] if str(err) else type(err).__name__
            self.say("no big-screen screenshots: %s" % self.big_note)
            return None

    def _start_web(self) -> None:
        from tdhost.web.chromium import chromium_missing

        why = chromium_missing()
        if why:
            raise RuntimeError(why)
        from playwright.sync_api import sync_playwright

        from tdhost.web.app import new_token
        from tdhost.web.chromium import launch_chromium
        from tdhost.web.server import run_in_thread

        if self.web is None:  # (--realtime serves it already, with its lock)
            self.web = run_in_thread(self.night.live, "127.0.0.1", 0, new_token(), self.lock)
        self.pw = sync_playwright().start()
        self.browser = launch_chromium(self.pw)

    def _big(self, path: str, width: int = 1280, height: int = 720) -> str:
        page = self.browser.new_page(viewport={"width": width, "height": height})
        try:
            page.goto(self.web.url + "/")
            page.wait_for_function("document.querySelector('#left').textContent.trim() "
                                   "!== '-'", timeout=10000)
            page.wait_for_timeout(400)  # fonts and the first tick settled
            page.screenshot(path=path)
        finally:
            page.close()
        return path

    def settle(self) -> None:
        """The night is over: the shots still due are taken now."""
        self.flush()
        for _, moment, tables in list(self.due):
            self.shot(moment, tables)
        self.due = []

    def close(self) -> None:
        web: Any = self.web if not self.served else None
        for stop in (lambda: self.browser.close(), lambda: self.pw.stop(),
                     lambda: web.stop()):
            try:
                stop()
            except Exception:  # noqa: BLE001 -- what was never started
                pass

    # -- the end ---------------------------------------------------------------------
    def figures(self) -> Dict[str, Any]:
        shots = [path for moment in MOMENTS for path in self.taken.get(moment, [])]
        return dict(self.counts, shots=shots, big_screen_note=self.big_note)

    def final(self, res: Dict[str, Any], tables: bool = True) -> None:
        """The results and the league table (tdhost's own tables), then the figures."""
        import sys

        from tdhost.cli import results as _results

        plain = not sys.stdout.isatty()
        n = self.night
        if res["ended"]:
            self.say("the night is over: %s wins after %s of play" % (
                res["winner"], _hm(n.room.clock() - n.t0)))
        else:
            self.say("stopped after %s: %d players still in" % (
                _hm(n.room.clock() - n.t0), len(n.live.tournament.remaining())))
        if tables and n.out_dir:
            as_plain = ["--plain"] if plain else []
            for command, csv_file in ((_results.results, "results.csv"),
                                      (_results.league, "league.csv")):
                command.main(["--csv", os.path.join(n.out_dir, csv_file), "--db", n.db]
                             + as_plain, standalone_mode=False)
        dealers = res["dealers"]
        self.echo("Figures: %d busts (%d players), %d moves, %d tables broken, %d levels; "
                  "%d hands dealt, %d instructions confirmed, %d misclicks refused by the "
                  "boxes, %d host notices; %s virtual in %.0f s of wall time." % (
                      res["busts"], res["players_out"], res["moves"], res["broken"],
                      res["levels"], sum(x["hands"] for x in dealers.values()),
                      sum(x["confirms"] for x in dealers.values()),
                      sum(x["refusals"] for x in dealers.values()), res["notices"],
                      _hm(res["virtual_ms"]), res["wall_s"]))
        if self.final_chips is not None:
            self.echo("Chips when the final table sat down: %s in its seating (the boxes' "
                      "statuses after their last hands), %s on the boxes." % (
                          _n(self.final_chips[0]), _n(self.final_chips[1])))
        fl = res.get("floor") or {}
        if fl:
            self.echo("Moves: %d players walked between boxes, %s with other chips than they "
                      "left with%s." % (fl["arrivals"], fl["mismatched"] or "none", (
                          " (%+d chips in all)" % fl["drift"]) if fl["mismatched"] else ""))
        if "mqtt" in res:
            mqtt = res["mqtt"]
            self.echo("MQTT: %d pumps, %d waited for frames (%.1f s in all), %d gave up."
                      % (mqtt["pumps"], mqtt["waits"], mqtt["wait_s"], mqtt["late"]))
        if self.shots_on:
            self.echo("Screenshots: %d in %s%s" % (len(res["shots"]), n.out_dir, (
                " (no big screen: %s)" % self.big_note) if self.big_note else ""))


def _n(v: Any) -> str:
    return "?" if v is None else "{:,}".format(v)


def _hm(ms: int) -> str:
    minutes = ms // 60000
    return "%dh%02d" % (minutes // 60, minutes % 60)


__all__ = ["Show", "clock_text"]
