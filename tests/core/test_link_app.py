"""The box's serial link (tcbox/link/box_end.py), part 3: a part of the App
(App.add; its hooks, tcbox/app.py HOOKS).  Portable, like parts 1 and 2 (test_link.py,
test_link_out.py); the same through the real power-loss record (which would
not fit the MicroPython run's heap beside everything else) is in
tests/host/test_usb_link.py.
"""

import json

# the instructions' modules the app imports at the dealer's first Confirm, compiled before
# the tests fragment the MicroPython heap (as test_app.py): mid-run they found no 2 KB
import tcbox.instructions.at_table  # noqa: F401, I001
import tcbox.instructions.words  # noqa: F401, I001
from link_util import BOX, KEY, FakePort, Host, config, link_table
from tcbox.app import App
from tcbox.link.box_end import Link
from tcbox.link.states import LIVE


# ---------------------------------------------------------------- the app
class _Screen:
    def update(self, f):
        return 0


class _Keys:
    def get(self):
        return None


class _Saver:
    """record.Saver's interface: keeps the JSON of each offer's extra."""

    def __init__(self):
        self.extras = []

    def offer(self, t, extra=None):
        self.extras.append(json.loads(json.dumps(extra)))
        return 1

    def saved(self, t, extra=None):
        pass

    def fingerprint(self, t, extra=None):
        return object()  # the table counts as changed at every offer


def test_a_part_to_the_app_events_go_into_the_same_save():
    t = link_table()
    saver = _Saver()
    app = App(t, ["left", "ok", "right"], _Screen(), _Keys(), saver=saver)
    port = FakePort()
    link = Link(port, BOX, t, KEY, "ev1")
    link.restore({"b": 3})
    app.add(link)
    app.step(0)
    assert saver.extras[-1]["b"] == 4
    assert app.info["link"] == "USB: waiting"
    # what App.press does with an accepted event: handle, save, redraw
    assert t.handle({"do": "hand"}) is None
    app.save()
    assert [e[1] for e in saver.extras[-1]["o"]] == ["hand_started"]
    app.dirty = True
    app.step(10)
    assert len(link.outbox) == 1  # the redraw's state adds nothing twice
    # what a power cut leaves: the unsent event (test_link_out.py restores such)
    assert saver.extras[-1]["o"][0][:2] == ["4-1", "hand_started"]


def test_a_part_the_link_takes_each_redraws_state_at_the_redraw():
    # App.on_state: the link holds the redraw's state, none of its own: a save
    # takes the table's facts and builds no state (bench/README.md, "The night's peak")
    t = link_table()
    app = App(t, ["left", "ok", "right"], _Screen(), _Keys(), saver=_Saver())
    link = Link(FakePort(), BOX, t, KEY, "ev1")
    link.restore({"b": 3})
    app.add(link)
    app.step(0)
    before = app.state
    assert t.handle({"do": "hand"}) is None
    app.save()
    assert link.last_state is before and app.state is before
    assert [e[0][1] for e in link.outbox] == ["hand_started"]
    app.dirty = True
    app.redraw()  # the redraw alone, not the link's after_step
    assert link.last_state is app.state
    assert [e[0][1] for e in link.outbox] == ["hand_started"]  # once


def test_a_part_a_seat_busted_in_the_hand_is_told_before_the_player_moving_in():
    # a move out of seat 2 and a move into it, confirmed during the hand; seat 2
    # busts: the host hears the hand's end and the bust, then the answers
    t = link_table()
    app = App(t, ["left", "ok", "right"], _Screen(), _Keys(), saver=_Saver())
    link = Link(FakePort(), BOX, t, KEY, "ev1")
    link.restore({"b": 3})
    app.add(link)
    assert t.handle({"do": "hand"}) is None
    app.save()
    app.instruct({"id": "i-1", "action": "move_out", "seat": 2, "to_table": 7, "to_seat": 1})
    app.ack()
    app.instruct({"id": "i-2", "action": "receive", "seat": 2, "stack": 4250, "from_table": 5})
    app.ack()
    assert len(t.moves) == 2
    st = t.state()
    while st["street"] is not None and st["street"] != "showdown":
        assert t.handle({"do": "allin" if st["to_call"] or st["street"] == "preflop"
                         else "call"}) is None
        st = t.state()
    assert t.handle({"do": "showdown", "ranking": [[1], [3], [2]]}) is None
    app.step(0)  # the hand is over: the waiting moves are carried out
    assert t.stacks[2] == 4250 and not t.moves
    told = [ev[0][1:] for ev in link.outbox]
    at = told.index(["hand_ended", 1, {"1": 9000}])
    assert sorted(told[at + 1:at + 3]) == [["bust", 2, 3000, 1], ["bust", 3, 3000, 1]]
    assert told[at + 3:] == [["instruction", "i-1", "refused", "Seat 2 is empty"],
                             ["instruction", "i-2", "done", None]]


def test_a_part_a_take_out_and_a_receive_into_its_seat_tell_no_bust_of_the_newcomer():
    # the TD's take_out of seat 2 and a receive into seat 2, confirmed during the hand,
    # carried out together at its end: the answers, and no bust the host would take for
    # the newcomer's (the league has the TD's bust: tdhost.live.bust_collector.td_out)
    t = link_table()
    app = App(t, ["left", "ok", "right"], _Screen(), _Keys(), saver=_Saver())
    link = Link(FakePort(), BOX, t, KEY, "ev1")
    link.restore({"b": 3})
    app.add(link)
    assert t.handle({"do": "hand"}) is None
    app.save()
    app.instruct({"id": "i-1", "action": "take_out", "seat": 2})
    app.ack()
    app.instruct({"id": "i-2", "action": "receive", "seat": 2, "stack": 4250, "from_table": 5})
    app.ack()
    assert t.handle({"do": "fold"}) is None  # seat 1 folds, seat 2 (SB) folds: seat 3 wins
    assert t.handle({"do": "fold"}) is None
    app.step(0)
    assert t.stacks[2] == 4250 and not t.moves
    told = [ev[0][1:] for ev in link.outbox]
    assert [e for e in told if e[0] == "bust"] == []
    assert told[-2:] == [["instruction", "i-1", "done", None, 2975],
                         ["instruction", "i-2", "done", None]]
    # a take_out between hands, the seat left empty: told after its answer
    app.instruct({"id": "i-3", "action": "take_out", "seat": 1})
    app.ack()  # the dealer's Confirm
    app.step(10)
    told = [ev[0][1:] for ev in link.outbox]
    assert told[-2:] == [["instruction", "i-3", "done", None, 3000], ["bust", 1, 3000, None]]


def test_a_part_a_new_table_from_the_host_replaces_the_apps():
    t = link_table()
    app = App(t, ["left", "ok", "right"], _Screen(), _Keys())
    port = FakePort()
    link = Link(port, BOX, t, KEY, "ev1")
    link.restore(None)
    app.add(link)
    host = Host(port)
    now = 0
    for _ in range(3):
        app.step(now)
        now += 10
    nonce = host.read()[0]["nonce"]
    host.send(config(t, nonce, seats=8))
    host.send({"kind": "seating", "names": {"1": "A", "8": "B"}, "stacks": {"1": 10, "8": 20}})
    host.send({"kind": "clock", "level_index": 0, "ms_left": 1000, "paused": False,
               "host_ms": 0})
    for _ in range(10):
        app.step(now)
        now += 10
    assert app.table is link.table and app.table is not t
    assert app.table.stacks == {1: 10, 8: 20} and app.state["stacks"] == {"1": 10, "8": 20}
    assert link.state == LIVE and app.info["link"] == "USB ok" and app.info["table"] == 4
    # an instruction: on screen until the dealer confirms; between hands the
    # move is carried out at once (tcbox/instructions/at_table.py) and the host hears done
    host.read()
    ins = {"kind": "instruction", "id": "i-9", "action": "move_out", "seat": 8, "to_table": 2,
           "to_seat": 3}
    host.send(ins)
    for _ in range(3):
        app.step(now)
        now += 10
    assert app.info["instruction"]["id"] == "i-9"
    host.send(ins)  # the host resends it: shown once
    for _ in range(3):
        app.step(now)
        now += 10
    assert app.book.waiting == 0 and app.info["queued"] == 0 and app.book is link.book
    app.ack()  # the dealer's Confirm
    for _ in range(3):
        app.step(now)
        now += 10
    ev = [m for m in host.read() if m["kind"] == "event"]
    assert [(m["instr"], m["result"], m["stack"]) for m in ev] == [("i-9", "done", 20)]
    assert app.table.stacks == {1: 10}  # seat 8 went to table 2 with its 20 chips
    # protocol 1.2: the host calls an instruction on screen off, no Confirm
    host.send({"kind": "instruction", "id": "i-10", "action": "deduct", "seat": 1,
               "chips": 5})
    host.send({"kind": "instruction", "id": "i-11", "action": "withdraw", "instr": "i-10"})
    for _ in range(6):
        app.step(now)
        now += 10
    ev = [m for m in host.read() if m["kind"] == "event"]
    assert [(m["instr"], m["result"], m.get("reason")) for m in ev] == [
        ("i-10", "refused", "withdrawn by the host"), ("i-11", "done", None)]
    assert not app.awaiting() and app.table.stacks == {1: 10}
    assert app.menu.note == "Called off: Seat 1: remove 5 chips from play"

