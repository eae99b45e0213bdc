"""The box's serial link (tcbox/link/box_end.py), part 2: the outbox and its
persistence, a port that stops taking bytes, instructions and pairing.
Portable, like part 1 (test_link.py).
"""

import json

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
from tableclock.protocol import UNPAIRED_KEY, decode, encode
from tc_util import do
from tcbox.link.box_end import (
    EXTRA_EVENTS_MAX,
    OUTBOX_HARD,
    OUTBOX_MAX,
    RESEND_MS,
    SILENCE_MS,
    Link,
)
from tcbox.link.states import DISCONNECTED, HELLO_SENT, LIVE


# ---------------------------------------------------------------- events out
def test_events_go_out_until_acknowledged():
    link, port, host, now = live()
    host.read()
    t = link.table
    st0 = t.state()
    link.observe(st0)
    link.observe(do(t, "hand"))
    now = run(link, now, 3)
    ev = [m for m in host.read() if m["kind"] == "event"]
    assert [(m["what"], m["id"]) for m in ev] == [("hand_started", "0-1")]
    now = run(link, now + RESEND_MS, 2)
    again = [m for m in host.read() if m["kind"] == "event"]
    assert [m["id"] for m in again] == ["0-1"]  # resent, same id, new frame
    assert again[0]["seq"] > ev[0]["seq"]
    host.send({"kind": "ack", "ids": ["0-1"]})
    now = run(link, now, 2)
    assert not link.outbox
    run(link, now + RESEND_MS, 2)
    assert not [m for m in host.read() if m["kind"] == "event"]


def test_the_outbox_is_bounded_dropping_the_oldest():
    link, port, host, now = live()
    for i in range(OUTBOX_MAX + 5):
        link.error("e%d" % i)
    assert len(link.outbox) == OUTBOX_MAX and link.dropped == 5
    assert link.outbox[0][0][2] == "e5"
    extra = link.extra()
    assert 0 < len(extra["o"]) <= OUTBOX_MAX
    assert extra["o"][-1][2] == "e68"  # the newest kept first
    size = 0
    for e in link.outbox[-len(extra["o"]):]:
        size += e[2]
    assert size <= EXTRA_EVENTS_MAX


def test_events_survive_a_reboot_with_their_ids():
    link, port, host, now = live()
    t = link.table
    link.observe(t.state())
    link.observe(do(t, "hand"))
    link.error("keypad stuck")
    extra = link.extra()
    assert extra["b"] == 0
    port2 = FakePort()
    box2 = Link(port2, BOX, t, KEY, "ev1")
    box2.restore(extra)
    assert box2.boot == 1 and box2.save_due
    host2 = Host(port2)
    now = run(box2, now, 2)
    nonce = [m for m in host2.read() if m["kind"] == "hello"][0]["nonce"]
    host2.send(config(t, nonce))
    now = run(box2, now, 6)
    ids = [m["id"] for m in host2.read() if m["kind"] == "event"]
    assert ids == ["0-1", "0-2"], ids
    assert box2.error("new") == "1-1"  # new ids carry the new boot


def _bust_seat_3(t):
    """Hand 1 at link_table (3000 each): seat 3 all in, seat 1 calls, seat 2 folds;
    seat 1 wins 6025 (seat 2 folded its small blind of 25): seat 3 busts at the hand's
    end with 3000 at its start."""
    assert t.handle({"do": "hand"}) is None
    while t.hand is not None and t.hand.actor is not None:
        seat = t.hand.actor
        assert t.handle({"do": "allin" if seat == 3 else "fold" if seat == 2
                         else "call"}) is None, t.error
    assert t.handle({"do": "showdown", "ranking": [[1], [3]]}) is None, t.error
    assert 3 not in t.stacks and t.stacks[1] == 6025


def test_a_bust_at_the_hands_end_is_one_event_sent_again_after_a_cut_before_the_ack():
    link, port, host, now = live()
    host.read()
    t = link.table
    _bust_seat_3(t)
    extra = link.on_save(StandIn(table=t))  # the save of the change takes its facts
    busts = [e[0] for e in link.outbox if e[0][1] == "bust"]
    assert busts == [["0-3", "bust", 3, 3000, 1]]  # once: hand_started, hand_ended before
    assert [e[1] for e in extra["o"]] == ["hand_started", "hand_ended", "bust"]
    link.observe(t.state())  # the redraw after it, and more saves: nothing again
    link.on_save(StandIn(table=t))
    assert len(link.outbox) == 3
    now = run(link, now, 6)
    sent = [m for m in host.read() if m["kind"] == "event" and m["what"] == "bust"]
    assert sent == [{"kind": "event", "v": sent[0]["v"], "from": BOX, "to": "host",
                     "boot": 0, "seq": sent[0]["seq"], "id": "0-3", "what": "bust",
                     "seat": 3, "chips_start": 3000, "hand": 1}]
    # the power goes before the host's ack came: the box starts from that record
    port2 = FakePort()
    box2 = Link(port2, BOX, t, KEY, "ev1")
    box2.restore(json.loads(json.dumps(extra)))
    host2 = Host(port2, boot=2)
    now = run(box2, now, 2)
    nonce = [m for m in host2.read() if m["kind"] == "hello"][0]["nonce"]
    host2.send(config(t, nonce))
    now = run(box2, now, 8)
    again = [m for m in host2.read() if m["kind"] == "event"]
    assert [(m["id"], m["what"]) for m in again] == [
        ("0-1", "hand_started"), ("0-2", "hand_ended"), ("0-3", "bust")]  # the same ids
    assert again[2]["chips_start"] == 3000 and again[2]["hand"] == 1
    host2.send({"kind": "ack", "ids": ["0-1", "0-2", "0-3"]})
    run(box2, now, 3)
    assert not box2.outbox and not t.nfacts


def test_a_full_outbox_keeps_the_bust():
    link, port, host, now = live()
    port.accept = 0  # nobody reads: the outbox fills
    t = link.table
    link.observe(t.state())
    for i in range(OUTBOX_MAX):
        do(t, "away" if i % 2 == 0 else "back", seat=2)
        link.observe(t.state())
    assert len(link.outbox) == OUTBOX_MAX and link.dropped == 0
    assert link.info_text() == "USB ok (events waiting: %d)" % OUTBOX_MAX
    do(t, "bust", seat=2)  # between hands: the chips it has
    link.observe(t.state())
    for i in range(10):  # more informational ones: they give way to each other
        do(t, "away" if i % 2 == 0 else "back", seat=1)
        link.observe(t.state())
    assert len(link.outbox) == OUTBOX_MAX and link.dropped == 11
    busts = [e[0][1:] for e in link.outbox if e[0][1] == "bust"]
    assert busts == [["bust", 2, 3000, None]]
    for i in range(OUTBOX_HARD):  # answers and the bust: kept beyond OUTBOX_MAX, bounded
        link.instruction_done("i-%d" % i, "acknowledged")
    assert len(link.outbox) == OUTBOX_HARD
    assert [e[0][1:] for e in link.outbox if e[0][1] == "bust"] == [["bust", 2, 3000, None]]
    assert link.outbox[0][0][1] == "bust"  # the informational ones went first, then answers
    # the record: the bust first and whole, then answers in the room left
    kept = link.extra()["o"]
    assert kept[0][1] == "bust" and link.unsaved > 0
    assert "events waiting" in link.info_text()


def test_a_computer_that_stops_reading_never_blocks_the_box():
    link, port, host, now = live()
    host.read()
    port.accept = 0
    t = link.table
    link.observe(t.state())
    for i in range(100):
        link.observe(do(t, "away" if i % 2 == 0 else "back", seat=2))
        ops, w = link.ops, port.writes
        link.poll(now)
        assert link.ops - ops <= 4 and port.writes - w <= 1  # bounded work per poll
        now += 700
    assert port.sent == b"" and link.stalls >= 99
    assert len(link.outbox) == OUTBOX_MAX and link.dropped == 100 - OUTBOX_MAX
    # it reads again, a few bytes at a time: the frames come out whole
    port.accept = 7
    want = [e[0][0] for e in link.outbox]
    ids = []
    for i in range(20000):
        link.poll(now)
        now += 5
        if i % 50 == 0:
            got = [m["id"] for m in host.read() if m["kind"] == "event"]  # all whole and good
            ids += got
            if got:
                host.send({"kind": "ack", "ids": got})
            if not link.outbox:
                break
    assert not link.outbox
    assert ids[0] == "0-1"  # the frame it was writing when the port stalled
    first = []
    for i in ids[1:]:  # (trickling out takes longer than RESEND_MS: some go twice)
        if i not in first:
            first.append(i)
    assert first == want


def test_a_lost_connection_ends_a_cut_frame_and_says_hello_again():
    link, port, host, now = live()
    host.read()
    port.accept = 5
    link.error("x")
    link.poll(now)
    assert link.out is not None
    port.connected = False
    link.poll(now + 10)
    assert link.state == DISCONNECTED
    port.connected = True
    port.accept = None
    port.take()
    run(link, now + 20, 3)
    assert port.sent[:1] == b"\n"
    assert kinds(host.read())[0] == "hello"


def test_silence_from_the_host_means_hello_again():
    link, port, host, now = live()
    host.read()
    first = link.nonce
    run(link, now + SILENCE_MS - 100, 2)
    assert link.state == LIVE
    run(link, now + SILENCE_MS, 2)
    assert link.state == HELLO_SENT and link.nonce != first
    assert [m["nonce"] for m in host.read() if m["kind"] == "hello"] == [link.nonce]


def test_a_restarted_host_is_told_hello():
    link, port, host, now = live()
    host.read()
    newhost = Host(port, boot=2)
    newhost.send({"kind": "ping"}, "*")
    run(link, now, 3)
    assert link.state == HELLO_SENT
    assert kinds(newhost.read()) == ["hello", "pong"]


# ---------------------------------------------------------------- instructions
def test_instructions_once_with_their_result():
    link, port, host, now = live()
    seen = []
    StandIn(seen.append).add(link)
    instr = {"kind": "instruction", "id": "i-1", "action": "message", "text": "Colour up"}
    host.send(instr)
    now = run(link, now, 3)
    assert len(seen) == 1 and seen[0]["text"] == "Colour up"
    host.send(instr)  # resent by the host before any answer: not shown again
    now = run(link, now, 3)
    assert len(seen) == 1
    link.instruction_done("i-1", "done")
    now = run(link, now, 3)
    ev = [m for m in host.read() if m["kind"] == "event"]
    assert [(m["instr"], m["result"]) for m in ev] == [("i-1", "done")]
    host.send({"kind": "ack", "ids": [ev[0]["id"]]})
    now = run(link, now, 3)
    host.send(instr)  # again after the answer was acknowledged: the answer again
    run(link, now, 3)
    ev2 = [m for m in host.read() if m["kind"] == "event"]
    assert len(seen) == 1 and ev2 and ev2[0]["result"] == "done" and ev2[0]["id"] != ev[0]["id"]


def _answers(host):
    return [(m["instr"], m["result"], m.get("reason"), m.get("stack"))
            for m in host.read() if m["kind"] == "event" and m["what"] == "instruction"]


def test_a_move_outs_answer_carries_the_stack_again_after_a_reboot():
    """Protocol 1.2: ``done`` for a move_out carries the chips the player left
    with; a repeat of the id is answered with the same stack, also after a
    power cut (the record's instruction part keeps it)."""
    link, port, host, now = live()
    StandIn(lambda m: None).add(link)
    out = {"kind": "instruction", "id": "i-41", "action": "move_out", "seat": 3,
           "to_table": 2, "to_seat": 7}
    host.send(out)
    now = run(link, now, 3)
    link.instruction_done("i-41", "done", None, 3075)
    link.instruction_done("i-43", "refused", "Seat 9 is empty", 50)  # no stack on a refusal
    now = run(link, now, 4)
    got = _answers(host)
    assert got == [("i-41", "done", None, 3075), ("i-43", "refused", "Seat 9 is empty", None)]
    host.send({"kind": "ack", "ids": [e[0][0] for e in link.outbox]})
    now = run(link, now, 3)
    assert link.outbox == []
    host.send(out)                                  # the host did not hear it: again
    now = run(link, now, 3)
    assert _answers(host) == [("i-41", "done", None, 3075)]
    box2 = Link(FakePort(), BOX, link.table, KEY, "ev1")
    box2.restore(json.loads(json.dumps(link.extra())))  # the power-loss record
    assert box2.book.find("i-41")[:4] == ["i-41", "done", None, 3075]
    box2.take_instruction(dict(out, v="1.0", boot=1, seq=9))
    assert box2.outbox[-1][0][1:] == ["instruction", "i-41", "done", None, 3075]


def test_without_a_handler_instructions_are_refused():
    link, port, host, now = live()
    host.send({"kind": "instruction", "id": "i-2", "action": "redraw"})
    run(link, now, 4)
    ev = [m for m in host.read() if m["kind"] == "event"]
    assert ev and ev[0]["result"] == "refused"


# ---------------------------------------------------------------- pairing
def _pair_frame(key, table_no=5, boot=0, seq=1):
    return encode({"kind": "pair", "key": "".join("%02x" % b for b in key), "key_id": "ev2",
                   "table": table_no, "event": "Spring", "settings": {"wifi_ssid": "tc"}},
                  key, seq, "host", boot, "*")


def test_an_unpaired_box_says_hello_with_the_public_key_and_takes_a_pairing():
    port = FakePort()
    link = Link(port, BOX, link_table())
    link.restore(None)
    assert not link.paired and link.info_text() == "USB: not paired"
    assert link.error("x") is None  # no host to tell
    now = run(link, 0, 2)
    hello = decode(port.sent.split(b"\n")[0], UNPAIRED_KEY, "host")
    assert hello["key_id"] == "unpaired"
    port.take()
    key2 = b"k" * 32
    port.feed(b"junk\n" + _pair_frame(key2))
    now = run(link, now, 4)
    assert link.paired and link.table_no == 5 and link.key_id == "ev2" and link.save_due
    host = Host(port, key=key2)
    hellos = [m for m in host.read() if m["kind"] == "hello"]
    assert hellos and hellos[0]["key_id"] == "ev2" and hellos[0]["table"] == 5
    # the pairing is in the record and comes back
    box2 = Link(FakePort(), BOX, link_table())
    box2.restore(link.extra())
    assert box2.paired and box2.key == key2 and box2.pairing["settings"]["wifi_ssid"] == "tc"


def test_a_pair_frame_with_a_wrong_signature_is_refused():
    port = FakePort()
    link = Link(port, BOX, link_table())
    link.restore(None)
    f = _pair_frame(b"k" * 32)
    bad = f.replace(b'"table":5', b'"table":6')
    port.feed(bad)
    run(link, 0, 4)
    assert not link.paired and link.refused_pairs == 1


def test_an_unpaired_box_takes_noconfig():
    port = FakePort()
    t = link_table()
    link = Link(port, BOX, t)
    link.restore(None)
    now = run(link, 0, 2)
    host = Host(port, key=UNPAIRED_KEY)
    nonce = host.read()[0]["nonce"]
    host.send(config(t, nonce))
    run(link, now, 4)
    assert link.state == HELLO_SENT


def test_extra_is_plain_json_and_survives_damage():
    import json

    link, port, host, now = live()
    link.error("a")
    e = link.extra()
    assert json.loads(json.dumps(e)) == e
    box = Link(FakePort(), BOX, link.table, KEY, "ev1")
    box.restore({"b": "x", "o": [["bad"], 5, ["0-9", "away", 3]], "i": 7, "p": {"key": "zz"}})
    assert box.boot == 0 and [e[0][0] for e in box.outbox] == ["0-9"]


def test_a_host_that_lost_its_boot_counter_is_heard_through_the_nonce():
    link, port, host, now = live()
    host.read()
    newhost = Host(port, boot=0)  # its boot file is gone: older than the pinned 1
    newhost.send({"kind": "ping", "t": 1}, "*")
    now = run(link, now, 3)
    assert link.rx.stale == 1 and link.state == LIVE  # not heard yet
    now = run(link, now + SILENCE_MS, 2)  # silence: hello again
    nonce = [m for m in newhost.read() if m["kind"] == "hello"][-1]["nonce"]
    newhost.send(config(link.table, nonce))
    newhost.send({"kind": "seating", "names": {}})
    newhost.send({"kind": "clock", "level_index": 0, "ms_left": 5000, "paused": False,
                  "host_ms": 0})
    run(link, now, 8)
    assert link.state == LIVE and link.host_boot == 0 and link.table.clock.left_ms == 5000
