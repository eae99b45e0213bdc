"""The league and its tournaments, derived by replaying the event log; and the TD's
decisions (who may register, enter late, take a standby seat, in which order same-hand
busts finish), each returned as the payload of the event that records it.

Nothing here writes: tdhost.commands reads the log inside a write transaction, asks a
``decide_*`` method for the payload (or a ``Refused`` sentence), and appends it.  Replay
(``replay``) applies the stored payloads and never decides again, so history means the
same thing after any code change.  docs/host.md quotes the rule behind every decision.
"""

import datetime
import functools
import os
import random
import re

from tableclock.clock import LevelClock, parse_levels
from tdhost import (
    draw as _draw,
    hands as _hands,
    house as _house,
    points as _points,
    rules as _rules,
)

MAX_NAME = 40
# events written by tdhost.live for the boxes and the clock, not TD actions: undo skips them
SYSTEM_ACTIONS = frozenset(("clock", "instr", "instr_result", "notice", "hand_for_hand",
                            "hfh_release", "final_seated"))


class Refused(Exception):
    """A TD action that is not allowed; str(err) is the sentence shown to the TD."""


# ------------------------------------------------------------------------------ time

def now():
    """The current time (aware, whole seconds); TDHOST_NOW (ISO 8601) overrides it."""
    v = os.environ.get("TDHOST_NOW")
    if v:
        t = datetime.datetime.fromisoformat(v)
        return t if t.tzinfo else t.astimezone()
    return datetime.datetime.now().astimezone().replace(microsecond=0)


def parse_when(text, ref):
    """--at: "HH:MM", "HH:MM:SS" (on *ref*'s day) or an ISO 8601 date and time."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", text.strip())
    try:
        if m:
            return ref.replace(hour=int(m.group(1)), minute=int(m.group(2)),
                               second=int(m.group(3) or 0), microsecond=0)
        t = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise Refused("%r is not a time: give HH:MM, HH:MM:SS or 2025-03-03T20:15" % text)
    return t if t.tzinfo else t.replace(tzinfo=ref.tzinfo)


def iso(t):
    return t.isoformat(timespec="seconds")


def from_iso(s):
    return datetime.datetime.fromisoformat(s)


def clock_time(s):
    return from_iso(s).strftime("%H:%M:%S")


def ordinal(n):
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suffix)


def place_text(first, last):
    return ordinal(first) if first == last else "%s=" % ordinal(first)


def names_text(names):
    names = list(names)
    return names[0] if len(names) == 1 else "%s and %s" % (", ".join(names[:-1]), names[-1])


def player_key(name):
    return " ".join(name.split()).casefold()


def clean_name(name):
    """The player's name as typed, whitespace tidied; Refused if unusable."""
    n = " ".join(str(name).split())
    if not n:
        raise Refused("a player needs a name")
    if len(n) > MAX_NAME:
        raise Refused("%r is longer than %d characters" % (n, MAX_NAME))
    if any(ord(ch) < 32 for ch in n) or "=" in n:
        raise Refused("%r: a name may not contain '=' or control characters" % n)
    return n


def seat_text(seat):
    return "table %d seat %d" % tuple(seat)


# ----------------------------------------------------------------------------- state

class Entry:
    """One player in one tournament."""

    def __init__(self, name, member, state):
        self.name = name
        self.member = member
        self.state = state      # registered | standby | in | out
        self.seat = None        # [table, seat]
        self.entry = None       # registered | late | standby | replacement
        self.stack = None       # chips at entry
        self.dead_bb = False
        self.absent = None      # None | awol | away  (in the game, not at the table)
        self.deducted = 0       # chips removed for a late arrival


class Tournament:
    def __init__(self, number, setup, created):
        self.number = number
        self.setup = setup
        self.created = created
        self.box, self.rules = _rules.get(setup["profile"])
        self.players = {}       # key -> Entry, in registration order
        self.standby = []       # keys, in order
        self.locks = {}         # key -> [table, seat, reason]
        self.draw = None        # the first draw's payload
        self.final = None       # the final-table draw's payload
        self.started = None     # datetime of "shuffle up and deal"
        self.started_on_time = 0
        self.anchors = []       # [(level, datetime)] from `level`
        self.busts = []         # [{"tiers": [[names]], "time", "reasons"}], in order
        self.offers = []        # [{"seat", "freed_by", "passed": [keys]}]
        self.ended = None       # {"kind": "last"|"time", "tiers": [[names]], "time"}
        self.tables_used = set()
        # the live night (tdhost.live)
        self.clocks = []        # `clock` payloads: the master clock after each change
        self.instrs = {}        # instruction id -> its `instr` payload + "results"
        self.moves = []         # `move` payloads, in order
        self.hfh = None         # hand for hand: {"wait": {table: hand}, "round": n} or None
        self.money = []         # `money` payloads (re-buys, add-ons, knockouts, payouts)

    # A tournament loaded from a checkpoint (tdhost.checkpoint) reads its state only when
    # first used, and its night's details (NIGHT: most of a night's events) only when
    # those are used: a command reads the tournament it is about, not the whole season's
    # (at 100,000 events, reading every tournament took 70 ms a command).  ``_core`` and
    # ``_night`` are then functions returning the attributes as a dict.
    NIGHT = ("clocks", "instrs", "moves")

    def __getattr__(self, name):  # only for attributes not set (the lazy ones)
        d = self.__dict__
        if name.startswith("__"):
            raise AttributeError(name)
        if "_core" in d:
            read = d.pop("_core")()
        elif name in Tournament.NIGHT and "_night" in d:
            read = d.pop("_night")()
        else:
            raise AttributeError(name)
        for k, v in read.items():
            d.setdefault(k, v)  # one set before it was read (`self.started = ...`) is newer
        return getattr(self, name)

    def read_lazy(self):
        """Read whatever a tournament from a checkpoint has not read yet."""
        for k in ("setup",) + Tournament.NIGHT:
            getattr(self, k)

    # -------------------------------------------------------------- reading
    def get(self, name):
        return self.players.get(player_key(name))

    def need(self, name, states=None):
        e = self.get(name)
        if e is None:
            raise Refused("%s is not in tournament %d" % (name, self.number))
        if states and e.state not in states:
            raise Refused(self._state_sentence(e))
        return e

    def _state_sentence(self, e):
        if e.state == "out":
            return "%s is already out (%s)" % (e.name, self.place_of(e.name))
        if e.state == "standby":
            return "%s is standby player %d, not playing" % (
                e.name, self.standby.index(player_key(e.name)) + 1)
        if e.state == "registered":
            return "%s is registered but the tournament has not started" % e.name
        return "%s is playing (%s)" % (e.name, seat_text(e.seat) if e.seat else "no seat")

    def entries(self, *states):
        return [e for e in self.players.values() if e.state in states]

    def remaining(self):
        return self.entries("in")

    def entrants(self):
        return self.entries("in", "out")

    def field_size(self):
        """Entries that count against max_players: registered, late and replacement
        players (standby players who take a freed seat come on top)."""
        return len([e for e in self.players.values()
                    if e.state in ("registered", "in", "out") and e.entry != "standby"])

    def seating(self):
        """{table: {seat: name}} of the players in the game (or registered, before the
        start) who have a seat."""
        out = {}
        for e in self.players.values():
            if e.seat and e.state in ("registered", "in"):
                out.setdefault(e.seat[0], {})[e.seat[1]] = e.name
        return out

    def offered_seats(self):
        return {tuple(o["seat"]) for o in self.offers}

    def offer_pairs(self):
        """[(offer, standby key or None)]: each open seat goes to the first standby player
        who has not passed on it and is not offered an earlier seat."""
        used, out = set(), []
        for o in self.offers:
            who = next((k for k in self.standby if k not in used and k not in o["passed"]),
                       None)
            if who:
                used.add(who)
            out.append((o, who))
        return out

    def level_at(self, when):
        """(last level started, LevelClock at *when*); level 0 before the start."""
        clock = self.clock_at(int(when.timestamp() * 1000))
        if self.started is None or when < self.started:
            return 0, clock
        return clock.started_level(), clock

    def clock_at(self, ms):
        """The master clock (tableclock.clock.LevelClock) at *ms* (Unix milliseconds):
        level 1 from the start, moved by `level N` anchors and by the live night's `clock`
        readings (the latest of them before *ms* counts); paused before the start."""
        levels = parse_levels(self.setup["levels"])
        clock = LevelClock(levels, self.setup["colour_ups"], 0,
                           self.setup["late"]["until_level"])
        if self.started is None or ms < _ms(self.started):
            clock.paused = True
            return clock
        lv, at = 1, _ms(self.started)
        for n, t in self.anchors:
            if _ms(t) <= ms:
                lv, at = n, _ms(t)
        rec = None
        for c in self.clocks:
            if c["at_ms"] <= ms and c["at_ms"] >= at:
                rec = c
        if rec is not None:
            clock.index, clock.left_ms, clock.paused = rec["index"], rec["left_ms"], \
                rec["paused"]
            clock.advance(ms - rec["at_ms"])
            return clock
        clock.jump(lv)
        clock.advance(ms - at)
        return clock

    def minutes_since_start(self, when):
        return (when - self.started).total_seconds() / 60.0

    def deductions(self):
        return self.setup["late"]["deductions"]

    def late_stack(self, when):
        """(stack, dead_bb, level, sentence) for a latecomer or standby player entering at
        *when* (LPPL ¶12, ¶13, ¶15)."""
        late = self.setup["late"]
        full = self.setup["starting_stack"]
        level, _ = self.level_at(when)
        mins = self.minutes_since_start(when)
        if late["grace_minutes"] and mins <= late["grace_minutes"]:
            dead = late["grace_dead_bb"]
            return full, dead, level, "within %d minutes of the start (%s): %d chips, no " \
                "deduction%s" % (late["grace_minutes"], _mmss(mins), full,
                                 "; post a dead big blind to enter" if dead else "")
        ded = sum(self.deductions()[:level])
        if not ded:
            return full, False, level, "level %d: the full stack of %d chips" % (level, full)
        return full - ded, False, level, "level %d: %d chips (%d less %d)" % (
            level, full - ded, full, ded)

    def absent_deduction(self, when):
        """(chips to remove, dead_bb, sentence) for a registered player who was not seated
        at the start and arrives at *when* (LPPL ¶14)."""
        late = self.setup["late"]
        level, _ = self.level_at(when)
        mins = self.minutes_since_start(when)
        if not late["absent_deductions"]:
            return 0, False, "no chips are removed for arriving late (profile %s)" % (
                self.setup["profile"])
        if mins <= late["grace_minutes"]:
            dead = late["grace_dead_bb"]
            return 0, dead, "within %d minutes of the start (%s): no chips removed%s" % (
                late["grace_minutes"], _mmss(mins),
                "; post a dead big blind to enter" if dead else "")
        ded = self.deductions()
        parts = ["%d after %d minutes" % (ded[0], late["grace_minutes"])] if ded else []
        parts += ["%d more at level %d" % (d, i + 1) for i, d in enumerate(ded[1:level], 1)]
        total = sum(ded[:level])
        return total, False, "level %d, %s after the start: %d chips removed (%s)" % (
            level, _mmss(mins), total, ", ".join(parts) or "none")

    # ranking -------------------------------------------------------------
    def ranking(self):
        """[(names, first place, last place)] best first.  Before the end the players
        still in come first as one group with places (None, None)."""
        out = []
        pos = 0
        if self.ended:
            for tier in self.ended["tiers"]:
                out.append((tier, pos + 1, pos + len(tier)))
                pos += len(tier)
        else:
            rem = [e.name for e in self.remaining()]
            if rem:
                out.append((rem, None, None))
            pos = len(rem)
        for b in reversed(self.busts):
            for tier in b["tiers"]:
                out.append((tier, pos + 1, pos + len(tier)))
                pos += len(tier)
        return out

    def place_of(self, name):
        for names, first, last in self.ranking():
            if name in names and first:
                return place_text(first, last)
        return "in play"

    def results(self):
        """[{"place", "first", "last", "name", "member", "entry", "points"}] best first."""
        n = len(self.entrants())
        rows = []
        for names, first, last in self.ranking():
            for name in names:
                e = self.get(name)
                pts = None
                if first and self.ended:
                    pts = _points.points(self.setup["points"], first, last, n)
                rows.append({"place": place_text(first, last) if first else "in play",
                             "first": first, "last": last, "name": name,
                             "member": e.member, "entry": e.entry, "points": pts})
        return rows

    # -------------------------------------------------------------- applying
    def apply(self, ev, league):
        getattr(self, "_on_" + ev.action)(ev.payload, league)

    def _on_register(self, p, league):
        key = player_key(p["name"])
        e = Entry(p["name"], p["member"], "standby" if p["standby"] else "registered")
        self.players[key] = e
        if p["standby"]:
            self.standby.append(key)
        else:
            e.entry = "registered"
            e.seat = p.get("seat")
            e.stack = self.setup["starting_stack"]
            if e.seat:
                self.tables_used.add(e.seat[0])

    def _on_lock(self, p, league):
        self.locks[player_key(p["name"])] = [p["table"], p["seat"], p["reason"]]

    def _on_unlock(self, p, league):
        self.locks.pop(player_key(p["name"]), None)

    def _on_draw(self, p, league):
        if p.get("final"):
            self.final = p
        else:
            self.draw = p
        self.tables_used = set()
        for name, seat in p["seats"].items():
            self.players[player_key(name)].seat = list(seat)
            self.tables_used.add(seat[0])

    def _on_start(self, p, league):
        self.started = from_iso(p["time"])
        self.started_on_time = p["started_on_time"]
        for e in self.entries("registered"):
            e.state = "in"
        for awol_name, sb_name in p["replaced"]:
            a, s = self.get(awol_name), self.get(sb_name)
            i = self.standby.index(player_key(sb_name))
            self.standby[i] = player_key(awol_name)
            s.state, s.seat, s.entry, s.stack = "in", a.seat, "replacement", a.stack
            a.state, a.seat, a.entry, a.stack = "standby", None, None, None
        for name in p["awol"]:
            self.get(name).absent = "awol"
        for name in p["away"]:
            self.get(name).absent = "away"

    def _on_level(self, p, league):
        self.anchors.append((p["level"], from_iso(p["time"])))

    def _on_late(self, p, league):
        key = player_key(p["name"])
        e = Entry(p["name"], p["member"], "in")
        e.entry, e.seat, e.stack, e.dead_bb = "late", p["seat"], p["stack"], p["dead_bb"]
        self.players[key] = e
        self.tables_used.add(e.seat[0])

    def _on_arrive(self, p, league):
        e = self.get(p["name"])
        e.absent = None
        e.deducted = p["deduction"]
        e.dead_bb = p["dead_bb"]

    def _on_standby_take(self, p, league):
        key = player_key(p["name"])
        e = self.players[key]
        self.standby.remove(key)
        e.state, e.entry, e.seat = "in", "standby", p["seat"]
        e.stack, e.dead_bb = p["stack"], p["dead_bb"]
        self.offers = [o for o in self.offers if o["seat"] != p["offer"]]
        for o in self.offers:  # directed to a seat offered to others: they get the freed one
            if o["seat"] == p["seat"]:
                o["seat"] = p["offer"]
        self.tables_used.add(e.seat[0])

    def _on_standby_pass(self, p, league):
        for o in self.offers:
            if o["seat"] == p["offer"]:
                o["passed"].append(player_key(p["name"]))

    def _on_move(self, p, league):
        self.get(p["name"]).seat = p["seat"]
        self.tables_used.add(p["seat"][0])
        self.moves.append(p)
        for iid in p.get("instrs", ()):
            if iid in self.instrs:
                self.instrs[iid]["moved"] = True

    # the live night's events (tdhost.live)
    def _on_clock(self, p, league):
        self.clocks.append(p)

    def _on_instr(self, p, league):
        self.instrs[p["id"]] = dict(p, results=[], moved=False)

    def _on_instr_result(self, p, league):
        r = self.instrs.get(p["id"])
        if r is not None:
            r["results"].append(p)
        if p.get("final_stack") and self.final is not None:
            # a player who left their old table after the final draw: the chips they left
            # with (tdhost.livemoves.late_done); copied, the draw's payload stays as logged
            self.final = dict(self.final, stacks=dict(self.final.get("stacks") or {},
                                                      **p["final_stack"]),
                              walked=sorted(set(self.final.get("walked") or ())
                                            | set(p["final_stack"])))

    def _on_notice(self, p, league):
        pass

    def _on_final_seated(self, p, league):
        # the finalists' chips once every table finished its hand (tdhost.livefinal.final_seat)
        if self.final is not None:
            self.final = dict(self.final, stacks=dict(p["stacks"]), seated=True)

    def _on_hand_for_hand(self, p, league):
        self.hfh = {"wait": dict(p["wait"]), "round": 0} if p["on"] else None

    def _on_hfh_release(self, p, league):
        if self.hfh is not None:
            self.hfh = {"wait": dict(p["wait"]), "round": p["round"]}

    def _on_bust(self, p, league):
        for tier in p["tiers"]:
            for name in tier:
                self.get(name).state = "out"
                self.get(name).absent = None
        self.busts.append(p)
        for seat, name in p.get("offers", []):
            self.offers.append({"seat": seat, "freed_by": name, "passed": []})
        rem = self.remaining()
        if len(rem) == 1:
            self.ended = {"kind": "last", "tiers": [[rem[0].name]], "time": p["time"]}

    def _on_money(self, p, league):  # tdhost.livemoney decides; docs/host.md §11
        self.money.append(p)

    def _on_end(self, p, league):
        self.ended = {"kind": "time", "tiers": p["tiers"], "time": p["time"],
                      "chips": p["chips"]}

    # ------------------------------------------------------------- deciding
    def _open(self):
        if self.ended:
            raise Refused("tournament %d (%s) has finished" % (self.number, self.setup["name"]))

    def _started(self):
        self._open()
        if self.started is None:
            raise Refused("the tournament has not started: `tdhost start` calls "
                          "\"shuffle up and deal\"")

    def _after_start(self, when):
        if when < self.started:
            raise Refused("%s is before the start of the tournament (%s)" % (
                when.strftime("%H:%M:%S"), self.started.strftime("%H:%M:%S")))

    def decide_register(self, name, member, when, league, seq):
        self._open()
        name = clean_name(name)
        e = self.get(name)
        if e is not None:
            if e.state == "standby":
                raise Refused("%s is already on the standby list (number %d)"
                              % (e.name, self.standby.index(player_key(name)) + 1))
            raise Refused("%s is already registered" % e.name)
        if self.started:
            raise Refused("the tournament has started: a latecomer joins with "
                          "`tdhost late %s`" % _quote(name))
        name = league.display_name(name)
        member = member or league.is_member(name)
        cap, sb = self.setup["max_players"], self.setup["standby"]
        payload = {"name": name, "member": member, "standby": False, "seat": None}
        if cap is not None and self.field_size() >= cap:
            if len(self.standby) >= sb:
                raise Refused("%s and %s" % (
                    self.full_text(), "so is the standby list (%d players)" % sb if sb
                    else "has no standby list"))
            payload["standby"] = True
            return payload, "The tournament is full (%d players): %s is standby player %d " \
                "of %d." % (cap, name, len(self.standby) + 1, sb)
        count = "%d of %d" % (self.field_size() + 1, cap) if cap else "%d registered" % (
            self.field_size() + 1)
        if self.draw:
            seat = self.pick_seat(name, seq)
            payload["seat"] = seat
            return payload, "%s is registered (%s) and drawn to %s." % (
                name, count, seat_text(seat))
        return payload, "%s is registered (%s)%s." % (name, count,
                                                      ", a member" if member else "")

    def full_text(self):
        """Why a newcomer is refused at the cap, naming the rule: max_players counts entries
        (players knocked out too), not seats in play."""
        cap = self.setup["max_players"]
        text = "the tournament is full: %d entries of the %d that max_players allows" % (
            self.field_size(), cap)
        if self.started:
            text += " (it counts every entry, players knocked out too: %d in play)" % len(
                self.remaining())
        return text

    def decide_standby_add(self, name, member, league):
        self._open()
        name = clean_name(name)
        cap, sb = self.setup["max_players"], self.setup["standby"]
        e = self.get(name)
        if e is not None:
            raise Refused("%s is already registered" % e.name if e.state == "registered"
                          else self._state_sentence(e))
        if not sb:
            raise Refused("this tournament has no standby list (standby = 0 in the file)")
        if self.field_size() < cap:
            raise Refused("the tournament is not full (%d of %d players): %s"
                          % (self.field_size(), cap, "register the player with `tdhost "
                             "register`" if not self.started else "a latecomer joins with "
                             "`tdhost late`"))
        if len(self.standby) >= sb:
            raise Refused("the standby list is full (%d players)" % sb)
        name = league.display_name(name)
        return {"name": name, "member": member or league.is_member(name), "standby": True,
                "seat": None}, "%s is standby player %d of %d." % (name, len(self.standby) + 1,
                                                                    sb)

    def pick_seat(self, name, seq, exclude=(), closed=(), spare=()):
        """A seat for a newcomer: the table with the fewest players that has a free seat
        (ties by a seeded draw), then a seeded free seat.  When all are full: the first
        table of *spare* (numbers of empty tables with a box: tdhost.live), else a new
        table.  *exclude*: seats not to give ([table, seat]); *closed*: tables never to
        use (broken on the live night).  The CLI passes none of them."""
        n = self.setup["seats_per_table"]
        seed = (self.final or self.draw or {}).get("seed", self.number)
        rng = random.Random("%s|seat|%d|%s" % (seed, seq, player_key(name)))
        seating = self.seating()
        taken = self.offered_seats() | {tuple(x) for x in exclude}
        tables = sorted(self.tables_used | set(seating))
        free = {}
        for t in tables:
            fs = [s for s in range(1, n + 1)
                  if s not in seating.get(t, {}) and (t, s) not in taken]
            if fs and t not in closed:
                free[t] = fs
        if not free:
            spare = [t for t in sorted(spare) if t not in closed and not seating.get(t)]
            t = spare[0] if spare else max(tables + list(closed), default=0) + 1
            return [t, rng.choice([s for s in range(1, n + 1) if (t, s) not in taken])]
        fewest = min(len(seating.get(t, {})) for t in free)
        t = rng.choice([t for t in sorted(free) if len(seating.get(t, {})) == fewest])
        return [t, rng.choice(free[t])]

    def decide_lock(self, name, table, seat, reason):
        self._open()
        e = self.need(name, ("registered",))
        if self.draw:
            raise Refused("the seats are drawn already: lock %s before the draw, or draw "
                          "again with `tdhost draw --again`" % e.name)
        n = self.setup["seats_per_table"]
        if not 1 <= seat <= n:
            raise Refused("seat %d does not exist: tables have seats 1 to %d" % (seat, n))
        if table < 1:
            raise Refused("table numbers start at 1")
        cap = self.setup["max_players"]
        if cap is not None and table > _draw.table_count(cap, n):
            most = _draw.table_count(cap, n)
            raise Refused("table %d does not exist: %d players (max_players) fill at most %d "
                          "table%s of %d seats (table%s 1%s)" % (
                              table, cap, most, "" if most == 1 else "s", n,
                              "" if most == 1 else "s", "" if most == 1 else " to %d" % most))
        if self.locks.get(player_key(name), [None, None])[:2] == [table, seat]:
            raise Refused("%s is locked to table %d seat %d already" % (e.name, table, seat))
        for k, (t, s, _) in self.locks.items():
            if (t, s) == (table, seat) and k != player_key(name):
                raise Refused("table %d seat %d is locked for %s already"
                              % (table, seat, self.players[k].name))
        return {"name": e.name, "table": table, "seat": seat, "reason": reason}

    def decide_unlock(self, name):
        self._open()
        e = self.need(name)
        lock = self.locks.get(player_key(e.name))
        if lock is None:
            raise Refused("%s has no seat lock" % e.name)
        if self.started:
            raise Refused("the tournament has started: a seat lock only matters for the draw")
        return {"name": e.name, "table": lock[0], "seat": lock[1]}

    def decide_draw(self, seed, ace8, again, final):
        self._open()
        mode = "Ace-8" if ace8 else "random"
        if final:
            if self.started is None:
                raise Refused("the final-table draw comes after the start")
            if self.final and not again:
                raise Refused("the final table is drawn already (seed %s): `tdhost draw "
                              "--final --again` draws it anew" % self.final["seed"])
            _, house = _house.get(self.setup["profile"])
            size = _house.final_size(house, self.setup["seats_per_table"])
            rem = self.remaining()
            if len(rem) > size:
                raise Refused("%d players remain; the final table forms at %d or fewer"
                              % (len(rem), size))
            seated = {e.name: tuple(e.seat) for e in rem}
            try:
                out = _draw.final_draw(seated, self.setup["seats_per_table"], seed,
                                       self.setup["profile"], ace8, self.rules["first_button"])
            except _draw.DrawError as err:
                raise Refused(str(err))
        else:
            if self.started:
                raise Refused("the tournament has started: only the final table is drawn "
                              "again (`tdhost draw --final`)")
            if self.draw and not again:
                raise Refused("the seats are drawn already (seed %s): `tdhost draw --again` "
                              "draws them anew" % self.draw["seed"])
            players = [e.name for e in self.entries("registered")]
            locks = {self.players[k].name: (t, s) for k, (t, s, _) in self.locks.items()}
            try:
                out = _draw.first_draw(players, self.setup["seats_per_table"], seed, locks,
                                       ace8, self.rules["first_button"])
            except _draw.DrawError as err:
                raise Refused(str(err))
        out.update({"seed": seed, "mode": mode, "final": final})
        return out

    def decide_start(self, when, awol, away):
        self._open()
        if self.started:
            raise Refused("the tournament started at %s already" % self.started.strftime(
                "%H:%M:%S"))
        if not self.draw:
            raise Refused("draw the seats first (`tdhost draw`)")
        reg = self.entries("registered")
        unseated = [e.name for e in reg if not e.seat]
        if unseated:
            raise Refused("%s %s no seat: `tdhost draw --again`" % (
                names_text(unseated), "has" if len(unseated) == 1 else "have"))
        awol = [self.need(n, ("registered",)).name for n in awol]
        away = [self.need(n, ("registered",)).name for n in away]
        both = set(awol) & set(away)
        if both:
            raise Refused("%s cannot be both absent (AWOL) and away" % names_text(sorted(both)))
        if len(set(awol)) != len(awol) or len(set(away)) != len(away):
            raise Refused("a player is named twice")
        late = self.setup["late"]
        replaced, notes = [], []
        cap = self.setup["max_players"]
        full = cap is not None and self.field_size() >= cap
        if late["standby_replaces_absent"] and full and self.standby:
            for a, s in zip(awol, list(self.standby)):
                replaced.append([a, self.players[s].name])
                notes.append("%s takes %s's seat (%s) with %d chips; %s goes on the standby "
                             "list in %s's place" % (self.players[s].name, a, seat_text(
                                 self.get(a).seat), self.setup["starting_stack"], a,
                                 self.players[s].name))
        gone = {a for a, _ in replaced}
        still_awol = [a for a in awol if a not in gone]
        for a in still_awol:
            if late["absent_deductions"] and self.deductions():
                d = self.deductions()
                notes.append("%s is not seated: blinds are posted when due; %d chips are "
                             "removed after %d minutes%s" % (
                                 a, d[0], late["grace_minutes"],
                                 " and %d more when level 2 starts" % d[1] if len(d) > 1
                                 else ""))
            else:
                notes.append("%s is not seated: blinds are posted when due" % a)
        for a in away:
            notes.append("%s is away (whereabouts known): blinds are posted when due, no "
                         "chips are removed" % a)
        started = len(reg) - len(still_awol)
        return {"time": iso(when), "awol": still_awol, "away": away, "replaced": replaced,
                "started_on_time": started}, notes

    def decide_level(self, level, when):
        self._started()
        numbers = [e[4] for e in parse_levels(self.setup["levels"]) if e[4]]
        if level not in numbers:
            raise Refused("there is no level %d (levels 1 to %d)" % (level, numbers[-1]))
        if self.anchors and self.anchors[-1][0] == level:
            raise Refused("level %d was already set to start at %s" % (
                level, self.anchors[-1][1].strftime("%H:%M:%S")))
        self._after_start(when)
        return {"level": level, "time": iso(when)}

    def late_window(self, when):
        """(level, None) if late entry is open at *when*, else Refused."""
        late = self.setup["late"]
        until = late["until_level"]
        if until is None:
            raise Refused("there is no late registration in this tournament (the file gives "
                          "no late_entry.until_level for profile %s)" % self.setup["profile"])
        level, clock = self.level_at(when)
        if not clock.late_entry_open():  # the boxes' own window (tableclock.clock)
            raise Refused("level %d has started: late entry closes at the start of level %d"
                          % (level, until))
        return level

    def decide_late(self, name, member, when, league, seq, seat=None, spare=()):
        self._started()
        name = clean_name(name)
        e = self.get(name)
        if e is not None:
            if e.state == "registered":
                raise Refused("%s is registered: `tdhost arrive %s`" % (e.name, _quote(e.name)))
            if e.state == "standby":
                raise Refused("%s is standby player %d: standby players take a freed seat "
                              "(`tdhost standby --take`)" % (
                                  e.name, self.standby.index(player_key(name)) + 1))
            if e.state == "in" and e.absent:
                raise Refused("%s is registered and has a seat: `tdhost arrive %s`"
                              % (e.name, _quote(e.name)))
            raise Refused(self._state_sentence(e))
        self._after_start(when)
        self.late_window(when)
        cap = self.setup["max_players"]
        if cap is not None and self.field_size() >= cap:
            raise Refused("%s%s" % (
                self.full_text(), ": `tdhost standby %s` puts the player on the standby list"
                % _quote(name) if len(self.standby) < self.setup["standby"] else ""))
        late = self.setup["late"]
        reasons = []
        need = late["min_players"]
        if need:
            rem, out = len(self.remaining()), len(self.entries("out"))
            started = self.started_on_time
            if rem >= need:
                reasons.append("%d players remain (at least %d are needed)" % (rem, need))
            elif started < need and out == 0:
                reasons.append("fewer than %d players started (%d) and nobody is out yet"
                               % (need, started))
            elif started < need:
                raise Refused("only %d players remain and %d %s been knocked out: with fewer "
                              "than %d starters (%d) a latecomer may join only while nobody "
                              "is out" % (rem, out, "has" if out == 1 else "have", need,
                                          started))
            else:
                raise Refused("only %d players remain: a latecomer needs at least %d players "
                              "in the game before joining" % (rem, need))
        stack, dead, lv, why = self.late_stack(when)
        reasons.append(why)
        name = league.display_name(name)
        if seat is None:
            seat = self.pick_seat(name, seq)
        else:
            self.check_free(seat, spare)
        return {"name": name, "member": member or league.is_member(name), "time": iso(when),
                "level": lv, "stack": stack, "dead_bb": dead, "seat": seat,
                "reasons": reasons}

    def check_free(self, seat, spare=()):
        """Refused unless *seat* exists at a table in play, the next new table or a table of
        *spare* (empty tables with a box: tdhost.live), and nobody sits there."""
        n = self.setup["seats_per_table"]
        t, s = seat
        if t < 1 or not 1 <= s <= n:
            raise Refused("table %d seat %d does not exist (seats 1 to %d)" % (t, s, n))
        used = self.tables_used | set(self.seating())
        if t not in used and t != max(used, default=0) + 1 and t not in spare:
            raise Refused("table %d is not in play (tables %s; the next new table is %d)" % (
                t, ", ".join(map(str, sorted(used))), max(used, default=0) + 1))
        who = self.seating().get(t, {}).get(s)
        if who:
            raise Refused("%s is taken by %s" % (seat_text(seat), who))

    def decide_arrive(self, name, when):
        self._started()
        e = self.need(name, ("in",))
        if not e.absent:
            raise Refused("%s is already seated (%s)" % (e.name, seat_text(e.seat)))
        self._after_start(when)
        if e.absent == "away":
            return {"name": e.name, "time": iso(when), "deduction": 0, "dead_bb": False,
                    "reason": "away at the start with known whereabouts: no chips removed"}
        ded, dead, why = self.absent_deduction(when)
        return {"name": e.name, "time": iso(when), "deduction": ded, "dead_bb": dead,
                "reason": why}

    def decide_standby_take(self, name, when, seat=None):
        self._started()
        e = self.need(name, ("standby",))
        key = player_key(name)
        pairs = self.offer_pairs()
        if not pairs:
            raise Refused("no seat is free for a standby player: standby players join when "
                          "a player is knocked out before level %s starts"
                          % self.setup["late"]["until_level"])
        mine = [o for o, k in pairs if k == key]
        if not mine:
            first = [(o, k) for o, k in pairs if k]
            o, k = first[0] if first else (pairs[0][0], None)
            if k is None:
                raise Refused("%s has passed on every free seat" % e.name)
            raise Refused("%s is offered to %s first (standby %d); if %s is not available: "
                          "`tdhost standby --pass %s`" % (
                              seat_text(o["seat"]), self.players[k].name,
                              self.standby.index(k) + 1, self.players[k].name,
                              _quote(self.players[k].name)))
        self._after_start(when)
        offer = mine[0]
        target = list(seat) if seat else offer["seat"]
        self.check_free(target)
        stack, dead, lv, why = self.late_stack(when)
        return {"name": e.name, "time": iso(when), "level": lv, "stack": stack,
                "dead_bb": dead, "seat": list(target), "offer": offer["seat"],
                "reasons": ["%s was knocked out before level %s: %s" % (
                    offer["freed_by"], self.setup["late"]["until_level"], why)]}

    def decide_standby_pass(self, name):
        self._started()
        e = self.need(name, ("standby",))
        key = player_key(name)
        mine = [o for o, k in self.offer_pairs() if k == key]
        if not mine:
            raise Refused("no seat is offered to %s now" % e.name)
        return {"name": e.name, "offer": mine[0]["seat"]}

    def decide_move(self, name, seat):
        self._started()
        e = self.need(name, ("in",))
        self.check_free(seat)
        return {"name": e.name, "from": e.seat, "seat": list(seat)}

    def decide_bust(self, names, chips, cards, board, when, league, hand_order=None):
        """*hand_order*: the box's finishing order at the showdown for players with equal
        chips (tiers best first: a tier is equal hands), used instead of cards."""
        self._started()
        entries = [self.need(n, ("in",)) for n in names]
        keys = [player_key(e.name) for e in entries]
        if len(set(keys)) != len(keys):
            raise Refused("a player is named twice")
        names = [e.name for e in entries]
        rem = self.remaining()
        if len(names) >= len(rem):
            raise Refused("%s %s the last player%s: someone wins the hand" % (
                names_text(names), "is" if len(names) == 1 else "are",
                "" if len(names) == 1 else "s"))
        self._after_start(when)
        given = {}
        for k, v in (chips or {}).items():
            e = self.get(k)
            if e is None or e.name not in names:
                raise Refused("chips are given for %s, who is not among the busted players" % k)
            if v < 1:
                raise Refused("%s's chips at the start of the hand must be at least 1" % e.name)
            given[e.name] = v
        chips = given
        hole = {}
        for k, v in (cards or {}).items():
            e = self.get(k)
            if e is None or e.name not in names:
                raise Refused("cards are given for %s, who is not among the busted players" % k)
            try:
                hole[e.name] = _hands.parse(v, "%s's cards" % e.name)
            except _hands.CardError as err:
                raise Refused(str(err))
        brd = None
        if board:
            try:
                brd = _hands.parse(board, "the board")
            except _hands.CardError as err:
                raise Refused(str(err))
        if hole or brd:
            if not brd:
                raise Refused("cards need the board as well (--board \"Ah 7d 2c 9s Tc\")")
            try:
                _hands.check_deal(hole, brd)
            except _hands.CardError as err:
                raise Refused(str(err))
        tiers, reasons = self.order_same_hand(names, chips, hole, brd, league, hand_order)
        level, clock = self.level_at(when)
        offers = []
        if clock.late_entry_open() and self.standby:
            offers = [[self.get(n).seat, n] for n in names if self.get(n).seat]
        return {"time": iso(when), "tiers": tiers, "chips": chips,
                "cards": {k: " ".join(v) for k, v in hole.items()},
                "board": " ".join(brd) if brd else None, "reasons": reasons,
                "level": level, "offers": offers}

    def order_same_hand(self, names, chips, hole, board, league, hand_order=None):
        """Tiers best first, and the sentences that explain them (LPPL ¶46, US 14).
        *hand_order* (tiers best first, from a box's showdown) replaces cards."""
        if len(names) == 1:
            return [names], []
        missing = [n for n in names if n not in chips]
        if missing:
            raise Refused("%d players went out in one hand: give --chips-at-start for each "
                          "(the player with more chips at the start of the hand finishes "
                          "higher); missing for %s" % (len(names), names_text(missing)))
        use_hand = self.box["bust_tiebreak_hand"]
        use_lb = self.rules["bust_tiebreak_leaderboard"]
        tied_chips = [n for n in names if sum(chips[m] == chips[n] for m in names) > 1]
        ranked = {}
        if use_hand and tied_chips and hand_order is not None and not hole:
            for i, tier in enumerate(hand_order):
                for n in tier:
                    if n in tied_chips:
                        ranked[n] = (-i, None)
            missing = [n for n in tied_chips if n not in ranked]
            if missing:
                raise Refused("the box's showdown does not rank %s" % names_text(missing))
        elif use_hand and tied_chips:
            need = [n for n in tied_chips if n not in hole]
            if need or not board:
                raise Refused("%s started the hand with equal chips: give --cards for %s "
                              "and --board (the better hand finishes higher)"
                              % (names_text(tied_chips), names_text(need or tied_chips)))
            ranked = _hands.rank({n: hole[n] for n in tied_chips}, board)
        lb, prev = ({}, {})
        if use_lb:
            lb, prev = league.leaderboard_points(self.number)

        def compare(a, b):
            """(sign, reason): sign > 0 if a finishes above b."""
            if chips[a] != chips[b]:
                return (1 if chips[a] > chips[b] else -1), "more chips at the start of the " \
                    "hand (%d to %d)" % (max(chips[a], chips[b]), min(chips[a], chips[b]))
            why = "both started the hand with %d chips" % chips[a]
            if ranked:
                ha, hb = ranked[a], ranked[b]
                if ha[0] != hb[0]:
                    hi, lo = (ha, hb) if ha[0] > hb[0] else (hb, ha)
                    if ha[1] is None:  # the box's ranking of the showdown
                        return (1 if ha[0] > hb[0] else -1), "%s; the better hand at the " \
                            "showdown (as the box ranked it)" % why
                    return (1 if ha[0] > hb[0] else -1), "%s; the better hand: %s beats %s" % (
                        why, hi[1], lo[1])
                why += "; equal hands (%s)" % ha[1] if ha[1] else "; equal hands at the " \
                    "showdown"
            if use_lb:
                for board_name, pts in (("league leaderboard", lb),
                                        ("previous leaderboard", prev)):
                    pa, pb = pts.get(player_key(a), 0), pts.get(player_key(b), 0)
                    if pa != pb:
                        return (1 if pa > pb else -1), "%s; higher on the %s (%s to %s " \
                            "points)" % (why, board_name, _num(max(pa, pb)), _num(min(pa, pb)))
                why += "; level on the leaderboard"
            return 0, why

        order = sorted(names, key=functools.cmp_to_key(lambda a, b: -compare(a, b)[0]))
        tiers = [[order[0]]]
        reasons = []
        for a, b in zip(order, order[1:]):
            sign, why = compare(a, b)
            if sign == 0:
                tiers[-1].append(b)
                reasons.append("%s and %s tie: %s; they share the places" % (a, b, why))
            else:
                tiers.append([b])
                reasons.append("%s finishes above %s: %s" % (a, b, why))
        return tiers, reasons

    def decide_end(self, chips, when):
        self._started()
        rem = self.remaining()
        given = {}
        for name, n in chips.items():
            e = self.need(name, ("in",))
            if n < 1:
                raise Refused("%s has no chips: `tdhost bust %s` instead" % (e.name,
                                                                          _quote(e.name)))
            given[e.name] = n
        self._after_start(when)
        missing = [e.name for e in rem if e.name not in given]
        if missing:
            raise Refused("give the chips of every player still in; missing: %s"
                          % names_text(missing))
        order = sorted(given, key=lambda n: -given[n])
        tiers = []
        for n in order:
            if tiers and given[tiers[-1][0]] == given[n]:
                tiers[-1].append(n)
            else:
                tiers.append([n])
        return {"time": iso(when), "chips": given, "tiers": tiers}


def _ms(t):
    """A datetime as Unix milliseconds."""
    return int(round(t.timestamp() * 1000))


def _num(v):
    return ("%.2f" % v).rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def _mmss(minutes):
    s = int(round(minutes * 60))
    return "%d:%02d" % (s // 60, s % 60)


def _quote(name):
    return '"%s"' % name if " " in name else name


# ---------------------------------------------------------------------------- league

class League:
    def __init__(self):
        self.name = None
        self.tournaments = {}
        self.members = set()
        self.names = {}          # key -> display name (first spelling)
        self._events = []
        self.load_events = None  # a league from a checkpoint: reads the whole log on demand
        self.seq = 0             # the last event applied
        self.count = 0           # events applied (undos included): the next is count + 1
        self.undone = {}         # seq -> seq of the undo event
        self.parts = {}          # from a checkpoint: where its tournaments are in the file

    @property
    def events(self):
        """The log's events (store.Event), in order.  A league loaded from a checkpoint
        (tdhost.checkpoint) holds only those after it and reads the rest when asked."""
        if self.load_events is not None:
            self._events = self.load_events()
            self.load_events = None
        return self._events

    @events.setter
    def events(self, events):
        self._events = events
        self.load_events = None

    def is_member(self, name):
        return player_key(name) in self.members

    def display_name(self, name):
        return self.names.get(player_key(name), name)

    def current(self, number=None):
        if not self.tournaments:
            raise Refused("the league has no tournament yet: `tdhost new FILE.toml`")
        if number is None:
            return self.tournaments[max(self.tournaments)]
        if number not in self.tournaments:
            raise Refused("there is no tournament %d (tournaments 1 to %d)"
                          % (number, max(self.tournaments)))
        return self.tournaments[number]

    def finished(self, before=None):
        return [t for n, t in sorted(self.tournaments.items())
                if t.ended and (before is None or n < before)]

    def standings(self, before=None):
        """[{"rank", "name", "member", "events", "wins", "best", "points"}] over the
        finished tournaments (numbered below *before*), most points first."""
        rows = {}
        for t in self.finished(before):
            for r in t.results():
                key = player_key(r["name"])
                row = rows.setdefault(key, {"name": self.names.get(key, r["name"]),
                                            "member": key in self.members, "events": 0,
                                            "wins": 0, "best": None, "points": 0})
                row["events"] += 1
                row["points"] = round(row["points"] + r["points"], 6)
                if r["first"] == 1:
                    row["wins"] += 1
                if row["best"] is None or r["first"] < row["best"]:
                    row["best"] = r["first"]
        out = sorted(rows.values(), key=lambda r: (-r["points"], -r["wins"],
                                                   r["best"] or 10**9, r["name"].casefold()))
        rank = 0
        for i, r in enumerate(out):
            if i == 0 or r["points"] != out[i - 1]["points"]:
                rank = i + 1
            r["rank"] = rank
        return out

    def leaderboard_points(self, number):
        """({key: points} on the leaderboard before tournament *number*, the same on the
        previous leaderboard: before the last tournament that counted)."""
        done = self.finished(number)
        now = {player_key(r["name"]): r["points"] for r in self.standings(number)}
        if not done:
            return now, {}
        prev = {player_key(r["name"]): r["points"] for r in self.standings(done[-1].number)}
        return now, prev

    def last_action(self, number):
        """The events of the last TD action in tournament *number* that can be undone (one
        command may have written several, e.g. `register A B C`), or []."""
        for ev in reversed(self.events):
            if ev.tournament != number or ev.seq in self.undone or ev.action == "undo" \
                    or ev.action in SYSTEM_ACTIONS:
                continue
            if ev.action == "new":
                return []
            return [e for e in self.events if e.batch == ev.batch and e.seq not in self.undone]
        return []


def replay(events):
    """The league after *events* (store.Event list, in order)."""
    lg = League()
    lg.events = events
    for ev in events:
        if ev.action == "undo":
            lg.undone[ev.undoes] = ev.seq
    for ev in events:
        apply_event(lg, ev)
    return lg


def apply_event(lg, ev):
    """One step of ``replay``: event *ev* applied to league *lg* (an ``undo``, and an event
    an undo cancelled, change nothing here: ``replay`` reads the undos first).
    tdhost.logcache applies a log's new events this way when none of them is an undo."""
    lg.seq = ev.seq
    lg.count += 1
    if ev.action == "undo" or ev.seq in lg.undone:
        return
    if ev.action == "new":
        setup = ev.payload["setup"]
        lg.name = lg.name or setup["league"]
        lg.tournaments[ev.tournament] = Tournament(ev.tournament, setup, ev.at)
        return
    t = lg.tournaments[ev.tournament]
    t.apply(ev, lg)
    if ev.action in ("register", "late"):
        key = player_key(ev.payload["name"])
        lg.names.setdefault(key, ev.payload["name"])
        if ev.payload["member"]:
            lg.members.add(key)


def summary(ev):
    """One line for the log."""
    p = ev.payload
    a = ev.action
    if a == "new":
        s = p["setup"]
        return "tournament %d: %s (%s, %s)" % (ev.tournament, s["name"], s["profile"],
                                               p.get("file", "?"))
    if a == "register":
        return "%s %s%s%s" % ("standby" if p["standby"] else "register", p["name"],
                              " (member)" if p["member"] else "",
                              ", " + seat_text(p["seat"]) if p.get("seat") else "")
    if a == "lock":
        return "lock %s to table %d seat %d (%s)" % (p["name"], p["table"], p["seat"],
                                                     p["reason"])
    if a == "unlock":
        return "unlock %s (was table %d seat %d)" % (p["name"], p["table"], p["seat"])
    if a == "draw":
        return "%sdraw, %s, seed %s: %d players" % ("final-table " if p["final"] else "",
                                                   p["mode"], p["seed"], len(p["seats"]))
    if a == "start":
        extra = []
        if p["replaced"]:
            extra.append("replaced: " + ", ".join("%s by %s" % tuple(r) for r in p["replaced"]))
        if p["awol"]:
            extra.append("not seated: " + ", ".join(p["awol"]))
        if p["away"]:
            extra.append("away: " + ", ".join(p["away"]))
        return "shuffle up and deal at %s%s" % (clock_time(p["time"]),
                                                "; " + "; ".join(extra) if extra else "")
    if a == "level":
        return "level %d started at %s" % (p["level"], clock_time(p["time"]))
    if a == "late":
        return "latecomer %s at %s: %d chips%s, %s" % (
            p["name"], clock_time(p["time"]), p["stack"], ", dead big blind" if p["dead_bb"]
            else "", seat_text(p["seat"]))
    if a == "arrive":
        return "%s arrives at %s: %d chips removed%s" % (
            p["name"], clock_time(p["time"]), p["deduction"], ", dead big blind"
            if p["dead_bb"] else "")
    if a == "standby_take":
        return "standby %s takes %s: %d chips%s" % (p["name"], seat_text(p["seat"]), p["stack"],
                                                     ", dead big blind" if p["dead_bb"] else "")
    if a == "standby_pass":
        return "standby %s passes on %s" % (p["name"], seat_text(p["offer"]))
    if a == "move":
        return "move %s to %s" % (p["name"], seat_text(p["seat"]))
    if a == "bust":
        out = " / ".join(", ".join(t) for t in reversed(p["tiers"]))
        return "bust %s at %s%s" % (out, clock_time(p["time"]),
                                    " (same hand)" if sum(map(len, p["tiers"])) > 1 else "")
    if a == "end":
        return "time-limited end at %s: %s" % (clock_time(p["time"]), ", ".join(
            "%s %d" % (n, c) for n, c in sorted(p["chips"].items(), key=lambda x: -x[1])))
    if a == "money":
        return p["text"]
    if a == "undo":
        return "undo #%d (%s)" % (ev.undoes, p["summary"])
    if a in ("clock", "notice", "instr", "instr_result", "hand_for_hand", "hfh_release",
             "final_seated"):
        return p.get("text") or a
    return a
