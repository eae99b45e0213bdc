"""Test tool: every league the host keeps in memory (``tdhost.league.cache.LeagueCache``) or
loads from a checkpoint (``tdhost.league.checkpoint.load``) is compared with a full replay of
the log, attribute by attribute, and a difference fails the test (docs/host.md §3.4, §10.3).

tests/conftest.py calls ``install()`` once per test process: it wraps those two functions and
checkpoints every 5 events instead of 500, so that the tests' short nights load from
checkpoints too.  The fixture ``unchecked_league`` (tests/conftest.py) turns the comparison off
for a test that writes a long log on purpose.  Nothing of this is in the product.
"""

from typing import Any

from tdhost.league import checkpoint as _checkpoint
from tdhost.league.cache import LeagueCache
from tdhost.league.replay import League, replay
from tdhost.league.store import Store

EVERY = 5  # the tests' checkpoint interval (the product's: tdhost.league.checkpoint.EVERY)
ON = [True]  # False inside a test using the fixture ``unchecked_league``


class CacheMismatch(AssertionError):
    """The kept league differs from a full replay of the log (a bug in applying events)."""


class CheckpointMismatch(AssertionError):
    """A league loaded from a checkpoint differs from a full replay (a bug in the checkpoint)."""


def state(obj: Any, depth: int = 0, events: bool = True) -> Any:
    """A comparable picture of a league (or any part of it): objects by their attributes,
    sets sorted, the event list by its sequence numbers (left out when not *events*)."""
    if depth > 40:
        raise ValueError("the league nests too deep to compare")
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    if isinstance(obj, dict):
        return sorted(((repr(k), state(v, depth + 1)) for k, v in obj.items()), key=repr)
    if isinstance(obj, (list, tuple)):
        return [state(v, depth + 1) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((state(v, depth + 1) for v in obj), key=repr)
    if isinstance(obj, League):
        d = {k: v for k, v in vars(obj).items()
             if k not in ("_events", "load_events", "applied", "checkpoint", "parts")}
        if events:
            d["events"] = [ev.seq for ev in obj.events]
        return ("League", state(d, depth + 1))
    if hasattr(type(obj), "read_lazy"):
        obj.read_lazy()  # a Tournament from a checkpoint: all of it read now
    attrs = getattr(obj, "__dict__", None)
    if attrs is None and hasattr(obj, "__slots__"):
        attrs = {k: getattr(obj, k) for k in obj.__slots__ if hasattr(obj, k)}
    if attrs is None:
        return repr(obj)  # a datetime, a date: their repr is their value
    return (type(obj).__name__, state(attrs, depth + 1))


def difference(a: Any, b: Any, path: str = "") -> str:
    """Where two ``state`` pictures first differ, and how (for the message)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return difference(x, y, "%s/%s" % (path, x[0] if isinstance(x, tuple)
                                                   and len(x) == 2 and
                                                   isinstance(x[0], str) else i))
    return "%s: %.200r != %.200r" % (path or "/", a, b)


def check_cache(cache: LeagueCache, store: Store) -> None:
    """Raise CacheMismatch unless the league *cache* keeps is a full replay of *store*; the
    cache then forgets it (its next ``league()`` replays the log)."""
    assert cache.lg is not None
    a, b = state(cache.lg), state(replay(store.events()))
    if a != b:
        cache.lg = None
        raise CacheMismatch("the league kept in memory differs from the replayed log after "
                            "seq %d at %s" % (cache.seq, difference(a, b)))


def check_checkpoint(lg: League, store: Store) -> None:
    """Raise CheckpointMismatch unless *lg* is what a full replay of *store* gives."""
    a, b = state(lg, events=False), state(replay(store.events()), events=False)
    if a != b:
        raise CheckpointMismatch("the league loaded from the checkpoint at seq %d differs "
                                 "from the replayed log at %s" % (lg.checkpoint,
                                                                  difference(a, b)))


def install() -> None:
    """Compare after every update of a kept league and every load from a checkpoint."""
    league, load = LeagueCache.league, _checkpoint.load

    def checked_league(self: LeagueCache, store: Store) -> League:
        lg = league(self, store)
        if ON[0] and self.new:  # events applied one by one (not a full replay)
            check_cache(self, store)
        return lg

    def checked_load(store: Store) -> League:
        lg = load(store)
        if ON[0] and lg.checkpoint:
            check_checkpoint(load(store), store)  # a second load: comparing reads every night
        return lg

    LeagueCache.league = checked_league  # type: ignore[method-assign]
    _checkpoint.load = checked_load
    _checkpoint.EVERY = EVERY
