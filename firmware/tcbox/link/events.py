"""The box events: those between two table states, an instruction's answer, and the
``event`` message of an outbox entry (docs/protocol.md, "Box events").  No hardware imports.
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


def _get(d, seat):
    """``d[seat]`` for int- or str-keyed seat maps, else None."""
    if not d:
        return None
    v = d.get(seat)
    if v is None:
        v = d.get(str(seat))
    return v


def events_between(old, new, start=None):
    """The box events between two table states (docs/replay.md's state),
    as compact lists ``[what, field, ...]`` in ``EVENT_FIELDS`` order.

    :param start: the chips at the start of the running (or just ended)
        hand, by seat (``Hand.start``): a bust's ``chips_start``.  Without
        it, the chips before the change.
    """
    out = []
    o_in = old["street"] is not None
    n_in = new["street"] is not None
    oh = old["hand"]
    nh = new["hand"]
    if o_in and (not n_in or nh != oh):
        won = new["winners"] if not n_in and new["winners"] else None
        out.append(["hand_ended", oh, won])
    ob = old["busted"]
    nb = new["busted"]
    for i in range(len(nb)):
        seat = nb[i]
        k = str(seat)
        # a seat out before (the list is the last hand's) whose new player
        # leaves it is no bust: only a seat newly on the list is (once)
        if k in old["stacks"] and k not in new["stacks"] and nb.count(seat) > ob.count(seat) \
                and seat not in nb[:i]:
            chips = _get(start, seat) if o_in else None
            if chips is None:
                chips = old["stacks"][k]
            out.append(["bust", seat, chips, oh if o_in else None])
    if n_in and nh != oh:
        out.append(["hand_started", nh, new["button"]])
    oa = old["away"]
    na = new["away"]
    for seat in na:
        if seat not in oa:
            out.append(["away", seat])
    for seat in oa:
        if seat not in na and str(seat) in new["stacks"]:
            out.append(["back", seat])
    actor = new["action"]
    if new["shot_clock"] is not None and actor is not None and (
            old["shot_clock"] is None or old["action"] != actor):
        out.append(["clock_called", actor])
    return out


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
