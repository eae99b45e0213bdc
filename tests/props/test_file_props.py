"""The players CSV and the tournament file against hostile files (issue 30), with
hypothesis: each broken CSV line -- a quote left open, a value over the csv module's limit,
bytes that are not UTF-8, a wrong number of values -- is one line of output naming it,
never a traceback, and `--apply` refuses the file leaving the league as it was, or with
--skip-bad imports exactly the whole lines; a tournament file nested to any depth or too
large is one sentence and no league is written."""

import os
import sys
import tempfile

from hypothesis import HealthCheck, given, settings, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "host"))

from hostutil import EXAMPLES, at, run  # noqa: E402  (tests/host)

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
NAMES = st.sampled_from(["Ann Lee", "Bob Hart", "Cat Diaz", "Dan Roe", "Eve Sun", "Fay Ng",
                         "Gus Orr", "Hal Poe"])
# (bytes of the line, good?) -- header: name,member
BAD = st.sampled_from([
    (b'"Open quote,no', "a quote (\") is opened and not closed on this line"),
    (b"Zo\xe9 Latin,no", "it is not UTF-8 text"),
    (b"a" * 131073 + b",no", "a value is longer than 131072 characters"),
    (b"Too,many,values", "3 values for 2 columns"),
    (b"Lonely", "1 value for 2 columns"),
    (b'"Bob"x,no', "text follows a closing quote"),
])


def _league(tmp_path):
    """A new league file for each example (hypothesis runs many in one tmp_path)."""
    db = tempfile.mkdtemp(dir=tmp_path) + "/l.sqlite"
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    return db


@SETTINGS
@given(lines=st.lists(st.one_of(NAMES.map(lambda n: (n.encode() + b",no", None)), BAD),
                      min_size=1, max_size=8),
       crlf=st.booleans())
def test_each_broken_csv_line_is_one_error_line_and_only_whole_lines_import(tmp_path, lines,
                                                                           crlf):
    db = _league(tmp_path)
    log_before = run(["log", "--db", db]).output
    path = os.path.join(os.path.dirname(db), "players.csv")
    end = b"\r\n" if crlf else b"\n"
    with open(path, "wb") as f:
        f.write(end.join([b"name,member"] + [raw for raw, _ in lines]) + end)
    good, bad, seen = {}, {}, set()
    for i, (raw, why) in enumerate(lines, 2):
        if why is not None:
            bad[i] = why
        elif raw not in seen:  # a name again: "already registered", an error too
            seen.add(raw)
            good[i] = raw.decode().split(",")[0]
    out = run(["import", path, "--db", db]).output
    assert "Traceback" not in out
    said = {int(line.split(":")[1]): line for line in out.splitlines()[1:-1]}
    assert sorted(said) == list(range(2, len(lines) + 2)), out  # one line for each line
    for i, why in bad.items():
        assert said[i].startswith("%s:%d: not imported: %s" % (path, i, why)), said[i]
    for i, name in good.items():
        assert said[i].startswith("%s:%d: %s is registered" % (path, i, name)), said[i]
    errors = len(lines) - len(good)
    if errors:
        res = run(["import", path, "--apply", "--db", db], expect=2)
        assert res.stderr.count("\n") == 1 and "nothing is imported" in res.stderr
        assert run(["log", "--db", db]).output == log_before  # unchanged
    res = run(["import", path, "--apply", "--skip-bad", "--db", db], expect=None)
    log = run(["log", "--db", db]).output
    if good:
        assert res.exit_code == 0 and "Traceback" not in res.output
        assert sorted(line.split(" register ")[-1].strip() for line in log.splitlines()
                      if " register " in line) == sorted(good.values())
    else:
        assert res.exit_code == 2 and res.stderr.count("\n") == 1
        assert log == log_before


def _nested(depth, kind):
    if kind == "array":
        return "[" * depth + "1" + "]" * depth
    return "{a = " * depth + "1" + "}" * depth


@SETTINGS
@given(depth=st.integers(1, 5000), kind=st.sampled_from(["array", "table"]),
       key=st.sampled_from(["x", "league.name", "levels"]),
       pad=st.sampled_from([0, 0, 10**6]))
def test_a_tournament_file_nested_or_large_is_one_sentence_and_no_league(tmp_path, depth,
                                                                       kind, key, pad):
    with open(os.path.join(EXAMPLES, "lppl.toml"), encoding="utf-8") as f:
        good = f.read()
    path = tmp_path / "t.toml"  # written again by each example
    path.write_text("%s = %s\n%s# %s\n" % (key.replace("levels", "nested"),
                                          _nested(depth, kind), good, "x" * pad),
                    encoding="utf-8")
    db = tmp_path / "none.sqlite"  # never created
    res = run(["new", str(path), "--db", str(db)], expect=2)
    assert "Traceback" not in res.output
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("tdhost new: %s" % path)
    assert not db.exists()
