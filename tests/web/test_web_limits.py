"""What the TD may enter is bounded (docs/host.md, "What the TD may enter"): an absurd
value is refused with one sentence over the console's API and nothing is written -- the
league file's log is the same after it, and the boxes' clock frames can still be written.
The real Live on a league file the CLI set up; Starlette's TestClient."""

import json
import os
import warnings

from click.testing import CliRunner

with warnings.catch_warnings():  # starlette 1.10 would rather have httpx2 than httpx here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tableclock.protocol import Sender
from tdhost.cli.app import cli
from tdhost.live.night import Live
from tdhost.web.app import make_app

TOKEN = "test-td-token-0123"
BEARER = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"}
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "examples")
T0 = 1741032000000  # 2025-03-03 20:00:00 UTC


def _league(tmp_path):
    db = str(tmp_path / "league.sqlite")
    env = {"TDHOST_NOW": "2025-03-03T19:00:00+00:00", "TDHOST_PLAIN": "1"}
    for args in (["new", os.path.join(EXAMPLES, "lppl.toml")],
                 ["register"] + ["P%02d" % i for i in range(1, 11)],
                 ["draw", "--seed", "3"], ["start"]):
        res = CliRunner().invoke(cli, args + ["--db", db], env=env, catch_exceptions=False,
                                 input="y\n")
        assert res.exit_code == 0, (args, res.output)
    return db


def _log(db):
    import sqlite3
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT seq, action, payload FROM events ORDER BY seq").fetchall()
    finally:
        con.close()


def test_an_absurd_clock_change_is_refused_before_anything_is_written(tmp_path):
    db = _league(tmp_path)
    live = Live(db, clock=lambda: T0 + 60000)
    try:
        c = TestClient(make_app(live, TOKEN), base_url="http://testserver")
        before = _log(db)
        for args, said in (
                ({"seconds": 99999999999999999}, "seconds must be a whole number up to "
                                                 "9999999999999999"),
                ({"seconds": 86400}, "86400 s cannot be added: a level has at most 24 hours"
                                     " left"),
                ({"seconds": -99999999999999999}, "seconds must be a whole number up to "
                                                  "9999999999999999"),
                ({"seconds": -9999999999999999}, "cannot remove 9999999999999999")):
            r = c.post("/api/act/adjust", content=json.dumps(args), headers=BEARER)
            assert r.status_code == 400, (args, r.status_code, r.text)
            assert said in r.json()["error"], r.json()
            assert _log(db) == before
        r = c.post("/api/act/adjust", content=json.dumps({"seconds": 600}), headers=BEARER)
        assert r.status_code == 200 and r.json()["text"].startswith("Added 600 s to this level")
        Sender(bytes(32), "host", 1).encode(dict(live.clock_msg(), kind="clock"), "tc-01")
    finally:
        live.close()


def test_absurd_numbers_are_refused_with_a_sentence_and_write_nothing(tmp_path):
    db = _league(tmp_path)
    live = Live(db, clock=lambda: T0 + 60000)
    try:
        c = TestClient(make_app(live, TOKEN), base_url="http://testserver")
        before = _log(db)
        for action, args, said in (
                ("draw", {"seed": 10 ** 20, "again": True}, "seed must be a whole number from 0"),
                ("late", {"name": "Zed", "seat": "99999999999999999999.1"}, "is not a seat"),
                ("bust", {"names": ["P01"], "chips": [10 ** 17]}, "whole numbers from 0 to"),
                ("seat_at_box", {"name": "P01", "stack": 10 ** 16}, "stack must be a whole"),
                ("level", {"level": 10 ** 17}, "level")):
            r = c.post("/api/act/" + action, content=json.dumps(args), headers=BEARER)
            assert r.status_code == 400, (action, r.status_code, r.text)
            assert said in r.json()["error"], (action, r.json())
            assert _log(db) == before, action
    finally:
        live.close()


def test_the_cli_refuses_absurd_numbers(tmp_path):
    db = _league(tmp_path)
    before = _log(db)
    env = {"TDHOST_NOW": "2025-03-03T20:10:00+00:00", "TDHOST_PLAIN": "1"}
    for args, said in (
            (["level", "99999999999999999"], "level 99999999999999999"),
            (["draw", "--again", "--seed", "99999999999999999999"], "0<=x<=999999999999999"),
            (["bust", "P01", "--chips-at-start", "99999999999999999", "--yes"],
             "is not a whole number of chips (at most 9999999999999999)")):
        res = CliRunner().invoke(cli, args + ["--db", db], env=env, catch_exceptions=False)
        assert res.exit_code != 0 and said in res.output, (args, res.output)
        assert _log(db) == before, args
