"""Instructions to the boxes and their answers, as the league log keeps them
(docs/host.md, "The live night", §10.6; docs/protocol.md, "Instruction actions").

An instruction is an ``instr`` event (its id, action, table, the body sent to the box and,
for a move, the move it belongs to, the player and both seats); each answer is an
``instr_result`` event (``acknowledged``, ``done``, ``refused`` from the box -- a
``move_out``'s ``done`` with the ``stack`` the player left with -- or ``done`` from the TD's
``confirm``, with a ``stack`` for a move_out if the TD gives one; ``cancelled`` by the
host).  The state shown is derived:

    queued        written, no box of that table to send it to yet
    sent          given to the box's link (it resends until the box answers)
    acknowledged  the dealer saw it
    done          carried out (a box's ``done`` or the TD's ``confirm``)
    refused       the box could not carry it out (the reason is shown); the TD decides

A move starts as one instruction, the ``move_out`` to the source box (its payload keeps
``planned_stack``: the chips the source box's last status showed when the move was planned,
the last resort for the receive).  Once the move_out is done the ``receive`` to the
destination box is written (same move id) with the chips the player left with.  The move is
complete when **both** are ``done``, and only then is the league's ``move`` event written.
Other instructions are complete once acknowledged (a ``withdraw`` once the box answered it
at all).  A cancelled instruction the box may still show gets a ``withdraw`` (``cancel``).
Ids are ``i<6 hex>-<n>``: the hex from the league, tournament number and set-up time, so a
box that remembers ids from another night never mistakes a new instruction for an old one.
"""

import hashlib

ACTIONS = ("move_out", "receive", "break_table", "redraw", "hand_for_hand_start",
           "hand_for_hand_stop", "next_hand", "pause", "resume", "message", "withdraw",
           "deduct", "take_out")
FINAL = ("done", "refused")  # a box's answers after which it shows the instruction no more


def salt(lg, t):
    return hashlib.sha256(("%s|%d|%s" % (lg.name, t.number, t.created)).encode(
        "utf-8")).hexdigest()[:6]


def new_id(lg, t, k=0):
    """The id of the next instruction (*k* more after the next, in one batch)."""
    return "i%s-%d" % (salt(lg, t), len(t.instrs) + 1 + k)


def results(r, by=None):
    return [x["result"] for x in r["results"] if by is None or x.get("by") == by]


def cancelled(r):
    return "cancelled" in results(r)


def state(r, sent=False):
    """The instruction's state (module notes); "cancelled" for a cancelled one."""
    res = results(r)
    if "cancelled" in res:
        return "cancelled"
    for s in ("done", "refused", "acknowledged"):
        if s in res:
            return s
    return "sent" if sent else "queued"


def reason(r):
    for x in reversed(r["results"]):
        if x["result"] == "refused":
            return x.get("reason") or "no reason given"
    return None


def chips(v):
    """*v* as a stack of chips (a whole number >= 1), else None."""
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else None


def done_stack(r):
    """The chips of *r*'s ``done`` answers (a move_out's: what the player left with; the
    box's answer first, then the TD's), or None."""
    for by in ("box", "td"):
        for x in r["results"]:
            if x["result"] == "done" and x.get("by") == by and chips(x.get("stack")):
                return x["stack"]
    return None


def complete(r):
    """No longer pending: cancelled; a move's half once the move is recorded; a withdraw
    once the box answered; anything else once acknowledged or done."""
    if cancelled(r):
        return True
    if r.get("move"):
        return r.get("moved", False)
    if r["action"] == "withdraw":
        return state(r) in ("acknowledged", "done", "refused")
    return state(r) in ("acknowledged", "done")


def pending(t):
    """The instructions still pending, in the order they were written."""
    return [r for r in t.instrs.values() if not complete(r)]


def take_outs(t):
    """The ``take_out``s not carried out yet (not cancelled, no ``done`` from the box or
    the TD): their seats still hold the player the TD entered out."""
    return [r for r in t.instrs.values() if r["action"] == "take_out" and not cancelled(r)
            and "done" not in results(r)]


def moves(t):
    """{move id: [move_out] or [move_out, receive]} of the moves not recorded and not
    cancelled (the receive exists once the move_out is done)."""
    out = {}
    for r in t.instrs.values():
        if r.get("move") and not r.get("moved") and not cancelled(r):
            out.setdefault(r["move"], []).append(r)
    for halves in out.values():
        halves.sort(key=lambda r: r["action"] != "move_out")
    return out


def moving_players(t):
    """{player: move halves} of the players whose move is still pending."""
    out = {}
    for halves in moves(t).values():
        out[halves[0]["player"]] = halves
    return out


def walking(halves):
    """Has the player of this move left the old table (the move_out done) but not sat down
    at the new one (no receive done yet)?"""
    return state(halves[0]) == "done" and (len(halves) < 2 or state(halves[1]) != "done")


def arriving(t):
    """Players with a ``receive`` of their own (not a move's: a latecomer, a standby
    player, a player sent back to their seat) not carried out yet: not moved meanwhile."""
    return {r["player"] for r in t.instrs.values()
            if r["action"] == "receive" and not r.get("move") and r.get("player")
            and state(r) not in ("done", "cancelled")}


def instr(iid, action, table, what, move=None, player=None, frm=None, to=None, **fields):
    """An ``instr`` payload; *what* says it in words (the log, the console); *fields* are
    the instruction's own (docs/protocol.md; None left out)."""
    body = {"id": iid, "action": action}
    for k, v in fields.items():
        if v is not None:
            body[k] = v
    return {"id": iid, "action": action, "table": table, "body": body, "move": move,
            "player": player, "from": frm, "to": to, "text": what}


def _move_text(player, frm, to):
    return "move %s from table %d seat %d to table %d seat %d" % (player, frm[0], frm[1],
                                                                  to[0], to[1])


def move_out(lg, t, k, player, frm, to, stack, away_used=False):
    """The ``instr`` payload of a move's first half: *player* leaves seat *frm* [table,
    seat] for *to*; *stack*: the chips the source box's last status showed (None: unknown),
    kept as the receive's last resort; *away_used*: that status showed the player has used
    LPPL ¶72's once-per-player allowance (the receive carries it to the new table).  *k*:
    how many ids this batch has taken already."""
    out_id = new_id(lg, t, k)
    p = instr(out_id, "move_out", frm[0], "%s (out)" % _move_text(player, frm, to), out_id,
              player, frm, to, seat=frm[1], to_table=to[0], to_seat=to[1])
    p["planned_stack"] = stack
    if away_used:
        p["away_used"] = True
    return p


def receive(lg, t, k, out, stack):
    """The ``instr`` payload of the second half of the move whose move_out is *out*: the
    player sits down at the destination with *stack* chips."""
    frm, to, player = out["from"], out["to"], out["player"]
    return instr(new_id(lg, t, k), "receive", to[0], "%s (in, %d chips)" % (
        _move_text(player, frm, to), stack), out["move"], player, frm, to, seat=to[1],
        name=player, stack=stack, from_table=frm[0],
        away_used=True if out.get("away_used") else None)


def seat_player(lg, t, k, player, seat, stack, what, dead_bb=False):
    """The ``instr`` payload of a player's own ``receive`` (no move: a latecomer, a player
    sent back to the seat they left or seated elsewhere): the box at *seat* [table, seat]
    seats *player* with *stack* chips (*dead_bb*: a latecomer's dead big blind to enter);
    *what* says it in the log.  *k*: how many ids this batch has taken already."""
    return instr(new_id(lg, t, k), "receive", seat[0], what, player=player, to=list(seat),
                 seat=seat[1], name=player, stack=stack, dead_bb=True if dead_bb else None)


def take_out(lg, t, k, player, seat, why):
    """The ``instr`` payload of a ``take_out`` (protocol 1.3): the box at *seat* [table,
    seat] takes *player* out of it; *why* ends the sentence in the log ("entered by the
    TD").  *k*: how many ids this batch has taken already."""
    return instr(new_id(lg, t, k), "take_out", seat[0], "table %d: take seat %d out (%s is "
                 "out, %s)" % (seat[0], seat[1], player, why), player=player, to=list(seat),
                 seat=seat[1], name=player)


def withdraw(lg, t, k, r):
    """A ``withdraw`` of instruction *r* (the host called it off) to *r*'s table's box."""
    return instr(new_id(lg, t, k), "withdraw", r["table"], "withdraw from table %d: %s"
                 % (r["table"], r["text"]), player=r.get("player"), instr=r["id"])


def withdrawn(t):
    """The ids of the instructions a ``withdraw`` was written for."""
    return {r["body"].get("instr") for r in t.instrs.values() if r["action"] == "withdraw"}


def result(iid, res, by, text, reason=None, src=None, stack=None):
    """An ``instr_result`` payload (*stack*: a done move_out's chips, when known)."""
    p = {"id": iid, "result": res, "by": by, "reason": reason, "src": src or [], "text": text}
    if stack is not None:
        p["stack"] = stack
    return p


def cancel(r, why):
    return result(r["id"], "cancelled", "host", "cancelled %s: %s" % (r["text"], why), why)


def cancel_all(lg, t, rs, why, boxed, k=0):
    """The events that call off the instructions *rs* (those not cancelled yet): a
    ``cancelled`` answer each, and a ``withdraw`` to the box of each that its box has not
    answered ``done`` or ``refused`` when *boxed(table)* says the table has a box -- in one
    batch, so a host killed in between leaves neither.  *why*: the reason (text, or a
    function of the instruction).  *k*: ids this batch has taken already."""
    evs, out, seen = [], [], withdrawn(t)
    for r in rs:
        if cancelled(r) or r["id"] in [x["id"] for x in out]:
            continue
        out.append(r)
        evs.append(("instr_result", cancel(r, why(r) if callable(why) else why), None))
    for r in out:
        if r["action"] == "withdraw" or r["id"] in seen:
            continue
        if any(x in FINAL for x in results(r, "box")) or not boxed(r["table"]):
            continue
        evs.append(("instr", withdraw(lg, t, k, r), None))
        k += 1
    return evs


def fallback_stack(t, out):
    """(chips, where they come from) for the receive of move_out *out* when nobody said
    what the player left with: the stack planned with the move, else their chips at
    entry."""
    c = chips(out.get("planned_stack"))
    if c is not None:
        return c, "the stack table %d's box showed when the move was planned" % out["table"]
    e = t.get(out["player"])
    c = chips(((e.stack or 0) - e.deducted) if e is not None else None)
    return (c or t.setup["starting_stack"]), "their chips at entry (no status showed them)"
