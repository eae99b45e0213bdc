"""Re-entry where the tournament file allows it (docs/host.md §4.4): `[reentry] max` and
`until_level`; a re-entry is a new entry (the field, the points' N), declared once in
tdhost.actions for `tdhost reenter` and the console, taken back by undo.

The LPPL text allows none ("When players lose all of their chips they are eliminated from
the tournament", ¶44) and neither does the US text: their example files say `max = 0`.
The night here is LPPL's file with `max = 1, until_level = 2` instead: 10 players, 3000
chips each, 20-minute levels from 20:00.
"""

import os

import pytest
from hostutil import EXAMPLES, T0, at, players, run

from tdhost import tournamentfile
from tdhost.league import replay as _replay, store as S
from tdhost.live.night import Live

T0_MS = int(T0.timestamp() * 1000)


def league(db):
    st = S.Store(str(db))
    try:
        return _replay.replay(st.events())
    finally:
        st.close()


def refused(res, sentence):
    assert res.exit_code == 2, res.output
    assert sentence in res.stderr, res.stderr


def toml_with(tmp_path, reentry):
    with open(os.path.join(EXAMPLES, "lppl.toml"), encoding="utf-8") as f:
        text = f.read()
    old = 'max = 0                    # LPPL ¶44 "When players lose all of their chips they ' \
          'are eliminated"'
    assert old in text
    path = tmp_path / "reentry.toml"
    path.write_text(text.replace(old, reentry), encoding="utf-8")
    return str(path)


def night(tmp_path, reentry="max = 1\nuntil_level = 2"):
    db = str(tmp_path / "night.sqlite")
    run(["new", toml_with(tmp_path, reentry), "--db", db], now=at(-60))
    run(["register", *players(10)], db=db, now=at(-50))
    run(["draw", "--seed", "4"], db=db, now=at(-40))
    run(["start"], db=db, now=at(0))
    return db


@pytest.mark.parametrize("example", ["lppl", "us_free"])
def test_the_lppl_and_us_files_allow_no_reentry(example):
    setup = tournamentfile.load(os.path.join(EXAMPLES, example + ".toml"))[0]
    assert setup["reentry"] == {"max": 0, "until_level": None}


def test_a_reentry_file_names_its_last_level():
    base = '[tournament]\nname = "x"\nprofile = "lppl"\nseats_per_table = 8\n' \
           'starting_stack = 3000\n' + '[[levels]]\nsb = 25\nbb = 50\nminutes = 20\n' * 2
    with pytest.raises(tournamentfile.FileError, match="until_level' is missing"):
        tournamentfile.parse(base + "[reentry]\nmax = 1\n", "t.toml")
    with pytest.raises(tournamentfile.FileError,
                       match="reentry.until_level: there are only 2 levels"):
        tournamentfile.parse(base + "[reentry]\nmax = 1\nuntil_level = 3\n", "t.toml")


def test_lppl_refuses_a_reentry(tmp_path):
    db = night(tmp_path, reentry="max = 0")
    run(["bust", "Ann", "--yes"], db=db, now=at(10))
    refused(run(["reenter", "Ann"], db=db, now=at(11), expect=2),
            "tournament 1 allows no re-entry (its file's [reentry] max is 0)")
    refused(run(["bust", "Ann"], db=db, now=at(12), expect=2), "Ann is already out")


def test_a_reentry_is_a_new_entry_and_undo_takes_it_back(tmp_path):
    db = night(tmp_path)
    run(["bust", "Ann", "--yes"], db=db, now=at(10))
    assert league(db).current().place_of("Ann") == "10th"
    res = run(["reenter", "Ann"], db=db, now=at(12))
    t = league(db).current()
    ann = t.get("Ann")
    assert (ann.state, ann.stack, ann.reentries) == ("in", 3000, 1)
    assert "Ann re-enters (entry 2) at table %d seat %d with 3000 chips" % tuple(ann.seat) \
        in res.output
    # 11 entries: the field and the points' N; Ann has no place until she is out again
    assert (t.entry_count(), t.field_size(), len(t.remaining())) == (11, 11, 10)
    assert t.place_of("Ann") == "in play"
    refused(run(["reenter", "Ann"], db=db, now=at(13), expect=2),
            "only a player who is out may re-enter: Ann is playing")
    run(["bust", "Ann", "--yes"], db=db, now=at(15))
    refused(run(["reenter", "Ann"], db=db, now=at(16), expect=2),
            "Ann has re-entered once already, the most a player may (reentry max = 1)")
    run(["bust", "Bob", "--yes"], db=db, now=at(17))
    refused(run(["reenter", "Bob"], db=db, now=at(41), expect=2),  # level 3 from 20:40
            "re-entry closed at the end of level 2; this is level 3")
    rows = run(["results"], db=db, now=at(42)).output.splitlines()
    assert "(so far, 8 players in; 11 entries)" in rows[0]
    assert [row.split()[:2] for row in rows if "Ann" in row] == [["10th", "Ann"]]
    # undo the second bust, then the re-entry: Ann is out in 10th again, 10 entries
    run(["undo", "--yes"], db=db, now=at(43))  # Bob's bust
    run(["undo", "--yes"], db=db, now=at(43))  # Ann's second bust
    run(["undo", "--yes"], db=db, now=at(43))  # the re-entry
    t = league(db).current()
    assert (t.get("Ann").state, t.place_of("Ann"), t.entry_count()) == ("out", "10th", 10)


def test_the_console_reenters_through_the_same_decision(tmp_path):
    db = night(tmp_path)
    run(["bust", "Cat", "--yes"], db=db, now=at(10))
    live = Live(db, clock=lambda: T0_MS + 12 * 60000, seed=5)
    try:
        reply = live.act("reenter", {"name": "Cat"})
        cat = live.tournament.get("Cat")
        assert reply["text"].startswith("Cat re-enters (entry 2) at table %d seat %d with "
                                        "3000 chips" % tuple(cat.seat)), reply
        assert live.snapshot()["players"]["entries"] == 11
        live.act("undo", {})
        assert live.tournament.get("Cat").state == "out"
    finally:
        live.close()


def test_the_console_looks_before_it_asks_about_a_reentry(tmp_path):
    """The console's Re-enter asks only when the file allows it (issue #31): Live.check
    decides as the re-entry would, writing nothing: at 20:12 (level 1) Cat may re-enter;
    at 20:45 (level 3, past until_level 2) the check says why not and nothing is asked."""
    from tdhost.league.refusal import ActionRefused

    db = night(tmp_path)
    run(["bust", "Cat", "--yes"], db=db, now=at(10))
    now = [T0_MS + 12 * 60000]
    live = Live(db, clock=lambda: now[0], seed=5)
    try:
        assert live.check("reenter", {"name": "Cat"}) == {"ok": True}
        assert live.tournament.get("Cat").state == "out"  # looked at, not written
        now[0] = T0_MS + 45 * 60000
        with pytest.raises(ActionRefused) as err:
            live.check("reenter", {"name": "Cat"})
        assert str(err.value) == "re-entry closed at the end of level 2; this is level 3"
        with pytest.raises(ActionRefused) as err:
            live.check("reenter", {"name": ""})
        assert str(err.value) == "give name as text"
    finally:
        live.close()
