"""The host's words for people: instructions and log lines in the TD's and dealer's language
("Move Ann Lee: table 2 seat 4 → table 3 seat 7 (waiting for both dealers)"), never the
protocol's names; the web console and the CLI both use it (docs/web.md, "Plain words").

    instruction(row, state)      # one instruction, with what it waits for
    log_line(ev, lg)             # {"time", "who", "text"} of one league event
"""

from typing import Any, Dict, Iterable, List, Optional, Sequence

from tdhost.league.replay import League
from tdhost.league.text import summary
from tdhost.league.times import clock_time
from tdhost.live.shapes import Instr

STATE_WORDS = {
    "queued": "not sent to a box yet",
    "sent": "waiting for the dealer",
    "acknowledged": "the dealer has it",
    "done": "done",
    "refused": "refused",
    "cancelled": "called off",
}


def seat(seat_pair: Optional[Sequence[int]]) -> str:
    return "table %d seat %d" % (seat_pair[0], seat_pair[1]) if seat_pair else "no seat"


def chips(n: Any) -> str:
    return "{:,}".format(n) if isinstance(n, int) else str(n)


def tables(nums: Iterable[int]) -> str:
    nums = sorted(nums)
    return ("table %d" % nums[0]) if len(nums) == 1 else "tables " + ", ".join(map(str, nums))


def _what(instr: Instr) -> str:
    """The instruction *instr* (an ``instr`` payload or a snapshot row's fields) in words,
    without its state."""
    action = instr["action"]
    body = instr.get("body") or {}
    tb = instr["table"]
    who = instr.get("player") or body.get("name") or "the player"
    frm, to = instr.get("from"), instr.get("to")
    if action in ("move_out", "receive") and instr.get("move") and frm and to:
        return "Move %s: %s → %s" % (who, seat(frm), seat(to))
    if action == "receive":
        dead = " (posts a dead big blind)" if body.get("dead_bb") else ""
        return "Seat %s at %s with %s chips%s" % (who, seat(to or [tb, body.get("seat")]),
                                                  chips(body.get("stack")), dead)
    if action == "take_out" and not instr.get("player"):  # the seat check's clear_seat
        return "Table %d: clear seat %s (a player the league does not seat there)" % (
            tb, body.get("seat"))
    if action == "take_out":
        return "Table %d: take seat %s out (%s is out)" % (tb, body.get("seat"), who)
    if action == "deduct":
        return "Table %d seat %s: take %s chips from %s (arrived late)" % (
            tb, body.get("seat"), chips(body.get("chips")), who)
    if action == "break_table":
        return "Table %d breaks" % tb
    if action == "redraw":
        return "Table %d: players go to their final-table seats" % tb
    if action == "hand_for_hand_start":
        return "Hand for hand at table %d" % tb
    if action == "hand_for_hand_stop":
        return "Hand for hand ends at table %d" % tb
    if action == "next_hand":
        return "Hand for hand: table %d deals the next hand" % tb
    if action == "pause":
        return "Table %d: pause" % tb
    if action == "resume":
        return "Table %d: play on" % tb
    if action == "message":
        return "Table %d: %s" % (tb, body.get("text") or instr.get("text") or "a message")
    if action == "withdraw":
        return "Table %d: call off an instruction%s" % (
            tb, " for %s" % instr["player"] if instr.get("player") else "")
    return "Table %d: %s" % (tb, instr.get("text") or "an instruction")


def _waits(instr: Instr, state: str) -> str:
    action = instr["action"]
    if state in ("queued", "sent"):
        if action == "move_out" and instr.get("move"):
            return "waiting for both dealers"
        if action == "receive" and instr.get("move"):
            return "left table %d; waiting for table %d's dealer" % (instr["from"][0],
                                                                     instr["to"][0])
        return "waiting for table %d's dealer" % instr["table"] if state == "sent" else \
            "not sent to a box at table %d yet" % instr["table"]
    if state == "acknowledged":
        return "table %d's dealer has it" % instr["table"]
    if state == "done" and action == "move_out":
        return "left table %d; waiting for table %d's dealer" % (instr["table"], instr["to"][0])
    return STATE_WORDS.get(state, state)


def instruction(instr: Instr, state: Optional[str] = None) -> str:
    """*instr* in words; with *state* (tdhost.live.instruction_log.state), what it waits for."""
    text = _what(instr)
    return text if state is None else "%s (%s)" % (text, _waits(instr, state))


def hand_for_hand(waiting: List[int]) -> Optional[str]:
    """The hand-for-hand line: "Hand for hand: waiting for tables 1, 3"."""
    if not waiting:
        return "Hand for hand: every table may deal the next hand"
    return "Hand for hand: waiting for %s" % tables(waiting)


RESULT_WORDS = {"acknowledged": "has", "done": "did", "refused": "refused",
                "cancelled": "called off"}


def _who(ev: Any, lg: League) -> str:
    logged = ev.payload
    kind = ev.action
    if logged.get("by") == "cli" or (kind == "move" and "by" not in logged):
        return "TD at the command line"  # a move without "by": the CLI's before the stamp
    if kind == "button":
        return "table %s's box" % logged["table"]
    if kind == "bust":
        if logged.get("by") != "box":  # the console's ("td") or the CLI's before the stamp
            return "TD"
        return "table %s's box" % logged["table"] if logged.get("table") else "a box"
    if kind == "instr_result":
        by = logged.get("by")
        if by == "box":
            instr = _instr(ev, lg)
            return "table %d's box" % instr["table"] if instr else "a box"
        return "TD" if by == "td" else "host"
    if kind == "move":
        return "TD" if logged.get("by") == "td" else "the dealers"
    if kind in ("instr", "notice", "hfh_release", "final_seated"):
        return "host"
    return "TD"


def _instr(ev: Any, lg: League) -> Optional[Instr]:
    tourney = lg.tournaments.get(ev.tournament)
    return tourney.instrs.get(ev.payload.get("id")) if tourney is not None else None


def _text(ev: Any, lg: League, events: Optional[List[Any]] = None) -> str:
    logged = ev.payload
    kind = ev.action
    if kind == "instr":
        return instruction(logged)
    if kind == "instr_result":
        instr = _instr(ev, lg)
        what = instruction(instr) if instr else "an instruction"
        res = logged.get("result")
        if res == "cancelled":
            return "called off: %s (%s)" % (what, logged.get("reason") or "no longer needed")
        if res == "refused":
            return "refused: %s (%s)" % (what, logged.get("reason") or "no reason given")
        if res == "acknowledged":
            return "dealer saw: %s" % what
        extra = ", %s chips" % chips(logged["stack"]) if logged.get("stack") else ""
        return "done: %s%s" % (what, extra)
    if kind == "bust":
        names = [name for tier in reversed(logged["tiers"]) for name in tier]
        tourney = lg.tournaments.get(ev.tournament)
        places = []
        for name in names:
            place = tourney.place_of(name) if tourney is not None else "in play"
            places.append(name if place == "in play" else "%s (%s)" % (name, place))
        return "%s out%s" % (" and ".join(places), " in the same hand" if len(names) > 1
                             else "")
    if kind == "undo":
        target = None
        for entry in events or lg.events:
            if entry.seq == ev.undoes:
                target = entry
                break
        return "undo: %s" % (_text(target, lg, events) if target else logged.get("summary"))
    if kind == "hand_for_hand":
        return "hand for hand %s" % ("on at " + tables(logged["wait"])
                                     if logged.get("on") and logged.get("wait")
                                     else "on" if logged.get("on") else "off")
    if kind == "move":
        return "%s moved to %s" % (logged["name"], seat(logged["seat"]))
    return summary(ev)


def log_line(ev: Any, lg: League, events: Optional[List[Any]] = None) -> Dict[str, str]:
    """{"time": "21:42", "who": "TD", "text": words} for league event *ev*."""
    try:
        when = clock_time(ev.at)[:5]
    except (TypeError, ValueError):
        when = ""
    return {"time": when, "who": _who(ev, lg), "text": _text(ev, lg, events)}


def player_record(record: Dict[str, Any]) -> str:
    """A player's record in words for the TD (docs/rules.md §14): "2 warnings (1 for slow
    play), misses 3 more hands, away allowance used"; "" when there is nothing."""
    parts = []
    warnings = record.get("warnings") or 0
    if warnings:
        parts.append("%d warning%s" % (warnings, "" if warnings == 1 else "s"))
        slow = record.get("slow_play") or 0
        if slow:
            parts[-1] += " (%d for slow play)" % slow
    hands = record.get("penalties") or 0
    if hands:
        parts.append("misses %d more hand%s" % (hands, "" if hands == 1 else "s"))
    if record.get("away_used"):
        parts.append("away allowance used")
    return ", ".join(parts)
