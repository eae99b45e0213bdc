"""The league kept in memory between writes (tdhost.league.cache): after every TD command it is
what a full replay of the log gives; an undo, a refused decision and a registration make it
replay the whole log again."""

import os

import pytest
from hostutil import EXAMPLES, at, run

from leaguecheck import CacheMismatch, state
from tdhost.league import replay as _replay, store as _store, times as _times, transaction
from tdhost.league.cache import LeagueCache
from tdhost.league.refusal import ActionRefused

LPPL = os.path.join(EXAMPLES, "lppl.toml")
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]


def _same(cache, store):
    lg = cache.league(store)
    assert state(lg) == state(_replay.replay(store.events()))
    return lg


def test_the_kept_league_is_the_replayed_log_after_every_command(tmp_path):
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    store = _store.Store(str(db))
    cache = LeagueCache()
    try:
        _same(cache, store)
        assert (cache.replays, cache.applied) == (1, 0)

        def td(*args, minutes=0):
            run(list(args), now=at(minutes), db=db)
            return _same(cache, store)

        td("register", *NAMES, minutes=-50)
        td("draw", "--seed", "7", minutes=-30)
        lg = td("start", "--absent", "Lou", minutes=0)
        assert len(lg.current().remaining()) == 12
        td("arrive", "Lou", minutes=9)
        td("bust", "Ann", minutes=15)
        lg = td("bust", "Bob", minutes=16)
        assert lg.current().place_of("Bob") == "11th"
        assert cache.replays == 1  # so far every new event was applied on its own
        applied = cache.applied
        lg = td("undo", minutes=17)  # Bob's bust taken back: the whole log again
        assert cache.replays == 2 and cache.new is None
        assert lg.current().get("Bob").state == "in"
        lg = td("bust", "Cat", minutes=18)
        assert cache.replays == 2 and cache.applied == applied + 1
        assert [ev.action for ev in cache.new] == ["bust"]
        assert lg.current().place_of("Cat") == "11th"
    finally:
        store.close()


def test_a_refused_decision_that_changed_the_league_leaves_no_trace(tmp_path):
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    run(["register", *NAMES[:4]], now=at(-50), db=db)
    store = _store.Store(str(db))
    cache = LeagueCache()
    try:
        cache.league(store)

        def spoil(lg, seq):  # changes the league it is given, then refuses
            lg.current().players.clear()
            raise ActionRefused("no")
        with pytest.raises(ActionRefused):
            transaction.append(store, spoil, _times.iso(at(-40)), cache)
        assert len(_same(cache, store).current().players) == 4
        assert cache.replays == 2

        def note(lg, seq):
            return [(lg.current().number, "notice", {"text": "hello", "src": []}, None)], seq
        seqs, seq = transaction.append(store, note, _times.iso(at(-39)), cache)
        assert seqs == [seq] and cache.replays == 2  # not replayed for the decision
        _same(cache, store)
        assert cache.replays == 2 and [ev.action for ev in cache.new] == ["notice"]
    finally:
        store.close()


def test_the_tests_check_catches_a_league_that_drifted(tmp_path):
    db = tmp_path / "lg.sqlite"
    run(["new", LPPL, "--db", str(db)], now=at(-60))
    store = _store.Store(str(db))
    cache = LeagueCache()
    try:
        cache.league(store).current().standby.append("ghost")  # a bug changing the league
        run(["register", "Ann"], now=at(-50), db=db)
        with pytest.raises(CacheMismatch):
            cache.league(store)
        assert cache.lg is None  # and it starts afresh
        _same(cache, store)
    finally:
        store.close()
