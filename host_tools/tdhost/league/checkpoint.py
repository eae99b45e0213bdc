"""The league's derived state checkpointed in the league file, so that a command costs
the same all season: ``load`` reads the newest checkpoint that still holds and applies
only the events after it, exactly as a replay would; ``take``/``put`` write one inside a
command's transaction.  The log stays the truth.  docs/host.md §3.4.
"""

import datetime
import hashlib
import json
import os
from typing import Any, Callable, Optional

from tdhost.league.replay import League, apply_event, replay
from tdhost.league.store import Store
from tdhost.league.tournament import Entry, Tournament

# a checkpoint every 500 applied events: writing one costs a few ms on a season's league,
# loading 500 events about 3 ms (bench/host_bench.py: CLI time against the log's length)
EVERY = 500
KEEP = 2
FORMAT = 4  # 2: a tournament's money (re-buys, add-ons, knockouts, payouts); 3: re-entries;
# 4: the rulings asked of the league
APPLYING = ("tournament", "reducers", "replay", "text", "times")  # modules hashed in CODE


def _code() -> str:
    """Which tdhost wrote a checkpoint: FORMAT and a hash of the modules that apply events
    (another version may apply them otherwise: its checkpoints are not used)."""
    digest = hashlib.sha256()
    for name in APPLYING:
        with open(os.path.join(os.path.dirname(__file__), name + ".py"), "rb") as f:
            digest.update(f.read())
    return "%d:%s" % (FORMAT, digest.hexdigest()[:16])


CODE = _code()


# ------------------------------------------------------------------------ the state as JSON

_ENTRY = ("name", "member", "state", "seat", "entry", "stack", "dead_bb", "absent",
          "deducted", "reentries", "earlier")
# Tournament attributes kept as they are (JSON values: payloads or built from them)
_PLAIN = ("number", "setup", "created", "players", "standby", "locks", "draw", "final",
          "started_on_time", "busts", "offers", "ended", "hfh", "money", "rulings")
NIGHT = Tournament.NIGHT


def _time(when: Optional[datetime.datetime]) -> Optional[str]:
    return None if when is None else when.isoformat()


def _core_json(tournament: Tournament) -> dict[str, Any]:
    d = {k: getattr(tournament, k) for k in _PLAIN}
    d["players"] = [[k, [getattr(entry, a) for a in _ENTRY]]
                    for k, entry in tournament.players.items()]
    d["started"] = _time(tournament.started)
    d["anchors"] = [[n, _time(at)] for n, at in tournament.anchors]
    d["tables_used"] = sorted(tournament.tables_used)
    return d


def _parts(lg: League, seq: int, changed: Optional[set[int]] = None
           ) -> tuple[list[tuple[int, str, int, str]], dict[int, list[Any]]]:
    """[(tournament, part, seq, text)] of the parts of *lg* to write for a checkpoint at
    *seq*, and {tournament: [core seq, night seq]}: where each part of it is.  A part
    not read since it was loaded is the one it was loaded from; with *changed* (the live
    host's kept league: the tournaments with events since its last checkpoint), so is
    every part of the others."""
    rows: list[tuple[int, str, int, str]] = []
    refs: dict[int, list[Any]] = {}
    for n, tournament in lg.tournaments.items():
        was = lg.parts.get(n)
        if changed is not None and n not in changed and was:
            refs[n] = was
            continue
        if "_core" in vars(tournament) and set(vars(tournament)) - {"number", "_core"}:
            tournament.read_lazy()  # an attribute set without reading the rest (`ended`)
        core, night = (was[0], was[1]) if was else (None, None)
        if "_core" not in vars(tournament):
            rows.append((n, "core", seq, json.dumps(_core_json(tournament), separators=(",", ":"))))
            core = seq
            if "_night" not in vars(tournament):
                rows.append((n, "night", seq, json.dumps({k: getattr(tournament, k) for k in NIGHT},
                                                         separators=(",", ":"))))
                night = seq
        refs[n] = [core, night]
    return rows, refs


def dump(lg: League, refs: dict[int, list[Any]]) -> str:
    """League *lg* as JSON text, without its events; its tournaments as references to
    their parts (*refs*: {number: [core seq, night seq]})."""
    return json.dumps({
        "seq": lg.seq, "count": lg.count, "name": lg.name, "names": lg.names,
        "members": sorted(lg.members), "numbers": lg.numbers, "number_keys": lg.number_keys,
        "undone": [[k, v] for k, v in sorted(lg.undone.items())],
        "tournaments": [[n, refs[n][0], refs[n][1]] for n in sorted(lg.tournaments)]},
        separators=(",", ":"))


def _core(td: dict[str, Any], night: Callable[[], Any]) -> dict[str, Any]:
    """A tournament's attributes from its 'core' part (*night*: reads its night part)."""
    d = vars(Tournament(td["number"], td["setup"], td["created"]))
    for k in _PLAIN:
        d[k] = td[k]
    d["players"] = {}
    for key, values in td["players"]:
        entry = d["players"][key] = Entry(values[0], values[1], values[2])
        for a, v in zip(_ENTRY, values):
            setattr(entry, a, v)
    d["started"] = None if td["started"] is None else \
        datetime.datetime.fromisoformat(td["started"])
    d["anchors"] = [(n, datetime.datetime.fromisoformat(at)) for n, at in td["anchors"]]
    d["tables_used"] = set(td["tables_used"])
    for k in NIGHT:
        del d[k]
    d["_night"] = night
    return d


def undump(text: str, part: Callable[[int, str, int], Any]) -> League:
    """The League that ``dump`` wrote (without events); *part(number, name, seq)* returns
    the JSON-decoded part of tournament *number* (read when the tournament is first
    used).  ``lg.parts``: where its tournaments' parts are."""
    d = json.loads(text)
    lg = League()
    lg.seq, lg.count, lg.name, lg.names = d["seq"], d["count"], d["name"], d["names"]
    lg.members = set(d["members"])
    lg.numbers = d.get("numbers", {})
    lg.number_keys = d.get("number_keys", {})
    lg.undone = {k: v for k, v in d["undone"]}
    lg.parts = {}
    for n, core, night in d["tournaments"]:
        tournament = Tournament.__new__(Tournament)
        tournament.number = n
        vars(tournament)["_core"] = (lambda n=n, c=core, g=night: _core(part(n, "core", c),
                                                                 lambda: part(n, "night", g)))
        lg.tournaments[n] = tournament
        lg.parts[n] = [core, night]
    return lg


# ------------------------------------------------------------------------ the league file

TABLES = ("CREATE TABLE IF NOT EXISTS checkpoint (seq INTEGER PRIMARY KEY, "
          "code TEXT NOT NULL, state TEXT NOT NULL)",
          "CREATE TABLE IF NOT EXISTS checkpoint_part (tournament INTEGER NOT NULL, "
          "part TEXT NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL, "
          "PRIMARY KEY (tournament, part, seq))")


def _has_table(store: Store) -> bool:
    return store.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                            "name = 'checkpoint_part'").fetchone() is not None


def newest(store: Store) -> int:
    """The seq of the newest checkpoint (0: none)."""
    if not _has_table(store):
        return 0
    return store.db.execute("SELECT max(seq) FROM checkpoint").fetchone()[0] or 0


def _usable(store: Store) -> Optional[tuple[int, str]]:
    """(seq, state text) of the newest checkpoint that holds, or None."""
    if not _has_table(store):
        return None
    rows = store.db.execute("SELECT seq, code, state FROM checkpoint ORDER BY seq DESC")
    for seq, code, text in rows.fetchall():
        if code != CODE:
            continue
        undoes = store.db.execute("SELECT min(undoes) FROM events WHERE seq > ? AND "
                                  "action = 'undo'", (seq,)).fetchone()[0]
        if undoes is None or undoes > seq:
            return seq, text
    return None


def _part_reader(store: Store, upto: list[int]) -> Callable[[int, str, int], Any]:
    def part(number: int, name: str, seq: int) -> Any:
        row = store.db.execute("SELECT state FROM checkpoint_part WHERE tournament = ? AND "
                               "part = ? AND seq = ?", (number, name, seq)).fetchone()
        if row is not None:
            return json.loads(row[0])
        # another command's checkpoints replaced it meanwhile: from the log, up to the
        # league's last event (the tournament was not read: no event of it since)
        full = replay([ev for ev in store.events() if ev.seq <= upto[0]])
        return _part_of(full.tournaments[number], name)
    return part


def _part_of(tournament: Tournament, name: str) -> Any:
    if name == "core":
        return json.loads(json.dumps(_core_json(tournament)))
    return json.loads(json.dumps({k: getattr(tournament, k) for k in NIGHT}))


def load(store: Store) -> League:
    """The league after every event of *store*, from its newest usable checkpoint and the
    events after it.  ``lg.applied``: how many events that took (a full replay: all).
    *store* must stay open while the league is used (its nights and events are read when
    first used)."""
    found = _usable(store)
    if found is None:
        events = store.events()
        lg = replay(events)
        lg.applied = len(events)
        lg.checkpoint = 0
        return lg
    seq, text = found
    upto = [seq]
    lg = undump(text, _part_reader(store, upto))
    tail = store.events(seq)
    for ev in tail:
        if ev.action == "undo" and ev.undoes is not None:
            lg.undone[ev.undoes] = ev.seq
    for ev in tail:
        apply_event(lg, ev)
    upto[0] = lg.seq
    lg.load_events = store.events
    lg.applied = len(tail)
    lg.checkpoint = seq
    return lg


def read_all(lg: League) -> None:
    """Read everything *lg* reads on demand (its store is about to close)."""
    lg.events  # noqa: B018 -- the property reads them
    for tournament in lg.tournaments.values():
        tournament.read_lazy()


def due(lg: League) -> bool:
    """True when loading *lg* applied more than EVERY events: checkpoint it."""
    return lg.applied > EVERY


def take(lg: League, changed: Optional[set[int]] = None
         ) -> tuple[int, str, list[tuple[int, str, int, str]]]:
    """Checkpoint *lg* (every event up to ``lg.seq`` applied, nothing decided on it yet):
    what ``put`` writes.  A tournament's parts are written again only when they were read
    or built (a part not read is the one loaded), and, with *changed* (the live host's
    kept league: tournaments with events since its last checkpoint), only for those.
    Taken before a decision (it may change the league it is given), written after it."""
    rows, refs = _parts(lg, lg.seq, changed)
    lg.parts = refs
    lg.applied = 0
    lg.checkpoint = lg.seq
    return lg.seq, dump(lg, refs), rows


def put(store: Store, taken: tuple[int, str, list[tuple[int, str, int, str]]]) -> None:
    """Write a checkpoint ``take`` made, inside the command's transaction (a refused
    command writes none).  Checkpoints older than the newest KEEP are deleted, and the
    parts none of those refers to."""
    seq, text, rows = taken
    if seq == 0:
        return
    for stmt in TABLES:
        store.db.execute(stmt)
    store.db.execute("INSERT OR REPLACE INTO checkpoint (seq, code, state) VALUES (?, ?, ?)",
                     (seq, CODE, text))
    for row in rows:
        store.db.execute("INSERT OR REPLACE INTO checkpoint_part (tournament, part, seq, "
                         "state) VALUES (?, ?, ?, ?)", row)
    store.db.execute("DELETE FROM checkpoint WHERE seq NOT IN (SELECT seq FROM checkpoint "
                     "ORDER BY seq DESC LIMIT ?)", (KEEP,))
    used: set[tuple[int, str, int]] = set()
    for (kept,) in store.db.execute("SELECT state FROM checkpoint").fetchall():
        for n, core, night in json.loads(kept)["tournaments"]:
            used.update(((n, "core", core), (n, "night", night)))
    for key in store.db.execute("SELECT tournament, part, seq FROM checkpoint_part"
                                ).fetchall():
        if key not in used:
            store.db.execute("DELETE FROM checkpoint_part WHERE tournament = ? AND part = ? "
                             "AND seq = ?", key)


def save(store: Store, lg: League, changed: Optional[set[int]] = None) -> None:
    """``take`` and ``put`` at once."""
    put(store, take(lg, changed))
