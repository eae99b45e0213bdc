"""The box events: their fields, an instruction's answer, what matters most
when room is short, and the ``event`` message of an outbox entry
(docs/protocol.md, "Box events" and "Box facts").  No hardware imports.
"""

# box event: its fields after "what", in the order of the outbox's compact lists
EVENT_FIELDS = {
    "hand_started": ("hand", "button"),
    "hand_ended": ("hand", "winners"),
    "bust": ("seat", "chips_start", "hand"),
    "away": ("seat",),
    "back": ("seat",),
    "clock_called": ("seat",),
    "instruction": ("instr", "result", "reason", "stack"),  # stack: 1.2
    "error": ("text",),
}


def rank(ev):
    """What the host must hear when the outbox or the record is short of room,
    in this order (docs/protocol.md, "Box facts"): 0 for a bust (told nowhere
    else), 1 for an instruction's answer (given again to a repeat: the box's book,
    tcbox/instructions/book.py),
    2 for the others (informational: they give way first)."""
    what = ev[1]  # an outbox entry's list: [id, what, ...]
    return 0 if what == "bust" else (1 if what == "instruction" else 2)


def for_record(box, room):
    """The outbox *box*'s events the power-loss record keeps, in its order,
    within *room* bytes of JSON, and how many busts and answers are left out:
    the busts, then the answers, each whole and oldest first as long as one
    fits, then the newest informational ones in the room left
    (docs/protocol.md "Box facts")."""
    if not box:
        return [], 0  # (the clock's saves: nothing more made)
    take = [False] * len(box)
    out = 0
    for r in (0, 1):
        for i in range(len(box)):
            e = box[i]
            if rank(e[0]) == r:
                if e[2] <= room:
                    take[i] = True
                    room -= e[2]
                else:
                    out += 1
    for i in range(len(box) - 1, -1, -1):
        e = box[i]
        if rank(e[0]) == 2:
            if e[2] > room:
                break
            take[i] = True
            room -= e[2]
    kept = []
    for i in range(len(box)):
        if take[i]:
            kept.append(box[i][0])
    return kept, out


def instruction_event(iid, result, reason, stack=None):
    """The outbox list of an ``instruction`` box event: ``stack`` (1.2) only
    when there is one, so the record's events are as short as before."""
    ev = ["instruction", iid, result, reason]
    if stack is not None:
        ev.append(stack)
    return ev


def event_message(ev):
    """The ``event`` message of an outbox entry ``[id, what, field, ...]``."""
    msg = {"kind": "event", "id": ev[0], "what": ev[1]}
    names = EVENT_FIELDS[ev[1]]
    for i in range(len(names)):
        if i + 2 < len(ev) and ev[i + 2] is not None:
            msg[names[i]] = ev[i + 2]
    return msg
