"""The host's instructions in the dealer's words: on screen until the
Confirm (``instruction_text``), what the Confirm did (``done_text``), a
change waiting for the hand's end (``later_text``, ``move_text``), an
instruction called off.  docs/box.md, "Instructions from the host".

Imported at the first instruction (tcbox/view.py, tcbox/instructions/pending.py),
not at boot (issue #20: 4.9 KB of heap after boot, .mpy).
"""

from ..view import chips

DONE = {
    "break_table": "Table broken: players go to the TD",
    "redraw": "Final table: new seats drawn",
    "hand_for_hand_start": "Hand for hand: the next deal waits",
    "hand_for_hand": "Hand for hand: the next deal waits",
    "hand_for_hand_stop": "Hand for hand over: play on",
    "next_hand": "Hand for hand: deal the next hand",
    "pause": "Clock paused by the TD",
    "paused": "Clock paused by the TD",
    "resume": "Clock running again",
}


def done_text(ins, later=False):
    """What the dealer's Confirm of *ins* did, in the dealer's words ("Seat 3
    moved to table 2 seat 7"); *later*: it waits for the hand's end."""
    if not ins:
        return ""
    if isinstance(ins, str):
        return "Message read"
    action = ins.get("action")
    seat = ins.get("seat")
    if later:
        return "Confirmed: " + instruction_text(ins) + " after this hand"
    if action == "move_out":
        return "Seat %s moved to table %s seat %s" % (
            seat, ins.get("to_table", ins.get("table", "?")), ins.get("to_seat", "?"))
    if action == "receive":
        line = "Seat %s: %s seated" % (seat, ins.get("name") or "player")
        if ins.get("stack") is not None:
            line += " with %s chips" % chips(ins["stack"])
        return line
    if action == "deduct":
        return "Seat %s: %s chips removed from play" % (seat, _amount(ins.get("chips")))
    if action == "take_out":
        return "Seat %s taken out" % seat
    if action == "message":
        return "Message read"
    if action == "redraw" and ins.get("deal") is True:
        return "Button drawn again for the deal"
    return DONE.get(action) or "Done: " + str(action)


def instruction_text(ins):
    """The sentence on screen for instruction *ins* (a dict as above, or a
    string: a message).  "" for None."""
    if not ins:
        return ""
    if isinstance(ins, str):
        return ins
    action = ins.get("action")
    seat = ins.get("seat")
    if action == "move_out":
        return "Move seat %s to table %s seat %s" % (
            seat, ins.get("to_table", ins.get("table", "?")), ins.get("to_seat", "?"))
    if action == "receive":
        line = "Seat %s: %s arrives" % (seat, ins.get("name") or "a player")
        frm = ins.get("from_table", ins.get("table"))
        if frm is not None:
            line += " from table %s" % frm
        if ins.get("stack") is not None:
            line += " with %s chips" % chips(ins["stack"])
        return line
    if action == "deduct":
        return "Seat %s: remove %s chips from play" % (seat, _amount(ins.get("chips")))
    if action == "take_out":
        return "Take seat %s out: %s is out (TD)" % (seat, ins.get("name") or "the player")
    if action == "message":
        return ins.get("text") or ""
    if action == "redraw" and ins.get("deal") is True:  # US 2: players joined this table
        return "Players joined: button drawn again"
    return SENTENCES.get(action) or str(action)


def _amount(n):
    return chips(n) if isinstance(n, int) else "?"


SENTENCES = {
    "break_table": "This table breaks: players to the TD",
    "redraw": "Final table: new seats drawn",
    "hand_for_hand_start": "HAND FOR HAND: finish the hand, wait",
    "hand_for_hand": "HAND FOR HAND: finish the hand, wait",
    "hand_for_hand_stop": "Hand for hand is over: play on",
    "next_hand": "Hand for hand: deal the next hand",
    "pause": "PAUSED by the TD",
    "paused": "PAUSED by the TD",
    "resume": "The TD resumes play",
}


def later_text(m):
    """The sentence for a change waiting for the hand's end (an entry of
    the table's ``moves``: [id, 0 out / 1 in / 2 deduct / 3 take out, seat, a,
    b])."""
    if m[1] == 0 or m[1] == 3:
        return move_text(m) + " after this hand"
    if m[1] == 2:
        return "Seat %d: remove %s chips after this hand" % (m[2], _amount(m[3]))
    return "Seat %d: a player arrives after this hand with %s chips" % (m[2], _amount(m[3]))


def move_text(m):
    """What an entry of the table's ``moves`` asks for, without "after this
    hand" (the menu's note when the host calls it off)."""
    if m[1] == 0:
        return "Move seat %d to table %s seat %s" % (
            m[2], "?" if m[3] is None else m[3], "?" if m[4] is None else m[4])
    if m[1] == 2:
        return "Seat %d: remove %s chips from play" % (m[2], _amount(m[3]))
    if m[1] == 3:
        return "Take seat %d out (TD)" % m[2]
    return "Seat %d: a player arrives with %s chips" % (m[2], _amount(m[3]))


def called_off(text):
    """The menu's note for an instruction the host called off (*text*: its
    sentence on screen)."""
    return "Called off: " + (text or "an instruction")
