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

RESEND_MS = 5000  # a box still behind is sent its seating again this often at most


class SeatingVersions:
    """Per table: its names as the boxes seat them and their version, as of one league seq;
    per box: the version last sent and when."""

    def __init__(self) -> None:
        self.tables: Dict[int, Tuple[str, int]] = {}  # table -> (its names, their version)
        self.seq: Optional[int] = None  # the league's seq the versions are of
        self.sent: Dict[str, Tuple[int, int]] = {}  # box -> (version, ms) of its last seating
        # box -> the version of the last seating it was sent whole (not ``keep``: before
        # its first hand it builds its table from it)
        self.whole: Dict[str, int] = {}

    def fresh(self, seq: int) -> bool:
        """Are the versions those of the league at *seq* (nothing to number again)?"""
        return self.seq == seq

    def number(self, names: Dict[int, Dict[str, str]], seq: int) -> None:
        """Number every table's *names* ({table: {seat: name}}, tdhost.live.tables
        .names_by_table) at the league's *seq*: a table whose names changed gets a new
        version, the seq (or one more than its last, when that is not more)."""
        for table in set(names) | set(self.tables):
            key = json.dumps(names.get(table, {}), sort_keys=True)
            known = self.tables.get(table)
            if known is None or known[0] != key:
                self.tables[table] = (key, seq if known is None else max(seq, known[1] + 1))
        self.seq = seq

    def version(self, table: int) -> int:
        """*table*'s seating version (0 before any numbering)."""
        known = self.tables.get(table)
        return known[1] if known is not None else 0

    def went(self, box: str, version: int, now: int, whole: bool = False) -> None:
        """*box* was sent the seating of *version* at *now* (*whole*: not ``keep``)."""
        self.sent[box] = (version, now)
        if whole:
            self.whole[box] = version

    def unsent(self, box: str, table: int) -> bool:
        """Has *box* not been sent *table*'s version (or a newer one) yet?  Then a seat
        instruction written against it goes after that seating."""
        last = self.sent.get(box)
        return last is None or last[0] < self.version(table)

    def owes_whole(self, box: str, held: Any) -> bool:
        """Was *box* sent a seating whole (to build its table from) that it has not taken,
        holding version *held* (None: not known yet)?  Then a ``keep`` seating, which
        would leave the box's own seats and chips as they are, goes whole too: an undone
        late entry whose whole seating was lost stayed seated at its box."""
        whole = self.whole.get(box)
        return whole is not None and (not isinstance(held, int) or held < whole)

    def due(self, box: str, held: Any, table: int, now: int) -> bool:
        """Should *box*, whose status says it holds version *held*, be sent *table*'s
        seating now?  When it is behind, and that version did not go to it within
        ``RESEND_MS`` (it may be on its way)."""
        version = self.version(table)
        if not isinstance(held, int) or held >= version:
            return False
        last = self.sent.get(box)
        return last is None or last[0] != version or now - last[1] >= RESEND_MS
