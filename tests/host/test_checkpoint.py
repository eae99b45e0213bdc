"""The league's state checkpointed in the league file (tdhost.league.checkpoint): a league loaded
from a checkpoint and the events after it is the league a full replay gives, after every
command of a night; an undo reaching behind the checkpoint, or another tdhost's
checkpoint, is not used; a refused command leaves none."""

import json
import os

import pytest
from hostutil import EXAMPLES, at, run

from leaguecheck import state
from tdhost.league import (
    checkpoint as C,
    replay as _replay,
    store as _store,
    times as _times,
    tournament as _tournament,
)
from tdhost.league.refusal import ActionRefused

LPPL = os.path.join(EXAMPLES, "lppl.toml")
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]


@pytest.fixture
def every(monkeypatch):
    monkeypatch.setattr(C, "EVERY", 3)


def _check(db):
    """The league loaded from the file's checkpoint equals a full replay of its log."""
    store = _store.Store(str(db))
    try:
        lg = C.load(store)
        full = _replay.replay(store.events())
        assert state(lg, events=False) == state(full, events=False)
        assert lg.seq == full.seq and lg.count == len(full.events)
        assert [ev.seq for ev in lg.events] == [ev.seq for ev in full.events]
        return lg, C.newest(store)
    finally:
        store.close()


def test_a_night_loaded_from_checkpoints_is_the_replayed_log(tmp_path, every):
    db = tmp_path / "lg.sqlite"
    steps = [(["new", LPPL], -60), (["register", *NAMES], -50),
             (["lock", "Ann", "--table", "1", "--seat", "2"], -40), (["unlock", "Ann"], -35),
             (["draw", "--seed", "7"], -30), (["draw", "--seed", "8", "--again"], -27),
             (["start", "--absent", "Lou", "--away", "Kim"], 0), (["arrive", "Lou"], 9),
             (["level", "2"], 20), (["late", "Zed", "--member"], 21), (["bust", "Ann"], 25),
             (["bust", "Bob", "Cat", "--chips-at-start", "3000",
               "--chips-at-start", "5000"], 30), (["move", "Dan", "1.7"], 31), (["undo"], 32),
             (["level", "3"], 40), (["bust", "Eve"], 41)]
    seen = set()
    for args, minutes in steps:
        run(args + ["--db", str(db)] if args[0] == "new" else args, now=at(minutes), db=db)
        lg, newest = _check(db)
        seen.add(newest)
    assert len(seen) > 3  # checkpoints were written along the way and loaded
    t = lg.current()
    assert t.place_of("Eve") == "10th" and t.get("Dan").seat == [2, 2]  # the move undone
    assert [n for n, _ in t.anchors] == [2, 3] and t.started == at(0)


def test_an_undo_behind_the_checkpoint_replays_the_log_once(tmp_path, every):
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    run(["register", *NAMES], now=at(-50), db=db)
    run(["draw", "--seed", "7"], now=at(-30), db=db)
    run(["start"], now=at(0), db=db)
    run(["bust", "Ann"], now=at(10), db=db)
    store = _store.Store(str(db))
    try:
        bust = [ev.seq for ev in store.events() if ev.action == "bust"][0]
        for i in range(6):  # the live night's events: both checkpoints move past the bust
            if i >= 4:
                C.save(store, C.load(store))
            store.write(lambda _e, i=i: ([(1, _times.iso(at(11)), "notice",
                                           {"text": "n%d" % i, "src": []}, None)], None),
                        read=False)
        seqs = [r[0] for r in store.db.execute("SELECT seq FROM checkpoint")]
        assert len(seqs) == C.KEEP and min(seqs) > bust
    finally:
        store.close()
    run(["undo"], now=at(12), db=db)  # Ann's bust, behind the checkpoint
    store = _store.Store(str(db))
    try:
        lg = C.load(store)
        assert lg.checkpoint == 0 and lg.applied == lg.count  # the whole log replayed
        assert lg.current().get("Ann").state == "in"
    finally:
        store.close()
    run(["level", "2"], now=at(20), db=db)  # the next command checkpoints again
    lg, newest = _check(db)
    assert newest > bust and lg.current().get("Ann").state == "in"


def test_a_checkpoint_of_another_tdhost_is_not_used(tmp_path, every, monkeypatch):
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    for name in NAMES[:6]:
        run(["register", name], now=at(-50), db=db)
    store = _store.Store(str(db))
    try:
        assert C.newest(store) > 0 and C.load(store).checkpoint > 0
        monkeypatch.setattr(C, "CODE", "another")
        lg = C.load(store)
        assert lg.checkpoint == 0 and len(lg.current().players) == 6
    finally:
        store.close()


def test_a_refused_command_writes_no_checkpoint(tmp_path, every):
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    store = _store.Store(str(db))
    try:
        for i in range(5):
            store.write(lambda _e, i=i: ([(1, _times.iso(at(-50)), "notice",
                                           {"text": "n%d" % i, "src": []}, None)], None),
                        read=False)
        assert C.newest(store) == 0 and C.due(C.load(store))

        def refuse(lg, seq):
            lg.current().players.clear()
            raise ActionRefused("no")
        from tdhost.league import transaction
        with pytest.raises(ActionRefused):
            transaction.append(store, refuse, _times.iso(at(-40)))
        assert C.newest(store) == 0
    finally:
        store.close()


def test_the_state_survives_json(tmp_path):
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    run(["register", *NAMES], now=at(-50), db=db)
    run(["draw", "--seed", "7"], now=at(-30), db=db)
    run(["start", "--absent", "Lou"], now=at(0), db=db)
    run(["level", "3"], now=at(30), db=db)
    run(["bust", "Ann"], now=at(35), db=db)
    store = _store.Store(str(db))
    try:
        lg = _replay.replay(store.events())
        rows, refs = C._parts(lg, lg.seq)
        texts = {(n, part, seq): text for n, part, seq, text in rows}
        back = C.undump(C.dump(lg, refs), lambda n, part, seq: json.loads(
            texts[n, part, seq]))
        assert "_core" in vars(back.tournaments[1])  # read when first used
        assert state(back, events=False) == state(lg, events=False)
        t = back.current()
        assert isinstance(t.anchors[0], tuple) and t.anchors[0][1] == at(30)
        assert isinstance(t.tables_used, set) and t.get("Lou").absent == "awol"
        assert t.box == lg.current().box and t.rules == lg.current().rules
    finally:
        store.close()


def test_a_tournament_is_read_when_used_and_written_when_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(C, "EVERY", 10**6)  # only the checkpoints written here
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    run(["register", *NAMES], now=at(-50), db=db)
    run(["draw", "--seed", "7"], now=at(-30), db=db)
    run(["start"], now=at(0), db=db)
    store = _store.Store(str(db))

    def parts():
        return store.db.execute("SELECT tournament, part, seq FROM checkpoint_part "
                                "ORDER BY tournament, part, seq").fetchall()
    try:
        def clock(minutes):  # the live night's clock reading, tournament 1
            return (1, _times.iso(at(minutes)), "clock", {"op": "pause", "index": 0,
                                                     "left_ms": 60000, "paused": True,
                                                     "at_ms": minutes * 60000, "text": "p"},
                    None)
        store.write(lambda _e: ([clock(5)], None), read=False)
        lg = C.load(store)
        C.save(store, lg)
        first = lg.seq
        assert parts() == [(1, "core", first), (1, "night", first)]
        lg = C.load(store)
        assert lg.checkpoint == first and "_core" in vars(lg.tournaments[1])
        C.save(store, lg)  # never read: nothing written again
        assert parts() == [(1, "core", first), (1, "night", first)]
        lg = C.load(store)
        assert lg.current().get("Ann").state == "in"  # its state read, not its night
        assert "_night" in vars(lg.current())
        C.save(store, lg)
        assert parts() == [(1, "core", first), (1, "night", first)]  # same seq: replaced
        store.write(lambda _e: ([clock(6)], None), read=False)
        lg = C.load(store)  # the new clock event read the night to apply it
        assert "_night" not in vars(lg.current()) and len(lg.current().clocks) == 2
        C.save(store, lg)
        assert parts() == [(1, "core", first), (1, "core", lg.seq), (1, "night", first),
                           (1, "night", lg.seq)]
        second = lg.seq
        lg = C.load(store)
        assert [c["at_ms"] for c in lg.current().clocks] == [300000, 360000]
        store.write(lambda _e: ([clock(7)], None), read=False)
        C.save(store, C.load(store))  # three checkpoints: the oldest, and its parts, go
        assert [p[2] for p in parts()] == [second, second + 1, second, second + 1]
    finally:
        store.close()


def test_a_tournament_changed_without_being_read_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(C, "EVERY", 10**6)
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    run(["register", *NAMES[:3]], now=at(-50), db=db)
    store = _store.Store(str(db))
    try:
        C.save(store, C.load(store))
        end = {"tiers": [["Cat"], ["Bob"], ["Ann"]], "time": _times.iso(at(60)),
               "chips": {"Ann": 10, "Bob": 20, "Cat": 30}}
        store.write(lambda _e: ([(1, _times.iso(at(60)), "end", end, None)], None), read=False)
        lg = C.load(store)  # `end` sets t.ended and reads nothing else
        assert set(vars(lg.tournaments[1])) == {"number", "_core", "ended"}
        C.save(store, lg)
        assert C.load(store).current().ended["tiers"] == end["tiers"]
    finally:
        store.close()


def test_an_undo_between_two_checkpoints_is_not_brought_back(tmp_path, monkeypatch):
    # The older checkpoint holds (the undone event is after it) and the tournament is not
    # read while loading (the undone event is skipped): the next checkpoint must refer to
    # the older one's part, not to the newer part that still has the event.
    monkeypatch.setattr(C, "EVERY", 10**6)
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    run(["register", *NAMES], now=at(-50), db=db)
    run(["draw", "--seed", "7"], now=at(-30), db=db)
    run(["start"], now=at(0), db=db)
    store = _store.Store(str(db))
    try:
        C.save(store, C.load(store))
    finally:
        store.close()
    run(["bust", "Ann"], now=at(10), db=db)
    store = _store.Store(str(db))
    try:
        C.save(store, C.load(store))  # the bust is in this one
    finally:
        store.close()
    run(["undo"], now=at(11), db=db)
    store = _store.Store(str(db))
    try:
        lg = C.load(store)
        assert "_core" in vars(lg.tournaments[1])  # from the older checkpoint, not read
        C.save(store, lg)
        lg = C.load(store)
        assert lg.current().get("Ann").state == "in"
    finally:
        store.close()
    _check(db)


def test_every_attribute_of_a_tournament_is_checkpointed():
    """A Tournament attribute the checkpoint does not write is lost on every command after
    the checkpoint (the money of a home game was: its prizes came back empty).  Every
    attribute __init__ sets is written, or derived from what is (box, rules: the profile)."""
    t = _tournament.Tournament(1, {"profile": "lppl"}, "2026-12-01")
    derived = {"box", "rules"}
    written = set(C._PLAIN) | set(C.NIGHT) | {"started", "anchors", "tables_used"}
    assert set(vars(t)) - derived == written
