"""The host's instructions as the box's link remembers them: each id with its latest answer
(None until the dealer confirms it) and, until it is answered for good, its body, so a
repeat is never carried out twice and is answered the same way (docs/protocol.md,
"Exactly-once over USB"); their part of the power-loss record, and the unconfirmed ones it
brings back to show again after a power cut.  No hardware imports.
"""

import json

INSTR_MAX = 32  # instruction ids remembered with their latest result
INSTR_KEEP = 8  # answered instructions (the newest) kept in the power-loss record
INSTR_PENDING_MAX = 256  # bytes of JSON for the unconfirmed instructions kept there
PARKED_MAX = 8  # seat instructions waiting for what they were written after ...
PARK_MS = 30000  # ... at most this long: then shown anyway (its name checked as it stands)


def _stack(r):
    """The stack kept in an answered instruction record *r*: an int for a
    ``done``, else None."""
    v = r[3]
    if r[1] == "done" and isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    return None


class Answers:
    """The instructions the link has seen, oldest first, at most INSTR_MAX:
    ``[id, result or None, reason, body or stack or None]`` each; and
    ``rehand``, those restored from the record not handed to the App yet."""

    def __init__(self):
        self.kept = []  # [id, result or None, reason, body or stack or None], oldest first
        self.rehand = []  # restored pending instructions, for the App's instruct
        self.parked = []  # [message, ms it came]: seat instructions that came early (``park``)

    def find(self, iid):
        """The record of instruction *iid*, or None."""
        for r in self.kept:
            if r[0] == iid:
                return r
        return None

    def remember(self, iid, body):
        """A new record for *iid* (its *body* while not answered); the oldest
        answered one makes room (else the oldest)."""
        if len(self.kept) >= INSTR_MAX:
            gone = self.kept[0]
            for r in self.kept:
                if r[1] in ("done", "refused"):
                    gone = r
                    break
            self.kept.remove(gone)
        r = [iid, None, None, body]
        self.kept.append(r)
        return r

    def answer(self, iid, result, reason, stack):
        """*iid*'s latest answer: *result* and *reason*; a final one (done or
        refused) lets the body go and keeps the *stack* of a done (a
        ``move_out``'s chips, to answer a repeat the same way).  Returns the
        stack the answer carries (a done's only)."""
        r = self.find(iid)
        if r is None:
            r = self.remember(iid, None)
        r[1] = result
        r[2] = reason
        if result != "done":
            stack = None
        if result != "acknowledged":
            r[3] = stack  # final: the instruction itself is not needed again
        return stack

    def early(self, msg, sv):
        """Has seat instruction *msg* come before what it was written after (docs/protocol.md
        "Ordered seatings"): the seating of its ``sv``, newer than the version *sv* the link
        holds, or the instruction its ``after`` names (the same seat's earlier change), not
        seen here yet?"""
        v = msg.get("sv")
        if v is not None and sv is not None and v > sv:
            return True
        after = msg.get("after")
        return after is not None and self.find(after) is None

    def park(self, msg, now):
        """Keep *msg* (it came early) until ``ready``; once per id, PARKED_MAX at most
        (the oldest goes: the host resends it)."""
        for m in self.parked:
            if m[0]["id"] == msg["id"]:
                return
        if len(self.parked) >= PARKED_MAX:
            self.parked.pop(0)
        self.parked.append([msg, now])

    def ready(self, sv, now, ticks_diff):
        """The first parked instruction whose seating (the link holds version *sv*) and
        predecessor are here, or that has waited PARK_MS (never stuck: a box without a
        table sends no status to be healed by; a refusal then says why), taken out of
        the parked ones; None when none is."""
        for m in self.parked:
            if not self.early(m[0], sv) or ticks_diff(now, m[1]) >= PARK_MS:
                self.parked.remove(m)
                return m[0]
        return None

    def unhand(self, body):
        """Take *body* back from those restored and not handed to the App
        yet; False when it is not among them."""
        if body in self.rehand:
            self.rehand.remove(body)
            return True
        return False

    def record(self):
        """Their part of the power-loss record: the unconfirmed ones with
        their bodies (INSTR_PENDING_MAX bytes of them, shown again after a
        restart; the host resends the rest until acknowledged) and the
        newest INSTR_KEEP answered ones with their stacks."""
        out = []
        finals = 0
        room = INSTR_PENDING_MAX
        for i in range(len(self.kept) - 1, -1, -1):
            r = self.kept[i]
            if r[1] is None:  # not confirmed yet: shown again after a restart
                if r[3] is None:
                    continue
                room -= len(json.dumps(r[3]))
                if room < 0:
                    continue  # the host resends it until it is acknowledged
            else:
                finals += 1
                if finals > INSTR_KEEP:
                    continue
                r = [r[0], r[1], None, _stack(r)]  # the stack answered again after a cut
            out.append(r)
        out.reverse()
        return out

    def restore(self, v):
        """Back from the record's part *v* (a list): the unconfirmed ones to
        hand the App again (``rehand``), the answered ones to answer a repeat."""
        for r in v:
            if not isinstance(r, list) or len(r) != 4:
                continue
            if r[1] is None:
                if not isinstance(r[3], dict):
                    continue  # a resend from the host will bring it
                self.rehand.append(r[3])
            else:
                r[3] = _stack(r)  # answered: a done move_out's stack or nothing
            self.kept.append(r)
