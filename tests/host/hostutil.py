"""Helpers for the tdhost tournament tests: a night driven in memory through the same
decide_* methods the commands use (no SQLite), and a CLI runner with a fixed clock."""

import datetime
import os

from click.testing import CliRunner

from tdhost import tournamentfile
from tdhost.cli.app import cli
from tdhost.league import reducers as _reducers, replay as _replay, text as _text, times as _times
from tdhost.league.busts import decide_bust, decide_end
from tdhost.league.entries import (
    decide_arrive,
    decide_late,
    decide_register,
    decide_standby_add,
    decide_standby_pass,
    decide_standby_take,
)
from tdhost.league.play import decide_level, decide_start
from tdhost.league.seats import decide_draw, decide_lock, decide_unlock
from tdhost.league.store import LoggedEvent

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "docs", "examples")
T0 = datetime.datetime(2025, 3, 3, 20, 0, 0, tzinfo=datetime.timezone.utc)
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou",
         "Max", "Ned", "Oli", "Pam", "Quin", "Rae", "Sam", "Tom", "Uma", "Vic", "Wes", "Xan",
         "Yul", "Zoe"]


def players(n, prefix="P"):
    return NAMES[:n] if n <= len(NAMES) else ["%s%02d" % (prefix, i) for i in range(1, n + 1)]


def at(minutes):
    """The time *minutes* after the start (20:00)."""
    return T0 + datetime.timedelta(minutes=minutes)


def setup(example="lppl", **over):
    with open(os.path.join(EXAMPLES, example + ".toml"), encoding="utf-8") as f:
        s = tournamentfile.parse(f.read(), example + ".toml")
    late = over.pop("late", None)
    s.update(over)
    if late:
        s["late"] = dict(s["late"], **late)
    return s


class Night:
    """One league with tournaments driven in memory, event by event."""

    def __init__(self, example="lppl", **over):
        self.events = []
        self.lg = _replay.replay([])
        self.new(example, **over)

    @property
    def t(self):
        return self.lg.current()

    def _add(self, action, payload, undoes=None):
        number = payload.get("number") if action == "new" else self.t.number
        ev = LoggedEvent(len(self.events) + 1, number, _times.iso(T0), action, payload, undoes)
        self.events.append(ev)
        self.lg = _replay.replay(self.events) if action in ("new", "undo") else self._apply(ev)
        return payload

    def _apply(self, ev):
        self.lg.events = self.events
        _reducers.apply(self.t, ev.action, ev.payload)
        if ev.action in ("register", "late"):
            key = _text.player_key(ev.payload["name"])
            self.lg.names.setdefault(key, ev.payload["name"])
            if ev.payload["member"]:
                self.lg.members.add(key)
        return self.lg

    def new(self, example="lppl", **over):
        number = max(self.lg.tournaments, default=0) + 1
        return self._add("new", {"setup": setup(example, **over), "number": number})

    def register(self, *names, member=False):
        out = []
        for n in names:
            p, msg = decide_register(self.t, n, member, T0, self.lg, len(self.events) + 1)
            self._add("register", p)
            out.append(msg)
        return out

    def standby_add(self, name):
        p, msg = decide_standby_add(self.t, name, False, self.lg)
        self._add("register", p)
        return msg

    def lock(self, name, table, seat, reason="accessibility"):
        return self._add("lock", decide_lock(self.t, name, table, seat, reason))

    def unlock(self, name):
        return self._add("unlock", decide_unlock(self.t, name))

    def draw(self, seed=1, ace8=False, again=False, final=False):
        return self._add("draw", decide_draw(self.t, seed, ace8, again, final))

    def start(self, absent=(), away=(), minutes=0):
        p, notes = decide_start(self.t, at(minutes), list(absent), list(away))
        self._add("start", p)
        return notes

    def level(self, n, minutes):
        return self._add("level", decide_level(self.t, n, at(minutes)))

    def late(self, name, minutes, seat=None):
        return self._add("late", decide_late(self.t, name, False, at(minutes), self.lg,
                                             len(self.events) + 1, seat))

    def arrive(self, name, minutes):
        return self._add("arrive", decide_arrive(self.t, name, at(minutes)))

    def take(self, name, minutes, seat=None):
        return self._add("standby_take", decide_standby_take(self.t, name, at(minutes), seat))

    def pass_(self, name):
        return self._add("standby_pass", decide_standby_pass(self.t, name))

    def bust(self, *names, minutes=30, chips=None, cards=None, board=None):
        return self._add("bust", decide_bust(self.t, list(names), chips or {}, cards or {},
                                             board, at(minutes), self.lg))

    def end(self, chips, minutes=200):
        return self._add("end", decide_end(self.t, chips, at(minutes)))

    def undo(self):
        for ev in reversed(self.lg.last_action(self.t.number)):
            self._add("undo", {"action": ev.action, "summary": _text.summary(ev)}, ev.seq)

    def field(self, n, start=True, seed=1, **kw):
        """Register *n* players, draw and (by default) start."""
        self.register(*players(n))
        self.draw(seed)
        if start:
            self.start(**kw)
        return self


def run(args, now=T0, db=None, plain=True, expect=0, input=None):
    """Invoke the CLI in-process; returns the Result (exit code checked when *expect*);
    *input*: what the TD types at its questions."""
    env = {"TDHOST_NOW": _times.iso(now), "TDHOST_PLAIN": "1" if plain else ""}
    if db:
        env["TDHOST_DB"] = str(db)
    res = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False, input=input)
    if expect is not None:
        assert res.exit_code == expect, (args, res.exit_code, res.output)
    return res
