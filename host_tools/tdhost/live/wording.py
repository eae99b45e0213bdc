"""The host's words for people: instructions and log lines in the TD's and dealer's language
("Move Ann Lee: table 2 seat 4 → table 3 seat 7 (waiting for both dealers)", "Table 4
breaks"), never the protocol's names (move_out, break_table, instr_result).  The web console
and the CLI both use it (docs/web.md, "Plain words").

    instruction(row, state)      # one instruction, with what it waits for
    log_line(ev, lg)             # {"time", "who", "text"} of one league event
"""

from tdhost.league.text import summary
from tdhost.league.times import clock_time

STATE_WORDS = {
    "queued": "not sent to a box yet",
    "sent": "waiting for the dealer",
    "acknowledged": "the dealer has it",
    "done": "done",
    "refused": "refused",
    "cancelled": "called off",
}


def seat(s):
    return "table %d seat %d" % (s[0], s[1]) if s else "no seat"


def chips(n):
    return "{:,}".format(n) if isinstance(n, int) else str(n)


def tables(nums):
    nums = sorted(nums)
    return ("table %d" % nums[0]) if len(nums) == 1 else "tables " + ", ".join(map(str, nums))


def _what(r):
    """The instruction *r* (an ``instr`` payload or a snapshot row's fields) in words,
    without its state."""
    a = r["action"]
    body = r.get("body") or {}
    tb = r["table"]
    who = r.get("player") or body.get("name") or "the player"
    frm, to = r.get("from"), r.get("to")
    if a in ("move_out", "receive") and r.get("move") and frm and to:
        return "Move %s: %s → %s" % (who, seat(frm), seat(to))
    if a == "receive":
        dead = " (posts a dead big blind)" if body.get("dead_bb") else ""
        return "Seat %s at %s with %s chips%s" % (who, seat(to or [tb, body.get("seat")]),
                                                  chips(body.get("stack")), dead)
    if a == "take_out":
        return "Table %d: take seat %s out (%s is out)" % (tb, body.get("seat"), who)
    if a == "deduct":
        return "Table %d seat %s: take %s chips from %s (arrived late)" % (
            tb, body.get("seat"), chips(body.get("chips")), who)
    if a == "break_table":
        return "Table %d breaks" % tb
    if a == "redraw":
        return "Table %d: players go to their final-table seats" % tb
    if a == "hand_for_hand_start":
        return "Hand for hand at table %d" % tb
    if a == "hand_for_hand_stop":
        return "Hand for hand ends at table %d" % tb
    if a == "next_hand":
        return "Hand for hand: table %d deals the next hand" % tb
    if a == "pause":
        return "Table %d: pause" % tb
    if a == "resume":
        return "Table %d: play on" % tb
    if a == "message":
        return "Table %d: %s" % (tb, body.get("text") or r.get("text") or "a message")
    if a == "withdraw":
        return "Table %d: call off an instruction%s" % (
            tb, " for %s" % r["player"] if r.get("player") else "")
    return "Table %d: %s" % (tb, r.get("text") or "an instruction")


def _waits(r, state):
    a = r["action"]
    if state in ("queued", "sent"):
        if a == "move_out" and r.get("move"):
            return "waiting for both dealers"
        if a == "receive" and r.get("move"):
            return "left table %d; waiting for table %d's dealer" % (r["from"][0], r["to"][0])
        return "waiting for table %d's dealer" % r["table"] if state == "sent" else \
            "not sent to a box at table %d yet" % r["table"]
    if state == "acknowledged":
        return "table %d's dealer has it" % r["table"]
    if state == "done" and a == "move_out":
        return "left table %d; waiting for table %d's dealer" % (r["table"], r["to"][0])
    return STATE_WORDS.get(state, state)


def instruction(r, state=None):
    """*r* in words; with *state* (tdhost.live.instructions.state), what it waits for."""
    text = _what(r)
    return text if state is None else "%s (%s)" % (text, _waits(r, state))


def hand_for_hand(waiting):
    """The hand-for-hand line: "Hand for hand: waiting for tables 1, 3"."""
    if not waiting:
        return "Hand for hand: every table may deal the next hand"
    return "Hand for hand: waiting for %s" % tables(waiting)


RESULT_WORDS = {"acknowledged": "has", "done": "did", "refused": "refused",
                "cancelled": "called off"}


def _who(ev, lg):
    p = ev.payload
    a = ev.action
    if a == "bust":
        return "TD" if p.get("by") == "td" else ("table %s's box" % p["table"]
                                                if p.get("table") else "a box")
    if a == "instr_result":
        by = p.get("by")
        if by == "box":
            r = _instr(ev, lg)
            return "table %d's box" % r["table"] if r else "a box"
        return "TD" if by == "td" else "host"
    if a == "move":
        return "TD" if p.get("by") == "td" else "the dealers"
    if a in ("instr", "notice", "hfh_release", "final_seated"):
        return "host"
    return "TD"


def _instr(ev, lg):
    t = lg.tournaments.get(ev.tournament)
    return t.instrs.get(ev.payload.get("id")) if t is not None else None


def _text(ev, lg, events=None):
    p = ev.payload
    a = ev.action
    if a == "instr":
        return instruction(p)
    if a == "instr_result":
        r = _instr(ev, lg)
        what = instruction(r) if r else "an instruction"
        res = p.get("result")
        if res == "cancelled":
            return "called off: %s (%s)" % (what, p.get("reason") or "no longer needed")
        if res == "refused":
            return "refused: %s (%s)" % (what, p.get("reason") or "no reason given")
        if res == "acknowledged":
            return "dealer saw: %s" % what
        extra = ", %s chips" % chips(p["stack"]) if p.get("stack") else ""
        return "done: %s%s" % (what, extra)
    if a == "bust":
        names = [n for tier in reversed(p["tiers"]) for n in tier]
        t = lg.tournaments.get(ev.tournament)
        places = []
        for n in names:
            place = t.place_of(n) if t is not None else "in play"
            places.append(n if place == "in play" else "%s (%s)" % (n, place))
        return "%s out%s" % (" and ".join(places), " in the same hand" if len(names) > 1
                             else "")
    if a == "undo":
        target = None
        for e in events or lg.events:
            if e.seq == ev.undoes:
                target = e
                break
        return "undo: %s" % (_text(target, lg, events) if target else p.get("summary"))
    if a == "hand_for_hand":
        return "hand for hand %s" % ("on at " + tables(p["wait"]) if p.get("on") and p.get(
            "wait") else "on" if p.get("on") else "off")
    if a == "move":
        return "%s moved to %s" % (p["name"], seat(p["seat"]))
    return summary(ev)


def log_line(ev, lg, events=None):
    """{"time": "21:42", "who": "TD", "text": words} for league event *ev*."""
    try:
        when = clock_time(ev.at)[:5]
    except (TypeError, ValueError):
        when = ""
    return {"time": when, "who": _who(ev, lg), "text": _text(ev, lg, events)}
