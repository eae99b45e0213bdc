"""One registry of the TD's actions (tdhost.actions): every `tdhost` night command and every
console action is an entry and every entry is one of them; both paths call the declared
decision; the CLI's bounds are the declared ones; the web's list is the registry's; and a
bad argument of any console action is one sentence that writes nothing."""

import os
import re
import types

import click
import pytest
from hostutil import at, players, run

from tcsim import EXAMPLES
from tdhost.actions import ACTIONS, CLI_VIEWS, Arg, console_names
from tdhost.cli import (
    app as _app,
    money_commands as _money,
    night as _night,
    plan as _plan,
    registration as _reg,
)
from tdhost.league.refusal import ActionRefused
from tdhost.live import console_actions as _acts
from tdhost.live.night import Live
from tdhost.web import app as _web

TD_JS = os.path.join(os.path.dirname(_web.__file__), "static", "td.js")
NIGHT_COMMANDS = {command.name for module in (_night, _reg, _plan, _money) for command in
                  module.COMMANDS} | {"move-box"}


def test_every_night_command_is_an_action_and_every_action_s_command_exists():
    by_cli = {action.cli for action in ACTIONS.values() if action.cli}
    assert NIGHT_COMMANDS - CLI_VIEWS == by_cli
    assert by_cli <= set(_app.cli.commands)


def test_the_console_s_handlers_the_web_s_list_and_td_js_are_the_registry_s():
    assert sorted(_acts.ACTS) == console_names()
    assert sorted(_web.ACTIONS) == console_names()
    with open(TD_JS, encoding="utf-8") as src:
        called = set(re.findall(r'\bact\("(\w+)"', src.read()))
    called |= {"pause", "resume"}  # act(snap.clock.paused ? "resume" : "pause", {})
    assert called <= set(console_names()), called - set(console_names())


def test_an_action_on_one_path_only_says_why():
    for action in ACTIONS.values():
        one_path = action.cli is None or not action.console
        assert bool(action.why) or not one_path, action.name


def _calls(function, seen=None):
    """The names *function* uses, and those of the functions of its module it calls."""
    seen = set() if seen is None else seen
    module = function.__globals__
    names = set()
    codes = [function.__code__]
    while codes:
        code = codes.pop()
        names |= set(code.co_names) | set(code.co_freevars)
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    for name in list(names):
        called = module.get(name)
        if isinstance(called, types.FunctionType) and called not in seen \
                and called.__module__ == function.__module__:
            seen.add(called)
            names |= _calls(called, seen)
    return names


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_both_paths_call_the_declared_decision(name):
    action = ACTIONS[name]
    if action.decide is None:
        return
    decide = action.decide.__name__
    if action.cli and name != "final_draw":  # the final table: `tdhost draw --final`
        assert decide in _calls(_app.cli.commands[action.cli].callback), (name, decide)
    if action.console and name != "final_draw":  # tdhost.live.final.final_table
        handler = _acts.ACTS[name]
        handler = getattr(handler, "__wrapped__", handler)
        assert decide in _calls(handler) | {"decide_" + n for n in _calls(handler)}, name


@pytest.mark.parametrize("name", sorted(n for n, a in ACTIONS.items() if a.cli))
def test_the_cli_s_number_bounds_are_the_declared_ones(name):
    action = ACTIONS[name]
    params = {opt: param for param in _app.cli.commands[action.cli].params
              for opt in param.opts + [param.human_readable_name]}
    for arg in action.args:
        param = params.get(arg.option or "")
        if arg.kind != "int" or param is None or not isinstance(param.type, click.IntRange):
            continue
        assert param.type.min == arg.low, (name, arg.name)
        assert param.type.max in (arg.high, None), (name, arg.name)


BAD = {"text": [7, "  ", ["x"]], "names": ["Ann", [], [3], None], "bool": ["yes", 1],
       "int": ["3", 1.5, True, 10 ** 17], "seat": ["2", "0.1", "x.y", [1]],
       "counts": [[-1], "3", [True]], "list": ["50,30,20"]}


def _bad_args(action):
    """Each argument of *action* given badly, the others well."""
    good = {"text": "Ann", "names": ["Ann"], "bool": True, "int": 5, "seat": "1.2",
            "counts": [100], "list": [100]}
    base = {arg.name: good[arg.kind] for arg in action.args if arg.required}
    for arg in action.args:
        for value in BAD[arg.kind]:
            if value is None and not arg.required:
                continue
            if arg.kind == "int" and isinstance(value, int) and not isinstance(value, bool) \
                    and value <= arg.high:
                continue
            yield dict(base, **{arg.name: value})
    yield dict(base, nonsense=1)


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("actions") / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", *players(9), "--db", db], now=at(-50))
    live = Live(db, clock=lambda: 1741032000000, seed=5)
    yield live
    live.close()


def _events(live):
    return live.store.db.execute("SELECT count(*) FROM events").fetchone()[0]


@pytest.mark.parametrize("name", console_names())
def test_a_bad_argument_is_one_sentence_and_writes_nothing(live, name):
    before = _events(live)
    tried = 0
    for args in _bad_args(ACTIONS[name]):
        with pytest.raises(ActionRefused) as err:
            live.act(name, args)
        text = str(err.value)
        assert text and "\n" not in text and "Traceback" not in text, (name, args, text)
        assert _events(live) == before, (name, args)
        tried += 1
    assert tried >= 1


def test_a_command_line_action_is_refused_at_the_console_with_its_command(live):
    with pytest.raises(ActionRefused, match="^move is done with `tdhost move`: the live host "
                                            "moves players itself"):
        live.act("move", {"name": "P1", "seat": "1.2"})


def test_an_argument_the_action_does_not_take_is_refused(live):
    with pytest.raises(ActionRefused, match=r"^pause takes no seconds$"):
        live.act("pause", {"seconds": 5})
    assert Arg("x", "int", low=1).check({}) is None


def test_an_action_written_is_done_even_when_what_follows_it_fails(tmp_path, monkeypatch):
    """No 500 after a write: the draw is in the league file, so the TD hears it happened;
    a failure before anything is written stays a failure and writes nothing."""
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", *players(9), "--db", db], now=at(-50))
    live = Live(db, clock=lambda: 1741032000000, seed=5)
    try:
        def broken(*args):
            raise OSError("the port is gone")
        monkeypatch.setattr(live, "send_seating", broken)
        res = live.act("draw", {"seed": 3})
        assert res == {"ok": True, "text": "Done: the draw is in the league file, but the host "
                                           "failed on what follows it (see its log)."}
        assert live.tournament.draw["seed"] == 3
        assert live.journal.last()["action"] == "draw"  # the TD can undo it
        before = _events(live)
        monkeypatch.setattr(live, "when", broken)  # before the decision
        with pytest.raises(OSError):
            live.act("register", {"names": ["Zed"]})
        assert _events(live) == before
    finally:
        live.close()


def test_the_console_unregisters_and_its_undo_registers_again(tmp_path):
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", *players(9), "--db", db], now=at(-50))
    live = Live(db, clock=lambda: 1741032000000, seed=5)
    try:
        res = live.act("unregister", {"name": "Bob"})
        assert res["text"] == "Bob is no longer registered (undo takes it back)."
        assert live.tournament.get("Bob") is None
        live.act("undo", {})
        assert live.tournament.get("Bob").state == "registered"
    finally:
        live.close()
    assert "unregister Bob" in run(["log", "--db", db]).output


def test_the_console_registers_with_a_member_number_and_asks_about_a_duplicate(tmp_path):
    """The console's Register says the CLI's sentences (issue #31): a member number for one
    name, another player's number refused; a name that may be a player already in is
    found by the look before it asks (Live.check) and registered only with
    allow_duplicate."""
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    live = Live(db, clock=lambda: 1741032000000, seed=5)
    try:
        res = live.act("register", {"names": ["Jon Smith"], "member_no": "M1042"})
        assert res["text"] == "Jon Smith is registered (1 of 48), member M1042."
        for args, said in (
                ({"names": ["Jon Smyth"], "member_no": "M1042"},
                 "M1042 is the member number of Jon Smith: register them by that name, or "
                 "give Jon Smyth their own number"),
                ({"names": ["Ann Lee", "Bob Hart"], "member_no": "M7"},
                 "a member number is one player's: register one name with it, not 2")):
            for path in (live.check, live.act):
                with pytest.raises(ActionRefused) as err:
                    path("register", args)
                assert str(err.value) == said
        look = live.check("register", {"names": ["Ann Lee", "Jon Smyth", "Carla Nunez"]})
        assert look == {"ok": True, "doubts": [
            {"name": "Jon Smyth", "why": "Jon Smyth may be Jon Smith, already registered "
                                         "(a close spelling)"}]}
        assert "Carla Nunez" not in live.lg.names.values()  # looked at, not kept
        assert [e.name for e in live.tournament.players.values()] == ["Jon Smith"]
        with pytest.raises(ActionRefused) as err:
            live.act("register", {"names": ["Ann Lee", "Jon Smyth"]})
        assert str(err.value) == ("Jon Smyth may be Jon Smith, already registered (a close "
                                  "spelling): the console asks whether \"Jon Smyth\" is "
                                  "another player")
        assert live.tournament.get("Ann Lee") is None  # whole or nothing
        res = live.act("register", {"names": ["Ann Lee", "Jon Smyth"],
                                    "allow_duplicate": ["Jon Smyth"]})
        assert res["text"] == ("Ann Lee is registered (2 of 48). "
                               "Jon Smyth is registered (3 of 48).")
        assert [e.name for e in live.tournament.players.values()] == [
            "Jon Smith", "Ann Lee", "Jon Smyth"]
    finally:
        live.close()
    assert "register Jon Smith (member M1042)" in run(["log", "--db", db]).output


def test_the_console_looks_before_it_asks_for_the_final_table(tmp_path):
    """The Final-table draw is asked about only when the host would draw it (issue #31):
    ten players in, LPPL's final table of 8 refuses; after two busts it is "ok" and
    nothing was written by looking."""
    db = str(tmp_path / "league.sqlite")
    run(["new", os.path.join(EXAMPLES, "lppl.toml"), "--db", db], now=at(-60))
    run(["register", *players(10), "--db", db], now=at(-50))
    run(["draw", "--seed", "4", "--db", db], now=at(-40))
    run(["start", "--db", db], now=at(0))
    live = Live(db, clock=lambda: 1741032000000, seed=5)
    try:
        with pytest.raises(ActionRefused) as err:
            live.check("final_draw", {})
        assert str(err.value) == "10 players remain; the final table forms at 8 or fewer"
        for name in players(10)[:2]:
            live.act("bust", {"names": [name]})
        seq = live.last_seq
        assert live.check("final_draw", {"seed": 3}) == {"ok": True}
        assert live.last_seq == seq and live.tournament.final is None
    finally:
        live.close()
