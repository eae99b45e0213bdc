"""Ordered seatings on the live night (docs/protocol.md "Ordered seatings"): every seating
and seat instruction carries the table's seating version; a box whose status says it holds
an older one gets the seating again, so a seating lost on the way heals; a seat instruction
goes after the seating it was written against."""

from liveroom import T0_MS, Room, carry_out, fold_round, td_bust_first


def _lose_seatings(box):
    """From now on the seatings the host sends *box* are lost on the way (the link stays
    up: a frame lost as ``--silent-drops`` loses it in the chaos drill); returns the list
    of those lost and a function that ends the losses."""
    lost = []
    send = box.host.send

    def lossy(msg, to=None, first=False):
        if msg.get("kind") == "seating" and lost is not None and not lost[-1:] == [None]:
            lost.append(msg)
            return
        send(msg, to, first)
    box.host.send = lossy

    def mend():
        lost.append(None)
    return lost, mend


def test_a_lost_seating_is_sent_again_when_the_boxs_status_shows_it_behind(tmp_path):
    """A latecomer joins table 1 in play (a ``receive``); once the box has seated them,
    the host sends the table's names -- lost.  The box's next status says the version it
    holds, older than the table's, and the host sends the seating again: the box names
    the latecomer within a heartbeat."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    fold_round(b1)
    room.wait(T0_MS + 6 * 60000 - room.now)
    held = b1.link.sv
    assert isinstance(held, int) and b1.host.sv == held  # its statuses say it
    room.live.act("late", {"name": "Uma"})
    room.run(1000)
    rcv = b1.instructions("receive")
    assert [i["name"] for i in rcv] == ["Uma"] and rcv[0]["sv"] >= held
    lost, mend = _lose_seatings(b1)
    carry_out(room, ("receive",))
    room.run(500)
    assert lost and "Uma" in lost[0]["names"].values()  # the names went, and were lost
    assert "Uma" not in b1.link.names.values()
    mend()
    room.run(10000)
    assert "Uma" in b1.link.names.values()
    assert b1.link.sv == room.live.seating_version(1) == lost[0]["sv"]
    assert b1.host.sv == b1.link.sv


def test_a_seat_instruction_goes_after_the_seating_it_was_written_against(tmp_path):
    """The TD enters out a player at table 2 (a ``take_out`` naming them): the box gets it
    with the table's seating version and holds that seating already, so it takes it at
    once; the box's names are the league's once it is carried out."""
    room = Room(tmp_path)
    b2, seat, name = td_bust_first(room, 2)
    takes = b2.instructions("take_out")
    assert [(i["seat"], i["name"]) for i in takes] == [(seat, name)]
    assert takes[0]["sv"] <= b2.link.sv and b2.link.early == 0
    carry_out(room, ("take_out",))
    room.run(3000)
    assert str(seat) not in b2.link.names and b2.link.sv == room.live.seating_version(2)


def test_a_seat_change_names_the_unanswered_change_of_the_same_seat_before_it():
    """``instruction_log.after``: a receive into table 1 seat 6 goes after the take_out of
    that seat its box has not answered; not after one it answered, nor one called off,
    nor one the TD confirmed (the host sends it no more), nor a change of another seat or
    table."""
    from types import SimpleNamespace

    from tdhost.live import instruction_log as _ins

    def rec(iid, action, table, seat, *results):
        return {"id": iid, "action": action, "table": table, "body": {"seat": seat},
                "results": [{"result": r, "by": by} for r, by in results]}
    instrs = [rec("i-1", "take_out", 1, 6, ("done", "box")),
              rec("i-2", "take_out", 1, 6),
              rec("i-3", "move_out", 1, 5),
              rec("i-4", "take_out", 2, 6),
              rec("i-5", "receive", 1, 6),
              rec("i-6", "message", 1, None),
              rec("i-7", "move_out", 1, 6, ("cancelled", "host")),
              rec("i-8", "take_out", 1, 6),
              rec("i-9", "receive", 1, 6, ("done", "td")),
              rec("i-10", "move_out", 1, 6)]
    t = SimpleNamespace(instrs={r["id"]: r for r in instrs})
    assert _ins.after(t, t.instrs["i-5"]) == "i-2"
    assert _ins.after(t, t.instrs["i-8"]) == "i-5"  # (i-7 called off)
    assert _ins.after(t, t.instrs["i-2"]) is None  # i-1 answered
    assert _ins.after(t, t.instrs["i-3"]) is None
    assert _ins.after(t, t.instrs["i-10"]) == "i-8"  # (i-9 confirmed by the TD: not resent)


def test_a_lost_whole_seating_goes_whole_again(tmp_path):
    """WPH 7: Uma joins table 1 before its first hand; the box builds its table afresh
    from the whole seating (her chips with it).  The TD undoes her entry: the host sends
    the seating whole again -- lost.  Healed, it must go whole once more: a ``keep``
    seating (the names only, before a table's first hand) would leave Uma and her 20,000
    chips on the box while the league has no Uma (chaos seed 154)."""
    room = Room(tmp_path, example="wph", n=15)
    room.run(2000)
    room.live.act("late", {"name": "Uma"})
    room.run(2000)
    table, seat = room.live.tournament.get("Uma").seat
    box = room.boxes[table]
    assert box.table.hands == 0 and box.table.stacks[seat] == 20000  # built from it
    lost, mend = _lose_seatings(box)
    room.live.act("undo", {})
    room.run(500)
    assert lost and str(seat) not in lost[0]["stacks"] and not lost[0].get("keep")
    assert seat in box.table.stacks  # (the undo's seating was lost)
    mend()
    room.run(10000)
    assert seat not in box.table.stacks and str(seat) not in box.link.names
    assert box.link.sv == room.live.seating_version(table)
