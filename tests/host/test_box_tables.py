"""A box speaks only for its own table (docs/protocol.md, "A box speaks only for its own
table"): a box paired for table 9 that says hello as table 1 is refused -- no set-up, no
seating, none of its events heard -- while table 1's own box plays on; the TD moves a box
to another table (`tdhost move-box`, the console's ``move_box``)."""

import json
import os

from hostutil import run
from liveroom import Box, Room

from tcbox.link.states import LIVE
from tdhost.links.boxtables import BoxTables


def _room(tmp_path):
    room = Room(tmp_path)
    key_file = str(tmp_path / "event.key")
    room.live.box_tables = BoxTables(key_file)
    for tb, b in room.boxes.items():
        room.live.box_tables.assign(b.link.box_id, tb)
    return room, key_file


def test_a_box_paired_for_table_9_saying_hello_as_table_1_is_refused(tmp_path, caplog):
    room, _ = _room(tmp_path)
    room.live.box_tables.assign("tc-09", 9)
    real = room.boxes[1]
    liar = Box(room, 1, "tc-09")  # its own valid key; it claims table 1
    room.boxes[9] = liar
    room.run(3000)
    assert liar.link.state != LIVE and liar.link.names == {}  # no table 1 seating
    assert liar.host.table is None
    assert liar.host.refused == ("Box tc-09 said hello as table 1 but serves table 9: refused"
                                 " (to move it: tdhost move-box tc-09 1, or Move box in the"
                                 " console)")
    assert room.live.link_for(1) is real.host and real.link.state == LIVE
    said = [r.getMessage() for r in caplog.records if "tc-09" in r.getMessage()]
    assert said == [liar.host.refused + "."]  # one sentence, once
    assert any(n["text"] == liar.host.refused for n in room.live.snapshot()["wifi"])
    # its "bust" of table 1's seat is never heard (nor acknowledged: the box keeps it)
    seat, name = next(iter(sorted(real.link.names.items())))
    liar.link.event(["bust", int(seat), 3000, None])
    room.run(3000)
    assert not [ev for ev in room.live.lg.events if ev.action == "bust"]
    assert room.live.tournament.get(name).seat == [1, int(seat)]
    assert liar.link.outbox  # still waiting: never acknowledged


def test_the_td_moves_a_box_to_another_table(tmp_path):
    """A spare box for table 2: the console's Move box gives it table 2's set-up at once;
    the box keeps that table number and says hello with it."""
    room, key_file = _room(tmp_path)
    room.live.box_tables.assign("tc-09", 9)
    spare = Box(room, 9, "tc-09")  # paired for table 9, which does not play
    room.boxes[9] = spare
    room.run(2000)
    assert spare.host.table == 9
    # no players here: the box waits for a seating, with nothing to report (no event,
    # no "seating refused" notice for the TD at every hello)
    assert spare.link.n == 0 and spare.link.table is None
    assert not [ev for ev in room.live.lg.events if ev.action == "notice"]
    res = room.live.act("move_box", {"box": "tc-09", "table": 2})
    assert res["text"] == "Box tc-09 serves table 2 from now on: it has that table's set-up."
    room.run(2000)
    assert spare.link.table_no == 2 and spare.host.table == 2
    assert sorted(spare.link.names.values()) == sorted(room.boxes[2].link.names.values())
    with open(os.path.splitext(key_file)[0] + "-tables.json") as f:
        assert json.load(f)["boxes"]["tc-09"] == 2
    # another box claiming table 2 now: refused the same way
    room.live.act("move_box", {"box": "tc-09", "table": 9})
    room.run(2000)
    assert spare.host.table == 9 and room.live.link_for(2) is room.boxes[2].host


def test_move_box_refuses_what_is_no_box_or_table_and_writes_nothing(tmp_path):
    room, key_file = _room(tmp_path)
    path = os.path.splitext(key_file)[0] + "-tables.json"
    before = open(path).read()
    for args, said in (({"box": "tc 9", "table": 2}, "has a character"),
                       ({"box": "tc-09", "table": 0}, "from 1 to 999"),
                       ({"box": "tc-09", "table": 10 ** 17}, "from 1 to 999"),
                       ({"box": "tc-09"}, "from 1 to 999")):
        try:
            room.live.act("move_box", args)
        except Exception as err:  # ActionRefused: one sentence
            assert said in str(err), err
        else:
            raise AssertionError("accepted %r" % args)
    assert open(path).read() == before


def test_the_cli_moves_a_box_and_pairing_keeps_its_table(tmp_path):
    key_file = str(tmp_path / "event.key")
    out = run(["move-box", "tc-09", "4", "--key-file", key_file])
    assert out.output.strip() == "Box tc-09 serves table 4 from now on."
    out = run(["move-box", "tc-09", "5", "--key-file", key_file])
    assert out.output.strip() == "Box tc-09 serves table 5 from now on (it served table 4)."
    assert BoxTables(key_file).table_of("tc-09") == 5
    out = run(["move-box", "tc-09", "1000", "--key-file", key_file], expect=2)
    assert BoxTables(key_file).table_of("tc-09") == 5
