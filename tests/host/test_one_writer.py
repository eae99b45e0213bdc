"""The league file has one writer at a time (docs/host.md, "One writer at a time"):
`tdhost restore` refuses while `tdhost serve` holds the file, so does a second serve; a
serve whose file was replaced under it anyway writes nothing more and says so."""

import logging
import os
import sqlite3

from hostutil import EXAMPLES, T0, at, players, run

from tdhost.league import store as _store
from tdhost.league.refusal import ActionRefused
from tdhost.live.night import Live

T0_MS = int(T0.timestamp() * 1000)


def _league(tmp_path):
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", *players(9), "--db", db], now=at(-50))
    run(["backup", "--db", db], now=at(-40))
    return db


def _log(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT seq, action FROM events ORDER BY seq").fetchall()
    finally:
        con.close()


def test_restore_and_a_second_serve_refuse_while_serve_holds_the_file(tmp_path):
    db = _league(tmp_path)
    backup = _store.backups(db)[-1]
    before = _log(db)
    held = _store.ServeLock(db, "as tdhost serve holds it")  # what serve takes at its start
    try:
        res = run(["restore", backup, "--db", db], expect=2)
        assert res.stderr == ("tdhost restore: %s is open in a running `tdhost serve`: stop"
                              " it (Ctrl-C) first, then restore, and start serve again.\n" % db)
        res = run(["serve", "--db", db, "--no-web", "--polls", "1"], expect=2)
        assert res.stderr == ("tdhost serve: %s is open in a running `tdhost serve`: one"
                              " tdhost serve per league file (stop the other one first).\n"
                              % db)
        assert _log(db) == before
    finally:
        held.release()
    run(["restore", backup, "--db", db])  # serve stopped: it goes ahead
    run(["serve", "--db", db, "--no-web", "--polls", "1"])  # and serve released the lock
    run(["restore", backup, "--db", db])


def test_serve_writes_nothing_to_a_file_replaced_under_it(tmp_path, caplog):
    db = _league(tmp_path)
    backup = _store.backups(db)[-1]
    live = Live(db, clock=lambda: T0_MS - 30 * 60000, seed=3)
    try:
        live.act("register", {"names": ["Zed"]})
        run(["restore", backup, "--db", db])  # not through serve's lock: a file copied in
        after = _log(db)
        try:
            live.act("register", {"names": ["Yan"]})
        except ActionRefused as err:
            said = str(err)
        else:
            raise AssertionError("a write to the replaced file")
        assert said == ("%s was replaced while this tdhost had it open (tdhost restore?):"
                        " nothing more is written to it; stop tdhost serve and start it"
                        " again" % db)
        with caplog.at_level(logging.ERROR, "tdhost.live"):
            live.poll()
            live.poll()
        assert [r.getMessage() for r in caplog.records] == [said[0].upper() + said[1:] + "."]
        assert live.snapshot()["wifi"][0]["text"] == said[0].upper() + said[1:]
        assert _log(db) == after
    finally:
        live.close()
