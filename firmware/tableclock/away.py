"""Players away from their seat: which blinds the table posts for them, per
profile (``away``); this module only counts, the table moves the chips.
The rules and their sources: docs/rules.md, §10 "Away seats".
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict, List, Sequence, Tuple  # noqa: F401 (type comments)
    _Record = Tuple[Dict[int, int], Dict[int, bool], List[int]]  # away, used, late


class AwayBook:
    """Per-seat absence records.

    :param rounds: big blinds posted in turn before the every-hand stage on a
        first absence (2 for LPPL, 0 = no every-hand stage at all).
    """

    def __init__(self, rounds):  # type: (int) -> None
        self.rounds = rounds
        self.away = {}  # type: Dict[int, int]  # seat -> blinds posted in turn during this absence
        # seat -> True once the every-hand stage was reached
        self.used = {}  # type: Dict[int, bool]
        self.late = []  # type: List[int]  # registered but not yet seated: blinds when due only
        # seats whose player is away on TD business: the table waits
        self.td = []  # type: List[int]

    def is_away(self, seat):  # type: (int) -> bool
        return seat in self.away

    def seats(self):  # type: () -> List[int]
        return sorted(self.away)

    def leave(self, seat, late=False):  # type: (int, bool) -> None
        self.away[seat] = 0
        if late and seat not in self.late:
            self.late.append(seat)

    def is_late(self, seat):  # type: (int) -> bool
        return seat in self.late

    def back(self, seat):  # type: (int) -> None
        self.away.pop(seat, None)
        if seat in self.late:
            self.late.remove(seat)
        if seat in self.td:
            self.td.remove(seat)

    def forget(self, seat):  # type: (int) -> None
        """The seat is empty now (bust or moved): drop everything."""
        self.back(seat)
        self.used.pop(seat, None)

    def every_hand(self, seat):  # type: (int) -> bool
        """Is *seat* at the stage where a big blind is posted every hand?

        A first absence gets there after ``rounds`` rounds of blinds posted
        in turn (an SB and a BB each); a player who already used the
        allowance after one SB and one BB.
        """
        if not self.rounds or seat not in self.away or seat in self.late:
            return False
        need = 2 if self.used.get(seat) else 2 * self.rounds
        return self.away[seat] >= need

    def blind_in_turn(self, seat):  # type: (int) -> None
        """Record a small or big blind posted for *seat* in its turn."""
        if seat in self.away and not self.every_hand(seat):
            self.away[seat] += 1

    def reached_stage(self, seat):  # type: (int) -> None
        """A big blind was posted for *seat* at the every-hand stage: this
        absence has used the player's one allowance."""
        self.used[seat] = True

    def record(self):  # type: () -> _Record
        return self.record_into(({}, {}, []))

    def record_into(self, rec):
        # type: (_Record) -> _Record
        """Copy the book into the containers of *rec* (a ``record()``),
        emptied in place, and return it."""
        rec[0].clear()
        rec[0].update(self.away)
        rec[1].clear()
        rec[1].update(self.used)
        rec[2].clear()
        rec[2].extend(self.late)
        return rec

    def restore(self, rec):  # type: (Sequence[Any]) -> None
        self.away = dict(rec[0])
        self.used = dict(rec[1])
        self.late = list(rec[2])
