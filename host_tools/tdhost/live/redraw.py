"""US 2's re-draw for the deal on the live night: "If 2 or more players are moved to a new
table, all players on that table re-draw for deal" (docs/host.md §10.7, docs/rules.md §15).

A plan that moves two or more players to one table (``tdhost.rules.balance.redraw_tables``; the
profile's ``redraw_at_joins``) marks their move_outs with the plan's id (``mark``).  Once
every marked move to that table is done or called off and at least that many players have
sat down, ``step`` sends the table a ``redraw``; once its dealer confirms it and the box
reports a status between hands, the box gets the seating it builds its table from: the
seats and chips of that status, the names of the league and the button of a fresh draw for
high card (US 2 "*Seated players will determine the 1st dealer/button by drawing for high
card*"; tdhost.rules.draw.high_card_button, seeded by the draw's seed and the plan's id).  Each
moved player keeps the seat the plan gave them: the worst position, as close to their
prior position as the rule asks (docs/balancing.md, us_free).
"""

import random

from tdhost.live import instructions as _ins, plan as _plan
from tdhost.rules import balance as _balance, draw as _draw, house as _house


def mark(t, plan, payloads):
    """Tag the move_out *payloads* of *plan* heading to a table that re-draws (module
    notes) with the batch's first id; returns the tables."""
    _, hs = _house.get(t.setup["profile"])
    tables = set(_balance.redraw_tables(plan, hs))
    outs = [p for p in payloads if p["action"] == "move_out" and p["to"][0] in tables]
    for p in outs:
        p["redraw"] = outs[0]["id"]
    return sorted({p["to"][0] for p in outs})


def _groups(t):
    """{(group, table): [move_out records]} of the marked moves."""
    out = {}
    for r in t.instrs.values():
        if r["action"] == "move_out" and r.get("redraw"):
            out.setdefault((r["redraw"], r["to"][0]), []).append(r)
    return out


def _redraws(t):
    return {(r.get("redraw"), r["table"]): r for r in t.instrs.values()
            if r["action"] == "redraw" and r.get("redraw")}


def step(live):
    """One poll: write the ``redraw`` of every group whose moves are over (module notes),
    and send the seating to a table whose dealer confirmed one (``seat``)."""
    t = live.t
    if t.final is not None or t.ended:
        return
    _, hs = _house.get(t.setup["profile"])
    need = hs.get("redraw_at_joins")
    done = _redraws(t)
    due = []
    for (gid, table), outs in sorted(_groups(t).items()):
        if (gid, table) in done or any(not r.get("moved") and not _ins.cancelled(r)
                                       for r in outs):
            continue
        joined = [r["player"] for r in outs if r.get("moved")]
        if need and len(joined) >= need and table not in _plan.broken_tables(t):
            due.append((gid, table, joined))
    if due:
        def build(t2, lg, seq):
            evs = []
            for gid, table, joined in due:
                p = _ins.instr(_ins.new_id(lg, t2, len(evs)), "redraw", table,
                               "table %d: %s joined: everyone re-draws for the deal (US 2)"
                               % (table, " and ".join(joined)))
                p["redraw"] = gid
                evs.append(("instr", p, None))
            return evs, None
        live.write(build)
    latest = {}
    for (gid, table), r in _redraws(live.t).items():  # in the order they were written
        latest[table] = (gid, r)
    for table, (gid, r) in sorted(latest.items()):
        seat(live, r, gid, table)


def seating(live, gid, table, status):
    """The ``seating`` body that re-seats *table* after its re-draw: the league's names, the
    chips of the box's *status* when it was between hands (else none: the box builds
    nothing from it), the button of a draw for high card among the seats with chips."""
    names = {str(s): n for s, n in live.t.seating().get(table, {}).items()}
    stacks = {}  # only between hands: a hand's bets are not chips behind yet
    if isinstance(status, dict) and isinstance(status.get("stacks"), dict) \
            and status.get("street") is None:
        stacks = {k: v for k, v in status["stacks"].items() if k in names and v}
    msg = {"names": names}
    if len(stacks) >= 2:
        seed = (live.t.draw or {}).get("seed", live.seed)
        button, _ = _draw.high_card_button({int(k): names[k] for k in stacks},
                                           random.Random("%s|redraw|%s" % (seed, gid)))
        msg.update(stacks=stacks, button=button)
    return msg


def seating_for(live, table):
    """The seating of a *table* that has re-drawn (its last ``redraw`` of this kind, not
    cancelled), or None.  Every seating it gets from then on carries the box's own chips
    and the drawn button, so whenever the box builds its table from one -- after the
    dealer's Confirm, or again before the new table's first hand -- nothing changes but the
    button."""
    last = None
    for (gid, tb), r in _redraws(live.t).items():
        if tb == table and not _ins.cancelled(r):
            last = gid
    if last is None or live.t.final is not None:
        return None
    return seating(live, last, table, live.statuses().get(table))


def seat(live, r, gid, table):
    """Once the dealer confirmed *r* (the table's last ``redraw``), the first status
    between hands from its box after that answer (after a host restart: the first this run
    hears) brings it the seating (``seating_for``), once; a box that connects again gets
    it with its feed (``Live.seating_msg``).  Sent again to a box that has built its table
    already, it changes nothing."""
    if _ins.state(r) != "done":
        return
    v = live.view(table)
    st = live.statuses().get(table)
    if (v.redraw_at is not None and v.statuses <= v.redraw_at) or not isinstance(st, dict) \
            or st.get("street") is not None or v.redraw_sent == r["id"]:
        return
    v.redraw_sent = r["id"]
    live.send_seating([table])
