"""The box's one book of the host's instructions: an entry per instruction id with its state --
parked (came before what it was written after), shown (on the dealer's screen), waiting (behind
it), acknowledged (confirmed, carried out at the hand's end from the table's ``moves``), done
(with a move's chips) or refused (with the reason) -- the only place the link and the App's
instruction screen ask "have I seen this id, what did I answer, what is shown, what waits, what
is parked" (docs/protocol.md "The box's book of instructions", "Exactly-once", "withdraw",
"Ordered seatings"); and its part of the power-loss record (``record``, ``restore``).  The link
(tcbox/link/box_end.py) holds it and hands it to the App (``use_book``,
tcbox/instructions/pending.py).  No hardware imports; nothing allocated unless an instruction
comes, is answered or the record is asked for after a change.
"""

import json

PARKED = "parked"
SHOWN = "shown"
WAITING = "waiting"
LATER = "acknowledged"  # confirmed; carried out when the hand ends (the protocol's word)
DONE = "done"
REFUSED = "refused"
STATES = (PARKED, SHOWN, WAITING, LATER, DONE, REFUSED)
BOOK_MAX = 32  # instruction ids kept (docs/protocol.md: the last 32)
PARKED_MAX = 8  # seat instructions waiting for what they were written after ...
PARK_MS = 30000  # ... at most this long: then shown anyway (its name checked as it stands)
RECORD_MAX = 512  # bytes of JSON: the book's part of the power-loss record ...
BODIES_MAX = 256  # ... of which the bodies of those shown and waiting
_GOES = ((DONE, REFUSED), (PARKED,), (WAITING,), (LATER,))  # which go first for a new one


def _stack(v):
    """*v* if it is a chip count (a done move_out's stack), else None."""
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    return None


class Book:
    """The entries, ``[id, state, reason, data, ms]`` each, in the order they last changed
    (oldest first; those waiting in the order they came): *data* the instruction's body while
    it is parked, shown, waiting or acknowledged, a done one's stack (or None); *ms* when a
    parked one came.  At most BOOK_MAX (``_room``)."""

    def __init__(self):
        self.entries = []
        self.parked = 0  # entries PARKED (the link's poll looks only when there are)
        self.waiting = 0  # entries WAITING (the screen's "(+n)")
        self.rec = None  # the record's part, made again after a change (``record``)

    # -- questions ----------------------------------------------------
    def find(self, iid):
        """The entry of instruction *iid* (any state), or None."""
        if iid is None:
            return None
        for e in self.entries:
            if e[0] == iid:
                return e
        return None

    def seen(self, iid):
        """The entry of *iid* when it came and is not parked, or None."""
        e = self.find(iid)
        return None if e is None or e[1] == PARKED else e

    def shown(self):
        """The entry on the dealer's screen, or None."""
        for e in self.entries:
            if e[1] == SHOWN:
                return e
        return None

    # -- changes ------------------------------------------------------
    def _set(self, e, state):
        """*e* goes to *state* (counted, moved to the end: the newest change)."""
        old = e[1]
        if old == PARKED:
            self.parked -= 1
        elif old == WAITING:
            self.waiting -= 1
        if state == PARKED:
            self.parked += 1
        elif state == WAITING:
            self.waiting += 1
        e[1] = state
        if self.entries[-1] is not e:
            self.entries.remove(e)
            self.entries.append(e)
        self.rec = None
        if old == SHOWN and state != SHOWN:
            self._next()

    def _next(self):
        """The first one waiting goes on screen (nothing shown now)."""
        for e in self.entries:
            if e[1] == WAITING:
                self.waiting -= 1
                e[1] = SHOWN
                return

    def _room(self):
        """Make room for one more entry: the oldest answered one goes, else the oldest
        parked one, else the oldest waiting (the host resends what it has no final answer
        for), else the oldest acknowledged one."""
        if len(self.entries) < BOOK_MAX:
            return
        for want in _GOES:
            for e in self.entries:
                if e[1] in want:
                    self.forget(e)
                    return
        self.forget(self.entries[0])

    def forget(self, e):
        """Entry *e* out of the book."""
        self._set(e, DONE)  # (counts and the screen move on)
        self.entries.remove(e)

    def _entry(self, iid, state, data):
        e = self.find(iid)
        if e is None:
            self._room()
            e = [iid, None, None, data, None]
            self.entries.append(e)
        e[2] = None
        e[3] = data
        e[4] = None
        self._set(e, state)
        return e

    def hand(self, iid, body):
        """Instruction *body* (id *iid*, None for a plain message) for the dealer: on
        screen, or waiting behind the one there.  Returns its entry."""
        e = self.find(iid) if iid is not None else None
        if e is None or iid is None:
            self._room()
            e = [iid, None, None, body, None]
            self.entries.append(e)
        e[2] = None
        e[3] = body
        e[4] = None
        self._set(e, WAITING if self.shown() is not None else SHOWN)
        return e

    def answer(self, iid, result, reason=None, stack=None):
        """*iid*'s latest answer (``acknowledged``, ``done`` or ``refused``) with *reason*; a
        done keeps its *stack* (a move_out's chips: a repeat is answered the same way), an
        acknowledged one its body (its ``sv``).  Returns the stack the answer carries."""
        if result != DONE:
            stack = None
        e = self.find(iid)
        if e is not None and e[1] == result and e[2] == reason and (
                result != DONE or e[3] == stack):
            return stack  # the same answer again (the App's and the link's)
        if e is None:
            if iid is None:
                return stack
            e = self._entry(iid, result, None)
        else:
            self._set(e, result)
        e[2] = reason
        e[4] = None
        if result != LATER:
            e[3] = stack  # final: the instruction itself is not needed again
        return stack

    def answered(self, e, result, reason=None, stack=None):
        """Entry *e* (maybe without an id) is answered (``answer``)."""
        if e[0] is None:
            self.forget(e)
            return stack
        return self.answer(e[0], result, reason, stack)

    # -- parked seat instructions (docs/protocol.md "Ordered seatings") ----
    def early(self, msg, sv):
        """Has seat instruction *msg* come before what it was written after: the seating of
        its ``sv``, newer than the version *sv* the link holds, or the instruction its
        ``after`` names (the same seat's earlier change), not seen here yet?"""
        v = msg.get("sv")
        if v is not None and sv is not None and v > sv:
            return True
        after = msg.get("after")
        return after is not None and self.seen(after) is None

    def park(self, msg, now):
        """Keep *msg* (it came early) until ``ready``; once per id, PARKED_MAX at most (the
        oldest goes: the host resends it)."""
        e = self.find(msg["id"])
        if e is not None and e[1] == PARKED:
            return
        if self.parked >= PARKED_MAX:
            for p in self.entries:
                if p[1] == PARKED:
                    self.forget(p)
                    break
        e = self._entry(msg["id"], PARKED, msg)
        e[4] = now

    def ready(self, sv, now, ticks_diff):
        """The first parked instruction whose seating (the link holds version *sv*) and
        predecessor are here, or that has waited PARK_MS (never stuck: a box without a table
        sends no status to be healed by; a refusal then says why), out of the book; None when
        none is."""
        for e in self.entries:
            if e[1] == PARKED and (not self.early(e[3], sv)
                                   or ticks_diff(now, e[4]) >= PARK_MS):
                self.forget(e)
                return e[3]
        return None

    def unpark(self):
        """Every parked one goes (a new config: the host sends its instructions again)."""
        while self.parked:
            for e in self.entries:
                if e[1] == PARKED:
                    self.forget(e)
                    break

    # -- the power-loss record -----------------------------------------
    def record(self):
        """The book's part of the power-loss record, ``[id, state, reason, data]`` each,
        RECORD_MAX bytes of JSON at most: those shown and waiting with their bodies (without
        their id and kind; BODIES_MAX bytes of them: the host resends the others until
        acknowledged), those
        acknowledged (their change waits in the table's ``moves``), then the newest answered
        ones with their reasons and stacks.  Parked ones are not kept: every config after a
        restart drops them (the host sends them again).  Made again only after a change."""
        if self.rec is not None:
            return self.rec
        out = []
        room = RECORD_MAX
        bodies = BODIES_MAX
        for e in self.entries:
            st = e[1]
            if st == SHOWN or st == WAITING:
                body = e[3]
                if isinstance(body, dict):  # its id and kind are the entry's
                    body = {}
                    for k in e[3]:
                        if k != "id" and k != "kind":
                            body[k] = e[3][k]
                n = len(json.dumps(body))
                if n > bodies:
                    continue
                bodies -= n
                r = [e[0], st, None, body]
            elif st == LATER:
                r = [e[0], st, None, None]
            else:
                continue
            room -= len(json.dumps(r)) + 1
            out.append(r)
        k = len(out)
        for i in range(len(self.entries) - 1, -1, -1):
            e = self.entries[i]
            if e[1] == DONE or e[1] == REFUSED:
                r = [e[0], e[1], e[2], e[3]]
                room -= len(json.dumps(r)) + 1
                if room < 0:
                    break
                out.insert(k, r)  # oldest first
        self.rec = out
        return out

    def restore(self, v):
        """Back from the record's part *v* (a list; an older box's ``[id, None, None, body]``
        is one waiting): the one shown and those waiting on screen again, the answered ones
        to answer a repeat.  A damaged entry is left out."""
        for r in v:
            if not isinstance(r, list) or len(r) != 4 or len(self.entries) >= BOOK_MAX:
                continue
            iid, st, reason, data = r
            if st is None:
                st = WAITING
            if st not in STATES or st == PARKED or self.find(iid) is not None:
                continue
            if st == SHOWN or st == WAITING:
                if isinstance(data, dict):
                    data["id"] = iid
                    data["kind"] = "instruction"
                elif not isinstance(data, str):
                    continue  # a resend from the host will bring it
                if st == SHOWN and self.shown() is not None:
                    st = WAITING
            elif st == DONE:
                data = _stack(data)
            else:
                data = None
            if not isinstance(reason, str):
                reason = None
            self.entries.append([iid, st, reason, data, None])
            if st == WAITING:
                self.waiting += 1
        if self.shown() is None:
            self._next()
        self.rec = None
