"""The live night's balancing and breaking (docs/host.md, "The live night", "Plans";
docs/balancing.md for the plan itself).

``room`` builds the ``tdhost plan`` input from the league and the boxes:

- **who sits where**: the league's seating, with every pending move counted as made (the
  player at the destination seat), so a new plan never gives a seat twice, and every seat
  offered to a standby player (LPPL ¶15) counted as taken: the standby player sits there;
- **button, small and big blind** (the last hand's, as ``tdhost plan`` wants them): the
  box's last ``status`` (``button``, ``sb_seat``, ``bb_seat``) when it has one that makes
  sense at that table; otherwise -- no box, no status yet -- the positions the box would
  deal its first hand with from the draw's button (``tableclock.button.first_positions``),
  i.e. as if that table had just played its first hand;
- the tables closed by an earlier ``break_table`` are left out once empty;
- **who has moved tonight** (``moved``, a tie-break of the plan): every player with a
  recorded ``move`` or a ``move_out`` that was not cancelled.

``moves`` turns a plan into instructions: ``break_table`` to each newly broken table and
a ``move_out`` per move (its ``receive`` follows once the player has left: tdhost.live.moves),
except for a player whose earlier move is still pending (never a second wave of moves for
one player), a player whose own ``receive`` is not carried out yet (a latecomer, a player
sent back to their seat: not at the table yet) and a seat kept for a standby player.
"""

import random

from tdhost.league.seats import pick_seat
from tdhost.live import instructions as _ins
from tdhost.rules import house as _house, seats as _seats


def broken_tables(t):
    """Tables an earlier plan broke (their ``break_table`` instruction, not cancelled)."""
    return {r["table"] for r in t.instrs.values()
            if r["action"] == "break_table" and not _ins.cancelled(r)}


STANDBY = "standby for "  # a seat offered to a standby player: taken, by nobody who moves


def seating_after_moves(t, moving=None):
    """{table: {seat: name}}: the league's seating with the pending moves made, and the
    seats offered to standby players taken (by ``STANDBY`` + the seat's old player)."""
    seating = {tb: dict(s) for tb, s in t.seating().items()}
    # a move counts as made from its move_out on (its receive follows once the player left)
    for name, halves in (moving if moving is not None else _ins.moving_players(t)).items():
        frm, to = halves[0]["from"], halves[0]["to"]
        if seating.get(frm[0], {}).get(frm[1]) == name:
            del seating[frm[0]][frm[1]]
        seating.setdefault(to[0], {})[to[1]] = name
    for offer, who in t.offer_pairs():
        tb, s = offer["seat"]
        if who is not None and s not in seating.get(tb, {}):
            seating.setdefault(tb, {})[s] = STANDBY + offer["freed_by"]
    return seating


def taken_seats(t):
    """Seats a newcomer must not be drawn into: the destinations of pending moves, and
    the seats of take_outs not carried out yet (the box still seats that player)."""
    return [tuple(h[0]["to"]) for h in _ins.moving_players(t).values()] + [
        (r["table"], r["body"]["seat"]) for r in _ins.take_outs(t)]


def spare_tables(live, t):
    """Spare boxes: the numbers of tables whose box is linked, with no players (a move
    heading there counts) and not broken, in order."""
    closed = broken_tables(t)
    seating = seating_after_moves(t)
    return sorted({lk.table for lk in live.links
                   if lk.box is not None and lk.table is not None and lk.table not in closed
                   and not seating.get(lk.table)})


def new_seat(live, t, name, seq, spare=None, exclude=()):
    """(seat, note) for a player who needs a seat on the live night -- a latecomer, a
    player whose seat was refused (docs/host.md §10.6): never at a broken table, nor in a
    seat a pending move heads for, nor in *exclude*; with every table full, a spare box
    (*spare*: ``spare_tables``, found when None) before a new number -- which has no box:
    *note* says so.  The table is the emptiest (``League.pick_seat``); the seat there
    follows the profile's ``join_seating`` (``joining_seat``)."""
    closed = broken_tables(t)
    if spare is None:
        spare = spare_tables(live, t)
    excluded = taken_seats(t) + [tuple(x) for x in exclude]
    seat = pick_seat(t, name, seq, exclude=excluded, closed=closed, spare=spare)
    better = joining_seat(live, t, seat[0], excluded, "%s|%s" % (seq, name))
    if better is not None:
        seat = [seat[0], better]
    used = t.tables_used | set(t.seating())
    if seat[0] not in used and live.link_for(seat[0]) is None:
        return seat, "table %d has no box: confirm its instructions in the console" % seat[0]
    return seat, None


def joining_seat(live, t, table, excluded, salt):
    """The seat at *table* for a player joining it (a latecomer, a player seated elsewhere)
    by the profile's ``join_seating`` (tdhost.rules.house), from the table's last positions
    (``positions``: its box's last status); None to keep the draw's seat (``draw``, or a
    table with fewer than two players: no positions to go by).

    ``worst`` (LPPL ¶45 "New players joining a table join from the Big Blind position or
    the next available seat to the left of the Big Blind"): the first free seat clockwise
    after the last BB seat, as for a balancing move (tdhost.rules.seats.bb_soonest_seats).
    ``dealt_in`` (WPH 7 "can get any seat ... and be dealt in, except between the SB and
    button"): a seeded draw among the free seats where the box deals them in at once
    (tdhost.rules.seats.draw_seats with the profile's wait zone)."""
    box, hs = _house.get(t.setup["profile"])
    how = hs["join_seating"]
    seating = seating_after_moves(t).get(table, {})
    if how == "draw" or len(seating) < 2:
        return None
    n = t.setup["seats_per_table"]
    b, sb, bb = positions(t, table, seating, live.statuses().get(table))
    occupied = set(seating) | set(t.seating().get(table, {}))
    blocked = occupied | {s for tb, s in list(excluded) + list(t.offered_seats())
                          if tb == table}
    room_table = {"seats": dict.fromkeys(occupied, ""), "button": b, "sb": sb, "bb": bb}
    if how == "worst":
        free = [s for s in _seats.bb_soonest_seats(room_table, n) if s not in blocked]
        return free[0] if free else None
    ok, fallback = _seats.draw_seats(room_table, n, box["wait_zone"])
    ok = [s for s in ok if s not in blocked]
    if ok:
        return random.Random("%s|join|%s" % (t.number, salt)).choice(ok)
    fallback = [s for s in fallback if s not in blocked]
    return fallback[0] if fallback else None


def positions(t, table, seats, status):
    """(button, sb or None, bb) of the last hand at *table* (module notes;
    tdhost.rules.seats.last_positions)."""
    reported = None
    if isinstance(status, dict):
        reported = (status.get("button"), status.get("sb_seat"), status.get("bb_seat"))
    drawn = (t.final or t.draw or {}).get("tables", {}).get(str(table), {})
    return _seats.last_positions(reported, sorted(seats), drawn.get("button"),
                                 t.setup["seats_per_table"])


def room(t, statuses, seed, moving=None):
    """The plan input (docs/balancing.md) for tournament *t*; *statuses*: {table: the box's
    last status}."""
    seating = seating_after_moves(t, moving)
    broken = broken_tables(t)
    tables = []
    for tb in sorted(set(t.tables_used) | set(seating)):
        seats = seating.get(tb, {})
        if tb in broken and not seats:
            continue
        b, sb, bb = positions(t, tb, seats, statuses.get(tb))
        tables.append({"table": tb, "seats": {str(s): p for s, p in sorted(seats.items())},
                       "button": b, "sb": sb, "bb": bb})
    return {"profile": t.setup["profile"], "seats_per_table": t.setup["seats_per_table"],
            "seed": seed, "tables": tables, "moved": moved_tonight(t)}


def moved_tonight(t):
    """Players who have moved tables tonight: a ``move`` the league recorded (the TD's, a
    box's, the host's), or a ``move_out`` of theirs not cancelled (a move under way)."""
    return sorted({m["name"] for m in t.moves if m.get("name")} | {
        r["player"] for r in t.instrs.values()
        if r["action"] == "move_out" and r.get("player") and not _ins.cancelled(r)})


def stack_at(statuses, table, seat):
    st = statuses.get(table)
    if isinstance(st, dict) and isinstance(st.get("stacks"), dict):
        v = st["stacks"].get(str(seat))
        if isinstance(v, int) and not isinstance(v, bool):
            return v
    return None


def away_used_at(statuses, table, seat):
    """Has the player at *table* *seat* used LPPL ¶72's allowance (the box's last status)?"""
    st = statuses.get(table)
    used = st.get("away_used") if isinstance(st, dict) else None
    return isinstance(used, list) and seat in used


def moves(lg, t, plan, statuses, moving):
    """(``instr`` payloads, players skipped) for a plan that is not the final table."""
    out = []
    broken = broken_tables(t)
    for tb in plan["broken"]:
        if tb not in broken:
            out.append(_ins.instr(_ins.new_id(lg, t, len(out)), "break_table", tb,
                                  "break table %d" % tb))
    skipped = []
    arriving = _ins.arriving(t)
    for m in plan["moves"]:
        if m["player"] in moving or m["player"] in arriving or m["player"].startswith(STANDBY):
            skipped.append(m["player"])
            continue
        frm = [m["from"]["table"], m["from"]["seat"]]
        to = [m["to"]["table"], m["to"]["seat"]]
        out.append(_ins.move_out(lg, t, len(out), m["player"], frm, to,
                                 stack_at(statuses, frm[0], frm[1]),
                                 away_used_at(statuses, frm[0], frm[1])))
    return out, skipped


def final_instrs(lg, t, before, keep, k=0):
    """After the final-table draw: ``redraw`` to every table that had players (*before*:
    {table: {seat: name}}), ``break_table`` to every other table still open.  *k*: ids the
    batch has taken already."""
    out = []
    had = sorted(tb for tb, s in before.items() if s)
    for tb in had:
        out.append(_ins.instr(_ins.new_id(lg, t, k + len(out)), "redraw", tb,
                              "final-table redraw at table %d" % tb))
    broken = broken_tables(t)
    for tb in sorted(set(had) | set(before)):
        if tb != keep and tb not in broken:
            out.append(_ins.instr(_ins.new_id(lg, t, k + len(out)), "break_table", tb,
                                  "break table %d (the final table is table %d)" % (tb, keep)))
    return out
