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
