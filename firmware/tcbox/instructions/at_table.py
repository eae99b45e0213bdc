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
from tableclock.floor import HISTORY, check_history
from tableclock.hand import BROKEN, HFH, HFH_ONE

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
# rebuilds it (tcbox/frames.py); tableclock.table lets hands start meanwhile
REDRAW = "redraw"


def carry_out(table, ins, names=None, table_no=None):
    """Carry out instruction *ins* (a dict as the link decodes it; a plain
    string is a message) on *table*.  Returns ``(result, reason, stack)``:
    result DONE, LATER or REFUSED, reason a sentence when REFUSED, else
    None; stack the chips a player moved out with (``move_out`` DONE), else
    None.  A refusal changes nothing (the table's ``error`` may show why).
    *names*: the host's seating at this box ({"3": "Ann"}), *table_no* its
    table: a ``move_out`` or ``take_out`` naming another player than the
    seat's, or a move to this very seat, is refused (``_fits``)."""
    if not isinstance(ins, dict):
        return DONE, None, None
    action = ins.get("action")
    fn = ACTIONS.get(action) if isinstance(action, str) else None
    if fn is None:
        return REFUSED, "This box does not know the instruction %r" % (str(action)[:20],), None
    try:
        if action == "move_out" or action == "take_out":
            _fits(table, ins, names, table_no)
        result = fn(table, ins)
    except Refused as e:
        return REFUSED, str(e), None
    if isinstance(result, tuple):  # (DONE, the stack a player left with)
        return result[0], None, result[1]
    return result, None, None


def settle(table):
    """Between hands, carry out the changes waiting in ``t.moves``, in
    order.  Returns ``[(instruction id, DONE or REFUSED, reason, stack)]``
    (stack: the chips of a player moved or taken out, else None; [] while
    a hand runs or nothing waits)."""
    out = []  # type: list
    if table.hand is not None:
        return out
    while table.moves:
        move = table.moves.pop(0)
        stack = None
        try:
            if move[1] == OUT:
                stack = _leave(table, move[2])
            elif move[1] == DEDUCT:
                _table(table, {"do": "deduct", "seat": move[2], "chips": move[3]})
            elif move[1] == IN:
                _open(table)
                ev = {"do": "sit", "seat": move[2], "stack": move[3],
                      "away_used": len(move) > 5 and move[5] is True}
                if len(move) > 6:  # the player's history (older records: none)
                    _history(ev, move[6])
                _table(table, ev)
            elif move[1] == TAKE:
                if move[2] in table.stacks:  # (the hand may have busted them already)
                    stack = _bust(table, move[2])
            else:
                raise Refused("This box does not know that waiting change")
            out.append((move[0], DONE, None, stack))
        except Refused as e:
            out.append((move[0], REFUSED, str(e), None))
    return out


def withdraw(table, iid):
    """Take instruction *iid*'s entry out of ``t.moves`` (the host called it
    off); returns the entry, or None when none waits."""
    if iid is None:
        return None
    for move in table.moves:
        if move[0] == iid:
            table.moves.remove(move)
            return move
    return None


def waiting(table, seat, kind):
    """Does a move of *kind* (OUT, IN) wait for *seat*?"""
    for move in table.moves:
        if move[1] == kind and move[2] == seat:
            return True
    return False


# ------------------------------------------------------------ the actions
def _table(table, ev):
    """Apply table event *ev*; a refusal becomes Refused (the table, unchanged,
    keeps the sentence in ``error`` for the screen)."""
    err = table.handle(ev)
    if err is not None:
        raise Refused(err)


def _seat(table, ins):
    seat = as_int(ins.get("seat"))
    if seat is None or seat < 1 or seat > table.n:
        raise Refused("There is no seat %s at this %d-seat table"
                      % (str(ins.get("seat"))[:8], table.n))
    return seat


def _open(table):
    if table.hold == BROKEN:
        raise Refused("This table is broken: it takes no players")


def _leave(table, seat):
    """*seat* leaves (``leave``); returns the chips they took along."""
    chips = table.stacks.get(seat)
    _table(table, {"do": "leave", "seat": seat})
    return chips


def _fits(table, ins, names, table_no):
    """A seat instruction must fit the seat: the player it names is the one
    the box seats there, and a move goes somewhere else (Refused, else None)."""
    seat = _seat(table, ins)
    want = ins.get("name")
    have = names.get(str(seat)) if isinstance(names, dict) else None
    if isinstance(want, str) and isinstance(have, str) and want != have:
        raise Refused("Seat %d is %s, not %s: ask the TD" % (seat, have[:24], want[:24]))
    if ins.get("action") == "move_out" and table_no is not None \
            and as_int(ins.get("to_table")) == table_no and as_int(ins.get("to_seat")) == seat:
        raise Refused("A move from seat %d to the same seat: ask the TD" % seat)


def _move_out(table, ins):
    seat = _seat(table, ins)
    if seat not in table.stacks:
        raise Refused("Seat %d is empty" % seat)
    if waiting(table, seat, OUT):
        raise Refused("Seat %d already moves after this hand" % seat)
    if table.hand is None:
        return DONE, _leave(table, seat)
    table.moves.append([ins.get("id"), OUT, seat, as_int(ins.get("to_table", ins.get("table"))),
                    as_int(ins.get("to_seat"))])
    return LATER


def _receive(table, ins):
    _open(table)
    seat = _seat(table, ins)
    chips = as_int(ins.get("stack"))
    if chips is None or chips <= 0 or chips > MAX_CHIPS:
        raise Refused("No chips given for the player arriving in seat %d: ask the TD" % seat)
    if waiting(table, seat, IN):
        raise Refused("Seat %d is taken by a player arriving after this hand" % seat)
    used = ins.get("away_used") is True  # LPPL ¶72: once per player, at any table
    counts = [ins.get(k, 0) for k in HISTORY]  # their warnings and penalties (TDA 64, LPPL ¶51)
    ev = {"do": "sit", "seat": seat, "stack": chips, "away_used": used}
    _history(ev, counts)
    if seat in table.stacks and (waiting(table, seat, OUT)
                                 or waiting(table, seat, TAKE)):  # free after the hand
        check_history(ev)  # refused now, not after the hand
        table.moves.append([ins.get("id"), IN, seat, chips,
                            as_int(ins.get("from_table", ins.get("table"))), used, counts])
        return LATER
    _table(table, ev)
    return DONE


def _history(ev, counts):
    """Put a player's history *counts* (HISTORY's order) into the ``sit`` *ev*."""
    for i in range(len(HISTORY)):
        if i < len(counts) and counts[i]:
            ev[HISTORY[i]] = counts[i]


def _deduct(table, ins):
    seat = _seat(table, ins)
    chips = as_int(ins.get("chips"))
    if chips is None or chips < 1 or chips > MAX_CHIPS:
        raise Refused("No chips given to remove from seat %d: ask the TD" % seat)
    if seat not in table.stacks:
        raise Refused("Seat %d is empty" % seat)
    if table.hand is None or seat not in table.hand.dealt:
        _table(table, {"do": "deduct", "seat": seat, "chips": chips})
        return DONE
    at = len(table.moves)  # in the hand: after it, before the seat's own move out
    for i in range(len(table.moves)):
        if table.moves[i][1] == OUT and table.moves[i][2] == seat:
            at = i
            break
    table.moves.insert(at, [ins.get("id"), DEDUCT, seat, chips, None])
    return LATER


def _take_out(table, ins):
    seat = _seat(table, ins)
    if seat not in table.stacks:
        return DONE  # taken out already (or busted in a hand)
    if table.hand is not None and seat in table.hand.live:
        if not waiting(table, seat, TAKE):
            table.moves.append([ins.get("id"), TAKE, seat, None, None])
            return LATER
        raise Refused("Seat %d is taken out after this hand already" % seat)
    return DONE, _bust(table, seat)


def _bust(table, seat):
    """*seat* is taken out (the table's ``bust``); returns the chips that left play."""
    chips = table.stacks[seat]
    _table(table, {"do": "bust", "seat": seat})
    return chips


def _withdraw(table, ins):
    """The table's part of a withdraw (tcbox/app.py does the rest): its
    entry out of ``moves``; refused when none waits here."""
    if withdraw(table, ins.get("instr")) is None:
        raise Refused("Instruction %s does not wait at this table" % str(ins.get("instr"))[:32])
    return DONE


def _break_table(table, ins):
    table.hold = BROKEN
    return DONE


def _nothing(table, ins):
    return DONE


def _redraw(table, ins):
    if table.hold != BROKEN:  # a broken table takes no seats
        table.hold = REDRAW
    return DONE


def _hfh_start(table, ins):
    if table.hold is None:  # already hand for hand (or broken): stays so
        table.hold = HFH
    return DONE


def _next_hand(table, ins):
    if table.hold == BROKEN:
        raise Refused("This table is broken: no more hands here")
    if table.hold is None:
        raise Refused("This table is not playing hand for hand")
    table.hold = HFH_ONE
    return DONE


def _hfh_stop(table, ins):
    if table.hold in (HFH, HFH_ONE):
        table.hold = None
    return DONE


def _pause(table, ins):
    if not table.clock.paused:
        _table(table, {"do": "pause"})
    return DONE


def _resume(table, ins):
    if table.clock.paused:
        _table(table, {"do": "resume"})
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
