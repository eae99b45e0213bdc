"""tdhost.live.stranded (docs/live.md "Every seat taken"): a player the host had to seat
alone at a spare box's table -- where nobody deals, and whose box holds no table to take
them -- gets a seat among other players once one is free: their receive at the lone table
called off, a move and a receive to the free seat, a notice (chaos seeds 132, 137)."""

from liveroom import Box, Room

from tdhost.league.seats import decide_move
from tdhost.live import instruction_log as _ins, stranded as _stranded


def test_a_player_waiting_alone_at_a_spare_box_gets_a_free_seat(tmp_path):
    room = Room(tmp_path)  # 20 players at tables 1-3 (6, 7, 7 of 8 seats)
    spare = Box(room, 4, "tc-04")
    room.boxes[4] = spare
    room.run(2000)
    assert spare.link.table is None  # (a spare box holds no table)
    name = room.live.tournament.seating()[2][min(room.live.tournament.seating()[2])]

    def alone(tournament, lg, seq):  # what reseat writes when no seat was free
        payload = decide_move(tournament, name, [4, 1])
        payload.update({"at_ms": room.now, "instrs": [], "by": "host"})
        return [("move", payload, None), ("instr", _ins.seat_player(
            lg, tournament, 0, name, [4, 1], 2500, "seat %s at table 4 seat 1" % name), None)
                ], None
    assert _stranded.stranded(room.live.tournament, room.live.boxes_now()) == []
    room.live.write(alone)
    t = room.live.tournament
    (lone,) = [r for r in t.instrs.values() if r["action"] == "receive" and r["table"] == 4]
    assert _stranded.stranded(t, room.live.boxes_now()) == [name]
    room.run(_stranded.STRAND_MS + 1000)
    t = room.live.tournament
    assert _ins.state(t.instrs[lone["id"]]) == "cancelled"
    table, seat = t.get(name).seat
    assert table != 4 and len(t.seating()[table]) >= 2
    (again,) = [r for r in _ins.pending(t) if r["action"] == "receive"
                and r.get("player") == name]
    assert list(again["to"]) == [table, seat] and again["body"]["stack"] == 2500
    assert any("%s waited alone at table 4, where nobody deals; a seat is free" % name
               in x["text"] for x in room.live.snapshot()["log"])
    assert _stranded.stranded(t, room.live.boxes_now()) == []


def test_no_plan_moves_players_to_a_player_waiting_alone(tmp_path):
    """A player waits alone at the spare box's table 4 (tables 1-3 seat 6, 7, 7): the plan's
    input leaves table 4 out, on the live night and at the CLI alike -- a plan that balanced
    21 players over four tables would move players there, whose receives no box takes (the
    spare box starts no table for one player), and break a table in play for it (chaos
    seeds 328, 345)."""
    from tdhost.cli.plan import league_room
    from tdhost.live import room_plan as _plan
    from tdhost.rules import balance as _balance

    room = Room(tmp_path)
    spare = Box(room, 4, "tc-04")
    room.boxes[4] = spare
    room.run(2000)
    name = room.live.tournament.seating()[2][min(room.live.tournament.seating()[2])]

    def alone(tournament, lg, seq):
        payload = decide_move(tournament, name, [4, 1])
        payload.update({"at_ms": room.now, "instrs": [], "by": "host"})
        return [("move", payload, None), ("instr", _ins.seat_player(
            lg, tournament, 0, name, [4, 1], 2500, "seat %s at table 4 seat 1" % name), None)
                ], None
    room.live.write(alone)
    t = room.live.tournament
    assert _plan.lone_tables(t) == {4}
    plan_in = _plan.room(t, room.live.statuses(), 7)
    assert [tb["table"] for tb in plan_in["tables"]] == [1, 2, 3]
    assert [tb["table"] for tb in league_room(t)["tables"]] == [1, 2, 3]
    assert [m for m in _balance.plan(plan_in)["moves"] if m["to"]["table"] == 4] == []
    room.run(3000)  # the host's own plan after the move: nobody heads for table 4
    assert [p for p in room.pending() if p["table"] == 4 and p["player"] != name] == []
