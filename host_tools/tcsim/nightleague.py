"""The tournament director's part of a simulated league night: ``new_league`` sets up the
league file from ``docs/examples/<profile>.toml``; :class:`TD` registers, draws, starts, and
handles the absent player, the one at the bar, the latecomer and the standby seats through
``Live.act``, printing each action with the host's answer.  docs/demo.md, "What happens"
(The TD).
"""

import os
from typing import Any, Callable, Collection, List, Optional, Tuple

from tdhost import tournamentfile
from tdhost.league import times as _times, transaction
from tdhost.league.refusal import ActionRefused

from . import EXAMPLES

PROFILES = ("lppl", "us_free", "wph")
MIN = 60000

FIRST = ["Alice", "Ben", "Chloe", "Dev", "Eddie", "Fran", "Gaz", "Hannah", "Ian", "Jo", "Kev",
         "Lucy", "Mo", "Nina", "Ollie", "Priya", "Rob", "Sue", "Tariq", "Una", "Vince", "Wendy",
         "Xavier", "Yasmin", "Zak", "Amir", "Bex", "Carl", "Dot", "Errol", "Flo", "Gus",
         "Hetty", "Imran", "Jas", "Kim", "Lloyd", "Meg", "Nate", "Orla", "Pete", "Queenie",
         "Raj", "Sian", "Tom", "Ursula", "Vic", "Wes", "Yusuf", "Zara", "Alf", "Bryony",
         "Cormac", "Dina", "Efe", "Fergus", "Gita", "Hal", "Ines", "Jack"]
LAST = ["Moreton", "Taylor", "Price", "Patel", "Clarke", "Hughes", "Whitlock", "Lee",
        "McAllister", "Brennan", "Adeyemi", "Fenwick", "Hassan", "Kowalski", "Stubbs", "Shah",
        "Dunmore", "Granger", "Malik", "Byrne", "Polley", "Oakes", "Lund", "Roe", "Ahmed",
        "Baker", "Cole", "Doyle", "Evans", "Foster", "Grant", "Hale", "Ingram", "Jones",
        "Khan", "Lowe", "Mills", "Nash", "Owen", "Pike", "Quinn", "Reid", "Sharp", "Tate",
        "Underwood", "Vance", "Walsh", "Young", "Ziegler", "Abbott", "Bell", "Cross", "Dale",
        "Ellis", "Frost", "Gill", "Hart", "Iqbal", "Judd", "Kerr"]


def names(n: int) -> Any:
    """*n* distinct player names (the same every run)."""
    return ["%s %s" % (FIRST[i % len(FIRST)], LAST[(i * 7) % len(LAST)]) for i in range(n)]


def example(profile: str) -> Any:
    if profile not in PROFILES:
        raise ValueError("unknown profile %r (profiles: %s)" % (profile, ", ".join(PROFILES)))
    return os.path.join(EXAMPLES, profile + ".toml")


def new_league(db: str, profile: str, minutes: Optional[int] = None) -> Any:
    """The league file *db* with one tournament from the profile's example file, as
    ``tdhost new``; returns the checked set-up.  *minutes*: every level and break that
    long instead (a quicker night for the tests; the file text says so)."""
    from tdhost.league import store as _store

    path = example(profile)
    if minutes is not None:
        import re
        import tempfile

        with open(path, encoding="utf-8") as toml_file:
            text = toml_file.read()
        text = re.sub(r"(?m)^(minutes|break) = \d+", lambda m: "%s = %d" % (
            m.group(1), minutes), text)
        fd, path = tempfile.mkstemp(suffix="-%s-%dmin.toml" % (profile, minutes))
        with os.fdopen(fd, "w", encoding="utf-8") as toml_file:
            toml_file.write(text)
    setup, text = tournamentfile.load(path)
    if minutes is not None:
        os.remove(path)
    store = _store.Store(db, create=True)
    try:
        def decide(lg: Any, seq: Any) -> Any:
            payload = {"setup": setup, "file": os.path.basename(path), "toml": text}
            return [(1, "new", payload, None)], None

        transaction.append(store, decide, _times.iso(_times.now()))
    finally:
        store.close()
    return setup


class Cast:
    """Who comes to the night: *registered* players (members), *standby* players on top
    (only where the profile has a standby list and the cap is reached), one *absent* at the
    start, one *away* who arrives, one *latecomer*."""

    def __init__(self, setup: Any, boxes: Any) -> None:
        seats = setup["seats_per_table"]
        cap = setup.get("max_players") or seats * boxes
        self.seats = seats
        self.registered = min(cap, seats * boxes - 1)  # a seat left for the latecomer
        self.standby = min(2, setup.get("standby") or 0) if self.registered >= cap else 0
        pool = names(self.registered + self.standby + 1)
        self.players = pool[:self.registered]
        self.standbys = pool[self.registered:self.registered + self.standby]
        self.latecomer = pool[-1]
        self.absent = self.players[len(self.players) // 3] if self.registered >= 6 else None
        self.away = self.players[len(self.players) // 2] if self.registered >= 6 else None
        self.drawn_tables = -(-self.registered // seats)  # the draw's tables (the rest: spares)


class TD:
    """The TD's actions during the night (module notes), driven by ``poll(now_ms)`` after
    every host poll.  *say(line)* prints a progress line; *t0* is the start ("shuffle up
    and deal") in Unix ms."""

    def __init__(self, live: Any, setup: Any, cast: Any, t0: Any, say: Callable[[str], None],
                 seed: int, ace8: bool, boxed: Collection[int] = ()) -> None:
        self.live = live
        self.boxed: Collection[int] = boxed  # the tables that have a box
        self.setup = setup
        self.cast = cast
        self.t0 = t0
        self.say = say
        self.seed = seed
        self.ace8 = ace8
        self.started = False
        self.away_back = False
        self.late_done = False
        self.refusals: List[Tuple[str, str]] = []

    def act(self, action: str, args: Any, quiet: bool = False) -> Any:
        """``live.act`` with the answer (or the refusal) printed; None when refused."""
        try:
            out = self.live.act(action, args)
        except ActionRefused as err:
            self.refusals.append((action, str(err)))
            self.say("TD %s: refused: %s" % (action, err))
            return None
        if not quiet:
            self.say("TD %s: %s" % (action, out["text"]))
        return out

    def before(self) -> None:
        """Registration and the draw (half an hour before the start)."""
        c = self.cast
        self.act("register", {"names": c.players, "member": True}, quiet=True)
        self.say("TD register: %d players (members); the cap is %s" % (
            len(c.players), self.setup.get("max_players") or "none"))
        for name in c.standbys:
            self.act("register", {"names": [name]})
        self.act("draw", {"seed": self.seed, "ace8": self.ace8})

    def start(self) -> None:
        c = self.cast
        args = {}
        if c.absent:
            args["absent"] = [c.absent]
        if c.away:
            args["away"] = [c.away]
        self.act("start", args)
        self.started = True

    def poll(self, now: int) -> None:
        if not self.started or self.live.tournament.ended:
            return
        tournament = self.live.tournament
        if not self.away_back and self.cast.away and now >= self.t0 + 4 * MIN:
            self.away_back = True
            away = tournament.get(self.cast.away)
            if away is not None and away.state == "in":
                self.act("arrive", {"name": self.cast.away})
        if not self.late_done and now >= self.t0 + 12 * MIN:
            self.late_done = True
            if self.act("late", {"name": self.cast.latecomer}) is None and \
                    self.live.tournament.setup.get("standby"):
                self.act("standby_add", {"name": self.cast.latecomer})
        self.offers()
        self.by_hand()

    def by_hand(self) -> None:
        """Instructions for a table without a box wait as ``queued``: the TD carries them
        out and confirms them (docs/host.md §10.5), walking a moved player over."""
        from tdhost.live import instruction_log as _ins

        for row in list(_ins.pending(self.live.tournament)):
            if row["table"] in self.boxed or _ins.state(row) != "queued":
                continue
            if self.act("confirm", {"id": row["id"]}) is not None:
                return

    def offers(self) -> None:
        """Every seat offered to a standby player is taken (LPPL ¶15: "they will take the
        seat of that person"), one a poll."""
        tournament = self.live.tournament
        for _offer, key in tournament.offer_pairs():
            if key is not None:
                self.act("standby_take", {"name": tournament.players[key].name})
                return
