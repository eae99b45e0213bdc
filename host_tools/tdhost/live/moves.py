"""Plans on the live night and the moves they make (docs/host.md, "The live night",
§10.5–§10.7): making a plan after a change (tdhost.rules.balance on tdhost.live.plan's room),
each move's ``receive`` once its ``move_out`` is done, recording a move once both boxes have
carried it out, dropping refused moves; the final table itself is tdhost.live.final.
Functions of a ``tdhost.live.night.Live`` (their first argument).

**A move in two steps** (protocol 1.2).  A plan writes only the ``move_out``; the
``receive`` is written when the move_out is ``done``, in the same batch as that answer
(``receive_evs``), with the chips the player left with: the box's answered ``stack``, or the
TD's ``confirm`` ``stack``; last resort the stack the source box's status showed when the
move was planned (``planned_stack``, or the chips at entry), with a ``notice`` saying so.
So the receive always has chips, and exists only once the player can no longer bust at the
old table.  ``receives`` writes any receive still missing (a sweep in ``Live.poll``: a
league file from before a crash, whatever the cause).

**Called off too late** (``late_done``): a box answers ``done`` for a ``move_out`` the host
cancelled (its ``withdraw`` came after the dealer's Confirm).  The player has left the
table: with no final table they are sent back to their league seat (a ``receive`` of their
own, the answered chips); with the final table drawn, their chips go into its ``stacks``.

``recover`` runs before the first plan after a (re)start (docs/host.md §10.3): what a host
killed between two writes left half done -- the pending moves of players out already, the
final table's instructions after its draw -- is finished then.
"""

import logging

from tdhost.league.refusal import ActionRefused
from tdhost.league.seats import decide_move
from tdhost.live import (
    busts as _busts,
    final as _final,
    instructions as _ins,
    plan as _plan,
    redraw as _redraw,
)
from tdhost.rules import balance as _balance

log = logging.getLogger("tdhost.live")



def complete(live):
    """Record every move whose two halves are done (a ``move`` event each)."""
    for _ in range(8):  # a move into a seat freed by another completes after it
        progress = False
        for halves in list(_ins.moves(live.t).values()):
            if len(halves) != 2 or any(_ins.state(r) != "done" for r in halves):
                continue
            if record(live, halves):
                progress = True
        if not progress:
            return


def record(live, halves):
    """The league's ``move`` for a move both boxes carried out; True when written."""
    r = halves[0]
    name, to = r["player"], r["to"]
    now = live.now

    def build(t, lg, seq):
        e = t.get(name)
        if e is None or e.state != "in":
            return [("instr_result", _ins.cancel(t.instrs[h["id"]], "%s is not playing"
                                                 % name), None) for h in halves], False
        if t.seating().get(to[0], {}).get(to[1]) not in (None, name):
            return [], False  # the seat frees when an earlier move completes
        p = decide_move(t, name, to)
        p.update({"at_ms": now, "instrs": [h["id"] for h in halves],
                  "by": "boxes" if all("done" in _ins.results(h, "box") for h in halves)
                  else "td"})
        return [("move", p, None)], True

    try:
        done = live.write(build)
    except ActionRefused as err:
        log.warning("move of %s not recorded yet: %s", name, err)
        return False
    if done:
        live.plan_due = True
        live.send_names([r["from"][0], to[0]])
    return done


# ------------------------------------------------------------------ the receive
def receive_evs(lg, t, out, stack=None, k=0):
    """The events that write the receive of the move whose move_out *out* is done (none
    when it exists already): ``stack`` the chips the player left with (None: the answers'
    on *out*, else ``fallback`` and a ``notice``).  *k*: ids this batch has taken."""
    if any(r["action"] == "receive" and r.get("move") == out["move"]
           for r in t.instrs.values()):
        return []
    c = _ins.chips(stack) or _ins.done_stack(out)
    evs = []
    if c is None:
        c, whence = _ins.fallback_stack(t, out)
        frm, to = out["from"], out["to"]
        evs.append(("notice", {"text": "table %d: no stack came with %s leaving seat %d; "
                               "they sit down at table %d seat %d with %d chips, %s: check "
                               "them" % (frm[0], out["player"], frm[1], to[0], to[1], c,
                                         whence), "src": []}, None))
    return [("instr", _ins.receive(lg, t, k, out, c), None)] + evs


def receives(live):
    """Write the receive of every move whose move_out is done and has none yet (normally
    written with the answer: this finishes what a host killed in between left)."""
    for halves in list(_ins.moves(live.t).values()):
        if len(halves) == 1 and _ins.state(halves[0]) == "done":
            iid = halves[0]["id"]
            live.write(lambda t, lg, seq, i=iid: (receive_evs(lg, t, t.instrs[i]), None))


def late_done(live, r, stack, text, src):
    """A box answered ``done`` for the cancelled move_out *r* (module notes): the answer is
    logged, and in the same batch the player still in is sent back (``send_back``)."""
    final = {}

    def build(t, lg, seq):
        r2 = t.instrs[r["id"]]
        if "done" in _ins.results(r2, "box"):
            return [], None
        p = _ins.result(r["id"], "done", "box", text, None, src, stack)
        left = "%s left table %d seat %d after their move to table %d seat %d was called " \
               "off" % (r["player"], r["from"][0], r["from"][1], r["to"][0], r["to"][1])
        back = "the move to table %d seat %d was called off after they left" % tuple(r["to"])
        return send_back(live, t, lg, seq, r2, stack, left, back,
                         [("instr_result", p, None)], final), None

    live.write(build)
    live.plan_due = True
    if final:
        live.send_seating([final["table"]])


def seated_anyway(live, r, text, src):
    """A box answers ``done`` for the ``receive`` *r* the host had called off (its
    withdraw came after the dealer's Confirm): the player sat down there.  The answer is
    logged; a player who is out (the TD's bust cancelled the receive) is taken out of that
    seat in the same write (a ``take_out``, protocol 1.3, unless one for them exists
    already); a player still in gets a notice for the TD."""

    def build(t, lg, seq):
        r2 = t.instrs[r["id"]]
        if "done" in _ins.results(r2, "box"):
            return [], None
        evs = [("instr_result", _ins.result(r["id"], "done", "box", text, None, src), None)]
        name, to = r.get("player"), r.get("to")
        e = t.get(name) if name else None
        if e is None or not to:
            return evs, None
        if e.state == "in":
            evs.append(("notice", {"text": "%s sat down at table %d seat %d after that was "
                                   "called off: the TD seats them" % (name, to[0], to[1]),
                                   "src": src}, None))
        elif not any(x["action"] == "take_out" and x.get("player") == name
                     and not _ins.cancelled(x) for x in t.instrs.values()):
            evs.append(("instr", _ins.take_out(
                lg, t, 0, name, to, "seated after their receive was called off"), None))
        return evs, None

    live.write(build)


def refused_in(live, r, p):
    """The destination box refused a move's ``receive`` *r* (result payload *p*, e.g.
    "Seat 6 is taken": a player the TD entered out is still at that box) after the player
    had left the old table: the move is off and, in the same batch, the player goes back
    to their league seat (``send_back``); the next plan moves them again."""
    final = {}

    def build(t, lg, seq):
        halves = _ins.moves(t).get(r["move"], [])
        out = halves[0] if halves and halves[0]["action"] == "move_out" else None
        evs = [("instr_result", p, None)]
        if out is None or _ins.state(out) != "done":
            return evs, None
        evs += [("instr_result", _ins.cancel(h, "table %d refused the player: %s" % (
            r["to"][0], p.get("reason") or "no reason given")), None) for h in halves]
        left = "%s left table %d seat %d, but table %d refused them (%s)" % (
            r["player"], out["from"][0], out["from"][1], r["to"][0],
            p.get("reason") or "no reason given")
        back = "table %d refused them (%s)" % (r["to"][0], p.get("reason") or "no reason")
        return send_back(live, t, lg, seq, out, _ins.done_stack(out), left, back, evs,
                         final), None

    live.write(build)
    live.plan_due = True
    if final:
        live.send_seating([final["table"]])


def send_back(live, t, lg, seq, out, stack, left, back, evs, final):
    """*evs* (the batch so far) plus what sends the player of move_out *out*, who has left
    their table (*left* says how; *back* why, for the receive), back to their league seat
    with *stack* chips: a ``receive`` of their own (a newer move of theirs not carried out
    yet called off), or, with the final table drawn, their chips in its stacks (*final*
    gets its table: its seating is sent again).  When that seat cannot take them back (a
    broken table, another move heading there) they get another one (``reseat``); a newer
    move of theirs already under way gets a notice for the TD instead."""
    name, frm = out["player"], out["from"]
    e = t.get(name)
    if e is None or e.state != "in":
        return evs
    if t.final is not None:
        if stack is not None and name in t.final["seats"]:
            evs[0][1]["final_stack"] = {name: stack}
            final["table"] = t.final["table"]
            evs.append(("notice", {"text": "%s: they take their final-table seat with "
                                   "the %d chips they left with" % (left, stack),
                                   "src": []}, None))
        return evs
    c, whence = stack, None
    if c is None:
        c, whence = _ins.fallback_stack(t, out)
    mine = [h for h in _ins.moving_players(t).get(name, []) if h["move"] != out["move"]]
    if mine and _ins.state(mine[0]) == "done":
        evs.append(("notice", {"text": "%s, with %d chips; a newer move of theirs is under "
                               "way: the TD seats them (Confirm their next move in the console "
                               "with %d chips)" % (left, c, c), "src": []}, None))
        return evs
    evs += _ins.cancel_all(lg, t, mine, "%s left table %d already" % (name, frm[0]),
                           live.boxed)
    taken = {tuple(h[0]["to"]) for n, h in _ins.moving_players(t).items() if n != name}
    if frm[0] in _plan.broken_tables(t):
        evs += reseat(live, t, lg, seq, evs, name, c, [frm], "%s; table %d is broken" % (
            left, frm[0]))
    elif tuple(frm) in taken:
        evs += reseat(live, t, lg, seq, evs, name, c, [frm], "%s; another move is heading "
                      "for table %d seat %d" % (left, frm[0], frm[1]))
    else:
        evs.append(("instr", _ins.seat_player(
            lg, t, _instrs(evs), name, frm, c, "send %s back to table %d seat %d with %d "
            "chips: %s" % (name, frm[0], frm[1], c, back)), None))
    if whence is not None:
        evs.append(("notice", {"text": "table %d: no stack came with %s leaving seat %d; "
                               "they sit down with %d chips, %s: check them" % (
                                   frm[0], name, frm[1], c, whence), "src": []}, None))
    return evs


def _instrs(evs):
    return sum(1 for a, _, _ in evs if a == "instr")


def reseat(live, t, lg, seq, evs, name, stack, exclude, why, dead_bb=None):
    """The events (after the batch *evs*) that give *name*, standing with *stack* chips
    and no seat at any box, a new seat (tdhost.live.plan.new_seat: not in *exclude*, nor
    at a broken table): the league's ``move`` there at once (``by`` "host") and a
    ``receive`` of their own for its box (*dead_bb*: a latecomer's dead big blind goes
    along), with a notice saying why (*why*)."""
    seat, note = _plan.new_seat(live, t, name, seq, exclude=exclude)
    p = decide_move(t, name, seat)
    p.update({"at_ms": live.now, "instrs": [], "by": "host"})
    text = "seat %s at table %d seat %d with %d chips" % (name, seat[0], seat[1], stack)
    return [("move", p, None),
            ("instr", _ins.seat_player(lg, t, _instrs(evs), name, seat, stack, text,
                                       dead_bb), None),
            ("notice", {"text": "%s: %s%s" % (why, text, "; " + note if note else ""),
                        "src": []}, None)]


def refused_own(live, r, p):
    """A box refused a ``receive`` of a player's own *r* (a latecomer, a player sent back
    or seated elsewhere; result payload *p*): they stand with their chips and no seat.
    When the league still seats them there, in the same batch the receive is called off
    and they get another seat (``reseat``); with the final table drawn, a notice for the
    TD."""

    def build(t, lg, seq):
        evs = [("instr_result", p, None)]
        name, to = r.get("player"), r.get("to")
        e = t.get(name) if name else None
        stack = _ins.chips(r["body"].get("stack"))
        if e is None or e.state != "in" or not to or list(e.seat or ()) != list(to) \
                or stack is None:
            return evs, None
        why = "table %d refused %s at seat %d (%s)" % (to[0], name, to[1],
                                                      p.get("reason") or "no reason given")
        if t.final is not None:
            evs.append(("notice", {"text": "%s: the TD seats them, with %d chips" % (
                why, stack), "src": []}, None))
            return evs, None
        evs.append(("instr_result", _ins.cancel(r, "seated elsewhere"), None))
        return evs + reseat(live, t, lg, seq, evs, name, stack, [to], why,
                            r["body"].get("dead_bb")), None

    live.write(build)
    live.plan_due = True


# ------------------------------------------------------------------ plans
def plan(live):
    """Balance, break, or form the final table after a change (tdhost.rules.balance)."""
    after_bust, live.plan_due, live.plan_bust = live.plan_bust, False, False
    t = live.t
    if t.started is None or t.ended:
        return
    if after_bust:
        drop_refused(live)
    statuses = live.statuses()
    seed = (t.draw or {}).get("seed", live.seed)
    moving = _ins.moving_players(live.t)
    room = _plan.room(live.t, statuses, seed, moving)
    if sum(1 for tb in room["tables"] if tb["seats"]) < 2:
        return
    try:
        result = _balance.plan(room)
    except _balance.PlanError as err:
        live.notice("no plan: %s" % err)
        return
    if not result["final_table"] and drop_into_broken(live, result["broken"], moving):
        moving = _ins.moving_players(live.t)  # plan again without them
        room = _plan.room(live.t, statuses, seed, moving)
        try:
            result = _balance.plan(room)
        except _balance.PlanError as err:
            live.notice("no plan: %s" % err)
            return
    if result["final_table"]:
        if t.final is None:
            try:
                _final.final_table(live, seed)
            except ActionRefused as err:
                live.notice("the final table does not form yet: %s" % err)
        return

    def build(t2, lg, seq):
        evs, skipped = _plan.moves(lg, t2, result, statuses, moving)
        _redraw.mark(t2, result, evs)  # US 2: two or more joining one table re-draw
        return [("instr", p, None) for p in evs], skipped

    skipped = live.write(build)
    if skipped:
        log.info("not moved again while their move is pending: %s", ", ".join(skipped))


def _cancel(live, halves, why):
    """Call off the moves *halves* (lists of instructions), withdrawing what the boxes may
    still show (tdhost.live.instructions.cancel_all), in one batch."""
    ids = [r["id"] for h in halves for r in h]
    live.write(lambda t, lg, seq: (_ins.cancel_all(lg, t, [t.instrs[i] for i in ids], why,
                                                   live.boxed), None))


def drop_into_broken(live, broken, moving):
    """A plan that breaks a table cancels the pending moves into it that neither box has
    carried out yet (the player would sit down at a table that is breaking, then move
    again); returns True when it cancelled any.  A move whose one half is done goes on."""
    drop = [h for h in moving.values() if h[0]["to"][0] in broken
            and not any(_ins.state(r) == "done" for r in h)]
    if not drop:
        return False
    _cancel(live, drop, lambda r: "table %d breaks; a new plan replaces it" % r["to"][0])
    return True


def drop_refused(live):
    """A new plan after a bust replaces moves a box refused (neither half done)."""
    drop = [h for h in _ins.moves(live.t).values()
            if any(_ins.state(r) == "refused" for r in h)
            and not any(_ins.state(r) == "done" for r in h)]
    if drop:
        _cancel(live, drop, "refused by a box; a new plan replaces it")


# ------------------------------------------------------------------ the final table
def recover(live):
    """Finish what a host killed between two writes left half done (module notes): the
    pending moves of players who are out (tdhost.live.busts.after_bust), the final table's
    instructions when its draw has none after it."""
    t = live.t
    gone = [n for n in _ins.moving_players(t)
            if t.get(n) is None or t.get(n).state != "in"]
    if gone:
        _busts.after_bust(live, gone)
    f = t.final
    if f is not None and "had" in f and not t.ended:
        later = list(t.instrs.values())[f.get("instrs_before", 0):]
        if not any(r["action"] == "redraw" for r in later):
            log.warning("the final table's instructions were not written: writing them now")
            _final.final_instrs(live, f["had"])
