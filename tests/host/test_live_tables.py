"""tdhost.live with real boxes: same-hand busts in the LPPL finishing order, breaking a
table, the final-table redraw (with the chips of players between tables), a move called off
after the player left, and a box reporting seats the league does not know (docs/host.md
"The live night")."""

from liveroom import T0_MS, Room, allin, carry_out, fold_round, win_hand

from tcbox.instructions import at_table
from tdhost.live import instruction_log as _ins, redraw as _redraw
from tdhost.rules import balance, house


def _busts(live):
    return [ev.payload for ev in live.lg.events if ev.action == "bust"
            and ev.seq not in live.lg.undone]


def test_two_busts_in_one_hand_finish_by_chips_at_the_start_of_the_hand(tmp_path):
    """LPPL ¶46 "the player with the highest chip total at the beginning of the hand will be
    awarded the higher finishing position": a latecomer with 2500 chips (LPPL ¶12: 3000
    less the 500 deduction at level 1, after the 5-minute grace) and a player with 3000
    both lose to a bigger stack in one hand."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    fold_round(b1)  # table 1 has dealt: a latecomer comes as a `receive`
    room.wait(T0_MS + 6 * 60000 - room.now)
    res = room.live.act("late", {"name": "Uma"})
    assert res["text"].startswith("Uma joins at table 1 seat ") and "2500 chips (" in res["text"]
    room.run(1000)
    rcv = b1.instructions("receive")
    assert [(i["name"], i["stack"]) for i in rcv] == [("Uma", 2500)]
    carry_out(room, ("receive",))
    room.run(1000)
    assert room.pending() == []  # a latecomer's receive is complete once done
    uma = rcv[0]["seat"]
    assert b1.table.stacks[uma] == 2500
    stacks = b1.table.stacks
    winner = max(stacks, key=lambda s: stacks[s])  # the big blind of the first hand: 3025
    loser = min(s for s in stacks if stacks[s] == 3000)
    lost = b1.link.names[str(loser)]  # (once the bust is in, the box's names follow the league)
    st = allin(b1, [uma, loser], winner)
    assert sorted(st["busted"]) == sorted([uma, loser]) and st["bust_ties"] == []
    room.run(3000)
    busts = _busts(room.live)
    assert len(busts) == 1
    assert busts[0]["tiers"] == [[lost], ["Uma"]]
    assert busts[0]["chips"] == {lost: 3000, "Uma": 2500}
    assert busts[0]["reasons"] == ["%s finishes above Uma: more chips at the start of the hand "
                                   "(3000 to 2500)" % lost]
    snap = room.live.snapshot()
    places = {r["name"]: r["place"] for r in snap["results"]}
    assert places == dict(places, Uma=21, **{lost: 20})


def test_a_latecomer_before_the_tables_first_hand_comes_with_the_seating(tmp_path):
    """Before a table's first hand its box builds the table from the host's seating, so a
    latecomer (LPPL ¶12: 2500 chips at level 1 after the first 5 minutes) arrives in it."""
    room = Room(tmp_path)
    room.wait(T0_MS + 6 * 60000 - room.now)
    room.live.act("late", {"name": "Uma"})
    room.run(1000)
    b1 = room.boxes[1]
    seat = room.table_of("Uma")
    assert seat[0] == 1 and b1.instructions("receive") == []
    assert b1.table.stacks[seat[1]] == 2500 and b1.link.names[str(seat[1])] == "Uma"
    assert room.pending() == []


def test_equal_chips_in_one_hand_finish_by_the_boxs_showdown(tmp_path):
    """LPPL ¶46 "If 'chips' at the beginning of the hand were equal, the player who has the
    best hand ... will be awarded the higher finishing position": the box ranked the
    showdown; the host takes its order instead of asking the TD for the cards."""
    room = Room(tmp_path)
    b2 = room.boxes[2]
    seats = sorted(b2.table.stacks)
    a, b, w = seats[2], seats[3], seats[4]
    na, nb = b2.link.names[str(a)], b2.link.names[str(b)]  # (the names follow the league)
    b2.do("hand")
    while True:
        st = b2.table.state()
        if st["street"] is None or st["action"] is None:
            break
        b2.do("allin" if st["action"] in (a, b, w) else "fold")
    b2.do("showdown", ranking=[[w], [b], [a]])  # b's hand beats a's
    room.run(3000)
    busts = _busts(room.live)
    assert [p["tiers"] for p in busts] == [[[nb], [na]]]
    assert busts[0]["reasons"] == ["%s finishes above %s: both started the hand with 3000 "
                                   "chips; the better hand at the showdown (as the box ranked "
                                   "it)" % (nb, na)]


def test_a_table_breaks_when_the_players_fit_one_table_fewer(tmp_path):
    """17 players at three 8-seat tables (5, 6, 6); one out at table 3 leaves 16 (5, 6, 5):
    closing table 1 or table 3 moves 5 players either way, and LPPL breaks the highest
    number on such a tie (docs/balancing.md); its players fill tables 1 and 2."""
    room = Room(tmp_path, n=17)
    assert room.sizes() == {1: 5, 2: 6, 3: 6}
    b3 = room.boxes[3]
    seats = sorted(b3.table.stacks)
    allin(b3, [seats[0]], seats[-1])
    room.run(3000)
    assert [i["action"] for i in b3.got][:1] == ["break_table"]
    players3 = sorted(room.live.tournament.seating()[3].values())
    outs = b3.instructions("move_out")
    assert sorted(room.live.tournament.seating()[3][i["seat"]] for i in outs) == players3
    assert {i["to_table"] for i in outs} <= {1, 2}
    snap = room.live.snapshot()
    assert snap["broken"] == [3] and [t["broken"] for t in snap["tables"]] == [False, False, True]
    assert room.boxes[1].instructions("receive") == room.boxes[2].instructions("receive") == []
    for _ in range(2):  # the move_outs; then the receives, written once they are done
        carry_out(room, ("break_table", "move_out", "receive"))
        room.run(3000)
    assert room.pending() == []
    assert room.sizes() == {1: 8, 2: 8}
    assert b3.table.stacks == {}


def test_the_final_table_is_redrawn_when_everyone_fits_one_table(tmp_path):
    """LPPL ¶47 "Before the start of any final table players seating positions are to be
    decided by use of the Ace – 8 card system": 9 players at two tables; one out leaves 8,
    one table: the league's final draw, a redraw at both boxes, the other table broken and
    the new seating sent to the final table's box."""
    room = Room(tmp_path, n=9)
    assert sorted(room.sizes().values()) == [4, 5]
    big = max(room.sizes(), key=lambda tb: room.sizes()[tb])
    box = room.boxes[big]
    seats = sorted(box.table.stacks)
    names = dict(box.link.names)
    allin(box, [seats[0]], seats[-1])
    room.run(3000)
    t = room.live.tournament
    assert t.final is not None
    keep = t.final["table"]
    other = ({1, 2} - {keep}).pop()
    assert room.sizes() == {keep: 8}
    for tb in (1, 2):
        assert [i["action"] for i in room.boxes[tb].got if i["action"] == "redraw"] == ["redraw"]
    assert [i["action"] for i in room.boxes[other].got].count("break_table") == 1
    assert room.boxes[keep].instructions("break_table") == []
    assert not t.final.get("seated")  # until both dealers confirmed the redraw
    confirm_final(room)
    room.run(3000)
    t = room.live.tournament
    assert t.final.get("seated")
    final_names = {str(s): n for s, n in t.seating()[keep].items()}
    assert room.boxes[keep].link.names == final_names
    # the stacks the final seating carries are the boxes' chips, not the chips at entry
    stacks = t.final["stacks"]
    assert stacks[names[str(seats[-1])]] == box.table.stacks[seats[-1]] >= 6000
    assert len(stacks) == 8 and sum(stacks.values()) == 9 * 3000
    snap = room.live.snapshot()
    assert snap["final_table"] is True and other in snap["broken"]
    assert not [p for p in room.pending() if p["action"] in ("move_out", "receive")]


def test_events_at_seats_the_league_does_not_know_are_logged_not_applied(tmp_path):
    room = Room(tmp_path)
    b1 = room.boxes[1]
    empty = [s for s in range(1, 9) if s not in b1.table.stacks][0]
    b1.link.event(["away", empty])
    b1.link.event(["bust", empty, 1200, None])
    b1.link.event(["error", "keypad stuck"])
    room.run(5000)
    texts = [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]
    assert texts == [
        "box tc-01 (table 1): away at seat %d, where the league has nobody" % empty,
        "table 1: the box reports seat %d out, where the league has nobody still in" % empty,
        "box tc-01 (table 1) reports: keypad stuck"]
    assert _busts(room.live) == []
    room.restart()
    room.run(3000)
    assert len([x for x in room.live.snapshot()["log"] if x["action"] == "notice"]) == 3


def confirm_final(room):
    """The dealers confirm the final table's instructions on their boxes as tcbox.app.App
    does: tcbox.instructions.at_table.carry_out on the box's table, then the answer."""
    for b in room.boxes.values():
        answered = {e[0] for e in b.link.book.entries if e[1] in ("done", "refused")}
        for ins in b.got:
            if ins["action"] in ("redraw", "break_table") and ins["id"] not in answered:
                result, reason, _ = at_table.carry_out(b.table, ins)
                b.done(ins["id"], result, reason)


def test_the_final_tables_box_plays_on_the_leagues_final_seating(tmp_path):
    """LPPL ¶47 "Before the start of any final table players seating positions are to be
    decided ... as per the start of the tournament": 9 players, one out, the final table
    drawn.  The box that had played hands at its old seats takes the league's final
    seating once its dealer confirms the redraw: the names, the chips the boxes counted,
    the final draw's button; its clock runs on.  The other box is broken."""
    room = Room(tmp_path, n=9)
    big = max(room.sizes(), key=lambda tb: room.sizes()[tb])
    for b in room.boxes.values():
        fold_round(b)  # both boxes play at the old seats
    box = room.boxes[big]
    seats = sorted(box.table.stacks)
    allin(box, [seats[0]], max(seats, key=lambda s: box.table.stacks[s]))
    room.run(3000)
    t = room.live.tournament
    keep = t.final["table"]
    kept = room.boxes[keep].table
    room.wait(4 * 60000)  # the clock moves on before the dealers confirm
    confirm_final(room)
    room.run(2000)
    final = {s: n for s, n in room.live.tournament.seating()[keep].items()}
    new = room.boxes[keep].table
    assert new is not kept and new.hands == 0 and new.hold is None
    assert {s: room.boxes[keep].link.names[str(s)] for s in new.stacks} == final
    assert new.stacks == {s: t.final["stacks"][n] for s, n in final.items()}
    assert sum(new.stacks.values()) == 9 * 3000
    # LPPL's first button without cards: the lowest occupied seat, as if the seats were the
    # cards (docs/host.md §5); the final draw's, and the box's first hand's
    button = t.final["tables"][str(keep)]["button"]
    assert button == min(final) and new.first_button == button
    master = room.live.master()
    assert (new.clock.index, new.clock.paused) == (master.index, master.paused)
    assert abs(new.clock.left_ms - master.left_ms) <= 1000
    box = room.boxes[keep]
    box.do("hand")
    assert box.table.state()["button"] == button
    other = ({1, 2} - {keep}).pop()
    assert room.boxes[other].table.hold == "broken"


def test_the_final_table_seats_each_player_with_their_warnings_and_penalties(tmp_path):
    """Every player at the final table keeps what their old table counted (docs/rules.md
    §14; LPPL ¶51 "1st time a warning, thereafter automatic fold"): the ``final_seated``
    event records it with the chips, the final table's seating carries it per seat, and
    the box that builds the final table has it, whichever table the player came from."""
    room = Room(tmp_path, n=9)
    big = max(room.sizes(), key=lambda tb: room.sizes()[tb])
    given = {}  # player: (warnings, slow-play warnings, penalty hands)
    for tb, b in room.boxes.items():
        fold_round(b)
        for k, s in enumerate(sorted(b.table.stacks)):
            name = b.link.names[str(s)]
            b.do("warn", seat=s)
            if k % 2:
                b.do("slow", seat=s)
            hands = k + 1 if tb != big else 0  # (the big table plays the hand that busts)
            if hands:
                b.do("penalty", seat=s, hands=hands)
            given[name] = (1 + k % 2, k % 2, hands)
    box = room.boxes[big]
    seats = sorted(box.table.stacks)
    allin(box, [seats[0]], max(seats, key=lambda s: box.table.stacks[s]))
    room.run(3000)
    t = room.live.tournament
    keep = t.final["table"]
    confirm_final(room)
    room.run(2000)
    final = room.live.tournament.final
    assert final["seated"]
    new = room.boxes[keep].table
    st = new.state()
    names = room.boxes[keep].link.names
    assert len(new.stacks) == 8
    for s in new.stacks:
        name = names[str(s)]
        warnings, slow, hands = given[name]
        want = {"warnings": warnings}
        want.update({"slow_play": 1} if slow else {})
        want.update({"penalties": hands} if hands else {})
        assert final["records"][name] == want
        assert st["warnings"][str(s)] == warnings
        assert st["penalties"].get(str(s), 0) == hands
        assert st["slow_play"].get(str(s), 0) == slow


def _a_move_into_table_3(room):
    """Busts at table 3, one a hand, until a plan moves a player there; its move_out."""
    b3 = room.boxes[3]
    while not [p for p in room.pending() if p["to_table"] == 3]:
        seats = sorted(b3.table.stacks)
        allin(b3, [seats[0]], seats[-1])
        room.run(3000)
    return [p for p in room.pending() if p["action"] == "move_out" and p["to_table"] == 3][0]


def test_a_breaking_table_cancels_the_moves_still_on_their_way_to_it(tmp_path):
    """A player sent to table 3 has not left yet when the room shrinks to two tables, after
    more busts at table 3: LPPL breaks the table that moves the fewest players, table 3
    (the smallest), so that move is cancelled at both boxes' ends
    (the player would sit down at a breaking table and move again) and the break plan seats
    the player from where they still are; nothing is planned into table 3."""
    room = Room(tmp_path, n=20)
    assert room.sizes()[3] >= 6
    first = _a_move_into_table_3(room)
    mover = first["player"]
    left = sum(room.sizes().values())
    b3 = room.boxes[3]
    while left > 16:  # busts at table 3 (the mover is not there yet): 16 fit two tables
        seats = sorted(b3.table.stacks)
        allin(b3, [seats[0]], seats[-1])
        room.run(3000)
        left -= 1
    snap = room.live.snapshot()
    assert snap["broken"] == [3]
    old = [p for p in snap["pending"] if p["id"] == first["id"]]
    assert old == [] or old[0]["state"] == "cancelled"
    assert not [p for p in snap["pending"] if p["to_table"] == 3
                and p["state"] not in ("cancelled",)]
    assert room.table_of(mover)[0] in (1, 2)  # never seated at table 3


def _frozen(room, box):
    """Take *box* off the room's clock: it neither hears the host nor answers it (a box
    whose answer is on its way) until ``_thaw``."""
    del room.boxes[box.number]


def _thaw(room, box):
    room.boxes[box.number] = box


def _move_to_the_short_table(room):
    """11 players (5 and 6): one out at the table of 5 -> the plan's move from the other
    table (LPPL ¶45).  Returns (the source box, the destination box, its move_out as the
    source box got it)."""
    assert room.sizes() == {1: 5, 2: 6}
    dst, src = room.boxes[1], room.boxes[2]
    seats = sorted(dst.table.stacks)
    allin(dst, [seats[0]], seats[-1])
    room.run(3000)
    outs = src.instructions("move_out")
    assert len(outs) == 1 and outs[0]["to_table"] == 1
    return src, dst, outs[0]


def _bust_down_to_the_final(room, dst, keep):
    """Players at table 1 (*dst*) go out, one a hand, until the final table is drawn;
    *keep*: a seat that stays."""
    while room.live.tournament.final is None:
        seats = sorted(s for s in dst.table.stacks if s != keep)
        allin(dst, [seats[0]], keep)
        room.run(3000)


def test_a_player_walking_between_tables_takes_their_chips_to_the_final_table(tmp_path):
    """The final table is drawn while a mover is between tables (their move_out done with
    4250 chips after winning 1,250, their receive not yet): the draw's stack for them is the
    4250 they left with -- the status of the table they left shows them no more."""
    room = Room(tmp_path, n=11)
    src, dst, out = _move_to_the_short_table(room)
    name = src.link.names[str(out["seat"])]
    win_hand(src, out["seat"], 1250)
    assert src.leave(out) == 4250
    room.run(2000)
    assert [i["stack"] for i in dst.instructions("receive")] == [4250]
    keep = max(dst.table.stacks, key=lambda s: (dst.table.stacks[s], s))
    _bust_down_to_the_final(room, dst, keep)
    t = room.live.tournament
    assert t.final["stacks"][name] == 4250
    assert sum(t.final["stacks"].values()) == 11 * 3000
    final_seat = t.final["seats"][name][1]
    assert "stacks" not in room.live.seating_msg(t.final["table"])  # not before it sits down
    confirm_final(room)
    room.run(3000)
    t = room.live.tournament
    assert t.final["seated"] and t.final["stacks"][name] == 4250
    assert room.live.seating_msg(t.final["table"])["stacks"][str(final_seat)] == 4250
    # the receive at table 1 is called off (withdrawn); the move_out done is not
    w = [r["body"]["instr"] for r in t.instrs.values() if r["action"] == "withdraw"]
    rcv = dst.instructions("receive")[0]["id"]
    assert w == [rcv]


def test_a_move_out_done_after_the_final_draw_brings_its_chips_to_the_final_table(tmp_path):
    """The source box's dealer carried out the move_out (the player won 1,250 first, so
    left with 4250) but its answer comes only after the final table was drawn with the
    3000 its last status showed: the answer's 4250 goes into the final seating."""
    room = Room(tmp_path, n=11)
    src, dst, out = _move_to_the_short_table(room)
    name = src.link.names[str(out["seat"])]
    _frozen(room, src)
    win_hand(src, out["seat"], 1250)
    assert src.leave(out) == 4250
    keep = max(dst.table.stacks, key=lambda s: (dst.table.stacks[s], s))
    _bust_down_to_the_final(room, dst, keep)
    t = room.live.tournament
    assert t.final["stacks"][name] == 3000  # what table 2's box last said
    assert _ins.state(t.instrs[out["id"]]) == "cancelled"
    _thaw(room, src)
    room.run(3000)
    t = room.live.tournament
    assert t.final["stacks"][name] == 4250
    assert [p for p in room.live.lg.events if p.action == "draw" and p.payload.get("final")
            ][0].payload["stacks"][name] == 3000  # the draw as logged is unchanged
    keep_t = t.final["table"]
    final_seat = t.final["seats"][name][1]
    notes = [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]
    assert notes[-1] == ("%s left table 2 seat %d after their move to table 1 seat %d was "
                         "called off: they take their final-table seat with the 4250 chips "
                         "they left with" % (name, out["seat"], out["to_seat"]))
    assert not [r for r in t.instrs.values() if r["action"] == "receive"]
    confirm_final(room)
    room.run(2000)
    assert room.live.tournament.final["seated"]
    assert room.live.seating_msg(keep_t)["stacks"][str(final_seat)] == 4250
    box = room.boxes[keep_t]
    assert box.table.stacks[final_seat] == 4250 and box.link.names[str(final_seat)] == name


def test_a_move_called_off_after_the_player_left_sends_them_back_to_their_seat(tmp_path):
    """The source box carried out a move_out the host had just called off (a new plan broke
    the destination table, after busts there: LPPL breaks the table that moves the fewest
    players when the players fit one fewer); its withdraw came too late ("already carried
    out").  The player, still in, gets a receive back to their league seat with the chips
    the box answered."""
    room = Room(tmp_path, n=20)
    first = _a_move_into_table_3(room)
    mover, src = first["player"], room.boxes[first["table"]]
    b3 = room.boxes[3]
    got = [i for i in src.got if i["id"] == first["id"]][0]
    left = sum(room.sizes().values())
    while left > 16:  # busts at table 3: 16 fit two tables of 8
        seats = sorted(b3.table.stacks)
        if left == 17:  # the last one: the source box carries out the move, unheard
            _frozen(room, src)
            stack = src.leave(got)
        allin(b3, [seats[0]], seats[-1])
        room.run(3000)
        left -= 1
    t = room.live.tournament
    assert 3 in room.live.snapshot()["broken"]
    assert _ins.state(t.instrs[first["id"]]) == "cancelled"
    assert [r["body"]["instr"] for r in t.instrs.values() if r["action"] == "withdraw"
            and r["table"] == src.number] == [first["id"]]
    _thaw(room, src)
    room.run(3000)
    t = room.live.tournament
    assert src.link.book.find(first["id"])[1] == "done"
    back = [r for r in t.instrs.values() if r["action"] == "receive" and r["player"] == mover]
    assert len(back) == 1 and back[0]["move"] is None
    assert back[0]["body"] == {"id": back[0]["id"], "action": "receive", "seat": got["seat"],
                               "name": mover, "stack": stack}
    assert back[0]["table"] == src.number and back[0]["to"] == [src.number, got["seat"]]
    assert back[0]["text"] == ("send %s back to table %d seat %d with %d chips: the move to "
                               "table 3 seat %d was called off after they left" % (
                                   mover, src.number, got["seat"], stack, got["to_seat"]))
    assert [i["stack"] for i in src.instructions("receive")] == [stack]
    # nothing else of theirs pending; the box seats them again, the plan goes on
    mine = [p for p in room.pending() if p["player"] == mover and p["action"] != "withdraw"]
    assert [p["action"] for p in mine] == ["receive"]
    for _ in range(3):
        carry_out(room, ("break_table", "move_out", "receive"))
        room.run(3000)
    assert room.table_of(mover)[0] in (1, 2) and room.pending() == []
    assert room.sizes() == {1: 8, 2: 8}


def test_a_hand_running_through_the_final_draw_busts_the_player_at_its_old_seat(tmp_path):
    """The final table is drawn while the other table still plays a hand: the boxes play
    at their old seats until every table has finished (tdhost.live.final.final_seat), so a
    bust in that hand is the player the box had in that seat -- not whoever the final draw
    put in a seat with the same number -- and the final table sits down with the chips
    the boxes counted after it."""
    room = Room(tmp_path, n=10)
    sizes = room.sizes()
    big = max(sizes, key=lambda tb: sizes[tb])
    small = ({1, 2} - {big}).pop()
    sb, box = room.boxes[small], room.boxes[big]
    old_names = dict(sb.link.names)
    sb.do("hand")  # still running when the final table is drawn
    seats = sorted(box.table.stacks)
    allin(box, [seats[0], seats[1]], seats[-1])  # 10 - 2 = 8: one table
    room.run(3000)
    t = room.live.tournament
    assert t.final is not None and not t.final.get("seated")
    assert "stacks" not in room.live.seating_msg(t.final["table"])
    st = sb.table.state()
    loser = st["action"]
    winner = next(s for s in st["in_hand"] if s != loser)
    while st["street"] is not None and st["action"] is not None:
        sb.do("allin" if st["action"] in (loser, winner) else "fold")
        st = sb.table.state()
    if st["street"] is not None:
        sb.do("showdown", ranking=[[winner], [loser]])
    confirm_final(room)
    room.run(3000)
    t = room.live.tournament
    out = old_names[str(loser)]
    assert t.get(out).state == "out" and t.place_of(out) == "8th"
    assert len(t.remaining()) == 7
    assert t.final["seated"] and out not in t.final["stacks"]
    assert sum(t.final["stacks"].values()) == 10 * 3000
    notes = [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]
    assert notes == []


def test_a_player_refused_after_leaving_a_broken_table_gets_another_seat(tmp_path):
    """Table 3 breaks (17 players at 5, 6, 6; two out in one hand at table 3 leave 15, who
    fit two tables of 8, and table 3 is the smallest) and its players leave it; the box of
    one destination refuses a receive ("Seat N is taken": a player it still holds).  The
    player cannot go back to a broken table, so the host seats them elsewhere at once --
    the league's move (by the host) and a receive of their own with the chips they left
    with, never at the refused seat -- and box and league agree again (the scale drill's
    stranded player, whose broken table was asked to move them out again and again)."""
    room = Room(tmp_path, n=17)
    assert room.sizes() == {1: 5, 2: 6, 3: 6}
    b3 = room.boxes[3]
    seats = sorted(b3.table.stacks)
    allin(b3, seats[:2], seats[-1])
    room.run(3000)
    assert room.live.snapshot()["broken"] == [3]
    left_with = {b3.link.names[str(s)]: c for s, c in b3.table.stacks.items()}
    carry_out(room, ("break_table", "move_out"))
    room.run(3000)
    dst = next(b for b in (room.boxes[1], room.boxes[2]) if b.instructions("receive"))
    refused = dst.instructions("receive")[0]
    name, chips = refused["name"], refused["stack"]
    assert chips == left_with[name]  # what they had at table 3
    dst.done(refused["id"], "refused", "Seat %d is taken" % refused["seat"])
    room.run(3000)
    t = room.live.tournament
    moves = [ev.payload for ev in room.live.lg.events if ev.action == "move"
             and ev.payload["name"] == name]
    assert len(moves) == 1 and moves[0]["by"] == "host" and moves[0]["from"][0] == 3
    new = moves[0]["seat"]
    assert new[0] in (1, 2) and new != [dst.number, refused["seat"]]
    assert list(room.table_of(name)) == new
    mine = [r for r in t.instrs.values() if r["action"] == "receive" and r["player"] == name
            and _ins.state(r) not in ("cancelled", "refused")]
    assert [(r["table"], r["body"]["seat"], r["body"]["stack"], r["move"]) for r in mine] == [
        (new[0], new[1], chips, None)]
    notes = [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]
    assert notes[-1] == (
        "%s left table 3 seat %d, but table %d refused them (Seat %d is taken); table 3 is "
        "broken: seat %s at table %d seat %d with %d chips" % (
            name, moves[0]["from"][1], dst.number, refused["seat"], name, new[0], new[1],
            chips))
    for _ in range(2):  # the other receives, and theirs
        carry_out(room, ("receive",))
        room.run(3000)
    assert room.pending() == []
    assert sorted(room.sizes().values()) == [7, 8]
    for tb in (1, 2):  # every box has a player in each seat the league fills, and no other
        assert sorted(room.boxes[tb].table.stacks) == sorted(room.live.tournament.seating()[tb])
    assert room.boxes[new[0]].table.stacks[new[1]] == chips


def test_the_tds_bust_takes_the_seat_out_at_the_box_and_its_report_is_no_news(tmp_path):
    """The TD enters a player out by hand (`bust`) while the box still seats them: in the
    next write the box gets a ``take_out`` (protocol 1.3) for that seat; the dealer's
    Confirm takes the seat out, and the box's report of the seat out is what the TD asked
    for: no notice (stop 11's scale drill: 83 of its 89 notices were these).  A second
    report of that seat out, with nobody the league knows there, is news."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    seat = sorted(b1.table.stacks)[0]
    name = room.live.tournament.seating()[1][seat]
    res = room.live.act("bust", {"names": [name]})
    assert res["text"].startswith("%s is out: 20th of 20" % name)
    room.run(2000)
    assert [(i["seat"], i.get("name")) for i in b1.instructions("take_out")] == [(seat, name)]
    assert b1.instructions("message") == []
    r = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"][0]
    assert r["text"] == "table 1: take seat %d out (%s is out, entered by the TD)" % (
        seat, name)
    carry_out(room, ("take_out",))
    room.run(3000)
    assert seat not in b1.table.stacks and b1.table.removed == 3000
    assert [x for x in room.live.snapshot()["log"] if x["action"] == "notice"] == []
    assert [p["tiers"] for p in _busts(room.live)] == [[[name]]]  # the TD's, once
    assert [p for p in room.pending() if p["action"] == "take_out"] == []  # done
    b1.link.event(["bust", seat, 1200, None])  # a phantom: nobody sits there
    room.run(3000)
    assert [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"] == [
        "table 1: the box reports seat %d out, where the league has nobody still in" % seat]


def test_an_undone_td_bust_calls_its_take_out_off(tmp_path):
    """The TD undoes a bust entered by mistake before the dealer confirmed the take_out:
    the player plays on, so the take_out is cancelled and withdrawn from the box."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    seat = sorted(b1.table.stacks)[0]
    name = room.live.tournament.seating()[1][seat]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    room.live.act("undo", {})
    room.run(2000)
    r = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"][0]
    assert _ins.state(r) == "cancelled"
    assert [i["instr"] for i in b1.instructions("withdraw")] == [r["id"]]
    assert room.live.tournament.get(name).state == "in" and seat in b1.table.stacks


def _td_bust_in_the_hand(tmp_path):
    """Six minutes in, table 1 deals; the TD enters out a player still in that hand, and
    the dealer confirms the take_out, which waits for the hand's end.  Returns (room, the
    box, the seat, the player, the take_out as the box got it)."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    room.wait(T0_MS + 6 * 60000 - room.now)
    b1.do("hand")
    st = b1.table.state()
    seat = [s for s in st["in_hand"] if s != st["action"]][0]
    name = room.live.tournament.seating()[1][seat]
    room.live.act("bust", {"names": [name]})
    room.run(2000)
    take = b1.instructions("take_out")[0]
    assert at_table.carry_out(b1.table, take) == ("later", None, None)  # in the hand
    b1.done(take["id"], "acknowledged")
    return room, b1, seat, name, take


def test_a_seat_whose_take_out_waits_for_the_hand_is_nobody_elses_until_it_is_done(tmp_path):
    """The TD enters out a player still in the hand at the box: the take_out waits for the
    hand's end.  Meanwhile the seat is not free for a newcomer (the host draws latecomers
    elsewhere), and even a player the TD seats there by hand is not the one the box's
    report of that seat out is about: that report is the take_out, and the newcomer plays
    on (the 300-table drill's seed 2: a player seated elsewhere into such a seat was
    counted out when the dealer took the old player out)."""
    room, b1, seat, name, ins = _td_bust_in_the_hand(tmp_path)
    room.run(2000)
    room.live.act("late", {"name": "Uma"})  # drawn: never that seat
    assert room.table_of("Uma") != (1, seat)
    room.live.act("late", {"name": "Vic", "seat": "1.%d" % seat})  # the TD's choice
    room.run(2000)
    while b1.table.state()["street"] is not None:
        b1.do("fold")
    for iid, res, reason, chips in at_table.settle(b1.table):  # as tcbox.app.App.settle:
        b1.done(iid, res, reason, chips)  # the answer (3000 chips taken out) ...
    b1.link.observe(b1.table.state())  # ... then the box's report of the seat out
    room.run(3000)
    assert seat not in b1.table.stacks and b1.table.busted[-1:] == [seat]
    t = room.live.tournament
    assert t.get("Vic").state == "in" and t.get(name).state == "out"
    assert [p["tiers"] for p in _busts(room.live)] == [[[name]]]  # the TD's only
    assert [x for x in room.live.snapshot()["log"] if x["action"] == "notice"] == []
    rcv = [i for i in b1.instructions("receive") if i["name"] == "Vic"]
    assert [(i["seat"], i["stack"]) for i in rcv] == [(seat, 2500)]


def test_a_seat_whose_take_out_waits_is_still_the_boxes_to_mark_away_and_back(tmp_path):
    """Until the dealer takes the seat out, the box still seats the player the TD entered
    out: its dealer marking them away or back, or calling the clock on them, is expected
    there, not news for the TD (the 300-table drill's notices "away at seat N, where the
    league has nobody").  Once the take_out is done, such an event is news again."""
    room, b1, seat, name, take = _td_bust_in_the_hand(tmp_path)
    for what in ("away", "back", "clock_called"):
        b1.link.event([what, seat])
    room.run(3000)
    assert [x for x in room.live.snapshot()["log"] if x["action"] == "notice"] == []
    while b1.table.state()["street"] is not None:
        b1.do("fold")
    for iid, res, reason, chips in at_table.settle(b1.table):
        b1.done(iid, res, reason, chips)
    b1.link.observe(b1.table.state())  # the report of the seat out: the take_out's
    room.run(3000)
    b1.link.event(["away", seat])
    room.run(3000)
    assert [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"] == [
        "box tc-01 (table 1): away at seat %d, where the league has nobody" % seat]


def test_a_player_the_td_entered_out_who_then_busts_in_the_hand_is_out_once(tmp_path):
    """The TD enters out a player still in the hand, who then loses every chip in it: at
    the hand's end the box finds nothing to take out (``done`` without chips), then reports
    the seat out.  That report is the take_out's (logged as its ``reported`` result), not
    news for the TD (the 300-table drill's notices "the box reports seat N out, where the
    league has nobody still in")."""
    room, b1, seat, name, take = _td_bust_in_the_hand(tmp_path)
    t = b1.table
    winner = [s for s in t.state()["in_hand"] if s != seat][0]
    while t.state()["street"] is not None and t.state()["action"] is not None:
        a = t.state()["action"]  # the box's key presses, looked at after the answers below
        assert t.handle({"do": "allin" if a in (seat, winner) else "fold"}) is None
    if t.state()["street"] is not None:
        assert t.handle({"do": "showdown", "ranking": [[winner], [seat]]}) is None
    assert seat not in t.stacks  # busted in the hand
    answers = at_table.settle(t)
    assert answers == [(take["id"], "done", None, None)]  # nothing left to take out
    for iid, res, reason, chips in answers:
        b1.done(iid, res, reason, chips)
    b1.link.observe(t.state())  # then the seat out
    room.run(3000)
    assert [x for x in room.live.snapshot()["log"] if x["action"] == "notice"] == []
    assert [p["tiers"] for p in _busts(room.live)] == [[[name]]]
    assert "reported" in [x["result"] for x in room.live.tournament.instrs[take["id"]]["results"]]


def test_a_take_out_whose_seat_is_filled_in_the_same_breath_never_swallows_a_later_bust(
        tmp_path):
    """The take_out and a receive into the same seat both wait for the hand's end, and
    the box carries them out together: the seat is taken out and filled again before the
    box looks, so it never reports the take-out (its answer says 3000 chips went out).
    When the newcomer later busts at that seat, that is their bust, not the take-out's
    report (the 60-table drill: a mover's bust was swallowed and the league kept them)."""
    room, b1, seat, name, take = _td_bust_in_the_hand(tmp_path)
    room.live.act("late", {"name": "Vic", "seat": "1.%d" % seat})
    room.run(2000)
    vic = [i for i in b1.instructions("receive") if i["name"] == "Vic"][0]
    assert at_table.carry_out(b1.table, vic) == ("later", None, None)  # behind the take-out
    b1.done(vic["id"], "acknowledged")
    while b1.table.state()["street"] is not None:
        b1.do("fold")
    assert [r[:2] for r in at_table.settle(b1.table)] == [(take["id"], "done"), (vic["id"], "done")]
    b1.done(take["id"], "done", None, 3000)
    b1.done(vic["id"], "done")
    b1.link.observe(b1.table.state())  # the seat full before and after: no report of it
    room.run(3000)
    assert b1.table.stacks[seat] == 2500
    others = sorted(s for s in b1.table.stacks if s != seat)
    allin(b1, [seat], others[-1])  # Vic busts
    room.run(3000)
    t = room.live.tournament
    assert t.get("Vic").state == "out"
    assert [p["tiers"] for p in _busts(room.live)] == [[[name]], [["Vic"]]]
    assert [x for x in room.live.snapshot()["log"] if x["action"] == "notice"] == []


def test_us_free_two_players_joining_a_table_redraw_for_the_deal(tmp_path):
    """US 2: "If 2 or more players are moved to a new table, all players on that table
    re-draw for deal."  21 players at three tables of 7; one out at table 3 leaves 20, and
    table 3 breaks: three of its players join table 1 and three table 2.  Once they have
    sat down, each of those tables gets a ``redraw``; once its dealer confirms it, its box
    builds the table anew from the host's seating -- the same seats and chips, the button
    of a draw for high card -- and deals the next hand from that button; also when the
    host is restarted between the Confirm and the box's next status."""
    room = Room(tmp_path, example="us_free", n=21)
    for tb in (1, 2):
        fold_round(room.boxes[tb])
    b3 = room.boxes[3]
    seats = sorted(b3.table.stacks)
    allin(b3, [seats[0]], seats[-1])
    room.run(3000)
    assert room.live.snapshot()["broken"] == [3]
    for _ in range(2):
        carry_out(room, ("break_table", "move_out", "receive"))
        room.run(3000)
    assert room.sizes() == {1: 10, 2: 10}
    t = room.live.tournament
    redraws = [r for r in t.instrs.values() if r["action"] == "redraw"]
    assert sorted(r["table"] for r in redraws) == [1, 2]
    assert all("everyone re-draws for the deal (US 2)" in r["text"] for r in redraws)
    assert all(r["body"]["deal"] is True for r in redraws)  # the dealer's words: not a final
    before = {tb: (dict(room.boxes[tb].table.stacks), dict(room.boxes[tb].link.names))
              for tb in (1, 2)}
    for tb in (1, 2):  # the dealers confirm: the box's own orders (tcbox.instructions.at_table)
        box = room.boxes[tb]
        ins = box.instructions("redraw")[0]
        result, reason, _ = at_table.carry_out(box.table, ins)
        box.done(ins["id"], result, reason)
        assert box.table.hold == "redraw"
        if tb == 1:
            room.run(3000)
            assert room.boxes[1].table.hands == 0
    # table 2's answer reaches a host that is then killed before its box's next status
    room.step()
    room.restart()
    room.run(3000)
    assert room.pending() == []
    for tb in (1, 2):
        box, r = room.boxes[tb], [r for r in redraws if r["table"] == tb][0]
        stacks, names = before[tb]
        assert box.table.hold is None and box.table.hands == 0
        assert box.table.stacks == stacks and dict(box.link.names) == names
        st = room.live.statuses()[tb]
        sent = _redraw.seating(room.live.tournament, room.live.seed, r["redraw"], tb,
                               dict(st, stacks={str(s): c for s, c in stacks.items()}))
        assert sent["keep"] is True  # the box re-seats its own players and chips
        expect = sent["button"]
        assert box.table.first_button == expect
        box.do("hand")
        assert box.table.state()["button"] == expect


def test_a_single_player_joining_a_table_does_not_redraw():
    """US 2: "If 1 player is put on another table to replace a busted out player, there will
    be no re-draw for the deal"; lppl and wph have no such rule."""
    _, us = house.get("us_free")
    one = {"moves": [{"player": "A", "from": {"table": 1, "seat": 1},
                      "to": {"table": 2, "seat": 3}}], "broken": [], "final_table": False}
    two = {"moves": one["moves"] + [{"player": "B", "from": {"table": 1, "seat": 2},
                                     "to": {"table": 2, "seat": 4}}],
           "broken": [], "final_table": False}
    assert balance.redraw_tables(one, us) == []
    assert balance.redraw_tables(two, us) == [2]
    assert balance.redraw_tables(dict(two, final_table=True), us) == []
    for other in ("lppl", "wph"):
        assert balance.redraw_tables(two, house.get(other)[1]) == []


def test_chips_of_a_player_entered_out_that_the_final_draw_leaves_out_are_said(tmp_path):
    """The TD entered a player out while their box still had them with chips (they won an
    all-in before the take_out came), the final table was drawn, and the box refused the
    take_out once the draw had seated another there: their chips leave play with the draw,
    and the final table's sitting down says so (chaos seed 390).  While that take_out is
    open the final table waits for its answer; a take_out done counts its own chips."""
    from tdhost.live import final as _final
    room = Room(tmp_path, n=10)
    t = room.live.tournament
    tb = min(t.seating())
    seat = min(t.seating()[tb])
    name = t.seating()[tb][seat]
    room.live.act("bust", {"names": [name]})
    t = room.live.tournament
    (take,) = [r for r in _ins.take_outs(t) if r["player"] == name]
    statuses = {tb: {"stacks": {str(seat): 4200}}}
    finalists = [[tb, s] for s in t.seating()[tb]]
    assert _final.left_play(t, statuses, {tb: {}}, [], finalists) is None  # wait for it
    room.live.write(lambda now, lg, seq: (_ins.cancel_all(
        lg, now, [now.instrs[take["id"]]], "the box refused it", lambda x: True), None))
    t = room.live.tournament
    assert _final.left_play(t, statuses, {tb: {}}, [], finalists) == {
        "%d.%d" % (tb, seat): (name, 4200)}
    assert _final.left_play(t, statuses, {tb: {}}, [tb], finalists) == {}  # a late table
    assert _final.left_play(t, statuses, {tb: {}}, [], finalists + [[tb, seat]]) == {}
    assert _final.left_play(t, {tb: {"stacks": {}}}, {tb: {}}, [], finalists) == {}
