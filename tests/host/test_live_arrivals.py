"""tdhost.live with real boxes: players who join a table in play -- an absent player's
chip deduction sent as a ``deduct`` the box carries out (protocol 1.2), and where a
latecomer sits: never at a broken table, a spare box before a new table without one
(docs/host.md §10.2, §10.6)."""

from liveroom import T0_MS, Box, Room, allin, carry_out, fold_round, late_arrival

from tcbox.instructions import at_table


def _absent_room(tmp_path):
    """LPPL, 20 players; one player at each of tables 1 and 2 is not seated at "shuffle up
    and deal" (LPPL ¶14); tables 1 and 2 deal a hand (their boxes take no new seating now),
    table 3 none."""
    room = Room(tmp_path, start=False)
    seating = room.live.tournament.seating()
    a, b, c = (seating[tb][min(seating[tb])] for tb in (1, 2, 3))
    room.now = T0_MS
    room.live.act("start", {"absent": [a, b, c]})
    room.run(1000)
    fold_round(room.boxes[1])
    fold_round(room.boxes[2])
    room.run(1000)
    return room, a, b, c


def test_an_absent_player_arriving_late_loses_chips_at_the_box(tmp_path):
    """LPPL ¶14: "anyone not seated at the ‘shuffle up and deal’ call will have the
    appropriate number of chips removed from their stack by the TD (500 during 1st blind
    level) after 5 minutes ... if they have not taken their seat by the start of the 2nd
    blind level a further 1000 chips will be removed".  The host's ``arrive`` sends the box
    a ``deduct`` of 500 at level 1 and of 1500 at level 2 (protocol 1.1 sent a message);
    the dealer's Confirm takes the chips off the stack."""
    room, a, b, c = _absent_room(tmp_path)
    live = room.live
    b1, b2 = room.boxes[1], room.boxes[2]
    room.wait(T0_MS + 10 * 60000 - room.now)
    res = live.act("arrive", {"name": a})
    assert res["text"].endswith("500 chips removed (500 after 5 minutes); remove 500 chips from "
                                "Jon's stack.")
    room.run(1000)
    seat = live.tournament.get(a).seat[1]
    assert [(i["action"], i["seat"], i["chips"]) for i in b1.instructions("deduct")] == [
        ("deduct", seat, 500)]
    assert b1.instructions("message") == []
    assert [(p["action"], p["player"], p["seat"], p["state"]) for p in room.pending()] == [
        ("deduct", a, seat, "sent")]
    before = b1.table.stacks[seat]
    carry_out(room, ("deduct",))
    room.run(1000)
    assert b1.table.stacks[seat] == before - 500
    assert room.pending() == []

    live.act("level", {"level": 2})
    room.run(1000)
    res = live.act("arrive", {"name": b})
    assert res["text"].endswith("1500 chips removed (500 after 5 minutes, 1000 more at level "
                                "2); remove 1500 chips from Ivy's stack.")
    room.run(1000)
    seat = live.tournament.get(b).seat[1]
    assert [(i["seat"], i["chips"]) for i in b2.instructions("deduct")] == [(seat, 1500)]
    before = b2.table.stacks[seat]
    carry_out(room, ("deduct",))
    room.run(1000)
    assert b2.table.stacks[seat] == before - 1500


def test_an_undone_arrival_withdraws_its_deduct(tmp_path):
    """The TD undoes the arrival before the dealer took the chips: the deduct is called off
    and withdrawn from the box (an undo's orphan)."""
    room, a, b, c = _absent_room(tmp_path)
    room.wait(T0_MS + 10 * 60000 - room.now)
    room.live.act("arrive", {"name": a})
    room.run(1000)
    b1 = room.boxes[1]
    ded = b1.instructions("deduct")[0]
    res = room.live.act("undo", {})
    assert res["text"].startswith("Undone: %s arrived (" % a)  # the TD's own last action
    assert res["text"].endswith("%s is marked absent again." % a)
    room.run(1000)
    t = room.live.tournament
    assert t.get(a).absent == "awol"
    assert t.instrs[ded["id"]]["results"][-1]["reason"] == "%s's arrival was undone" % a
    assert [i["instr"] for i in b1.instructions("withdraw")] == [ded["id"]]
    before = dict(b1.table.stacks)
    carry_out(room, ("deduct",))  # the box's app has taken it off its screen
    room.run(1000)
    assert b1.table.stacks == before and room.pending() == []


def test_an_arrival_before_the_tables_first_hand_comes_with_the_seating(tmp_path):
    """Table 3 has not dealt yet: its box takes the league's seating, with the 500 chips
    already off the absent player's 3000 (no deduct to carry out)."""
    room, a, b, c = _absent_room(tmp_path)
    room.wait(T0_MS + 10 * 60000 - room.now)
    room.live.act("arrive", {"name": c})
    room.run(1000)
    b3 = room.boxes[3]
    seat = room.live.tournament.get(c).seat[1]
    assert b3.instructions("deduct") == [] and room.pending() == []
    assert b3.table.stacks[seat] == 2500 and b3.link.names[str(seat)] == c


def _broken_room(tmp_path, spare=None):
    """US free league (10 seats a table, late registration until level 4 with the full
    stack): 21 players at three tables of 7; one out at table 3 leaves 20, which fit two
    tables: table 3, the smallest, breaks into tables 1 and 2 (10 and 10) and stays, empty,
    with its box linked.  *spare*: a box for that table number, linked and without
    players."""
    room = Room(tmp_path, example="us_free", n=21)
    b3 = room.boxes[3]
    seats = sorted(b3.table.stacks)
    allin(b3, [seats[0]], seats[-1])
    room.run(3000)
    for _ in range(2):
        carry_out(room, ("break_table", "move_out", "receive"))
        room.run(3000)
    assert room.sizes() == {1: 10, 2: 10} and room.live.snapshot()["broken"] == [3]
    assert room.live.link_for(3) is not None
    if spare is not None:
        room.boxes[spare] = Box(room, spare, "tc-%02d" % spare)
        room.run(2000)
    return room


def _refused(room, args, sentence):
    """The TD's late entry *args* is refused with *sentence*, and nothing is written."""
    before = room.live.last_seq
    try:
        room.live.act("late", args)
    except Exception as err:  # noqa: BLE001 -- the type is checked below
        assert type(err).__name__ == "ActionRefused"
        assert str(err) == sentence
    else:
        raise AssertionError("late entry %r was not refused" % (args,))
    assert room.live.last_seq == before and room.live.tournament.get(args["name"]) is None


def test_a_latecomer_when_every_seat_is_taken_is_refused_before_anything_is_written(tmp_path):
    """Every seat at tables 1 and 2 taken (10 and 10 of 10), table 3 broken and empty (its
    box still linked), a spare box for table 5: the host seats Ada nowhere -- not at broken
    table 3, not alone at table 5, where the box starts no table for one player (it refused
    such a seating: the chaos drill's seeds 5, 27, 32, 34, 38) -- and says how she can
    join; the TD may not give her a seat at table 3 or table 5 either.  Nothing is
    written."""
    room = _broken_room(tmp_path, spare=5)
    _refused(room, {"name": "Ada"}, "every seat at tables 1, 2 is taken: Ada can join once a "
             "player is out, or at new table 4, which has no box, if you give the seat (4.1)")
    _refused(room, {"name": "Bea", "seat": "3.1"}, "table 3 is broken: it takes no players")
    _refused(room, {"name": "Bea", "seat": "5.2"}, "nobody plays at table 5 yet, and its box "
             "starts a table with two players at least: a latecomer joins a table in play")
    room.run(1000)
    assert room.boxes[5].instructions("receive") == []


def test_a_latecomer_at_a_new_table_without_a_box_the_td_gives_is_told_so(tmp_path):
    """No spare box: the TD gives Ada seat 4.1, at a new table without a box (never broken
    table 3), and reads that nobody's box will show its instructions."""
    room = _broken_room(tmp_path)
    res = room.live.act("late", {"name": "Ada", "seat": "4.1"})
    assert room.table_of("Ada") == (4, 1)
    assert res["text"] == "Ada joins at table 4 seat 1 — level 1: the full stack of 5000 " \
                          "chips; table 4 has no box: confirm its instructions in the console."
    room.run(1000)
    pend = [p for p in room.pending() if p["player"] == "Ada"]
    assert [(p["action"], p["table"], p["state"]) for p in pend] == [("receive", 4, "queued")]


def test_a_latecomer_whose_seat_the_box_refuses_gets_another(tmp_path):
    """LPPL, 20 players at three tables of 8: the box refuses the latecomer's receive
    ("Seat N is taken": it still holds somebody there the league does not).  The latecomer
    stands with 3000 chips and no seat: the host seats them elsewhere at once (the
    league's move, by the host, and a receive of their own), never in the refused seat,
    and tells the TD why."""
    room, first_table, _, box = late_arrival(tmp_path)
    first = box.instructions("receive")[-1]
    box.done(first["id"], "refused", "Seat %d is taken" % first["seat"])
    room.run(1000)
    seat = list(room.table_of("Ada"))
    assert seat != [first_table, first["seat"]] and room.live.tournament.seating()[seat[0]]
    moves = [ev.payload for ev in room.live.lg.events if ev.action == "move"
             and ev.payload["name"] == "Ada"]
    assert [(m["name"], m["from"], m["seat"], m["by"]) for m in moves] == [
        ("Ada", [first_table, first["seat"]], seat, "host")]
    again = room.boxes[seat[0]].instructions("receive")[-1]
    assert (again["name"], again["seat"], again["stack"], again.get("dead_bb")) == (
        "Ada", seat[1], 3000, True)
    notes = [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]
    assert notes[-1] == ("table %d refused Ada at seat %d (Seat %d is taken): seat Ada at "
                         "table %d seat %d with 3000 chips" % (
                             first_table, first["seat"], first["seat"], seat[0], seat[1]))
    room.boxes[seat[0]].done(again["id"])
    room.run(1000)
    assert [p for p in room.pending() if p["player"] == "Ada"] == []


def test_an_lppl_latecomer_joins_from_the_big_blind_position(tmp_path):
    """LPPL ¶45: "New players joining a table join from the Big Blind position or the next
    available seat to the left of the Big Blind".  Table 1 (seats 1-4, 7, 8; the emptiest)
    has dealt one hand: button 1, SB 2, BB 3.  The next BB is seat 4, so the latecomer
    takes seat 5, the next free seat to its left (the draw alone gave seat 6, a seat
    further from the blinds), is dealt in at once and posts the big blind in the hand
    after next."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    assert sorted(room.live.tournament.seating()[1]) == [1, 2, 3, 4, 7, 8]
    fold_round(b1)
    room.run(1000)
    st = room.live.statuses()[1]
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (1, 2, 3)
    room.wait(T0_MS + 20 * 60000 - room.now)  # level 2: 1500 chips, no dead BB
    res = room.live.act("late", {"name": "Ada"})
    assert room.table_of("Ada") == (1, 5)
    assert "table 1 seat 5" in res["text"] and "1500 chips" in res["text"], res["text"]
    room.run(1000)
    carry_out(room, ("receive",))
    room.run(1000)
    assert b1.table.stacks[5] == 1500
    bbs = []
    for _ in range(2):
        fold_round(b1)
        bbs.append(b1.table.state()["bb_seat"])
    assert bbs == [4, 5]


def test_a_latecomer_is_seated_by_their_receive_not_by_a_seating_sent_meanwhile(tmp_path):
    """LPPL, 20 players, no hand dealt yet: Ada joins 10 s after the start (3000 chips and
    a dead big blind: a ``receive`` to her table's box).  Before the dealer confirms it the
    host is killed and started again, and the box gets the league's seating once more
    before its first hand: it builds its table from it.  That seating leaves Ada out (her
    receive seats her), so the dealer's Confirm seats her once, at her seat (the chaos
    drill's seed 2: the box had her from the seating, refused the receive as "Seat 2 is
    taken", and the host seated her at a second table)."""
    room, table, seat, box = late_arrival(tmp_path)
    ins = box.instructions("receive")[-1]
    assert (ins["name"], ins["seat"], ins["stack"]) == ("Ada", seat, 3000)
    room.restart()
    room.run(2000)
    assert seat not in box.table.stacks and str(seat) not in box.link.names
    result, why, _ = at_table.carry_out(box.table, ins, box.link.names, box.link.table_no)
    assert (result, why) == ("done", None)
    box.done(ins["id"])
    room.run(2000)
    assert room.table_of("Ada") == (table, seat) and box.table.stacks[seat] == 3000
    assert [ev for ev in room.live.lg.events if ev.action == "move"] == []
    assert box.link.names[str(seat)] == "Ada"
    for tb, b in room.boxes.items():
        assert sorted(b.table.stacks) == sorted(room.live.tournament.seating()[tb]), tb


def test_a_latecomer_takes_the_seat_a_bust_frees_rather_than_sit_alone(tmp_path):
    """Every table full, a spare box for table 5, and the TD has just entered a player at
    table 1 out (their take_out not carried out yet): the latecomer is sent to that seat,
    where the box seats them once the busted player has left -- never alone at table 5,
    where nobody plays against them (the box does not deal to one player)."""
    room = _broken_room(tmp_path, spare=5)
    fold_round(room.boxes[1])
    room.run(1000)
    seats = room.live.tournament.seating()[1]
    chair = min(seats)
    room.live.act("bust", {"names": [seats[chair]]})
    room.run(1000)
    room.live.act("late", {"name": "Ada"})
    assert room.table_of("Ada") == (1, chair)
    for _ in range(2):
        carry_out(room, ("take_out", "receive"))
        room.run(2000)
    assert room.boxes[1].table.stacks[chair] == 5000
    assert room.boxes[1].link.names[str(chair)] == "Ada"
    assert [p for p in room.pending() if p["player"] == "Ada"] == []
    assert room.boxes[5].instructions("receive") == []


def test_a_latecomer_refused_at_a_seat_a_bust_frees_sits_there_once_it_is_free(tmp_path):
    """Every seat taken but the one the TD's bust frees at table 1: the latecomer's receive
    reaches the box before the busted player's take_out (a cable delays lines at random),
    and the box refuses it ("Seat N is taken").  The host seats nobody alone at spare table
    5 (the chaos drill's seeds 20 and 40 left them there, their receive queued for ever):
    once the dealer carries out the take_out, the receive goes again, with the 5000 chips,
    and the box seats the latecomer there."""
    room = _broken_room(tmp_path, spare=5)
    b1 = room.boxes[1]
    fold_round(b1)
    room.run(1000)
    seats = room.live.tournament.seating()[1]
    chair = min(seats)
    room.live.act("bust", {"names": [seats[chair]]})
    room.live.act("late", {"name": "Ada"})
    room.run(1000)
    assert room.table_of("Ada") == (1, chair)
    ada = lambda: [i for i in b1.instructions("receive") if i["name"] == "Ada"]  # noqa: E731
    first = ada()[-1]
    res, why, _ = at_table.carry_out(b1.table, first, b1.link.names, b1.link.table_no)
    assert (res, why) == ("refused", "Seat %d is taken" % chair)
    b1.done(first["id"], res, why)
    room.run(1000)
    assert room.table_of("Ada") == (1, chair) and ada() == [first]
    carry_out(room, ("take_out",))
    room.run(1000)
    again = ada()[-1]
    assert (len(ada()), again["seat"], again["stack"]) == (2, chair, 5000)
    carry_out(room, ("receive",))
    room.run(2000)
    assert b1.table.stacks[chair] == 5000 and b1.link.names[str(chair)] == "Ada"
    assert room.table_of("Ada") == (1, chair)
    assert [ev for ev in room.live.lg.events if ev.action == "move"
            and ev.payload["name"] == "Ada"] == []
    assert [p for p in room.pending() if p["player"] == "Ada"] == []
    assert room.boxes[5].instructions("receive") == []
