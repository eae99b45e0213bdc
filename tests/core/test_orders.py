"""The host's instructions carried out at the table (tcbox/instructions/at_table.py): seat
changes through the table's own ``leave``/``sit``, a move confirmed during a
hand carried out as it ends, hand for hand, a broken table, pause/resume,
refusals that change nothing, and all of it through a power cut (the
record).  Then the same through tcbox.app.App: the dealer's Confirm, the
result to the host, the screen.  Portable (CPython and MicroPython)."""

import json

from tableclock import record
from tc_util import do, fold_round, table
from tcbox.app import App
from tcbox.instructions import at_table

EIGHT = {1: 3000, 2: 3000, 3: 3000, 4: 3000, 5: 3000, 6: 3000, 7: 3000, 8: 3000}
MOVE3 = {"id": "i-41", "action": "move_out", "seat": 3, "to_table": 2, "to_seat": 7}
CY5 = {"id": "i-42", "action": "receive", "seat": 5, "name": "Cy", "stack": 4100,
       "from_table": 2}


def _lppl8(stacks=None):
    """LPPL, 8 seats, button 8: the first hand's SB is seat 1, BB seat 2."""
    return table("lppl", dict(stacks or EIGHT), button=8, seats=8)


def _ins(action, iid="i-1", **kw):
    d = {"id": iid, "action": action}
    for k in kw:
        d[k] = kw[k]
    return d


def _snap(t):
    """Everything the power-loss record keeps, without the refusal: what a
    refused instruction must leave as it was."""
    rec = record.dump(t)
    del rec["table"]["error"]
    return json.dumps(rec)


def _refused(t, ins):
    before = _snap(t)
    result, reason, stack = at_table.carry_out(t, ins)
    assert stack is None
    assert result == at_table.REFUSED, (ins, result)
    assert _snap(t) == before, ("a refused instruction changed the table", ins)
    return reason


# ------------------------------------------------------------------ moves
def test_the_player_due_the_big_blind_moves_out_between_hands():
    t = _lppl8()
    do(t, "hand")                                   # button 8, SB 1, BB 2
    fold_round(t)                                   # seat 2 wins the blinds: 3025
    # seat 3 would post the next big blind (LPPL ¶45: that player moves)
    assert at_table.carry_out(t, MOVE3) == ("done", None, 3000)  # the chips taken along
    assert 3 not in t.stacks and t.last == "Seat 3 leaves the table"
    assert t.removed == 0                           # the chips go with the player
    assert sum(t.stacks.values()) == 7 * 3000
    st = do(t, "hand")
    # dead-button rule: BB the next player after seat 2 (seat 4), SB seat 2, button 1
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (1, 2, 4)
    assert [(p["seat"], p["amount"]) for p in st["posts"]] == [(2, 25), (4, 50)]
    # without the move, seat 3 would have posted it
    u = _lppl8()
    do(u, "hand")
    fold_round(u)
    assert do(u, "hand")["bb_seat"] == 3


def test_a_move_confirmed_during_a_hand_is_carried_out_as_it_ends():
    t = _lppl8()
    do(t, "hand")
    do(t, "call")                                   # seat 3 calls 50: it plays the hand out
    assert at_table.carry_out(t, MOVE3) == ("later", None, None)
    assert t.moves == [["i-41", at_table.OUT, 3, 2, 7]] and 3 in t.stacks
    assert at_table.settle(t) == []                   # the hand is still running
    assert _refused(t, dict(MOVE3, id="i-43")) == "Seat 3 already moves after this hand"
    fold_round(t)                                   # the others fold: seat 3 wins 125
    assert t.hand is None and t.stacks[3] == 3000 + 125 - 50
    err = t.handle({"do": "hand"})                  # the core will not deal before the move
    assert err == "First the TD's seat change at seat 3"
    assert at_table.settle(t) == [("i-41", "done", None, 3075)]  # the stack after the hand
    assert 3 not in t.stacks and t.moves == []
    st = do(t, "hand")
    assert st["bb_seat"] == 4 and "3" not in st["stacks"]


def _seat3_short():
    """LPPL, 4 players, seat 3 with 400 chips; the first hand is dealt (SB 1, BB 2: seat 3
    acts first)."""
    t = _lppl8({1: 3000, 2: 3000, 3: 400, 4: 3000})
    do(t, "hand")
    return t


def _seat3_busts(t):
    """Seat 3 moves all in, seat 2 calls and wins: the hand busts seat 3."""
    do(t, "allin")                                  # seat 3: 400
    do(t, "fold")
    do(t, "fold")
    do(t, "call")                                   # seat 2 calls
    while t.state()["street"] != "showdown":
        do(t, "check")
    do(t, "showdown", ranking=[[2], [3]])


def test_a_move_for_a_player_who_busts_in_the_hand_is_refused_at_its_end():
    t = _seat3_short()
    assert at_table.carry_out(t, MOVE3)[0] == "later"
    _seat3_busts(t)
    assert 3 not in t.stacks and t.busted == [3]
    assert at_table.settle(t) == [("i-41", "refused", "Seat 3 is empty", None)]


def test_move_out_of_an_empty_or_unknown_seat_is_refused():
    t = table("lppl", {1: 3000, 2: 3000, 4: 3000}, seats=8)
    assert _refused(t, dict(MOVE3)) == "Seat 3 is empty"
    assert _refused(t, _ins("move_out", seat=9, to_table=2, to_seat=1)) == (
        "There is no seat 9 at this 8-seat table")


def test_a_seat_instruction_naming_another_player_is_refused():
    """The host's seating says seat 4 is Jon and seat 3 is Bo: a take_out or move_out
    naming someone else is not carried out on whoever sits there."""
    names = {"3": "Bo", "4": "Jon"}
    for ins in (dict(OUT4, name="Eve"), dict(MOVE3, name="Eve")):
        t = _lppl8()
        before = _snap(t)
        result, reason, stack = at_table.carry_out(t, ins, names, 1)
        assert (result, stack) == (at_table.REFUSED, None)
        assert reason == "Seat %d is %s, not Eve: ask the TD" % (ins["seat"], names[str(
            ins["seat"])])
        assert _snap(t) == before
    t = _lppl8()
    assert at_table.carry_out(t, OUT4, names, 1) == ("done", None, 3000)  # the right name
    assert at_table.carry_out(t, dict(MOVE3, name="Bo"), names, 1) == ("done", None, 3000)
    assert 3 not in t.stacks and 4 not in t.stacks


def test_a_move_to_the_boxs_own_table_and_seat_is_refused():
    t = _lppl8()
    before = _snap(t)
    move = dict(MOVE3, to_table=2, to_seat=3)
    assert at_table.carry_out(t, move, {}, 2) == (
        at_table.REFUSED, "A move from seat 3 to the same seat: ask the TD", None)
    assert _snap(t) == before
    assert at_table.carry_out(t, move, {}, 1) == ("done", None, 3000)  # from table 1: a move


def test_app_a_take_out_naming_another_player_is_refused_to_the_host():
    app, screen = _app()
    app.parts[0].names = {"4": "Jon"}
    app.instruct(dict(OUT4, name="Eve"))
    app.step(10)
    app.press("ok", False)
    app.step(20)
    assert app.parts[0].sent == [("i-70", "refused", "Seat 4 is Jon, not Eve: ask the TD")]
    assert 4 in app.table.stacks and screen.shown["status"] == "Seat 4 is Jon, not Eve: ask the TD"


# ---------------------------------------------------------------- arrivals
def test_receive_seats_the_player_with_the_stack_from_the_other_table():
    t = _lppl8({1: 3000, 2: 3000, 3: 3000, 4: 3000, 6: 3000, 7: 3000, 8: 3000})
    do(t, "hand")
    fold_round(t)
    assert at_table.carry_out(t, CY5) == ("done", None, None)
    assert t.stacks[5] == 4100 and t.last == "Seat 5 sits down with 4100"
    st = do(t, "hand")                              # button 1, SB 2, BB 3: seat 5 is dealt in
    assert 5 in st["in_hand"] and st["waiting"] == []


def test_receive_into_a_taken_seat_is_refused_and_changes_nothing():
    t = _lppl8()
    do(t, "hand")
    fold_round(t)
    assert _refused(t, dict(CY5)) == "Seat 5 is taken"
    assert t.error == "Seat 5 is taken"             # on the dealer's screen too
    assert _refused(t, _ins("receive", seat=6, name="Bo")) == (
        "No chips given for the player arriving in seat 6: ask the TD")


def test_receive_into_a_seat_whose_player_moves_out_waits_for_the_move():
    t = _lppl8()
    do(t, "hand")
    assert at_table.carry_out(t, MOVE3)[0] == "later"
    assert at_table.carry_out(t, dict(CY5, seat=3)) == ("later", None, None)
    assert _refused(t, dict(CY5, id="i-44", seat=3)) == (
        "Seat 3 is taken by a player arriving after this hand")
    fold_round(t)
    assert at_table.settle(t) == [("i-41", "done", None, 3000), ("i-42", "done", None, None)]
    assert t.stacks[3] == 4100


def test_receive_carries_the_lppl_allowance_with_the_player():
    # LPPL ¶72 "This process is only allowed once per player": a player who reached the
    # every-hand stage at another table arrives with it used (the host's away_used)
    t = _lppl8({1: 3000, 2: 3000, 3: 3000, 4: 3000, 6: 3000, 7: 3000, 8: 3000})
    assert at_table.carry_out(t, dict(CY5, away_used=True)) == ("done", None, None)
    assert t.state()["away_used"] == [5]
    t = _lppl8()
    do(t, "hand")
    assert at_table.carry_out(t, MOVE3)[0] == "later"
    assert at_table.carry_out(t, dict(CY5, seat=3, away_used=True)) == ("later", None, None)
    rec = record.load(record.dump(t))[0]       # a power cut while the move waits
    fold_round(rec)
    assert at_table.settle(rec) == [("i-41", "done", None, 3000), ("i-42", "done", None, None)]
    assert rec.stacks[3] == 4100 and rec.state()["away_used"] == [3]


# ------------------------------------------------- the TD's bust (1.3)
OUT4 = {"id": "i-70", "action": "take_out", "seat": 4, "name": "Jon"}


def test_take_out_between_hands_takes_the_seat_and_its_chips_out_of_play():
    t = _lppl8()
    assert at_table.carry_out(t, OUT4) == ("done", None, 3000)  # the chips taken out
    assert 4 not in t.stacks and t.removed == 3000 and t.busted == [4]
    assert t.last == "Seat 4 is out"
    assert sum(t.stacks.values()) + t.removed == 8 * 3000
    # again (a second take_out, or the dealer took the seat out by hand): nothing to do
    assert at_table.carry_out(t, dict(OUT4, id="i-71")) == ("done", None, None)
    assert t.removed == 3000


def test_take_out_of_a_seat_in_the_hand_waits_for_its_end_and_a_receive_behind_it():
    t = _lppl8()
    do(t, "hand")                                   # SB 1, BB 2: seat 4 is in the hand
    assert at_table.carry_out(t, OUT4) == ("later", None, None)
    assert t.moves == [["i-70", at_table.TAKE, 4, None, None]] and t.stacks[4] == 3000
    assert _refused(t, dict(OUT4, id="i-72")) == "Seat 4 is taken out after this hand already"
    # a mover sent to that seat sits down once it is free
    assert at_table.carry_out(t, dict(CY5, seat=4)) == ("later", None, None)
    fold_round(t)
    assert t.handle({"do": "hand"}) == "First the TD's take-out at seat 4"
    assert at_table.settle(t) == [("i-70", "done", None, 3000), ("i-42", "done", None, None)]
    assert t.stacks[4] == 4100 and t.removed == 3000 and t.moves == []


def test_take_out_of_a_seat_busted_in_the_hand_is_done_with_nothing_left_to_do():
    t = _seat3_short()
    assert at_table.carry_out(t, dict(OUT4, seat=3))[0] == "later"
    _seat3_busts(t)                                 # the hand busts seat 3 itself
    assert 3 not in t.stacks and t.busted == [3] and t.removed == 0
    assert at_table.settle(t) == [("i-70", "done", None, None)]
    assert t.busted == [3] and t.removed == 0       # not taken out twice


# ------------------------------------------------- chips the TD removes
# LPPL ¶14: "anyone not seated at the 'shuffle up and deal' call will have the
# appropriate number of chips removed from their stack by the TD (500 during
# 1st blind level) after 5 minutes" ... "a further 1000 chips will be removed"
LATE3 = {"id": "i-60", "action": "deduct", "seat": 3, "chips": 500}


def test_deduct_between_hands_removes_the_chips_from_play():
    t = _lppl8()
    do(t, "tick", s=300)                            # 5 minutes into level 1
    assert at_table.carry_out(t, LATE3) == ("done", None, None)
    assert t.stacks[3] == 2500 and t.removed == 500
    assert t.last == "Seat 3: 500 chips removed from play"
    assert sum(t.stacks.values()) + t.removed == 8 * 3000
    do(t, "tick", s=900)                            # level 2: a further 1000
    assert t.state()["level"] == 2
    assert at_table.carry_out(t, dict(LATE3, id="i-61", chips=1000))[0] == "done"
    assert t.stacks[3] == 1500 and t.removed == 1500


def test_deduct_for_a_seat_in_the_hand_waits_for_its_end():
    # seat 3 registered but not seated: dealt in, away (LPPL ¶14 blinds when due)
    t = table("lppl", dict(EIGHT), button=8, seats=8, absent=[3])
    do(t, "hand")                                   # SB 1, BB 2: seat 3 is dealt in
    assert 3 in t.hand.dealt
    assert at_table.carry_out(t, LATE3) == ("later", None, None)
    assert t.moves == [["i-60", at_table.DEDUCT, 3, 500, None]] and t.stacks[3] == 3000
    fold_round(t)
    assert t.handle({"do": "hand"}) == "First the TD's chip removal at seat 3"
    assert at_table.settle(t) == [("i-60", "done", None, None)]
    assert t.stacks[3] == 2500 and t.removed == 500 and t.moves == []


def test_deduct_for_a_seat_sitting_the_hand_out_is_done_at_once_and_kept_by_a_misdeal():
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000, 4: 3000}, button=3, seats=8)
    do(t, "hand")                                   # button 3, SB 4, BB 1
    fold_round(t)
    do(t, "sit", seat=5, stack=2500)
    st = do(t, "hand")                              # button 4, SB 1: seat 5 waits
    assert st["waiting"] == [5] and 5 not in t.hand.dealt
    assert at_table.carry_out(t, dict(LATE3, seat=5)) == ("done", None, None)
    assert t.stacks[5] == 2000 and t.removed == 500
    do(t, "call")                                   # seat 3 calls ...
    st = do(t, "undo")                              # ... undone: the hand dealt again
    assert st["stacks"]["5"] == 2000 and st["action"] == 3
    t, _ = record.load(record.decode(record.encode(record.dump(t), 3)))  # a power cut
    st = do(t, "misdeal")                           # the deal again: the removal stays
    assert st["stacks"]["5"] == 2000 and st["error"] is None and t.removed == 500


def test_deduct_refusals_change_nothing():
    t = _lppl8({1: 3000, 2: 3000, 3: 400, 4: 3000})
    assert _refused(t, LATE3) == "Seat 3 has only 400 chips: ask the TD"
    assert _refused(t, dict(LATE3, chips=400)) == "Seat 3 has only 400 chips: ask the TD"
    assert _refused(t, dict(LATE3, seat=5)) == "Seat 5 is empty"
    assert _refused(t, dict(LATE3, seat=9)) == "There is no seat 9 at this 8-seat table"
    for bad in (0, -5, None, True, 2.5, "5OO"):
        assert _refused(t, dict(LATE3, chips=bad)) == (
            "No chips given to remove from seat 3: ask the TD")
    assert at_table.carry_out(t, dict(LATE3, chips=399))[0] == "done"
    assert t.stacks[3] == 1


def test_a_waiting_deduct_is_refused_when_the_hand_left_too_few_chips():
    t = _lppl8({1: 3000, 2: 3000, 3: 400, 4: 3000})
    do(t, "hand")                                   # SB 1, BB 2: seat 3 acts first
    do(t, "call")                                   # seat 3: 350 behind
    assert at_table.carry_out(t, dict(LATE3, chips=400))[0] == "later"
    do(t, "fold")
    do(t, "fold")                                   # seats 4 and 1 fold, seat 2 checks
    while t.state()["street"] != "showdown":
        do(t, "check")
    do(t, "showdown", ranking=[[2], [3]])
    assert t.stacks[3] == 350
    assert at_table.settle(t) == [("i-60", "refused", "Seat 3 has only 350 chips: ask the TD",
                                 None)]
    assert t.stacks[3] == 350 and t.removed == 0


def test_a_deduct_goes_before_the_seats_own_move_and_the_move_carries_the_rest():
    t = _lppl8()
    do(t, "hand")
    do(t, "call")                                   # seat 3 calls 50
    assert at_table.carry_out(t, MOVE3)[0] == "later"
    assert at_table.carry_out(t, LATE3)[0] == "later"
    assert [m[0] for m in t.moves] == ["i-60", "i-41"]
    fold_round(t)                                   # seat 3 wins 125: 3075
    assert at_table.settle(t) == [("i-60", "done", None, None), ("i-41", "done", None, 2575)]
    assert 3 not in t.stacks and t.removed == 500
    assert sum(t.stacks.values()) == 7 * 3000 - 75   # 2575 went to table 2


def test_withdraw_takes_a_waiting_change_out_of_the_tables_moves():
    t = _lppl8()
    do(t, "hand")
    at_table.carry_out(t, MOVE3)
    at_table.carry_out(t, LATE3)
    w = _ins("withdraw", "i-70", instr="i-41")
    assert at_table.carry_out(t, w) == ("done", None, None)
    assert t.moves == [["i-60", at_table.DEDUCT, 3, 500, None]]
    assert _refused(t, w) == "Instruction i-41 does not wait at this table"
    fold_round(t)
    assert at_table.settle(t) == [("i-60", "done", None, None)]
    assert t.stacks[3] == 2500                      # deducted, still seated


# ----------------------------------------------------------- hand for hand
def test_hand_for_hand_one_hand_per_next_hand():
    t = _lppl8()
    assert at_table.carry_out(t, _ins("hand_for_hand_start")) == ("done", None, None)
    before = _snap(t)
    assert t.handle({"do": "hand"}) == "Hand for hand: wait for the TD"
    assert _snap(t) == before
    assert at_table.carry_out(t, _ins("next_hand", "i-3")) == ("done", None, None)
    assert at_table.carry_out(t, _ins("next_hand", "i-4")) == ("done", None, None)  # one hand
    do(t, "hand")
    fold_round(t)
    assert t.handle({"do": "hand"}) == "Hand for hand: wait for the TD"
    assert t.hands == 1
    at_table.carry_out(t, _ins("next_hand", "i-5"))
    do(t, "hand")
    do(t, "misdeal")                                # the same hand again: no next_hand used
    assert t.hands == 2 and t.hold == "hfh" and t.hand is not None
    assert at_table.carry_out(t, _ins("hand_for_hand_stop", "i-6")) == ("done", None, None)
    fold_round(t)
    do(t, "hand")                                   # normal again
    assert t.hands == 3


def test_hand_for_hand_started_during_a_hand_lets_it_finish():
    t = _lppl8()
    do(t, "hand")
    at_table.carry_out(t, _ins("hand_for_hand_start"))
    st = do(t, "call")                              # the hand goes on
    assert st["street"] == "preflop"
    fold_round(t)
    assert t.handle({"do": "hand"}) == "Hand for hand: wait for the TD"


def test_next_hand_outside_hand_for_hand_is_refused():
    t = _lppl8()
    assert _refused(t, _ins("next_hand")) == "This table is not playing hand for hand"
    assert at_table.carry_out(t, _ins("hand_for_hand_stop")) == ("done", None, None)
    assert t.hold is None


def test_hand_for_hand_and_a_waiting_move_survive_a_power_cut():
    t = _lppl8()
    at_table.carry_out(t, _ins("hand_for_hand_start"))
    at_table.carry_out(t, _ins("next_hand", "i-2"))
    do(t, "hand")
    at_table.carry_out(t, MOVE3)
    data = record.encode(record.dump(t), 7)
    t2, _ = record.load(record.decode(data))       # the box after the cut
    assert t2.hold == "hfh" and t2.moves == [["i-41", 0, 3, 2, 7]]
    assert t2.state() == t.state()
    assert at_table.carry_out(t2, dict(LATE3, seat=4))[0] == "later"
    t2, _ = record.load(record.decode(record.encode(record.dump(t2), 8)))  # another cut
    assert t2.moves == [["i-41", 0, 3, 2, 7], ["i-60", at_table.DEDUCT, 4, 500, None]]
    fold_round(t2)
    assert at_table.settle(t2) == [("i-41", "done", None, 3000),   # seat 3 folded
                                 ("i-60", "done", None, None)]
    assert t2.stacks[4] == 2500 and t2.removed == 500
    assert t2.handle({"do": "hand"}) == "Hand for hand: wait for the TD"
    at_table.carry_out(t2, _ins("next_hand", "i-3"))
    t3, _ = record.load(record.decode(record.encode(record.dump(t2), 9)))
    assert t3.hold == "hfh1"
    do(t3, "hand")                                  # the one hand allowed
    assert t3.hold == "hfh"


# ----------------------------------------------------- break, clock, others
def test_a_broken_table_finishes_its_hand_and_deals_no_more():
    t = _lppl8()
    do(t, "hand")
    assert at_table.carry_out(t, _ins("break_table")) == ("done", None, None)
    do(t, "call")
    fold_round(t)
    assert t.handle({"do": "hand"}) == "This table is broken: no more hands here"
    assert _refused(t, dict(CY5, seat=9)) == "This table is broken: it takes no players"
    assert _refused(t, _ins("next_hand")) == "This table is broken: no more hands here"
    at_table.carry_out(t, _ins("hand_for_hand_start"))
    assert t.hold == "broken"
    for s in range(1, 9):                           # the moves come one by one
        assert at_table.carry_out(t, _ins("move_out", "m%d" % s, seat=s, to_table=1,
                                        to_seat=s))[0] == "done"
    assert t.stacks == {}


def test_pause_and_resume_the_table_clock():
    t = _lppl8()
    do(t, "tick", s=60)
    assert at_table.carry_out(t, _ins("pause")) == ("done", None, None)
    assert t.clock.paused and t.last == "Clock paused"
    do(t, "tick", s=300)
    assert t.state()["seconds_left"] == 1140        # 20 minutes less the minute played
    assert at_table.carry_out(t, _ins("pause", "i-2")) == ("done", None, None)  # already paused
    assert t.handle({"do": "hand"}) == "The clock is paused: resume it to deal"
    assert at_table.carry_out(t, _ins("resume", "i-3")) == ("done", None, None)
    assert not t.clock.paused and t.last == "Clock running"
    assert at_table.carry_out(t, _ins("resume", "i-4")) == ("done", None, None)
    do(t, "hand")


def test_messages_and_unknown_instructions():
    t = _lppl8()
    assert at_table.carry_out(t, _ins("message", text="Colour up at the break")) == (
        "done", None, None)
    assert at_table.carry_out(t, _ins("redraw")) == ("done", None, None)
    assert at_table.carry_out(t, "Seat 2: phone") == ("done", None, None)
    assert _refused(t, _ins("teleport")) == "This box does not know the instruction 'teleport'"


# ---------------------------------------------------------------- the App
class _Screen:
    def __init__(self):
        self.shown = {}

    def update(self, f):
        for k in f:
            self.shown[k] = f[k]
        return 0


class _Keys:
    def get(self):
        return None


class _Saves:
    def __init__(self):
        self.n = 0

    def offer(self, t, extra=None):
        self.n += 1


class _Link:
    """The link as a part of the App (tcbox/app.py HOOKS): each ``on_result``
    recorded, (id, result, reason) in ``sent``, a move_out's stack in ``stacks``;
    its ``seating``, the host's names and the table number."""

    def __init__(self):
        self.sent = []
        self.stacks = {}
        self.names = {}  # the host's seating (tcbox/link/box_end.py): none given
        self.table_no = 1

    def on_result(self, app, iid, result, reason, stack):
        self.sent.append((iid, result, reason))
        if stack is not None:
            self.stacks[iid] = stack

    def seating(self, app):
        return self.names, self.table_no


def _app():
    t = _lppl8()
    screen = _Screen()
    app = App(t, ["left", "ok", "right"], screen, _Keys(), saver=_Saves())
    app.add(_Link())
    app.step(0)
    return app, screen


def test_app_a_move_confirmed_mid_hand_shows_after_this_hand_then_is_done():
    app, screen = _app()
    app.press("ok", False)                          # New hand
    assert app.table.hand is not None
    app.instruct(MOVE3)
    app.step(10)
    assert app.awaiting() and screen.shown["instr"] == "Move seat 3 to table 2 seat 7"
    app.ack()                                       # the dealer's Confirm
    app.step(20)
    assert app.parts[0].sent == [("i-41", "acknowledged", None)] and not app.awaiting()
    assert screen.shown["instr"] == "Move seat 3 to table 2 seat 7 after this hand"
    assert screen.shown["status"] == "Confirmed: Move seat 3 to table 2 seat 7 after this hand"
    saves = app.saver.n
    for _ in range(7):                              # everyone folds to the big blind
        app.table.handle({"do": "fold"})
    app.step(30)                                    # the hand is over: the move at once
    assert app.parts[0].sent[-1] == ("i-41", "done", None) and 3 not in app.table.stacks
    assert app.parts[0].stacks == {"i-41": 3000}        # seat 3 folded: 3000 to table 2
    assert screen.shown["instr"] == "" and app.saver.n > saves


def test_app_hand_for_hand_holds_the_new_hand_key_until_next_hand():
    app, screen = _app()
    app.instruct(_ins("hand_for_hand_start", "i-7"))
    app.step(10)
    app.press("ok", False)                          # Confirm (highlighted between hands)
    app.step(20)
    assert app.parts[0].sent == [("i-7", "done", None)]
    assert screen.shown["banner"] == "HAND FOR HAND"
    assert screen.shown["menu"][screen.shown["menu_i"]] == "New hand"
    app.press("ok", False)                          # New hand: refused
    app.step(30)
    assert screen.shown["status"] == "Hand for hand: wait for the TD"
    assert screen.shown["status_kind"] == "error" and app.table.hands == 0
    app.instruct(_ins("next_hand", "i-8"))
    app.step(40)
    app.press("ok", False)                          # Confirm
    app.step(50)
    assert screen.shown["banner"] == "HAND FOR HAND: DEAL"
    app.press("ok", False)                          # New hand: dealt
    app.step(60)
    assert app.table.hands == 1 and screen.shown["banner"] == "HAND FOR HAND"


def test_app_a_refused_instruction_says_why():
    app, screen = _app()
    app.instruct(dict(CY5, seat=4))
    app.step(10)
    app.press("ok", False)
    app.step(20)
    assert app.parts[0].sent == [("i-42", "refused", "Seat 4 is taken")]
    assert screen.shown["status"] == "Seat 4 is taken"   # the table's refusal, in red
    app.instruct(_ins("next_hand", "i-9"))
    app.step(30)
    app.press("ok", False)
    app.step(40)
    assert app.parts[0].sent[-1] == ("i-9", "refused", "This table is not playing hand for hand")
    assert screen.shown["status"] == "This table is not playing hand for hand"
    assert screen.shown["status_kind"] == "error"


def test_app_results_go_to_every_part_with_the_hook_in_order():
    t = _lppl8()
    app = App(t, ["left", "ok", "right"], _Screen(), _Keys(), saver=_Saves())
    app.instruct(MOVE3)
    app.ack()                                       # no part: carried out all the same
    assert 3 not in app.table.stacks
    first, second = app.add(_Link()), app.add(_Link())
    app.instruct(_ins("pause", "i-50"))
    app.ack()
    assert first.sent == second.sent == [("i-50", "done", None)] and app.table.clock.paused
    app.instruct(_ins("pause", "i-50"))             # its answer lost: the same answer again
    assert first.sent[-1] == ("i-50", "done", None) and len(second.sent) == 2


def test_app_a_deduct_in_the_hand_shows_after_this_hand_then_is_done():
    app, screen = _app()
    app.press("ok", False)                          # New hand: seat 3 is dealt in
    app.instruct(LATE3)
    app.step(10)
    assert screen.shown["instr"] == "Seat 3: remove 500 chips from play"
    app.ack()
    app.step(20)
    assert app.parts[0].sent == [("i-60", "acknowledged", None)]
    assert screen.shown["instr"] == "Seat 3: remove 500 chips after this hand"
    for _ in range(7):
        app.table.handle({"do": "fold"})
    app.step(30)
    assert app.parts[0].sent[-1] == ("i-60", "done", None) and app.table.stacks[3] == 2500
    assert app.parts[0].stacks == {} and screen.shown["instr"] == ""


def test_app_move_out_reports_the_stack_the_player_left_with():
    app, screen = _app()
    app.press("ok", False)                          # New hand: SB 1, BB 2
    app.table.handle({"do": "call"})                # seat 3 calls 50 ...
    app.instruct(MOVE3)
    app.ack()                                       # ... and moves after this hand
    for _ in range(5):                              # seats 4-8 fold
        app.table.handle({"do": "fold"})
    app.table.handle({"do": "fold"})                # seat 1 folds, seat 2 checks it down
    while app.table.state()["street"] != "showdown":
        app.table.handle({"do": "check"})
    app.table.handle({"do": "showdown", "ranking": [[3], [2]]})
    assert app.table.stacks[3] == 3075              # 3000 - 50 + the pot of 125
    app.step(10)
    assert app.parts[0].sent[-1] == ("i-41", "done", None)
    assert app.parts[0].stacks == {"i-41": 3075} and 3 not in app.table.stacks


# -- withdraw: the host calls an instruction off, no Confirm
def _withdraw(iid, wid="i-70"):
    return {"id": wid, "action": "withdraw", "instr": iid}


def test_app_withdraw_of_the_instruction_on_screen():
    app, screen = _app()
    app.instruct(MOVE3)
    app.instruct(dict(CY5, seat=2, id="i-42"))      # waits behind it
    app.step(10)
    assert screen.shown["instr"] == "Move seat 3 to table 2 seat 7 (+1)"
    saves = app.saver.n
    app.instruct(_withdraw("i-41"))
    app.step(20)
    assert app.parts[0].sent == [("i-41", "refused", "withdrawn by the host"),
                                 ("i-70", "done", None)]
    assert screen.shown["status"] == "Called off: Move seat 3 to table 2 seat 7"
    assert screen.shown["instr"].startswith("Seat 2: Cy arrives") and app.book.waiting == 0
    assert 3 in app.table.stacks and app.saver.n > saves
    app.instruct(MOVE3)                             # the host's late resend: not shown again
    assert app.info["instruction"]["id"] == "i-42" and app.book.waiting == 0
    assert app.parts[0].sent[-1] == ("i-41", "refused", "withdrawn by the host")


def test_app_withdraw_of_an_instruction_waiting_behind_another():
    app, screen = _app()
    app.instruct(MOVE3)
    app.instruct(LATE3)
    app.instruct(_withdraw("i-60"))
    app.step(10)
    assert app.parts[0].sent == [("i-60", "refused", "withdrawn by the host"),
                                 ("i-70", "done", None)]
    assert screen.shown["instr"] == "Move seat 3 to table 2 seat 7"
    assert screen.shown["status"] == "Called off: Seat 3: remove 500 chips from play"
    app.ack()
    assert app.table.stacks == {1: 3000, 2: 3000, 4: 3000, 5: 3000, 6: 3000, 7: 3000,
                                8: 3000}            # moved with 3000: nothing deducted


def test_app_withdraw_of_a_move_confirmed_during_the_hand():
    app, screen = _app()
    app.press("ok", False)                          # New hand
    app.instruct(MOVE3)
    app.ack()
    assert app.table.moves and app.parts[0].sent == [("i-41", "acknowledged", None)]
    app.instruct(_withdraw("i-41"))
    app.step(10)
    assert app.table.moves == [] and screen.shown["instr"] == ""
    assert app.parts[0].sent[1:] == [("i-41", "refused", "withdrawn by the host"),
                                 ("i-70", "done", None)]
    assert screen.shown["status"] == "Called off: Move seat 3 to table 2 seat 7"
    for _ in range(7):
        app.table.handle({"do": "fold"})
    app.step(20)
    assert 3 in app.table.stacks and len(app.parts[0].sent) == 3   # nothing more


def test_app_withdraw_too_late_or_of_an_unknown_instruction():
    app, screen = _app()
    app.instruct(MOVE3)
    app.ack()                                       # between hands: done at once
    assert app.parts[0].sent == [("i-41", "done", None)] and app.parts[0].stacks == {"i-41": 3000}
    app.instruct(_withdraw("i-41"))
    assert app.parts[0].sent[-1] == ("i-70", "refused", "already carried out")
    app.instruct(_withdraw("i-99", "i-71"))         # the withdraw overtook its instruction
    assert app.parts[0].sent[-1] == ("i-71", "done", None)
    app.instruct(_ins("pause", "i-99"))             # ... which comes late: never shown
    app.step(10)
    assert not app.awaiting() and not app.table.clock.paused
    assert app.parts[0].sent[-1] == ("i-99", "refused", "withdrawn by the host")



def test_app_withdraw_of_a_break_the_dealer_confirmed_opens_the_table_again():
    # the host calls a break off (a new plan keeps the table: a bust undone) while the
    # dealer confirms it (the chaos drill's seed 31: the broken table refused every player
    # the host sent there, for ever): nobody has moved by the break, so the table plays on
    app, screen = _app()
    app.instruct(_ins("break_table", "i-50"))
    app.ack()
    assert app.table.hold == at_table.BROKEN and app.parts[0].sent == [("i-50", "done", None)]
    app.instruct(_withdraw("i-50"))
    app.step(10)
    assert app.parts[0].sent[-1] == ("i-70", "done", None)
    assert app.table.hold is None and screen.shown["status"].startswith("Called off: ")
    app.press("ok", False)                          # New hand: it deals again
    assert app.table.hand is not None
    for _ in range(7):
        app.table.handle({"do": "fold"})
    app.step(20)
    # a withdraw of another instruction carried out since leaves a broken table broken
    app.instruct(_ins("break_table", "i-52"))
    app.ack()
    app.instruct(_ins("pause", "i-53"))
    app.ack()
    app.instruct(_withdraw("i-53", "i-71"))
    assert app.parts[0].sent[-1] == ("i-71", "refused", "already carried out")
    assert app.table.hold == at_table.BROKEN


def test_receive_carries_the_players_warnings_and_penalties():
    # TDA 64 warnings and penalties and LPPL ¶51's slow-play warning stay with the player
    # at a new table: a second slow play there folds the hand ("thereafter automatic fold")
    t = _lppl8({1: 3000, 2: 3000, 3: 3000, 4: 3000, 6: 3000, 7: 3000, 8: 3000})
    assert _refused(t, dict(CY5, warnings=-1)) == (
        '"warnings" must be a whole number from 0 to 10000')
    got = dict(CY5, warnings=2, slow_play=1, penalties=3)
    assert at_table.carry_out(t, got) == ("done", None, None)
    st = t.state()
    assert st["warnings"] == {"5": 2} and st["slow_play"] == {"5": 1}
    assert st["penalties"] == {"5": 3}
    # arriving after the hand: the record keeps it through a power cut
    t = _lppl8()
    do(t, "hand")
    assert at_table.carry_out(t, MOVE3)[0] == "later"
    assert at_table.carry_out(t, dict(got, seat=3)) == ("later", None, None)
    rec = record.load(record.dump(t))[0]
    fold_round(rec)
    assert at_table.settle(rec) == [("i-41", "done", None, 3000), ("i-42", "done", None, None)]
    st = rec.state()
    assert st["warnings"] == {"3": 2} and st["slow_play"] == {"3": 1}
    assert st["penalties"] == {"3": 3}
