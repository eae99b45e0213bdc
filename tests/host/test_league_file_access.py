"""A league file that cannot be written is not a damaged one (issue 30; docs/host.md §3.3):
read-only, the disk full, locked by another program -- each said in words with what to do,
the reading commands still work, nothing is recorded and nothing is lost; "damaged" stays
for a file that fails SQLite's checks (tests/host/test_host_damage.py).

How each is made, honestly, as the tests run (as root here, where file modes are ignored):
read-only with ``chattr +i`` on the file and its folder (chmod when not root; skipped when
neither works); a full disk as a 1 MB tmpfs filled up (skipped where mount is not
allowed) and, everywhere, as SQLite's own SQLITE_FULL through ``PRAGMA max_page_count``;
a lock as another connection's exclusive transaction."""

import os
import shutil
import sqlite3
import subprocess

import pytest
from hostutil import EXAMPLES, at, players, run

from tdhost.league import store as _store, transaction

READS = (["seats"], ["results"], ["league"], ["log"], ["standby"])
WRITES = (["bust", "Cat", "--yes"], ["level", "2"])


def _night(folder):
    db = folder / "l.sqlite"
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", str(db)])
    run(["register", *players(10)], db=db)
    run(["draw", "--seed", "1"], db=db)
    run(["start"], db=db)
    run(["bust", "Ann"], db=db, now=at(5))
    return db


def _one_sentence(res):
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert res.stderr.count("\n") == 1 and res.stderr.endswith(".\n"), res.stderr
    assert "Traceback" not in res.output and "damaged" not in res.output
    return res.stderr


def _read_only(paths):
    """Make *paths* read-only for this process; the undo, or skip."""
    if os.geteuid() != 0:
        modes = [(p, os.stat(p).st_mode) for p in paths]
        for p in paths:
            os.chmod(p, 0o555 if os.path.isdir(p) else 0o444)
        return lambda: [os.chmod(p, m) for p, m in modes]
    done = []
    for p in paths:
        if subprocess.run(["chattr", "+i", str(p)], capture_output=True).returncode != 0:
            for q in done:
                subprocess.run(["chattr", "-i", str(q)])
            pytest.skip("root, and chattr +i does not work here: no honest read-only file")
        done.append(p)
    return lambda: [subprocess.run(["chattr", "-i", str(p)]) for p in paths]


def test_a_read_only_league_file_is_read_and_its_writes_are_refused_in_words(tmp_path):
    folder = tmp_path / "league"
    folder.mkdir()
    db = _night(folder)
    shown = {tuple(args): run(args, db=db, now=at(6)).output for args in READS}
    before = db.read_bytes()
    undo = _read_only([folder, db])
    try:
        for args in READS:
            assert run(args, db=db, now=at(6)).output == shown[tuple(args)]
        for args in WRITES:
            err = _one_sentence(run(args, db=db, expect=None, now=at(6)))
            assert err.startswith("tdhost %s: %s cannot be written: it or its folder is"
                                  " read-only (" % (args[0], db)), err
            assert "Nothing was recorded and the file is unharmed: make both writable" in err
    finally:
        undo()
    assert db.read_bytes() == before
    assert "Cat is out: 9th of 10." in run(["bust", "Cat", "--yes"], db=db, now=at(7)).output


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MB tmpfs (root only), unmounted after."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    if not shutil.which("mount") or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)],
            capture_output=True).returncode != 0:
        pytest.skip("mount is not allowed here: the full disk is SQLITE_FULL's test only")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)])


def test_a_full_disk_is_said_to_be_full_and_nothing_is_lost(small_disk):
    db = small_disk / "l.sqlite"
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", str(db)])
    run(["register", *players(10)], db=db)
    shown = run(["seats"], db=db).output
    filler = small_disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(bytes(4096))
        except OSError:
            pass
    before = db.read_bytes()
    assert run(["seats"], db=db).output == shown
    for args in (["register", "Zoe"], ["lock", "Bob", "--table", "1", "--seat", "1"]):
        err = _one_sentence(run(args, db=db, expect=None))
        assert err.startswith("tdhost %s: %s cannot be written: the disk is full (0 KB"
                              " free). Nothing was recorded and the file is unharmed: free"
                              " at least 1.0 MB on that disk" % (args[0], db)), err
    assert db.read_bytes() == before
    filler.unlink()
    assert "Zoe is registered (11 of 48)" in run(["register", "Zoe"], db=db).output
    assert "register Jon" in run(["log"], db=db).output


def test_sqlite_full_and_a_lock_are_said_as_such(tmp_path):
    db = _night(tmp_path)
    store = _store.Store(str(db))
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute("PRAGMA max_page_count = %d" % pages)  # SQLite's SQLITE_FULL, as a full disk
    big = [(1, "notice", {"text": "x" * 100000}, None)]
    with pytest.raises(sqlite3.OperationalError) as full:
        transaction.append(store, lambda lg, seq: (big, None), "2025-03-03T20:06:00+00:00")
    store.close()
    assert full.value.sqlite_errorname == "SQLITE_FULL"
    assert _store.unusable(str(db), full.value).startswith(
        "%s cannot be written: the disk is full (" % db)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program's transaction
    try:
        c = sqlite3.connect(db, timeout=0, isolation_level=None)
        with pytest.raises(sqlite3.OperationalError) as locked:
            c.execute("BEGIN IMMEDIATE")
        c.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert _store.unusable(str(db), locked.value) == (
        "%s is locked by another program (database is locked). Nothing was recorded and the"
        " file is unharmed: close the other program using it (another `tdhost serve`, a"
        " database viewer), then run the command again." % db)
    assert "Ann" in run(["results"], db=db).output  # nothing lost
