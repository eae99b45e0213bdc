"""Crash recovery: the host process is killed (SIGKILL) between any two writes of every
command of a small night, and nothing is lost or doubled.

Every command runs in a forked child killed right after its k-th write (tests/tools/
crashpoints.py counts them: BEGIN, each INSERT/CREATE, COMMIT), for k = 1, 2, ...
until the command finishes without reaching k.  After each kill the league file must be
intact and hold exactly the events before the command or exactly those after it (same
seq numbers, same payloads: nothing half-written, nothing twice).  Then the TD's recovery
-- running the same command again -- must end in the reference log: a command that had
been committed is refused (exit 2) and writes nothing; one that had not is carried out.
A few runs use a real `python -m tdhost` subprocess as well.
"""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys

import pytest
from hostutil import ROOT, at

import crashpoints
from tdhost.cli.app import cli
from tdhost.league.times import iso

SMALL = """\
[league]
name = "Crash league"

[tournament]
name = "Small night"
profile = "lppl"
seats_per_table = 4
max_players = 6
standby = 2

[[levels]]
sb = 25
bb = 50
minutes = 20

[[levels]]
sb = 50
bb = 100
minutes = 20

[[levels]]
sb = 75
bb = 150
minutes = 20
"""

# (minutes after 20:00, arguments); the league file is {db}, the tournament file {file}
SCRIPT = [
    (-30, ["new", "{file}"]),
    (-29, ["register", "P1", "P2", "P3", "--member"]),
    (-28, ["register", "P4", "P5", "P6"]),
    (-27, ["register", "S1"]),
    (-26, ["standby", "S2"]),
    (-25, ["lock", "P1", "--table", "1", "--seat", "2", "--reason", "accessibility"]),
    (-20, ["draw", "--seed", "11", "--ace8"]),
    (0, ["start", "--absent", "P6", "--away", "P5"]),
    (6, ["bust", "P2"]),
    (7, ["standby", "--pass", "P6"]),
    (8, ["standby", "--take", "S2"]),
    (9, ["arrive", "P5"]),
    (10, ["late", "Walk"]),  # refused: the tournament is full; writes nothing
    (21, ["level", "2"]),
    (22, ["bust", "P3", "P4", "--chips-at-start", "900", "--chips-at-start", "900",
          "--cards", "As Kd", "--cards", "7h 7c", "--board", "Ah 7d 2c 9s Tc"]),
    (23, ["undo"]),
    (24, ["bust", "P3", "P4", "--chips-at-start", "P3=900", "--chips-at-start", "P4=800"]),
    (25, ["move", "S1", "3.1"]),
    (90, ["end", "P1=9000", "S1=5000", "P5=5000", "S2=1000"]),
]


def events(db):
    """(integrity, [(seq, tournament, at, action, payload, undoes)]) of the league file."""
    if not os.path.exists(db):
        return "ok", []
    con = sqlite3.connect(db)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        if "events" not in tables:
            return ok, []
        rows = con.execute("SELECT seq, tournament, at, action, payload, undoes FROM events "
                           "ORDER BY seq").fetchall()
    finally:
        con.close()
    return ok, [(s, t, a, ac, json.loads(p), u) for s, t, a, ac, p, u in rows]


def child(db, args, when, crash_at=None):
    """Run one tdhost command in a forked child; returns ("killed", None) or ("exit", code)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 98
        try:
            os.environ.update({"TDHOST_DB": db, "TDHOST_NOW": iso(when), "TDHOST_PLAIN": "1"})
            crashpoints.kill_at(crash_at)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            try:
                cli.main(args=args, prog_name="tdhost")
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return "killed", None
    return "exit", os.WEXITSTATUS(status)


def copy_db(src, dst):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(dst + suffix):
            os.remove(dst + suffix)
        if os.path.exists(src + suffix):
            shutil.copyfile(src + suffix, dst + suffix)


def script(tmp_path):
    file = str(tmp_path / "small.toml")
    with open(file, "w", encoding="utf-8") as f:
        f.write(SMALL)
    return [(at(m), [a.replace("{file}", file) for a in args]) for m, args in SCRIPT]


def test_kill_between_any_two_writes_loses_and_doubles_nothing(tmp_path):
    steps = script(tmp_path)
    ref_db = str(tmp_path / "ref.sqlite")
    reference = []  # the log after each command, from an undisturbed run
    codes = []
    for when, args in steps:
        kind, code = child(ref_db, args, when)
        assert kind == "exit"
        codes.append(code)
        reference.append(events(ref_db)[1])
    assert codes.count(2) == 1 and codes[12] == 2  # the refused `late`
    assert reference[-1][-1][3] == "end"

    db, work = str(tmp_path / "main.sqlite"), str(tmp_path / "work.sqlite")
    kills = 0
    for i, (when, args) in enumerate(steps):
        before = reference[i - 1] if i else []
        after = reference[i]
        k = 1
        while True:
            copy_db(db, work)
            kind, code = child(work, args, when, crash_at=k)
            ok, got = events(work)
            assert ok == "ok"
            if kind == "exit":  # the command finished before its k-th write: all covered
                assert got == after and code == codes[i]
                break
            kills += 1
            assert got in (before, after), (args, k)
            applied = got == after and after != before
            if args[0] == "undo" and applied:
                pass  # an undo is not repeated: `tdhost log` shows it was recorded
            else:  # the TD runs the command again
                kind, code = child(work, args, when)
                assert kind == "exit" and code == (2 if applied else codes[i]), (args, k)
            assert events(work) == ("ok", after), (args, k)
            k += 1
        kind, code = child(db, args, when)
        assert events(db)[1] == after
    assert kills >= 60


def test_append_only_log(tmp_path):
    db = str(tmp_path / "l.sqlite")
    when, args = script(tmp_path)[0]
    assert child(db, args, when) == ("exit", 0)
    con = sqlite3.connect(db)
    for stmt in ("UPDATE events SET action = 'x'", "DELETE FROM events"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            con.execute(stmt)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_real_subprocess_killed_mid_command(tmp_path):
    """`python -m tdhost` killed by SIGKILL inside its transaction, then run again."""
    steps = script(tmp_path)
    db = str(tmp_path / "l.sqlite")
    env = dict(os.environ, TDHOST_DB=db, TDHOST_PLAIN="1",
               PYTHONPATH=os.path.join(ROOT, "host_tools"))

    def run(args, when, crash=None):  # tdhost run by the crash tests' wrapper
        e = dict(env, TDHOST_NOW=iso(when))
        return subprocess.run([sys.executable, crashpoints.__file__, str(crash or 0)] + args,
                              env=e, capture_output=True, text=True, timeout=60)

    for when, args in steps[:2]:
        assert run(args, when).returncode == 0
    when, args = steps[2]
    before = events(db)[1]
    r = run(args, when, crash=2)  # after BEGIN and the first of three INSERTs
    assert r.returncode == -signal.SIGKILL
    assert events(db) == ("ok", before)
    r = run(args, when)
    assert r.returncode == 0, r.stderr
    names = [e[4]["name"] for e in events(db)[1] if e[3] == "register"]
    assert names == ["P1", "P2", "P3", "P4", "P5", "P6"]
    r = run(args, when, crash=5)  # a repeated command is refused after BEGIN: no 5th write
    assert r.returncode == 2 and "P4 is already registered" in r.stderr
    assert len(events(db)[1]) == len(before) + 3  # nothing written by the refusal
