"""The CLI a TD can trust all night (issue #17): balancing from the league itself
(`tdhost plan`, `--apply`, the hint after a bust), names typed short or misspelt, seat
locks checked at once and taken back, refusals that name their rule, `--help` in a
night's order.

The night: LPPL (docs/examples/lppl.toml: 8 seats a table, 48 entries at most), 20 players
drawn with seed 5 at three tables (6, 7, 7); LPPL breaks the table whose closing moves the
fewest players, the highest number on a tie (docs/balancing.md: LPPL ¶45, issue #13).
"""

import json
import re

import pytest
from hostutil import EXAMPLES, run

from tdhost.cli.app import NIGHT_ORDER, cli
from tdhost.cli.plan import league_room, these_moves
from tdhost.league import replay as _replay, store as S
from tdhost.live.wording import log_line
from tdhost.rules import balance

LPPL = EXAMPLES + "/lppl.toml"
NAMES = ["Yan Irons", "Yanis Petrov", "Ann Lee", "Bob Hart"] + [
    "P%02d" % i for i in range(5, 21)]
MOVE = re.compile(r"^Move (.+): table (\d+) seat (\d+) \u2192 table (\d+) seat (\d+)\.$")


def refused(res, sentence):
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and res.stderr.endswith(".\n"), res.stderr
    assert sentence in res.stderr, res.stderr


def league(db):
    st = S.Store(str(db))
    try:
        return _replay.replay(st.events())
    finally:
        st.close()


def night(tmp_path, names=NAMES, start=True):
    db = tmp_path / "night.sqlite"
    run(["new", LPPL, "--db", str(db)])
    run(["register", *names], db=db)
    if start:
        run(["draw", "--seed", "5"], db=db)
        run(["start"], db=db)
    return db


def sizes(db):
    return {tb: len(s) for tb, s in sorted(league(db).current().seating().items())}


def at_table(db, table):
    return sorted(league(db).current().seating()[table].values())


# ------------------------------------------------------------------ balancing

def bust_down_to_16(db):
    """Four busts at tables 1 and 2: 16 players fit two tables of 8."""
    t = league(db).current()
    assert {tb: len(s) for tb, s in t.seating().items()} == {1: 6, 2: 7, 3: 7}
    outs = []
    for table in (2, 2, 2, 3):
        name = sorted(league(db).current().seating()[table].values())[0]
        outs.append(run(["bust", name], db=db).output)
    return outs


def test_bust_says_when_the_tables_are_out_of_balance_and_what_to_run(tmp_path):
    db = night(tmp_path)
    outs = bust_down_to_16(db)
    # 19 players at 6/6/7: within one of each other, no hint
    assert "out of balance" not in outs[0] and "break" not in outs[0]
    assert sizes(db) == {1: 6, 2: 4, 3: 6}
    # 16 players fit two tables of 8: table 2 breaks, 4 moves (table 3, the highest
    # number, would cost 6)
    assert outs[3].splitlines()[-1] == (
        "Table 2 breaks (table 1: 6, table 2: 4, table 3: 6): `tdhost plan` shows the 4 "
        "moves, `tdhost plan --apply` records them.")


def test_plan_prints_the_leagues_moves_in_words_and_apply_records_them(tmp_path):
    db = night(tmp_path)
    bust_down_to_16(db)
    breaking = at_table(db, 2)
    out = run(["plan"], db=db).output.splitlines()
    assert out[0] == "Players per table now: table 1: 6, table 2: 4, table 3: 6."
    assert out[1] == "Table 2 breaks."
    moves = [MOVE.match(line) for line in out[2:6]]
    assert all(moves), out
    assert sorted(m.group(1) for m in moves) == breaking
    assert {m.group(2) for m in moves} == {"2"}
    assert sorted(m.group(4) for m in moves) == ["1", "1", "3", "3"]  # to 8 and 8
    assert out[-2:] == [
        "(Who moves is the player due the big blind next, from the buttons: the draw's at "
        "table 1, table 2 and table 3; --button TABLE.SEAT says where one is now.)",
        "`tdhost plan --apply` records these 4 moves."]
    note = run(["plan", "--button", "1.3"], db=db).output.splitlines()[-2]
    assert note.startswith("(Who moves is the player due the big blind next, from the "
                           "buttons: yours at table 1 and the draw's at table 2 and table 3")
    assert (these_moves(1), these_moves(2)) == ("this move", "these 2 moves")
    assert "internal" not in " ".join(out) and "move_out" not in " ".join(out)

    # --json: the file contract's output, for the same room
    plan = json.loads(run(["plan", "--json"], db=db).output)
    assert plan == balance.plan(league_room(league(db).current()))
    assert [(m["player"], m["to"]["table"], m["to"]["seat"]) for m in plan["moves"]] == [
        (m.group(1), int(m.group(4)), int(m.group(5))) for m in moves]

    # --apply asks first; no (or no answer) records nothing
    n = len(league(db).events)
    res = run(["plan", "--apply"], db=db, input="n\n", expect=1)
    assert "Record these 4 moves? [y/N]" in res.stderr
    assert res.stderr.endswith("tdhost plan: nothing recorded.\n")
    assert len(league(db).events) == n
    run(["plan", "--apply"], db=db, input="", expect=1)
    assert len(league(db).events) == n

    res = run(["plan", "--apply"], db=db, input="y\n")
    assert res.stdout.splitlines()[-1] == "Recorded 4 moves: table 1: 8, table 3: 8."
    t = league(db).current()
    assert sizes(db) == {1: 8, 3: 8}
    for m in plan["moves"]:
        assert t.get(m["player"]).seat == [m["to"]["table"], m["to"]["seat"]]
    assert [ev.action for ev in league(db).events[n:]] == ["move"] * 4
    # one TD action: one undo takes the whole plan back
    run(["undo"], db=db)
    assert sizes(db) == {1: 6, 2: 4, 3: 6}
    run(["plan", "--apply", "--yes"], db=db)
    assert run(["plan"], db=db).output == (
        "The tables are balanced (table 1: 8, table 3: 8): no moves.\n")
    # the console's log says who did it: the TD at the command line, not a box or the dealers
    lg = league(db)
    whos = {ev.action: log_line(ev, lg)["who"] for ev in lg.events
            if ev.action in ("bust", "move") and ev.seq not in lg.undone}
    assert whos == {"bust": "TD at the command line", "move": "TD at the command line"}


def test_plan_with_the_button_where_it_is_now(tmp_path):
    db = night(tmp_path)
    bust_down_to_16(db)
    t = league(db).current()
    # LPPL ¶45: the player due the big blind next moves first; with the button given the
    # blinds follow from it, so a different button gives a different first mover
    firsts = set()
    for b in sorted(t.seating()[2]):  # the table that breaks
        out = run(["plan", "--button", "2.%d" % b], db=db).output.splitlines()
        firsts.add(MOVE.match(out[2]).group(1))
        assert "(Who moves is the player due the big blind next" in out[-2]  # 1, 2 unknown
    assert len(firsts) > 1
    refused(run(["plan", "--button", "7.1"], db=db, expect=2), "nobody plays at table 7")
    refused(run(["plan", "--button", "x"], db=db, expect=2), "is not a seat")
    refused(run(["plan", "-", "--apply"], db=db, expect=2),
            "--apply and --button go with the league's seating, not with FILE")


def test_plan_before_the_start_and_at_the_final_table(tmp_path):
    db = night(tmp_path, start=False)
    refused(run(["plan"], db=db, expect=2), "the tournament has not started")
    run(["draw", "--seed", "5"], db=db)
    run(["start"], db=db)
    for _ in range(10):  # down to 10 players: still two tables for LPPL (8 seats)
        name = sorted(league(db).current().seating()[3 if 3 in sizes(db) else 2].values())[0]
        run(["bust", name, "--yes"], db=db)
        run(["plan", "--apply", "--yes"], db=db)
    assert sum(sizes(db).values()) == 10
    name = sorted(league(db).current().seating()[2].values())[0]
    run(["bust", name], db=db)
    name = sorted(league(db).current().seating()[2].values())[0]
    out = run(["bust", name], db=db).output
    # 8 players: LPPL's final table (8 seats a table) forms
    assert out.splitlines()[-1] == ("8 players remain: the final table forms (`tdhost draw "
                                    "--final` draws its seats).")
    assert run(["plan"], db=db).output == (
        "8 players remain: the final table forms. Draw its seats with `tdhost draw "
        "--final`.\n")
    run(["draw", "--final", "--seed", "1"], db=db)
    assert run(["plan"], db=db).output == "Every player is at one table: nothing to balance.\n"


# ---------------------------------------------------------------------- names

def test_a_unique_start_of_a_name_is_taken_after_asking(tmp_path):
    db = night(tmp_path)
    # "Yan" is a whole word of Yan Irons only (Yanis Petrov merely starts with it)
    res = run(["bust", "Yan"], db=db, input="y\n")
    assert "Yan: do you mean Yan Irons? [y/N]" in res.stderr
    assert res.stdout.startswith("Yan Irons is out: 20th of 20.")
    # an ambiguous start lists the candidates and records nothing
    refused(run(["bust", "P1"], db=db, expect=2),
            "P1 could be P10, P11, P12, P13, P14, P15, P16, P17, P18 and P19: type more of "
            "the name")
    # a player out already is refused before any question
    refused(run(["bust", "Yan Irons"], db=db, expect=2), "Yan Irons is already out (20th)")
    # a close spelling, declined: nothing recorded, exit 1
    n = len(league(db).events)
    res = run(["bust", "Yanis Petorv"], db=db, input="n\n", expect=1)
    assert "Yanis Petorv: no such name; do you mean Yanis Petrov? [y/N]" in res.stderr
    assert res.stderr.endswith("tdhost bust: nothing recorded.\n")
    assert len(league(db).events) == n
    # --yes takes the one match; chips given with a short name follow it
    out = run(["bust", "ann", "bob", "--chips-at-start", "Lee=500", "--chips-at-start",
               "bob=900", "--yes"], db=db).output
    assert "Ann Lee is out: 19th of 20." in out and "Bob Hart is out: 18th of 20." in out
    assert "Bob Hart finishes above Ann Lee: more chips at the start of the hand (900 to " \
           "500)." in out
    # nothing like it: the league's own refusal
    refused(run(["bust", "Zed"], db=db, expect=2), "Zed is not in tournament 1")


def test_short_names_in_the_other_commands(tmp_path):
    db = night(tmp_path)
    t = league(db).current()
    seat = t.get("Ann Lee").seat
    free = next([tb, s] for tb in (1, 2, 3) for s in range(1, 9)
                if s not in t.seating()[tb])
    out = run(["move", "Ann", "%d.%d" % tuple(free), "--yes"], db=db).output
    assert out == "Move Ann Lee: table %d seat %d \u2192 table %d seat %d.\n" % (
        tuple(seat) + tuple(free))
    refused(run(["end", "Ya=100", "Bob=200"], db=db, expect=2), "Ya could be")


def test_lock_is_checked_at_once_and_unlock_takes_it_back(tmp_path):
    # LPPL ¶15: at most 48 players, so at most 6 tables of 8
    db = night(tmp_path, names=["Bob Hart"] + ["P%02d" % i for i in range(1, 20)],
               start=False)
    n = len(league(db).events)
    res = run(["lock", "Bob", "--table", "9", "--seat", "1"], db=db, expect=2)
    refused(res, "table 9 does not exist: 48 players (max_players) fill at most 6 tables of "
                 "8 seats (tables 1 to 6)")
    assert "do you mean" not in res.stderr  # refused before asking about the name
    refused(run(["lock", "Bob", "--table", "2", "--seat", "9"], db=db, expect=2),
            "seat 9 does not exist: tables have seats 1 to 8")
    assert len(league(db).events) == n
    # 20 players fill 3 tables: table 6 is accepted, with a warning
    out = run(["lock", "Bob", "--table", "6", "--seat", "3", "--yes"], db=db).output
    assert out == ("Bob Hart is locked to table 6 seat 3 (TD).\n"
                   "Table 6 is not in the draw yet: 20 registered players fill 3 tables; it "
                   "is drawn from 41 players on (the draw refuses the lock until then).\n")
    assert league(db).current().locks["bob hart"][:2] == [6, 3]
    out = run(["unlock", "bob hart"], db=db).output
    assert out == ("Bob Hart is no longer locked to table 6 seat 3: the draw seats them at "
                   "random.\n")
    assert league(db).current().locks == {}
    refused(run(["unlock", "Bob Hart"], db=db, expect=2), "Bob Hart has no seat lock")
    assert "unlock Bob Hart (was table 6 seat 3)" in run(["log"], db=db).output
    assert run(["lock", "Bob Hart", "--table", "3", "--seat", "3"], db=db).output == (
        "Bob Hart is locked to table 3 seat 3 (TD).\n")
    run(["draw", "--seed", "2"], db=db)
    assert league(db).current().get("Bob Hart").seat == [3, 3]
    run(["start"], db=db)
    refused(run(["unlock", "Bob Hart"], db=db, expect=2),
            "the tournament has started: a seat lock only matters for the draw")


def test_the_full_refusal_says_the_cap_counts_entries(tmp_path):
    # LPPL ¶15 "the maximum number of 48": 48 entries, players knocked out count too
    db = night(tmp_path, names=["P%02d" % i for i in range(1, 49)], start=False)
    run(["draw", "--seed", "1"], db=db)
    run(["start"], db=db)
    run(["bust", "P01"], db=db)
    run(["bust", "P02"], db=db)
    refused(run(["late", "Walk"], db=db, expect=2),
            "the tournament is full: 48 entries of the 48 that max_players allows (it counts "
            "every entry, players knocked out too: 46 in play)")


# ----------------------------------------------------------------------- help

def test_help_lists_the_commands_in_a_nights_order_with_an_example():
    res = run(["--help"])
    listed = re.findall(r"^  ([\w-]+)  ", res.output.split("Commands:")[1], re.M)
    assert listed == [n for n in NIGHT_ORDER if n in cli.commands]
    assert set(listed) == set(cli.commands)
    assert listed.index("register") < listed.index("draw") < listed.index("start") \
        < listed.index("bust") < listed.index("results")
    assert "A night, in order" in res.output and "tdhost plan --apply" in res.output


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_command_and_option_has_help(name):
    cmd = cli.commands[name]
    assert cmd.help and cmd.help.strip(), name
    for p in cmd.params:
        if getattr(p, "hidden", False) or p.param_type_name == "argument":
            continue
        assert p.help, "%s %s has no help" % (name, p.opts[0])
    res = run([name, "--help"])
    assert res.output.startswith("Usage: ") and " %s [OPTIONS]" % name in res.output


def test_the_log_of_a_live_night_speaks_plain_words(tmp_path):
    from tcsim import serve_demo as _demo

    d = _demo.Demo.build(str(tmp_path), seed=7, realtime=False)
    try:
        d.advance(3 * 60000)  # three busts, a table break, moves sent and answered
    finally:
        d.close()
    out = run(["log"], db=d.db).output
    actions = [re.split(r"\s{2,}", line.strip())[3] for line in out.splitlines()[3:]
               if line.strip()]
    assert "instruction to a box" in actions and "answer from a box" in actions
    assert not [a for a in actions if "_" in a], actions
