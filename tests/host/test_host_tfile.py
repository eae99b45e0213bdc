"""The tournament file: the examples load, and every error names file:line and the key."""

import os

import pytest
from hostutil import EXAMPLES

from tdhost import tournamentfile
from tdhost.rules import points

GOOD = """\
[league]
name = "Test league"

[tournament]
name = "Night"
profile = "lppl"
seats_per_table = 8

[[levels]]
sb = 25
bb = 50
minutes = 20

[[levels]]
break = 10

[[levels]]
sb = 50
bb = 100
minutes = 20
"""


def err(text):
    with pytest.raises(tournamentfile.FileError) as e:
        tournamentfile.parse(text, "night.toml")
    return str(e.value)


def test_examples_load_with_the_profile_rules():
    lppl = tournamentfile.load(os.path.join(EXAMPLES, "lppl.toml"))[0]
    assert (lppl["max_players"], lppl["standby"], lppl["starting_stack"]) == (48, 8, 3000)
    assert lppl["late"]["until_level"] == 3 and lppl["late"]["min_players"] == 17
    assert lppl["late"]["deductions"] == [500, 1000]
    assert [c["after_level"] for c in lppl["colour_ups"]] == [5, 10]  # from the profile
    deep = tournamentfile.load(os.path.join(EXAMPLES, "lppl_deepstack.toml"))[0]
    assert deep["starting_stack"] == 5000 and deep["late"]["deductions"] == [750, 1500]
    us = tournamentfile.load(os.path.join(EXAMPLES, "us_free.toml"))[0]
    assert us["late"]["until_level"] == 4 and us["late"]["min_players"] is None
    assert us["points"]["formula"] == "table"
    wph = tournamentfile.load(os.path.join(EXAMPLES, "wph.toml"))[0]
    assert wph["late"]["until_level"] == 5 and wph["seats_per_table"] == 10


def test_defaults_from_the_profile():
    s = tournamentfile.parse(GOOD)
    assert s["starting_stack"] == 3000 and s["max_players"] == 48
    assert s["points"] == {"formula": "sqrt", "places": None, "participation": 0,
                           "decimals": 2}


def test_errors_name_the_line_and_key():
    assert err(GOOD.replace('profile = "lppl"', 'profile = "vegas"')) == (
        "night.toml:6: tournament.profile: unknown profile 'vegas' (use one of: lppl, "
        "us_free, wph).")
    assert err(GOOD.replace('profile = "lppl"\n', "")) == (
        "night.toml:4: tournament: the key 'profile' is missing.")
    assert err(GOOD.replace("sb = 50", "sb = 500")) == (
        "night.toml:18: levels[2].sb: the small blind 500 is bigger than the big blind 100.")
    assert err(GOOD.replace("sb = 50", 'sb = "x"')) == (
        "night.toml:18: levels[2].sb: must be a whole number of chips from 1 to 1000000000, "
        "not 'x'.")
    assert err(GOOD.replace("break = 10", "break = 10\nsb = 5")) == (
        "night.toml:14: levels[1]: a break has only `break = minutes`.")
    assert err(GOOD.replace("seats_per_table = 8", "seats_per_table = 8\nseats = 9")) == (
        "night.toml:8: tournament.seats: unknown key (expected one of name, date, profile, "
        "seats_per_table, max_players, standby, starting_stack, deepstack).")
    assert err(GOOD.replace("seats_per_table = 8", "seats_per_table = 8\nmax_players = 60")) \
        == "night.toml:8: tournament.max_players: must be a whole number from 2 to 48, not 60."
    assert err(GOOD + "[late_entry]\ndeductions = [2000, 1000]\n") == (
        "night.toml:22: late_entry.deductions: the first 2 deductions (3000) leave no chips "
        "of the starting stack 3000.")
    assert err(GOOD + "[[colour_ups]]\nafter_level = 7\n") == (
        "night.toml:22: colour_ups[0].after_level: there is no level 7 (levels 1 to 2).")
    assert err(GOOD + '[points]\nformula = "n / (p - 1)"\n').startswith(
        "night.toml:22: points.formula: 'n / (p - 1)' fails for place 1 of 2")
    assert err(GOOD + '[points]\nformula = "__import__(1)"\n').startswith(
        "night.toml:22: points.formula: '__import__(1)' may only use numbers")
    assert err(GOOD.replace("[[levels]]\nbreak", "[[levels]]\nbreak = \nx")) == (
        "night.toml:15: not valid TOML: Invalid value (column 9).")
    assert err(GOOD.replace('seats_per_table = 8', 'seats_per_table = 11')) == (
        "night.toml:7: tournament.seats_per_table: must be a whole number from 2 to 10, "
        "not 11.")


def test_us_needs_a_starting_stack():
    text = GOOD.replace('"lppl"', '"us_free"')
    assert err(text) == ("night.toml:4: tournament: the key 'starting_stack' is missing "
                         "(profile us_free has no default).")


def test_points_formulas():
    cfg = {"formula": "sqrt", "places": None, "participation": 0, "decimals": 2}
    assert points.points(cfg, 1, 1, 16) == 40.0
    assert points.points(cfg, 4, 4, 16) == 20.0
    lin = dict(cfg, formula="linear", participation=1)
    assert points.points(lin, 1, 1, 10) == 11 and points.points(lin, 10, 10, 10) == 2
    table = dict(cfg, formula="table", places=[10, 6, 3])
    assert points.points(table, 2, 3, 10) == 4.5  # a tie for 2nd and 3rd shares 6 and 3
    assert points.points(table, 5, 5, 10) == 0
    expr = dict(cfg, formula="max(0, 10 - 2 * (p - 1)) + n // 10")
    assert points.points(expr, 1, 1, 20) == 12
