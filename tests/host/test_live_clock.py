"""tdhost.live: the master clock (pause, resume, level, time added or removed, levels
ending as time passes) on the host and every box, and hand for hand (TDA RP-8) releasing
all tables together only after the last one has finished its hand (docs/host.md "The live
night")."""

from liveroom import Room, carry_out, fold_round

from tdhost.league.refusal import ActionRefused

MIN = 60000


def _boxes_clock(room):
    return {tb: (b.table.clock.index, b.table.clock.paused, b.table.clock.left_ms)
            for tb, b in room.boxes.items()}


def _refused(live, action, args):
    try:
        live.act(action, args)
    except ActionRefused as err:
        return str(err)
    raise AssertionError("%s was accepted" % action)


def test_the_td_moves_the_master_clock_and_every_box_follows(tmp_path):
    room = Room(tmp_path)
    live = room.live
    room.wait(5 * MIN - 1000)  # the room started the clock a second ago
    assert live.snapshot()["clock"]["ms_left"] == 15 * MIN
    res = live.act("pause", {})
    assert res["text"] == "Clock paused at 15:00 of level 1."
    room.run(1000)
    assert {v[:2] for v in _boxes_clock(room).values()} == {(0, True)}
    room.wait(10 * MIN)  # paused: nothing moves, here or at the boxes
    assert live.snapshot()["clock"]["ms_left"] == 15 * MIN
    assert {abs(v[2] - 15 * MIN) <= 500 for v in _boxes_clock(room).values()} == {True}

    res = live.act("adjust", {"seconds": -60})
    assert res["text"] == "Removed 60 s from this level: 14:00 of level 1 left."
    # LPPL: levels are dropped only after the second chip-up (after level 10)
    assert _refused(live, "level", {"level": 3}) == (
        "levels can only be dropped after the chip-up that follows level 10")
    res = live.act("level", {"level": 2})
    assert res["text"] == "Level 2 starts now (clock paused)."
    room.run(1000)
    assert {v[:2] for v in _boxes_clock(room).values()} == {(1, True)}
    assert {v[2] for v in _boxes_clock(room).values()} == {20 * MIN}
    live.act("resume", {})
    room.run(1000)
    assert {v[:2] for v in _boxes_clock(room).values()} == {(1, False)}
    clock = live.snapshot()["clock"]
    assert (clock["level"], clock["sb"], clock["bb"], clock["paused"]) == (2, 50, 100, False)

    # a restarted host reads the same clock from the league file
    room.restart()
    assert room.live.snapshot()["clock"] == clock
    # the level ends as time passes: the host sends the new level to every box at once
    version = room.live.clock_version
    room.wait(20 * MIN)
    assert room.live.clock_version > version
    assert room.live.snapshot()["clock"]["level"] == 3
    assert {v[:2] for v in _boxes_clock(room).values()} == {(2, False)}


def test_hand_for_hand_releases_all_tables_after_the_last_ones_hand(tmp_path):
    room = Room(tmp_path)
    live = room.live
    b1, b2, b3 = room.boxes[1], room.boxes[2], room.boxes[3]
    b2.do("hand")  # table 2 is playing a hand; tables 1 and 3 are between hands
    room.run(1500)
    res = live.act("hand_for_hand", {"on": True})
    assert res["text"].startswith("Hand for hand: tables 1, 2, 3 finish the hand")
    room.run(2000)
    for b in (b1, b2, b3):
        assert [i["action"] for i in b.got] == ["hand_for_hand_start"]
    carry_out(room, ("hand_for_hand_start",))
    snap = live.snapshot()
    assert snap["hand_for_hand"] is True and snap["hand_for_hand_waiting"] == [2]
    ms = snap["clock"]["ms_left"]

    room.restart()  # the wait survives the host
    room.run(2000)
    assert room.live.snapshot()["hand_for_hand_waiting"] == [2]
    live = room.live
    while b2.table.state()["street"] is not None:
        b2.do("fold")
    room.run(2000)
    for b in (b1, b2, b3):
        assert len(b.instructions("next_hand")) == 1, b.number
    carry_out(room, ("next_hand",))

    fold_round(b1)
    fold_round(b3)
    room.run(2000)
    assert live.snapshot()["hand_for_hand_waiting"] == [2]
    assert [len(b.instructions("next_hand")) for b in (b1, b2, b3)] == [1, 1, 1]
    fold_round(b2)
    room.run(2000)
    assert [len(b.instructions("next_hand")) for b in (b1, b2, b3)] == [2, 2, 2]
    assert [ev.payload["round"] for ev in live.lg.events if ev.action == "hfh_release"] == [1, 2]
    # the clock runs on during hand for hand (docs/host.md: no house text says otherwise)
    assert live.snapshot()["clock"]["ms_left"] < ms

    res = live.act("hand_for_hand", {"on": False})
    assert res["text"] == "Hand for hand is over: every table plays on."
    room.run(2000)
    for b in (b1, b2, b3):
        assert len(b.instructions("hand_for_hand_stop")) == 1
    assert live.snapshot()["hand_for_hand"] is False
    assert _refused(live, "hand_for_hand", {"on": False}) == "hand for hand is not on"


def test_a_finished_tournament_s_clock_stops_where_it_stood_at_the_end():
    # the last bust at 20:38 ends the night: the master clock (and so every box's and the
    # big screen's) stands still at that reading from then on, instead of running into the
    # levels of a night that is over
    from hostutil import Night, at

    from tdhost.league.times import to_unix_ms
    n = Night().field(3)
    n.bust("Ann", minutes=30)
    before = n.t.clock_at(to_unix_ms(at(35)))
    assert not before.paused
    n.bust("Bob", minutes=38)
    assert n.t.ended["tiers"] == [["Cat"]]
    end = n.t.clock_at(to_unix_ms(at(38)))
    later = n.t.clock_at(to_unix_ms(at(38 + 90)))
    assert later.paused
    assert (later.index, later.left_ms) == (end.index, end.left_ms)
    # LPPL's levels are 20 minutes: 20:35 is 5:00 before level 3, 20:38 is 2:00 before it
    assert (before.left_ms, later.left_ms) == (5 * MIN, 2 * MIN)
    n.undo()  # the bust taken back: the clock runs again
    assert not n.t.clock_at(to_unix_ms(at(130))).paused
