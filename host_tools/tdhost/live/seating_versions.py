"""The seating version of each table (docs/protocol.md "Ordered seatings"): a number that
grows whenever the names a table's box must hold change.  Every ``seating`` carries it
(``sv``), and so does every seat instruction (``move_out``, ``receive``, ``take_out``: the
seating it was written against); the box keeps the version it holds and says it in each
``status``.  A box behind the table's version is sent the seating again (a seating lost on
the way heals within a heartbeat), and a box takes a seat instruction only once it holds
that instruction's seating.  Run-time only: a box starts over at each ``config``, so a
restarted host numbers afresh from the league's last seq."""

import json
from typing import Any, Dict, Optional, Tuple

from tdhost.live.shapes import Message

RESEND_MS = 5000  # a box still behind is sent its seating again this often at most


class SeatingVersions:
    """Per table: the names last seen and their version; per box: the version last resent
    and when."""

    def __init__(self) -> None:
        self.tables: Dict[int, Tuple[str, int, int]] = {}  # table -> (names, version, seq)
        self.sent: Dict[str, Tuple[int, int]] = {}  # box -> (version, ms) of its last seating

    def stamp(self, table: int, msg: Message, seq: int) -> Message:
        """*msg* (a ``seating`` body for *table*, built at the league's *seq*) with its
        version ``sv``: the same as before while its names are, else a new one (the
        league's seq, or one more than the last when that is not more)."""
        key = json.dumps(msg.get("names") or {}, sort_keys=True)
        known = self.tables.get(table)
        if known is None or known[0] != key:
            version = seq if known is None else max(seq, known[1] + 1)
        else:
            version = known[1]
        self.tables[table] = (key, version, seq)
        return dict(msg, sv=version)

    def fresh(self, table: int, seq: int) -> Optional[int]:
        """The version of *table* when it was stamped at the league's *seq* (nothing has
        changed since), else None: build the seating again."""
        known = self.tables.get(table)
        return known[1] if known is not None and known[2] == seq else None

    def went(self, box: str, version: int, now: int) -> None:
        """*box* was sent the seating of *version* at *now*."""
        self.sent[box] = (version, now)

    def unsent(self, box: str, table: int) -> bool:
        """Has *box* not been sent *table*'s version (or a newer one) yet?  Then a seat
        instruction written against it goes after that seating."""
        last = self.sent.get(box)
        return table in self.tables and (last is None or last[0] < self.tables[table][1])

    def due(self, box: str, held: Any, table: int, now: int) -> bool:
        """Should *box*, whose status says it holds version *held*, be sent *table*'s
        seating now (its version as last stamped)?  When it is behind, and that version did
        not go to it within ``RESEND_MS`` (it may be on its way)."""
        known = self.tables.get(table)
        if known is None or not isinstance(held, int) or held >= known[1]:
            return False
        last = self.sent.get(box)
        return last is None or last[0] != known[1] or now - last[1] >= RESEND_MS
