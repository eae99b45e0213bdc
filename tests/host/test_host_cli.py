"""The tournament commands' edges: every refusal is one sentence with exit code 2; the
league file's checks; the standby list on the command line; the JSON log; plain tables."""

import json
import os

from hostutil import EXAMPLES, at, players, run

from tdhost.cli import output

LPPL = os.path.join(EXAMPLES, "lppl.toml")


def refused(res, sentence):
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and res.stderr.endswith(".\n"), res.stderr
    assert sentence in res.stderr, res.stderr


def test_league_file_errors(tmp_path):
    db = tmp_path / "l.sqlite"
    refused(run(["results"], db=db, expect=2), "does not exist: name the league file with "
            "--db FILE or `export TDHOST_DB=FILE`, or start a league with "
            "`tdhost new FILE.toml --db")
    other = tmp_path / "other.sqlite"
    other.write_bytes(b"not a database at all, just text" * 10)
    refused(run(["new", LPPL, "--db", str(other)], expect=2), "is not a tdhost league file")
    bad = tmp_path / "bad.toml"
    bad.write_text('[tournament]\nname = "x"\nprofile = "lppl"\nseats_per_table = 12\n'
                   '[[levels]]\nsb = 1\nbb = 2\nminutes = 5\n')
    refused(run(["new", str(bad), "--db", str(db)], expect=2),
            "tdhost new: %s:4: tournament.seats_per_table: must be a whole number from 2 to "
            "10, not 12." % bad)
    assert not db.exists() or run(["log"], db=db, expect=None).exit_code == 2
    run(["new", LPPL, "--db", str(db)])
    refused(run(["new", LPPL, "--db", str(db)], expect=2),
            "tournament 1 was set up from this file a moment ago")
    us = os.path.join(EXAMPLES, "us_free.toml")
    refused(run(["new", us, "--db", str(db)], expect=2),
            "is the league file of 'LPPL Lincolnshire'")
    refused(run(["results", "-t", "7"], db=db, expect=2), "there is no tournament 7")


def test_new_says_how_to_make_its_league_file_the_default(tmp_path):
    db = str(tmp_path / "x.sqlite")
    out = run(["new", LPPL, "--db", db]).output.splitlines()
    assert out[-2:] == [
        "League file: %s." % db,
        "The next commands use it with --db %s, or once for all: `export TDHOST_DB=%s` "
        "(Windows: `set TDHOST_DB=%s`)." % (db, db, db)]
    # with $TDHOST_DB set to it, every command finds it and nothing more is said
    out = run(["new", LPPL, "--again"], db=db).output.splitlines()
    assert out[-1] == "League file: %s." % db
    assert "tournament 2" in run(["log"], db=db).output


def test_refusals_are_sentences(tmp_path):
    db = tmp_path / "l.sqlite"
    run(["new", LPPL, "--db", str(db)])
    refused(run(["late", "Ann"], db=db, expect=2), "the tournament has not started")
    refused(run(["start"], db=db, expect=2), "draw the seats first")
    refused(run(["draw"], db=db, expect=2), "a draw needs at least two players; 0 are "
                                            "registered")
    run(["register", *players(10)], db=db)
    refused(run(["bust", "Ann"], db=db, expect=2), "has not started")
    refused(run(["lock", "Zed", "--table", "1", "--seat", "1"], db=db, expect=2),
            "Zed is not in tournament 1")
    run(["draw", "--seed", "1"], db=db)
    run(["start"], db=db)
    refused(run(["late", "Kim", "--at", "25:99"], db=db, expect=2), "is not a time")
    refused(run(["late", "Kim", "--seat", "x"], db=db, expect=2), "is not a seat")
    refused(run(["late", "Kim", "--at", "19:00"], db=db, expect=2),
            "19:00:00 is before the start of the tournament (20:00:00)")
    refused(run(["bust", "Ann", "Bob", "--chips-at-start", "5"], db=db, expect=2),
            "2 players and 1 --chips-at-start: give one per player")
    refused(run(["bust", "Ann", "Ann"], db=db, expect=2), "a player is named twice")
    refused(run(["end", "Ann"], db=db, expect=2), "'Ann' is not NAME=CHIPS")
    refused(run(["move", "Ann", "9.1"], db=db, expect=2), "table 9 is not in play")
    refused(run(["level", "99"], db=db, expect=2), "there is no level 99 (levels 1 to 14)")
    assert run(["undo"], db=db).output.startswith("Undone #13: shuffle up and deal")
    assert run(["undo"], db=db).output.startswith("Undone #12: draw, random, seed 1")
    # one command, one TD action: all ten registrations, after asking how many
    res = run(["undo"], db=db, input="n\n", expect=1)
    assert res.stderr.splitlines() == [
        "Undo the registration of 10 players (Ann, Bob, Cat and 7 more)? [y/N]: n",
        "tdhost undo: nothing recorded."]
    out = run(["undo"], db=db, input="y\n").stdout
    assert out.splitlines()[0] == "Undone #2: register Ann." and out.count("Undone") == 10
    refused(run(["undo"], db=db, expect=2), "there is nothing to undo in tournament 1")


def test_unregister_a_player_not_yet_out(tmp_path):
    db = tmp_path / "l.sqlite"
    run(["new", LPPL], db=db)
    run(["register", *players(10)], db=db)
    run(["lock", "Bob", "--table", "1", "--seat", "3"], db=db)
    res = run(["unregister", "Bob"], db=db, input="n\n", expect=1)
    assert "tdhost unregister: nothing recorded." in res.stderr
    assert run(["unregister", "Bob", "--yes"], db=db).output == (
        "Bob is no longer registered (undo takes it back).\n")
    assert "unregister Bob" in run(["log"], db=db).output
    run(["draw", "--seed", "1"], db=db)  # Bob's lock went with him
    assert "Bob" not in run(["seats"], db=db).output
    run(["undo"], db=db)  # the draw
    assert run(["undo"], db=db).output == "Undone #13: unregister Bob.\n"
    run(["draw", "--seed", "1"], db=db)
    run(["start"], db=db)
    refused(run(["unregister", "Ann", "--yes"], db=db, expect=2),
            "Ann is playing at table 2 seat 2: a player who has played is busted")
    run(["bust", "Ann", "--yes"], db=db)
    refused(run(["unregister", "Ann", "--yes"], db=db, expect=2), "Ann is already out")


def test_standby_on_the_command_line(tmp_path):
    db = tmp_path / "l.sqlite"
    toml = tmp_path / "small.toml"
    with open(LPPL, encoding="utf-8") as f:
        toml.write_text(f.read().replace("max_players = 48", "max_players = 6"))
    run(["new", str(toml), "--db", str(db)])
    refused(run(["standby", "Early"], db=db, expect=2), "the tournament is not full (0 of 6 "
                                                        "players)")
    run(["register", *players(6)], db=db)
    out = run(["register", "Sid", "Sue"], db=db).output
    assert "The tournament is full (6 players): Sue is standby player 2 of 8." in out
    assert run(["standby", "Stan"], db=db).output == "Stan is standby player 3 of 8.\n"
    run(["draw", "--seed", "3"], db=db)
    run(["start"], db=db)
    out = run(["bust", "Ann"], now=at(10), db=db).output
    assert "Ann's seat (table " in out and "is offered to standby player Sid" in out
    listing = run(["standby"], now=at(10), db=db).output
    assert "1  Sid" in listing and "offered table" in listing
    out = run(["standby", "--pass", "Sid"], now=at(11), db=db).output
    assert "The seat is offered to Sue." in out
    out = run(["standby", "--take", "Sue"], now=at(12), db=db).output
    assert "with 2500 chips" in out
    refused(run(["standby", "--take", "Sue"], now=at(12), db=db, expect=2), "Sue is playing")
    lines = run(["log", "--json"], db=db).output.splitlines()
    last = json.loads(lines[-1])
    assert last["action"] == "standby_take" and last["payload"]["stack"] == 2500
    assert last["payload"]["reasons"] == ["Ann was knocked out before level 3: level 1: "
                                          "2500 chips (3000 less 500)"]


def test_plain_tables_without_rich(tmp_path, monkeypatch):
    db = tmp_path / "l.sqlite"
    run(["new", LPPL, "--db", str(db)])
    run(["register", *players(4)], db=db)
    monkeypatch.setattr(output, "HAVE_RICH", False)
    out = run(["results"], db=db, plain=False).output
    assert out.splitlines()[1].split() == ["place", "name", "member", "entry", "points"]
