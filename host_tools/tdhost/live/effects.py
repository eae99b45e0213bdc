"""The decisions of Live's parts and what Live does after them (docs/live.md "Live owns
its state"): a ``Write`` is one decision for ``Live.write``; a part that decides several in
turn is a generator of them (``Steps``: Live writes each and sends back its result and
the tournament after it, ``carry_out``; a part that yields None is sent the tournament as
it is now); ``Effects`` is what Live does next -- a new plan, the seating, the names or
the clock sent again."""

from typing import TYPE_CHECKING, Any, Callable, Generator, Iterable, List, Optional, Tuple

if TYPE_CHECKING:
    from tdhost.league.replay import League
    from tdhost.league.tournament import Tournament
    from tdhost.live.shapes import Batch

Write = Callable[["Tournament", "League", int], Tuple["Batch", Any]]  # one decision
# decisions in turn (None: only the tournament now, please), then a result
Steps = Generator[Optional[Write], Tuple[Any, "Tournament"], Any]


def carry_out(steps: Steps,
              write: Callable[[Optional[Write]], Tuple[Any, "Tournament"]]) -> Any:
    """Run *steps*: each decision it yields written by *write* (Live's: the result and the
    tournament after it sent back; a failure thrown in), its result returned."""
    try:
        decision = next(steps)
        while True:
            try:
                done = write(decision)
            except BaseException as err:
                decision = steps.throw(err)
                continue
            decision = steps.send(done)
    except StopIteration as stop:
        return stop.value


def now() -> "Steps":
    """The tournament as it is now, in a part's ``Steps`` (after the writes so far and
    Live's reactions): ``tournament = yield from now()``."""
    _, tournament = yield None
    return tournament


def notice(text: str, src: Optional[List[Any]] = None) -> Write:
    """A line in the league's log for the TD (``notice``; *src*: the box events it is
    about), a decision."""
    return lambda tournament, lg, seq: ([("notice", {"text": text, "src": src or []}, None)],
                                        None)


class Effects:
    """A decision's consequences for Live (``Live.follow``)."""

    def __init__(self, plan: bool = False, after_bust: bool = False,
                 seating: Iterable[int] = (), names: Iterable[int] = (),
                 everyone: bool = False, clock: bool = False) -> None:
        self.plan = plan  # a new plan is due
        self.after_bust = after_bust  # ... after a bust: it drops the moves a box refused
        self.seating = sorted(set(seating))  # tables whose boxes get the seating again
        self.names = sorted(set(names))  # tables whose boxes get the names again
        self.everyone = everyone  # every box gets the seating again
        self.clock = clock  # every box gets the master clock again

    def __add__(self, other: Optional["Effects"]) -> "Effects":
        if other is None:
            return self
        return Effects(self.plan or other.plan, self.after_bust or other.after_bust,
                       self.seating + other.seating, self.names + other.names,
                       self.everyone or other.everyone, self.clock or other.clock)

    def __repr__(self) -> str:
        return "Effects(plan=%r, after_bust=%r, seating=%r, names=%r, everyone=%r, " \
            "clock=%r)" % (self.plan, self.after_bust, self.seating, self.names,
                           self.everyone, self.clock)


NONE = Effects()
