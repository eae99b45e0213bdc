"""``Live.snapshot()``: the night as one JSON-ready dict for the web console and the big
screen (docs/host.md, "The live night", "snapshot()", lists every key).

Built fresh from the league (replayed log), the boxes' last statuses and the links; it
changes nothing.  Times are Unix milliseconds on Live's clock.
"""

from tdhost.live import (
    clock as _clock,
    instructions as _ins,
    money as _money,
    plan as _plan,
    undo as _undo,
    wording as _words,
)
from tdhost.rules import handforhand as _hfh, schedule as _schedule

LOG_MAX = 50
MOVES_MAX = 20


def _ts(seat):
    return "%d.%d" % tuple(seat) if seat else None


def _state(t):
    if t.ended:
        return "finished"
    if t.started:
        return "running"
    if t.draw:
        return "drawn"
    return "registration"


def _players(t):
    if t.started is None:
        n = len(t.entries("registered"))
        return {"entries": n, "left": n, "average_stack": None, "chips_in_play": None}
    entrants = t.entrants()
    left = len(t.remaining())
    chips = sum((e.stack or 0) - e.deducted for e in entrants) + _money.chips_added(t)
    return {"entries": len(entrants), "left": left,
            "average_stack": chips // left if left else None, "chips_in_play": chips}


def _final_stacks(t):
    """{player: chips} the league gave the finalists (the final table's sitting down, else
    the draw's count): the final table's card shows them until its box counts its own."""
    f = t.final
    if not f:
        return {}
    return dict(f.get("stacks") or {})


def _tables(live, t):
    seating = t.seating()
    final = _final_stacks(t)
    final_tb = (t.final or {}).get("table")
    broken = _plan.broken_tables(t)
    numbers = set(t.tables_used) | set(seating) | broken
    for lk in live.links:
        if lk.table is not None:
            numbers.add(lk.table)
    out = []
    for tb in sorted(numbers):
        lk = live.link_for(tb)
        v = live.views.get(tb)
        st = v.status if v is not None else None
        stacks = st.get("stacks") if isinstance(st, dict) else None
        away = st.get("away") if isinstance(st, dict) else None
        seats = {}
        for s, name in sorted(seating.get(tb, {}).items()):
            e = t.get(name)
            stack = stacks.get(str(s)) if isinstance(stacks, dict) else None
            if tb == final_tb and (stack is None or not t.final.get("seated")):
                stack = final.get(name, stack)  # the box still deals the tables before
            seats[str(s)] = {"name": name, "stack": stack,
                             "away": bool((isinstance(away, list) and s in away)
                                          or (e is not None and e.absent))}
        out.append({
            "table": tb, "box": lk.box if lk is not None else None,
            "link": lk.state if lk is not None else "none",
            "last_contact_ms": v.contact if v is not None else None,
            "hand": v.hand if v is not None else None,
            "button": st.get("button") if isinstance(st, dict) else None,
            "sb": st.get("sb_seat") if isinstance(st, dict) else None,
            "bb": st.get("bb_seat") if isinstance(st, dict) else None,
            "in_hand": bool(isinstance(st, dict) and st.get("street")),
            "broken": tb in broken, "seats": seats})
    return out


def _settled(t, r):
    """A pending instruction nobody waits for any more: once the final table has sat
    down, the redraw and table-break instructions of the final draw."""
    if r["action"] in ("redraw", "break_table"):
        return bool(t.final and t.final.get("seated"))
    return False


def _pending(live, t):
    out = []
    for r in _ins.pending(t):
        if _settled(t, r):
            continue
        body = r["body"]
        to = r.get("to")
        if r["action"] == "move_out":
            seat, to_t, to_s = body.get("seat"), to[0], to[1]
        elif r["action"] in ("receive", "deduct", "take_out"):
            seat, to_t, to_s = body.get("seat"), None, None
        elif r["action"] == "withdraw":  # the seat of what it calls off
            seat = t.instrs.get(body.get("instr"), {}).get("body", {}).get("seat")
            to_t, to_s = None, None
        else:
            seat, to_t, to_s = None, None, None
        st = _ins.state(r, live.sent.get(r["id"]) is not None)
        out.append({"id": r["id"], "action": r["action"], "table": r["table"], "seat": seat,
                    "player": r.get("player"), "to_table": to_t, "to_seat": to_s,
                    "state": st, "reason": _ins.reason(r), "text": r["text"],
                    "words": _words.instruction(r, st), "why": _why(t, r)})
    return out


def _why(t, r):
    """Why the instruction is there, in words (the console's "why" column)."""
    reason = _ins.reason(r)
    if reason:
        return "the box refused: %s" % reason
    a = r["action"]
    if a in ("move_out", "receive") and r.get("move"):
        if t.final is not None:
            return "final table"
        return "balancing: the tables differ by more than one player"
    if a == "receive":
        return "joins the game"
    if a == "take_out":
        return "the TD entered the player out"
    if a == "deduct":
        return "arrived after the start"
    if a == "break_table":
        return "final table" if t.final is not None else "fewer tables are needed"
    if a == "redraw":
        return "final table"
    if a in ("hand_for_hand_start", "hand_for_hand_stop", "next_hand"):
        return "hand for hand"
    if a == "withdraw":
        return "no longer needed"
    return ""


def snapshot(live, now):
    t = live.t
    lg = live.lg
    clock = t.clock_at(now)
    offers = {k: o for o, k in t.offer_pairs() if k}
    h = t.hfh
    tables = live.playing_tables()
    ended = {tb: live.view(tb).ended for tb in tables}
    results = []
    money = _money.view(t, now)
    prize = _money.prizes(t, now, money)  # {} in a free tournament
    if t.started:
        for r in t.results():
            results.append({"place": r["first"], "name": r["name"], "points": r["points"],
                            "tied": r["first"] != r["last"],
                            "prize": prize.get(r["name"]) if money else None})
    log = []
    mine = [ev for ev in lg.events if ev.tournament == t.number]
    for ev in mine[-LOG_MAX:]:
        line = _words.log_line(ev, lg, mine)
        log.append({"seq": ev.seq, "action": ev.action, "text": line["text"],
                    "time": line["time"], "who": line["who"],
                    "undone": ev.seq in lg.undone})
    undo, redo = _undo.view(live)
    return {
        "event": lg.name,
        "tournament": {"number": t.number, "name": t.setup["name"],
                       "profile": t.setup["profile"], "state": _state(t)},
        "now_ms": now,
        "clock": _clock.view(clock),
        "schedule": _schedule.view(clock.levels, t.setup["colour_ups"], clock.index,
                                   clock.left_ms),
        "money": money,
        "players": _players(t),
        "tables": _tables(live, t),
        "pending": _pending(live, t),
        "moves": [{"player": p["name"], "from": _ts(p.get("from")), "to": _ts(p["seat"]),
                   "at_ms": p.get("at_ms")} for p in t.moves[-MOVES_MAX:]],
        "broken": sorted(_plan.broken_tables(t)),
        "final_table": t.final is not None,
        "hand_for_hand": h is not None,
        "hand_for_hand_waiting": _hfh.waiting_for(h["wait"], ended, tables) if h else [],
        "hand_for_hand_text": _words.hand_for_hand(
            _hfh.waiting_for(h["wait"], ended, tables)) if h else None,
        "registration": [{"name": e.name, "member": e.member, "state": e.state,
                          "seat": _ts(e.seat) if e.state in ("registered", "in") else None}
                         for e in t.players.values()],
        "standby": [{"name": t.players[k].name,
                     "offered": _ts(offers[k]["seat"]) if k in offers else None}
                    for k in t.standby],
        "results": results,
        "leaderboard": [{"rank": r["rank"], "name": r["name"], "points": r["points"],
                         "played": r["events"]} for r in lg.standings()],
        "log": log,
        "undo": undo,
        "redo": redo,
        "wifi": live.wifi.view(),
    }
