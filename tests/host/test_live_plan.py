"""tdhost.live.room_plan: the plan's input on the live night -- pending moves counted as made,
seats offered to standby players kept, each table's button and blinds from its box or, for
a table without one, from the draw (docs/host.md "The live night", §10.5)."""

from hostutil import Night
from liveroom import Room

from tdhost.league.seats import decide_move
from tdhost.live import instruction_log as _ins, room_plan as liveplan
from tdhost.rules import balance


def test_a_seat_offered_to_a_standby_player_is_kept_for_them():
    """LPPL ¶15: 48 players and one standby player; two players out in one hand before
    level 3 free two seats at table 6, one of them offered to the standby player: table 6
    counts 7 (not 6), so no table gives it a player."""
    night = Night().field(48)
    night.standby_add("Sub")
    t = night.t
    a, b = t.seating()[6][1], t.seating()[6][2]
    night.bust(a, b, minutes=10, chips={a: 2000, b: 1000})
    t = night.t
    offered = [(o["seat"], o["freed_by"], k) for o, k in t.offer_pairs()]
    assert offered[0][2] == "sub" and offered[1][2] is None
    kept = offered[0][0]
    room = liveplan.room(t, {}, 1)
    seats = {tb["table"]: tb["seats"] for tb in room["tables"]}
    assert seats[6][str(kept[1])] == liveplan.STANDBY + offered[0][1]
    assert len(seats[6]) == 7 and sum(len(s) for s in seats.values()) == 47
    assert balance.plan(room)["moves"] == []
    # without the standby seat table 6 would be two short and get a player
    six = [tb for tb in room["tables"] if tb["table"] == 6][0]
    six["seats"] = {k: v for k, v in six["seats"].items() if not v.startswith(liveplan.STANDBY)}
    assert len(balance.plan(room)["moves"]) == 1


def test_button_and_blinds_from_the_box_or_from_the_draw():
    night = Night().field(20, seed=7)
    t = night.t
    seats1 = t.seating()[1]
    # a box's status that makes sense is taken as it is
    st = {"button": 7, "sb_seat": 8, "bb_seat": 1}
    assert liveplan.positions(t, 1, seats1, st) == (7, 8, 1)
    assert liveplan.positions(t, 1, seats1, dict(st, sb_seat=None)) == (7, None, 1)
    # no box (or a status that cannot be: the big blind on the button): the first hand's
    # positions from the draw's button
    button = t.draw["tables"]["1"]["button"]
    occupied = sorted(seats1)
    nxt = [s for s in occupied if s > button] + [s for s in occupied if s <= button]
    expect = (button, nxt[0], nxt[1])
    assert liveplan.positions(t, 1, seats1, None) == expect
    assert liveplan.positions(t, 1, seats1, {"button": 3, "sb_seat": 4, "bb_seat": 3}) == expect
    # one player left: the big blind on the next seat, no small blind
    assert liveplan.positions(t, 1, {5: "Ann"}, None) == (5, None, 6)


def test_a_wph_player_joining_is_dealt_in_at_once(tmp_path):
    """WPH 7: "New players entering the tournament ... can get any seat including the small
    or big blind or the button and be dealt in, except between the SB and button".  Table
    1 has seats 2 and 5 free; its last hand had the button on 10, the SB on 1, the BB on 3,
    so the next hand's button is seat 1 and its SB seat 3: seat 2 lies between them.  Every
    draw gives seat 5."""
    room = Room(tmp_path, example="wph", n=25, seed=7, boxes=False)
    t = room.live.tournament
    assert sorted(t.seating()[1]) == [1, 3, 4, 6, 7, 8, 9, 10]
    statuses = {1: {"button": 10, "sb_seat": 1, "bb_seat": 3}}  # each box's last status
    seats = {liveplan.joining_seat(statuses, t, 1, [], salt) for salt in range(30)}
    assert seats == {5}
    # a seat the draw must not give (a pending move heads there) is never the answer
    assert liveplan.joining_seat(statuses, t, 1, [(1, 5)], 0) == 2


def test_a_move_the_league_recorded_counts_as_moved_tonight():
    """Issue #13's tie-break (docs/balancing.md §3): a player the TD moved by hand (the
    league's ``move``) has moved tonight, as a player moved by a plan has."""
    night = Night().field(20)
    t = night.t
    name, (tb, s) = next((e.name, e.seat) for e in t.players.values() if e.seat)
    free = next((x, y) for x in sorted(t.seating()) for y in range(1, 9)
                if y not in t.seating()[x] and x != tb)
    assert liveplan.moved_tonight(t) == []
    night._add("move", decide_move(t, name, list(free)))
    assert liveplan.moved_tonight(night.t) == [name]
    assert liveplan.room(night.t, {}, 1)["moved"] == [name]


def test_a_newcomer_is_not_drawn_into_a_seat_a_box_fills_unasked(tmp_path):
    """A dealer seated somebody the league does not know (the seat check's "the box shows a
    player there"): a latecomer's draw leaves that seat alone -- the box would refuse them
    "Seat N is taken"."""
    from tdhost.live.tables import BoxesNow
    room = Room(tmp_path, example="wph", n=25, seed=7, boxes=False)
    t = room.live.tournament
    seat, _ = liveplan.new_seat(BoxesNow(0, {}, {}, {}), t, "Zed Late", 99)
    tb, chair = seat
    stacks = {str(s): 1000 for s in t.seating()[tb]}
    stacks[str(chair)] = 1500  # the stranger
    boxes = BoxesNow(0, {tb: {"stacks": stacks}}, {}, {})
    assert liveplan.box_filled(boxes.statuses, t) == [(tb, chair)]
    again, _ = liveplan.new_seat(boxes, t, "Zed Late", 99)
    assert again != seat and tuple(again) not in liveplan.taken_seats(t)
    # a spare box's own table (the league seats nobody there) is no reason to avoid it
    assert liveplan.box_filled({42: {"stacks": {"1": 10, "2": 10}}}, t) == []


def test_a_balancing_move_is_not_planned_into_a_seat_a_box_fills_unasked(tmp_path):
    """A plan moves a player into a seat whose box shows a player the league does not
    know: the move keeps its table but gets another free seat there (the box would refuse
    "Seat 8 is taken", the host send them back and the next plan pick that seat again, for
    ever: chaos seed 390); with no other free seat at that table, the move is dropped."""
    room = Room(tmp_path, boxes=False)  # LPPL, 20 players at tables 1-3: 6, 7, 7
    t = room.live.tournament
    seating = t.seating()
    free = sorted(s for s in range(1, 9) if s not in seating[1])
    assert len(free) == 2
    name, chair = seating[2][min(seating[2])], min(seating[2])
    plan = {"moves": [{"player": name, "from": {"table": 2, "seat": chair},
                       "to": {"table": 1, "seat": free[0]}}], "broken": [], "final_table": False}
    stacks = {str(s): 1000 for s in seating[1]}
    assert liveplan.around_box_filled(plan, t, {1: {"stacks": stacks}}) == plan
    stacks[str(free[0])] = 1500  # the stranger
    (move,) = liveplan.around_box_filled(plan, t, {1: {"stacks": stacks}})["moves"]
    assert move["to"] == {"table": 1, "seat": free[1]}
    assert (move["player"], move["from"]) == (name, {"table": 2, "seat": chair})
    stacks[str(free[1])] = 1500  # a second stranger: no seat left at table 1
    assert liveplan.around_box_filled(plan, t, {1: {"stacks": stacks}})["moves"] == []
    # a seat whose player the TD entered out: the box seats the mover once it took them out
    # (chaos seed 24: a table breaking moves everyone, and their seats are no strangers')
    out = seating[1][min(seating[1])]
    room.live.act("bust", {"names": [out]})
    t = room.live.tournament
    assert [r["player"] for r in liveplan.taken_seats(t) and _ins.take_outs(t)] == [out]
    leaving = dict(plan, moves=[dict(plan["moves"][0], to={"table": 1, "seat": min(seating[1])})])
    stacks = {str(s): 1000 for s in seating[1]}
    assert liveplan.around_box_filled(leaving, t, {1: {"stacks": stacks}}) == leaving



def _box_broke(room, table):
    """*table*'s box carried out a ``break_table`` (written with its ``done``)."""
    def broke(tournament, lg, seq):
        payload = _ins.instr(_ins.new_id(lg, tournament, 0), "break_table", table,
                             "break table %d" % table)
        return [("instr", payload, None), ("instr_result", {
            "id": payload["id"], "result": "done", "by": "box", "src": [],
            "text": "table %d: break table %d done" % (table, table)}, None)], None
    room.live.write(broke)

def test_no_balancing_move_goes_to_a_table_its_box_has_broken(tmp_path):
    """A table whose box broke it (its dealer confirmed the break) is kept by a plan when the
    players do not fit at the others -- a bust undone after the break.  Its box refuses
    every player, the host would send them back and the next plan send them again, for
    ever (chaos seed 82): those moves are dropped and the TD is told once who waits there."""
    room = Room(tmp_path, boxes=False)  # LPPL, 20 players at tables 1-3: 6, 7, 7
    t = room.live.tournament
    seating = t.seating()
    name, chair = seating[2][min(seating[2])], min(seating[2])
    into = {"player": name, "from": {"table": 2, "seat": chair}, "to": {"table": 1, "seat": 8}}
    plan = {"moves": [into], "broken": [], "final_table": False}
    assert liveplan.not_into_broken(plan, t, room.live.lg) == (plan, [])
    _box_broke(room, 1)
    t = room.live.tournament
    assert liveplan.box_broken(t) == {1}
    kept, told = liveplan.not_into_broken(plan, t, room.live.lg)
    assert kept["moves"] == []
    (text,) = told
    assert text.startswith("table 1's box broke its table before the plan needed it again")
    assert text.endswith("%s wait there until a seat is free at another table" % " and ".join(
        [", ".join(sorted(seating[1].values())[:-1]), sorted(seating[1].values())[-1]]))
    room.live.write(lambda now, lg, seq: ([("notice", {"text": text, "src": []}, None)], None))
    assert liveplan.not_into_broken(plan, room.live.tournament, room.live.lg)[1] == []


def test_a_plan_that_keeps_a_table_its_box_broke_asks_the_box_to_open_it_again(tmp_path):
    """A bust undone after table 1's dealer confirmed its break: the next plan keeps table 1
    (the players no longer fit at the others).  The host calls the break off and withdraws
    it from the box, which opens the table again while it can (docs/protocol.md "withdraw");
    until the box answers, no move goes there and nothing is said; once it answers ``done``
    the table is in play (chaos seeds 82, 526: players waited at a broken table for ever)."""
    from tdhost.live import plans as _plans
    room = Room(tmp_path, boxes=False)
    t = room.live.tournament
    seating = t.seating()
    _box_broke(room, 1)
    t = room.live.tournament
    (brk,) = [r for r in t.instrs.values() if r["action"] == "break_table"]
    plan_in = {"tables": [{"table": tb, "seats": {str(s): n for s, n in seats.items()}}
                          for tb, seats in sorted(seating.items())]}
    kept = {"moves": [], "broken": [], "final_table": False}
    evs = []
    room.live.write(lambda now, lg, seq: (evs.extend(_plans.reopen(
        now, lg, kept, plan_in, lambda tb: True)) or evs, None))
    t = room.live.tournament
    assert _ins.cancelled(t.instrs[brk["id"]])
    (wd,) = [r for r in t.instrs.values() if r["action"] == "withdraw"]
    assert wd["body"]["instr"] == brk["id"] and wd["table"] == 1
    assert liveplan.box_broken(t) == {1}  # until the box answers
    name = seating[2][min(seating[2])]
    into = {"moves": [{"player": name, "from": {"table": 2, "seat": min(seating[2])},
                       "to": {"table": 1, "seat": 8}}], "broken": [], "final_table": False}
    assert liveplan.not_into_broken(into, t, room.live.lg) == (
        {"moves": [], "broken": [], "final_table": False}, [])  # nothing said yet
    room.live.write(lambda now, lg, seq: ([("instr_result", {
        "id": wd["id"], "result": "done", "by": "box", "src": [],
        "text": "table 1: withdraw done"}, None)], None))
    t = room.live.tournament
    assert liveplan.box_broken(t) == set()
    assert liveplan.not_into_broken(into, t, room.live.lg) == (into, [])
    assert liveplan.room(t, {}, 1)["closed"] == []
