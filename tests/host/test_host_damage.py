"""A damaged league file (issue 16): every command answers one sentence naming the file,
what is wrong and the newest good backup, never a traceback, and leaves the file as it
was; the backups made at new, start, level and bust bring the night back (tdhost restore);
an empty file never invites a new league on top of it.  Corrupted copies are fuzzed with
hypothesis (tests/props/test_input_props.py has the other doors)."""

import os
import shutil
import sqlite3

from hostutil import EXAMPLES, at, players, run
from hypothesis import HealthCheck, given, settings, strategies as st

from tdhost.league import checkpoint as _checkpoint, store as _store, transaction

LPPL = os.path.join(EXAMPLES, "lppl.toml")
READS = (["results"], ["seats"], ["log"], ["league"], ["standby"])
WRITES = (["bust", "Cat"], ["register", "Zoe"], ["undo"], ["level", "2"])


def one_sentence(res):
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert res.stderr.count("\n") == 1 and res.stderr.endswith(".\n"), res.stderr
    assert "Traceback" not in res.output
    return res.stderr


def night(tmp_path):
    """A league file with a started tournament and one bust (so: three backups)."""
    db = tmp_path / "l.sqlite"
    run(["new", LPPL, "--db", str(db)])
    run(["register", *players(10)], db=db)
    run(["draw", "--seed", "1"], db=db)
    run(["start"], db=db)
    run(["bust", "Ann"], db=db, now=at(5))
    return db


def checkpointed(db):
    """Everything in the main file (no -wal left), as after a clean stop."""
    c = sqlite3.connect(db)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()


def test_backups_at_new_start_and_bust(tmp_path):
    db = night(tmp_path)
    names = [os.path.basename(b) for b in _store.backups(str(db))]
    assert [n.rsplit("-", 1)[1] for n in names] == ["bust.sqlite", "start.sqlite",
                                                    "new.sqlite"]
    assert all(_store.check_file(b) is None for b in _store.backups(str(db)))
    run(["level", "2"], db=db, now=at(21))
    assert _store.backups(str(db))[0].endswith("-level.sqlite")


def test_damaged_file_one_sentence_then_restore_and_the_night_goes_on(tmp_path):
    db = night(tmp_path)
    checkpointed(db)
    newest = _store.backups(str(db))[0]
    data = bytearray(db.read_bytes())
    data[4096 * 2:4096 * 3] = bytes(4096)  # a zeroed page
    db.write_bytes(bytes(data))
    for args in READS + WRITES:
        err = one_sentence(run(args, db=db, expect=None, now=at(6)))
        assert err.startswith("tdhost %s: %s cannot be used: it is damaged" % (args[0], db))
        assert "`tdhost restore --db %s %s`" % (db, newest) in err
        assert db.read_bytes() == bytes(data)  # refused: nothing written
    out = run(["restore", newest], db=db).output
    assert out.startswith("%s restored from %s: 14 events." % (db, newest))
    kept = _store.backups(str(db))
    assert any(k.endswith("-replaced.sqlite") for k in kept)
    res = run(["bust", "Bob"], db=db, now=at(7))
    assert "Bob is out: 9th of 10." in res.output
    assert "Ann" in run(["results"], db=db).output


def test_every_kind_of_damage(tmp_path):
    db = night(tmp_path)
    checkpointed(db)
    good = db.read_bytes()
    n = len(good)
    cases = {
        "zeroed tail": good[:n - 4096] + bytes(4096),
        "header byte": good[:19] + b"\x07" + good[20:],  # the read version
        "page size": good[:16] + b"\x00\x03" + good[18:],
        "truncated": good[:n // 2],
        "text": b"not a database at all" * 100,
    }
    flipped = bytearray(good)
    for i in range(4096, n, 97):
        flipped[i] ^= 0x5A
    cases["flipped bytes"] = bytes(flipped)
    for name, data in cases.items():
        db.write_bytes(data)
        for args in READS + WRITES[:1]:
            res = run(args, db=db, expect=None, now=at(6))
            assert res.exit_code == 2, (name, args, res.output)
            err = one_sentence(res)
            assert str(db) in err, (name, err)
            assert db.read_bytes() == data, name
        db.write_bytes(good)
    db.write_bytes(good[:18] + b"\x07" + good[19:])  # the write version: reads still work
    assert "Ann" in run(["results"], db=db).output
    assert str(db) in one_sentence(run(["bust", "Cat"], db=db, expect=None, now=at(6)))


def test_an_empty_file_never_invites_a_new_league(tmp_path):
    db = night(tmp_path)
    db.write_bytes(b"")
    for suffix in ("-wal", "-shm"):
        if os.path.exists(str(db) + suffix):
            os.remove(str(db) + suffix)
    for args in READS + (["new", LPPL, "--db", str(db)],):
        err = one_sentence(run(args, db=db, expect=None))
        assert "it is empty (0 bytes)" in err and "tdhost restore" in err, err
        assert "start one with" not in err
        assert db.read_bytes() == b""
    # with no backups (a file the TD just created) `new` may set it up
    fresh = tmp_path / "fresh.sqlite"
    fresh.write_bytes(b"")
    run(["new", LPPL, "--db", str(fresh)])


def test_restore_refuses_what_is_not_a_good_backup(tmp_path):
    db = night(tmp_path)
    before = db.read_bytes()
    err = one_sentence(run(["restore", str(tmp_path / "nope.sqlite")], db=db, expect=None))
    assert "cannot be restored: it does not exist" in err
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"junk" * 100)
    assert "cannot be restored" in one_sentence(run(["restore", str(junk)], db=db,
                                                    expect=None))
    assert "the league file itself" in one_sentence(run(["restore", str(db)], db=db,
                                                        expect=None))
    assert db.read_bytes() == before
    listing = run(["restore"], db=db).output
    assert "newest first" in listing and "bust.sqlite" in listing


def test_a_restore_cut_short_leaves_a_league_file_and_can_be_run_again(tmp_path,
                                                                      monkeypatch):
    db = night(tmp_path)
    newest = _store.backups(str(db))[0]
    real = os.replace

    def cut(src, dst):
        if str(dst) == str(db):
            raise OSError(28, "No space left on device")
        return real(src, dst)
    monkeypatch.setattr(_store.os, "replace", cut)
    err = one_sentence(run(["restore", newest], db=db, expect=None))
    assert "could not be restored" in err
    assert "Ann" in run(["results"], db=db).output  # the league file is still there
    monkeypatch.setattr(_store.os, "replace", real)
    assert "restored from" in run(["restore", newest], db=db).output
    assert "Ann" in run(["results"], db=db).output


def test_backups_are_kept_to_the_newest_few(tmp_path, monkeypatch):
    monkeypatch.setattr(_store, "KEEP_BACKUPS", 3)
    db = night(tmp_path)
    c = _store.Store(str(db))
    try:
        for _ in range(5):
            _store.make_backup(c.db, str(db), 99, "td", keep=3)
    finally:
        c.close()
    assert len(_store.backups(str(db))) == 3


def _notices(lg, seq):
    return [(1, "notice", {"text": "n" * 300, "src": []}, None)] * 100, None


def test_a_command_reads_from_its_checkpoint_and_a_backup_checks_the_whole_file(
        tmp_path, monkeypatch, unchecked_league):
    """A command checks the pages it reads -- tonight's, from the league's checkpoint on, so
    that it costs the same all season (docs/host.md §3.3) -- not the whole file; a damaged
    page of an earlier night is found when the next backup copies the file (a warning with
    what to do, and no damaged backup kept), and when `tdhost serve` opens it."""
    monkeypatch.setattr(_checkpoint, "EVERY", 100)
    db = night(tmp_path)
    store = _store.Store(str(db))
    try:
        for _ in range(6):  # 600 events of last night, a checkpoint taken before each batch
            transaction.append(store, _notices, "2025-03-03T20:00:00")
    finally:
        store.close()
    run(["new", LPPL], db=db)  # tonight
    run(["register", *players(10)], db=db)
    run(["draw", "--seed", "1"], db=db)
    run(["start"], db=db)
    checkpointed(db)
    c = sqlite3.connect(str(db))
    first = c.execute("SELECT min(pageno) FROM dbstat WHERE name = 'events' "
                      "AND pagetype = 'leaf'").fetchone()[0]  # last night's first events
    c.close()
    data = bytearray(db.read_bytes())
    data[4096 * (first - 1):4096 * first] = bytes(4096)
    db.write_bytes(bytes(data))
    kept = _store.backups(str(db))
    assert "Tournament 2" in run(["seats"], db=db).output
    res = run(["bust", "Cat"], db=db, now=at(7))
    assert "Cat is out" in res.output
    assert "Warning: %s cannot be used: it is damaged" % db in res.stderr, res.stderr
    assert "`tdhost restore --db %s %s`" % (db, kept[0]) in res.stderr
    assert _store.backups(str(db)) == kept  # no damaged copy among the backups
    try:
        _store.Store(str(db), check=True).close()  # what `tdhost serve` opens
        raise AssertionError("serve's check passed a damaged file")
    except _store.StoreError as err:
        assert "it is damaged" in str(err)


_BASE = {}


def _base(tmp_path_factory):
    if "db" not in _BASE:
        d = tmp_path_factory.mktemp("base")
        db = night(d)
        checkpointed(db)
        _BASE["db"] = db
        _BASE["bytes"] = db.read_bytes()
        _BASE["results"] = run(["results"], db=db).output
    return _BASE


@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_corrupted_copies_one_sentence_state_unchanged(tmp_path_factory, data):
    """Random damage to a copy of a real league file: each command either works as on the
    good file (the damage hit unused space) or refuses with one sentence naming the file
    and leaves it byte for byte as it was."""
    base = _base(tmp_path_factory)
    good = base["bytes"]
    d = tmp_path_factory.mktemp("copy")
    db = d / "l.sqlite"
    shutil.copytree(str(base["db"]) + ".backups", str(db) + ".backups")
    bad = bytearray(good)
    for _ in range(data.draw(st.integers(1, 4))):
        if not bad:
            break
        kind = data.draw(st.sampled_from(["flip", "zero", "cut"]))
        i = data.draw(st.integers(0, len(bad) - 1))
        if kind == "flip":
            bad[i] ^= data.draw(st.integers(1, 255))
        elif kind == "zero":
            j = min(len(bad), i + data.draw(st.integers(1, 4096)))
            bad[i:j] = bytes(j - i)
        else:
            bad = bad[:i]
    db.write_bytes(bytes(bad))
    args = data.draw(st.sampled_from(READS + WRITES))
    res = run(args, db=db, expect=None, now=at(6))
    assert "Traceback" not in res.output
    if res.exit_code == 2 and "cannot be used" in res.stderr:
        one_sentence(res)
        assert str(db) in res.stderr
        assert db.read_bytes() == bytes(bad)
    elif res.exit_code == 2:
        one_sentence(res)  # a refusal of the command itself (e.g. level 2 already on)
    else:
        assert res.exit_code == 0, res.output


def test_the_live_night_backs_up_at_every_level_change(tmp_path):
    from liveroom import Room

    room = Room(tmp_path, boxes=False)
    before = len(_store.backups(room.db))
    room.wait(20 * 60000 + 1000)  # level 1 ends on time: nothing is written, a backup is made
    names = _store.backups(room.db)
    assert len(names) == before + 1 and names[0].endswith("-level.sqlite")
    assert _store.check_file(names[0]) is None
