"""tdhost.live with real boxes: a box's bust reaches the league exactly once; the plan's
move goes to the source box first and to the destination, with the chips the player left
with, once the source box has carried it out (protocol 1.2), and completes only when both
have; the TD's confirm (with a stack), refusals, withdrawn instructions, and a host
restarted mid-move (an LPPL night: 20 players at three 8-seat tables, docs/host.md "The
live night")."""

import datetime

from hostutil import run
from liveroom import (
    KEY,
    T0_MS,
    Room,
    allin,
    carry_out,
    fold_round,
    moved_by_hand,
    win_hand,
    withdraw_all,
)

from tdhost.links.hoststore import HostStore
from tdhost.live import (
    instruction_log as _ins,
    moves as _moves,
    reactions as _reactions,
    room_plan as _plan,
)


def _busts(live):
    return [ev for ev in live.lg.events if ev.action == "bust" and ev.seq not in live.lg.undone]


def _single_bust_room(tmp_path, before=None):
    """The room after a player at the short table (6 players) busts: 5, 7, 7.  *before*:
    called with the room first."""
    room = Room(tmp_path)
    assert room.sizes() == {1: 6, 2: 7, 3: 7} and room.all_live()
    if before is not None:
        before(room)
    b1 = room.boxes[1]
    seats = sorted(b1.table.stacks)  # [1, 2, 3, 4, 7, 8]
    loser, winner = seats[3], seats[4]
    room.named = dict(b1.link.names)  # (once the bust is in, the box's names follow the league)
    st = allin(b1, [loser], winner)
    assert st["busted"] == [loser] and st["stacks"][str(winner)] >= 6000
    room.run(2000)
    return room, b1, loser


def test_a_box_bust_reaches_the_league_once_even_resent_or_after_a_restart(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    name = room.named[str(loser)]
    busts = _busts(room.live)
    assert len(busts) == 1
    p = busts[0].payload
    assert p["tiers"] == [[name]] and p["by"] == "box" and p["table"] == 1
    assert p["seats"] == {name: loser} and p["src"] == [["tc-01", "0-3"]]
    assert room.live.tournament.get(name).state == "out"
    snap = room.live.snapshot()
    assert snap["players"]["left"] == 19
    assert snap["results"][-1] == {"place": 20, "name": name, "points": None,
                                   "tied": False, "prize": None}

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


def _move_out(room):
    """The one pending move, as its move_out: (its pending row, the instruction as the
    source box got it, the source box)."""
    pend = room.pending()
    outs = [p for p in pend if p["action"] == "move_out"]
    assert len(outs) == 1, pend
    out = outs[0]
    src = room.boxes[out["table"]]
    got = [i for i in src.got if i["id"] == out["id"]]
    assert len(got) == 1
    return out, got[0], src


def _receive(room, out):
    """The receive of the move whose move_out is *out* (pending rows), or None."""
    ins = [p for p in room.pending() if p["action"] == "receive"
           and room.live.tournament.instrs[p["id"]]["move"] == out["id"]]
    assert len(ins) <= 1
    return ins[0] if ins else None


def _notices(room):
    return [x["text"] for x in room.live.snapshot()["log"] if x["action"] == "notice"]


def _moved_with_4250(room, b1):
    """The plan's move after the bust at table 1: the player (3000 chips at plan time) wins
    1,250 in the hand their table deals before its dealer carries out the move_out, leaves
    with 4250 and sits down at table 1.  Returns (move_out row, receive row, the receive
    as table 1's box got it)."""
    out, got_out, src = _move_out(room)
    assert room.live.tournament.instrs[out["id"]]["planned_stack"] == 3000
    win_hand(src, got_out["seat"], 1250)
    assert src.table.stacks[got_out["seat"]] == 3000 + 1250
    room.run(2000)
    assert _receive(room, out) is None and b1.instructions("receive") == []
    assert src.leave(got_out) == 4250
    room.run(2000)
    rcv = _receive(room, out)
    got_in = [i for i in b1.got if i["id"] == rcv["id"]]
    assert len(got_in) == 1
    return out, rcv, got_in[0]


def test_the_move_out_goes_first_and_the_receive_carries_the_chips_the_player_left_with(
        tmp_path):
    """Protocol 1.2: a plan writes only the move_out; the receive follows once the source
    box answers it done, with the stack the player left with -- a player with 3000 chips
    when the move was planned who wins 1,250 in the hand they leave after arrives with
    4250 (the receive used to carry the 3000 of the status before that hand)."""
    room, b1, loser = _single_bust_room(tmp_path)
    assert room.sizes() == {1: 5, 2: 7, 3: 7}
    out, got_out, src = _move_out(room)
    player = out["player"]
    # LPPL ¶45: one player moves to the short table, from a table of 7 to table 1
    assert out["table"] in (2, 3) and out["to_table"] == 1
    old = list(room.table_of(player))
    assert got_out["seat"] == old[1] and got_out["to_table"] == 1
    assert got_out["to_seat"] == out["to_seat"] and out["state"] == "sent"
    # LPPL ¶45 "the player who would next have to post the Big Blind": the seat after the
    # source box's last big blind
    bb = src.table.state()["bb_seat"]
    seats = sorted(src.table.stacks)
    assert got_out["seat"] == next((s for s in seats if s > bb), seats[0])
    # no receive yet: not in the league, not at the destination box
    assert [p["action"] for p in room.pending()] == ["move_out"]
    assert b1.instructions("receive") == []

    out, rcv, got_in = _moved_with_4250(room, b1)
    assert got_in["name"] == player and got_in["from_table"] == old[0]
    assert got_in["seat"] == out["to_seat"] and got_in["stack"] == 4250
    states = {p["action"]: p["state"] for p in room.pending()}
    assert states == {"move_out": "done", "receive": "sent"}
    assert list(room.table_of(player)) == old  # not recorded: the player is on their way
    assert not [ev for ev in room.live.lg.events if ev.action == "move"]
    assert _notices(room) == []

    # the destination seats the player: now the league records the move, once
    b1.do("sit", seat=got_in["seat"], stack=got_in["stack"])
    b1.done(got_in["id"])
    room.run(2000)
    assert b1.table.stacks[got_in["seat"]] == 4250
    assert list(room.table_of(player)) == [1, got_in["seat"]]
    moves = [ev.payload for ev in room.live.lg.events if ev.action == "move"]
    assert len(moves) == 1 and moves[0]["instrs"] == [out["id"], rcv["id"]]
    assert moves[0]["by"] == "boxes"
    snap = room.live.snapshot()
    assert snap["pending"] == []
    assert snap["moves"] == [{"player": player, "from": "%d.%d" % tuple(old),
                              "to": "1.%d" % got_in["seat"], "at_ms": moves[0]["at_ms"]}]
    assert sorted(room.sizes().values()) == [6, 6, 7]
    # both boxes are told the league's names again (tables in play keep their own chips)
    assert b1.link.names[str(got_in["seat"])] == player
    assert str(old[1]) not in src.link.names
    assert src.table.stacks.get(old[1]) is None and b1.table.stacks[got_in["seat"]] == 4250
    room.run(3000)
    assert room.pending() == []  # balanced: no second plan


def test_a_moved_player_takes_the_lppl_allowance_to_the_new_table(tmp_path):
    """LPPL ¶72 "This process is only allowed once per player": the source box's status
    shows who has used the allowance (``away_used``); the move_out keeps it and the
    receive carries it to the destination box, which seats the player with it used."""
    from tcbox.instructions import at_table

    def used_everywhere(room):
        for tb in (2, 3):
            t = room.boxes[tb].table
            for s in t.stacks:
                t.away.reached_stage(s)  # every player there has used it
            assert t.state()["away_used"] == sorted(t.stacks)
        room.run(31000)  # the boxes' next statuses

    room, b1, loser = _single_bust_room(tmp_path, used_everywhere)
    out, got_out, src = _move_out(room)
    assert room.live.tournament.instrs[out["id"]]["away_used"] is True
    assert "away_used" not in got_out  # the source box needs nothing more
    src.leave(got_out)
    room.run(2000)
    rcv = _receive(room, out)
    got_in = [i for i in b1.got if i["id"] == rcv["id"]][0]
    assert got_in["away_used"] is True
    assert at_table.carry_out(b1.table, got_in) == ("done", None, None)
    assert got_in["seat"] in b1.table.state()["away_used"]


def test_a_moved_player_takes_their_warnings_and_penalties_to_the_new_table(tmp_path):
    """LPPL ¶51 "1st time a warning, thereafter automatic fold", TDA 64: the source box's
    status counts each seat's warnings, slow-play warnings and penalty hands; the move_out
    keeps them in the league, the receive carries them to the destination box, and the
    TD's console shows them on the player's row (docs/rules.md §14)."""
    from tcbox.instructions import at_table

    def warned(room):
        for tb in (2, 3):
            t = room.boxes[tb].table
            for s in t.stacks:  # every player there: 2 warnings, 1 for slow play, 3 hands
                t.handle({"do": "warn", "seat": s})
                t.handle({"do": "slow", "seat": s})
                t.handle({"do": "penalty", "seat": s, "hands": 3})
            assert t.state()["slow_play"] == {str(s): 1 for s in t.stacks}
        room.run(31000)  # the boxes' next statuses

    room, b1, loser = _single_bust_room(tmp_path, warned)
    out, got_out, src = _move_out(room)
    player = out["player"]
    record = room.live.tournament.instrs[out["id"]]
    assert (record["warnings"], record["slow_play"], record["penalties"]) == (2, 1, 3)
    row = [r for r in room.live.snapshot()["registration"] if r["name"] == player][0]
    assert row["record"] == {"warnings": 2, "slow_play": 1, "penalties": 3}
    assert row["record_text"] == "2 warnings (1 for slow play), misses 3 more hands"
    assert "warnings" not in got_out  # the source box needs nothing more
    src.leave(got_out)
    room.run(2000)
    rcv = _receive(room, out)
    got_in = [i for i in b1.got if i["id"] == rcv["id"]][0]
    assert (got_in["warnings"], got_in["slow_play"], got_in["penalties"]) == (2, 1, 3)
    assert at_table.carry_out(b1.table, got_in) == ("done", None, None)
    st = b1.table.state()
    seat = str(got_in["seat"])
    assert (st["warnings"][seat], st["slow_play"][seat], st["penalties"][seat]) == (2, 1, 3)


def test_a_player_moved_again_right_after_arriving_carries_their_chips(tmp_path):
    """A player planned to move again before any status shows them at their new table
    (gap 2 of protocol 1.1: the receive had no stack, the box refused it): the move_out's
    planned stack is unknown, the box's answer brings the 4250 they leave with."""
    room, b1, loser = _single_bust_room(tmp_path)
    # table 1 deals on meanwhile (its state's ``busted`` still naming the seat the player
    # will take would make the box report them out when they leave it again)
    fold_round(b1)
    room.run(1000)
    before = room.live.statuses()  # table 1's status without the arriving player
    out, rcv, got_in = _moved_with_4250(room, b1)
    player = out["player"]
    b1.do("sit", seat=got_in["seat"], stack=4250)
    b1.done(got_in["id"])
    room.run(200)
    assert list(room.table_of(player)) == [1, got_in["seat"]]
    # at once a plan sends them on to table 2, planned on the statuses that do not show
    # them at table 1 yet
    free = min(s for s in range(1, 9) if s not in room.live.tournament.seating()[2])
    plan = {"broken": [], "final_table": False, "moves": [
        {"player": player, "from": {"table": 1, "seat": got_in["seat"]},
         "to": {"table": 2, "seat": free}}]}
    room.live.write(lambda t, lg, seq: ([("instr", p, None) for p in _plan.moves(
        lg, t, plan, before, {})[0]], None))
    out2 = [r for r in room.live.tournament.instrs.values() if r["action"] == "move_out"][-1]
    assert out2["player"] == player and out2["planned_stack"] is None
    room.run(1000)
    got_out2 = [i for i in b1.got if i["id"] == out2["id"]][0]
    assert b1.leave(got_out2) == 4250
    room.run(2000)
    rcv2 = [r for r in room.live.tournament.instrs.values() if r["action"] == "receive"][-1]
    assert rcv2["move"] == out2["id"] and rcv2["body"]["stack"] == 4250
    assert [i["stack"] for i in room.boxes[2].got if i["id"] == rcv2["id"]] == [4250]
    assert _notices(room) == []  # the box said it: no guess


def test_a_host_killed_mid_move_keeps_it_and_completes_it(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    src.leave(got_out)
    room.run(2000)
    rcv = _receive(room, out)
    before = room.pending()
    assert [p["action"] for p in before] == ["move_out", "receive"]
    clock = room.live.snapshot()["clock"]

    room.restart()  # a new Live on the same file, new host links
    room.run(100)
    assert [(p["id"], p["state"]) for p in room.pending()] == [
        (p["id"], "done" if p["action"] == "move_out" else p["state"]) for p in before]
    assert room.live.snapshot()["clock"]["level_index"] == clock["level_index"]
    room.run(3000)
    assert b1.link.state == 3  # LIVE again with the new host
    # the restarted host sends the receive again; the box does not show it twice
    got_in = [i for i in b1.got if i["id"] == rcv["id"]]
    assert len(got_in) == 1 and got_in[0]["stack"] == 3000
    b1.do("sit", seat=got_in[0]["seat"], stack=got_in[0]["stack"])
    b1.done(got_in[0]["id"])
    room.run(2000)
    assert list(room.table_of(out["player"])) == [1, got_in[0]["seat"]]
    assert room.pending() == []
    assert len([r for r in room.live.tournament.instrs.values() if r["action"] == "receive"]) == 1


def test_a_done_move_out_without_its_receive_gets_it_at_the_next_poll(tmp_path):
    """The sweep in Live.poll: a league file with a move_out done and no receive (a host
    killed between the two writes) gets the receive -- with the answered stack, or, when
    nobody said the stack, the one the source box showed when the move was planned and a
    notice saying so."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    live = room.live
    live.write(lambda t, lg, seq: ([("instr_result", _ins.result(
        out["id"], "done", "box", "done, written without its receive", stack=4100), None)],
        None))
    assert _receive(room, out) is None
    room.run(1000)
    rcv = live.tournament.instrs[_receive(room, out)["id"]]
    assert rcv["body"]["stack"] == 4100 and rcv["move"] == out["id"]
    assert [i["stack"] for i in b1.got if i["id"] == rcv["id"]] == [4100]
    assert _notices(room) == []

    # the same without a stack (the TD confirmed, saying none): the planned 3000, a notice
    room2, _, _ = _single_bust_room(tmp_path / "two")
    out2, got2, src2 = _move_out(room2)
    room2.live.write(lambda t, lg, seq: ([("instr_result", _ins.result(
        out2["id"], "done", "td", "confirmed, no stack"), None)], None))
    room2.run(1000)
    r2 = room2.live.tournament.instrs[_receive(room2, out2)["id"]]
    assert r2["body"]["stack"] == 3000
    assert _notices(room2) == [
        "table %d: no stack came with %s leaving seat %d; they sit down at table 1 seat %d "
        "with 3000 chips, the stack table %d's box showed when the move was planned: check "
        "them" % (src2.number, out2["player"], got2["seat"], got2["to_seat"], src2.number)]


def test_the_td_confirms_a_move_out_with_the_chips_the_player_left_with(tmp_path):
    """The TD's ``confirm`` of a move_out takes ``stack`` (a whole number from 1): the
    receive carries it.  The dealer carried the move out, but the box's answer never came."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    room.run(1000)
    assert [(p["action"], p["state"]) for p in room.pending()] == [("move_out", "sent")]
    live = room.live
    for bad, why in (({"stack": 0}, "stack must be a whole number from 1"),
                     ({"stack": "lots"}, "stack must be a whole number from 1"),
                     ({"stack": 2.5}, "stack must be a whole number from 1")):
        try:
            live.act("confirm", dict(bad, id=out["id"]))
        except Exception as err:  # noqa: BLE001 -- the type is checked below
            assert type(err).__name__ == "ActionRefused" and str(err) == why
        else:
            raise AssertionError("confirm %s was accepted" % bad)
    res = live.act("confirm", {"id": out["id"], "stack": 2950})
    assert res["text"] == "Confirmed: Move %s: table %d seat %d → table %d seat %d, 2,950 " \
        "chips." % (out["player"], out["table"], out["seat"], out["to_table"], out["to_seat"])
    room.run(1000)
    rcv = _receive(room, out)
    assert rcv["state"] == "sent" and live.tournament.instrs[rcv["id"]]["body"]["stack"] == 2950
    assert [i["stack"] for i in b1.got if i["id"] == rcv["id"]] == [2950]
    try:
        live.act("confirm", {"id": rcv["id"], "stack": 2950})
    except Exception as err:  # noqa: BLE001 -- the type is checked below
        assert type(err).__name__ == "ActionRefused"
        assert str(err) == "a stack goes with a move_out only: %s is a receive" % rcv["id"]
    else:
        raise AssertionError("a stack with a receive was accepted")


def test_a_refused_receive_sends_the_player_back_to_their_seat(tmp_path):
    """The destination box refuses the receive ("Seat N is taken": say a player the TD
    entered out is still at that box) after the player has left: the move is off and the
    player goes back to their league seat with the chips they left with, so box and league
    agree again; a new plan follows."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    chips = src.leave(got_out)
    room.run(2000)
    rcv = _receive(room, out)
    got_in = [i for i in b1.got if i["id"] == rcv["id"]][0]
    assert got_in["stack"] == chips
    b1.done(got_in["id"], "refused", "Seat %d is taken" % got_in["seat"])
    room.run(2000)
    t = room.live.tournament
    assert _ins.state(t.instrs[out["id"]]) == "cancelled"
    assert _ins.state(t.instrs[rcv["id"]]) == "cancelled"
    back = [i for i in src.got if i["action"] == "receive"]
    assert [(i["seat"], i["stack"], i["name"]) for i in back] == [
        (got_out["seat"], chips, out["player"])]
    assert back[0].get("from_table") is None
    assert not [ev for ev in room.live.lg.events if ev.action == "move"]
    src.do("sit", seat=back[0]["seat"], stack=back[0]["stack"])
    src.done(back[0]["id"])
    room.run(3000)
    assert list(room.table_of(out["player"])) == [out["table"], got_out["seat"]]
    assert src.table.stacks[got_out["seat"]] == chips
    again = [p for p in room.pending() if p["action"] == "move_out"]
    assert len(again) == 1  # the tables are still 5, 7, 7: a new plan moves someone


def test_a_walking_player_is_not_moved_by_hand_and_a_refused_receive_sends_them_back(
        tmp_path):
    """The player of the plan's move has left their table when the TD tries to move them
    by hand to another free seat: refused, nothing written (the boxes could not carry it
    out while they walk; the chaos drill's seeds 30 and 104 seated them at two seats).
    Then the destination box refuses the receive: the player sits down again at the seat
    they left, with the chips they left with."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    home = list(room.table_of(out["player"]))
    chips = src.leave(got_out)
    room.run(2000)
    rcv = _receive(room, out)
    got_in = [i for i in b1.got if i["id"] == rcv["id"]][0]
    t = room.live.tournament
    other = [tb for tb in t.seating() if tb not in (out["table"], b1.number)][0]
    free = min(s for s in range(1, 9) if s not in t.seating()[other])
    before = len(room.live.lg.events)
    res = run(["move", out["player"], "%d.%d" % (other, free), "--db", room.db, "--yes"],
              expect=2)
    assert "is on the way to table %d seat %d" % (out["to_table"], out["to_seat"]) in (
        res.stderr or res.output)
    assert len(room.live.lg.events) == before
    room.run(2000)
    b1.done(got_in["id"], "refused", "Seat %d is taken" % got_in["seat"])
    room.run(2000)
    back = [i for i in src.instructions("receive") if i["name"] == out["player"]]
    assert [(i["seat"], i["stack"]) for i in back] == [(home[1], chips)]
    src.do("sit", seat=home[1], stack=chips)
    src.done(back[0]["id"])
    room.run(3000)
    assert src.table.stacks[home[1]] == chips and src.link.names[str(home[1])] == out["player"]
    assert list(room.table_of(out["player"])) == home


def test_a_mover_who_busts_before_leaving_never_reaches_the_new_table(tmp_path):
    """Gap 3 of protocol 1.1: the receive went out with the move_out, so a mover who
    busted at the old table first left a phantom player at the new one.  Now the
    destination hears nothing, and the source box's move_out is withdrawn (once)."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    player, seat = out["player"], got_out["seat"]
    stacks = src.table.stacks
    winner = max((s for s in stacks if s != seat), key=lambda s: (stacks[s], s))
    allin(src, [seat], winner)
    room.run(3000)
    t = room.live.tournament
    assert t.get(player).state == "out"
    assert _ins.state(t.instrs[out["id"]]) == "cancelled"
    assert not [r for r in t.instrs.values() if r["action"] == "receive"]
    assert b1.instructions("receive") == []
    withdraws = [r for r in t.instrs.values() if r["action"] == "withdraw"]
    assert [(r["table"], r["body"]["instr"]) for r in withdraws] == [(src.number, out["id"])]
    assert [i["instr"] for i in src.instructions("withdraw")] == [out["id"]]
    assert not [r for r in t.instrs.values() if r["action"] == "message"]  # 1.1's note
    pend = [p for p in room.pending() if p["action"] == "withdraw"]
    assert [(p["state"], p["player"], p["table"], p["seat"]) for p in pend] == [
        ("sent", player, src.number, seat)]
    # the box's app acts on it at once: the move_out refused, the withdraw done
    withdraw_all(room)
    room.run(2000)
    assert not [p for p in room.pending() if p["action"] == "withdraw"]
    assert _ins.state(room.live.tournament.instrs[withdraws[0]["id"]]) == "done"
    # written once: more polls, the recovery of a restart, and a restart write no other
    room.live.carry_out(_moves.recover(room.live.tournament, room.live.boxes_now()))
    room.restart()
    room.run(3000)
    assert len([r for r in room.live.tournament.instrs.values() if r["action"] == "withdraw"]) == 1


def test_withdraws_only_what_a_box_may_still_show(tmp_path):
    """A cancelled instruction is withdrawn when its box has not answered it done or
    refused and its table has a box: a walking player the TD takes out (their move_out
    done: not withdrawn; the receive: withdrawn from the destination), and nothing at a
    table without a box."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    src.leave(got_out)
    room.run(2000)
    rcv = _receive(room, out)
    room.live.act("bust", {"names": [out["player"]]})
    room.run(1000)
    t = room.live.tournament
    assert {_ins.state(t.instrs[i]) for i in (out["id"], rcv["id"])} == {"cancelled"}
    assert [(r["table"], r["body"]["instr"]) for r in t.instrs.values()
            if r["action"] == "withdraw"] == [(1, rcv["id"])]
    assert [i["instr"] for i in b1.instructions("withdraw")] == [rcv["id"]]
    assert src.instructions("withdraw") == []

    bare = Room(tmp_path / "bare", boxes=False)
    first = bare.live.tournament.seating()[1]
    bare.live.act("bust", {"names": [first[min(first)]]})
    bare.run(1000)
    move = [p for p in bare.pending() if p["action"] == "move_out"]
    assert len(move) == 1 and move[0]["state"] == "queued"
    bare.live.act("bust", {"names": [move[0]["player"]]})
    bare.run(1000)
    instrs = bare.live.tournament.instrs.values()
    assert _ins.state(bare.live.tournament.instrs[move[0]["id"]]) == "cancelled"
    assert not [r for r in instrs if r["action"] == "withdraw"]


def test_a_new_plan_counts_pending_moves_as_made_and_never_moves_their_players(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    # the plan's rule on its own: a move of a player whose move is pending is dropped
    t, lg = room.live.tournament, room.live.lg
    moving = _ins.moving_players(t)
    assert list(moving) == [out["player"]] and len(moving[out["player"]]) == 1
    plan = {"broken": [], "final_table": False, "moves": [
        {"player": out["player"], "from": {"table": 1, "seat": out["to_seat"]},
         "to": {"table": 2, "seat": 2}}]}
    assert _plan.moves(lg, t, plan, {}, moving) == ([], [out["player"]])
    # the room a new plan sees has the mover at the destination already, from the
    # move_out on (the receive does not exist yet)
    room_in = _plan.room(t, room.live.statuses(), 7, moving)
    seats = {tb["table"]: tb["seats"] for tb in room_in["tables"]}
    assert seats[1][str(out["to_seat"])] == out["player"]
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
    for _ in range(2):  # the move_outs, then the receives they bring
        carry_out(room)
        room.run(3000)
    assert room.pending() == [] and sorted(room.sizes().values()) == [6, 6, 6]


def test_a_refused_td_action_changes_nothing(tmp_path):
    room, b1, loser = _single_bust_room(tmp_path)
    live = room.live
    out, _, _ = _move_out(room)
    live.message(2, "a message to table 2")
    room.run(200)
    note = [p["id"] for p in room.pending() if p["action"] == "message"][0]
    before, version = live.snapshot(), live.version
    refusals = [
        ("confirm", {"id": out["id"], "stack": 0}),
        ("confirm", {"id": out["id"], "stack": True}),
        ("confirm", {"id": note, "stack": 2500}),  # a stack goes with a move_out only
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
            assert type(err).__name__ == "ActionRefused", (action, err)
            assert str(err) and "\n" not in str(err)
        else:
            raise AssertionError("%s %s was accepted" % (action, args))
        assert live.snapshot() == before and live.version == version, action
    assert KEY and T0_MS  # the room's constants are what the boxes use


def test_a_player_the_td_busts_while_walking_but_already_seated_is_taken_out(tmp_path):
    """The TD enters out a player walking between tables (move_out done, receive on its
    way), so the host calls the receive off -- but the destination's dealer had seated
    them already and that box's ``done`` comes late.  The box holds a player the league
    has out: in the same write as that answer the host sends it a ``take_out`` of the seat
    (protocol 1.3), and once carried out box and league agree (the 300-table drill's
    seed 2: a phantom with 4,050 chips at table 233)."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    player = out["player"]
    chips = src.leave(got_out)
    room.run(2000)
    rcv = _receive(room, out)
    got_in = [i for i in b1.got if i["id"] == rcv["id"]][0]
    del room.boxes[1]  # table 1's box is not heard for a while ...
    b1.do("sit", seat=got_in["seat"], stack=got_in["stack"])  # ... its dealer seats them
    b1.done(got_in["id"])
    room.live.act("bust", {"names": [player]})
    room.run(2000)
    t = room.live.tournament
    assert _ins.state(t.instrs[rcv["id"]]) == "cancelled"
    assert [r for r in t.instrs.values() if r["action"] == "take_out"] == []  # walking
    room.boxes[1] = b1
    room.run(3000)
    outs = b1.instructions("take_out")
    assert [(i["seat"], i["name"]) for i in outs] == [(got_in["seat"], player)]
    assert b1.table.stacks[got_in["seat"]] == chips  # still there until the dealer confirms
    assert _notices(room) == []
    carry_out(room, ("take_out",))
    room.run(3000)
    assert got_in["seat"] not in b1.table.stacks
    assert sorted(b1.table.stacks) == sorted(room.live.tournament.seating()[1])
    assert _notices(room) == []  # the take-out's report is expected
    assert [p for p in room.pending() if p["action"] == "take_out"] == []


def test_a_bust_undone_while_the_player_walks_seats_them_with_the_chips_they_left_with(
        tmp_path):
    """The TD busts a player who has left their table on a move (move_out done with 3,000
    chips, receive on its way), then undoes the bust: the move stays called off and the
    player sits down again at the seat they left with those 3,000 chips -- not a new
    move_out from a seat the box shows empty, which it refuses, the player's chips then
    nowhere (the chaos drill's seed 10)."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    player = out["player"]
    assert src.leave(got_out) == 3000
    room.run(2000)
    rcv = _receive(room, out)
    assert rcv is not None
    room.live.act("bust", {"names": [player]})
    room.run(2000)
    withdraw_all(room)
    room.run(2000)
    room.live.act("undo", {})
    room.run(3000)
    t = room.live.tournament
    assert t.get(player).state == "in" and list(t.get(player).seat) == [src.number, got_out["seat"]]
    assert [(i["seat"], i["name"]) for i in src.instructions("move_out")] == [
        (got_out["seat"], player)]  # no second move_out
    back = [i for i in src.instructions("receive") if i["name"] == player]
    assert [(i["seat"], i["stack"]) for i in back] == [(got_out["seat"], 3000)]
    carry_out(room, ("receive",))
    room.run(3000)
    assert src.table.stacks[got_out["seat"]] == 3000
    assert sorted(src.table.stacks) == sorted(t.seating()[src.number])
    assert [p for p in room.pending() if p["player"] == player] == []


def test_the_plan_input_names_the_players_who_have_moved_tonight(tmp_path):
    """Issue #13: among plans that move as few players, the plan spares a player who has
    moved tables tonight; the live host tells it who has (every move_out not cancelled)."""
    room, b1, loser = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    name = room.live.tournament.instrs[out["id"]]["player"]
    t = room.live.tournament
    assert _plan.moved_tonight(t) == [name]
    assert _plan.room(t, room.live.statuses(), 1)["moved"] == [name]
    # ... and still once the move is made
    for _ in range(2):
        carry_out(room)
        room.run(2000)
    assert room.pending() == [] \
        and list(room.live.tournament.get(name).seat) == t.instrs[out["id"]]["to"]
    assert _plan.moved_tonight(room.live.tournament) == [name]


def test_a_move_by_hand_into_a_seat_a_move_heads_for_is_refused(tmp_path):
    """`tdhost move` while serve runs: the seat a balancing move is taking a player to is
    refused with one sentence, and nothing is written (chaos seed 163: two players in one
    seat, the TD's choice and the host's)."""
    room, b1, _ = _single_bust_room(tmp_path)
    out, _, _ = _move_out(room)
    to = "%d.%d" % (out["to_table"], out["to_seat"])
    other = next(name for name in room.live.tournament.seating()[2].values()
                 if name != out["player"])
    before = len(room.live.lg.events)
    when = datetime.datetime.fromtimestamp(room.now / 1000, tz=datetime.timezone.utc)
    res = run(["move", other, to, "--db", room.db], now=when, expect=None)
    said = (res.stderr or res.output).strip()
    assert res.exit_code == 2 and said == (
        "tdhost move: refused: table %d seat %d: %s is on the way there (a move under way at "
        "the boxes); choose another seat." % (out["to_table"], out["to_seat"], out["player"]))
    room.run(1000)
    assert len(room.live.lg.events) == before
    # the mover, once they have left their table, is not moved by hand either (chaos
    # seed 104: the league had them at the TD's seat, the boxes at the plan's)
    src = room.boxes[out["table"]]
    assert src.leave(_move_out(room)[1]) == 3000
    room.run(1000)
    free = next(s for s in range(1, 9) if s not in room.live.tournament.seating()[3])
    res = run(["move", out["player"], "3.%d" % free, "--db", room.db], now=when, expect=None)
    assert res.exit_code == 2 and (res.stderr or res.output).strip() == (
        "tdhost move: refused: %s is on the way to table %d seat %d (a move under way at the "
        "boxes): move them once they sit down." % (out["player"], out["to_table"],
                                                   out["to_seat"]))


def test_a_player_sent_back_and_seated_anyway_is_taken_out_of_the_second_seat(tmp_path):
    """A player on their way to table 1 is entered out (the receive is called off), then
    the TD undoes the bust: the host sends them back to the seat they left.  Table 1's
    box had not heard the withdraw: its dealer seats them anyway and answers ``done``.
    They sit twice, with their chips counted twice: the host takes them out of the
    second seat (chaos seed 109: the TD was told to seat them, and 3,000 chips stayed
    on the boxes twice)."""
    room, b1, _ = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    player, home = out["player"], list(room.table_of(out["player"]))
    assert src.leave(got_out) == 3000
    room.run(2000)
    got = [i for i in b1.got if i["id"] == _receive(room, out)["id"]][0]
    del room.boxes[1]  # table 1's box is not heard for a while ...
    room.live.act("bust", {"names": [player]})
    room.run(1000)
    assert room.live.act("undo", {})["text"].startswith("Undone: %s's bust" % player)
    room.run(2000)
    carry_out(room, ("receive",))  # the host sends them back: their old table seats them
    room.run(2000)
    assert src.table.stacks[home[1]] == 3000
    b1.do("sit", seat=got["seat"], stack=got["stack"])  # ... its dealer seats them anyway
    b1.done(got["id"])
    room.boxes[1] = b1
    room.run(3000)
    assert [(i["seat"], i["name"]) for i in b1.instructions("take_out")] == [
        (got["seat"], player)]
    carry_out(room, ("take_out",))
    room.run(2000)
    assert got["seat"] not in b1.table.stacks
    assert list(room.table_of(player)) == home
    assert sorted(b1.table.stacks) == sorted(room.live.tournament.seating()[1])


def test_a_mover_entered_out_on_the_way_is_at_no_box(tmp_path):
    """The player of the plan's move has left their table when the TD enters them out: the
    receive is called off, and no box seats them (``at_box`` None) -- the seat they left
    is not taken out for them, now or after a restart, whoever sits there since (the chaos
    drill's seed 339: a take_out naming them took out the player moved into that seat)."""
    room, b1, _ = _single_bust_room(tmp_path)
    out, got_out, src = _move_out(room)
    player = out["player"]
    assert src.leave(got_out) == 3000
    room.run(2000)
    room.live.act("bust", {"names": [player]})
    room.run(2000)
    t = room.live.tournament
    assert t.get(player).state == "out" and _reactions.at_box(t, player) is None
    assert not [r for r in t.instrs.values() if r["action"] == "take_out"]
    room.restart()
    room.run(3000)
    assert not [r for r in room.live.tournament.instrs.values() if r["action"] == "take_out"]



def test_a_move_by_hand_whose_receive_is_called_off_is_over(tmp_path):
    """`tdhost move` moves a player to another table; they leave their seat (move_out done)
    and the TD busts them on the way: the receive is called off and the move is over -- no
    plan counts them at its destination any more (chaos seed 665: after the bust was undone
    and the host seated them at a seat of its choosing, every plan still had them at the
    move's destination, their real seat looked free, and another player was moved into
    it)."""
    room = Room(tmp_path)
    player, seat, free = moved_by_hand(room, 2, 1)
    room.run(2000)
    src = room.boxes[2]
    (got_out,) = src.instructions("move_out")
    assert src.leave(got_out) == 3000
    room.run(2000)
    assert player in _ins.moving_players(room.live.tournament)
    room.live.act("bust", {"names": [player]})
    room.run(2000)
    t = room.live.tournament
    assert [r["action"] for r in t.instrs.values() if r.get("move") == got_out["id"]
            and _ins.cancelled(r)] == ["receive"]  # (the move_out stays done)
    assert player not in _ins.moving_players(t)
    assert _plan.seating_after_moves(t).get(1, {}).get(free) is None
