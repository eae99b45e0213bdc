"""One truth for the live night (docs/live.md "The model"): whoever writes the league --
the console, the CLI from another connection while the host runs, undo and redo -- the
live host reacts to the new events the same way and tells the boxes what follows from them.

LPPL, 20 players at three 8-seat boxes (seed 7): tables 1, 2, 3 seat 6, 7, 7.  Table 1
plays one hand first, everyone folding to the big blind, who then has 3,025 chips."""

from hostutil import run
from liveroom import Room, allin, carry_out, fold_round

from tdhost.live import instructions as _ins


def _room(tmp_path):
    """The room after one hand at table 1: (room, the big blind's seat there, their name)."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    fold_round(b1)
    room.run(2000)
    stacks = b1.table.stacks
    big = max(stacks, key=lambda s: (stacks[s], -s))
    assert stacks[big] == 3025
    return room, big, room.live.tournament.seating()[1][big]


def _row(room, name):
    """*name*'s seat row in the snapshot's tables: (table, seat, stack), or None."""
    for table in room.live.snapshot()["tables"]:
        for seat, row in table["seats"].items():
            if row["name"] == name:
                return table["table"], int(seat), row["stack"]
    return None


def _notices(room):
    return [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]


def test_a_bust_undone_after_the_box_took_the_seat_out_seats_the_player_back(tmp_path):
    """The TD busts the big blind from the console, table 1's dealer takes the seat out
    (3,025 chips off the table), then the TD undoes the bust: the box seats them again at
    seat 3 with the 3,025 chips the undo names, and the host counts them; a redo takes the
    seat out again."""
    room, big, name = _room(tmp_path)
    b1 = room.boxes[1]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    assert [i["seat"] for i in b1.instructions("take_out")] == [big]
    carry_out(room, ("take_out",))
    room.run(2000)
    assert big not in b1.table.stacks
    res = room.live.act("undo", {})
    assert res["text"] == "Undone: %s's bust (20:00) — %s returns to table 1 seat %d with " \
        "3,025 chips." % (name, name, big)
    room.run(2000)
    back = b1.instructions("receive")
    assert [(i["seat"], i["name"], i["stack"]) for i in back] == [(big, name, 3025)]
    line = room.live.snapshot()["log"][-1]
    assert (line["who"], line["text"]) == ("host", "Seat %s at table 1 seat %d with 3,025 "
                                                   "chips" % (name, big))
    carry_out(room, ("receive",))  # the dealer seats them and confirms
    room.run(2000)
    assert b1.table.stacks[big] == 3025
    assert room.live.tournament.get(name).state == "in"
    assert _row(room, name) == (1, big, 3025)
    assert [p for p in room.pending() if p["player"] == name] == []
    room.wait(70000)  # the seat check finds box and league agreeing
    assert _notices(room) == []

    room.live.act("redo", {})
    room.run(2000)
    assert [i["seat"] for i in b1.instructions("take_out")] == [big, big]
    carry_out(room, ("take_out",))
    room.run(2000)
    assert big not in b1.table.stacks and room.live.tournament.get(name).state == "out"


def test_a_cli_bust_while_the_host_runs_takes_the_seat_out_and_calls_the_move_off(tmp_path):
    """Table 1 busts a player (5, 7, 7): the host plans a move to table 1.  The TD enters
    the mover out with `tdhost bust` on the league file while the host runs: the host
    calls the move off at the source box and has it take the seat out."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    seats = sorted(b1.table.stacks)
    allin(b1, [seats[3]], seats[4])
    room.run(2000)
    outs = [p for p in room.pending() if p["action"] == "move_out"]
    assert len(outs) == 1
    out = outs[0]
    src = room.boxes[out["table"]]
    run(["bust", out["player"], "--db", room.db, "--yes"])
    room.run(2000)
    t = room.live.tournament
    assert t.get(out["player"]).state == "out"
    line = [x for x in room.live.snapshot()["log"] if x["action"] == "bust"][-1]
    assert (line["who"], line["text"]) == ("TD", "%s (19th) out" % out["player"])
    assert _ins.state(t.instrs[out["id"]]) == "cancelled"
    assert [i["instr"] for i in src.instructions("withdraw")] == [out["id"]]
    assert [(i["seat"], i["name"]) for i in src.instructions("take_out")] == [
        (out["seat"], out["player"])]
    assert b1.instructions("receive") == []
    carry_out(room, ("take_out",))
    room.run(2000)
    assert out["seat"] not in src.table.stacks
    assert sorted(src.table.stacks) == sorted(room.live.tournament.seating()[src.number])


def test_plan_apply_while_the_host_runs_sends_the_boxes_the_moves(tmp_path):
    """Two players at table 1 go out by `tdhost bust` (4, 7, 7) and the TD records the
    balancing moves with `tdhost plan --apply` before the host polls: the host sends each
    move to both boxes (the chips the player left with), plans nothing more, and once the
    dealers carried them out boxes and league agree."""
    room = Room(tmp_path)
    seating = room.live.tournament.seating()
    gone = [seating[1][s] for s in sorted(seating[1])[:2]]
    for player in gone:
        run(["bust", player, "--db", room.db, "--yes"])
    res = run(["plan", "--apply", "--yes", "--db", room.db])
    moves = [ev.payload for ev in room.live.store.events() if ev.action == "move"]
    assert len(moves) == 2 and "Recorded 2 moves" in res.output
    room.run(2000)
    pend = room.pending()
    assert sorted((p["player"], p["table"], p["seat"], p["to_table"], p["to_seat"])
                  for p in pend if p["action"] == "move_out") == sorted(
        (m["name"], m["from"][0], m["from"][1], m["seat"][0], m["seat"][1]) for m in moves)
    assert [p for p in pend if p["action"] == "move_out" and p["why"] is None] == []
    assert sorted((p["table"], p["seat"]) for p in pend if p["action"] == "take_out") == [
        (1, s) for s in sorted(seating[1])[:2]]
    for _ in range(2):
        carry_out(room, ("take_out", "move_out", "receive"))
        room.run(2000)
    for m in moves:
        dest = room.boxes[m["seat"][0]]
        assert dest.table.stacks[m["seat"][1]] == 3000
        assert m["from"][1] not in room.boxes[m["from"][0]].table.stacks
    for tb, b in room.boxes.items():
        assert sorted(b.table.stacks) == sorted(room.live.tournament.seating()[tb]), tb
    assert [p for p in room.pending() if p["action"] in ("move_out", "receive")] == []
    assert _notices(room) == []


def test_a_move_recorded_by_hand_gives_the_destination_box_the_players_name(tmp_path):
    """After table 1's first hand the TD records `tdhost move` of a table 2 player to table
    1's free seat while the host runs.  Once both dealers carried it out, table 1's box
    names the mover at that seat: the league had the move already, so no ``move`` is
    written whose effects would send the names (the chaos drill's seed 1: the box showed
    the seat's chips with no name)."""
    room, _, _ = _room(tmp_path)
    seating = room.live.tournament.seating()
    free = min(s for s in range(1, 9) if s not in seating[1])
    name = seating[2][min(seating[2])]
    run(["move", name, "1.%d" % free, "--db", room.db, "--yes"])
    room.run(2000)
    for _ in range(2):
        carry_out(room, ("move_out", "receive"))
        room.run(2000)
    b1 = room.boxes[1]
    assert b1.table.stacks[free] == 3000
    assert b1.link.names[str(free)] == name
    assert [p for p in room.pending() if p["player"] == name] == []
