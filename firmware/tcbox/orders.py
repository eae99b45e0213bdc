"""What a host instruction does to the table: ``carry_out`` at the dealer's Confirm.

    result, reason, stack = carry_out(table, instruction)  # DONE, REFUSED or LATER
    for iid, result, reason, stack in settle(table): ...  # the LATERs, between hands

Every effect goes through the table's own events or its ``hold`` and
``moves``, so the power-loss record keeps it.  Each action, its fields and
its answers: docs/protocol.md "Instruction actions"; what the dealer sees:
docs/box.md "Instructions from the host"; why a seat change waits for the
hand's end: docs/rules.md §14.  Pure: no hardware imports.
"""

from tableclock.fields import MAX_CHIPS, Refused, as_int
from tableclock.table import BROKEN, HFH, HFH_ONE

DONE = "done"
REFUSED = "refused"
LATER = "later"
OUT = 0  # a move's kind (table.moves[i][1]): the player leaves
IN = 1  # ... a player arrives
DEDUCT = 2  # ... chips are removed from the seat's stack
TAKE = 3  # ... the seat's player is out (the TD's bust): taken out
# the reasons of a withdraw's answers (docs/protocol.md, "withdraw")
WITHDRAWN = "withdrawn by the host"  # the called-off instruction's ``refused``
CARRIED_OUT = "already carried out"  # the withdraw's ``refused``: too late
# the table's hold after a confirmed ``redraw``: its next seating from the host
# rebuilds it (tcbox/linkhost.py); tableclock.table lets hands start meanwhile
REDRAW = "redraw"


def carry_out(t, ins):
    """Carry out instruction *ins* (a dict as the link decodes it; a plain
    string is a message) on table *t*.  Returns ``(result, reason, stack)``:
    result DONE, LATER or REFUSED, reason a sentence when REFUSED, else
    None; stack the chips a player moved out with (``move_out`` DONE), else
    None.  A refusal changes nothing (the table's ``error`` may show why)."""
    if not isinstance(ins, dict):
        return DONE, None, None
    a = ins.get("action")
    fn = ACTIONS.get(a) if isinstance(a, str) else None
    if fn is None:
        return REFUSED, "This box does not know the instruction %r" % (str(a)[:20],), None
    try:
        r = fn(t, ins)
    except Refused as e:
        return REFUSED, str(e), None
    if isinstance(r, tuple):  # (DONE, the stack a player left with)
        return r[0], None, r[1]
    return r, None, None


def settle(t):
    """Between hands, carry out the changes waiting in ``t.moves``, in
    order.  Returns ``[(instruction id, DONE or REFUSED, reason, stack)]``
    (stack: the chips of a player moved or taken out, else None; [] while
    a hand runs or nothing waits)."""
    out = []  # type: list
    if t.hand is not None:
        return out
    while t.moves:
        m = t.moves.pop(0)
        stack = None
        try:
            if m[1] == OUT:
                stack = _leave(t, m[2])
            elif m[1] == DEDUCT:
                _table(t, {"do": "deduct", "seat": m[2], "chips": m[3]})
            elif m[1] == IN:
                _open(t)
                _table(t, {"do": "sit", "seat": m[2], "stack": m[3],
                           "away_used": len(m) > 5 and m[5] is True})
            elif m[1] == TAKE:
                if m[2] in t.stacks:  # (the hand may have busted them already)
                    stack = _bust(t, m[2])
            else:
                raise Refused("This box does not know that waiting change")
            out.append((m[0], DONE, None, stack))
        except Refused as e:
            out.append((m[0], REFUSED, str(e), None))
    return out


def withdraw(t, iid):
    """Take instruction *iid*'s entry out of ``t.moves`` (the host called it
    off); returns the entry, or None when none waits."""
    if iid is None:
        return None
    for m in t.moves:
        if m[0] == iid:
            t.moves.remove(m)
            return m
    return None


def waiting(t, seat, kind):
    """Does a move of *kind* (OUT, IN) wait for *seat*?"""
    for m in t.moves:
        if m[1] == kind and m[2] == seat:
            return True
    return False


# ------------------------------------------------------------ the actions
def _table(t, ev):
    """Apply table event *ev*; a refusal becomes Refused (the table, unchanged,
    keeps the sentence in ``error`` for the screen)."""
    err = t.handle(ev)
    if err is not None:
        raise Refused(err)


def _seat(t, ins):
    s = as_int(ins.get("seat"))
    if s is None or s < 1 or s > t.n:
        raise Refused("There is no seat %s at this %d-seat table" % (str(ins.get("seat"))[:8], t.n))
    return s


def _open(t):
    if t.hold == BROKEN:
        raise Refused("This table is broken: it takes no players")


def _leave(t, s):
    """Seat *s* leaves (``leave``); returns the chips they took along."""
    c = t.stacks.get(s)
    _table(t, {"do": "leave", "seat": s})
    return c


def _move_out(t, ins):
    s = _seat(t, ins)
    if s not in t.stacks:
        raise Refused("Seat %d is empty" % s)
    if waiting(t, s, OUT):
        raise Refused("Seat %d already moves after this hand" % s)
    if t.hand is None:
        return DONE, _leave(t, s)
    t.moves.append([ins.get("id"), OUT, s, as_int(ins.get("to_table", ins.get("table"))),
                    as_int(ins.get("to_seat"))])
    return LATER


def _receive(t, ins):
    _open(t)
    s = _seat(t, ins)
    c = as_int(ins.get("stack"))
    if c is None or c <= 0 or c > MAX_CHIPS:
        raise Refused("No chips given for the player arriving in seat %d: ask the TD" % s)
    if waiting(t, s, IN):
        raise Refused("Seat %d is taken by a player arriving after this hand" % s)
    used = ins.get("away_used") is True  # LPPL ¶72: once per player, at any table
    if s in t.stacks and (waiting(t, s, OUT) or waiting(t, s, TAKE)):  # free after the hand
        t.moves.append([ins.get("id"), IN, s, c, as_int(ins.get("from_table", ins.get("table"))),
                        used])
        return LATER
    _table(t, {"do": "sit", "seat": s, "stack": c, "away_used": used})
    return DONE


def _deduct(t, ins):
    s = _seat(t, ins)
    c = as_int(ins.get("chips"))
    if c is None or c < 1 or c > MAX_CHIPS:
        raise Refused("No chips given to remove from seat %d: ask the TD" % s)
    if s not in t.stacks:
        raise Refused("Seat %d is empty" % s)
    if t.hand is None or s not in t.hand.dealt:
        _table(t, {"do": "deduct", "seat": s, "chips": c})
        return DONE
    at = len(t.moves)  # in the hand: after it, before the seat's own move out
    for i in range(len(t.moves)):
        if t.moves[i][1] == OUT and t.moves[i][2] == s:
            at = i
            break
    t.moves.insert(at, [ins.get("id"), DEDUCT, s, c, None])
    return LATER


def _take_out(t, ins):
    s = _seat(t, ins)
    if s not in t.stacks:
        return DONE  # taken out already (or busted in a hand)
    if t.hand is not None and s in t.hand.live:
        if not waiting(t, s, TAKE):
            t.moves.append([ins.get("id"), TAKE, s, None, None])
            return LATER
        raise Refused("Seat %d is taken out after this hand already" % s)
    return DONE, _bust(t, s)


def _bust(t, s):
    """Seat *s* is taken out (the table's ``bust``); returns the chips that left play."""
    c = t.stacks[s]
    _table(t, {"do": "bust", "seat": s})
    return c


def _withdraw(t, ins):
    """The table's part of a withdraw (tcbox/app.py does the rest): its
    entry out of ``moves``; refused when none waits here."""
    if withdraw(t, ins.get("instr")) is None:
        raise Refused("Instruction %s does not wait at this table" % str(ins.get("instr"))[:32])
    return DONE


def _break_table(t, ins):
    t.hold = BROKEN
    return DONE


def _nothing(t, ins):
    return DONE


def _redraw(t, ins):
    if t.hold != BROKEN:  # a broken table takes no seats
        t.hold = REDRAW
    return DONE


def _hfh_start(t, ins):
    if t.hold is None:  # already hand for hand (or broken): stays so
        t.hold = HFH
    return DONE


def _next_hand(t, ins):
    if t.hold == BROKEN:
        raise Refused("This table is broken: no more hands here")
    if t.hold is None:
        raise Refused("This table is not playing hand for hand")
    t.hold = HFH_ONE
    return DONE


def _hfh_stop(t, ins):
    if t.hold in (HFH, HFH_ONE):
        t.hold = None
    return DONE


def _pause(t, ins):
    if not t.clock.paused:
        _table(t, {"do": "pause"})
    return DONE


def _resume(t, ins):
    if t.clock.paused:
        _table(t, {"do": "resume"})
    return DONE


ACTIONS = {
    "move_out": _move_out,
    "receive": _receive,
    "deduct": _deduct,
    "take_out": _take_out,
    "withdraw": _withdraw,
    "break_table": _break_table,
    "redraw": _redraw,
    "message": _nothing,
    "hand_for_hand_start": _hfh_start,
    "next_hand": _next_hand,
    "hand_for_hand_stop": _hfh_stop,
    "pause": _pause,
    "resume": _resume,
}
