"""The final table's redraw on the box (tcbox/instructions/at_table.py ``redraw``,
tcbox/link/frames.py ``seating``; docs/host.md §10.7, LPPL ¶47 "Before the start
of any final table players seating positions are to be decided by use of
the Ace - 8 card system"): once the dealer confirms ``redraw``, the host's
next seating -- names, stacks, the final draw's button -- becomes the
table, between hands only, and the clock runs on.  Portable (CPython and
MicroPython)."""

# the modules the box loads at a rare moment first (the power-loss record, the floor
# procedures), compiled before the tests fragment the MicroPython heap: compiled mid-run,
# they left no 4 KB in one piece for a later link, or found no 2 KB (tests/mpy_each.py)
from tableclock import procedures, record  # noqa: F401, I001
from link_util import BOX, KEY, LEVELS, FakePort, Host, StandIn, config, live, run
from tableclock.hand import BROKEN
from tc_util import do, fold_round, table
from tcbox.instructions import at_table
from tcbox.link.box_end import Link
from tcbox.link.states import LIVE

REDRAW = {"id": "i-9", "action": "redraw"}
# the final draw: five players at new seats with the boxes' chips; card 1 (the
# lowest, LPPL ¶10 "the lowest numbered card selected will deal") at seat 6
FINAL = {"kind": "seating", "names": {"2": "Ann", "3": "Di", "5": "Bo", "6": "Cy", "8": "Ed"},
         "stacks": {"2": 2950, "3": 4100, "5": 3050, "6": 2900, "8": 2000}, "button": 6}


def _live():
    """A box LIVE with a host, its table (three players, eight seats) one
    hand in and 1 minute into level 2."""
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000}, button=1, seats=8, levels=LEVELS)
    app = StandIn()  # the App the new tables go to
    tables = app.tables
    link, _, host, now = live(t, 1, 1140000, app)
    assert link.table is t and not tables
    do(t, "hand")
    fold_round(t)
    assert t.hands == 1 and t.hand is None
    return link, host, tables, now


def test_redraw_holds_the_table_for_its_new_seats_and_the_record_keeps_it():
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000}, button=1)
    assert at_table.carry_out(t, REDRAW) == ("done", None, None)
    assert t.hold == at_table.REDRAW == "redraw"
    assert record.load(record.dump(t))[0].hold == "redraw"  # through a power cut
    hands = t.hands
    t.error = None
    t.handle({"do": "hand"})  # no deal at the old seats while the new ones are coming
    assert t.error == "Re-draw: wait for the TD" and t.hands == hands and t.hand is None
    assert at_table.carry_out(t, {"id": "i-10", "action": "break_table"}) == ("done", None, None)
    assert t.hold == BROKEN
    assert at_table.carry_out(t, REDRAW) == ("done", None, None)  # a broken table stays broken
    assert t.hold == BROKEN


def test_after_the_redraw_the_next_seating_is_the_table_and_the_clock_runs_on():
    link, host, tables, now = _live()
    t = link.table
    host.send(FINAL)  # before the Confirm: play has begun, the table's seats count
    now = run(link, now, 5)
    assert link.table is t and not tables and link.names == FINAL["names"]
    assert at_table.carry_out(t, REDRAW) == ("done", None, None)
    do(t, "tick", s=30)
    left = t.clock.left_ms
    assert t.clock.index == 1 and left == 1110000
    host.send(FINAL)  # the host sends it again when the box answers the redraw
    now = run(link, now, 1, 0)
    assert len(tables) == 1 and link.table is tables[0]
    new = link.table
    assert new.stacks == {2: 2950, 3: 4100, 5: 3050, 6: 2900, 8: 2000}
    assert new.first_button == 6 and new.hands == 0 and new.hold is None
    assert new.clock.index == 1 and new.clock.left_ms == left and not new.clock.paused
    st = do(new, "hand")
    # the final table's first hand: button 6, small blind 8, big blind 2
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (6, 8, 2)
    host.send(dict(FINAL, stacks={"2": 1, "3": 1, "5": 1, "6": 1, "8": 1}))
    run(link, now, 5)
    assert link.table is new and new.stacks[3] == 4100  # dealt: its own chips count


def test_a_redraw_confirmed_during_a_hand_waits_for_its_end():
    link, host, tables, now = _live()
    t = link.table
    do(t, "hand")
    assert at_table.carry_out(t, REDRAW) == ("done", None, None)
    host.send(FINAL)
    now = run(link, now, 5)
    assert link.table is t and not tables  # the hand goes on at the old seats
    fold_round(t)
    now = run(link, now, 1)
    assert link.table is not t and link.table.stacks[3] == 4100 and len(tables) == 1


def test_a_seating_without_a_table_to_build_leaves_the_redraw_waiting():
    link, host, tables, now = _live()
    t = link.table
    at_table.carry_out(t, REDRAW)
    host.send({"kind": "seating", "names": {"4": "Ann"}, "stacks": {"4": 9000}})
    now = run(link, now, 5)
    assert link.table is t and t.hold == "redraw" and not tables
    host.send(FINAL)
    run(link, now, 1)
    assert link.table is not t and link.table.first_button == 6


def test_the_chips_that_left_play_before_a_redraw_stay_counted():
    link, host, tables, now = _live()
    t = link.table
    do(t, "tick", s=1)
    gone = t.stacks[3]  # 3050 after the first hand's blinds
    t.handle({"do": "bust", "seat": 3})  # the TD busted seat 3: its chips left play here
    assert gone == 3050 and t.removed == 3050
    at_table.carry_out(t, REDRAW)
    host.send(FINAL)
    run(link, now, 1)
    new = link.table
    assert new is not t and new.stacks[3] == 4100
    assert new.removed == 3050  # chips on the table plus chips that left play: still counted


def test_a_deal_redraw_keeps_the_players_and_chips_the_box_has_now():
    """US 2's re-draw for the deal (a seating with ``keep``): the host drew the button
    from the box's last status, but a player moving in sat down after that status.  The
    box re-seats its own players with its own chips and takes the host's button (the
    300-table drill, seed 5: table 94 was rebuilt from the status without the player who
    had just sat in seat 3, and their 4,175 chips were on no box).  Before the new
    table's first hand another such seating changes nothing but the names."""
    link, host, tables, now = _live()
    t = link.table
    assert at_table.carry_out(t, REDRAW) == ("done", None, None)
    status = dict(t.stacks)  # what the host drew the button from
    do(t, "sit", seat=5, stack=4175)  # then the mover's receive: seat 5
    names = {"1": "Ann", "2": "Bo", "3": "Cy"}
    seating = {"kind": "seating", "names": names, "button": 3, "keep": True,
               "stacks": dict((str(s), c) for s, c in status.items())}
    host.send(seating)
    now = run(link, now, 1, 0)
    new = link.table
    assert len(tables) == 1 and new is tables[0]
    want = dict(status)
    want[5] = 4175
    assert new.stacks == want and new.first_button == 3 and new.hold is None
    do(new, "sit", seat=7, stack=2000)  # another arrival before the first hand
    later = dict(names)
    later["5"] = "Di"
    host.send(dict(seating, names=later))
    now = run(link, now, 5)
    assert link.table is new and len(tables) == 1 and new.stacks[7] == 2000
    assert link.names["5"] == "Di"


def test_a_deal_redraw_whose_button_has_left_starts_at_the_first_seat():
    link, host, tables, now = _live()
    t = link.table
    at_table.carry_out(t, REDRAW)
    t.handle({"do": "leave", "seat": 3})  # the drawn button's player moved out since
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo"}, "button": 3, "keep": True,
               "stacks": {"1": 3000, "2": 3000, "3": 3000}})
    run(link, now, 1, 0)
    assert link.table is not t and sorted(link.table.stacks) == [1, 2]
    assert link.table.first_button == 1


def test_a_second_deal_redraw_seating_during_the_hand_keeps_the_box_own_players():
    link, host, tables, now = _live()
    t = link.table
    do(t, "hand")
    at_table.carry_out(t, REDRAW)  # confirmed during the hand: built at its end
    seating = {"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "button": 2,
               "keep": True, "stacks": {"1": 3000, "2": 3000, "3": 3000}}
    host.send(seating)
    host.send(dict(seating, stacks={"1": 3000, "2": 3000}))  # sent again, from an older status
    now = run(link, now, 5)
    assert link.table is t and not tables
    fold_round(t)
    own = dict(t.stacks)
    run(link, now, 1)
    assert link.table is not t and link.table.stacks == own and sorted(own) == [1, 2, 3]
    assert link.table.first_button == 2


def test_a_spare_box_at_a_redrawn_table_builds_its_table_from_the_seating():
    """A box put in at a table that re-drew for the deal (its own died) has no table of its
    own: it builds one from the seating's stacks and button, ``keep`` or not."""
    t = table("lppl", {1: 3000, 2: 3000}, button=1, seats=8, levels=LEVELS)
    port = FakePort()
    link = Link(port, BOX, None, KEY, "ev1")
    link.restore(None)
    host = Host(port)
    now = run(link, 1000, 2)
    nonce = host.read()[0]["nonce"]
    host.send(config(t, nonce))
    host.send({"kind": "seating", "names": {"1": "Ann", "4": "Di"}, "button": 4, "keep": True,
               "stacks": {"1": 2500, "4": 4100}})
    host.send({"kind": "clock", "level_index": 1, "ms_left": 1140000, "paused": False,
               "host_ms": 5})
    run(link, now, 10)
    assert link.state == LIVE and link.table is not None
    assert link.table.stacks == {1: 2500, 4: 4100} and link.table.first_button == 4


def test_a_deal_redraw_keeps_each_players_warnings_penalties_and_allowance():
    """US 2's re-draw builds the table anew: its players keep what the old one counted
    for them -- warnings, LPPL ¶51's slow-play warning, TDA 64's penalty hands still to
    miss, LPPL ¶72's allowance (docs/rules.md §14)."""
    link, host, tables, now = _live()
    t = link.table
    do(t, "warn", seat=1)
    do(t, "slow", seat=2)
    do(t, "penalty", seat=3, hands=2)
    t.away.reached_stage(1)
    assert at_table.carry_out(t, REDRAW) == ("done", None, None)
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "button": 2,
               "keep": True})
    run(link, now, 1, 0)
    new = link.table
    assert len(tables) == 1 and new is tables[0]
    st = new.state()
    assert st["warnings"] == {"1": 1, "2": 1} and st["slow_play"] == {"2": 1}
    assert st["penalties"] == {"3": 2} and st["away_used"] == [1]


def test_the_final_tables_seating_brings_each_players_history():
    """The final table's players come from other tables: the host's seating names what
    each brings (``history``), and the new table has it."""
    link, host, tables, now = _live()
    t = link.table
    do(t, "warn", seat=1)  # the old table's seat 1 is somebody else now: not carried
    assert at_table.carry_out(t, REDRAW) == ("done", None, None)
    host.send(dict(FINAL, history={"3": {"warnings": 2, "slow_play": 1, "penalties": 4},
                                   "8": {"away_used": True}}))
    run(link, now, 1, 0)
    new = link.table
    assert len(tables) == 1 and new is tables[0]
    st = new.state()
    assert st["warnings"] == {"3": 2} and st["slow_play"] == {"3": 1}
    assert st["penalties"] == {"3": 4} and st["away_used"] == [8]
