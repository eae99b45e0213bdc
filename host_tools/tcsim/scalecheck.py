"""What the scale drill watches and checks: the names each box was told for its seats, each
level change until every box shows it, and at the end the checks, counts and figures of a
finished drill.  docs/demo.md §8, "Scale drill" (The checks, Figures).
"""

import statistics
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from tdhost.live import instruction_log as _ins

from .nightresult import exactly_once, tournament_ms

if TYPE_CHECKING:
    from .scaledrill import Drill

MIN = 60000
CLOCK_MS = 1000  # a box's clock at most this far from the host's at the end
LEVEL_WAIT_MS = 5 * MIN  # a level change not on every box this long after is a failure
NOTICES_SHOWN = 10  # the host notices the report quotes (the first ones)

Check = Dict[str, Any]


def hms(ms: int) -> str:
    """+M:SS (or -M:SS) of *ms*."""
    seconds = abs(ms) // 1000
    return "%s%d:%02d" % ("-" if ms < 0 else "+", seconds // 60, seconds % 60)


# ---------------------------------------------------------------- what each box was told
class Names:
    """The names a box holds for its seats: those of the last ``seating`` it took from the
    host, then the ``name`` of each ``receive`` it carried out (tcbox.link's Link.take_seating and
    tcbox.instructions.at_table wrapped while the drill runs; nothing they do changes).
    ``told[box id]``: the last few of them, (room clock ms, "seating" or "receive", seats) --
    for a failure's detail."""

    def __init__(self, clock: Callable[[], int]) -> None:
        self.clock = clock
        self.at: Dict[str, Dict[int, str]] = {}  # box id -> {seat: name}
        self.later: Dict[Tuple[str, Any], Any] = {}  # (box id, instruction id) -> name of a
        #                                               receive done after the hand
        self.told: Dict[str, List[Tuple[int, str, List[int]]]] = {}
        self._saved: Optional[Tuple[Any, Any, Any]] = None

    def _note(self, box_id: str, what: str, seats: List[int]) -> None:
        told = self.told.setdefault(box_id, [])
        told.append((self.clock(), what, seats))
        del told[:-6]

    def install(self) -> None:
        from tcbox.instructions import at_table
        from tcbox.link.box_end import Link

        from .stubs import _world

        seating, carry_out, settle = Link.take_seating, at_table.carry_out, at_table.settle
        self._saved = (seating, carry_out, settle)
        me = self

        def seated(link: Any, msg: Dict[str, Any]) -> None:
            seating(link, msg)
            # the names the box took (not a seating it refused: an older one, overtaken)
            if isinstance(msg.get("names"), dict) and link.names is msg["names"]:
                box_id = _world.current().name
                me.at[box_id] = {int(k): v for k, v in msg["names"].items()
                                 if str(k).isdigit()}
                me._note(box_id, "seating", sorted(me.at[box_id]))
            elif isinstance(msg.get("names"), dict):
                me._note(_world.current().name, "refused seating",
                         sorted(int(k) for k in msg["names"] if str(k).isdigit()))

        def sat(box_id: str, seat: Any, name: Any) -> None:
            me.at.setdefault(box_id, {})[seat] = name
            me._note(box_id, "receive", [seat])

        def carried(table: Any, ins: Any, *where: Any) -> Any:
            res = carry_out(table, ins, *where)
            if isinstance(ins, dict) and ins.get("action") == "receive":
                box_id = _world.current().name
                if res[0] == at_table.DONE:
                    sat(box_id, ins.get("seat"), ins.get("name"))
                elif res[0] == at_table.LATER:
                    me.later[(box_id, ins.get("id"))] = ins.get("name")
            return res

        def settled(table: Any) -> Any:
            waiting = [list(move) for move in table.moves]
            out = settle(table)
            box_id = _world.current().name
            for move, res in zip(waiting, out):  # res: (instruction id, result, reason, ...)
                name = me.later.pop((box_id, res[0]), None)
                if res[1] == at_table.DONE and move[1] == at_table.IN and name is not None:
                    sat(box_id, move[2], name)
            return out

        Link.take_seating = seated
        at_table.carry_out, at_table.settle = carried, settled

    def uninstall(self) -> None:
        if self._saved is not None:
            from tcbox.instructions import at_table
            from tcbox.link.box_end import Link

            Link.take_seating, at_table.carry_out, at_table.settle = self._saved
            self._saved = None


# ---------------------------------------------------------------- level changes
class LevelWatch:
    """Each level change the TD makes, measured until every box that was on shows it (or
    for at most LEVEL_WAIT_MS): ``levels`` lists what was measured."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.levels: List[Dict[str, Any]] = []
        self.current: Optional[Dict[str, Any]] = None

    def start(self, index: int, now_ms: int, tables: List[int], back: bool) -> None:
        """The host's clock moved to level *index* at *now_ms*: watch *tables*' boxes."""
        self.current = {"index": index, "v0": now_ms, "w0": time.perf_counter(),
                        "first": None, "boxes": tables, "back": back}

    def step(self, now_ms: int, boxes: Dict[int, Any], all_live: Callable[[], bool]) -> None:
        """After a room step: how many boxes show it now."""
        watch = self.current
        if watch is None:
            return
        shown = [n for n in watch["boxes"] if boxes[n].table.clock.index >= watch["index"]]
        if shown and watch["first"] is None:
            watch["first"] = now_ms - watch["v0"]
        if len(shown) == len(watch["boxes"]):
            self.levels.append({"boxes": len(shown), "first_ms": watch["first"],
                                "last_ms": now_ms - watch["v0"],
                                "wall_s": round(time.perf_counter() - watch["w0"], 3),
                                "all_live": all_live()})
            self.say("the level change shows on all %d boxes after %.1f virtual s "
                     "(%.2f s wall)" % (len(shown), (now_ms - watch["v0"]) / 1000.0,
                                        time.perf_counter() - watch["w0"]))
            self.current = None
        elif now_ms - watch["v0"] > LEVEL_WAIT_MS:
            self.levels.append({"boxes": len(watch["boxes"]), "shown": len(shown),
                                "first_ms": watch["first"], "last_ms": None, "wall_s": None})
            self.say("the level change reached only %d of %d boxes in 5 minutes" % (
                len(shown), len(watch["boxes"])))
            self.current = None


# ---------------------------------------------------------------- the checks
def checks(drill: "Drill") -> Tuple[List[Check], Dict[str, Any]]:
    """The drill's checks (docs/demo.md §8), each {"check", "ok", "detail", "failures"}, and
    the figures they measured on the way."""
    from tcbox.link.states import LIVE

    live = drill.live
    tournament = live.tournament
    out: List[Check] = []

    def check(name: str, bad: List[str], detail: str = "") -> None:
        out.append({"check": name, "ok": not bad, "detail": detail if bad else "",
                    "failures": bad[:10] if bad else []})

    check("every box LIVE", ["table %d: %s" % (n, box.link.state if box.link else "no link")
                             for n, box in drill.boxes.items()
                             if box.link is None or box.link.state != LIVE])
    hosts = {link.table: link.state for link in live.links if link.table is not None}
    check("the host links every box live",
          ["table %d: %s" % (n, hosts.get(n)) for n in drill.boxes if hosts.get(n) != "live"])
    pend = ["%s (%s%s)" % (row["text"], _ins.state(row), ": %s" % _ins.reason(row)
                           if _ins.reason(row) else "") for row in _ins.pending(tournament)]
    for n, box in drill.boxes.items():
        app = box.box
        if app.awaiting() or app.book.waiting or app.table.moves:
            pend.append("table %d: %d on the screen, %d in table.moves" % (
                n, app.awaiting() + app.book.waiting, len(app.table.moves)))
    check("no instruction pending", pend)
    check("every box seats the league's players", _seating_failures(drill))
    entered = sum(entry.stack or 0 for entry in tournament.players.values()
                  if entry.state in ("in", "out"))
    on_boxes = sum(sum(box.table.stacks.values()) for box in drill.boxes.values())
    removed = sum(box.table.removed for box in drill.boxes.values())
    diff = on_boxes + removed - entered
    check("chips conserved", [] if diff == 0 else [
        "boxes %d + left play %d = %d, entered %d (%+d)" % (on_boxes, removed,
                                                           on_boxes + removed, entered, diff)])
    master = live.master()
    offs = {n: abs(tournament_ms(box.table.clock) - tournament_ms(master))
            for n, box in drill.boxes.items()}
    check("every box's clock within %d ms of the host's" % CLOCK_MS,
          ["table %d: %d ms" % (n, off_ms) for n, off_ms in sorted(offs.items())
           if off_ms > CLOCK_MS])
    once = exactly_once(drill.links_db, live.store)
    check("each box event applied once", once["doubled"])
    levels = drill.level_watch.levels
    missed = [lv for lv in levels if lv.get("last_ms") is None]
    check("every level change reached every box",
          ["%d of %d boxes" % (lv.get("shown", 0), lv["boxes"]) for lv in missed]
          + ([] if levels else ["no level change measured"]))
    return out, {"clock_max_ms": max(offs.values()), "entered": entered,
                 "on_boxes": on_boxes, "left_play": removed,
                 "box_busts": sum(len(v) for v in once["bust_events"].values()),
                 "league_busts": len(once["league_busts"])}


def _seating_failures(drill: "Drill") -> List[str]:
    """Where a box's seats are not the league's seating (seats taken, names, stacks)."""
    seating = drill.live.tournament.seating()
    bad = []
    for n, box in drill.boxes.items():
        league = seating.get(n, {})
        stacks = box.table.stacks
        held = drill.names.at.get(box.box_id, {})
        extra = sorted(set(stacks) - set(league))
        missing = sorted(set(league) - set(stacks))
        if extra or missing:
            bad.append("table %d: %s" % (n, "; ".join(
                ["seat %d taken at the box (%s, %d chips), empty in the league" % (
                    seat, held.get(seat), stacks[seat]) for seat in extra]
                + ["seat %d empty at the box, %s in the league" % (seat, league[seat])
                   for seat in missing])))
        for seat, name in sorted(league.items()):
            if seat in stacks and held.get(seat) != name:
                bad.append("table %d seat %d: box %r, league %r (the box was told: %s)" % (
                    n, seat, held.get(seat), name, "; ".join(
                        "%s %s %s" % (hms(at - drill.room.start_ms - drill.t0), what, seats)
                        for at, what, seats in drill.names.told.get(box.box_id, []))))
        bad += ["table %d seat %d: %d chips" % (n, seat, chips)
                for seat, chips in stacks.items() if chips <= 0]
    return bad


# ---------------------------------------------------------------- counts and figures
def counted(drill: "Drill") -> Dict[str, Any]:
    """What happened: the faults, the TD's and the boxes' busts, moves, tables broken..."""
    counts = dict(drill.counts)
    moves = broken = by_box = notices = 0
    notice_texts: List[Any] = []  # the first few, for the report
    for ev in drill.live.store.events():
        if ev.undoes:
            continue
        if ev.action == "move":
            moves += 1
        elif ev.action == "instr" and ev.payload.get("action") == "break_table":
            broken += 1
        elif ev.action == "bust" and ev.payload.get("by") == "box":
            by_box += len([n for tier in ev.payload.get("tiers", []) for n in tier])
        elif ev.action == "notice":
            notices += 1
            if len(notice_texts) < NOTICES_SHOWN:
                notice_texts.append(ev.payload.get("text"))
    bots: List[Any] = [box.bot for box in drill.boxes.values()]
    counts.update({"moves": moves, "tables_broken": broken, "box_busts": by_box,
                   "notices": notices, "notice_texts": notice_texts,
                   "players_left": len(drill.live.tournament.remaining()),
                   "instructions": len(drill.live.tournament.instrs),
                   "confirmed": sum(bot.counts.get("confirm", 0) for bot in bots),
                   "taken_out": sum(bot.taken_out for bot in bots),
                   "hands": sum(bot.hands for bot in bots)})
    return counts


def figures(drill: "Drill") -> Dict[str, Any]:
    """The wall-time figures: per virtual minute, room steps, host polls, frames, pumps."""
    polls = sorted(drill.poll_s)
    steps = sorted(drill.step_s)
    vmin = drill.play_virtual_ms / float(MIN)
    published = received = 0
    for box in drill.boxes.values():
        port: Any = getattr(box.link, "port", None)
        cnt = port.counters() if hasattr(port, "counters") else {}
        published += cnt.get("mqtt_published", 0)
        received += cnt.get("mqtt_received", 0)
    net = drill.net
    return {
        "wall_s_per_virtual_min": round(drill.play_wall_s / vmin, 2),
        "virtual_min": round(vmin, 1), "play_wall_s": round(drill.play_wall_s, 1),
        "step_ms_p50": _ms(_pct(steps, 50)), "step_ms_p99": _ms(_pct(steps, 99)),
        "step_ms_mean": _ms(statistics.fmean(steps)) if steps else None,
        "host_poll_ms_p50": _ms(_pct(polls, 50)), "host_poll_ms_p99": _ms(_pct(polls, 99)),
        "host_poll_ms_max": _ms(polls[-1]) if polls else None,
        "level_changes": drill.level_watch.levels,
        "frames": {"boxes_published": published, "boxes_received": received,
                   "host_received": net.frames_to_host,
                   "host_published": sum(hub.published for hub in drill.hubs)},
        "pump": {"pumps": net.pumps, "waits": net.waits,
                 "wait_s": round(net.wait_s, 1), "gave_up": net.late},
        "link_up_wall_s": round(drill.link_s, 1),
        "jitter": net.jitter.counts() if net.jitter is not None else None,
    }


def _pct(xs: Sequence[float], p: int) -> Optional[float]:
    if not xs:
        return None
    return xs[min(len(xs) - 1, int(len(xs) * p / 100.0))]


def _ms(seconds: Optional[float]) -> Optional[float]:
    return None if seconds is None else round(seconds * 1000, 2)
