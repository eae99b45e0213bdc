"""The link's part of the power-loss record: the unsent events, the answered and the
pending instructions, the pairing and the table number, each bounded; and the link started
again from it.  No hardware imports.
"""

import json
from binascii import unhexlify

from tableclock.protocol import MAX_COUNTER

from .events import EVENT_FIELDS

INSTR_KEEP = 8  # answered instructions (the newest) kept in the power-loss record
# the power-loss record holds the table (2.5 KB mid-hand at 10 seats) and this
# link's part in a 3968-byte slot: pairing (~250 B), INSTR_KEEP answered
# instruction ids, pending instructions and the newest events, each bounded
EXTRA_EVENTS_MAX = 512  # bytes of JSON for the events kept in the power-loss record
INSTR_PENDING_MAX = 256  # bytes of JSON for the unconfirmed instructions kept there


def _stack(r):
    """The stack kept in an answered instruction record *r*: an int for a
    ``done``, else None."""
    v = r[3]
    if r[1] == "done" and isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    return None


def record_of(link):
    """*link*'s part of the power-loss record (JSON-ready, no times:
    it changes only when something worth a write changed)."""
    keep = []
    room = EXTRA_EVENTS_MAX
    for i in range(len(link.outbox) - 1, -1, -1):
        e = link.outbox[i]
        room -= e[2]
        if room < 0:
            break
        keep.append(e[0])
    keep.reverse()
    instrs = []
    finals = 0
    room = INSTR_PENDING_MAX
    for i in range(len(link.instrs) - 1, -1, -1):
        r = link.instrs[i]
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
        instrs.append(r)
    instrs.reverse()
    d = {"b": link.boot, "o": keep, "i": instrs}
    if link.pairing is not None:
        d["p"] = link.pairing
    if link.table_no is not None:
        d["t"] = link.table_no
    return d


def restore_record(link, extra):
    """Start *link* from the record's *extra* (None: a new box): the boot
    counter moves on by one (so save at once: ``extra()`` changed), and
    unsent events, pending instructions and the pairing come back.  A
    damaged part is ignored."""
    boot = 0
    if isinstance(extra, dict):
        b = extra.get("b")
        if isinstance(b, int) and not isinstance(b, bool) and 0 <= b < MAX_COUNTER:
            boot = b + 1
        for part in ("p", "t", "o", "i"):
            try:
                _restore_part(link, part, extra.get(part))
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                pass
    link.boot = boot
    link.tx.boot = boot
    link.tx.seq = 0
    link.n = 0
    link.save_due = True


def _restore_part(link, part, v):
    if part == "p" and isinstance(v, dict):
        key = unhexlify(v["key"])
        if len(key) >= 16:
            link._set_key(key, v["key_id"])
            link.pairing = v
    elif part == "t" and isinstance(v, int):
        link.table_no = v
    elif part == "o" and isinstance(v, list):
        for ev in v:
            if isinstance(ev, list) and len(ev) >= 2 and ev[1] in EVENT_FIELDS:
                link._keep(ev)
    elif part == "i" and isinstance(v, list):
        for r in v:
            if not isinstance(r, list) or len(r) != 4:
                continue
            if r[1] is None:
                if not isinstance(r[3], dict):
                    continue  # a resend from the host will bring it
                link.rehand.append(r[3])
            else:
                r[3] = _stack(r)  # answered: a done move_out's stack or nothing
            link.instrs.append(r)
