"""One tournament's state as its events left it, and the questions asked of it: who is
where, the clock at a moment, the finishing order.  Events change it only through
tdhost.league.reducers; decisions live in entries, seats, play and busts (docs/host.md §3).
"""

import datetime
from typing import Any, Callable, Optional, Sequence

from tableclock.clock import LevelClock
from tableclock.levels import parse_levels
from tdhost.league.refusal import ActionRefused
from tdhost.league.text import place_text, player_key, seat_text
from tdhost.league.times import from_iso, to_unix_ms
from tdhost.rules import house as _house, points as _points

Payload = dict[str, Any]  # an event's payload: JSON values, as logged
Seat = list[int]          # [table, seat]
Tier = list[str]          # names sharing one finishing place


class Entry:
    """One player in one tournament."""

    def __init__(self, name: str, member: bool, state: str) -> None:
        self.name = name
        self.member = member
        self.state = state                  # registered | standby | in | out
        self.seat: Optional[Seat] = None
        self.entry: Optional[str] = None    # registered | late | standby | replacement
        self.stack: Optional[int] = None    # chips at entry
        self.dead_bb = False
        self.absent: Optional[str] = None   # None | awol | away (in the game, not seated)
        self.deducted = 0                   # chips removed for a late arrival
        self.reentries = 0                  # entries after the first (`reenter`)
        self.earlier = 0                    # the chips of those earlier entries


class Tournament:
    """A tournament's state (module notes); tdhost.league.checkpoint writes every
    attribute __init__ sets."""

    # what a tournament from a checkpoint reads only when used (docs/host.md §3.4)
    NIGHT = ("clocks", "instrs", "moves", "buttons")

    def __init__(self, number: int, setup: Payload, created: str) -> None:
        self.number = number
        self.setup = setup
        self.created = created
        self.box, self.rules = _house.get(setup["profile"])
        self.players: dict[str, Entry] = {}   # key -> Entry, in registration order
        self.standby: list[str] = []          # keys, in order
        self.locks: dict[str, list[Any]] = {}  # key -> [table, seat, reason]
        self.draw: Optional[Payload] = None   # the first draw's payload
        self.final: Optional[Payload] = None  # the final-table draw's payload
        self.started: Optional[datetime.datetime] = None  # "shuffle up and deal"
        self.started_on_time = 0
        self.anchors: list[tuple[int, datetime.datetime]] = []  # from `level`
        self.busts: list[Payload] = []        # `bust` payloads, in order
        self.offers: list[Payload] = []       # [{"seat", "freed_by", "passed": [keys]}]
        self.ended: Optional[Payload] = None  # {"kind": "last"|"time", "tiers", "time"}
        self.tables_used: set[int] = set()
        # the live night (tdhost.live)
        self.clocks: list[Payload] = []       # the master clock after each change
        self.instrs: dict[Any, Payload] = {}  # instruction id -> `instr` + "results"
        self.moves: list[Payload] = []        # `move` payloads, in order
        self.buttons: dict[str, Payload] = {}  # table -> the `button` its box last reported
        self.hfh: Optional[Payload] = None    # hand for hand: {"wait", "round"} or None
        self.money: list[Payload] = []        # re-buys, add-ons, knockouts, payouts
        self.rulings: list[Payload] = []      # rulings asked of the league (league.rulings)

    # A tournament loaded from a checkpoint reads its state only when first used, and its
    # night only when that is used: ``_core`` and ``_night`` are then functions returning
    # the attributes as a dict (tdhost.league.checkpoint).
    def __getattr__(self, name: str) -> Any:  # only for attributes not set (the lazy ones)
        attrs = self.__dict__
        if name.startswith("__"):
            raise AttributeError(name)
        read: Callable[[], dict[str, Any]]
        if "_core" in attrs:
            read = attrs.pop("_core")
        elif name in Tournament.NIGHT and "_night" in attrs:
            read = attrs.pop("_night")
        else:
            raise AttributeError(name)
        for k, v in read().items():
            attrs.setdefault(k, v)  # one set before it was read (`t.started = ...`) is newer
        return getattr(self, name)

    def read_lazy(self) -> None:
        """Read whatever a tournament from a checkpoint has not read yet."""
        for k in ("setup",) + Tournament.NIGHT:
            getattr(self, k)

    # ------------------------------------------------------------------ players
    def get(self, name: str) -> Optional[Entry]:
        return self.players.get(player_key(name))

    def need(self, name: str, states: Sequence[str] = ()) -> Entry:
        """The player *name*, in one of *states* (any when empty); else ActionRefused."""
        entry = self.get(name)
        if entry is None:
            raise ActionRefused("%s is not in tournament %d" % (name, self.number))
        if states and entry.state not in states:
            raise ActionRefused(self.state_sentence(entry))
        return entry

    def state_sentence(self, entry: Entry) -> str:
        """Where *entry* stands, as the sentence refusing an action that needs otherwise."""
        if entry.state == "out":
            return "%s is already out (%s)" % (entry.name, self.place_of(entry.name))
        if entry.state == "standby":
            return "%s is standby player %d, not playing" % (
                entry.name, self.standby.index(player_key(entry.name)) + 1)
        if entry.state == "registered":
            return "%s is registered but the tournament has not started" % entry.name
        return "%s is playing (%s)" % (entry.name,
                                       seat_text(entry.seat) if entry.seat else "no seat")

    def entries(self, *states: str) -> list[Entry]:
        return [entry for entry in self.players.values() if entry.state in states]

    def remaining(self) -> list[Entry]:
        return self.entries("in")

    def entrants(self) -> list[Entry]:
        return self.entries("in", "out")

    def field_size(self) -> int:
        """Entries that count against max_players: registered, late and replacement
        players and re-entries (standby players who take a freed seat come on top)."""
        return len([entry for entry in self.players.values()
                    if entry.state in ("registered", "in", "out") and entry.entry != "standby"]
                   ) + self.reentries()

    def reentry_rule(self) -> dict[str, Any]:
        """The file's ``[reentry]``: {"max", "until_level"} (a league file written before
        it: none)."""
        rule: dict[str, Any] = self.setup.get("reentry") or {"max": 0, "until_level": None}
        return rule

    def reentries(self) -> int:
        """Re-entries taken (each counts as a new entry: the field, the points)."""
        return sum(entry.reentries for entry in self.players.values())

    def entry_count(self) -> int:
        """The entries of the night for the points: every player who played, and every
        re-entry."""
        return len(self.entrants()) + self.reentries()

    def seating(self) -> dict[int, dict[int, str]]:
        """{table: {seat: name}} of the players in the game (or registered, before the
        start) who have a seat."""
        out: dict[int, dict[int, str]] = {}
        for entry in self.players.values():
            if entry.seat and entry.state in ("registered", "in"):
                out.setdefault(entry.seat[0], {})[entry.seat[1]] = entry.name
        return out

    def offered_seats(self) -> set[tuple[int, ...]]:
        return {tuple(offer["seat"]) for offer in self.offers}

    def offer_pairs(self) -> list[tuple[Payload, Optional[str]]]:
        """[(offer, standby key or None)]: each open seat goes to the first standby player
        who has not passed on it and is not offered an earlier seat."""
        used: set[str] = set()
        out: list[tuple[Payload, Optional[str]]] = []
        for offer in self.offers:
            who = next((k for k in self.standby if k not in used and k not in offer["passed"]),
                       None)
            if who:
                used.add(who)
            out.append((offer, who))
        return out

    # ------------------------------------------------------------------ the clock
    def start_time(self) -> datetime.datetime:
        """When "shuffle up and deal" was called; ActionRefused before (or after the end)."""
        self.refuse_if_finished()
        if self.started is None:
            raise ActionRefused("the tournament has not started: `tdhost start` calls "
                                "\"shuffle up and deal\"")
        return self.started

    def refuse_if_finished(self) -> None:
        if self.ended:
            raise ActionRefused("tournament %d (%s) has finished" % (self.number,
                                                                     self.setup["name"]))

    def refuse_if_before_start(self, when: datetime.datetime) -> None:
        started = self.start_time()
        if when < started:
            raise ActionRefused("%s is before the start of the tournament (%s)" % (
                when.strftime("%H:%M:%S"), started.strftime("%H:%M:%S")))

    def level_at(self, when: datetime.datetime) -> tuple[int, LevelClock]:
        """(last level started, LevelClock at *when*); level 0 before the start."""
        clock = self.clock_at(int(when.timestamp() * 1000))
        if self.started is None or when < self.started:
            return 0, clock
        return clock.started_level(), clock

    def clock_at(self, ms: int) -> LevelClock:
        """The master clock at *ms* (Unix milliseconds): level 1 from the start, moved by
        `level N` anchors and by the live night's `clock` readings (the latest of them
        before *ms* counts); paused before the start, and stopped where it stood at the end
        (the last bust, or the TD's end): a finished night's clock runs on nowhere."""
        if self.ended and self.ended.get("time"):
            end_ms = to_unix_ms(from_iso(self.ended["time"]))
            if ms > end_ms:
                clock = self.clock_at(end_ms)
                clock.paused = True
                return clock
        levels = parse_levels(self.setup["levels"])
        clock = LevelClock(levels, self.setup["colour_ups"], 0,
                           self.setup["late"]["until_level"])
        if self.started is None or ms < to_unix_ms(self.started):
            clock.paused = True
            return clock
        level, at = 1, to_unix_ms(self.started)
        for n, when in self.anchors:
            if to_unix_ms(when) <= ms:
                level, at = n, to_unix_ms(when)
        reading = None
        for saved in self.clocks:
            if saved["at_ms"] <= ms and saved["at_ms"] >= at:
                reading = saved
        if reading is not None:
            clock.index, clock.left_ms, clock.paused = reading["index"], \
                reading["left_ms"], reading["paused"]
            clock.advance(ms - reading["at_ms"])
            return clock
        clock.jump(level)
        clock.advance(ms - at)
        return clock

    def minutes_since_start(self, when: datetime.datetime) -> float:
        assert self.started is not None, "asked before the start"
        return (when - self.started).total_seconds() / 60.0

    def deductions(self) -> list[int]:
        """Chips removed from a late entry at each level (the tournament file)."""
        deductions: list[int] = self.setup["late"]["deductions"]
        return deductions

    # ------------------------------------------------------------------ ranking
    def ranking(self) -> list[tuple[Tier, Optional[int], Optional[int]]]:
        """[(names, first place, last place)] best first.  Before the end the players
        still in come first as one group with places (None, None)."""
        out: list[tuple[Tier, Optional[int], Optional[int]]] = []
        pos = 0
        if self.ended:
            for tier in self.ended["tiers"]:
                out.append((tier, pos + 1, pos + len(tier)))
                pos += len(tier)
        else:
            rem = [entry.name for entry in self.remaining()]
            if rem:
                out.append((rem, None, None))
            pos = len(rem)
        for bust in reversed(self.busts):
            for tier in bust["tiers"]:
                out.append((tier, pos + 1, pos + len(tier)))
                pos += len(tier)
        return out

    def place_of(self, name: str) -> str:
        for names, first, last in self.ranking():
            if name in names and first and last:
                return place_text(first, last)
        return "in play"

    def results(self) -> list[Payload]:
        """[{"place", "first", "last", "name", "member", "entry", "points"}] best first."""
        n = self.entry_count()
        rows = []
        for names, first, last in self.ranking():
            for name in names:
                entry = self.need(name)
                pts = None
                if first and last and self.ended:
                    pts = _points.points(self.setup["points"], first, last, n)
                rows.append({"place": place_text(first, last) if first and last
                             else "in play", "first": first, "last": last, "name": name,
                             "member": entry.member, "entry": entry.entry, "points": pts})
        return rows
