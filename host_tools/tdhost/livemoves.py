"""Plans on the live night and the moves they make (docs/host.md, "The live night",
§10.5–§10.7): making a plan after a change (tdhost.balance on tdhost.liveplan's room),
recording a move once both boxes have carried it out, dropping refused moves, and forming
the final table.  Functions of a ``tdhost.live.Live`` (their first argument).

``recover`` runs before the first plan after a (re)start (docs/host.md §10.3): what a host
killed between two writes left half done -- the pending moves of players out already, the
final table's instructions after its draw -- is finished then.
"""

import logging

from tdhost import (
    balance as _balance,
    instructions as _ins,
    livebusts as _busts,
    liveplan as _plan,
)
from tdhost.league import Refused

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
        p = t.decide_move(name, to)
        p.update({"at_ms": now, "instrs": [h["id"] for h in halves],
                  "by": "boxes" if all("done" in _ins.results(h, "box") for h in halves)
                  else "td"})
        return [("move", p, None)], True

    try:
        done = live.write(build)
    except Refused as err:
        log.warning("move of %s not recorded yet: %s", name, err)
        return False
    if done:
        live.plan_due = True
    return done


def plan(live):
    """Balance, break, or form the final table after a change (tdhost.balance)."""
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
                final_table(live, seed)
            except Refused as err:
                live.notice("the final table does not form yet: %s" % err)
        return

    def build(t2, lg, seq):
        evs, skipped = _plan.moves(lg, t2, result, statuses, moving)
        return [("instr", p, None) for p in evs], skipped

    skipped = live.write(build)
    if skipped:
        log.info("not moved again while their move is pending: %s", ", ".join(skipped))


def drop_into_broken(live, broken, moving):
    """A plan that breaks a table cancels the pending moves into it that neither box has
    carried out yet (the player would sit down at a table that is breaking, then move
    again); returns True when it cancelled any.  A move whose one half is done goes on."""
    drop = [h for h in moving.values() if h[0]["to"][0] in broken
            and not any(_ins.state(r) == "done" for r in h)]
    if not drop:
        return False
    live.write(lambda t, lg, seq: ([("instr_result", _ins.cancel(
        r, "table %d breaks; a new plan replaces it" % h[0]["to"][0]), None)
        for h in drop for r in h if not _ins.cancelled(r)], None))
    return True


def drop_refused(live):
    """A new plan after a bust replaces moves a box refused (neither half done)."""
    drop = [h for h in _ins.moves(live.t).values()
            if any(_ins.state(r) == "refused" for r in h)
            and not any(_ins.state(r) == "done" for r in h)]
    if not drop:
        return
    live.write(lambda t, lg, seq: ([("instr_result", _ins.cancel(
        r, "refused by a box; a new plan replaces it"), None)
        for h in drop for r in h if not _ins.cancelled(r)], None))


def final_table(live, seed, ace8=None):
    """The final table: pending moves off, the league's final draw (with the boxes' chips
    in its ``stacks``), ``redraw`` to every table with players, ``break_table`` to the
    others, the new seating to the final table's box.  Returns the draw's payload;
    Refused when it cannot form (nothing written then)."""
    t = live.t
    before = {tb: dict(s) for tb, s in t.seating().items()}
    statuses = live.statuses()
    stacks = {}
    for tb, seats in before.items():
        for s, name in seats.items():
            c = _plan.stack_at(statuses, tb, s)
            if c is not None:
                stacks[name] = c
    if ace8 is None:
        ace8 = (t.draw or {}).get("mode") == "Ace-8" and t.setup["seats_per_table"] <= 8

    def draw(t2, lg, seq):
        p = t2.decide_draw(seed, ace8, False, True)
        p["stacks"] = {n: c for n, c in stacks.items() if n in p["seats"]}
        # what `recover` needs when the host dies before the instructions are written
        p["had"] = sorted(tb for tb, s in before.items() if s)
        p["instrs_before"] = len(t2.instrs)
        return [("draw", p, None)], p

    p = live.write(draw)  # its own batch: `undo` takes back the draw, not the instructions
    final_instrs(live, p["had"])
    return p


def final_instrs(live, had):
    """After the final draw: pending moves off, ``redraw`` to the tables in *had* (those
    that had players), ``break_table`` to the others, the seating to the final table."""
    keep = live.t.final["table"]
    before = {tb: {"had": True} for tb in had}

    def instrs(t2, lg, seq):
        evs = [("instr_result", _ins.cancel(r, "the final table is drawn"), None)
               for h in _ins.moves(t2).values() for r in h]
        evs += [("instr", x, None) for x in _plan.final_instrs(lg, t2, before, keep)]
        return evs, None

    live.write(instrs)
    live.send_seating([keep])


def recover(live):
    """Finish what a host killed between two writes left half done (module notes): the
    pending moves of players who are out (tdhost.livebusts.after_bust), the final table's
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
            final_instrs(live, f["had"])
