"""The box's ordered seatings (docs/protocol.md "Ordered seatings"): each seating carries
the table's seating version ``sv``; the box refuses an older one, says the version it
holds in each status, and takes a seat instruction only once it holds the seating that
instruction was written against.  Portable, like test_link.py.
"""

from link_util import StandIn, boxed, config, link_table, live, run
from tcbox.link.box_end import STATUS_MS


def _statuses(host):
    return [m for m in host.read() if m["kind"] == "status"]


def test_a_seating_older_than_the_one_held_is_refused_and_the_status_says_the_version():
    link, port, host, now = live()
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Eve", "3": "Cy"}, "sv": 12})
    now = run(link, now, 3)
    assert link.names["2"] == "Eve" and link.sv == 12
    # an older seating overtaken on the way (sent before, arriving after): refused
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "sv": 9})
    now = run(link, now, 3)
    assert link.names["2"] == "Eve" and link.sv == 12 and link.stale_seatings == 1
    host.read()
    host.send({"kind": "ping", "t": 1})  # (the host is there: no silence)
    now = run(link, now + STATUS_MS, 3)  # the heartbeat carries the version held
    got = _statuses(host)
    assert got and got[-1]["sv"] == 12
    # the same version again (a resend) is taken: its names may be the newer words
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Eve", "3": "Cy"}, "sv": 12})
    run(link, now, 3)
    assert link.stale_seatings == 1


def test_a_late_copy_of_the_seating_a_seat_change_was_written_against_is_refused():
    """The box holds seating 5 (Bo in seat 2) and carries out a take_out of Bo written
    against it; a copy of seating 5 doubled on the way comes after a config of the same host
    run: rebuilt from it, the table would seat Bo again with his chips (the chaos drill's
    seed 46, 3,000 chips too many).  The box takes its names only; a newer one wholly."""
    seen = []
    link, port, host, now = live(app=StandIn(seen.append, table=link_table()))
    five = {"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "sv": 5,
            "stacks": {"1": 3000, "2": 3000, "3": 3000}}
    host.send(five)
    now = run(link, now, 3)
    host.send({"kind": "instruction", "id": "i-7", "action": "take_out", "seat": 2,
               "name": "Bo", "sv": 5})
    now = run(link, now, 3)
    assert [i["id"] for i in seen] == ["i-7"]
    link.instruction_done("i-7", "done", stack=3000)
    del link.table.stacks[2]  # (the dealer took the seat out)
    link._hello_again(now)  # the link came up again: the same host run configures it
    now = run(link, now, 3)
    nonce = [m for m in host.read() if m["kind"] == "hello"][-1]["nonce"]
    host.send(config(link.table, nonce))
    host.send(five)
    now = run(link, now, 3)
    assert link.got_seating and link.sv == 5 and sorted(link.table.stacks) == [1, 3]
    host.send({"kind": "seating", "names": {"1": "Ann", "3": "Cy"}, "sv": 6})
    run(link, now, 3)
    assert link.sv == 6 and link.names == {"1": "Ann", "3": "Cy"}
    assert [i["id"] for i in seen] == ["i-7"]


def test_a_config_starts_the_versions_over():
    link, port, host, now = live()
    host.send({"kind": "seating", "names": {"1": "Ann"}, "sv": 40})
    now = run(link, now, 3)
    assert link.sv == 40
    link._hello_again(now)  # the host restarted: hello, config, a seating numbered afresh
    now = run(link, now, 3)
    nonce = [m for m in host.read() if m["kind"] == "hello"][-1]["nonce"]
    host.send(config(link.table, nonce))
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo"}, "sv": 7})
    host.send({"kind": "clock", "level_index": 0, "ms_left": 5000, "paused": False,
               "host_ms": 0})
    run(link, now, 8)
    assert link.sv == 7 and link.names == {"1": "Ann", "2": "Bo"} and link.stale_seatings == 0


def test_a_seat_instruction_waits_for_the_seating_it_was_written_against():
    """A take_out written after the seating that seats Eve in seat 2 came before that
    seating (lost, or overtaken): checked against the old names it would be refused
    ("Seat 2 is Bo, not Eve").  The box parks it, and its status says at once which
    seating it holds; with the seating it is taken, once (the host's resend is a repeat)."""
    link, port, host, now = live()
    seen = []
    StandIn(seen.append).add(link)
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "sv": 5})
    now = run(link, now, 3)
    host.read()
    now = run(link, now + 2000, 2)  # a status went: the next may go a second later
    host.read()
    take = {"kind": "instruction", "id": "i-7", "action": "take_out", "seat": 2,
            "name": "Eve", "sv": 6}
    host.send(take)
    now = run(link, now + 1000, 3)
    assert seen == [] and link.early == 1 and link.book.seen("i-7") is None
    assert link.book.parked == 1
    host.send(take)  # a resend meanwhile: parked once
    now = run(link, now, 3)
    assert seen == [] and link.book.parked == 1
    got = _statuses(host)
    assert got and got[-1]["sv"] == 5  # behind: the host sends the seating again
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Eve", "3": "Cy"}, "sv": 6})
    now = run(link, now, 3)
    assert [i["id"] for i in seen] == ["i-7"] and link.names["2"] == "Eve"
    assert link.book.parked == 0
    host.send(take)  # the host's resend: a repeat
    run(link, now, 3)
    assert [i["id"] for i in seen] == ["i-7"]


def test_instructions_without_a_version_are_taken_as_before():
    link, port, host, now = live()
    seen = []
    StandIn(seen.append).add(link)
    host.send({"kind": "instruction", "id": "i-1", "action": "take_out", "seat": 2,
               "name": "Bo"})
    run(link, now, 3)
    assert [i["id"] for i in seen] == ["i-1"] and link.sv is None


def test_a_seat_change_waits_for_the_earlier_change_of_the_same_seat():
    """The host sent a take_out for seat 2, then a receive into seat 2 that names it in
    ``after``; the receive overtook it on the way.  Shown first, it would be refused ("Seat
    2 is taken"): the box parks it until the take_out is here, then hands both to the
    dealer in their order."""
    link, port, host, now = live()
    seen = []
    StandIn(seen.append).add(link)
    host.send({"kind": "instruction", "id": "i-10", "action": "receive", "seat": 2,
               "name": "Eve", "stack": 3000, "after": "i-9"})
    now = run(link, now, 3)
    assert seen == [] and link.book.parked == 1
    host.send({"kind": "instruction", "id": "i-9", "action": "take_out", "seat": 2,
               "name": "Bo"})
    run(link, now, 3)
    assert [i["id"] for i in seen] == ["i-9", "i-10"] and link.book.parked == 0


def test_a_predecessor_called_off_before_it_came_lets_the_change_go():
    link, port, host, now = live()
    app = boxed(link)
    host.send({"kind": "instruction", "id": "i-10", "action": "receive", "seat": 2,
               "name": "Eve", "stack": 3000, "after": "i-9"})
    host.send({"kind": "instruction", "id": "i-11", "action": "withdraw", "instr": "i-9"})
    run(link, now, 4)
    assert app.info["instruction"]["id"] == "i-10" and link.book.parked == 0
    assert link.book.find("i-9")[1:3] == ["refused", "withdrawn by the host"]


def test_a_parked_instruction_goes_on_after_a_while_whatever_came():
    """A seat instruction whose seating never comes (a host that stopped sending it, a
    box without a table sends no status) is shown after PARK_MS anyway: never stuck."""
    from tcbox.instructions.book import PARK_MS

    link, port, host, now = live()
    seen = []
    StandIn(seen.append).add(link)
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "sv": 5})
    host.send({"kind": "instruction", "id": "i-7", "action": "take_out", "seat": 2,
               "name": "Bo", "sv": 9})
    now = run(link, now, 6)
    assert seen == [] and link.book.parked == 1
    host.send({"kind": "ping", "t": 1})
    now = run(link, now + PARK_MS - 2000, 3)
    assert seen == []
    host.send({"kind": "ping", "t": 2})
    run(link, now + 3000, 3)
    assert [i["id"] for i in seen] == ["i-7"] and link.book.parked == 0


def test_a_seating_never_opens_a_broken_table_again():
    """The dealer broke the table before its first hand; a seating that came late, after a
    reconnect, still names a player taken out before the break: rebuilt from it, the table
    would play on with that player and their chips (chaos seed 58).  The box keeps its
    broken table.  Moved to serve another table, it builds that table from its seating."""
    from tableclock.hand import BROKEN
    from tcbox.instructions import at_table
    seen = []
    link, port, host, now = live(app=StandIn(seen.append, table=link_table()))
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "sv": 5,
               "stacks": {"1": 3000, "2": 3000, "3": 3000}})
    now = run(link, now, 3)
    host.send({"kind": "instruction", "id": "i-8", "action": "break_table"})
    now = run(link, now, 3)
    (ins,) = [i for i in seen if i["id"] == "i-8"]
    assert at_table.carry_out(link.table, ins)[0] == "done"
    link.instruction_done("i-8", "done")
    assert link.table.hold == BROKEN and link.table.hands == 0
    broken = link.table
    link._hello_again(now)  # the link came up again: the same host run configures it
    now = run(link, now, 3)
    nonce = [m for m in host.read() if m["kind"] == "hello"][-1]["nonce"]
    host.send(config(link.table, nonce))
    host.send({"kind": "seating", "names": {"1": "Ann", "3": "Cy"}, "sv": 9,
               "stacks": {"1": 3000, "3": 3000}})
    now = run(link, now, 5)
    assert link.table is broken and link.table.hold == BROKEN
    link._hello_again(now)  # moved to table 6 (tdhost move-box): a new table there
    now = run(link, now, 3)
    nonce = [m for m in host.read() if m["kind"] == "hello"][-1]["nonce"]
    host.send(config(link.table, nonce, table=6))
    host.send({"kind": "seating", "names": {"2": "Dee", "3": "Eli"}, "sv": 1,
               "stacks": {"2": 2500, "3": 3500}})
    run(link, now, 5)
    assert link.table is not broken and link.table.stacks == {2: 2500, 3: 3500}
    assert link.table.hold != BROKEN


def test_a_seating_that_does_not_show_a_seat_change_done_here_gives_names_only():
    """Before the table's first hand the box seats a mover (a receive done); a whole seating
    the host numbered before that answer reached it -- after a restart of the host, so newer
    than any version the box acted on -- would rebuild the table without them and their
    chips (chaos seed 532).  The box takes its names only until a seating shows the
    change; then a whole one counts again."""
    seen = []
    link, port, host, now = live(app=StandIn(seen.append, table=link_table()))
    host.send({"kind": "instruction", "id": "i-9", "action": "receive", "seat": 3,
               "name": "Hal", "stack": 2600})
    now = run(link, now, 3)
    assert [i["id"] for i in seen] == ["i-9"]
    link.table.stacks[3] = 2600  # (the dealer seated Hal)
    link.instruction_done("i-9", "done")
    before = link.table
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo"}, "sv": 56,
               "stacks": {"1": 3000, "2": 3000}})
    now = run(link, now, 5)
    assert link.table is before and link.table.stacks[3] == 2600
    assert link.names == {"1": "Ann", "2": "Bo"}
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Hal"}, "sv": 57,
               "stacks": {"1": 3000, "2": 2500, "3": 2600}})
    run(link, now, 5)
    assert link.unshown == [] and link.table.stacks == {1: 3000, 2: 2500, 3: 2600}
