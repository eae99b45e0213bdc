"""The TD's own undo and redo on the live night (docs/web.md, "Undo and redo").

Every TD action through ``Live.act`` that can be taken back is kept in ``live.td_done`` with
what it wrote and, in words, what its undo will do ("Undo: Tariq Malik's bust (21:42) —
Tariq Malik returns to table 2 seat 5 with 2,350").  ``undo`` takes back the TD's *own* last
one -- clock actions included, a box's bust never -- and puts it on ``live.td_undone``;
``redo`` does that action again.  A league action is undone with the log's compensating
``undo`` events (only once a replay without it works); hand for hand with its opposite.
The journal lives with the running host: a restarted host starts with an empty one.
"""

from tdhost.league import replay as _replay, text as _text
from tdhost.league.refusal import ActionRefused
from tdhost.live import instructions as _ins, plan as _plan
from tdhost.live.wording import chips, log_line as _words_of, seat, tables

UNDOABLE = frozenset(("register", "standby_add", "standby_take", "standby_pass", "draw",
                      "start", "late", "arrive", "bust", "pause", "resume", "level", "adjust",
                      "hand_for_hand", "final_draw")) | frozenset((
                      "rebuy", "addon", "knockout", "payouts"))  # money (tdhost.live.money)
# the events an undo takes back itself; instructions are called off after it (_cancel_orphans)
KEEP = frozenset(("instr", "instr_result", "notice", "undo", "hfh_release", "final_seated"))
KEPT = 20  # entries kept for undo (the newest)
CLOCK_ACTS = frozenset(("pause", "resume", "level", "adjust"))


def _left(clock):
    s = (clock.left_ms + 999) // 1000
    lv = clock.levels[clock.index][4]
    return "%d:%02d of %s" % (s // 60, s % 60, "level %d" % lv if lv else "the break")


def before(live, action, args):
    """What the undo's words need from before *action* (where a player sits, the clock)."""
    t = live.t
    ctx = {"clock": None, "seats": {}}
    if t.started is not None and not t.ended:
        c = t.clock_at(live.now)
        ctx["clock"] = {"left": _left(c), "paused": c.paused,
                        "level": c.levels[c.index][4]}
    if action == "bust" and isinstance(args.get("names"), list):
        statuses = live.statuses()
        for n in args["names"]:
            e = t.get(n) if isinstance(n, str) else None
            if e is not None and e.seat:
                ctx["seats"][e.name] = (list(e.seat), _plan.stack_at(statuses, *e.seat))
    if action == "hand_for_hand":
        ctx["tables"] = live.playing_tables()
    return ctx


def _words(live, action, args, ctx, evs):
    """(what the action was, what its undo does) in words."""
    p = {}
    for ev in evs:
        if ev.action not in KEEP:
            p = ev.payload
            break
    clock = ctx.get("clock") or {}
    if action == "bust":
        names = [n for tier in reversed(p.get("tiers") or []) for n in tier]
        back = []
        for n in names:
            where, stack = ctx["seats"].get(n, (None, None))
            back.append("%s returns to %s%s" % (n, seat(where) if where else "the game",
                                                " with %s" % chips(stack) if stack else ""))
        return ("%s's bust" % " and ".join(names), "; ".join(back) or "they play on")
    if action == "pause":
        return ("clock paused at %s" % clock.get("left", "?"),
                "the clock runs on as if it had not been paused")
    if action == "resume":
        return ("clock resumed at %s" % clock.get("left", "?"),
                "the clock stands paused again at %s" % clock.get("left", "?"))
    if action == "level":
        return ("jump to level %s" % args.get("level"),
                "back to %s, the time running on as if there had been no jump"
                % (clock.get("left", "?").split(" of ", 1)[-1]))
    if action == "adjust":
        s = args.get("seconds") or 0
        amount = "%d min" % (abs(s) // 60) if s and s % 60 == 0 else "%d s" % abs(s)
        return ("%s %s %s" % (amount, "added to" if s > 0 else "taken off", clock.get(
            "left", "?").split(" of ", 1)[-1]),
            "the %s %s again" % (amount, "comes off" if s > 0 else "goes back on"))
    if action == "hand_for_hand":
        if args.get("on"):
            return ("hand for hand on", "hand for hand stops: every table plays on")
        return ("hand for hand off", "hand for hand starts again at %s" % tables(
            ctx.get("tables") or []))
    if action == "register":
        names = [ev.payload["name"] for ev in evs if ev.action == "register"]
        return ("registration of %s" % ", ".join(names),
                "%s %s no longer registered" % (", ".join(names),
                                                "is" if len(names) == 1 else "are"))
    if action == "standby_add":
        return ("%s on the standby list" % p.get("name"),
                "%s leaves the standby list" % p.get("name"))
    if action == "standby_take":
        return ("%s takes %s" % (p.get("name"), seat(p.get("seat"))),
                "%s leaves %s and waits on the standby list again" % (
                    p.get("name"), seat(p.get("seat"))))
    if action == "standby_pass":
        return ("%s passes on %s" % (p.get("name"), seat(p.get("offer"))),
                "%s is offered %s again" % (p.get("name"), seat(p.get("offer"))))
    if action == "late":
        return ("late entry of %s" % p.get("name"),
                "%s leaves %s and is no longer entered" % (p.get("name"), seat(p.get("seat"))))
    if action == "arrive":
        return ("%s arrived" % p.get("name"), "%s is marked absent again" % p.get("name"))
    if action == "draw":
        return ("the seat draw (seed %s)" % p.get("seed"), "nobody has a seat until the next "
                "draw")
    if action == "final_draw":
        return ("the final-table draw", "the tables play on as before the draw; its "
                "instructions are called off")
    if action == "start":
        return ("shuffle up and deal", "the tournament is not started: the clock stops at "
                "level 1")
    if action in ("rebuy", "addon", "knockout", "payouts"):  # a `money` event says itself
        return (p.get("text") or action, {
            "rebuy": "the re-buy comes off the pool", "addon": "the add-on comes off the pool",
            "knockout": "the bounty is not paid", "payouts": "the payouts go back to the "
            "table before"}[action])
    return (action.replace("_", " "), "it is taken back")


def record(live, action, args, ctx, first_seq):
    """After *action* succeeded: keep it for undo (when it can be undone) and forget what
    could be redone (a new action of the TD's own)."""
    live.td_undone[:] = []
    if action not in UNDOABLE:
        return
    evs = []
    for ev in reversed(live.lg.events):  # the newest only: a long night's log is long
        if ev.seq <= first_seq:
            break
        if ev.tournament == live.t.number:
            evs.append(ev)
    evs.reverse()
    if not [ev for ev in evs if ev.action not in KEEP]:
        return
    what, then = _words(live, action, args, ctx, evs)
    live.td_serial += 1
    live.td_done.append({"n": live.td_serial, "action": action, "args": dict(args),
                         "seqs": [ev.seq for ev in evs], "time": live.when().strftime("%H:%M"),
                         "what": what, "then": then})
    del live.td_done[:-KEPT]


def _targets(live, entry):
    return [ev for ev in live.lg.events if ev.seq in entry["seqs"]
            and ev.seq not in live.lg.undone and ev.action not in KEEP]


def _check_later(live, entry):
    """ActionRefused when a change to the league came after *entry* (a box's bust, a move, the
    final draw...): only the latest change can be taken back without undoing those."""
    clockish = entry["action"] in CLOCK_ACTS
    last = max(entry["seqs"])
    for ev in live.lg.events:
        if ev.seq <= last or ev.tournament != live.t.number or ev.seq in live.lg.undone \
                or ev.action in KEEP or (ev.action == "clock" and not clockish):
            continue
        line = _words_of(ev, live.lg)
        raise ActionRefused("%s (%s) cannot be undone any more: %s since (%s, %s)" % (
            entry["what"], entry["time"], line["text"], line["who"], line["time"]))


def _check_replay(live, evs):
    """ActionRefused when the log without *evs* does not replay (later events need them)."""
    from tdhost.league.store import LoggedEvent
    top = live.lg.events[-1].seq if live.lg.events else 0
    fake = [LoggedEvent(top + i + 1, ev.tournament, ev.at, "undo",
                        {"action": ev.action, "summary": ""}, ev.seq)
            for i, ev in enumerate(evs)]
    try:
        _replay.replay(list(live.lg.events) + fake)
    except Exception as err:  # noqa: BLE001 -- any failure means: not safely undoable
        raise ActionRefused("that cannot be undone any more: what happened since depends on it "
                            "(%s)" % (str(err) or type(err).__name__))


def _cancel_own(live, entry):
    """The instructions the undone action wrote that are still pending are called off."""
    ids = {ev.payload.get("id") for ev in live.lg.events
           if ev.seq in entry["seqs"] and ev.action == "instr"}
    rs = [r for r in _ins.pending(live.t) if r["id"] in ids and r["action"] != "withdraw"]
    if rs:
        why = "the TD undid %s" % entry["what"]
        live.write(lambda t, lg, seq: (_ins.cancel_all(lg, t, rs, why, live.boxed), None))


def undo(live, a):
    """Takes back the TD's own last action (``a["n"]``, when given, must be the one the
    console showed)."""
    from tdhost.live import acts as _acts
    if not live.td_done:
        raise ActionRefused("there is nothing of yours to undo")
    entry = live.td_done[-1]
    n = a.get("n")
    if n is not None and n != entry["n"]:
        raise ActionRefused("your last action is now %s (%s): look at Undo again" % (
            entry["what"], entry["time"]))
    if entry["action"] == "hand_for_hand":
        _acts.hand_for_hand(live, {"on": not entry["args"].get("on")})
    else:
        evs = _targets(live, entry)
        if not evs:
            live.td_done.pop()
            raise ActionRefused("%s (%s) was undone already" % (entry["what"], entry["time"]))
        _check_later(live, entry)
        _check_replay(live, evs)
        live.write(lambda t, lg, seq: ([("undo", {"action": ev.action,
                                                  "summary": _text.summary(ev)}, ev.seq)
                                        for ev in reversed(evs)], None))
        _acts._cancel_orphans(live)
        _cancel_own(live, entry)
        live.send_seating()
        live.send_clock()
        live.plan_due = True
    live.td_done.pop()
    live.td_undone.append(entry)
    return "Undone: %s (%s) — %s." % (entry["what"], entry["time"], entry["then"])


def redo(live, a):
    """Does the last undone action again (``a["n"]``, when given, must be the one shown)."""
    from tdhost.live import acts as _acts
    if not live.td_undone:
        raise ActionRefused("there is nothing to redo")
    entry = live.td_undone[-1]
    n = a.get("n")
    if n is not None and n != entry["n"]:
        raise ActionRefused("the action to redo is now %s (%s): look at Redo again" % (
            entry["what"], entry["time"]))
    ctx = before(live, entry["action"], entry["args"])
    first = live.lg.events[-1].seq if live.lg.events else 0
    text = _acts.ACTS[entry["action"]](live, dict(entry["args"]))
    keep = list(live.td_undone[:-1])
    record(live, entry["action"], entry["args"], ctx, first)
    live.td_undone[:] = keep
    return "Done again: %s" % text


def view(live):
    """The snapshot's ``undo`` and ``redo``: {"n", "text"} or None."""
    u = live.td_done[-1] if live.td_done else None
    r = live.td_undone[-1] if live.td_undone else None
    return (
        {"n": u["n"], "text": "Undo: %s (%s) — %s" % (u["what"], u["time"], u["then"])}
        if u else None,
        {"n": r["n"], "text": "Redo: %s (undone; first done at %s)" % (r["what"], r["time"])}
        if r else None)
