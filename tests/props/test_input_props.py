"""Every door refuses bad input in one sentence and changes nothing (issue 16), with
hypothesis: tournament files (random values over the TOML schema, then `tdhost new` on a
league file), the box's saved record (good CRC, bad content), the simulator's setup and
script files, replay events, and the web server's request bodies.  The league file's
corrupted copies are in tests/host/test_host_damage.py.  Each test checks what was
accepted is sound and what was refused left the state as it was -- never just "no crash"."""

import datetime
import json
import math
import os
import sys
import warnings

from hypothesis import HealthCheck, given, settings, strategies as st

import gen
from tableclock import protocol, record
from tableclock.levels import parse_levels
from tableclock.table import Table
from tdhost import tournamentfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "host"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "web"))

from hostutil import run  # noqa: E402  (tests/host)

# ------------------------------------------------------------------ tournament files

GOOD = {
    "league": {"name": "Test league"},
    "tournament": {"name": "Night", "date": datetime.date(2025, 3, 3), "profile": "lppl",
                   "seats_per_table": 8, "starting_stack": 3000},
    "levels": [{"sb": 25, "bb": 50, "minutes": 20}, {"break": 10},
               {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}],
    "late_entry": {"until_level": 2},
    "points": {"formula": "sqrt", "decimals": 2},
}
# (table, key) the fuzzer may replace; ("levels", i, key) for a level
KEYS = [("league", "name"), ("tournament", "name"), ("tournament", "date"),
        ("tournament", "profile"), ("tournament", "seats_per_table"),
        ("tournament", "max_players"), ("tournament", "standby"),
        ("tournament", "starting_stack"), ("late_entry", "until_level"),
        ("late_entry", "deductions"), ("late_entry", "grace_minutes"),
        ("points", "participation"), ("points", "decimals"),
        ("levels", 0, "sb"), ("levels", 0, "bb"), ("levels", 0, "minutes"),
        ("levels", 0, "ante"), ("levels", 1, "break"), ("levels", 2, "minutes"),
        ("levels", 2, "sb")]

TEXTS = st.sampled_from(["", " ", "yesterday", "2025-02-30", "2025-03-03", "Red\x00Lion",
                         "tab\there", "x" * 100, "lppl", "vegas", "Ann Lee", "\u202e"])
VALUES = st.one_of(
    st.integers(-10, 60), st.sampled_from([0, 1, 2, 10**9, 10**9 + 1, 10**16, -10**20]),
    st.floats(allow_nan=True, allow_infinity=True, width=64), TEXTS, st.booleans(),
    st.lists(st.integers(-5, 5000), max_size=3), st.just(datetime.date(2025, 3, 3)),
    st.just(datetime.time(20, 0)))


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) \
            else repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # JSON's escapes are TOML's (\uXXXX, \", \\, \t, \n)
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, list):
        return "[%s]" % ", ".join(toml_value(x) for x in v)
    raise TypeError(v)


def toml_text(doc):
    out = []
    for table in ("league", "tournament", "late_entry", "points"):
        if table in doc:
            out.append("[%s]" % table)
            out += ["%s = %s" % (k, toml_value(v)) for k, v in doc[table].items()]
    for lv in doc["levels"]:
        out.append("[[levels]]")
        out += ["%s = %s" % (k, toml_value(v)) for k, v in lv.items()]
    return "\n".join(out) + "\n"


@st.composite
def tournament_docs(draw):
    doc = json.loads(json.dumps(GOOD, default=str))
    doc["tournament"]["date"] = GOOD["tournament"]["date"]
    for path in draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=3, unique=True)):
        d = doc
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = draw(VALUES)
    n = draw(st.sampled_from([0, 0, 0, 200, 2000]))  # a long structure now and then
    doc["levels"] += [{"sb": 100 * i, "bb": 200 * i, "minutes": 15} for i in range(1, n)]
    return doc


def sound(setup):
    """What an accepted file must be: what the boxes and the protocol take."""
    for name in (setup["league"], setup["name"]):
        assert name.isprintable() and 0 < len(name) <= tournamentfile.MAX_NAME
    if setup["date"] is not None:
        datetime.date.fromisoformat(setup["date"])
    for lv in setup["levels"]:
        for k, v in lv.items():
            assert type(v) is int, (k, v)
        if "break" not in lv:
            assert 1 <= lv["sb"] <= lv["bb"] and 1 <= lv["minutes"]
    parse_levels(setup["levels"])
    assert tournamentfile.config_size(tournamentfile.box_config_of(setup)) <= protocol.MAX_FRAME
    assert math.isfinite(setup["points"]["participation"])


@gen.props_settings(300)
@given(doc=tournament_docs())
def test_tournament_files_accepted_are_sound_and_refusals_one_line(doc):
    text = toml_text(doc)
    try:
        setup = tournamentfile.parse(text, "night.toml")
    except tournamentfile.FileError as err:
        msg = str(err)
        assert "\n" not in msg and msg.startswith("night.toml") and msg.endswith("."), msg
        return
    sound(setup)


@settings(max_examples=25, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(doc=tournament_docs())
def test_tdhost_new_refuses_in_one_line_and_leaves_the_league_file(tmp_path_factory, doc):
    d = tmp_path_factory.mktemp("new")
    db = d / "l.sqlite"
    good = d / "good.toml"
    good.write_text(toml_text(GOOD))
    run(["new", str(good), "--db", str(db)])
    bad = d / "night.toml"
    bad.write_text(toml_text(doc))
    before = run(["log", "--json", "--all"], db=db).output
    res = run(["new", str(bad), "--db", str(db), "--again"], expect=None)
    if res.exit_code == 0:
        sound(tournamentfile.load(str(bad))[0])
        return
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("tdhost new: "), res.stderr
    assert run(["log", "--json", "--all"], db=db).output == before  # nothing written


# ------------------------------------------------------------------------- records

def _good_record():
    t = Table({"profile": "wph", "seats": 6, "players": {"1": 3000, "2": 3000, "4": 3000},
               "button": 1, "levels": [{"sb": 25, "bb": 50, "minutes": 20}]})
    t.apply({"do": "hand"})
    t.apply({"do": "call"})
    return json.loads(json.dumps(record.dump(t))), t.state()


LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-10**13, 10**13),
                   st.floats(allow_nan=False), st.text(max_size=5),
                   st.lists(st.integers(-3, 9), max_size=3),
                   st.dictionaries(st.sampled_from(["#", "(", "@Hand", "^", "x"]),
                                   st.integers(-3, 9), max_size=1))


def _paths(v, path=()):
    out = [path]
    if isinstance(v, dict):
        for k in v:
            out += _paths(v[k], path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += _paths(x, path + (i,))
    return out


@gen.props_settings(400)
@given(data=st.data())
def test_a_record_with_bad_content_is_refused_or_sound(data):
    """A good CRC over changed content: record.load raises ValueError (the box starts
    afresh), or the table it gives works -- its state, then every kind of event, never
    raise."""
    rec, _ = _good_record()
    paths = [p for p in _paths(rec) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        d = rec
        try:
            for k in path[:-1]:
                d = d[k]
            d[path[-1]] = data.draw(LEAVES)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed that path
    body = record.payload(rec)
    if len(body) > 0xFFFF:
        return
    try:
        t, _ = record.load(record.decode(record.frame(body, 1)))
    except ValueError:
        return
    t.state()
    for ev in ({"do": "call"}, {"do": "raise", "to": 200}, {"do": "fold"}, {"do": "hand"},
               {"do": "tick", "s": 30}, {"do": "undo"}, {"do": "showdown", "ranking": [[1]]},
               {"do": "away", "seat": 2}, {"do": "bust", "seat": 4}):
        t.apply(ev)  # never raises: refused or done


# ---------------------------------------------------------------------- replay events

NUMBERS = st.one_of(st.integers(-5, 5000), st.text(max_size=4), st.floats(), st.booleans(),
                    st.none(), st.lists(st.integers(1, 6), max_size=2))


@gen.props_settings(300)
@given(data=st.data())
def test_replay_events_with_non_whole_amounts_are_refused_and_change_nothing(data):
    t = Table({"profile": "lppl", "seats": 6, "players": {str(s): 3000 for s in range(1, 7)},
               "button": 1, "levels": [{"sb": 25, "bb": 50, "minutes": 20}]})
    t.apply({"do": "hand"})
    for _ in range(data.draw(st.integers(0, 4))):
        t.apply({"do": "call"})
    before = json.dumps(record.dump(t), sort_keys=True)
    st0 = t.state()
    kind = data.draw(st.sampled_from(["raise", "bet", "away", "back", "sit", "deduct", "bust",
                                      "warn", "penalty", "jump", "kill", "enter"]))
    key = data.draw(st.sampled_from(["to", "seat", "stack", "chips", "level", "hands"]))
    value = data.draw(NUMBERS.filter(lambda v: isinstance(v, bool) or not isinstance(v, int)))
    ev = {"do": kind, key: value}
    out = t.apply(ev)
    assert out["error"] and "\n" not in out["error"], out
    assert '"%s"' % key in out["error"] and "whole number" in out["error"], out
    out["error"] = st0["error"]
    assert out == st0
    t.error = None
    dumped = json.loads(json.dumps(record.dump(t), sort_keys=True))
    dumped["table"]["error"] = json.loads(before)["table"]["error"]
    assert json.dumps(dumped, sort_keys=True) == before  # nothing changed


# ------------------------------------------------------------------ simulator files

@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.binary(max_size=64), st.text(max_size=40).map(str.encode),
                         st.sampled_from([b"", b"[]", b"{}", b'{"setup": 5}', b"[" * 5000,
                                          b'{"setup": {"profile": "lppl"}}',
                                          b'{"do": "raise", "to": "200"}'])),
       which=st.sampled_from(["setup", "script"]))
def test_simulator_files_one_line_exit_2(tmp_path_factory, content, which, capsys):
    from tcsim import cli as sim_cli

    d = tmp_path_factory.mktemp("sim")
    f = d / "in.json"
    f.write_bytes(content)
    good = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "examples",
                        "lppl_away_seat.json")
    args = ["--setup", str(f) if which == "setup" else good, "--out", str(d / "out")]
    if which == "script":
        args += ["--script", str(f)]
    try:
        sim_cli.load_setup(args[1])
        if which == "script":
            sim_cli.read_script(str(f))
        ok = True
    except sim_cli.InputError:
        ok = False
    if ok:
        return  # a setup and script the simulator can play (tests/sim plays such files)
    capsys.readouterr()
    assert sim_cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tableclock-sim: "), err
    assert not os.path.exists(str(d / "out"))  # nothing written


# -------------------------------------------------------------------- request bodies

@settings(max_examples=60, deadline=None, database=None, derandomize=True)
@given(body=st.one_of(st.binary(max_size=200), st.just(b"[" * 60000),
                      st.just(b" " * (64 * 1024 + 1)), st.just(b'{"x": 1}' + b" " * 70000),
                      st.recursive(st.none() | st.integers() | st.text(max_size=3),
                                   lambda c: st.lists(c, max_size=3)
                                   | st.dictionaries(st.text(max_size=3), c, max_size=3),
                                   max_leaves=8).map(lambda v: json.dumps(v).encode())))
def test_request_bodies_one_sentence_state_unchanged(body):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from fake_live import FakeLive

    from tdhost.web.app import make_app

    live = FakeLive(clock=lambda: 1741032000000)
    c = TestClient(make_app(live, "test-td-token-0123"), base_url="http://testserver")
    before = json.dumps(live.snapshot(), sort_keys=True, default=str)
    r = c.post("/api/act/bust", content=body,
               headers={"Content-Type": "application/json",
                        "Authorization": "Bearer test-td-token-0123"})
    assert r.status_code in (400, 413), (r.status_code, r.text)
    msg = r.json()["error"]
    assert "\n" not in msg and msg.endswith("."), msg
    assert json.dumps(live.snapshot(), sort_keys=True, default=str) == before
