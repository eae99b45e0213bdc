"""The final table on the live night (docs/host.md §10.7; LPPL ¶47 "Before the start of
any final table players seating positions are to be decided by use of the Ace – 8 card
system as per the start of the tournament", WPH 8 "Tables will combine at 10 players").
Functions of a ``tdhost.live.night.Live`` (their first argument).

- ``final_table``: the league's final draw, with each player's chips as the boxes last
  counted them (``stacks_now``) and where each one sits at a box now (``where_now``, the
  draw's ``from``); then ``final_instrs``: pending moves off (withdrawn), ``redraw`` to every
  table that had players, ``break_table`` to the others.
- ``final_seat`` (every poll): the final table sits down once every table has finished the
  hand it was playing at the draw; until then the boxes play at the seats they had
  (``Live.name_at`` reads the draw's ``from``) and the final table's seating has no chips.
"""

from tdhost.league.seats import decide_draw
from tdhost.live import instructions as _ins, plan as _plan

FINAL_WAIT_MS = 120000  # the final table waits this long at most for a table whose box is off


def where_now(live):
    """{player: [table, seat] or None}: where each player in the league's seating sits at a
    box now (the branches of ``stacks_now``): their seat; the destination of a move whose
    receive is carried out; None for a player between tables or whose own receive is not
    carried out (their chips are known from the instructions, not from a box)."""
    t = live.t
    moving = _ins.moving_players(t)
    arriving = _ins.arriving(t)
    out = {}
    for tb, seats in t.seating().items():
        for s, name in seats.items():
            halves = moving.get(name)
            if halves and len(halves) > 1 and _ins.state(halves[1]) == "done":
                out[name] = list(halves[1]["to"])
            elif (halves and _ins.walking(halves)) or name in arriving:
                out[name] = None
            else:
                out[name] = [tb, s]
    return out


def stacks_now(live):
    """{player: chips} as the boxes last counted them, for the final draw: each seat's
    stack in its box's last status; a player who sat down after a move not recorded yet:
    the destination box's; a player between two tables (their move_out done, their receive
    not): the chips they left with (the status of the table they left shows them no more);
    a player whose own receive is not carried out yet: its chips."""
    t = live.t
    statuses = live.statuses()
    moving = _ins.moving_players(t)
    arriving = {r["player"]: r["body"]["stack"] for r in t.instrs.values()
                if r["action"] == "receive" and not r.get("move") and r.get("player")
                and _ins.state(r) not in ("done", "cancelled") and r["body"].get("stack")}
    out = {}
    for tb, seats in t.seating().items():
        for s, name in seats.items():
            halves = moving.get(name)
            if halves and len(halves) > 1 and _ins.state(halves[1]) == "done":
                c = _plan.stack_at(statuses, *halves[1]["to"])
            elif halves and _ins.walking(halves):
                c = (halves[1]["body"].get("stack") if len(halves) > 1 else None) or \
                    _ins.done_stack(halves[0]) or _ins.fallback_stack(t, halves[0])[0]
            elif name in arriving:
                c = arriving[name]
            else:
                c = _plan.stack_at(statuses, tb, s)
            if c is not None:
                out[name] = c
    return out


def final_table(live, seed, ace8=None):
    """The final table: pending moves off, the league's final draw (with the boxes' chips
    in its ``stacks``: ``stacks_now``), ``redraw`` to every table with players,
    ``break_table`` to the others, the new seating to the final table's box.  Returns the
    draw's payload; ActionRefused when it cannot form (nothing written then)."""
    t = live.t
    before = {tb: dict(s) for tb, s in t.seating().items()}
    stacks = stacks_now(live)
    where = where_now(live)
    live.final_since = None  # final_seat waits afresh
    if ace8 is None:
        ace8 = (t.draw or {}).get("mode") == "Ace-8" and t.setup["seats_per_table"] <= 8

    def draw(t2, lg, seq):
        p = decide_draw(t2, seed, ace8, False, True)
        p["stacks"] = {n: c for n, c in stacks.items() if n in p["seats"]}
        # what `recover` needs when the host dies before the instructions are written
        p["had"] = sorted(tb for tb, s in before.items() if s)
        p["instrs_before"] = len(t2.instrs)
        # where each player sits until the final table sits down (``final_seat``)
        p["from"] = {n: where.get(n) for n in p["seats"]}
        return [("draw", p, None)], p

    p = live.write(draw)  # its own batch: `undo` takes back the draw, not the instructions
    final_instrs(live, p["had"])
    return p


def final_instrs(live, had):
    """After the final draw: pending moves off (withdrawn from the boxes), ``redraw`` to the
    tables in *had* (those that had players), ``break_table`` to the others, the seating to
    the final table."""
    keep = live.t.final["table"]
    before = {tb: {"had": True} for tb in had}

    def instrs(t2, lg, seq):
        evs = _ins.cancel_all(lg, t2, [r for h in _ins.moves(t2).values() for r in h],
                              "the final table is drawn", live.boxed)
        k = sum(1 for a, _, _ in evs if a == "instr")
        evs += [("instr", x, None) for x in _plan.final_instrs(lg, t2, before, keep, k)]
        return evs, None

    live.write(instrs)


def final_seat(live):
    """The final table sits down (docs/host.md §10.7).  Once every table that had players
    has confirmed its ``redraw`` and finished the hand it was playing at the draw -- a
    status from its box heard after that answer (a box sends one after every answer), between
    hands; every bust of that hand decided (a seat missing from that status whose player is
    still in makes it wait) -- a ``final_seated`` event fixes each finalist's chips: the
    seat's stack in that status (the draw's ``from``), or, for a player between tables at the
    draw or who left their table after it (``walked``: ``late_done``), the chips the
    instructions gave; and the final table's box gets its seating.  Until then that seating
    has no stacks, so no box builds the final table from chips counted before a hand ended.
    A table whose box is live is waited for as long as its hand lasts; one whose box is off
    or gone is waited for ``FINAL_WAIT_MS`` from the first look, then its players' chips are
    the draw's (the ``final_seated`` text says so).  The final table's box builds its table
    from that seating once its dealer has confirmed the redraw (Live sends it again then)."""
    t = live.t
    f = t.final
    if f is None or f.get("seated") or t.ended or "from" not in f or live.busts.open:
        return
    later = list(t.instrs.values())[f.get("instrs_before", 0):]
    redraw = {r["table"]: r for r in later if r["action"] == "redraw" and not _ins.cancelled(r)}
    if not redraw:
        return  # the instructions are not written yet (tdhost.live.moves.recover)
    if live.final_since is None:
        live.final_since = live.now
    statuses = live.statuses()
    stacks, late = {}, set()
    for name, where in sorted(f["from"].items()):
        e = t.get(name)
        if e is None or e.state != "in":
            continue
        if where is None or name in (f.get("walked") or ()) or not live.boxed(where[0]):
            c = (f.get("stacks") or {}).get(name)
        else:
            tb = where[0]
            st = statuses.get(tb)
            r = redraw.get(tb)
            v = live.view(tb)
            ready = isinstance(st, dict) and st.get("street") is None and r is not None \
                and _ins.state(r) == "done" and (v.redraw_at is None
                                                 or v.statuses > v.redraw_at)
            c = _plan.stack_at(statuses, tb, where[1]) if ready else None
            if c is None:  # a hand still running there, or a bust not decided yet
                lk = live.link_for(tb)
                if lk is not None and lk.state == "live":
                    return  # its dealer finishes the hand and confirms: wait
                late.add(tb)
                c = (f.get("stacks") or {}).get(name)
        if c:
            stacks[name] = c
    if late and live.now - live.final_since < FINAL_WAIT_MS:
        return
    text = "the final table sits down at table %d: %d players, %s chips" % (
        f["table"], len(stacks), "{:,}".format(sum(stacks.values())))
    if late:
        text += "; table%s %s did not report the end of its hand within %d s: the chips " \
                "of its players are from the draw" % ("s" if len(late) > 1 else "", ", ".join(
                    str(tb) for tb in sorted(late)), FINAL_WAIT_MS // 1000)
    live.write(lambda t2, lg, seq: ([("final_seated", {"stacks": stacks, "text": text},
                                      None)], None))
    live.send_seating([f["table"]])
