"""The host's instructions carried out at the table (tcbox/orders.py): seat
changes through the table's own ``leave``/``sit``, a move confirmed during a
hand carried out as it ends, hand for hand, a broken table, pause/resume,
refusals that change nothing, and all of it through a power cut (the
record).  Then the same through tcbox.app.App: the dealer's Confirm, the
result to the host, the screen.  Portable (CPython and MicroPython)."""

import json

from tableclock import record
from tc_util import do, fold_round, table
from tcbox import orders
from tcbox.app import App

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
    result, reason = orders.carry_out(t, ins)
    assert result == orders.REFUSED, (ins, result)
    assert _snap(t) == before, ("a refused instruction changed the table", ins)
    return reason


# ------------------------------------------------------------------ moves
def test_the_player_due_the_big_blind_moves_out_between_hands():
    t = _lppl8()
    do(t, "hand")                                   # button 8, SB 1, BB 2
    fold_round(t)                                   # seat 2 wins the blinds: 3025
    # seat 3 would post the next big blind (LPPL ¶45: that player moves)
    assert orders.carry_out(t, MOVE3) == ("done", None)
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
    assert orders.carry_out(t, MOVE3) == ("later", None)
    assert t.moves == [["i-41", orders.OUT, 3, 2, 7]] and 3 in t.stacks
    assert orders.settle(t) == []                   # the hand is still running
    assert _refused(t, dict(MOVE3, id="i-43")) == "Seat 3 already moves after this hand"
    fold_round(t)                                   # the others fold: seat 3 wins 125
    assert t.hand is None and t.stacks[3] == 3000 + 125 - 50
    err = t.handle({"do": "hand"})                  # the core will not deal before the move
    assert err == "First the TD's seat change at seat 3"
    assert orders.settle(t) == [("i-41", "done", None)]
    assert 3 not in t.stacks and t.moves == []
    st = do(t, "hand")
    assert st["bb_seat"] == 4 and "3" not in st["stacks"]


def test_a_move_for_a_player_who_busts_in_the_hand_is_refused_at_its_end():
    t = _lppl8({1: 3000, 2: 3000, 3: 400, 4: 3000})
    do(t, "hand")                                   # SB 1, BB 2: seat 3 acts first
    assert orders.carry_out(t, MOVE3)[0] == "later"
    do(t, "allin")                                  # seat 3: 400
    do(t, "fold")
    do(t, "fold")
    do(t, "call")                                   # seat 2 calls
    while t.state()["street"] != "showdown":
        do(t, "check")
    do(t, "showdown", ranking=[[2], [3]])
    assert 3 not in t.stacks and t.busted == [3]
    assert orders.settle(t) == [("i-41", "refused", "Seat 3 is empty")]


def test_move_out_of_an_empty_or_unknown_seat_is_refused():
    t = table("lppl", {1: 3000, 2: 3000, 4: 3000}, seats=8)
    assert _refused(t, dict(MOVE3)) == "Seat 3 is empty"
    assert _refused(t, _ins("move_out", seat=9, to_table=2, to_seat=1)) == (
        "There is no seat 9 at this 8-seat table")


# ---------------------------------------------------------------- arrivals
def test_receive_seats_the_player_with_the_stack_from_the_other_table():
    t = _lppl8({1: 3000, 2: 3000, 3: 3000, 4: 3000, 6: 3000, 7: 3000, 8: 3000})
    do(t, "hand")
    fold_round(t)
    assert orders.carry_out(t, CY5) == ("done", None)
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
    assert orders.carry_out(t, MOVE3)[0] == "later"
    assert orders.carry_out(t, dict(CY5, seat=3)) == ("later", None)
    assert _refused(t, dict(CY5, id="i-44", seat=3)) == (
        "Seat 3 is taken by a player arriving after this hand")
    fold_round(t)
    assert orders.settle(t) == [("i-41", "done", None), ("i-42", "done", None)]
    assert t.stacks[3] == 4100


# ----------------------------------------------------------- hand for hand
def test_hand_for_hand_one_hand_per_next_hand():
    t = _lppl8()
    assert orders.carry_out(t, _ins("hand_for_hand_start")) == ("done", None)
    before = _snap(t)
    assert t.handle({"do": "hand"}) == "Hand for hand: wait for the TD"
    assert _snap(t) == before
    assert orders.carry_out(t, _ins("next_hand", "i-3")) == ("done", None)
    assert orders.carry_out(t, _ins("next_hand", "i-4")) == ("done", None)  # still one hand
    do(t, "hand")
    fold_round(t)
    assert t.handle({"do": "hand"}) == "Hand for hand: wait for the TD"
    assert t.hands == 1
    orders.carry_out(t, _ins("next_hand", "i-5"))
    do(t, "hand")
    do(t, "misdeal")                                # the same hand again: no next_hand used
    assert t.hands == 2 and t.hold == "hfh" and t.hand is not None
    assert orders.carry_out(t, _ins("hand_for_hand_stop", "i-6")) == ("done", None)
    fold_round(t)
    do(t, "hand")                                   # normal again
    assert t.hands == 3


def test_hand_for_hand_started_during_a_hand_lets_it_finish():
    t = _lppl8()
    do(t, "hand")
    orders.carry_out(t, _ins("hand_for_hand_start"))
    st = do(t, "call")                              # the hand goes on
    assert st["street"] == "preflop"
    fold_round(t)
    assert t.handle({"do": "hand"}) == "Hand for hand: wait for the TD"


def test_next_hand_outside_hand_for_hand_is_refused():
    t = _lppl8()
    assert _refused(t, _ins("next_hand")) == "This table is not playing hand for hand"
    assert orders.carry_out(t, _ins("hand_for_hand_stop")) == ("done", None)
    assert t.hold is None


def test_hand_for_hand_and_a_waiting_move_survive_a_power_cut():
    t = _lppl8()
    orders.carry_out(t, _ins("hand_for_hand_start"))
    orders.carry_out(t, _ins("next_hand", "i-2"))
    do(t, "hand")
    orders.carry_out(t, MOVE3)
    data = record.encode(record.dump(t), 7)
    t2, _ = record.load(record.decode(data))       # the box after the cut
    assert t2.hold == "hfh" and t2.moves == [["i-41", 0, 3, 2, 7]]
    assert t2.state() == t.state()
    fold_round(t2)
    assert orders.settle(t2) == [("i-41", "done", None)]
    assert t2.handle({"do": "hand"}) == "Hand for hand: wait for the TD"
    orders.carry_out(t2, _ins("next_hand", "i-3"))
    t3, _ = record.load(record.decode(record.encode(record.dump(t2), 8)))
    assert t3.hold == "hfh1"
    do(t3, "hand")                                  # the one hand allowed
    assert t3.hold == "hfh"


# ----------------------------------------------------- break, clock, others
def test_a_broken_table_finishes_its_hand_and_deals_no_more():
    t = _lppl8()
    do(t, "hand")
    assert orders.carry_out(t, _ins("break_table")) == ("done", None)
    do(t, "call")
    fold_round(t)
    assert t.handle({"do": "hand"}) == "This table is broken: no more hands here"
    assert _refused(t, dict(CY5, seat=9)) == "This table is broken: it takes no players"
    assert _refused(t, _ins("next_hand")) == "This table is broken: no more hands here"
    orders.carry_out(t, _ins("hand_for_hand_start"))
    assert t.hold == "broken"
    for s in range(1, 9):                           # the moves come one by one
        assert orders.carry_out(t, _ins("move_out", "m%d" % s, seat=s, to_table=1,
                                        to_seat=s))[0] == "done"
    assert t.stacks == {}


def test_pause_and_resume_the_table_clock():
    t = _lppl8()
    do(t, "tick", s=60)
    assert orders.carry_out(t, _ins("pause")) == ("done", None)
    assert t.clock.paused and t.last == "Clock paused"
    do(t, "tick", s=300)
    assert t.state()["seconds_left"] == 1140        # 20 minutes less the minute played
    assert orders.carry_out(t, _ins("pause", "i-2")) == ("done", None)  # already paused
    assert t.handle({"do": "hand"}) == "The clock is paused: resume it to deal"
    assert orders.carry_out(t, _ins("resume", "i-3")) == ("done", None)
    assert not t.clock.paused and t.last == "Clock running"
    assert orders.carry_out(t, _ins("resume", "i-4")) == ("done", None)
    do(t, "hand")


def test_messages_and_unknown_instructions():
    t = _lppl8()
    assert orders.carry_out(t, _ins("message", text="Colour up at the break")) == ("done", None)
    assert orders.carry_out(t, _ins("redraw")) == ("done", None)
    assert orders.carry_out(t, "Seat 2: phone") == ("done", None)
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
    """The link's ``instruction_done`` (tcbox/link.py), recorded."""

    def __init__(self):
        self.sent = []

    def instruction_done(self, iid, result, reason=None):
        self.sent.append((iid, result, reason))


def _app():
    t = _lppl8()
    screen = _Screen()
    app = App(t, ["left", "ok", "right"], screen, _Keys(), saver=_Saves())
    app.link = _Link()
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
    assert app.link.sent == [("i-41", "acknowledged", None)] and not app.awaiting()
    assert screen.shown["instr"] == "Move seat 3 to table 2 seat 7 after this hand"
    assert screen.shown["status"] == "Confirmed: after this hand"
    saves = app.saver.n
    for _ in range(7):                              # everyone folds to the big blind
        app.table.handle({"do": "fold"})
    app.step(30)                                    # the hand is over: the move at once
    assert app.link.sent[-1] == ("i-41", "done", None) and 3 not in app.table.stacks
    assert screen.shown["instr"] == "" and app.saver.n > saves


def test_app_hand_for_hand_holds_the_new_hand_key_until_next_hand():
    app, screen = _app()
    app.instruct(_ins("hand_for_hand_start", "i-7"))
    app.step(10)
    app.press("ok", False)                          # Confirm (highlighted between hands)
    app.step(20)
    assert app.link.sent == [("i-7", "done", None)]
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
    assert app.link.sent == [("i-42", "refused", "Seat 4 is taken")]
    assert screen.shown["status"] == "Seat 4 is taken"   # the table's refusal, in red
    app.instruct(_ins("next_hand", "i-9"))
    app.step(30)
    app.press("ok", False)
    app.step(40)
    assert app.link.sent[-1] == ("i-9", "refused", "This table is not playing hand for hand")
    assert screen.shown["status"] == "This table is not playing hand for hand"
    assert screen.shown["status_kind"] == "error"


def test_app_without_a_result_hook_acknowledges_through_on_ack():
    app, screen = _app()
    app.link = None
    acked = []
    app.on_ack = acked.append                       # tcbox/linkparts.attach today
    app.instruct(MOVE3)
    app.ack()
    assert acked == ["i-41"] and 3 not in app.table.stacks
    got = []
    app.on_result = lambda iid, result, reason: got.append((iid, result, reason))
    app.instruct(_ins("pause", "i-50"))
    app.ack()
    assert got == [("i-50", "done", None)] and acked == ["i-41"] and app.table.clock.paused

