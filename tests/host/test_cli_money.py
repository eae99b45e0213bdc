"""Money at the command line (issue #31; docs/host.md §11): `tdhost rebuy`, `addon`,
`knockout` and `payouts` decide as the console does (tdhost.league.money_decisions.decide_money) and
say its sentences; `tdhost undo` takes one back; the live night served afterwards counts them.

The home game is docs/examples/home_money.toml: £20 buy-in with a £2 fee, one £20 re-buy a
player until level 4, a £10 add-on in level 4, £5 progressive bounties; 20-minute levels
from 20:00 (level 4 from 21:00).
"""

import os

import pytest
from hostutil import EXAMPLES, T0, at, players, run

from tdhost.league.refusal import ActionRefused
from tdhost.live.night import Live

T0_MS = int(T0.timestamp() * 1000)


def refused(res, sentence):
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and sentence in res.stderr, res.stderr


def night(tmp_path, example="home_money"):
    db = str(tmp_path / "night.sqlite")
    run(["new", os.path.join(EXAMPLES, example + ".toml"), "--db", db], now=at(-60))
    run(["register", *players(10)], db=db, now=at(-50))
    run(["draw", "--seed", "2"], db=db, now=at(-40))
    run(["start"], db=db, now=at(0))
    return db


def test_money_at_the_command_line_says_the_console_s_sentences(tmp_path):
    db = night(tmp_path)
    assert run(["rebuy", "Ann"], db=db, now=at(10)).output == (
        "Re-buy Ann: £20 for 10000 chips.\n")
    refused(run(["rebuy", "Ann"], db=db, now=at(11), expect=2),
            "Ann has had the re-buys allowed (1 a player)")
    refused(run(["addon", "Bob"], db=db, now=at(12), expect=2),
            "add-ons are taken in level 4 and the break after it; this is level 1")
    assert run(["addon", "Bob"], db=db, now=at(61)).output == (
        "Add-on Bob: £10 for 15000 chips.\n")
    refused(run(["knockout", "Cat", "--by", "Dan"], db=db, now=at(62), expect=2),
            "Cat is not out of the tournament: enter the bust first")
    run(["bust", "Cat", "--yes"], db=db, now=at(63))
    assert run(["knockout", "Cat", "--by", "Dan"], db=db, now=at(64)).output == (
        "Bounty: Dan knocked out Cat.\n")
    refused(run(["payouts", "50", "30"], db=db, now=at(65), expect=2),
            "the percentages add up to 80, not 100")
    assert run(["payouts", "60", "40"], db=db, now=at(65)).output == (
        "Payouts set to 60, 40%.\n")
    run(["undo"], db=db, now=at(66))  # the payouts
    # the live night served on the file counts what the CLI recorded
    live = Live(db, clock=lambda: T0_MS + 67 * 60000)
    try:
        money = live.snapshot()["money"]
        assert (money["rebuys"], money["addons"], money["edited"]) == (1, 1, False)
        assert money["bounty"]["knockouts"] == 1
        # the console refuses what the CLI did already, in the same words
        with pytest.raises(ActionRefused, match="^Bob has taken the add-on already$"):
            live.act("addon", {"name": "Bob"})
    finally:
        live.close()


def test_a_free_tournament_takes_no_money_at_the_command_line(tmp_path):
    db = night(tmp_path, "lppl")
    refused(run(["rebuy", "Ann"], db=db, now=at(10), expect=2),
            "Monday night at the Red Lion is a free tournament: no money is taken or paid")
