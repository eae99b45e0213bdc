"""The box's book of the host's instructions (tcbox/instructions/book.py): each state and
its ways out, the screen's order, the bound, the power-loss record.  Portable (MicroPython)."""

import json

from tcbox.instructions.book import (
    BODIES_MAX,
    BOOK_MAX,
    PARK_MS,
    PARKED_MAX,
    RECORD_MAX,
    Book,
)


def _diff(a, b):
    return a - b


def _move(iid, seat=3, **more):
    body = {"kind": "instruction", "id": iid, "action": "move_out", "seat": seat,
            "to_table": 2, "to_seat": 7}
    for k in more:
        body[k] = more[k]
    return body


def _states(book):
    return [(e[0], e[1]) for e in book.entries]


def test_shown_then_waiting_then_the_next_shown_as_each_is_answered():
    book = Book()
    assert book.shown() is None and book.find("i-1") is None and book.seen("i-1") is None
    book.hand("i-1", _move("i-1"))
    book.hand("i-2", _move("i-2", 4))
    book.hand("i-3", _move("i-3", 5))
    assert _states(book) == [("i-1", "shown"), ("i-2", "waiting"), ("i-3", "waiting")]
    assert book.waiting == 2 and book.shown()[3]["seat"] == 3
    assert book.answer("i-1", "done", None, 3075) == 3075  # carried out: the next one
    assert book.shown()[0] == "i-2" and book.waiting == 1
    assert book.find("i-1")[1:4] == ["done", None, 3075]  # the body goes, the chips stay
    book.answer("i-2", "acknowledged")                      # confirmed mid-hand: waits
    assert book.shown()[0] == "i-3" and book.waiting == 0
    assert book.find("i-2")[1] == "acknowledged" and book.find("i-2")[3]["seat"] == 4
    book.answer("i-2", "done", None, 1200)                  # at the hand's end
    book.answer("i-3", "refused", "Seat 5 is empty", 99)    # no chips with a refusal
    assert book.find("i-3")[1:4] == ["refused", "Seat 5 is empty", None]
    assert book.shown() is None and book.waiting == 0
    assert [e[0] for e in book.entries] == ["i-1", "i-2", "i-3"]  # in the order they changed


def test_a_withdrawn_one_waiting_leaves_the_one_shown_alone():
    book = Book()
    book.hand("i-1", _move("i-1"))
    book.hand("i-2", _move("i-2"))
    book.answer("i-2", "refused", "withdrawn by the host")
    assert book.shown()[0] == "i-1" and book.waiting == 0


def test_a_plain_message_has_no_id_and_goes_when_answered():
    book = Book()
    e = book.hand(None, "Seat 2: phone")
    book.hand("i-1", _move("i-1"))
    assert book.shown() is e and book.find(None) is None
    book.answered(e, "done")
    assert book.shown()[0] == "i-1" and len(book.entries) == 1


def test_the_same_answer_twice_changes_nothing():
    book = Book()
    book.answer("i-1", "done", None, 50)
    book.answer("i-2", "done", None, 60)
    rec = book.record()
    book.answer("i-1", "done", None, 50)  # the App's and the link's
    assert book.record() is rec and [e[0] for e in book.entries] == ["i-1", "i-2"]


def test_parked_until_its_seating_or_predecessor_then_out_of_the_book():
    book = Book()
    take = {"id": "i-7", "action": "take_out", "seat": 2, "name": "Eve", "sv": 6}
    receive = {"id": "i-10", "action": "receive", "seat": 2, "stack": 900, "after": "i-9"}
    assert book.early(take, 5) and not book.early(take, 6) and not book.early(take, None)
    assert book.early(receive, None)
    book.park(take, 100)
    book.park(take, 200)  # a resend: parked once, from when it first came
    book.park(receive, 300)
    assert book.parked == 2 and book.find("i-7")[1] == "parked" and book.seen("i-7") is None
    assert book.ready(5, 400, _diff) is None
    assert book.ready(6, 400, _diff)["id"] == "i-7"  # its seating came
    assert book.find("i-7") is None and book.parked == 1
    book.park(take, 500)
    book.answer("i-9", "refused", "withdrawn by the host")  # the predecessor, called off
    assert book.ready(5, 600, _diff)["id"] == "i-10"
    assert book.ready(5, 600 + PARK_MS - 101, _diff) is None
    assert book.ready(5, 500 + PARK_MS, _diff)["id"] == "i-7"  # waited long enough: goes on
    assert book.parked == 0 and book.entries == [["i-9", "refused", "withdrawn by the host",
                                                  None, None]]


def test_parked_ones_are_bounded_and_a_config_drops_them():
    book = Book()
    for n in range(PARKED_MAX + 2):
        book.park({"id": "p-%d" % n, "action": "take_out", "seat": 1, "sv": 9}, n)
    assert book.parked == PARKED_MAX and book.find("p-0") is None and book.find("p-2")
    book.hand("i-1", _move("i-1"))
    book.unpark()
    assert book.parked == 0 and _states(book) == [("i-1", "shown")]


def test_a_parked_one_handed_on_a_resend_is_the_same_entry():
    book = Book()
    book.park({"id": "i-7", "action": "take_out", "seat": 2, "sv": 9}, 0)
    book.hand("i-7", _move("i-7"))
    assert book.parked == 0 and _states(book) == [("i-7", "shown")]


def test_the_book_is_bounded_answered_ones_go_first():
    book = Book()
    book.hand("s-1", _move("s-1"))
    book.hand("w-1", _move("w-1"))
    book.answer("a-1", "acknowledged")
    for n in range(BOOK_MAX):
        book.answer("d-%d" % n, "done", None, n)
    assert len(book.entries) == BOOK_MAX
    assert book.find("d-2") is None and book.find("d-3") is not None  # 3 made room
    assert book.shown()[0] == "s-1" and book.waiting == 1 and book.find("a-1")
    for n in range(BOOK_MAX):  # all on screen or waiting: the oldest waiting goes
        book.hand("x-%d" % n, _move("x-%d" % n))
    assert len(book.entries) == BOOK_MAX and book.shown()[0] == "s-1"
    assert book.find("w-1") is None and book.find("x-1") is None and book.find("x-2")
    assert book.waiting == BOOK_MAX - 2
    assert book.find("a-1")[1] == "acknowledged"  # its change waits for the hand's end


def test_record_round_trip_brings_the_screen_back_in_its_order():
    book = Book()
    book.answer("i-1", "done", None, 3075)
    book.answer("i-2", "refused", "Seat 4 is taken")
    book.hand("i-3", _move("i-3"))
    book.answer("i-3", "acknowledged")
    book.hand("i-4", _move("i-4", 4))
    book.hand("i-5", _move("i-5", 5))
    book.park({"id": "i-6", "action": "take_out", "seat": 2, "sv": 9}, 0)
    rec = json.loads(json.dumps(book.record()))
    assert len(json.dumps(rec)) <= RECORD_MAX
    assert [r[:2] for r in rec] == [["i-3", "acknowledged"], ["i-4", "shown"],
                                    ["i-5", "waiting"], ["i-1", "done"], ["i-2", "refused"]]
    assert "id" not in rec[1][3] and "kind" not in rec[1][3]  # the entry's
    again = Book()
    again.restore(rec)
    assert again.shown()[3] == _move("i-4", 4) and again.waiting == 1
    assert again.find("i-1")[1:4] == ["done", None, 3075]
    assert again.find("i-2")[1:4] == ["refused", "Seat 4 is taken", None]
    assert again.find("i-3")[1] == "acknowledged" and again.find("i-6") is None
    again.answer("i-4", "done")
    assert again.shown()[0] == "i-5"


def test_record_bounds_bodies_then_answers():
    book = Book()
    big = _move("i-1", name="x" * (BODIES_MAX - 90))
    book.hand("i-1", big)                 # fits the bodies' bytes alone
    book.hand("i-2", _move("i-2"))       # no room left: the host resends it
    for n in range(BOOK_MAX - 2):
        book.answer("i6c2f1a-%d" % (100 + n), "refused", "Seat 9 is empty: ask the TD")
    rec = book.record()
    assert len(json.dumps(rec)) <= RECORD_MAX
    ids = [r[0] for r in rec]
    assert ids[0] == "i-1" and "i-2" not in ids
    assert ids[-1] == "i6c2f1a-129" and "i6c2f1a-100" not in ids  # the newest answers
    again = Book()
    again.restore(rec)
    assert again.shown()[0] == "i-1" and again.waiting == 0


def test_restore_takes_an_older_boxs_record_and_leaves_damage_out():
    book = Book()
    book.restore([["i-7", None, None, {"action": "pause"}],  # unconfirmed (before the book)
                  ["i-8", "done", None, 50], ["i-9", "done", None, True],
                  ["i-10", "shown", None, 42], "junk", ["i-11", "lost", None, None],
                  ["i-8", "refused", None, None], ["i-12", "shown", 5, {"action": "resume"}]])
    assert _states(book) == [("i-7", "waiting"), ("i-8", "done"), ("i-9", "done"),
                             ("i-12", "shown")]
    assert book.find("i-7")[3] == {"action": "pause", "id": "i-7", "kind": "instruction"}
    assert book.find("i-9")[3] is None and book.find("i-12")[2] is None
    assert book.waiting == 1


def test_an_older_boxs_unconfirmed_ones_come_back_on_screen():
    book = Book()
    book.restore([["i-7", None, None, {"action": "pause"}], ["i-8", None, None, "Hi"]])
    assert book.shown()[0] == "i-7" and book.waiting == 1
