"""One truth for the live night (docs/live.md "The model"): whoever writes the league --
the console, the CLI from another connection while the host runs, undo and redo -- the
live host reacts to the new events the same way and tells the boxes what follows from them.

LPPL, 20 players at three 8-seat boxes (seed 7): tables 1, 2, 3 seat 6, 7, 7.  Table 1
plays one hand first, everyone folding to the big blind, who then has 3,025 chips."""

from hostutil import run
from liveroom import (
    Room,
    after_one_hand,
    allin,
    carry_out,
    late_arrival,
    moved_by_hand,
    td_bust_first,
)

from tcbox.instructions import at_table
from tdhost.live import instruction_log as _ins, reactions as _reactions


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
    room, big, name = after_one_hand(tmp_path)
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


def test_a_bust_undone_twice_seats_the_player_once_when_the_first_return_comes_late(
        tmp_path):
    """The TD busts the big blind, the box takes the seat out (3,025 chips), the TD undoes
    the bust (a receive to seat them back), busts and undoes again before the box has
    heard anything (the first receive called off, a second one sent).  The box then seats
    them by the first receive anyway: they sit where the league seats them, so the second
    receive is called off -- not refused as "seat taken" and the player seated at a second
    table with the same chips (the chaos drill's seed 27)."""
    room, big, name = after_one_hand(tmp_path)
    b1 = room.boxes[1]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    carry_out(room, ("take_out",))
    room.run(2000)
    room.live.act("undo", {})
    room.run(2000)
    first = [i for i in b1.instructions("receive") if i["name"] == name][0]
    del room.boxes[1]  # the box is not heard for a while ...
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    room.live.act("undo", {})
    room.run(2000)
    b1.do("sit", seat=first["seat"], stack=first["stack"])  # ... its dealer seats them
    b1.done(first["id"])
    room.boxes[1] = b1
    room.run(3000)
    carry_out(room, ("receive",))
    room.run(3000)
    assert b1.table.stacks[big] == 3025 and b1.link.names[str(big)] == name
    held = [(tb, s) for tb, b in room.boxes.items() for s in b.table.stacks
            if b.link.names.get(str(s)) == name or s not in room.live.tournament.seating()[tb]]
    assert held == [(1, big)]
    assert [p for p in room.pending() if p["player"] == name] == []
    assert _notices(room) == []


def test_a_bust_undone_then_entered_again_while_the_box_seats_them_takes_them_out(
        tmp_path):
    """The TD busts the big blind, the box takes the seat out (3,025 chips), the TD undoes
    the bust (a receive to seat them back) and busts them again before the box has heard
    anything (the receive called off).  The box then seats them by that receive anyway:
    the league has them out, so the host has the seat taken out again -- the take_out of
    the first bust, carried out before they sat down, takes nobody out now -- and the
    3,025 chips leave play once (the chaos drill's seed 48: the player stayed at the box
    with their chips, then at a broken table)."""
    room, big, name = after_one_hand(tmp_path)
    b1 = room.boxes[1]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    carry_out(room, ("take_out",))
    room.run(2000)
    room.live.act("undo", {})
    room.run(2000)
    back = [i for i in b1.instructions("receive") if i["name"] == name][0]
    del room.boxes[1]  # the box is not heard for a while ...
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    b1.do("sit", seat=back["seat"], stack=back["stack"])  # ... its dealer seats them
    b1.done(back["id"])
    room.boxes[1] = b1
    room.run(3000)
    takes = [(i["seat"], i["name"]) for i in b1.instructions("take_out")]
    assert takes == [(big, name), (big, name)]
    carry_out(room, ("take_out",))
    room.run(3000)
    assert big not in b1.table.stacks
    assert room.live.tournament.get(name).state == "out"
    assert sorted(b1.table.stacks) == sorted(room.live.tournament.seating()[1])
    t = room.live.tournament
    again = [r for r in t.instrs.values() if r["action"] == "take_out"][-1]
    assert (_ins.state(again), _ins.results(again, "box")[-2:]) == ("done",
                                                                   ["done", "reported"])
    assert [p for p in room.pending() if p["player"] == name] == []


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
    assert (line["who"], line["text"]) == ("TD at the command line",
                                           "%s (19th) out" % out["player"])
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
    room, _, _ = after_one_hand(tmp_path)
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


def test_a_move_by_hand_undone_after_the_player_left_brings_them_back(tmp_path):
    """The TD records `tdhost move` of a table 2 player to table 1's free seat; table 2's
    dealer carries out the move_out (the player leaves with 3,000 chips), then the TD
    undoes the move with `tdhost undo`: the league seats them back at table 2, so the
    boxes do too -- table 1's box seats them and gets a move_out after it, table 2's box
    seats them back with the chips they brought -- and both boxes agree with the league
    (the chaos drill's seed 17: table 1's box kept the player, unnamed)."""
    room, _, _ = after_one_hand(tmp_path)
    seating = room.live.tournament.seating()
    free = min(s for s in range(1, 9) if s not in seating[1])
    old = min(seating[2])
    name = seating[2][old]
    run(["move", name, "1.%d" % free, "--db", room.db, "--yes"])
    room.run(2000)
    carry_out(room, ("move_out",))
    room.run(2000)
    run(["undo", "--db", room.db, "--yes"])
    room.run(2000)
    for actions in (("receive",), ("move_out",), ("receive",)):  # in the order they came
        carry_out(room, actions)
        room.run(2000)
    b1, b2 = room.boxes[1], room.boxes[2]
    assert free not in b1.table.stacks
    assert b2.table.stacks[old] == 3000 and b2.link.names[str(old)] == name
    seating = room.live.tournament.seating()
    assert sorted(b1.table.stacks) == sorted(seating[1])
    assert sorted(b2.table.stacks) == sorted(seating[2]) and seating[2][old] == name
    assert [p for p in room.pending() if p["player"] == name] == []


def test_a_bust_undone_while_walking_on_a_move_by_hand_seats_them_once(tmp_path):
    """The TD records `tdhost move` of a table 2 player to table 1's free seat; the player
    leaves table 2 with 3,000 chips, the TD busts them (the receive called off) and undoes
    the bust: they sit down once, with those 3,000 chips, at a seat the league gives them,
    and the plan sees them at one seat (the chaos drill's seed 39: "player seated twice",
    their chips nowhere)."""
    room, _, _ = after_one_hand(tmp_path)
    seating = room.live.tournament.seating()
    free = min(s for s in range(1, 9) if s not in seating[1])
    name = seating[2][min(seating[2])]
    run(["move", name, "1.%d" % free, "--db", room.db, "--yes"])
    room.run(2000)
    carry_out(room, ("move_out",))
    room.run(2000)
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    room.live.act("undo", {})
    room.run(2000)
    carry_out(room, ("receive",))
    room.run(3000)
    t = room.live.tournament
    tb, seat = t.get(name).seat
    assert room.boxes[tb].table.stacks[seat] == 3000
    held = [(b.number, s) for b in room.boxes.values() for s in b.table.stacks
            if b.link.names.get(str(s)) == name or s not in t.seating().get(b.number, {})]
    assert held == [(tb, seat)]
    assert [p for p in room.pending() if p["player"] == name] == []
    assert not [x for x in _notices(room) if "seated twice" in x]


def test_a_box_rebuilt_before_its_first_hand_keeps_a_mover_until_they_left(tmp_path):
    """No hand dealt yet: the TD records `tdhost move` of a table 2 player to table 1's
    free seat, and the host is killed and started again before either dealer acts: both
    boxes get the seating again and build their tables from it.  Table 2's still seats the
    mover (they have not left), table 1's not yet, so the move is carried out as sent and
    the 3000 chips arrive (the chaos drill's seed 8: the source box lost the mover, refused
    the move_out as "Seat 1 is empty", and their chips were gone)."""
    room = Room(tmp_path)
    seating = room.live.tournament.seating()
    free = min(s for s in range(1, 9) if s not in seating[1])
    old = min(seating[2])
    name = seating[2][old]
    run(["move", name, "1.%d" % free, "--db", room.db, "--yes"])
    room.run(2000)
    room.restart()
    room.run(2000)
    b1, b2 = room.boxes[1], room.boxes[2]
    assert b2.table.stacks[old] == 3000 and b2.link.names[str(old)] == name
    assert free not in b1.table.stacks
    for _ in range(2):
        carry_out(room, ("move_out", "receive"))
        room.run(2000)
    assert old not in b2.table.stacks and b1.table.stacks[free] == 3000
    assert [p for p in room.pending() if p["player"] == name] == []


def test_a_box_rebuilt_before_its_first_hand_keeps_a_player_the_td_entered_out(tmp_path):
    """No hand dealt yet: the TD enters a table 2 player out, and the host is killed and
    started again before the dealer takes the seat out: table 2's box gets the seating
    again and builds its table from it.  The player still sits there with 3000 chips
    until the take_out, which then says how many chips left play (the chaos drill's seed
    5: the rebuilt table had lost them and their chips, and the take_out answered done
    with none)."""
    room = Room(tmp_path)
    seating = room.live.tournament.seating()
    seat = min(seating[2])
    name = seating[2][seat]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    room.restart()
    room.run(2000)
    b2 = room.boxes[2]
    assert b2.table.stacks[seat] == 3000 and b2.link.names[str(seat)] == name
    carry_out(room, ("take_out",))
    room.run(2000)
    assert seat not in b2.table.stacks
    (taken,) = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"]
    assert _ins.done_stack(taken) == 3000


def test_a_cli_bust_the_killed_host_never_read_takes_the_seat_out_after_the_restart(tmp_path):
    """No hand dealt yet: the TD enters a table 2 player out with `tdhost bust`, and the
    host is killed before its next look at the league file.  The host started again writes
    the take_out the bust needs, so table 2's box, rebuilt from the seating, still seats the
    player with 3000 chips until the dealer takes the seat out (the chaos drill's seed 24:
    the seating left them out, and their 3000 chips vanished from the boxes)."""
    room = Room(tmp_path)
    seating = room.live.tournament.seating()
    seat = min(seating[2])
    name = seating[2][seat]
    run(["bust", name, "--db", room.db, "--yes"])
    room.restart()
    room.run(2000)
    assert room.live.tournament.get(name).state == "out"
    b2 = room.boxes[2]
    assert b2.table.stacks[seat] == 3000 and b2.link.names[str(seat)] == name
    assert [(i["seat"], i["name"]) for i in b2.instructions("take_out")] == [(seat, name)]
    carry_out(room, ("take_out",))
    room.run(2000)
    assert seat not in b2.table.stacks
    (taken,) = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"]
    assert _ins.done_stack(taken) == 3000
    room.restart()  # once is enough: no second take_out after the next restart
    room.run(2000)
    assert [r["action"] for r in room.live.tournament.instrs.values()].count("take_out") == 1


def test_a_late_entry_undone_after_the_box_seated_the_player_takes_them_out(tmp_path):
    """Ada joins late (3000 chips, a dead big blind) and her table's dealer seats her; then
    the TD undoes the late entry: the box takes her seat out again (her 3000 chips leave
    play with her), and a redo seats her once more, not twice (the chaos drill's seed 7:
    the box kept her after the undo, and the redo seated her at a second table)."""
    room, table, seat, box = late_arrival(tmp_path)
    carry_out(room, ("receive",))
    room.run(2000)
    assert box.table.stacks[seat] == 3000
    res = room.live.act("undo", {})
    assert res["text"].startswith("Undone: late entry of Ada")
    room.run(2000)
    assert [(i["seat"], i["name"]) for i in box.instructions("take_out")] == [(seat, "Ada")]
    carry_out(room, ("take_out",))
    room.run(2000)
    assert seat not in box.table.stacks
    room.live.act("redo", {})
    room.run(1000)
    carry_out(room, ("receive",))
    room.run(2000)
    where = room.table_of("Ada")
    held = [(tb, s) for tb, b in room.boxes.items() for s in b.table.stacks
            if b.link.names.get(str(s)) == "Ada"]
    assert held == [where] and room.boxes[where[0]].table.stacks[where[1]] == 3000


def test_a_late_entry_undone_then_seated_anyway_is_taken_out(tmp_path):
    """Ada joins late and the TD undoes the entry before her table's box has heard of the
    withdraw; its dealer seats her anyway and the box answers ``done``: the box holds a
    player the league no longer has, so the host takes her seat out (her 3,000 chips
    leave play), never leaving an unnamed seat (the chaos drill's seed 27)."""
    room, table, seat, box = late_arrival(tmp_path)
    got = [i for i in box.instructions("receive") if i["name"] == "Ada"][0]
    del room.boxes[table]  # the box is not heard for a while ...
    assert room.live.act("undo", {})["text"].startswith("Undone: late entry of Ada")
    room.run(2000)
    box.do("sit", seat=got["seat"], stack=got["stack"])  # ... its dealer seats her
    box.done(got["id"])
    room.boxes[table] = box
    room.run(3000)
    assert [(i["seat"], i["name"]) for i in box.instructions("take_out")] == [(seat, "Ada")]
    carry_out(room, ("take_out",))
    room.run(2000)
    assert seat not in box.table.stacks
    assert sorted(box.table.stacks) == sorted(room.live.tournament.seating()[table])


def test_a_bust_undone_before_the_take_out_calls_off_the_move_into_that_seat(tmp_path):
    """The TD enters table 1 seat 4 out (5, 7, 7): the host plans a move into that very
    seat (the box empties it with the take_out).  The TD undoes the bust before either
    dealer acts: the player keeps seat 4, so the take_out and the move heading there are
    called off and withdrawn (the chaos drill's seed 6: the move went on, table 1 refused
    the mover as "Seat 4 is taken", and the host sent them to a table without a box)."""
    room = Room(tmp_path)
    name = room.live.tournament.seating()[1][4]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    (out,) = [p for p in room.pending() if p["action"] == "move_out"]
    assert (out["to_table"], out["to_seat"]) == (1, 4)
    room.live.act("undo", {})
    room.run(2000)
    t = room.live.tournament
    assert _ins.state(t.instrs[out["id"]]) == "cancelled"
    assert [i["instr"] for i in room.boxes[out["table"]].instructions("withdraw")] == [
        out["id"]]
    assert room.table_of(name) == (1, 4)
    assert [p for p in room.pending() if p["action"] in ("move_out", "receive")] == []


def test_the_cli_undo_leaves_the_hosts_own_reseat_of_a_player(tmp_path):
    """The TD enters table 1 seat 4 out; the box takes the seat out and the plan's mover
    leaves for it; the TD undoes the bust: seat 4 is taken now, so the host seats the
    player elsewhere (its own ``move``, the ``receive`` and a notice, in one write).
    `tdhost undo` then refuses with one sentence and writes nothing: that seating is the
    host's, not a TD action (the chaos drill's seed 11: the CLI undid it after the box had
    seated the player, who then stood at their old seat in the league, another player
    there at the box)."""
    room = Room(tmp_path)
    name = room.live.tournament.seating()[1][4]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    carry_out(room, ("take_out", "move_out"))
    room.run(2000)
    room.live.act("undo", {})
    room.run(2000)
    (last,) = [ev for ev in room.live.lg.last_action(1) if ev.action == "move"]
    assert (last.payload["name"], last.payload["by"]) == (name, "host")
    before = len(room.live.store.events())
    res = run(["undo", "--db", room.db], expect=2)
    assert res.stderr.startswith("tdhost undo: refused: the last event of tournament 1 is "
                                 "the boxes' own (move %s to table " % name)
    assert len(room.live.store.events()) == before


def test_the_cli_undo_leaves_a_bust_the_box_reported(tmp_path):
    """Table 1's box reports a player out in a hand (all in and lost): `tdhost undo` from
    another connection refuses with one sentence and writes nothing, as the console's undo
    does (the chaos drill's seed 15: the CLI undid the box's bust, the league had the player
    back in, the box had no seat or chips for them)."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    seats = sorted(b1.table.stacks)
    allin(b1, [seats[3]], seats[4])
    room.run(2000)
    out = room.live.tournament.seating()[1].get(seats[3])
    assert out is None
    before = len(room.live.store.events())
    res = run(["undo", "--db", room.db], expect=2)
    assert res.stderr.startswith("tdhost undo: refused: the last event of tournament 1 is "
                                 "the boxes' own (bust ")
    assert res.stderr.endswith("): undo takes back only the TD's actions.\n")
    assert len(room.live.store.events()) == before


def test_a_bust_undone_after_its_plan_broke_a_table_puts_the_table_back(tmp_path):
    """US free league, 21 players at three 10-seat tables of 7: the TD enters one of table
    3 out, 20 fit two tables, so the plan breaks table 3 and moves its six players out.
    The TD undoes the bust before the dealers act: 21 players do not fit two tables, the
    new plan keeps table 3, so its break and the moves out of it are called off and
    withdrawn, and the TD reads that table 3 is in play again (the chaos drill's seeds 1
    and 25: the break stood while the new plan moved players into table 3, and a player
    sent back there was seated alone at the spare box)."""
    room = Room(tmp_path, example="us_free", n=21)
    assert room.sizes() == {1: 7, 2: 7, 3: 7}
    name = room.live.tournament.seating()[3][min(room.live.tournament.seating()[3])]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    planned = room.pending()
    assert sorted((p["action"], p["table"]) for p in planned) == [("break_table", 3)] + [
        ("move_out", 3)] * 6 + [("take_out", 3)]
    room.live.act("undo", {})
    room.run(2000)
    t = room.live.tournament
    assert [_ins.state(t.instrs[p["id"]]) for p in planned] == ["cancelled"] * 8
    assert sorted(i["instr"] for i in room.boxes[3].instructions("withdraw")) == sorted(
        p["id"] for p in planned)
    assert room.live.snapshot()["broken"] == [] and room.sizes() == {1: 7, 2: 7, 3: 7}
    assert "table 3 in play again: the new plan keeps it" in _notices(room)
    carry_out(room, ("break_table", "move_out", "receive"))  # the withdraws, answered
    room.run(2000)
    assert room.pending() == [] and room.boxes[3].table.hold is None
    assert sorted(room.boxes[3].table.stacks) == sorted(room.live.tournament.seating()[3])


def test_a_bust_undone_after_the_take_out_seats_the_player_at_the_table_its_plan_broke(
        tmp_path):
    """As above, but table 3's dealer took the busted player's seat out first: their seat
    is at a broken table, and tables 1 and 2 are full with the six arriving (7 + 3 each of
    10 seats).  Rather than alone at an empty table (the chaos drill's seed 25: at the
    spare box, which starts a table from two players only, so the moves the next plan sent
    there waited forever), they sit down again at table 3, whose break the box has not
    carried out, and the new plan keeps it."""
    room = Room(tmp_path, example="us_free", n=21)
    seating = room.live.tournament.seating()
    seat = min(seating[3])
    name = seating[3][seat]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    carry_out(room, ("take_out",))
    room.run(2000)
    assert seat not in room.boxes[3].table.stacks
    room.live.act("undo", {})
    room.run(2000)
    t = room.live.tournament
    assert t.get(name).state == "in" and t.get(name).seat[0] == 3
    (back,) = [r for r in t.instrs.values() if r["action"] == "receive"
               and r.get("player") == name and not _ins.cancelled(r)]
    assert back["table"] == 3 and back["body"]["stack"] == 5000  # the chips taken out
    assert room.live.snapshot()["broken"] == []
    assert "table 3 in play again: the new plan keeps it" in _notices(room)


def test_a_box_rebuilt_before_its_first_hand_seats_a_mover_with_the_chips_they_brought(
        tmp_path):
    """After table 1's first hand its big blind has 3,025 chips; the TD records `tdhost
    move` of them to table 2, which has dealt no hand yet, and both dealers carry it out.
    Then the host is killed and started again: table 2's box builds its table afresh from
    the seating, which seats the mover with the 3,025 chips of their receive -- not the
    3,000 they entered with (the chaos drill's seed 24: 50 chips appeared out of nowhere,
    a mover who had posted a blind sat down again with their entry chips)."""
    room, big, name = after_one_hand(tmp_path)
    seating = room.live.tournament.seating()
    free = min(s for s in range(1, 9) if s not in seating[2])
    run(["move", name, "2.%d" % free, "--db", room.db, "--yes"])
    room.run(2000)
    for _ in range(2):
        carry_out(room, ("move_out", "receive"))
        room.run(2000)
    b2 = room.boxes[2]
    assert b2.table.stacks[free] == 3025 and b2.table.hands == 0
    total = [sum(b.table.stacks.values()) for b in room.boxes.values()]
    room.restart()
    room.run(2000)
    assert room.live.seating_msg(2)["stacks"][str(free)] == 3025
    assert b2.table.stacks[free] == 3025 and b2.link.names[str(free)] == name
    assert sum(sum(b.table.stacks.values()) for b in room.boxes.values()) == sum(total)


def test_a_box_rebuilt_before_its_first_hand_leaves_out_a_mover_who_left(tmp_path):
    """No hand dealt yet: the TD enters a table 1 player out (5, 7, 7), the plan moves a
    player from another table into table 1, and that table's dealer carries the move_out
    out (the player leaves with 3000 chips).  The host is killed and started again before
    the receive: the source box builds its table afresh from the seating, which no longer
    seats the mover there; the receive then seats them at table 1 once, and the 60,000
    chips of the night are all at the boxes (the chaos drill's seed 22: the rebuilt table
    had the mover back, as well as at their new table)."""
    room = Room(tmp_path)
    seating = room.live.tournament.seating()
    name = seating[1][min(seating[1])]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    carry_out(room, ("take_out",))
    room.run(2000)
    (out,) = [p for p in room.pending() if p["action"] == "move_out"]
    src = room.boxes[out["table"]]
    mover = out["player"]
    src.leave(next(i for i in src.instructions("move_out") if i["id"] == out["id"]))
    room.run(2000)
    assert str(out["seat"]) not in room.live.seating_msg(out["table"])["names"]
    room.restart()
    room.run(2000)
    assert out["seat"] not in src.table.stacks and src.table.hands == 0
    for _ in range(2):
        carry_out(room, ("receive",))
        room.run(2000)
    assert room.table_of(mover)[0] == 1 and [p for p in room.pending()] == []
    assert sum(sum(b.table.stacks.values()) for b in room.boxes.values()) == 19 * 3000


def test_a_late_entry_undone_while_its_receive_waits_at_the_box_calls_it_off(tmp_path):
    """Ada joins late; her table's dealer has seen the receive (``acknowledged``: the seat
    change waits for the hand's end) when the TD undoes the entry from the command line.
    The host calls the receive off and withdraws it, so the box never seats a player the
    league no longer has; a box that seats her anyway gets a take_out (the chaos drill's
    seed 50: the receive went on, and seat 1 kept her 3,000 chips with no name)."""
    room, table, seat, box = late_arrival(tmp_path)
    got = [i for i in box.instructions("receive") if i["name"] == "Ada"][0]
    box.done(got["id"], "acknowledged")
    room.run(1000)
    run(["undo", "--db", room.db, "--yes"])
    room.run(2000)
    assert _ins.state(room.live.tournament.instrs[got["id"]]) == "cancelled"
    assert [i["instr"] for i in box.instructions("withdraw")] == [got["id"]]
    box.do("sit", seat=got["seat"], stack=got["stack"])  # seated before the withdraw came
    box.done(got["id"])
    room.run(2000)
    assert [(i["seat"], i["name"]) for i in box.instructions("take_out")] == [(seat, "Ada")]
    carry_out(room, ("take_out",))
    room.run(2000)
    assert sorted(box.table.stacks) == sorted(room.live.tournament.seating()[table])
    assert sum(sum(b.table.stacks.values()) for b in room.boxes.values()) == 20 * 3000


def test_a_bust_undone_after_a_move_took_the_seat_the_td_had_moved_them_to(tmp_path):
    """The TD records `tdhost move` of a table 1 player to a free seat at the same table,
    then busts them before the dealer moved them: the move is called off (the box still
    seats them at their old seat) and the plan sends a table 2 or 3 player into the seat
    the TD had given them.  That mover has left their table when the TD undoes the bust:
    the player plays on at the old seat, where the box seats them, the league seats them
    there too (a notice says why), and the mover sits down in the other seat (the chaos
    drill's seed 39: the league put them back in the mover's seat, the box kept them at
    the old one)."""
    room, _, _ = after_one_hand(tmp_path)
    seating = room.live.tournament.seating()
    old = min(seating[1])
    name = seating[1][old]
    b1 = room.boxes[1]
    run(["move", name, "1.%d" % min(s for s in range(1, 9) if s not in seating[1]),
         "--db", room.db, "--yes"])
    room.run(2000)
    new = room.table_of(name)[1]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    (out,) = [p for p in room.pending() if p["action"] == "move_out"]
    assert (out["to_table"], out["to_seat"]) == (1, new)
    carry_out(room, ("move_out",))
    room.run(2000)
    room.live.act("undo", {})
    room.run(2000)
    for _ in range(2):
        carry_out(room, ("receive",))
        room.run(2000)
    t = room.live.tournament
    assert room.table_of(name) == (1, old)
    assert b1.link.names[str(old)] == name and b1.table.stacks[old] == 3000
    assert b1.link.names[str(new)] == out["player"]
    assert sorted(b1.table.stacks) == sorted(t.seating()[1])
    assert [p for p in room.pending() if p["player"] in (name, out["player"])] == []
    assert any("%s's bust was undone: they play on at table 1 seat %d" % (name, old) in x
               for x in _notices(room))


def test_a_bust_undone_gives_back_a_move_by_hand_it_called_off(tmp_path):
    """The TD records `tdhost move` of a table 1 player to the last free seat at the same
    table, then busts them before the dealer moved them (the move called off; the plan's
    move into table 1 heads for another seat) and undoes the bust: the league seats them
    at the seat the TD gave them, so the box moves them there again."""
    room, _, _ = after_one_hand(tmp_path)
    seating = room.live.tournament.seating()
    old = min(seating[1])
    name = seating[1][old]
    new = max(s for s in range(1, 9) if s not in seating[1])
    run(["move", name, "1.%d" % new, "--db", room.db, "--yes"])
    room.run(2000)
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    (out,) = [p for p in room.pending() if p["action"] == "move_out"]
    assert (out["to_table"], out["to_seat"]) != (1, new)
    room.live.act("undo", {})
    room.run(2000)
    assert room.table_of(name) == (1, new)
    for _ in range(2):
        carry_out(room, ("move_out", "receive"))
        room.run(2000)
    b1 = room.boxes[1]
    assert old not in b1.table.stacks
    assert b1.link.names[str(new)] == name and b1.table.stacks[new] == 3000
    assert sorted(b1.table.stacks) == sorted(room.live.tournament.seating()[1])
    assert [p for p in room.pending() if p["player"] in (name, out["player"])] == []


def test_a_take_out_carried_out_after_the_undo_called_it_off_seats_the_player_back(tmp_path):
    """The TD enters a player at table 2 out, then undoes it before the box has heard of
    the withdraw; its dealer had taken the seat out and the box answers ``done`` with the
    3,000 chips: the player plays on, so the host seats them back there with those chips
    (the chaos drill's seed 243: the league had them, the box did not)."""
    room = Room(tmp_path)
    b2, seat, name = td_bust_first(room, 2)
    (take,) = b2.instructions("take_out")
    del room.boxes[2]  # the box is not heard for a while ...
    assert room.live.act("undo", {})["text"].startswith("Undone: %s's bust" % name)
    room.run(2000)
    res, why, chips = at_table.carry_out(b2.table, take)  # ... its dealer takes them out
    assert (res, chips) == ("done", 3000)
    b2.done(take["id"], res, why, chips)
    b2.link.observe(b2.table.state())
    room.boxes[2] = b2
    room.run(3000)
    (back,) = b2.instructions("receive")
    assert (back["seat"], back["name"], back["stack"]) == (seat, name, 3000)
    (withdraw,) = {i["id"] for i in b2.instructions("withdraw") if i["instr"] == take["id"]}
    b2.done(withdraw, "refused", "already carried out")  # as the box answers it
    b2.do("sit", seat=seat, stack=3000)
    b2.done(back["id"])
    room.run(3000)
    assert b2.table.stacks[seat] == 3000 and b2.link.names[str(seat)] == name
    assert sorted(b2.table.stacks) == sorted(room.live.tournament.seating()[2])


def test_a_player_entered_out_while_their_receive_waits_for_the_hand_is_not_seated(
        tmp_path):
    """Ada joins late; the dealer has seen her receive (``acknowledged``: she sits down at
    the hand's end) when the TD enters her out: the receive is called off and withdrawn,
    and if the box seats her anyway she is taken out again (the chaos drill's seed 203:
    she stayed on the box with 3,000 chips)."""
    room, table, seat, box = late_arrival(tmp_path)
    (got,) = [i for i in box.instructions("receive") if i["name"] == "Ada"]
    box.done(got["id"], "acknowledged")
    room.run(2000)
    room.live.act("bust", {"names": ["Ada"]})
    room.run(2000)
    rcv = room.live.tournament.instrs[got["id"]]
    assert _ins.state(rcv) == "cancelled"
    assert [i["instr"] for i in box.instructions("withdraw")] == [got["id"]]


def test_a_latecomer_entered_out_before_any_box_seated_them_is_at_no_box(tmp_path):
    """Ada joins late and is entered out before her table's dealer seats her: her receive
    is called off, so no box seats her (``at_box`` None) -- whoever sits in that seat
    later is not taken out for her (the chaos drill's seed 301: a host restarted later
    took out the player moved there since, naming Ada)."""
    room = Room(tmp_path)
    room.run(10000)
    room.live.act("late", {"name": "Ada"})
    room.run(1000)
    assert _reactions.at_box(room.live.tournament, "Ada") is None  # (arriving)
    room.live.act("bust", {"names": ["Ada"]})
    room.run(2000)
    t = room.live.tournament
    assert t.get("Ada").state == "out" and t.get("Ada").seat
    assert _reactions.at_box(t, "Ada") is None
    assert not [r for r in t.instrs.values() if r["action"] == "take_out"]


def test_undoing_a_console_action_leaves_the_reaction_to_a_cli_write_read_with_it(tmp_path):
    """The TD enters a player out with `tdhost bust` and, before the host has polled the
    file, pauses the clock from the console: the host reads the bust with its own write and
    sends the take_out then.  Undoing the pause calls off only what the pause wrote: the
    take_out stays (chaos seed 390: the bust's take_out was called off, the player stayed at
    the box while the league had them out)."""
    room = Room(tmp_path)
    b2 = room.boxes[2]
    seat = min(b2.table.stacks)
    name = room.live.tournament.seating()[2][seat]
    run(["bust", name, "--db", room.db, "--yes"])
    room.live.act("pause", {})  # no poll between the two writes
    (take,) = [p for p in room.pending() if p["action"] == "take_out"]
    assert take["player"] == name
    res = room.live.act("undo", {})
    assert res["text"].startswith("Undone: clock paused")
    room.run(2000)
    t = room.live.tournament
    assert _ins.state(t.instrs[take["id"]]) != "cancelled"
    assert [(i["seat"], i["name"]) for i in b2.instructions("take_out")] == [(seat, name)]
    assert b2.instructions("withdraw") == []


def test_a_player_moved_by_hand_twice_before_the_host_reads_moves_once_from_their_seat(
        tmp_path):
    """`tdhost move` puts a player of table 2 at table 1 and, before the host polls, a
    second `tdhost move` puts them on at table 3: the boxes get one move, from the seat
    table 2's box still has them at to the last seat -- not a move out of table 1, whose box
    never seated them (chaos seed 75: "Seat 5 is empty")."""
    room = Room(tmp_path)
    t = room.live.tournament
    seat = min(t.seating()[2])
    name = t.seating()[2][seat]
    first = min(s for s in range(1, 9) if s not in t.seating()[1])
    last = min(s for s in range(1, 9) if s not in t.seating()[3])
    run(["move", name, "1.%d" % first, "--db", room.db, "--yes"])
    run(["move", name, "3.%d" % last, "--db", room.db, "--yes"])
    room.run(2000)
    assert room.boxes[1].instructions("move_out") == []
    (out,) = room.boxes[2].instructions("move_out")
    assert (out["seat"], out["name"], out["to_table"], out["to_seat"]) == (seat, name, 3, last)
    carry_out(room)
    room.run(3000)
    carry_out(room)  # the receive, once the move_out is done
    room.run(3000)
    assert room.boxes[3].table.stacks.get(last) and seat not in room.boxes[2].table.stacks
    assert room.live.tournament.get(name).seat == [3, last]
    assert [p for p in room.pending() if p["player"] == name] == []


def test_undoing_a_move_by_hand_after_an_undone_bust_on_the_way_seats_the_player_back(
        tmp_path):
    """`tdhost move` sends a player of table 1 to table 2; the TD busts them before their
    dealer moves them (the move called off, the seat taken out with their chips), undoes the
    bust (the host seats them at table 2, where the league has them), then undoes the move:
    the league has them at their table 1 seat again, so the receive at table 2 is called off
    and table 1's box seats them with the same chips (chaos seed 631: table 2 seated them,
    the league had them at table 1)."""
    room = Room(tmp_path)
    name, seat, free = moved_by_hand(room, 1, 2)
    room.run(2000)
    run(["bust", name, "--db", room.db, "--yes"])
    room.run(2000)
    carry_out(room, ("take_out",))
    room.run(2000)
    run(["undo", "--db", room.db, "--yes"])  # the bust
    room.run(2000)
    (there,) = [i for i in room.boxes[2].instructions("receive") if i["name"] == name]
    assert there["seat"] == free
    run(["undo", "--db", room.db, "--yes"])  # the move
    room.run(2000)
    t = room.live.tournament
    assert t.get(name).seat == [1, seat]
    assert [i["instr"] for i in room.boxes[2].instructions("withdraw")] == [there["id"]]
    (back,) = [i for i in room.boxes[1].instructions("receive") if i["name"] == name]
    assert (back["seat"], back["stack"]) == (seat, there["stack"])
    carry_out(room, ("receive",))
    room.run(3000)
    assert room.boxes[1].table.stacks.get(seat) == there["stack"]
    assert room.boxes[2].seat_of(name) is None and free not in room.boxes[2].table.stacks
    assert [p for p in room.pending() if p["player"] == name] == []


def test_undoing_a_move_by_hand_calls_off_a_later_move_not_begun(tmp_path):
    """`tdhost move` took a player from table 2 to table 1 (carried out), a plan of the
    host's then moves them on to table 3, and before table 1's dealer has begun that move
    the TD undoes the move by hand: the host's move is called off and the player goes back
    to their table 2 seat -- one move, not two (chaos seed 549: the box carried out both
    in turn, refused the second, and the league had the player at two seats)."""
    room = Room(tmp_path)
    name, seat, free = moved_by_hand(room, 2, 1)
    room.run(2000)
    carry_out(room)
    room.run(2000)
    carry_out(room)
    room.run(2000)
    assert room.boxes[1].table.stacks.get(free) and not _ins.moving_players(
        room.live.tournament)
    on = min(s for s in range(1, 9) if s not in room.live.tournament.seating()[3])

    def plan_move(tournament, lg, seq):  # what a plan of the host's writes
        return [("instr", _ins.move_out(lg, tournament, 0, name, [1, free], [3, on], 3000, {}),
                 None)], None
    room.live.write(plan_move)
    room.run(500)
    (later,) = [p for p in room.pending() if p["action"] == "move_out"]
    run(["undo", "--db", room.db, "--yes"])
    room.run(2000)
    t = room.live.tournament
    assert t.get(name).seat == [2, seat]
    assert _ins.state(t.instrs[later["id"]]) == "cancelled"
    assert later["id"] in [i["instr"] for i in room.boxes[1].instructions("withdraw")]
    (back,) = [p for p in room.pending() if p["action"] == "move_out"]
    assert (back["player"], t.instrs[back["id"]]["to"]) == (name, [2, seat])


def test_a_bust_undone_keeps_the_player_where_the_box_has_them_when_their_seat_is_taken(
        tmp_path):
    """`tdhost move` sends a player of table 3 to table 2; the TD busts them before their
    dealer moves them, and plans fill both seats: a move heads into their table 3 seat,
    another into the table 2 seat.  Undoing the bust calls off the move into the table 3
    seat, where the box still has them, and the league seats them there again -- the host
    does it, not the TD (chaos seed 612: the move it called off in the same breath still
    counted, and the host left it to the TD)."""
    room = Room(tmp_path)
    name, seat, free = moved_by_hand(room, 3, 2)
    room.run(500)
    run(["bust", name, "--db", room.db, "--yes"])
    room.run(500)
    t = room.live.tournament
    into_old = t.seating()[1][min(t.seating()[1])]
    into_new = t.seating()[1][max(t.seating()[1])]

    def plans(tournament, lg, seq):  # the host's plans: both seats taken by moves
        return [("instr", _ins.move_out(lg, tournament, 0, into_old, [1, min(
            tournament.seating()[1])], [3, seat], 3000, {}), None),
                ("instr", _ins.move_out(lg, tournament, 1, into_new, [1, max(
                    tournament.seating()[1])], [2, free], 3000, {}), None)], None
    room.live.write(plans)
    room.run(500)
    run(["undo", "--db", room.db, "--yes"])  # the bust
    room.run(2000)
    t = room.live.tournament
    assert t.get(name).state == "in" and t.get(name).seat == [3, seat]
    assert not any("moves head for both" in x for x in _notices(room))
    assert any("%s's bust was undone: they play on at table 3 seat %d" % (name, seat) in x
               for x in _notices(room))
    assert into_old not in _ins.moving_players(t) and into_new in _ins.moving_players(t)


def test_a_late_entry_undone_twice_takes_the_first_seat_out_once(tmp_path):
    """Ada enters late and sits down; the TD undoes the entry (a take_out on its way), enters
    her again and undoes that too before her dealer has taken her out: one take_out of her
    seat, not a second one for the same seat (chaos seed 792: the box's report of the seat
    out went to the second, which took no chips, and the first entry's chips counted
    twice)."""
    room, table, seat, box = late_arrival(tmp_path)
    carry_out(room, ("receive",))
    room.run(2000)
    assert box.table.stacks.get(seat)
    room.live.act("undo", {})
    room.run(1000)
    room.live.act("redo", {})
    room.run(1000)
    room.live.act("undo", {})
    room.run(2000)
    takes = [r for r in room.live.tournament.instrs.values()
             if r["action"] == "take_out" and r.get("player") == "Ada"]
    assert [(r["table"], r["body"]["seat"]) for r in takes] == [(table, seat)]
