"""The box's book of instructions (tcbox/instructions/book.py) between the link and the App
(tcbox/instructions/pending.py): withdraws answered as the book says, the screen back after
a power cut.  Portable (its own MicroPython heap: test_link_app.py has no room left)."""

import json

# the instructions' modules the app imports at the dealer's first Confirm, compiled before
# the tests fragment the MicroPython heap (as test_app.py)
import tcbox.instructions.at_table  # noqa: F401, I001
import tcbox.instructions.words  # noqa: F401, I001
from link_util import BOX, KEY, FakePort, boxed, live, run
from tcbox.link.box_end import Link


def _answers(host):
    return [(m["instr"], m["result"], m.get("reason"), m.get("stack"))
            for m in host.read() if m["kind"] == "event" and m["what"] == "instruction"]


def test_a_withdraw_is_answered_as_the_book_says():
    """docs/protocol.md "withdraw": already done, already refused, never seen, on screen."""
    link, port, host, now = live()
    app = boxed(link)
    link.instruction_done("i-41", "done", None, 3000)      # carried out already
    link.instruction_done("i-42", "refused", "Seat 4 is taken")
    for wid, x in (("w-1", "i-41"), ("w-2", "i-42"), ("w-3", "i-99")):
        host.send({"kind": "instruction", "id": wid, "action": "withdraw", "instr": x})
    now = run(link, now, 6)
    assert app.info["instruction"] is None and app.menu.note == ""  # nothing for the dealer
    assert _answers(host)[2:] == [("w-1", "refused", "already carried out", None),
                                  ("w-2", "done", None, None), ("w-3", "done", None, None)]
    host.send({"kind": "instruction", "id": "i-99", "action": "pause"})  # overtaken
    now = run(link, now, 3)
    assert app.info["instruction"] is None and not app.table.clock.paused
    assert _answers(host) == [("i-99", "refused", "withdrawn by the host", None)]
    host.send({"kind": "ack", "ids": [e[0][0] for e in link.outbox]})
    host.send({"kind": "instruction", "id": "w-2", "action": "withdraw", "instr": "i-42"})
    now = run(link, now, 4)
    assert _answers(host) == [("w-2", "done", None, None)]  # a repeat: the same answer
    # one on the dealer's screen: off it at once, the one waiting behind it shown
    host.send({"kind": "instruction", "id": "i-50", "action": "message", "text": "Hi"})
    host.send({"kind": "instruction", "id": "i-51", "action": "pause"})
    now = run(link, now, 4)
    assert app.info["instruction"]["id"] == "i-50" and app.info["queued"] == 1
    host.send({"kind": "instruction", "id": "w-4", "action": "withdraw", "instr": "i-50"})
    run(link, now, 4)
    assert _answers(host) == [("i-50", "refused", "withdrawn by the host", None),
                              ("w-4", "done", None, None)]
    assert app.info["instruction"]["id"] == "i-51" and app.info["queued"] == 0
    assert app.menu.note == "Called off: Hi"
    assert [link.book.find(i)[1] for i in ("i-50", "i-51", "w-4")] == [
        "refused", "shown", "done"]


def test_instructions_on_screen_come_back_after_a_power_cut_in_their_order():
    link, port, host, now = live()
    boxed(link)
    for n in (7, 8, 9):
        host.send({"kind": "instruction", "id": "i-%d" % n, "action": "move_out", "seat": 3,
                   "to_table": 2, "to_seat": n})
    run(link, now, 6)
    assert link.save_due
    rec = json.loads(json.dumps(link.extra()))  # the power-loss record
    assert [r[:2] for r in rec["i"]] == [["i-7", "shown"], ["i-8", "waiting"],
                                        ["i-9", "waiting"]]
    box2 = Link(FakePort(), BOX, link.table, KEY, "ev1")
    box2.restore(rec)
    app2 = boxed(box2)
    assert app2.info["instruction"]["id"] == "i-7" and app2.info["instruction"]["to_seat"] == 7
    assert app2.info["queued"] == 2
    app2.ack()                                      # the dealer confirms: the next one
    assert app2.info["instruction"]["id"] == "i-8" and app2.info["queued"] == 1
    # a withdraw of one restored and waiting: never shown
    box2.take_instruction({"kind": "instruction", "id": "w-9", "action": "withdraw",
                           "instr": "i-9", "v": "1.2", "boot": 1, "seq": 9})
    assert [e[0][1:4] for e in box2.outbox] == [["instruction", "i-7", "done"],
                                                ["instruction", "i-9", "refused"],
                                                ["instruction", "w-9", "done"]]
    app2.ack()
    assert app2.info["instruction"] is None and app2.info["queued"] == 0


def test_a_withdraw_of_a_parked_one_refuses_it_at_once():
    """docs/protocol.md "withdraw": one parked (its seating has not come) is answered refused
    at once and never shown, even when its seating comes."""
    link, port, host, now = live()
    app = boxed(link)
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "sv": 5})
    host.send({"kind": "instruction", "id": "i-7", "action": "take_out", "seat": 2,
               "name": "Bo", "sv": 6})
    now = run(link, now, 6)
    assert link.book.parked == 1 and app.info["instruction"] is None
    host.read()
    host.send({"kind": "instruction", "id": "w-7", "action": "withdraw", "instr": "i-7"})
    now = run(link, now, 6)
    assert _answers(host) == [("i-7", "refused", "withdrawn by the host", None),
                              ("w-7", "done", None, None)]
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}, "sv": 6})
    run(link, now, 6)
    assert link.book.parked == 0 and app.info["instruction"] is None
    assert 2 in app.table.stacks  # Bo still sits
