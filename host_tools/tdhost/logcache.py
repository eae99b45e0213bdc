"""The league kept in memory between writes (docs/host.md §10.2; issue #5's bench: "SQLite
events written per second").

The league's state is its event log replayed (tdhost.league.replay).  Replaying the whole
log at every write costs time in proportion to the log: about 1,400 writes a second on a
small log, 50 to 90 at 3,000 events -- and a 300-table night writes tens of thousands (every
instruction and every answer is an event).  ``LeagueCache`` replays once, then applies only
the events written since (``tdhost.league.apply_event``), read inside the writing
transaction, so what a decision sees is still the whole committed log:

    cache = LeagueCache()
    lg = cache.league(store)   # replayed the first time; later only the new events applied
    cache.new                  # the events applied by that call, or None after a full replay
    cache.drop()               # the next league() replays the whole log again

The whole log is replayed again when a new event is an ``undo`` (it changes what came
before it), after ``drop()`` -- which tdhost.commands.append calls when a decision raised
(it may have changed the league it was given before refusing) or wrote ``register``
events (the registration's decision applies each name to the league it is given, so the
next name sees it) -- and the first time.  ``verify`` (or ``TDHOST_VERIFY_CACHE=1``)
compares the kept league with a full replay after every update: the tests that play whole
nights turn it on.
"""

import os

from tdhost import checkpoint as _checkpoint, league as _league


class CacheMismatch(AssertionError):
    """The kept league differs from a full replay of the log (a bug: verify mode)."""


class LeagueCache:
    """A league replayed once and kept up to date (module notes)."""

    def __init__(self, verify=None):
        if verify is None:
            verify = os.environ.get("TDHOST_VERIFY_CACHE") == "1"
        self.verify = verify
        self.lg = None
        self.seq = 0  # the last event's seq in self.lg
        self.new = None  # the events the last league() applied, None after a full replay
        self.replays = 0  # full replays (figures)
        self.applied = 0  # events applied one by one (figures)
        self.saved = None  # the newest checkpoint's seq in the file (tdhost.checkpoint)
        self.touched = None  # tournaments changed since it (None: any)

    def checkpointed(self, store):
        """The seq of the newest checkpoint in *store* (0: none); tdhost.commands.append
        writes one when the kept league is EVERY events past it."""
        if self.saved is None:
            self.saved = _checkpoint.newest(store)
        return self.saved

    def take(self):
        """A checkpoint of the kept league (tdhost.checkpoint.take), with only the parts of
        the tournaments changed since the last."""
        return _checkpoint.take(self.lg, self.touched)

    def put(self, taken):
        """The checkpoint *taken* was written."""
        self.saved, self.touched = taken[0], set()

    def drop(self):
        """Forget the kept league: the next ``league()`` replays the whole log."""
        self.lg = None
        self.saved = None  # a refused command's transaction took its checkpoint with it
        self.touched = None

    def league(self, store):
        """The league after every committed event of *store* (tdhost.store.Store)."""
        if self.lg is not None:
            new = store.events(self.seq)
            if not any(ev.action == "undo" for ev in new):
                for ev in new:
                    self.lg.events.append(ev)
                    _league.apply_event(self.lg, ev)
                    if self.touched is not None:
                        self.touched.add(ev.tournament)
                if new:
                    self.seq = new[-1].seq
                self.applied += len(new)
                self.new = new
                if self.verify and new:
                    self._check(store)
                return self.lg
        events = store.events()
        self.lg = _league.replay(events)
        self.touched = None
        self.seq = events[-1].seq if events else 0
        self.new = None
        self.replays += 1
        return self.lg

    def _check(self, store):
        full = _league.replay(store.events())
        a, b = state(self.lg), state(full)
        if a != b:
            self.lg = None
            raise CacheMismatch("the league kept in memory differs from the replayed log "
                                "after seq %d" % self.seq)


def state(obj, depth=0, events=True):
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
    if isinstance(obj, _league.League):
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
