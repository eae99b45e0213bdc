"""tdhost.live.seatcheck with real boxes: a seat the league fills and its box shows empty
(or the reverse) is told to the TD once it lasts a minute while nothing is under way at
the table, and the TD seats the player at the box again (docs/live.md "The seat
check")."""

import pytest
from liveroom import Room, allin, carry_out, fold_round

from tdhost.league.refusal import ActionRefused
from tdhost.live import seatcheck


def _notices(room):
    return [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]


def _row(room, name):
    return [r for r in room.live.snapshot()["registration"] if r["name"] == name][0]


def _lost(name, seat):
    return ("table 1 seat %d: the league has %s there, but the box shows the seat empty. At "
            "the table: if %s is out, bust them here; if they are playing, their chips are not "
            "on the box: seat them at the box again (their row's \"Seat at the box\")"
            % (seat, name, name))


def test_a_player_the_box_lost_is_told_once_and_seated_at_the_box_again(tmp_path):
    room = Room(tmp_path)
    b1 = room.boxes[1]
    fold_round(b1)
    room.wait(3 * seatcheck.SETTLE_MS)
    assert _notices(room) == []  # boxes and league agree: nothing to tell
    seat = sorted(b1.table.stacks)[0]
    name, stack = b1.link.names[str(seat)], b1.table.stacks[seat]
    b1.do("leave", seat=seat)  # the box loses a player the host never moved
    room.wait(seatcheck.SETTLE_MS - 10000)
    assert _notices(room) == []  # not yet: a status or an event may be about to end it
    room.wait(40000)  # the next heartbeats
    assert _notices(room) == [_lost(name, seat)]
    assert _row(room, name)["not_at_box"] is True
    room.wait(3 * seatcheck.SETTLE_MS)
    assert len(_notices(room)) == 1  # told once
    # the TD counted the chips at the table: the box seats the player again
    res = room.live.act("seat_at_box", {"name": name, "stack": stack})
    assert res["text"] == ("Table 1 seat %d: the box seats %s again with %s chips when the "
                           "dealer confirms." % (seat, name, "{:,}".format(stack)))
    room.run(1000)
    assert [(i["seat"], i["name"], i["stack"]) for i in b1.instructions("receive")] == [
        (seat, name, stack)]
    carry_out(room, ("receive",))
    room.run(1000)
    assert b1.table.stacks[seat] == stack and room.pending() == []
    room.wait(3 * seatcheck.SETTLE_MS)
    assert len(_notices(room)) == 1 and _row(room, name)["not_at_box"] is False


def test_a_player_the_league_does_not_seat_is_told(tmp_path):
    room = Room(tmp_path)
    b1 = room.boxes[1]
    empty = [s for s in range(1, b1.table.n + 1) if s not in b1.table.stacks][0]
    b1.do("sit", seat=empty, stack=2750)  # a seat the host never filled
    room.wait(2 * seatcheck.SETTLE_MS)
    assert _notices(room) == [
        "table 1 seat %d: the box shows a player there with 2,750 chips, but the league "
        "seats nobody there. At the table: ask the dealer who sits in seat %d; if nobody the "
        "league knows, clear the seat at the box (\"Clear seat %d at the box\" in the "
        "instructions)" % (empty, empty, empty)]
    assert not any(r["not_at_box"] for r in room.live.snapshot()["registration"])
    assert room.live.snapshot()["box_only"] == [{"table": 1, "seat": empty, "chips": 2750}]
    # the TD's one click (asked first in the console): the box takes that seat out
    before = sum(b1.table.stacks.values())
    res = room.live.act("clear_seat", {"seat": "1.%d" % empty})
    assert res["text"] == ("Table 1 seat %d: the box takes the player out with their 2,750 "
                           "chips when the dealer confirms; those chips leave play." % empty)
    room.run(1000)
    pend = room.pending()
    assert [(p["action"], p["seat"], p["words"]) for p in pend] == [
        ("take_out", empty, "Table 1: clear seat %d (a player the league does not seat "
                            "there) (waiting for table 1's dealer)" % empty)]
    got = b1.instructions("take_out")
    assert [(i["seat"], i.get("name")) for i in got] == [(empty, None)]
    carry_out(room, ("take_out",))
    room.run(2000)
    assert empty not in b1.table.stacks and sum(b1.table.stacks.values()) == before - 2750
    assert room.pending() == []
    room.wait(3 * seatcheck.SETTLE_MS)
    assert len(_notices(room)) == 1 and room.live.snapshot()["box_only"] == []
    log = [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "instr_result"]
    assert any("clear seat %d" % empty in line for line in log), log


def test_clear_seat_refuses_with_one_sentence(tmp_path):
    """A seat the league fills, a seat the box shows empty, a seat that is no seat: one
    sentence each, nothing written."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    seat = sorted(b1.table.stacks)[0]
    name = b1.link.names[str(seat)]
    empty = [s for s in range(1, b1.table.n + 1) if s not in b1.table.stacks][0]
    before = len(room.live.lg.events)
    for args, why in (
            ({"seat": "1.%d" % seat}, "the league seats %s at table 1 seat %d: clearing the "
             "seat is for a player the league does not know there" % (name, seat)),
            ({"seat": "1.%d" % empty}, "the box at table 1 shows seat %d empty: nothing to "
             "clear" % empty),
            ({"seat": "one"}, "'one' is not a seat: give TABLE.SEAT, e.g. 2.5"),
            ({}, "give seat as TABLE.SEAT")):
        with pytest.raises(ActionRefused) as e:
            room.live.act("clear_seat", args)
        assert str(e.value) == why
    assert len(room.live.lg.events) == before


def test_a_move_under_way_is_not_a_difference(tmp_path):
    """While a move's halves are open the boxes and the league disagree on purpose: the
    player has left one table and not yet sat at the other.  Nothing is told, however long
    the dealer takes to seat them; then the move completes and nothing is told either."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    seats = sorted(b1.table.stacks)
    allin(b1, [seats[3]], seats[4])  # a bust at the short table: a player moves there
    room.run(2000)
    outs = [p for p in room.pending() if p["action"] == "move_out"]
    assert len(outs) == 1
    src = room.boxes[outs[0]["table"]]
    got = [i for i in src.got if i["id"] == outs[0]["id"]][0]
    src.leave(got)  # the player left: the league still seats them at the source table
    room.wait(4 * seatcheck.SETTLE_MS)
    assert [p["action"] for p in room.pending()] == ["move_out", "receive"]
    assert _notices(room) == []
    carry_out(room, ("receive",))
    room.wait(4 * seatcheck.SETTLE_MS)
    assert room.pending() == [] and _notices(room) == []


def test_seat_at_box_refuses_with_one_sentence(tmp_path):
    room = Room(tmp_path)
    b1 = room.boxes[1]
    seat = sorted(b1.table.stacks)[0]
    name = b1.link.names[str(seat)]
    before = len(room.live.lg.events)
    with pytest.raises(ActionRefused) as e:
        room.live.act("seat_at_box", {"name": name, "stack": 3000})
    assert str(e.value) == ("the box at table 1 has a player in seat %d (3,000 chips): ask the "
                            "dealer who sits there" % seat)
    with pytest.raises(ActionRefused) as e:
        room.live.act("seat_at_box", {"name": name})
    assert str(e.value) == ("give the chips %s has at the table (stack), a whole number from 1"
                            % name)
    with pytest.raises(ActionRefused) as e:
        room.live.act("seat_at_box", {"name": "Nobody Here", "stack": 100})
    assert str(e.value) == "Nobody Here is not playing at a seat"
    assert len(room.live.lg.events) == before


def test_a_spare_box_and_a_hand_in_play_are_no_differences():
    """A spare box shows a stand-in table of its own (8 players with 3,000 chips in the
    demo) until the host gives it one: the league seats nobody at its table, so nothing is
    told. During a hand the stacks are not compared either."""
    between = {"street": None, "stacks": {"1": 3000, "2": 3000, "3": 3000}}
    assert seatcheck.differences(7, between, {}) == {}
    assert seatcheck.differences(7, dict(between, street="flop"), {1: "Ann"}) == {}
    found = seatcheck.differences(7, between, {1: "Ann", 4: "Bo"})
    assert sorted(found) == [(7, 2, None), (7, 3, None), (7, 4, "Bo")]
