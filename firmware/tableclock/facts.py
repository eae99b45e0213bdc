"""The table's facts: what happened at the table that the host is told of (a seat
busted, a hand started or ended, a seat away or back, the clock called), recorded
by the rules at the moment it happens, until the box's link takes them
(docs/protocol.md, "Box facts and the instruction books").

The book is a fixed list of ints made once with the table: recording a fact
writes four slots and allocates nothing (issue #20: the per-event allocation,
bench alloc_*).  It is bounded: a table nobody drains (a replay, a table
without a link) keeps the newest ``FACTS_MAX``, an informational fact giving
way before a bust.  Not in the power-loss record: the link drains the book
before each save, so a fact and the change it comes from are written together.
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, List, Optional  # noqa: F401 (type comments)

# a fact's kind: its index in WHAT, the box event's name (tcbox/link/events.py)
BUST = 0
HAND_STARTED = 1
HAND_ENDED = 2
AWAY = 3
BACK = 4
CLOCK_CALLED = 5
WHAT = ("bust", "hand_started", "hand_ended", "away", "back", "clock_called")
# one event's facts fit: a hand's end with a bust at each of 10 seats, and a
# disqualification's own bust
FACTS_MAX = 12
_W = 4  # slots per fact: the kind and up to three fields


class Facts:
    """The facts not taken yet, oldest first: per fact its kind and up to three
    fields in the box event's order (bust: seat, chips at the hand's start,
    hand; hand_started: hand, button; hand_ended: hand; away, back,
    clock_called: seat)."""

    def __init__(self):  # type: () -> None
        self.slots = [None] * (FACTS_MAX * _W)  # type: List[Any]
        self.n = 0  # facts held
        self.lost = 0  # facts given way to newer ones (nobody drained them)

    def add(self, kind, a, b=None, c=None):
        # type: (int, Optional[int], Optional[int], Optional[int]) -> None
        """Record a fact.  With the book full the oldest informational fact
        gives way (else the oldest fact): nothing is allocated."""
        s = self.slots
        if self.n >= FACTS_MAX:
            at = 0
            for i in range(self.n):
                if s[i * _W] != BUST:
                    at = i
                    break
            for j in range(at * _W, (self.n - 1) * _W):
                s[j] = s[j + _W]
            self.n -= 1
            self.lost += 1
        i = self.n * _W
        s[i] = kind
        s[i + 1] = a
        s[i + 2] = b
        s[i + 3] = c
        self.n += 1

    def kind(self, i):  # type: (int) -> int
        """The kind of the *i*-th fact held (oldest 0)."""
        return self.slots[i * _W]

    def field(self, i, k):  # type: (int, int) -> Any
        """Field *k* (0-2) of the *i*-th fact held."""
        return self.slots[i * _W + 1 + k]

    def clear(self):  # type: () -> None
        """All taken (the link has them): the slots are reused."""
        self.n = 0
