"""The host's one instruction book (tdhost.live.instruction_book; docs/live.md
"Instructions"): per id the league's record, the link it was handed to, when that link last
sent it and its box's answer there; the links ask it what to send.  First the book alone
with stand-in links, then on a live night (tests/host/liveroom.py): handed, resent every
5 s until answered, queued without a link, handed again after a host restart."""

from liveroom import Room

from tdhost.live.instruction_book import RESEND_MS, InstructionBook


class _Link:
    """A stand-in for a link: the book only compares links by identity."""


MSG = {"id": "i-1", "action": "message", "text": "colour up at the break"}


def test_a_handed_instruction_is_due_at_once_then_every_5_s_until_answered():
    book, link = InstructionBook(), _Link()
    assert RESEND_MS == 5000
    book.hand(link, MSG)
    assert book.handed_to("i-1") is link and not book.answered("i-1")
    assert book.due(link, 1000) == [dict(MSG, kind="instruction")]
    assert book.due(link, 1000) == [] and book.due(link, 5999) == []
    assert [f["id"] for f in book.due(link, 6000)] == ["i-1"]
    assert book.due(link, 7000, every=True) == [dict(MSG, kind="instruction")]  # a hello
    assert book.due(link, 11999) == []  # (5 s after the hello's send)
    book.heard(link, "i-1", "acknowledged")
    assert book.answered("i-1") and book.result("i-1") == "acknowledged"
    assert book.due(link, 60000) == [] and book.due(link, 60000, every=True) == []
    assert book.unanswered == {}  # a link's poll reads only what waits for its box


def test_only_the_link_it_was_last_handed_to_sends_it_and_hears_its_answer():
    book, old, new = InstructionBook(), _Link(), _Link()
    book.hand(old, MSG)
    book.hand(old, dict(MSG, id="i-2"))
    assert [f["id"] for f in book.due(old, 0)] == ["i-1", "i-2"]  # in handing order
    book.hand(new, MSG)  # the table's box is now on another port
    assert list(book.unanswered[old]) == ["i-2"] and list(book.unanswered[new]) == ["i-1"]
    assert [f["id"] for f in book.due(old, 5000)] == ["i-2"]
    assert [f["id"] for f in book.due(new, 5000)] == ["i-1"]
    book.heard(old, "i-1", "done")  # the old port's late answer
    assert not book.answered("i-1") and book.due(new, 10000) != []
    book.heard(new, "i-1", "done")
    assert book.result("i-1") == "done" and book.due(new, 20000) == []
    assert book.handed_to("i-9") is None and book.result("i-9") is None


def _message(room, table, text):
    room.live.message(table, text)
    (record,) = [r for r in room.live.tournament.instrs.values() if r.get("body", {})
                 .get("text") == text]
    return record["id"]


def _pending_state(room, iid):
    return {p["id"]: p["state"] for p in room.pending()}.get(iid)


def _results(room, iid):
    return [(x["result"], x["by"]) for x in room.live.tournament.instrs[iid]["results"]]


def test_on_the_night_the_book_hands_each_open_instruction_to_its_tables_link(tmp_path):
    room = Room(tmp_path, n=20)
    book, box = room.live.book, room.boxes[1]
    iid = _message(room, 1, "Last hand before the break")
    assert [r["id"] for r in book.open(1)] == [iid]
    assert iid not in [r["id"] for r in book.open(2)]
    assert book.handed_to(iid) is None  # written; handed in the next poll
    room.step()
    assert book.handed_to(iid) is box.host
    room.run(200)
    assert [i["id"] for i in box.got] == [iid] and _pending_state(room, iid) == "sent"
    assert not book.answered(iid)
    room.run(12000)  # no answer: sent again at 5 and 10 s, shown once
    assert book.handed[iid].sent_ms >= room.now - 5000 - 200
    assert [i["id"] for i in box.got] == [iid]
    box.done(iid)
    room.run(1000)
    assert book.result(iid) == "done" and _results(room, iid) == [("done", "box")]
    assert book.open(1) == [] and _pending_state(room, iid) is None
    sent = book.handed[iid].sent_ms
    room.run(12000)
    assert book.handed[iid].sent_ms == sent  # answered: never sent again


def test_an_instruction_waits_queued_until_its_table_has_a_link(tmp_path):
    room = Room(tmp_path, n=20)
    book, box = room.live.book, room.boxes[2]
    room.live.remove_link(box.host)  # the box's port is gone
    iid = _message(room, 2, "Seat 4: your phone")
    room.run(6000)
    assert book.handed_to(iid) is None and _pending_state(room, iid) == "queued"
    assert box.got == []
    link = box.connect()  # the box on a new port
    room.run(1000)
    assert book.handed_to(iid) is link and [i["id"] for i in box.got] == [iid]
    assert _pending_state(room, iid) == "sent"


def test_a_restarted_host_builds_its_book_from_the_league_and_hands_it_again(tmp_path):
    room = Room(tmp_path, n=20)
    box = room.boxes[3]
    iid = _message(room, 3, "Table 3 breaks after this hand")
    room.run(1000)
    assert [i["id"] for i in box.got] == [iid]
    room.restart()  # the host is killed: its book and links are gone
    book = room.live.book
    assert book.handed == {} and [r["id"] for r in book.open(3)] == [iid]
    room.run(1000)
    assert book.handed_to(iid) is box.host and not book.answered(iid)
    box.done(iid)
    room.run(1000)
    assert book.result(iid) == "done" and book.open(3) == []
    assert _results(room, iid) == [("done", "box")]  # carried out and recorded once
