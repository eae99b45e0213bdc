"""`tdhost plan`: concrete rooms from the rule texts, bad input, the JSON contract.

Rule sentences (docs/balancing.md quotes them in full):
LPPL ¶45 "If a player is to be moved from a table it is to be the player who would next
have to post the Big Blind. If more than one player is to be moved from the same table
they will do so in a clockwise direction starting with the Big Blind and if moving to the
same new table they will take up their new positions in the same order as moving. New
players joining a table join from the Big Blind position or the next available seat to
the left of the Big Blind".
"""

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from tableclock.button import must_wait, next_positions
from tdhost.cli.app import cli
from tdhost.rules import balance, seat_order

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def table(num, seats, button, sb, bb, prefix=None):
    prefix = prefix or "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[num - 1]
    return {"table": num, "seats": {str(s): "%s%d" % (prefix, s) for s in seats},
            "button": button, "sb": sb, "bb": bb}


def room(profile, n, *tables, seed=1):
    return {"profile": profile, "seats_per_table": n, "seed": seed, "tables": list(tables)}


def move(player, frm, to):
    return {"player": player, "from": {"table": frm[0], "seat": frm[1]},
            "to": {"table": to[0], "seat": to[1]}}


# ---------------------------------------------------------------- examples from the rules

def test_lppl_two_movers_clockwise_from_the_bb_arrive_in_moving_order():
    # Table 1 is full (8); table 2 has 4 after its BB (seat 4) busted.  12 players on 2
    # tables: 6 and 6, so table 1 gives two players: A4, due the BB next, then A5.
    # At table 2 the next BB would go to B6 (seat 6); empty seat 5 lies before it, so A4
    # takes seat 5 ("the Big Blind position") and A5 the next free seat to the left of
    # the BB, seat 7.
    r = room("lppl", 8, table(1, range(1, 9), 1, 2, 3), table(2, [2, 3, 6, 8], 2, 3, 4))
    out = balance.plan(r)
    assert out == {"moves": [move("A4", (1, 4), (2, 5)), move("A5", (1, 5), (2, 7))],
                   "broken": [], "final_table": False}
    # by the boxes' own dead-button rule, A4 posts the next BB at table 2, A5 the one after
    players = {2, 3, 5, 6, 7, 8}
    _, sb, bb = next_positions(4, 3, players, 8)
    assert bb == 5
    _, _, bb = next_positions(bb, sb, players, 8)
    assert bb == 6  # B6 was already due before A5
    _, _, bb = next_positions(6, 5, players, 8)
    assert bb == 7


def test_lppl_next_available_seat_left_of_the_bb():
    # Table 2 seats 1-4, last BB seat 3: the next BB is B4, so the arrivals sit at 5, 6.
    # Table 1's last BB was seat 8: the movers are A1 (due the BB next), then A2.
    r = room("lppl", 8, table(1, range(1, 9), 6, 7, 8), table(2, [1, 2, 3, 4], 1, 2, 3))
    assert balance.plan(r)["moves"] == [move("A1", (1, 1), (2, 5)), move("A2", (1, 2), (2, 6))]


def test_lppl_bb_still_seated_moves_last():
    # Three movers from a 9-player table whose BB player (seat 2) is still there: 3, 4, 5.
    r = room("lppl", 10, table(1, range(1, 10), 9, 1, 2), table(2, [1, 2, 3], 1, 2, 3))
    out = balance.plan(r)
    assert [m["from"]["seat"] for m in out["moves"]] == [3, 4, 5]
    assert [m["to"]["seat"] for m in out["moves"]] == [4, 5, 6]


def test_arrival_never_in_the_small_blind_or_between_sb_and_button():
    # Table 2: players at 1, 2, 5, 7; last hand button 3 (now empty), SB 4 (busted), BB 5.
    # Next hand by the dead-button rule: the button on 4 (the last SB position), the SB
    # position on 5 (the last BB seat), the BB on 7.  Free seats from the worst: 6 (before
    # the next BB: it takes that BB), 8, 3; seat 4, the next button, comes last.
    r = room("lppl", 8, table(1, range(1, 9), 1, 2, 3), table(2, [1, 2, 5, 7], 3, 4, 5))
    t2 = balance.parse_room(r)["tables"][1]
    assert seat_order.late_zone(t2, 8) == [4, 5]
    assert seat_order.bb_soonest_seats(t2, 8) == [6, 8, 3, 4]
    assert [m["to"]["seat"] for m in balance.plan(r)["moves"]] == [6, 8]


def test_dead_small_blind_reported_null_avoids_the_whole_arc():
    # sb null: the dead SB position lay somewhere between the button (1) and the BB (4),
    # so seats 2 and 3 are avoided as well as 4; the free seats after the BB come first.
    r = room("lppl", 6, table(1, range(1, 6), 1, 2, 3), table(2, [1, 5], 1, None, 4))
    t2 = balance.parse_room(r)["tables"][1]
    assert seat_order.late_zone(t2, 6) == [2, 3, 4]
    assert seat_order.bb_soonest_seats(t2, 6) == [6, 2, 3, 4]
    assert balance.plan(r)["moves"] == [move("A4", (1, 4), (2, 6))]


def test_us_free_single_mover_keeps_the_position_due_the_bb_next():
    # US 2: "placed on the new table, as close to their prior table position as
    # possible": the mover was due the BB next and is due the BB next at the new table
    # (seat 8 lies between the last BB, 7, and the next player, seat 1).
    r = room("us_free", 9, table(1, range(1, 10), 3, 4, 5), table(2, range(1, 8), 5, 6, 7))
    assert balance.plan(r) == {"moves": [move("A6", (1, 6), (2, 8))], "broken": [],
                               "final_table": False}


def test_lppl_breaks_the_highest_table_when_the_players_fit_one_table_fewer():
    r = room("lppl", 8, table(1, range(1, 8), 1, 2, 3), table(2, range(2, 9), 2, 3, 4),
             table(3, [2, 5], 5, 1, 2))
    out = balance.plan(r)
    assert out["broken"] == [3] and not out["final_table"]
    assert sorted(m["player"] for m in out["moves"]) == ["C2", "C5"]
    assert sorted(m["to"]["table"] for m in out["moves"]) == [1, 2]
    # C5 is due the BB next at table 3 (last BB seat 2), so C5 moves first
    assert [m["player"] for m in out["moves"]] == ["C5", "C2"]


@pytest.mark.parametrize("profile", ["lppl", "us_free"])
def test_breaks_the_table_that_costs_the_fewest_moves(profile):
    # 16 players on three 8-seat tables (3, 7, 6) fit two.  Breaking table 3 (the highest
    # number) costs 6 moves (its 6 players, and table 1 takes 5 of them and table 2 one);
    # breaking table 1 costs 3: its 3 players fill tables 2 and 3 to 8 each.
    r = room(profile, 8, table(1, [1, 4, 6], 1, 4, 6), table(2, range(1, 8), 1, 2, 3),
             table(3, range(1, 7), 1, 2, 3))
    out = balance.plan(r)
    assert out["broken"] == [1] and len(out["moves"]) == 3
    # the movers go in moving order from table 1's next BB (last BB seat 6: A1, A4, A6)
    assert [m["player"] for m in out["moves"]] == ["A1", "A4", "A6"]
    # wph keeps the TDA's preset random order (RP-19): the seed decides, not the cost
    wph = {balance.plan(dict(r, profile="wph", seed=seed))["broken"][0] for seed in range(20)}
    assert wph == {1, 2, 3}


def test_equal_cost_breaks_the_announced_order_then_spares_players_moved_tonight():
    # 15 players on three 8-seat tables (7, 4, 4) fit two: breaking table 2 or table 3
    # costs 4 moves either way.  The announced order (highest number first) breaks 3,
    # unless a player at table 3 has already moved tables tonight and nobody at table 2
    # has.
    r = room("lppl", 8, table(1, range(1, 8), 1, 2, 3), table(2, [1, 3, 5, 7], 1, 3, 5),
             table(3, [2, 4, 6, 8], 2, 4, 6))
    assert balance.plan(r)["broken"] == [3]
    assert balance.plan(dict(r, moved=["C4"]))["broken"] == [2]
    assert balance.plan(dict(r, moved=["C4", "B1"]))["broken"] == [3]
    assert len(balance.plan(dict(r, moved=["C4"]))["moves"]) == 4


def test_equal_givers_spare_a_player_moved_tonight():
    # 23 players on three 8-seat tables (8, 8, 7): within one already, nothing moves.
    # After a bust at table 3 (8, 8, 6) one of the full tables gives one player: table 2
    # (of the two, it breaks sooner in the announced order) unless its next BB, B4 (last
    # BB seat 3), has moved tables tonight; then table 1 gives its next BB, A4.
    r = room("lppl", 8, table(1, range(1, 9), 1, 2, 3), table(2, range(1, 9), 1, 2, 3),
             table(3, range(1, 7), 1, 2, 3))
    assert [m["player"] for m in balance.plan(r)["moves"]] == ["B4"]
    assert [m["player"] for m in balance.plan(dict(r, moved=["B4"]))["moves"]] == ["A4"]
    assert [m["player"] for m in balance.plan(dict(r, moved=["B5"]))["moves"]] == ["B4"]


def test_moved_must_be_a_list_of_names():
    r = room("lppl", 8, table(1, range(1, 9), 1, 2, 3), table(2, range(1, 7), 1, 2, 3))
    with pytest.raises(balance.PlanError, match="moved must be a list"):
        balance.plan(dict(r, moved="A4"))


@pytest.mark.parametrize("profile", ["lppl", "us_free", "wph"])
def test_a_table_its_box_has_broken_breaks_first(profile):
    # 16 players on three 8-seat tables (3, 7, 6) fit two: the cheapest break is table 1
    # (test_breaks_the_table_that_costs_the_fewest_moves), but table 3's box has broken its
    # table already (the dealer confirmed a break the host then called off; no instruction
    # opens a table again): table 3 breaks, its 6 players go to tables 1 and 2, none to 3.
    r = room(profile, 8, table(1, [1, 4, 6], 1, 4, 6), table(2, range(1, 8), 1, 2, 3),
             table(3, range(1, 7), 1, 2, 3), seed=5)
    out = balance.plan(dict(r, closed=[3]))
    assert out["broken"] == [3] and not out["final_table"]
    assert sorted(m["player"] for m in out["moves"]) == ["C%d" % s for s in range(1, 7)]
    assert {m["to"]["table"] for m in out["moves"]} <= {1, 2}
    # 8 players make the final table: never at the broken one
    small = room(profile, 10, table(1, [1, 4, 6], 1, 4, 6), table(2, range(1, 4), 1, 2, 3),
                 table(3, range(1, 3), 1, None, 2), seed=5)
    for closed in ([1], [2], [3]):
        final = balance.plan(dict(small, closed=closed))
        assert final["final_table"] and final["moves"][0]["to"]["table"] not in closed
    # a broken table the players still need stays (they would not fit at the others)
    full = room(profile, 8, table(1, range(1, 9), 1, 2, 3), table(2, range(1, 9), 1, 2, 3),
                table(3, range(1, 7), 1, 2, 3))
    assert balance.plan(dict(full, closed=[3]))["broken"] == []
    with pytest.raises(balance.PlanError, match="closed must be a list"):
        balance.plan(dict(r, closed="3"))


def test_lppl_does_not_break_while_players_do_not_fit():
    r = room("lppl", 8, table(1, range(1, 9), 1, 2, 3), table(2, range(1, 9), 1, 2, 3),
             table(3, [1], 5, 6, 7))
    out = balance.plan(r)  # 17 players need 3 tables: 6, 6, 5
    assert out["broken"] == [] and len(out["moves"]) == 4


def test_wph_within_two_early_lppl_within_one():
    tables = [table(i, range(1, 11), 1, 2, 3) for i in range(1, 5)]
    tables.append(table(5, range(1, 9), 1, 2, 3))
    assert balance.plan(room("wph", 10, *tables))["moves"] == []
    assert len(balance.plan(room("lppl", 10, *tables))["moves"]) == 1
    # with three tables left WPH balances within one
    three = [table(1, range(1, 11), 1, 2, 3), table(2, range(1, 11), 1, 2, 3),
             table(3, range(1, 9), 1, 2, 3)]
    assert len(balance.plan(room("wph", 10, *three))["moves"]) == 1


def test_wph_combines_at_ten_with_a_fresh_draw():
    # "Tables will combine at 10 players."
    r = room("wph", 10, table(1, range(1, 7), 1, 2, 3), table(2, [2, 4, 6, 8], 2, 4, 6),
             seed="wph-2024-05")
    out = balance.plan(r)
    assert out["final_table"] is True
    assert len(out["moves"]) == 10
    final = {m["to"]["table"] for m in out["moves"]}
    assert len(final) == 1 and out["broken"] == [t for t in (1, 2) if t not in final]
    assert sorted(m["to"]["seat"] for m in out["moves"]) == list(range(1, 11))
    assert balance.plan(r) == out  # seeded: the same draw every time
    r["seed"] = "another"
    assert balance.plan(r) != out
    # eleven players stay on two tables (6 and 5 are balanced)
    r["tables"][1]["seats"]["9"] = "B9"
    assert balance.plan(r) == {"moves": [], "broken": [], "final_table": False}


def test_wph_broken_table_players_are_drawn_outside_the_sb_and_button():
    # 17 players on three 10-seat tables fit two: one table breaks (random order, RP-19)
    # and its players are drawn into the open seats.  At tables 1 and 2 the next hand has
    # its button on 9 and its SB position on 10: nobody is drawn into seat 10 (WPH
    # "Players added to a table at the small blind position must wait"; TDA 7).
    t1 = table(1, [1, 2, 3, 4, 5, 6, 7], 8, 9, 10)
    t2 = table(2, [1, 2, 3, 4, 5, 6, 7], 8, 9, 10)
    t3 = table(3, [1, 2, 3], 1, 2, 3)
    broken, drawn = set(), set()
    for seed in range(40):
        out = balance.plan(room("wph", 10, t1, t2, t3, seed=seed))
        assert not out["final_table"] and len(out["broken"]) == 1
        broken.add(out["broken"][0])
        for m in out["moves"]:
            to = m["to"]
            tb = {1: t1, 2: t2, 3: t3}[to["table"]]
            assert not must_wait(to["seat"], tb["sb"], tb["bb"], "sb_between", 10), m
            if to["table"] != 3:
                assert to["seat"] in (8, 9)
            drawn.add((to["table"], to["seat"]))
    assert broken == {1, 2, 3}  # the seed decides which table breaks
    assert len(drawn) > 8  # and the seats are drawn, not fixed


def test_empty_table_closes_without_moves():
    r = room("lppl", 8, table(1, range(1, 7), 1, 2, 3), table(2, [], 1, 2, 3))
    assert balance.plan(r) == {"moves": [], "broken": [2], "final_table": False}


# -------------------------------------------------------------------------------- CLI

def run_cli(tmp_path, data, *args):
    path = tmp_path / "room.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return CliRunner().invoke(cli, ["plan", str(path), *args])


def test_cli_prints_the_plan_json(tmp_path):
    r = room("lppl", 8, table(1, range(1, 9), 1, 2, 3), table(2, [2, 3, 6, 8], 2, 3, 4))
    res = run_cli(tmp_path, r)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out) == {"moves", "broken", "final_table"}
    assert isinstance(out["final_table"], bool) and isinstance(out["broken"], list)
    for m in out["moves"]:
        assert set(m) == {"player", "from", "to"}
        for end in (m["from"], m["to"]):
            assert set(end) == {"table", "seat"}
            assert all(isinstance(v, int) for v in end.values())
    assert out == balance.plan(r)
    compact = run_cli(tmp_path, r, "--compact")
    assert compact.stdout.count("\n") == 1 and json.loads(compact.stdout) == out


def test_cli_reads_stdin():
    r = room("us_free", 9, table(1, range(1, 10), 3, 4, 5), table(2, range(1, 8), 5, 6, 7))
    res = CliRunner().invoke(cli, ["plan", "-"], input=json.dumps(r))
    assert res.exit_code == 0 and json.loads(res.stdout)["moves"][0]["player"] == "A6"


GOOD = room("lppl", 8, table(1, [1, 2, 3], 1, 2, 3), table(2, [1, 2, 3], 1, 2, 3))


def bad(**changes):
    r = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key.startswith("t2_"):
            if value is KeyError:
                del r["tables"][1][key[3:]]
            else:
                r["tables"][1][key[3:]] = value
        elif value is KeyError:
            del r[key]
        else:
            r[key] = value
    return r


@pytest.mark.parametrize("data, words", [
    (bad(seats_per_table=KeyError), "the room is missing 'seats_per_table'."),
    (bad(seed=KeyError, tables=KeyError), "the room is missing 'seed', 'tables'."),
    (bad(t2_bb=KeyError), "table 2 is missing 'bb'."),
    (bad(profile="tda"), "unknown profile 'tda' (use one of: lppl, us_free, wph)."),
    (bad(profile=None), "unknown profile None"),
    (bad(t2_seats={"9": "X"}), "table 2: a key of seats is seat 9, outside 1..8."),
    (bad(t2_seats={"0": "X"}), "outside 1..8"),
    (bad(t2_seats={"one": "X"}), "table 2: a key of seats must be a seat number, not 'one'."),
    (bad(t2_bb=12), "table 2: bb is seat 12, outside 1..8."),
    (bad(t2_button=True), "table 2: button must be a seat number, not True."),
    (bad(t2_seats={"5": "A1"}), "player 'A1' is seated twice: table 1 seat 1 and table 2 seat 5."),
    (bad(t2_seats={"5": ""}), "table 2 seat 5: the player must be a non-empty string"),
    (bad(t2_seats={"1": "Q", "01": "R"}), "table 2: seat 1 is given twice."),
    (bad(t2_sb=3), "table 2: the sb and bb are both seat 3."),
    (bad(t2_bb=1), "table 2: the bb seat 1 is also the button."),
    (bad(t2_sb=5), "table 2: the sb seat 5 is not between the button (seat 1) and the bb"),
    (bad(seats_per_table=11), "seats_per_table must be a whole number from 2 to 10, not 11."),
    (bad(seed=1.5), "seed must be a whole number or a string, not 1.5."),
    (bad(tables=[]), "tables must be a non-empty list of tables."),
    (bad(t2_table=1), "table 1 is listed twice."),
    (bad(t2_extra=1), "table 2 has unknown key 'extra'"),
    (bad(hands=3), "the room has unknown key 'hands'"),
    (bad(tables=[{"table": 1, "seats": {}, "button": 1, "sb": 2, "bb": 3}]),
     "the room has no players: nothing to balance."),
    ([1, 2], "the plan input must be a JSON object"),
    ("{\"profile\": ", "room.json is not valid JSON: Expecting value at line 1 column 13."),
    ("{\"seed\": 1, \"seed\": 2}", "room.json: the key 'seed' appears twice in one object."),
])
def test_cli_bad_input_exits_2_with_a_sentence(tmp_path, data, words):
    res = run_cli(tmp_path, data)
    assert res.exit_code == 2, res.output
    assert res.stdout == ""
    assert res.stderr.startswith("tdhost plan: ")
    assert words in res.stderr, res.stderr
    assert res.stderr.rstrip().endswith(".") and res.stderr.count("\n") == 1


def test_cli_missing_file_exits_2(tmp_path):
    res = CliRunner().invoke(cli, ["plan", str(tmp_path / "nope.json")])
    assert res.exit_code == 2 and "nope.json" in res.stderr


def test_cli_not_utf8_exits_2(tmp_path):
    path = tmp_path / "room.json"
    path.write_bytes(b"\xff\xfe{}")
    res = CliRunner().invoke(cli, ["plan", str(path)])
    assert res.exit_code == 2 and "is not UTF-8 text." in res.stderr


def test_python_dash_m_tdhost(tmp_path):
    path = tmp_path / "room.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host_tools"))
    proc = subprocess.run([sys.executable, "-m", "tdhost", "plan", str(path)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == balance.plan(GOOD)
    proc = subprocess.run([sys.executable, "-m", "tdhost", "plan", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2


def test_tdhost_command_in_the_venv(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "tdhost")
    if not os.path.exists(exe):
        pytest.skip("no tdhost command next to %s (run `make setup`)" % sys.executable)
    path = tmp_path / "room.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    proc = subprocess.run([exe, "plan", str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == balance.plan(GOOD)
