"""What Live does after one of its parts wrote a decision (docs/live.md): a new plan,
the seating or the names sent again to some tables.  Parts return it; Live applies it."""

from typing import Iterable, Optional


class Effects:
    """A decision's consequences for Live (``Live.follow``)."""

    def __init__(self, plan: bool = False, after_bust: bool = False,
                 seating: Iterable[int] = (), names: Iterable[int] = ()) -> None:
        self.plan = plan  # a new plan is due
        self.after_bust = after_bust  # ... after a bust: it drops the moves a box refused
        self.seating = sorted(set(seating))  # tables whose boxes get the seating again
        self.names = sorted(set(names))  # tables whose boxes get the names again

    def __add__(self, other: Optional["Effects"]) -> "Effects":
        if other is None:
            return self
        return Effects(self.plan or other.plan, self.after_bust or other.after_bust,
                       self.seating + other.seating, self.names + other.names)

    def __repr__(self) -> str:
        return "Effects(plan=%r, after_bust=%r, seating=%r, names=%r)" % (
            self.plan, self.after_bust, self.seating, self.names)


NONE = Effects()
