"""The league as its event log leaves it: the tournaments, the members, the standings.
``replay`` applies the stored payloads in order and never decides again, so history
means the same after any code change (docs/host.md §3)."""

from typing import Any, Callable, Optional

from tdhost.league import reducers
from tdhost.league.refusal import ActionRefused
from tdhost.league.store import LoggedEvent
from tdhost.league.text import player_key
from tdhost.league.tournament import Payload, Tournament

# events written by tdhost.live for the boxes and the clock, not TD actions: undo skips them
SYSTEM_ACTIONS = frozenset(("clock", "instr", "instr_result", "notice", "hand_for_hand",
                            "hfh_release", "final_seated", "button"))


class League:
    """The league's state (module notes)."""

    def __init__(self) -> None:
        self.name: Optional[str] = None
        self.tournaments: dict[int, Tournament] = {}
        self.members: set[str] = set()
        self.names: dict[str, str] = {}  # key -> display name (first spelling)
        self.numbers: dict[str, str] = {}  # member number (case folded) -> key of its
        #                                    latest name (a member may change their name)
        self.number_keys: dict[str, str] = {}  # key -> member number (every name it had)
        self._events: list[LoggedEvent] = []
        # a league from a checkpoint: reads the whole log on demand
        self.load_events: Optional[Callable[[], list[LoggedEvent]]] = None
        self.seq = 0             # the last event applied
        self.count = 0           # events applied (undos included): the next is count + 1
        self.undone: dict[int, int] = {}  # seq -> seq of the undo event
        self.parts: dict[int, list[Any]] = {}  # from a checkpoint: where its tournaments are
        # set by tdhost.league.checkpoint.load: events applied, the checkpoint's seq
        self.applied = 0
        self.checkpoint = 0

    @property
    def events(self) -> list[LoggedEvent]:
        """The log's events, in order.  A league loaded from a checkpoint
        (tdhost.league.checkpoint) holds only those after it and reads the rest when asked."""
        if self.load_events is not None:
            self._events = self.load_events()
            self.load_events = None
        return self._events

    @events.setter
    def events(self, events: list[LoggedEvent]) -> None:
        self._events = events
        self.load_events = None

    def is_member(self, name: str) -> bool:
        return player_key(name) in self.members

    def number_of(self, name: str) -> Optional[str]:
        """The league member number *name* registered with, or None."""
        return self.number_keys.get(player_key(name))

    def note_member_no(self, name: str, member_no: str) -> None:
        """*name* registered with *member_no*: the member's current name."""
        key, number = player_key(name), member_no.casefold()
        self.numbers[number] = key
        self.number_keys[key] = number

    def identity(self, name: str) -> tuple[str, str]:
        """(who, current name) of player *name* across the league: a member number groups
        every name its member registered with, shown with the latest; else the name."""
        key = player_key(name)
        number = self.number_keys.get(key)
        if number is None:
            return key, self.names.get(key, name)
        latest = self.numbers[number]
        return "#" + number, self.names.get(latest, latest)

    def display_name(self, name: str) -> str:
        return self.names.get(player_key(name), name)

    def current(self, number: Optional[int] = None) -> Tournament:
        if not self.tournaments:
            raise ActionRefused("the league has no tournament yet: `tdhost new FILE.toml`")
        if number is None:
            return self.tournaments[max(self.tournaments)]
        if number not in self.tournaments:
            raise ActionRefused("there is no tournament %d (tournaments 1 to %d)"
                                % (number, max(self.tournaments)))
        return self.tournaments[number]

    def finished(self, before: Optional[int] = None) -> list[Tournament]:
        return [tournament for n, tournament in sorted(self.tournaments.items())
                if tournament.ended and (before is None or n < before)]

    def standings(self, before: Optional[int] = None) -> list[Payload]:
        """[{"rank", "name", "member", "events", "wins", "best", "points"}] over the
        finished tournaments (numbered below *before*), most points first."""
        rows: dict[str, Payload] = {}
        for tournament in self.finished(before):
            for result in tournament.results():
                who, name = self.identity(result["name"])  # by member number where known
                row = rows.setdefault(who, {"name": name, "member": False, "events": 0,
                                            "wins": 0, "best": None, "points": 0,
                                            "member_no": None})
                row["member"] = row["member"] or player_key(result["name"]) in self.members
                if who.startswith("#"):
                    row["member_no"] = who[1:].upper()
                row["events"] += 1
                row["points"] = round(row["points"] + result["points"], 6)
                if result["first"] == 1:
                    row["wins"] += 1
                if row["best"] is None or result["first"] < row["best"]:
                    row["best"] = result["first"]
        out = sorted(rows.values(), key=lambda row: (-row["points"], -row["wins"],
                                                     row["best"] or 10**9, row["name"].casefold()))
        rank = 0
        for i, result in enumerate(out):
            if i == 0 or result["points"] != out[i - 1]["points"]:
                rank = i + 1
            result["rank"] = rank
        return out

    def leaderboard_points(self, number: int) -> tuple[dict[str, float], dict[str, float]]:
        """({key: points} on the leaderboard before tournament *number*, the same on the
        previous leaderboard: before the last tournament that counted)."""
        done = self.finished(number)
        now = {player_key(row["name"]): row["points"] for row in self.standings(number)}
        if not done:
            return now, {}
        prev = {player_key(row["name"]): row["points"]
                for row in self.standings(done[-1].number)}
        return now, prev

    def last_action(self, number: int) -> list[LoggedEvent]:
        """The events of the last TD action in tournament *number* that can be undone (one
        command may have written several, e.g. `register A B C`), or []."""
        for ev in reversed(self.events):
            if ev.tournament != number or ev.seq in self.undone or ev.action == "undo" \
                    or ev.action in SYSTEM_ACTIONS:
                continue
            if ev.action == "new":
                return []
            return [event for event in self.events
                    if event.batch == ev.batch and event.seq not in self.undone]
        return []


def replay(events: list[LoggedEvent]) -> League:
    """The league after *events* (in order)."""
    league = League()
    league.events = events
    for ev in events:
        if ev.action == "undo" and ev.undoes is not None:
            league.undone[ev.undoes] = ev.seq
    for ev in events:
        apply_event(league, ev)
    return league


def apply_event(league: League, ev: LoggedEvent) -> None:
    """One step of ``replay``: event *ev* applied to *league* (an ``undo``, and an event an
    undo cancelled, change nothing here: ``replay`` reads the undos first).
    tdhost.league.cache applies a log's new events this way when none of them is an undo."""
    league.seq = ev.seq
    league.count += 1
    if ev.action == "undo" or ev.seq in league.undone:
        return
    if ev.action == "new":
        setup = ev.payload["setup"]
        league.name = league.name or setup["league"]
        league.tournaments[ev.tournament] = Tournament(ev.tournament, setup, ev.at)
        return
    reducers.apply(league.tournaments[ev.tournament], ev.action, ev.payload)
    if ev.action in ("register", "late"):
        key = player_key(ev.payload["name"])
        league.names.setdefault(key, ev.payload["name"])
        if ev.payload["member"]:
            league.members.add(key)
        if ev.payload.get("member_no"):
            league.note_member_no(ev.payload["name"], ev.payload["member_no"])
