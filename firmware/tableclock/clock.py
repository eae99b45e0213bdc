"""The level clock: blind levels and breaks counted in integer milliseconds.

Rules (docs/rules.md, "Level clock"):
- levels advance on time; a break is an entry of its own (no hand starts on it);
- the level in force for a hand is fixed when the hand starts (LPPL "the new
  increase will not take effect until the hand has been dealt and completed";
  TDA 20; US rule 17) -- the table reads ``blinds()`` only at a hand start;
- pause/resume, add or remove time, jump to a level; LPPL: levels may only be
  dropped (skipped) after the second chip-up;
- colour-up notices after configured levels; late-entry window.

Time only moves through ``advance(ms)``: the caller owns the time source
(``supervisor.ticks_ms`` on the board, a virtual clock in tests).
"""


if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict, List, Optional, Sequence, Tuple  # noqa: F401 (type comments)
    _Level = Tuple[int, int, int, int, int]  # (sb, bb, ante, ms, number): levels.py


class ClockError(ValueError):
    """A clock command that cannot be carried out; the message says why."""


class LevelClock:
    """Counts down the current entry of a blind structure.

    :param levels: output of :func:`levels.parse_levels`.
    :param colour_ups: list of ``{"after_level": n, "remove": [..], "chip": c}``.
    All times are integer milliseconds.
    """

    def __init__(self, levels, colour_ups=None, drop_after=0, late_until=None):
        # type: (List[_Level], Optional[List[Dict[str, Any]]], int, Optional[int]) -> None
        self.levels = levels
        self.colour_ups = colour_ups or []
        self.drop_after = drop_after
        self.late_until = late_until
        self.index = 0
        self.left_ms = levels[0][3]
        self.paused = False
        self.shown = None  # type: Any  # the entry blinds() last read, and its tuple
        self.shown_blinds = (0, 0, 0, 0)  # type: Tuple[int, int, int, int]

    # -- reading -------------------------------------------------------
    def _level_entry(self):
        """The entry whose blinds are shown: the current level, or on a
        break the next level."""
        i = self.index
        while self.levels[i][4] == 0:
            i += 1
        return self.levels[i]

    def on_break(self):  # type: () -> bool
        return self.levels[self.index][4] == 0

    def blinds(self):  # type: () -> Tuple[int, int, int, int]
        """(level number, sb, bb, ante) shown now (the next level's on a break)."""
        entry = self._level_entry()
        if entry is not self.shown:  # one tuple per level, not per call (issue #20: 64 B a deal)
            self.shown = entry
            self.shown_blinds = (entry[4], entry[0], entry[1], entry[2])
        return self.shown_blinds

    def next_blinds(self):  # type: () -> Optional[Tuple[int, int, int, int]]
        """(level, sb, bb, ante) of the level after the one shown, or None."""
        cur = self._level_entry()[4]
        for entry in self.levels:
            if entry[4] == cur + 1:
                return entry[4], entry[0], entry[1], entry[2]
        return None

    def seconds_left(self):  # type: () -> int
        """Whole seconds left in the current entry, rounded up (a clock shows
        0:01 until the very end)."""
        return (self.left_ms + 999) // 1000

    def last_entry(self):  # type: () -> bool
        return self.index == len(self.levels) - 1

    def colour_up(self):  # type: () -> Optional[Dict[str, Any]]
        """The colour-up notice in force: during the entry right after the
        level it follows (the break, or the next level), else None."""
        if self.index == 0:
            return None
        prev = self.levels[self.index - 1][4]
        for colour_up in self.colour_ups:
            if colour_up.get("after_level") == prev:
                return colour_up
        return None

    def started_level(self):  # type: () -> int
        """Number of the last level that has started (0 before level 1)."""
        i = self.index
        while i > 0 and self.levels[i][4] == 0:
            i -= 1
        return self.levels[i][4]

    def late_entry_open(self):  # type: () -> Optional[bool]
        """Open until the level ``late_until`` starts (LPPL: "anytime before
        the start of the 3rd Blind Level", so still open on a break before
        it); None when the host decides."""
        if self.late_until is None:
            return None
        return self.started_level() < self.late_until

    def passed_level(self, n):  # type: (int) -> bool
        for i in range(self.index):
            if self.levels[i][4] == n:
                return True
        return False

    # -- commands ------------------------------------------------------
    def advance(self, ms):  # type: (int) -> int
        """Let *ms* milliseconds pass (nothing moves while paused).
        Returns the number of entries that ended."""
        if self.paused or ms <= 0:
            return 0
        ended = 0
        while ms >= self.left_ms and not self.last_entry():
            ms -= self.left_ms
            self.index += 1
            self.left_ms = self.levels[self.index][3]
            ended += 1
        if ms >= self.left_ms:  # last level: it stays at 0
            self.left_ms = 0
        else:
            self.left_ms -= ms
        return ended

    def pause(self):  # type: () -> None
        if self.paused:
            raise ClockError("The clock is already paused")
        self.paused = True

    def resume(self):  # type: () -> None
        if not self.paused:
            raise ClockError("The clock is not paused")
        self.paused = False

    def check_adjust(self, ms):  # type: (int) -> None
        if self.left_ms + ms < 1000:
            raise ClockError(
                "Only %d seconds are left in this level: cannot remove %d"
                % (self.seconds_left(), -ms // 1000)
            )

    def adjust(self, ms):  # type: (int) -> None
        """Add (positive) or remove (negative) time from the current entry."""
        self.check_adjust(ms)
        self.left_ms += ms

    def _find_level(self, n):
        for i, entry in enumerate(self.levels):
            if entry[4] == n:
                return i
        return -1

    def check_jump(self, n):  # type: (Any) -> int
        if isinstance(n, bool) or not isinstance(n, int):
            raise ClockError("Jump needs a level number")
        i = self._find_level(n)
        if i < 0:
            raise ClockError("There is no level %d" % n)
        cur = self._level_entry()[4]
        if n > cur + 1 and self.drop_after and cur <= self.drop_after:
            raise ClockError(
                "Levels can only be dropped after the chip-up that follows level %d"
                % self.drop_after
            )
        return i

    def jump(self, n):  # type: (Any) -> None
        """Start level *n* from its full time."""
        i = self.check_jump(n)
        self.index = i
        self.left_ms = self.levels[i][3]

    def record(self):  # type: () -> List[int]
        return [self.index, self.left_ms, 1 if self.paused else 0]

    def restore(self, rec):  # type: (Sequence[int]) -> None
        self.index, self.left_ms, paused = rec
        self.paused = bool(paused)
