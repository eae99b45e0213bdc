"""A box refuses a ``move_out`` or a ``take_out`` and the host resolves it itself where the
fix is certain, in words in the log; what has no certain fix is told to the TD in plain
words (docs/live.md "Instructions").  A refused ``receive`` is tests/host/test_live_moves.py's."""

from hostutil import run
from liveroom import Room, allin, carry_out

from tdhost.live import instruction_log as _ins, moves as _moves, reactions as _reactions


def _notices(room):
    return [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]


def _short_table(tmp_path):
    """After a bust at table 1 (6 players): 5, 7, 7 -- the plan moves one player to table 1.
    Returns (room, the move_out's record, the instruction as its source box got it, that
    box)."""
    room = Room(tmp_path)
    assert room.sizes() == {1: 6, 2: 7, 3: 7}
    b1 = room.boxes[1]
    seats = sorted(b1.table.stacks)
    allin(b1, [seats[3]], seats[4])
    room.run(2000)
    outs = [p for p in room.pending() if p["action"] == "move_out"]
    assert len(outs) == 1
    out = room.live.tournament.instrs[outs[0]["id"]]
    src = room.boxes[out["table"]]
    got = [i for i in src.got if i["id"] == out["id"]][0]
    return room, out, got, src


def test_a_refused_move_out_is_called_off_and_another_player_moves(tmp_path):
    """The source box refuses the move ("Seat 4 is empty": its dealer lost the player):
    the move is off at once, in words, and the host plans again: another player of the
    same table moves to the same seat, not the refused one again."""
    room, out, got, src = _short_table(tmp_path)
    name, frm, to = out["player"], out["from"], out["to"]
    src.done(got["id"], "refused", "Seat %d is empty" % frm[1])
    room.run(2000)
    t = room.live.tournament
    assert _ins.state(t.instrs[out["id"]]) == "cancelled"
    assert _ins.reason(t.instrs[out["id"]]) == "Seat %d is empty" % frm[1]
    assert _notices(room) == [
        "table %d refused to move %s from seat %d to table %d seat %d (Seat %d is empty): "
        "the move is off, and the host plans again without moving %s now" % (
            frm[0], name, frm[1], to[0], to[1], frm[1], name)]
    again = [p for p in room.pending() if p["action"] == "move_out"]
    assert len(again) == 1
    assert again[0]["player"] != name and again[0]["table"] == frm[0]
    assert [again[0]["to_table"], again[0]["to_seat"]] == list(to)
    # the new move is carried out: 6, 6, 7 at the boxes and in the league
    carry_out(room, ("move_out",))
    room.run(2000)
    carry_out(room, ("receive",))
    room.run(2000)
    assert room.pending() == [] and sorted(room.sizes().values()) == [6, 6, 7]
    assert list(room.table_of(name)) == list(frm)  # the refused player stays put


def test_a_move_out_refused_for_another_player_in_the_seat(tmp_path):
    """The box names another player in the seat ("Seat 4 is Ann, not Bo: ask the TD"):
    the same: the move is off and another player goes."""
    room, out, got, src = _short_table(tmp_path)
    frm = out["from"]
    other = [v for k, v in src.link.names.items() if v != out["player"]][0]
    why = "Seat %d is %s, not %s: ask the TD" % (frm[1], other, out["player"])
    src.done(got["id"], "refused", why)
    room.run(2000)
    assert _ins.state(room.live.tournament.instrs[out["id"]]) == "cancelled"
    assert ("(%s): the move is off" % why) in _notices(room)[0]
    again = [p for p in room.pending() if p["action"] == "move_out"]
    assert len(again) == 1 and again[0]["player"] not in (out["player"],)


def test_a_refused_move_recorded_by_hand_is_told_to_the_td(tmp_path):
    """A move the TD recorded by hand (the league has it already) that the source box
    refuses has no certain fix: the TD hears what to ask the dealer, and the move stays
    refused (the league is not changed behind the TD's back)."""
    room = Room(tmp_path)
    seating = room.live.tournament.seating()
    name = seating[2][min(seating[2])]
    free = [s for s in range(1, 9) if s not in seating[1]][0]
    run(["move", name, "1.%d" % free, "--yes", "--db", room.db])
    room.run(2000)
    outs = [p for p in room.pending() if p["action"] == "move_out"]
    assert len(outs) == 1 and outs[0]["player"] == name
    src = room.boxes[2]
    got = [i for i in src.got if i["id"] == outs[0]["id"]][0]
    src.done(got["id"], "refused", "Seat %d is empty" % got["seat"])
    room.run(2000)
    assert _ins.state(room.live.tournament.instrs[got["id"]]) == "refused"
    assert _notices(room) == [
        "table 2 refused to move %s from seat %d to table 1 seat %d (Seat %d is empty), a "
        "move recorded by hand: the league seats %s at table 1 seat %d already. The TD "
        "decides: ask the dealer at table 2 who sits in seat %d" % (
            name, got["seat"], free, got["seat"], name, free, got["seat"])]


def _td_bust(room, table=2):
    """The TD busts the first player of *table*: (name, seat, the take_out as the box got it)."""
    seating = room.live.tournament.seating()
    seat = min(seating[table])
    name = seating[table][seat]
    room.live.act("bust", {"names": [name]})
    room.run(1000)
    got = [i for i in room.boxes[table].instructions("take_out") if i["name"] == name]
    assert len(got) == 1 and got[0]["seat"] == seat
    return name, seat, got[0]


def test_a_take_out_refused_for_a_player_at_no_box_is_closed(tmp_path):
    """The box refuses the TD's take_out ("Seat 1 is Ann, not Bo") and the host seats the
    busted player at no box any more (they had left on a move): the take_out's goal holds,
    it is closed with a sentence."""
    room = Room(tmp_path)
    name, seat, got = _td_bust(room)
    t = room.live.tournament
    take = [r for r in t.instrs.values() if r["action"] == "take_out"][0]
    # the host no longer knows them at a box: say their move_out was carried out (the
    # player walked off with their chips)
    room.live.write(lambda tn, lg, seq: ([("instr", dict(_ins.move_out(
        lg, tn, 0, name, [2, seat], [1, 5], 3000), recorded=False), None)], None))
    out = [r for r in room.live.tournament.instrs.values() if r["action"] == "move_out"][-1]
    room.live.write(lambda tn, lg, seq: ([("instr_result", _ins.result(
        out["id"], "done", "box", "left", stack=3000), None)], None))
    room.run(500)
    room.boxes[2].done(got["id"], "refused", "Seat %d is Somebody Else, not %s: ask the TD"
                       % (seat, name))
    room.run(2000)
    record = room.live.tournament.instrs[take["id"]]
    assert _ins.state(record) == "cancelled"
    assert ("table 2 refused to take seat %d out (Seat %d is Somebody Else, not %s: ask the "
            "TD): %s sits at no box now: nothing to take out" % (seat, seat, name, name)
            ) in _notices(room)


def test_a_take_out_refused_for_a_player_elsewhere_at_the_box_goes_there(tmp_path):
    """The host has the busted player at another seat of that box (a move there carried
    out, not recorded yet) and the box shows chips there: a take_out of that seat, the
    refused one closed."""
    room = Room(tmp_path)
    name, seat, got = _td_bust(room)
    other = max(room.boxes[2].table.stacks)
    room.live.write(lambda tn, lg, seq: ([("instr", dict(_ins.move_out(
        lg, tn, 0, name, [2, seat], [2, other], 3000), recorded=False), None)], None))
    out = [r for r in room.live.tournament.instrs.values() if r["action"] == "move_out"][-1]
    room.live.write(lambda tn, lg, seq: ([("instr_result", _ins.result(
        out["id"], "done", "box", "left", stack=3000), None)], None))
    room.live.write(lambda tn, lg, seq: ([("instr", _ins.receive(lg, tn, 0, out, 3000), None)],
                                         None))
    rcv = [r for r in room.live.tournament.instrs.values() if r.get("move") == out["id"]
           and r["action"] == "receive"][0]
    room.live.write(lambda tn, lg, seq: ([("instr_result", _ins.result(
        rcv["id"], "done", "box", "sat"), None)], None))
    # the box's refusal, as BoxEvents applies it (before the next poll records the move)
    take = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"][0]
    why = "Seat %d is Somebody Else, not %s: ask the TD" % (seat, name)
    room.live.apply(_reactions.refused_take(take, _ins.result(
        take["id"], "refused", "box", "refused", why), room.live.boxes_now()))
    takes = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"]
    assert [(r["body"]["seat"], _ins.state(r)) for r in takes] == [
        (seat, "cancelled"), (other, "queued")]
    assert takes[1]["player"] == name and takes[1]["table"] == 2
    room.run(1000)
    assert [i["seat"] for i in room.boxes[2].instructions("take_out")] == [seat, other]
    assert ("%s sits at table 2 seat %d: taken out there" % (name, other)
            ) in _notices(room)[-1]


def test_a_take_out_refused_where_a_take_out_waits_already_is_closed(tmp_path):
    """A second take_out of the same seat while the first waits for the hand's end: the
    box refuses it ("taken out after this hand already"), and it is closed: the first one
    takes the seat out."""
    room = Room(tmp_path)
    b2 = room.boxes[2]
    b2.do("hand")
    name, seat, got = _td_bust(room)
    carry_out(room, ("take_out",))  # in the hand: waits for its end (acknowledged)
    room.run(1000)
    first = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"][0]
    assert _ins.state(first) == "acknowledged"
    room.live.write(lambda tn, lg, seq: ([("instr", _ins.take_out(
        lg, tn, 0, name, [2, seat], "entered by the TD"), None)], None))
    second = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"][-1]
    room.run(1000)
    b2.done(second["id"], "refused", "Seat %d is taken out after this hand already" % seat)
    room.run(2000)
    assert _ins.state(room.live.tournament.instrs[second["id"]]) == "cancelled"
    assert ("table 2 refused to take seat %d out (Seat %d is taken out after this hand "
            "already): its take-out after this hand waits at the box already" % (seat, seat)
            ) in _notices(room)


def test_a_take_out_refused_for_a_player_still_there_is_told_to_the_td(tmp_path):
    """The box names another player in the seat, and the host still has the busted player
    there: no certain fix; the TD hears what to ask the dealer, in plain words."""
    room = Room(tmp_path)
    name, seat, got = _td_bust(room)
    room.boxes[2].done(got["id"], "refused", "Seat %d is Somebody Else, not %s: ask the TD"
                       % (seat, name))
    room.run(2000)
    take = [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"][0]
    assert _ins.state(take) == "refused"
    assert _notices(room) == [
        "table 2 refused to take seat %d out (Seat %d is Somebody Else, not %s: ask the TD). "
        "The TD decides: ask the dealer who sits in seat %d; if it is %s, who is out, the "
        "dealer takes them out at the box" % (seat, seat, name, seat, name)]


def test_a_refused_move_to_the_same_seat_recorded_by_hand_is_closed(tmp_path):
    """A move the league has to the seat the player holds already ("A move from seat 5 to
    the same seat: ask the TD"): the league and the box agree, so it is closed, in words."""
    room = Room(tmp_path)
    seating = room.live.tournament.seating()
    seat = min(seating[2])
    name = seating[2][seat]

    def build(tn, lg, seq):
        out = _ins.move_out(lg, tn, 0, name, [2, seat], [2, seat], 3000)
        out["recorded"] = True
        return [("instr", out, None)], out
    out = room.live.write(build)
    why = "A move from seat %d to the same seat: ask the TD" % seat
    room.live.apply(_moves.refused_out(out, _ins.result(out["id"], "refused", "box", "refused",
                                                        why), room.live.boxes_now()))
    assert _ins.state(room.live.tournament.instrs[out["id"]]) == "cancelled"
    assert _notices(room)[-1] == (
        "table 2 refused to move %s from seat %d to table 2 seat %d (%s): %s sits at table 2 "
        "seat %d already" % (name, seat, seat, why, name, seat))
    assert list(room.table_of(name)) == [2, seat]
