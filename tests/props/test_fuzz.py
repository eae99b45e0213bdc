"""Fuzz tests for the Table Clock core (CPython only, hypothesis).

(a) Table.apply never raises on arbitrary values (JSON values, NaN/inf, huge ints,
    dicts with a valid "do" and junk fields), at any point of a session; a
    rejected value leaves the state unchanged.
(b) `python -m tableclock.replay -` never crashes on arbitrary lines after a valid
    setup line: one JSON line out per event line in, exit status 0 at EOF.
(c) Table(setup) raises SetupError, never another exception, for junk setups.
"""

import copy
import json
import os
import subprocess
import sys

from hypothesis import given, strategies as st

import gen

DOS = ("hand", "check", "call", "fold", "bet", "raise", "allin", "showdown", "away", "back",
       "bust", "sit", "leave", "tick", "pause", "resume", "clock", "adjust", "jump",
       "colour_up", "misdeal", "relevel", "undo", "warn", "penalty", "slow", "kill",
       "disqualify", "enter")
FIELDS = ("to", "seat", "stack", "s", "level", "ranking", "hands", "rounds", "chip", "dead_bb",
          "do")

scalars = (st.none() | st.booleans()
           | st.integers(-10 ** 6, 10 ** 6)
           | st.sampled_from([0, 1, -1, 2 ** 31, 2 ** 63, -(2 ** 63), 10 ** 30, 10 ** 400])
           | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=12))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=4),
    max_leaves=12)
junk_fields = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=5), json_values,
                              max_size=4)


@st.composite
def junk_events(draw):
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(json_values)                      # anything at all
    ev = dict(draw(junk_fields))
    ev["do"] = draw(st.sampled_from(DOS))             # a valid "do" with junk fields
    if kind == 2:                                     # plausible field, junk-ish value
        ev[draw(st.sampled_from(FIELDS[:-1]))] = draw(scalars | st.lists(scalars, max_size=3))
    return ev


def _safe_json(v):
    try:
        return json.dumps(v)
    except (TypeError, ValueError):
        return repr(v)


@gen.props_settings(80)
@given(setup=gen.setups(), rnd=st.randoms(use_true_random=False),
       junk=st.lists(junk_events(), min_size=1, max_size=25))
def test_apply_never_raises_on_junk(setup, rnd, junk):
    """(a) junk interleaved with a generated session, so it hits every street."""
    ch = gen.RandomChooser(rnd)
    s = gen.Session(setup, props=(gen.P_CRASH, gen.P_REJECT, gen.P_JSON))
    for j in junk:
        for _ in range(ch.int(0, 8)):
            ev, kind = gen.next_event(s.state, setup, ch, illegal_rate=0.0)
            s.apply(ev, kind)
        before = gen.canon(s.state)
        try:
            st_ = s.table.apply(copy.deepcopy(j))
        except Exception as e:  # noqa: BLE001
            raise AssertionError("apply(%s) raised %r\nrepro:\n%s"
                                 % (_safe_json(j), e, gen.repro_text(setup, s.events)))
        s.events.append(j)
        assert isinstance(st_, dict) and "error" in st_, st_
        json.dumps(st_, allow_nan=False)
        if not isinstance(j, dict):
            assert isinstance(st_["error"], str) and st_["error"], (j, st_["error"])
        if st_["error"] is not None:
            assert gen.canon(st_) == before, (
                "rejected %s changed the state:\n%s" % (_safe_json(j),
                                                        gen.diff_states(s.state, st_)))
        s.state = st_


# ---------------------------------------------------------------- setups

MUTATIONS = ("drop", "junk", "junk_player", "junk_level", "junk_level_field", "junk_option",
             "extra")
OPTIONS = ("chip", "shot_clock", "colour_ups", "late_entry_until_level", "button", "seats",
           "profile")
numberish = scalars | st.sampled_from(["3", "\u00b2", "\u0663", "1e3", " 5", "-3", "0x10"])


@st.composite
def junk_setups(draw):
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return draw(json_values)
    setup = draw(gen.setups())
    for _ in range(draw(st.integers(1, 3))):
        m = draw(st.sampled_from(MUTATIONS))
        keys = sorted(setup) if isinstance(setup, dict) else []
        levels = setup.get("levels")
        if m == "drop" and keys:
            setup.pop(draw(st.sampled_from(keys)))
        elif m == "junk" and keys:
            setup[draw(st.sampled_from(keys))] = draw(json_values)
        elif m == "junk_player" and isinstance(setup.get("players"), dict):
            setup["players"][draw(st.text(max_size=3) | st.sampled_from(["0", "11", "-1"]))] = \
                draw(numberish | json_values)
        elif m == "junk_level" and isinstance(levels, list):
            setup["levels"].append(draw(json_values))
        elif m == "junk_level_field" and isinstance(levels, list) and levels:
            lv = levels[draw(st.integers(0, len(levels) - 1))]
            if isinstance(lv, dict):
                lv[draw(st.sampled_from(["sb", "bb", "ante", "minutes", "break"]))] = \
                    draw(numberish)
        elif m == "junk_option":
            opt = draw(st.sampled_from(OPTIONS))
            if opt == "shot_clock":
                setup[opt] = {draw(st.sampled_from(["seconds", "warning"])): draw(numberish)}
            elif opt == "colour_ups":
                setup[opt] = [{"after_level": draw(numberish), "remove": draw(json_values),
                               "chip": draw(numberish)}]
            else:
                setup[opt] = draw(numberish)
        else:
            setup[draw(st.text(max_size=5))] = draw(json_values)
    return setup


@gen.props_settings(300)
@given(setup=junk_setups())
def test_table_setup_raises_only_setup_error(setup):
    """(c) Table(junk) either raises SetupError or gives a working table (state() and
    apply() work, states strictly JSON). Other exceptions propagate unwrapped so that
    hypothesis reports each distinct one separately."""
    Table, SetupError = gen._table_api()
    try:
        t = Table(copy.deepcopy(setup))
    except SetupError:
        return
    json.dumps(t.state(), allow_nan=False)
    for ev in ({"do": "hand"}, {"do": "tick", "s": 7200}, {"do": "jump", "level": 2},
               {"do": "fold"}):
        json.dumps(t.apply(ev), allow_nan=False)


def test_setup_numbers_as_digit_strings():
    """Table accepts whole numbers written as digit strings (table._as_int); a setup
    doing so must then work like the numeric one."""
    Table, SetupError = gen._table_api()
    problems = []
    for key, val in (("seats", "6"), ("button", "1"), ("chip", "25"),
                     ("late_entry_until_level", "3"), ("shot_clock", {"seconds": "30"}),
                     ("shot_clock", {"seconds": 30, "warning": "5"})):
        s = _base_setup()
        s[key] = val
        try:
            t = Table(s)
        except SetupError:
            continue
        try:
            for ev in ({"do": "hand"}, {"do": "tick", "s": 7200}, {"do": "fold"}):
                t.apply(ev)
            json.dumps(t.state(), allow_nan=False)
        except Exception as e:  # noqa: BLE001
            problems.append("%s=%s: accepted by Table() but then %r" % (key, json.dumps(val), e))
    assert not problems, "\n".join(problems)


def _base_setup():
    return {"profile": "wph", "seats": 6, "players": {"1": 3000, "3": 3000, "5": 1000},
            "button": 1, "levels": [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
                                    {"break": 10}, {"sb": 50, "bb": 100, "ante": 0,
                                                    "minutes": 20}]}


def _bad_setups():
    def mod(**kw):
        s = _base_setup()
        for k, v in kw.items():
            if v is KeyError:
                s.pop(k)
            else:
                s[k] = v
        return s
    bad = [None, 0, "lppl", [], [_base_setup()], {},
           mod(profile="poker"), mod(profile=None), mod(profile=KeyError),
           mod(seats=1), mod(seats=11), mod(seats=0), mod(seats="six"), mod(seats=6.5),
           mod(seats=True), mod(seats=KeyError), mod(seats="\u00b2"), mod(seats="\u0663"),
           mod(players={}), mod(players=KeyError), mod(players=[3000, 3000]),
           mod(players={"1": 3000, "7": 3000}), mod(players={"0": 3000, "1": 3000}),
           mod(players={"1": -5, "3": 3000}), mod(players={"x": 3000, "3": 3000}),
           mod(players={"\u00b2": 3000, "3": 3000}),
           mod(players={"1": 3000, "3": 30.5}), mod(players={"1": 3000, "3": None}),
           mod(players={"1": 3000, "3": [3000]}), mod(players={"1": 3000, "3": 10 ** 400}),
           mod(button=0), mod(button=7), mod(button="x"), mod(button=None), mod(button=[1]),
           mod(levels=[]), mod(levels=KeyError), mod(levels="fast"),
           mod(levels=[{"break": 10}]), mod(levels=[{"sb": 25}]),
           mod(levels=[{"sb": 25, "bb": 0, "ante": 0, "minutes": 20}]),
           mod(levels=[{"sb": -25, "bb": 50, "ante": 0, "minutes": 20}]),
           mod(levels=[{"sb": 25, "bb": 50, "ante": 0, "minutes": 0}]),
           mod(levels=[{"sb": 25, "bb": 50, "ante": -1, "minutes": 20}]),
           mod(levels=[{"sb": 25, "bb": 50, "ante": 0, "minutes": float("nan")}]),
           mod(levels=[{"sb": 25, "bb": 50, "ante": 0, "minutes": float("inf")}]),
           mod(levels=[{"sb": 25, "bb": 50, "ante": 0, "minutes": 20}, {"break": float("nan")},
                       {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}]),
           mod(levels=[{"sb": 25, "bb": 50, "ante": 0, "minutes": 20}, {"break": float("inf")},
                       {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}]),
           mod(colour_ups=[{"after_level": 1, "remove": [25], "chip": float("nan")}]),
           mod(chip=0), mod(chip=-25), mod(chip="lots"), mod(chip=2.5),
           mod(profile=[]), mod(profile={}), mod(profile=["wph"]),
           mod(shot_clock="60"), mod(shot_clock={"seconds": 0}),
           mod(shot_clock={"seconds": 10, "warning": 10}), mod(shot_clock=[60, 10]),
           mod(late_entry_until_level="soon"), mod(late_entry_until_level=[3]),
           mod(colour_ups="none"), mod(colour_ups=[{"remove": [25]}]), mod(colour_ups=[5])]
    return bad


def test_definitely_bad_setups_raise_setup_error():
    Table, SetupError = gen._table_api()
    Table(_base_setup())  # the base is fine
    problems = []
    for s in _bad_setups():
        try:
            Table(copy.deepcopy(s))
        except SetupError:
            continue
        except Exception as e:  # noqa: BLE001
            problems.append("%s -> %r" % (_safe_json(s), e))
            continue
        problems.append("%s -> accepted" % (_safe_json(s),))
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- replay CLI

def _env(extra=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = gen.FIRMWARE + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra or {})
    return env


def _run_replay(data, env=None):
    return subprocess.run([sys.executable, "-m", "tableclock.replay", "-"], input=data,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=gen.ROOT,
                          env=_env(env), timeout=60)


LINE_JUNK = [b"", b"   ", b"{", b"}", b"null", b"[]", b"[1,2,[3,[4]]]", b"\"hand\"", b"42",
             b"-1e999", b"1e999", b"NaN", b"Infinity", b"{\"do\": \"tick\", \"s\": NaN}",
             b"{\"do\": \"tick\", \"s\": Infinity}", b"{\"do\": \"tick\", \"s\": -Infinity}",
             b"{\"do\": \"tick\", \"s\": 1e400}", b"{\"do\": \"raise\", \"to\": 1e400}",
             b"{\"do\": \"raise\", \"to\": 99999999999999999999999999999999}",
             b"{\"do\": \"bet\", \"to\": -99999999999}", b"{\"do\": \"raise\", \"to\": 12.75}",
             b"{\"do\": \"sit\", \"seat\": 2, \"stack\": 1e300}",
             b"{\"do\": \"jump\", \"level\": 123456789012345678901234567890}",
             b"{\"do\": \"adjust\", \"s\": -99999999999}",
             b"{\"do\": \"showdown\", \"ranking\": [[[1]], {\"a\": 2}]}",
             b"\x00\x01\x02\x7f", b"\t\t{\"do\":\"hand\"}\t", b"{\"do\":\"hand\"}{\"do\":\"hand\"}",
             b"{\"do\": \"hand\", \"do\": \"fold\"}", b"\"\\ud800\"", b"{\"\\u0000\": 1}",
             "{\"do\": \"caf\u00e9\"}".encode("utf-8"), "\u2028".encode("utf-8"),
             b"\x1b[2J", b"[" * 50 + b"]" * 50, b"[" * 100000, b"{\"do\":" * 5000,
             b"\r", b"{\"do\": \"hand\"}\r{\"do\": \"fold\"}", b"\x0c\x0b\x1c\x1d\x1e\x85"]


def _random_junk_event(r):
    do = r.choice(DOS)
    return r.choice([{"do": do}, {"do": do, "seat": r.randint(-2, 12)},
                     {"do": do, "to": r.choice([-1, 0, 10 ** 20, 0.5, "100"])},
                     {"do": do, "s": r.choice([-1, 3.5, 10 ** 12, "5"])}, [do],
                     {"do": do, "ranking": [[r.randint(0, 11)]]},
                     {"do": do, "stack": r.choice([0, -5, 1.5, 10 ** 13, "50"])}])


def _session_lines(setup, seed, count):
    """A generated session (events picked from the in-process state) with junk lines
    mixed in, every LINE_JUNK entry included. Returns (lines, expected) where expected
    holds, per event line, the in-process state the replay must print (as canon JSON
    plus whether error is set)."""
    import random
    r = random.Random(seed)
    ch = gen.RandomChooser(r)
    Table, _ = gen._table_api()
    t = Table(copy.deepcopy(setup))
    state = t.state()
    queue = list(LINE_JUNK)
    r.shuffle(queue)
    lines, expected = [], []
    i = 0
    while i < count or queue:
        i += 1
        p = r.random()
        if queue and (p < 0.15 or i >= count):
            line = queue.pop()
        elif p < 0.25:
            line = r.choice(LINE_JUNK)
        elif p < 0.35:
            line = json.dumps(_random_junk_event(r)).encode()
        else:
            ev, _ = gen.next_event(state, setup, ch, illegal_rate=0.1)
            line = json.dumps(ev).encode()
        lines.append(line)
        for piece in line.decode("utf-8", "surrogateescape").split("\n"):
            piece = piece.strip()
            if not piece:
                continue
            try:
                obj = json.loads(piece)
            except (ValueError, RecursionError):
                expected.append((gen.canon(state), True))
                continue
            state = t.apply(obj)
            expected.append((gen.canon(state), state["error"] is not None))
    return lines, expected


def _event_lines(data):
    """The lines the replay treats as events: lines ("\\n"-separated, as CPython's stdin
    reads them on POSIX) that are not blank after str.strip(), minus the setup line."""
    text = data.decode("utf-8", "surrogateescape")
    return [ln for ln in text.split("\n") if ln.strip()][1:]


def _check_replay(setup, lines, env=None, expected=None):
    data = json.dumps(setup).encode() + b"\n" + b"\n".join(lines) + b"\n"
    p = _run_replay(data, env)
    repro = "input:\n%s\nstderr:\n%s" % (data.decode("utf-8", "replace")[:4000],
                                         p.stderr.decode("utf-8", "replace")[-3000:])
    assert p.returncode == 0, "exit status %d\n%s" % (p.returncode, repro)
    out = p.stdout.decode("utf-8").splitlines()
    want = len(_event_lines(data))
    assert len(out) == want, "%d output lines for %d event lines\n%s" % (len(out), want, repro)
    for i, line in enumerate(out):
        st_ = json.loads(line)
        assert isinstance(st_, dict) and "error" in st_, line
        if expected is not None:
            canon, err = expected[i]
            assert (gen.canon(st_), st_["error"] is not None) == (canon, err), (
                "event line %d: replay printed a state that differs from Table.apply's:\n%s\n%s"
                % (i + 1, line[:2000], canon[:2000]))
    return out


def test_replay_cli_survives_junk_lines():
    """(b) a few subprocess runs feeding many lines each; every printed state equals
    the in-process Table's (a line that is not JSON: the unchanged state with an error)."""
    import random
    for seed in range(4):
        setup = gen.make_setup(gen.RandomChooser(random.Random(seed)))
        lines, expected = _session_lines(setup, seed, 400)
        _check_replay(setup, lines, expected=expected)


INVALID_UTF8 = [b"\xff\xfe", b"{\"do\": \"hand\"}", b"\x80abc", b"{\"do\": \"\xc3\x28\"}",
                b"\xed\xa0\x80", b"{\"do\": \"fold\"}"]


def test_replay_cli_survives_invalid_utf8():
    """(b') bytes that are not UTF-8 on some lines (this machine's C.UTF-8 locale:
    CPython reads stdin with surrogateescape)."""
    _check_replay(_base_setup(), INVALID_UTF8)


def test_replay_cli_survives_invalid_utf8_strict_locale():
    """(b'') the same under a desktop UTF-8 locale (en_US.UTF-8 and the like), where
    CPython decodes stdin strictly; PYTHONIOENCODING reproduces it on any machine."""
    _check_replay(_base_setup(), INVALID_UTF8, env={"PYTHONIOENCODING": "utf-8:strict"})
