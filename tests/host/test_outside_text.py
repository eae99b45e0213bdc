"""Outside text shown safely (issue 30; tdhost.safetext, docs/host.md §1, docs/mqtt.md
"Threats"): a refused MQTT login's user name and client id reach the TD's terminal and the
console's Wi-Fi notes as one escaped line; a name in a league file written by another
program cannot clear the screen, forge a line or break the table; every text cell of
`results --csv` and `league --csv` that a spreadsheet would run as a formula is defused,
and the numbers stay numbers."""

import csv
import logging
import os
import sqlite3
import time

import paho.mqtt.client as mqtt
from hostutil import EXAMPLES, at, run
from paho.mqtt.enums import CallbackAPIVersion

from tdhost.cli.output import log_to_stderr
from tdhost.links.broker import Limits, start_embedded
from tdhost.links.wifinotes import WifiNotes

ATTACK = "x\x1b[2J\x1b[H\nTD token: 0wned"
SHOWN = "x\\x1b[2J\\x1b[H\\nTD token: 0wned"  # what the terminal must show, literally


def _login(port, client_id, user, password):
    got = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
    c.username_pw_set(user, password)
    c.on_connect = lambda cl, ud, fl, rc, pr=None: got.append(rc)
    c.connect_async("127.0.0.1", port)
    c.loop_start()
    end = time.monotonic() + 5
    while not got and time.monotonic() < end:
        time.sleep(0.02)
    c.loop_stop()
    c.disconnect()
    assert got and got[0].is_failure, "the login was not refused"


def test_a_refused_login_reaches_the_terminal_and_the_console_escaped(capsys):
    notes = WifiNotes(tables={"tc-09": 9})
    root = logging.getLogger()
    before = list(root.handlers)
    log_to_stderr()  # what the console script sets up
    broker = start_embedded(users={"host": "h-pw", "tc-09": "p9"}, on_refused=notes.refused)
    try:
        capsys.readouterr()
        _login(broker.port, ATTACK, ATTACK, "guess")  # an unknown user: named in the log
        _login(broker.port, ATTACK, "tc-09", "p9")  # a good login posing as another id
        time.sleep(0.2)
    finally:
        broker.stop()
        for handler in [h for h in root.handlers if h not in before]:
            root.removeHandler(handler)
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert err.splitlines() == [
        "The broker refused user %s, which is no paired box of this event (a box paired"
        " before each box had its own login must be paired again: tdhost pair)." % SHOWN,
        "The broker refused user tc-09 claiming client id %s (a client's id must be its"
        " user name)." % SHOWN]
    assert [n["text"] for n in notes.view()][0] == (
        "Refused: table 9's box's login from 127.0.0.1 posing as box %s" % SHOWN)


def _foreign_name(db, name):
    """A register event for *name* written into the league file by another program."""
    c = sqlite3.connect(db)
    c.execute("INSERT INTO events (tournament, at, action, payload) VALUES (1, "
              "'2025-03-03T19:00:00+00:00', 'register', ?)",
              ('{"name": "%s", "member": false, "standby": false, "key": "z"}'
               % name.replace("\x1b", "\\u001b").replace("\n", "\\n"),))
    c.commit()
    c.close()


def test_a_name_from_a_league_file_is_printed_escaped(tmp_path):
    db = str(tmp_path / "l.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", "Ann", "[/]", "--db", db], now=at(-50))  # rich markup: shown as typed
    _foreign_name(db, "Zed" + ATTACK)
    for args in (["log"], ["seats"]):
        for plain in (True, False):
            out = run(args + ["--db", db], plain=plain).output
            assert "\x1b" not in out and "\nTD token" not in out, out
            assert "Zedx\\x1b[2J\\x1b[H\\nTD" in out and "[/]" in out, out  # rich wraps
    # a name with a control character is refused at the door, in one line
    res = run(["register", "Bo\x1b[2J", "--db", db], expect=2)
    assert res.output == ("tdhost register: refused: 'Bo\\x1b[2J': a name may not contain"
                          " '=' or control characters.\n")


def test_csv_cells_a_spreadsheet_would_run_are_defused_numbers_stay(tmp_path):
    db = str(tmp_path / "l.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    names = ["+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "Ann"]
    run(["register", "--db", db, "--", *names], now=at(-50))
    run(["draw", "--seed", "3", "--db", db], now=at(-40))
    run(["start", "--db", db], now=at(0))
    for i, name in enumerate(names[:3]):
        run(["bust", "--db", db, "--yes", "--", name], now=at(10 + i))
    for command in ("results", "league"):
        path = str(tmp_path / (command + ".csv"))
        run([command, "--csv", path, "--db", db], now=at(30))
        with open(path, "rb") as raw:
            assert raw.read(3) == b"\xef\xbb\xbf"  # Excel reads the accents right
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.reader(f))
        cells = [cell for row in rows[1:] for cell in row]
        assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], rows
        assert sorted(row[1] for row in rows[1:]) == sorted(
            ["'+cmd|' /C calc'!A0", "'-2+3", "'@SUM(A1)", "Ann"])
        # the numbers the host writes stay numbers: LPPL's 10 * sqrt(4 entries / place)
        assert [float(row[-1]) for row in rows[1:]] == [20, 14.14, 11.55, 10], rows


def test_a_64_kb_user_name_is_logged_and_noted_shortened(capsys):
    """MQTT allows a user name of 65,535 bytes: the refusal line and the Wi-Fi note show
    its first 80 characters and how many more it had (tdhost.safetext.shortened)."""
    long_name = "\x1b" + "a" * 65534
    shown = "\\x1b" + "a" * 79 + "\u2026(65455 more)"
    notes = WifiNotes()
    root = logging.getLogger()
    before = list(root.handlers)
    log_to_stderr()
    # a packet limit that lets the 64 KB CONNECT through to the login check (the default
    # 8 KB closes it unread: tests/host/test_broker_limits.py)
    broker = start_embedded(users={"host": "h-pw"}, on_refused=notes.refused,
                            limits=Limits(packet=1 << 17))
    try:
        capsys.readouterr()
        _login(broker.port, "c1", long_name, "guess")  # unknown: named in the log
        _login(broker.port, long_name, "host", "h-pw")  # posing as a 64 KB client id
        time.sleep(0.2)
    finally:
        broker.stop()
        for handler in [h for h in root.handlers if h not in before]:
            root.removeHandler(handler)
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "The broker refused user %s, which is no paired box of this event (a box paired"
        " before each box had its own login must be paired again: tdhost pair)." % shown,
        "The broker refused user host claiming client id %s (a client's id must be its"
        " user name)." % shown]
    assert [n["text"] for n in notes.view()][0] == (
        "Refused: the host's login from 127.0.0.1 posing as box %s" % shown)
