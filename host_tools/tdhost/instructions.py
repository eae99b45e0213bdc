"""Instructions to the boxes and their answers, as the league log keeps them
(docs/host.md, "The live night"; docs/protocol.md, "Instruction actions").

An instruction is an ``instr`` event (its id, action, table, the body sent to the box and,
for a move, the move it belongs to, the player and both seats); each answer is an
``instr_result`` event (``acknowledged``, ``done``, ``refused`` from the box or ``done``
from the TD's ``confirm``; ``cancelled`` by the host).  The state shown is derived:

    queued        written, no box of that table to send it to yet
    sent          given to the box's link (it resends until the box answers)
    acknowledged  the dealer saw it
    done          carried out (a box's ``done`` or the TD's ``confirm``)
    refused       the box could not carry it out (the reason is shown); the TD decides

A move is two instructions, ``move_out`` to the source box and ``receive`` to the
destination box; it is complete when **both** are ``done``, and only then is the league's
``move`` event written.  Other instructions are complete once acknowledged.  Ids are
``i<6 hex>-<n>``: the hex from the league, tournament number and set-up time, so a box
that remembers ids from another night never mistakes a new instruction for an old one.
"""

import hashlib

ACTIONS = ("move_out", "receive", "break_table", "redraw", "hand_for_hand_start",
           "hand_for_hand_stop", "next_hand", "pause", "resume", "message")
FINAL_FOR_MOVES = ("done",)


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


def complete(r):
    """No longer pending: cancelled; a move's half once the move is recorded; anything
    else once acknowledged or done."""
    if cancelled(r):
        return True
    if r.get("move"):
        return r.get("moved", False)
    return state(r) in ("acknowledged", "done")


def pending(t):
    """The instructions still pending, in the order they were written."""
    return [r for r in t.instrs.values() if not complete(r)]


def moves(t):
    """{move id: [move_out, receive]} of the moves not recorded and not cancelled."""
    out = {}
    for r in t.instrs.values():
        if r.get("move") and not r.get("moved") and not cancelled(r):
            out.setdefault(r["move"], []).append(r)
    return out


def moving_players(t):
    """{player: move halves} of the players whose move is still pending."""
    out = {}
    for halves in moves(t).values():
        out[halves[0]["player"]] = halves
    return out


def instr(iid, action, table, what, move=None, player=None, frm=None, to=None, **fields):
    """An ``instr`` payload; *what* says it in words (the log, the console); *fields* are
    the instruction's own (docs/protocol.md; None left out)."""
    body = {"id": iid, "action": action}
    for k, v in fields.items():
        if v is not None:
            body[k] = v
    return {"id": iid, "action": action, "table": table, "body": body, "move": move,
            "player": player, "from": frm, "to": to, "text": what}


def move_pair(lg, t, k, player, frm, to, stack):
    """The two ``instr`` payloads of moving *player* from seat *frm* [table, seat] to *to*;
    *k*: how many ids this batch has taken already."""
    out_id = new_id(lg, t, k)
    in_id = new_id(lg, t, k + 1)
    text = "move %s from table %d seat %d to table %d seat %d" % (player, frm[0], frm[1],
                                                                  to[0], to[1])
    return [
        instr(out_id, "move_out", frm[0], "%s (out)" % text, out_id, player, frm, to,
              seat=frm[1], to_table=to[0], to_seat=to[1]),
        instr(in_id, "receive", to[0], "%s (in)" % text, out_id, player, frm, to,
              seat=to[1], name=player, stack=stack, from_table=frm[0]),
    ]


def result(iid, res, by, text, reason=None, src=None):
    """An ``instr_result`` payload."""
    return {"id": iid, "result": res, "by": by, "reason": reason, "src": src or [],
            "text": text}


def cancel(r, why):
    return result(r["id"], "cancelled", "host", "cancelled %s: %s" % (r["text"], why), why)
