"""tdhost.live with real boxes: a box's bust reaches the league exactly once, the plan's
move goes to both boxes and completes only when both have carried it out, the TD's
confirm, refusals, and a host restarted mid-move (an LPPL night: 20 players at three
8-seat tables, docs/host.md "The live night")."""

from liveroom import KEY, T0_MS, Room, allin, carry_out

from tdhost import instructions as _ins, liveplan as _plan
from tdhost.usb import HostStore


def _busts(live):
    return [ev for ev in live.lg.events if ev.action == "bust" and ev.seq not in live.lg.undone]


def _single_bust_room(tmp_path):
    """The room after a player at the short table (6 players) busts: 5, 7, 7."""
    room = Room(tmp_path)
    assert room.sizes() == {1: 6, 2: 7, 3: 7} and room.all_live()
    b1 = room.boxes[1]
    seats = sorted(b1.table.stacks)  # [1, 2, 3, 4, 7, 8]
    loser, winner = seats[3], seats[4]
    st = allin(b1, [loser], winner)
    assert st["busted"] == [loser] and st["stacks"][str(winner)] >= 6000
    room.run(2000)
    return room, b1, loser


def test_a_box_bust_reaches_the_league_once_even_resent_or_after_a_restart(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    name = b1.link.names[str(loser)]
    busts = _busts(room.live)
    assert len(busts) == 1
    p = busts[0].payload
    assert p["tiers"] == [[name]] and p["by"] == "box" and p["table"] == 1
    assert p["seats"] == {name: loser} and p["src"] == [["tc-01", "0-3"]]
    assert room.live.t.get(name).state == "out"
    snap = room.live.snapshot()
    assert snap["players"]["left"] == 19
    assert snap["results"][-1] == {"place": 20, "name": name, "points": None}

    # the box sends the same event again (its outbox lost the ack): the link store dedups
    b1.link._keep(["0-3", "bust", loser, 3000, 1])
    room.run(2000)
    assert len(_busts(room.live)) == 1
    # ... and with a new host link whose store never saw it, the league's (box, id) does
    other = room.reconnect(b1, HostStore(str(tmp_path / "other-links.sqlite")))
    b1.link._keep(["0-3", "bust", loser, 3000, 1])
    room.run(3000)
    assert other.new_events >= 1 and len(_busts(room.live)) == 1
    # ... and after a host restart on the same league file
    room.restart()
    b1.link._keep(["0-3", "bust", loser, 3000, 1])
    room.run(3000)
    assert len(_busts(room.live)) == 1
    assert "0-3" not in [e[0][0] for e in b1.link.outbox]  # acknowledged every time


def _move(room):
    """The one pending move: (move_out, receive) instructions as the boxes got them."""
    pend = room.pending()
    outs = [p for p in pend if p["action"] == "move_out"]
    ins = [p for p in pend if p["action"] == "receive"]
    assert len(outs) == 1 and len(ins) == 1, pend
    out, rcv = outs[0], ins[0]
    src, dst = room.boxes[out["table"]], room.boxes[rcv["table"]]
    got_out = [i for i in src.got if i["id"] == out["id"]]
    got_in = [i for i in dst.got if i["id"] == rcv["id"]]
    assert len(got_out) == 1 and len(got_in) == 1
    return out, rcv, got_out[0], got_in[0], src, dst


def test_the_plans_move_goes_to_both_boxes_and_completes_when_both_are_done(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    assert room.sizes() == {1: 5, 2: 7, 3: 7}
    out, rcv, got_out, got_in, src, dst = _move(room)
    player = out["player"]
    # LPPL ¶45: one player moves to the short table, from a table of 7 to table 1
    assert dst is b1 and rcv["player"] == player and out["table"] in (2, 3)
    old = list(room.table_of(player))
    assert got_out["seat"] == old[1] and got_out["to_table"] == 1
    assert got_in["name"] == player and got_in["from_table"] == old[0]
    assert got_in["seat"] == got_out["to_seat"] and got_in["stack"] == 3000
    # LPPL ¶45 "the player who would next have to post the Big Blind": the seat after the
    # source box's last big blind
    bb = src.table.state()["bb_seat"]
    seats = sorted(src.table.stacks)
    assert got_out["seat"] == next((s for s in seats if s > bb), seats[0])
    assert out["state"] == "sent" and rcv["state"] == "sent"

    # the source table carries it out first: the move is not complete yet
    src.do("leave", seat=got_out["seat"])
    src.done(got_out["id"])
    room.run(2000)
    states = {p["action"]: p["state"] for p in room.pending()}
    assert states == {"move_out": "done", "receive": "sent"}
    assert list(room.table_of(player)) == old
    assert not [ev for ev in room.live.lg.events if ev.action == "move"]

    # the destination seats the player: now the league records the move, once
    dst.do("sit", seat=got_in["seat"], stack=got_in["stack"])
    dst.done(got_in["id"])
    room.run(2000)
    assert list(room.table_of(player)) == [1, got_in["seat"]]
    moves = [ev.payload for ev in room.live.lg.events if ev.action == "move"]
    assert len(moves) == 1 and moves[0]["instrs"] == [out["id"], rcv["id"]]
    assert moves[0]["by"] == "boxes"
    snap = room.live.snapshot()
    assert snap["pending"] == []
    assert snap["moves"] == [{"player": player, "from": "%d.%d" % tuple(old),
                              "to": "1.%d" % got_in["seat"], "at_ms": moves[0]["at_ms"]}]
    assert room.sizes() == {1: 6, 2: 6, 3: 7} or room.sizes() == {1: 6, 2: 7, 3: 6}
    room.run(3000)
    assert room.pending() == []  # balanced: no second plan


def test_a_host_killed_mid_move_keeps_it_and_completes_it(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    out, rcv, got_out, got_in, src, dst = _move(room)
    src.do("leave", seat=got_out["seat"])
    src.done(got_out["id"])
    room.run(2000)
    before = room.pending()
    clock = room.live.snapshot()["clock"]

    room.restart()  # a new Live on the same file, new host links
    room.run(100)
    assert [(p["id"], p["state"]) for p in room.pending()] == [
        (p["id"], "done" if p["action"] == "move_out" else p["state"]) for p in before]
    assert room.live.snapshot()["clock"]["level_index"] == clock["level_index"]
    room.run(3000)
    assert dst.link.state == 3  # LIVE again with the new host
    # the restarted host sends the receive again; the box does not show it twice
    assert len([i for i in dst.got if i["id"] == rcv["id"]]) == 1
    dst.do("sit", seat=got_in["seat"], stack=got_in["stack"])
    dst.done(got_in["id"])
    room.run(2000)
    assert list(room.table_of(out["player"])) == [1, got_in["seat"]]
    assert room.pending() == []


def test_a_refused_receive_waits_for_the_td_who_confirms_it(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    out, rcv, got_out, got_in, src, dst = _move(room)
    dst.done(got_in["id"], "refused", "Seat %d is taken" % got_in["seat"])
    src.do("leave", seat=got_out["seat"])
    src.done(got_out["id"])
    room.run(2000)
    pend = {p["action"]: p for p in room.pending()}
    assert pend["receive"]["state"] == "refused"
    assert pend["receive"]["reason"] == "Seat %d is taken" % got_in["seat"]
    assert not [ev for ev in room.live.lg.events if ev.action == "move"]
    res = room.live.act("confirm", {"id": rcv["id"]})
    assert res == {"ok": True, "text": "Confirmed: %s." % rcv["text"]}
    room.run(200)
    assert list(room.table_of(out["player"])) == [1, got_in["seat"]]
    assert [ev.payload["by"] for ev in room.live.lg.events if ev.action == "move"] == ["td"]


def test_a_new_plan_counts_pending_moves_as_made_and_never_moves_their_players(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    out, rcv, *_ = _move(room)
    # the plan's rule on its own: a move of a player whose move is pending is dropped
    t, lg = room.live.t, room.live.lg
    moving = _ins.moving_players(t)
    assert list(moving) == [out["player"]]
    plan = {"broken": [], "final_table": False, "moves": [
        {"player": out["player"], "from": {"table": 1, "seat": rcv["seat"]},
         "to": {"table": 2, "seat": 2}}]}
    assert _plan.moves(lg, t, plan, {}, moving) == ([], [out["player"]])
    # the room a new plan sees has the mover at the destination already
    room_in = _plan.room(t, room.live.statuses(), 7, moving)
    seats = {tb["table"]: tb["seats"] for tb in room_in["tables"]}
    assert seats[1][str(rcv["seat"])] == out["player"]
    assert out["player"] not in seats[out["table"]].values()
    # another bust at table 1 before the move is made: 4 at table 1 (5 with the arrival)
    stacks = b1.table.stacks
    winner = max(stacks, key=lambda s: (stacks[s], s))
    allin(b1, [min(s for s in stacks if s != winner)], winner)
    room.run(3000)
    assert len(_busts(room.live)) == 2
    pend = room.pending()
    movers = [p["player"] for p in pend if p["action"] == "move_out"]
    assert movers.count(out["player"]) == 1 and len(movers) == 2  # one more, someone else
    carry_out(room)
    room.run(3000)
    assert room.pending() == [] and sorted(room.sizes().values()) == [6, 6, 6]


def test_a_refused_td_action_changes_nothing(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    live = room.live
    before, version = live.snapshot(), live.version
    refusals = [
        ("late", {"name": "Ann"}),                 # registered and playing
        ("bust", {"names": ["Nobody"]}),
        ("bust", {"names": ["Ann", "Bob"], "chips": [100]}),
        ("level", {"level": 99}),
        ("adjust", {"seconds": -7200}),
        ("resume", {}),                            # not paused
        ("confirm", {"id": "i-nothing"}),
        ("hand_for_hand", {"on": False}),          # not on
        ("standby_take", {"name": "Ann", "seat": "one"}),
        ("draw", {"seed": 3}),                     # drawn already
        ("final_draw", {}),                        # 19 players left
        ("fly", {}),
        ("register", {"names": "Ann"}),
    ]
    for action, args in refusals:
        try:
            live.act(action, args)
        except Exception as err:  # noqa: BLE001 -- the type is checked below
            assert type(err).__name__ == "Refused", (action, err)
            assert str(err) and "\n" not in str(err)
        else:
            raise AssertionError("%s %s was accepted" % (action, args))
        assert live.snapshot() == before and live.version == version, action
    assert KEY and T0_MS  # the room's constants are what the boxes use
