"""The TD's actions on the live night: ``Live.act(action, args)`` (docs/host.md, "The live
night", "act()").

Each action is the CLI command of the same name (tdhost.cli) through the same
``decide_*`` methods, written with ``Live.write`` (one transaction; a refusal writes
nothing), then what the boxes must hear: a new seating before the first hand, a
``receive`` for a player who joins a table in play, a ``deduct`` for an arrival's chips,
the clock, a new plan.  Every handler returns one sentence for the TD and raises
``ActionRefused`` (tdhost.league.refusal) with one sentence when the action is refused;
nothing changes then (bad arguments are checked before anything is written).
"""

from tdhost.league import reducers as _reducers
from tdhost.league.busts import decide_bust
from tdhost.league.entries import (
    decide_arrive,
    decide_late,
    decide_register,
    decide_standby_add,
    decide_standby_pass,
    decide_standby_take,
)
from tdhost.league.play import decide_start
from tdhost.league.refusal import ActionRefused
from tdhost.league.seats import decide_draw
from tdhost.league.text import player_key, seat_text
from tdhost.live import (
    clock as _clock,
    instructions as _ins,
    money as _livemoney,
    moves as _moves,
    plan as _plan,
    undo as _undo,
    wording as _words,
)
from tdhost.rules import handforhand as _hfh


# ------------------------------------------------------------------ arguments
def _str(a, key, required=True):
    v = a.get(key)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not v.strip():
        raise ActionRefused("give %s as text" % key)
    return v


def _names(a, key="names", required=True):
    v = a.get(key)
    if v is None and not required:
        return []
    if not isinstance(v, list) or (required and not v) or not all(
            isinstance(x, str) and x.strip() for x in v):
        raise ActionRefused("give %s as a list of names" % key)
    return v


def _bool(a, key, default=False):
    v = a.get(key, default)
    if not isinstance(v, bool):
        raise ActionRefused("%s must be true or false" % key)
    return v


def _int(a, key, default=None, low=None):
    v = a.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or (low is not None and v < low):
        raise ActionRefused("%s must be a whole number%s" % (
            key, "" if low is None else " from %d" % low))
    return v


def _seat(a, key="seat"):
    v = a.get(key)
    if v is None:
        return None
    parts = str(v).replace(":", ".").replace("/", ".").split(".")
    if not isinstance(v, str) or len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ActionRefused("%r is not a seat: give \"TABLE.SEAT\", e.g. \"2.5\"" % (v,))
    return [int(parts[0]), int(parts[1])]


# ------------------------------------------------------------------ helpers
def _joins(live, name):
    """*name* joined a table in play: the box there seats them (``receive``; before its
    first hand, and without a dead big blind to post, the box builds its table from the new
    seating instead), then a plan."""
    e = live.t.get(name)
    if e is None or not e.seat:
        return
    table, seat = e.seat
    live.plan_due = True
    lk = live.link_for(table)
    if lk is not None and lk.state == "live" and live.view(table).hand == 0 and not e.dead_bb:
        live.send_seating([table])
        return
    stack = (e.stack or 0) - e.deducted
    text = "seat %s at table %d seat %d with %d chips%s" % (
        e.name, table, seat, stack, " (a dead big blind to enter)" if e.dead_bb else "")
    live.write(lambda t, lg, seq: ([("instr", _ins.seat_player(
        lg, t, 0, e.name, e.seat, stack, text, e.dead_bb), None)], None))


def _orphans(t):
    """Pending instructions an undo left without a reason: those of players no longer in
    the game, a chip deduction of a player whose arrival was undone, and the take_out of
    a player whose bust was undone."""
    out = []
    for r in _ins.pending(t):
        if not r.get("player") or r["action"] == "withdraw":
            continue
        e = t.get(r["player"])
        if r["action"] == "take_out":  # the TD's bust undone: the player plays on
            if e is None or e.state == "in":
                out.append(r)
        elif e is None or e.state != "in" or (r["action"] == "deduct" and e.absent):
            out.append(r)
    return out


def _cancel_orphans(live):
    """After an undo: the orphaned instructions (``_orphans``) are off, withdrawn from the
    boxes that may show them."""
    if not _orphans(live.t):
        return

    def why(r):
        e = live.t.get(r["player"])
        if e is not None and e.state == "in":
            return "%s's arrival was undone" % r["player"]
        return "%s is no longer in the game" % r["player"]

    live.write(lambda t, lg, seq: (_ins.cancel_all(lg, t, _orphans(t), why, live.boxed),
                                   None))


# ------------------------------------------------------------------ actions
def register(live, a):
    names = _names(a)
    member = _bool(a, "member")
    when = live.when()

    def build(t, lg, seq):
        evs, out = [], []
        for i, name in enumerate(names):
            p, msg = decide_register(t, name, member, when, lg, seq + i)
            _reducers.apply(t, "register", p)  # the next name sees this one
            lg.names.setdefault(player_key(p["name"]), p["name"])
            if p["member"]:
                lg.members.add(player_key(p["name"]))
            evs.append(("register", p, None))
            out.append(msg)
        return evs, out

    out = live.write(build)
    if live.t.draw:
        live.send_seating()
    return " ".join(out)


def standby_add(live, a):
    name = _str(a, "name")
    member = _bool(a, "member")

    def build(t, lg, seq):
        p, msg = decide_standby_add(t, name, member, lg)
        return [("register", p, None)], msg
    return live.write(build)


def standby_take(live, a):
    name = _str(a, "name")
    seat = _seat(a)
    when = live.when()

    def build(t, lg, seq):
        p = decide_standby_take(t, name, when, seat)
        return [("standby_take", p, None)], p
    p = live.write(build)
    _joins(live, p["name"])
    return "%s takes %s with %d chips%s." % (
        p["name"], seat_text(p["seat"]), p["stack"],
        " and posts a dead big blind to enter" if p["dead_bb"] else "")


def standby_pass(live, a):
    name = _str(a, "name")

    def build(t, lg, seq):
        p = decide_standby_pass(t, name)
        return [("standby_pass", p, None)], p
    p = live.write(build)
    return "%s is not available for %s." % (p["name"], seat_text(p["offer"]))


def draw(live, a):
    seed = _int(a, "seed", live.seed, 0)
    ace8 = _bool(a, "ace8")
    again = _bool(a, "again")

    def build(t, lg, seq):
        p = decide_draw(t, seed, ace8, again, False)
        return [("draw", p, None)], p
    p = live.write(build)
    live.send_seating()
    tables = sorted({s[0] for s in p["seats"].values()})
    return "%s draw, seed %s: %d players at %d tables." % (p["mode"].capitalize(), p["seed"],
                                                          len(p["seats"]), len(tables))


def start(live, a):
    absent = _names(a, "absent", required=False)
    away = _names(a, "away", required=False)
    when = live.when()
    now = live.now

    def build(t, lg, seq):
        p, notes = decide_start(t, when, absent, away)
        return [("start", p, None), ("clock", _clock.started(t, now, when), None)], (p, notes)
    p, notes = live.write(build)
    live.send_seating()
    live.send_clock()
    return " ".join(["Shuffle up and deal at %s: %d players in, %d started on time." % (
        when.strftime("%H:%M:%S"), len(live.t.remaining()), p["started_on_time"])]
        + [n + "." for n in notes])


def late(live, a):
    name = _str(a, "name")
    member = _bool(a, "member")
    seat = _seat(a)
    when = live.when()
    note = []  # what the TD must know about the seat (a new table without a box)

    def build(t, lg, seq):
        where, spare, why = seat, _plan.spare_tables(live, t), None
        if where is None:
            where, why = _plan.new_seat(live, t, name, seq, spare)
        elif where[0] in _plan.broken_tables(t):
            raise ActionRefused("table %d is broken: it takes no players" % where[0])
        p = decide_late(t, name, member, when, lg, seq, where, spare)
        note[:] = [why] if why else []
        return [("late", p, None)], p
    p = live.write(build)
    _joins(live, p["name"])
    # the reasons say the chips and the dead big blind already (tdhost.league.entries.late_stack)
    return "%s joins at %s — %s%s." % (p["name"], seat_text(p["seat"]), "; ".join(p["reasons"]),
                                       "".join("; " + n for n in note))


def arrive(live, a):
    name = _str(a, "name")
    when = live.when()

    def build(t, lg, seq):
        p = decide_arrive(t, name, when)
        return [("arrive", p, None)], p
    p = live.write(build)
    e = live.t.get(p["name"])
    text = "%s takes %s: %s%s" % (p["name"], seat_text(e.seat), p["reason"],
                                  "; remove %d chips" % p["deduction"] if p["deduction"] else "")
    table, seat = e.seat
    lk = live.link_for(table)
    if not p["deduction"]:
        live.message(table, text)
    elif lk is not None and lk.state == "live" and live.view(table).hand == 0:
        live.send_seating([table])  # before its first hand the box takes the new seating
    else:  # LPPL ¶14 "will have the appropriate number of chips removed from their stack"
        live.write(lambda t, lg, seq: ([("instr", _ins.instr(
            _ins.new_id(lg, t), "deduct", table, "table %d seat %d: take %d chips from %s "
            "(arrived late)" % (table, seat, p["deduction"], p["name"]), player=p["name"],
            to=[table, seat], seat=seat, chips=p["deduction"]), None)], None))
    return text + "."


def bust(live, a):
    names = _names(a)
    chips = a.get("chips")
    if chips is not None and (not isinstance(chips, list) or len(chips) != len(names) or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in chips)):
        raise ActionRefused("give chips as a list of whole numbers, one per name, in the same "
                            "order")
    chip_map = dict(zip(names, chips)) if chips else {}
    when = live.when()

    at = {}  # where a box seats them now (before the bust)

    def build(t, lg, seq):
        at.clear()
        for n in names:
            e = t.get(n)
            if e is not None:
                at[e.name] = _at_box(live, t, e.name)
        p = decide_bust(t, list(names), chip_map, None, None, when, lg)
        p["by"] = "td"
        return [("bust", p, None)], p
    p = live.write(build)
    t = live.t
    out = [n for tier in p["tiers"] for n in tier]
    live.after_bust(out)
    # each box that still seats them takes the seat out (protocol 1.3): a write of its own,
    # so that an `undo` of the bust finds it pending and calls it off (_cancel_orphans)
    seats = [(n, at[n]) for n in out if at.get(n) is not None]
    if seats and not t.ended:
        live.write(lambda t2, lg, seq: ([("instr", _ins.take_out(
            lg, t2, k, n, s, "entered by the TD"), None) for k, (n, s) in enumerate(seats)],
            None))
    lines = ["%s is out: %s of %d" % (n, t.place_of(n), len(t.entrants()))
             for n in reversed(out)] + p["reasons"]
    if t.ended:
        lines.append("%s wins" % t.ended["tiers"][0][0])
    return ". ".join(lines) + "."


def _at_box(live, t, name):
    """[table, seat] where a box seats *name* now (tdhost.live ``name_at``: their league
    seat, or the destination of a move whose receive the box carried out), or None:
    walking between tables, or nowhere a box knows."""
    e = t.get(name)
    halves = _ins.moving_players(t).get(name)
    for seat in ((e.seat if e is not None else None), halves and halves[0]["to"]):
        if seat and live.name_at(t, seat[0], seat[1]) == name:
            return list(seat)
    return None


def _clock_act(op, key=None):
    def act(live, a):
        arg = None
        if key is not None:
            if key not in a:
                raise ActionRefused("give %s" % key)
            arg = a[key]
        now, when = live.now, live.when()

        def build(t, lg, seq):
            p = _clock.decide(t, op, arg, now, when)
            return [("clock", p, None)], p
        p = live.write(build)
        live.send_clock()
        return p["text"][:1].upper() + p["text"][1:] + "."
    return act


def hand_for_hand(live, a):
    if "on" not in a:
        raise ActionRefused("give on: true or false")
    on = _bool(a, "on")
    tables = live.playing_tables()

    def build(t2, lg, seq):
        if t2.started is None or t2.ended:
            raise ActionRefused("hand for hand is for a tournament in play")
        if on and t2.hfh is not None:
            raise ActionRefused("hand for hand is on already")
        if not on and t2.hfh is None:
            raise ActionRefused("hand for hand is not on")
        if on and not tables:
            raise ActionRefused("no table is playing")
        wait = _hfh.start_wait(tables, {tb: live.view(tb).hand or 0 for tb in tables}) \
            if on else {}
        targets = tables if on else sorted(int(k) for k in t2.hfh["wait"]) or tables
        evs = [("hand_for_hand", {"on": on, "wait": wait, "text": "hand for hand %s" % (
            "starts at tables %s" % ", ".join(map(str, tables)) if on else "stops")}, None)]
        action = "hand_for_hand_start" if on else "hand_for_hand_stop"
        for k, tb in enumerate(targets):
            evs.append(("instr", _ins.instr(_ins.new_id(lg, t2, k), action, tb, "%s at table %d"
                                            % (action.replace("_", " "), tb)), None))
        return evs, None
    live.write(build)
    if on:
        return "Hand for hand: tables %s finish the hand they are playing and wait; all deal " \
               "the next hand together." % ", ".join(map(str, tables))
    return "Hand for hand is over: every table plays on."


def confirm(live, a):
    """The TD saw instruction ``id`` carried out; for a ``move_out``, ``stack`` (optional) is
    the chips the player left with: the receive takes them (without it: the box's answer,
    else the stack planned with the move, with a notice)."""
    iid = _str(a, "id")
    stack = _int(a, "stack", None, 1)

    def build(t, lg, seq):
        r = t.instrs.get(iid)
        if r is None:
            raise ActionRefused("there is no instruction %s" % iid)
        if _ins.complete(r) or _ins.state(r) == "done":
            raise ActionRefused("instruction %s (%s) is not pending" % (iid, r["text"]))
        if stack is not None and r["action"] != "move_out":
            raise ActionRefused("a stack goes with a move_out only: %s is a %s"
                                % (iid, r["action"]))
        p = _ins.result(iid, "done", "td", "confirmed by the TD: %s%s" % (
            r["text"], ", %d chips" % stack if stack else ""), stack=stack)
        evs = [("instr_result", p, None)]
        if r["action"] == "move_out" and r.get("move"):
            evs += _moves.receive_evs(lg, t, r, stack)
        return evs, r
    r = live.write(build)
    live.plan_due = True  # a player seated or moved: the plan looks again
    return "Confirmed: %s%s." % (_words.instruction(r), ", %s chips" % _words.chips(stack)
                                 if stack else "")


def final_draw(live, a):
    seed = _int(a, "seed", (live.t.draw or {}).get("seed", live.seed), 0)
    p = live.final_table(seed)
    return "Final table at table %d (seed %s): %d players." % (p["table"], p["seed"],
                                                              len(p["seats"]))


ACTS = {
    "register": register,
    "standby_add": standby_add,
    "standby_take": standby_take,
    "standby_pass": standby_pass,
    "draw": draw,
    "start": start,
    "late": late,
    "arrive": arrive,
    "bust": bust,
    "pause": _clock_act("pause"),
    "resume": _clock_act("resume"),
    "level": _clock_act("level", "level"),
    "adjust": _clock_act("adjust", "seconds"),
    "hand_for_hand": hand_for_hand,
    "confirm": confirm,
    "final_draw": final_draw,
    "undo": _undo.undo,
    "redo": _undo.redo,
}
ACTS.update(_livemoney.ACTS)  # rebuy, addon, knockout, payouts (docs/host.md §11)
