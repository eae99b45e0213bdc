"""The league kept in memory between writes by the live host: replayed once, then only
the events written since are applied, read inside the writing transaction; the whole log
is replayed again after an ``undo``, a refused decision or ``drop()``.  docs/host.md §10.3
(the tests compare it with a full replay after every update: tests/tools/leaguecheck.py).
"""

from typing import Any, Optional

from tdhost.league import checkpoint as _checkpoint
from tdhost.league.replay import League, apply_event, replay
from tdhost.league.store import LoggedEvent, Store


class LeagueCache:
    """A league replayed once and kept up to date (module notes)."""

    def __init__(self) -> None:
        self.lg: Optional[League] = None
        self.seq = 0  # the last event's seq in self.lg
        # the events the last league() applied, None after a full replay
        self.new: Optional[list[LoggedEvent]] = None
        self.replays = 0  # full replays (figures)
        self.applied = 0  # events applied one by one (figures)
        self.saved: Optional[int] = None  # the newest checkpoint's seq in the file
        self.touched: Optional[set[int]] = None  # tournaments changed since it (None: any)

    def checkpointed(self, store: Store) -> int:
        """The seq of the newest checkpoint in *store* (0: none); tdhost.league.transaction.append
        writes one when the kept league is EVERY events past it."""
        if self.saved is None:
            self.saved = _checkpoint.newest(store)
        return self.saved

    def take(self) -> tuple[int, str, list[tuple[int, str, int, str]]]:
        """A checkpoint of the kept league (tdhost.league.checkpoint.take), with only the
        parts of the tournaments changed since the last."""
        assert self.lg is not None, "no league kept yet"
        return _checkpoint.take(self.lg, self.touched)

    def put(self, taken: tuple[int, str, list[Any]]) -> None:
        """The checkpoint *taken* was written."""
        self.saved, self.touched = taken[0], set()

    def drop(self) -> None:
        """Forget the kept league: the next ``league()`` replays the whole log."""
        self.lg = None
        self.saved = None  # a refused command's transaction took its checkpoint with it
        self.touched = None

    def league(self, store: Store) -> League:
        """The league after every committed event of *store*."""
        if self.lg is not None:
            new = store.events(self.seq)
            if not any(ev.action == "undo" for ev in new):
                for ev in new:
                    self.lg.events.append(ev)
                    apply_event(self.lg, ev)
                    if self.touched is not None:
                        self.touched.add(ev.tournament)
                if new:
                    self.seq = new[-1].seq
                self.applied += len(new)
                self.new = new
                return self.lg
        events = store.events()
        self.lg = replay(events)
        self.touched = None
        self.seq = events[-1].seq if events else 0
        self.new = None
        self.replays += 1
        return self.lg
