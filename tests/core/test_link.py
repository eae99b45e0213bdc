"""The box's serial link (tcbox/link/box_end.py), part 1: framing, box events from
states, the hello/config handshake, the host's clock, replays.

Portable: runs under pytest and under tests/mpy_runner.py (MicroPython).
The "host" here is tableclock.protocol's Sender/Receiver driven by the test
(link_util.py); tests/host/test_usb_link.py puts the real host (tdhost.links.usb)
on a pty.  Part 2: test_link_out.py.
"""

from link_util import (
    BOX,
    KEY,
    FakePort,
    Host,
    StandIn,
    config,
    kinds,
    link_table,
    live,
    run,
)
from tableclock.protocol import encode
from tableclock.table import FACTS_MAX
from tableclock.wire import Lines
from tc_util import do
from tcbox.link.box_end import Link
from tcbox.link.events import event_message
from tcbox.link.frames import same_setup, setup_of
from tcbox.link.hostclock import clock_toward
from tcbox.link.states import CONFIGURED, HELLO_SENT, LIVE


# ---------------------------------------------------------------- framing
def test_lines_split_join_and_crlf():
    ln = Lines(64)
    assert ln.feed(b"ab") == 2 and ln.line() is None
    ln.feed(b"c\r\nde\nf")
    assert ln.line() == b"abc"
    assert ln.line() == b"de"
    assert ln.line() is None
    ln.feed(b"\n")
    assert ln.line() == b"f"
    assert ln.fill == 0


def test_an_over_long_line_is_thrown_away_to_its_newline_and_counted():
    ln = Lines(16)
    for _ in range(5):  # 40 bytes without a newline, in pieces
        while ln.room() < 8:
            assert ln.line() is None
        ln.feed(b"xxxxxxxx")
        ln.line()
    assert ln.overlong == 1
    ln.feed(b"yy\nok\n")
    assert ln.line() == b"ok"  # the tail of the long line went with it
    assert ln.overlong == 1
    assert ln.feed(b"z" * 40) == 16  # never more than the buffer


# ---------------------------------------------------------------- events
def fact_events(t):
    """What a link takes of *t*'s facts now: the events, without their ids."""
    link = Link(FakePort(), BOX, t, KEY, "ev1")
    link.drain()
    return [e[0][1:] for e in link.outbox]


def test_the_table_records_each_fact_when_it_happens():
    t = link_table()
    assert fact_events(t) == []
    do(t, "hand")
    assert fact_events(t) == [["hand_started", 1, 1]]
    assert fact_events(t) == []  # taken once
    do(t, "away", seat=1)
    do(t, "back", seat=1)  # away and back before anyone looked: both told
    assert fact_events(t) == [["away", 1], ["back", 1]]
    s4 = do(t, "clock")
    assert fact_events(t) == [["clock_called", s4["action"]]]
    st = do(t, "allin")
    assert fact_events(t) == []  # the clock stopped; nothing to tell
    while st["street"] is not None and st["street"] != "showdown":
        st = do(t, "allin" if st["to_call"] else "call")
    assert fact_events(t) == []
    ranking = [[s] for s in st["in_hand"]]
    st = do(t, "showdown", ranking=ranking)
    evs = fact_events(t)
    assert evs[0] == ["hand_ended", 1, st["winners"]] and st["winners"]
    busts = [e for e in evs if e[0] == "bust"]
    # link_table: 3000 each; all in, one winner takes all: every other seat is out once,
    # with the chips it started the hand with and the hand's number
    assert busts == [["bust", s, 3000, 1] for s in st["busted"]], evs
    assert len(busts) == len(ranking) - 1
    assert fact_events(t) == []


def test_a_bust_between_hands_counts_the_chips_it_had():
    t = link_table()
    do(t, "bust", seat=2)
    assert fact_events(t) == [["bust", 2, 3000, None]]
    assert event_message(["7-1", "bust", 2, 3000, None]) == {
        "kind": "event", "id": "7-1", "what": "bust", "seat": 2, "chips_start": 3000}


def test_a_new_player_leaving_a_seat_busted_in_the_last_hand_is_no_bust():
    t = link_table()
    do(t, "bust", seat=2)  # seat 2 out: the last hand's busts list it
    assert fact_events(t) == [["bust", 2, 3000, None]]
    do(t, "sit", seat=2, stack=4250)  # a moved player takes the seat
    s3 = do(t, "leave", seat=2)  # ... and is moved on before the next deal
    assert s3["busted"] == [2] and fact_events(t) == []
    do(t, "sit", seat=2, stack=900)
    do(t, "bust", seat=2)  # the next one in seat 2 is out: listed twice now
    assert fact_events(t) == [["bust", 2, 900, None]]


def test_a_disqualified_player_is_one_bust_with_the_hands_start():
    t = link_table()
    do(t, "hand")
    st = do(t, "call")  # seat chips change in the hand
    seat = [s for s in st["in_hand"] if s != st["action"]][0]
    fact_events(t)
    do(t, "disqualify", seat=seat)
    busts = [e for e in fact_events(t) if e[0] == "bust"]
    assert busts == [["bust", seat, 3000, 1]]


def test_a_table_nobody_drains_keeps_its_newest_facts_and_its_busts():
    t = link_table()
    do(t, "bust", seat=2)
    for i in range(40):  # a replay, a table without a link: bounded
        do(t, "away" if i % 2 == 0 else "back", seat=1)
    evs = fact_events(t)
    assert len(evs) == FACTS_MAX
    assert evs[0] == ["bust", 2, 3000, None]  # the informational ones gave way
    assert evs[-1] == ["back", 1]


# ---------------------------------------------------------------- handshake
def test_hello_config_seating_clock_then_live_and_status():
    link, port, host, now = live()
    got = host.read()
    assert kinds(got) == ["ping", "status"], kinds(got)  # the clock sync's first ping
    assert got[1]["table"] == 4 and got[1]["state"]["hand"] == 0
    assert link.names["2"] == "Bo"
    assert link.table_no == 4


def test_hello_repeats_until_config_then_slows_down():
    port = FakePort()
    link = Link(port, BOX, link_table(), KEY, "ev1")
    link.restore(None)
    host = Host(port)
    now = 0
    hellos = []
    for _ in range(200):  # 200 s
        link.poll(now)
        hellos += [(now, m["nonce"]) for m in host.read()]
        now += 1000
    assert link.state == HELLO_SENT
    assert [h[0] for h in hellos[:6]] == [0, 3000, 6000, 9000, 12000, 42000]
    assert len(set(h[1] for h in hellos)) == 1  # the same hello again


def test_a_config_without_this_hellos_nonce_is_ignored():
    t = link_table()
    port = FakePort()
    link = Link(port, BOX, t, KEY, "ev1")
    link.restore(None)
    host = Host(port)
    now = run(link, 0, 2)
    host.read()
    host.send(config(t, "0000000000000000"))
    host.send({"kind": "clock", "level_index": 1, "ms_left": 5, "paused": True, "host_ms": 0})
    run(link, now, 5)
    assert link.state == HELLO_SENT
    assert t.clock.index == 0 and not t.clock.paused  # nothing before the config counts


def test_a_config_the_rules_refuse_is_an_error_event():
    t = link_table()
    port = FakePort()
    link = Link(port, BOX, t, KEY, "ev1")
    link.restore(None)
    host = Host(port)
    now = run(link, 0, 2)
    nonce = host.read()[0]["nonce"]
    host.send(config(t, nonce, levels=[{"break": 10}]))
    run(link, now, 5)
    assert link.state == HELLO_SENT
    ev = [m for m in host.read() if m["kind"] == "event"]
    assert ev and ev[0]["what"] == "error" and "config refused" in ev[0]["text"]


def test_a_new_setup_waits_for_seating_and_builds_thelink_table():
    t = link_table()
    port = FakePort()
    link = Link(port, BOX, t, KEY, "ev1")
    link.restore(None)
    tables = StandIn().add(link) and link.app.tables
    host = Host(port)
    now = run(link, 0, 2)
    nonce = host.read()[0]["nonce"]
    host.send(config(t, nonce, seats=9, profile="wph"))
    now = run(link, now, 5)
    assert link.state == CONFIGURED and not tables
    host.send({"kind": "seating", "names": {"2": "A", "5": "B"}, "stacks": {"2": 5000, "5": 4000},
               "button": 5})
    host.send({"kind": "clock", "level_index": 1, "ms_left": 60000, "paused": False,
               "host_ms": 0})
    run(link, now, 5)
    assert link.state == LIVE
    assert len(tables) == 1 and link.table is tables[0]
    new = tables[0]
    assert new.n == 9 and new.stacks == {2: 5000, 5: 4000} and new.profile_name == "wph"
    assert new.clock.index == 1 and 59000 < new.clock.left_ms <= 60000


def test_same_setup_keeps_the_runninglink_table():
    t = link_table()
    do(t, "hand")
    assert same_setup(setup_of(t.setup), t.setup)
    link, port, host, now = live(t)
    assert link.table is t and t.hand is not None


def test_clock_toward_the_hosts():
    t = link_table()
    c = t.clock
    assert not clock_toward(c, 0, c.left_ms - 300, False)  # within the slack
    assert clock_toward(c, 0, 600000, False) and c.left_ms == 600000
    assert clock_toward(c, 0, 600000, True) and c.paused
    assert clock_toward(c, 2, 100, True) and c.index == 2 and c.on_break()
    assert not clock_toward(c, 9, 100, True)  # no such level here


def test_clock_message_whilelive():
    link, port, host, now = live(app=StandIn())
    host.send({"kind": "clock", "level_index": 1, "ms_left": 30000, "paused": True,
               "host_ms": 0})
    run(link, now, 3)
    assert link.table.clock.index == 1 and link.table.clock.paused and link.app.changes


# ---------------------------------------------------------------- replays
def test_duplicates_and_replays_are_refused():
    link, port, host, now = live()
    f = host.send({"kind": "clock", "level_index": 0, "ms_left": 1000000, "paused": False,
                   "host_ms": 0})
    now = run(link, now, 3)
    assert link.table.clock.left_ms == 1000000
    link.table.clock.left_ms = 500000
    port.feed(f)  # the same frame again
    now = run(link, now, 3)
    assert link.table.clock.left_ms == 500000
    assert link.rx.duplicates == 1
    old = Host(port)  # frames of an earlier host boot (0 < 1)
    old.tx.boot = 0
    old.send({"kind": "clock", "level_index": 0, "ms_left": 7, "paused": False, "host_ms": 0})
    run(link, now, 3)
    assert link.table.clock.left_ms == 500000 and link.rx.stale == 1


def test_frames_sent_before_the_config_are_stale_after_it():
    t = link_table()
    port = FakePort()
    link = Link(port, BOX, t, KEY, "ev1")
    link.restore(None)
    host = Host(port)
    now = run(link, 0, 2)
    nonce = host.read()[0]["nonce"]
    early = host.frame({"kind": "clock", "level_index": 1, "ms_left": 9, "paused": True,
                        "host_ms": 0})  # recorded earlier, replayed later
    host.send(config(t, nonce))
    now = run(link, now, 3)
    port.feed(early)
    run(link, now, 3)
    assert t.clock.index == 0 and link.rx.duplicates == 1  # pinned: counted as seen


def test_forged_and_garbage_lines_are_counted_not_acted_on():
    link, port, host, now = live()
    port.feed(b"hello there\r\n\n>>> \n")
    port.feed(encode({"kind": "ping"}, b"another-key-0123456789", 1))
    for _ in range(10):
        port.feed(b"x" * 500)
    port.feed(b"\n")
    port.feed(host.frame({"kind": "ping", "t": 3}))
    run(link, now, 20)
    assert link.garbage == 2 and link.lines.overlong == 1 and link.rx.forged == 1
    assert [m.get("t") for m in host.read() if m["kind"] == "pong"] == [3]
