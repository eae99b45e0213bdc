# ruff: noqa: I001 -- the simulator must install its hardware stubs before board imports
"""A simulated room (tcsim/room.py): boxes on one virtual clock, linked to the host.

Four boxes -- compact and table builds mixed, three on tdhost.links.pipe's
in-memory cable and one on a real pseudo-terminal (the host's end opened by
name with tdhost.links.usb.open_port) -- each paired with the event key and
holding the default 8-seat LPPL table, each linked to a host BoxLink with a
StaticFeed of its table, all on one HostStore.  Dealers (tcsim.dealers.
RoomNight: tcsim.bots.SessionBot without the host's commands) play 30 virtual
minutes through the boxes' keys.  Box 2 loses its power for five seconds
half-way.  Then:

- every box went LIVE, on both ends of its link, and is LIVE at the end
  (box 2 again after its power cut, with its boot counter moved on);
- every player who busted at a box (a seat emptied by a hand; nobody is
  re-seated in a room, so: the 8 seats minus the seats with chips at the end)
  is in the host's store exactly once as that box's ``bust`` event, and
  every hand a box dealt is there once as its ``hand_started``;
- one world per box: box 2 boots from its own nvm into its own table (the
  table it had at the cut, not another box's), and booting it writes no
  other box's nvm; at the end each box's nvm holds that box's table;
- the same seed plays the same room: a second run gives the host an
  identical list of events.

Also: the stubs keep each world's keys, nvm and USB ports apart; a power cut
in the middle of one box's nvm write darkens that box only, and it boots into
its own table; a box's lazy screen (only the fields kept, labels built when
looked at) shows what a real Screen updated all along shows, its menu scrolled
alike.
"""

import gc
import inspect

import pytest

from tableclock import record
from tableclock.store import NvmStore
from tcbox.crashlog import LOG
from tcbox.defaults import SETUP
from tcbox.link.frames import setup_of
from tcbox.link.states import LIVE
from tcbox.screen import Screen
from tcsim.bots import quiet
from tcsim.dealers import RoomNight
from tcsim.room import LazyScreen, Room
from tcsim.stubs import _world
from tdhost.links.boxlink import BoxLink, StaticFeed
from tdhost.links.hoststore import HostStore

import keypad  # the simulator's stubs (tcsim.room installed them)
import microcontroller
import usb_cdc

# Run alone, after the parallel run (`make test-py`):
# the pty delivers within the room's real wait.
pytestmark = pytest.mark.timing

KEY = bytes(range(1, 33))
KEY_ID = "ev1-k1"
START_MS = 1_767_000_000_000  # the room's clock: a Unix time in ms
BOXES = ((1, "compact", "cable"), (2, "table", "cable"), (3, "compact", "cable"),
         (4, "table", "pty"))
NIGHT_MS = 30 * 60 * 1000
CUT_AT_MS = 15 * 60 * 1000
OFF_MS = 5000
SEATS = SETUP["seats"]
FIRST_LEVEL_MS = SETUP["levels"][0]["minutes"] * 60000


@pytest.fixture(autouse=True)
def frozen_heap():
    """Frozen, CPython's collector walks the boxes' objects only (see
    test_night.py)."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def feed():
    """Each table: the default setup, eight names, the first level's clock."""
    tables = {}
    for n, _board, _t in BOXES:
        names = {str(s): "Player %d.%d" % (n, s) for s in range(1, SEATS + 1)}
        tables[n] = {"config": setup_of(SETUP), "seating": {"names": names},
                     "clock": {"level_index": 0, "ms_left": FIRST_LEVEL_MS, "paused": False}}
    return StaticFeed(tables)


def host_link(port, store, room):
    kw = {"clock": room.clock}
    if "wall" in inspect.signature(BoxLink).parameters:  # protocol 1.1: host_ms on the room's clock
        kw["wall"] = room.clock
    return BoxLink(port, KEY, KEY_ID, store, feed(), **kw)


def table_in_nvm(nvm):
    return record.load(record.Slots(NvmStore(nvm, 0, LOG)).load())[0]


def night(tmp_path, seed=5):
    """The room's night (module notes); returns what the checks need."""
    room = Room(START_MS, seed=seed)
    store = HostStore(str(tmp_path / "host.sqlite"))
    links = []
    out = {"live_at": {}, "room": room, "store": store, "links": links}
    for n, board, transport in BOXES:
        b = room.add_box(n, board, transport=transport, setup=SETUP, key=KEY, key_id=KEY_ID,
                         event="ev1")
        links.append(host_link(b.host_port, store, room))
        b.play(RoomNight(b, seed=seed * 100 + n))
        room.run(137)  # the boxes power up at different moments

    def host(now):
        for link in links:
            link.poll(now)
        for b, link in zip(room.boxes, links):
            if b.n not in out["live_at"] and b.on and b.link.state == LIVE \
                    and link.state == "live":
                out["live_at"][b.n] = room.now_ms

    room.on_host = host
    gc.collect()
    gc.freeze()  # (a module fixture runs before frozen_heap)
    try:
        room.run(CUT_AT_MS - room.now_ms)
        b2 = room.box(2)
        for _ in range(3000):  # the cut comes while an event of box 2 is on its way
            if any(e[1] is not None for e in b2.link.outbox):
                break
            room.step()
        out["in_flight"] = [e[0][0] for e in b2.link.outbox if e[1] is not None]
        out["cut"] = {"quiet": quiet(b2.table.state()), "boot": b2.link.boot,
                      "others": {b.n: quiet(b.table.state()) for b in room.boxes if b.n != 2}}
        b2.power_cut()
        room.run(OFF_MS)
        others = {b.n: bytes(b.world.nvm[:]) for b in room.boxes if b.n != 2}
        b2.power_on()  # boots from its nvm and steps once
        out["restored"] = quiet(b2.table.state())
        out["others_nvm_kept"] = all(bytes(b.world.nvm[:]) == others[b.n]
                                     for b in room.boxes if b.n != 2)
        room.run(NIGHT_MS - room.now_ms)
        out["events"] = store.events()
        out["late_syncs"] = room.box(4).transport.late
    finally:
        gc.unfreeze()
        room.close()
    return out


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    return night(tmp_path_factory.mktemp("room1"))


# ------------------------------------------------------------------ the night
@pytest.mark.slow
def test_every_box_goes_live_and_stays_live(first):
    room, links = first["room"], first["links"]
    assert room.now_ms == NIGHT_MS
    assert sorted(first["live_at"]) == [1, 2, 3, 4]
    assert max(first["live_at"].values()) < 10000, first["live_at"]  # within seconds
    for b, link in zip(room.boxes, links):
        assert b.on and b.link.state == LIVE, (b.box_id, b.link.state)
        assert link.state == "live" and link.box == b.box_id == "tc-%02d" % b.n
        assert link.table == b.n == b.link.table_no
    b2 = room.box(2)
    assert b2.boots == 2 and b2.link.boot == first["cut"]["boot"] + 1
    assert links[1].repeats >= 1  # what was on its way at the cut came again ...
    assert first["late_syncs"] == 0  # the pty always delivered within its wait


@pytest.mark.slow
def test_every_bust_and_hand_reaches_the_host_exactly_once(first):
    by_box = {}
    for e in first["events"]:
        by_box.setdefault(e["box"], []).append(e)
    busts = 0
    for b in first["room"].boxes:
        evs = by_box.get(b.box_id, [])
        out = sorted(s for s in range(1, SEATS + 1) if s not in b.table.stacks)
        got = sorted(e["seat"] for e in evs if e["what"] == "bust")
        assert got == out, (b.box_id, got, out)  # each once: a repeat would show twice
        for e in evs:
            if e["what"] == "bust":
                assert e["chips_start"] > 0 and e["hand"] >= 1
        hands = [e["hand"] for e in evs if e["what"] == "hand_started"]
        assert hands == list(range(1, b.table.hands + 1)), (b.box_id, hands)
        busts += len(out)
        assert out, b.box_id  # random all-ins over half an hour: busts at every table
    assert busts >= 10, busts
    ids = [e["id"] for e in first["events"] if e["box"] == "tc-02"]
    assert first["in_flight"] and all(ids.count(i) == 1 for i in first["in_flight"])  # ... once


@pytest.mark.slow
def test_a_power_cut_restores_that_boxs_own_table(first):
    cut = first["cut"]
    assert first["restored"] == cut["quiet"]  # cut between two steps: nothing lost
    for n, q in cut["others"].items():
        assert q != cut["quiet"], n
    assert first["others_nvm_kept"]  # booting box 2 wrote no other box's nvm
    for b in first["room"].boxes:  # each nvm holds its own box's table
        t = table_in_nvm(b.world.nvm)
        assert quiet(t.state()) == quiet(b.table.state()), b.box_id


@pytest.mark.slow
def test_the_same_seed_gives_the_host_the_same_events(first, tmp_path):
    again = night(tmp_path)
    assert len(first["events"]) > 100
    assert again["events"] == first["events"]


# ------------------------------------------------------------------ the parts
def test_each_world_keeps_its_keys_nvm_and_ports():
    home = _world.current()
    a = _world.World(name="a")
    b = _world.World(start=_world.START + 1234, name="b")
    try:
        _world.use(a)
        ka = keypad.Keys(("D1",))
        port_a = usb_cdc.data
        dog_a = microcontroller.watchdog
        _world.use(b)
        kb = keypad.Keys(("D1",))
        assert microcontroller.nvm is b.nvm and usb_cdc.data is not port_a
        assert microcontroller.watchdog is not dog_a
        microcontroller.nvm[0:2] = b"xy"
        _world.use(a)
        assert microcontroller.nvm is a.nvm and bytes(a.nvm[0:2]) == b"\0\0"
        assert usb_cdc.data is port_a and microcontroller.watchdog is dog_a
        a.schedule("D1", True, 0)  # an edge in world a: only a's keys see it
        assert kb.events.get() is None
        ev = ka.events.get()
        assert ev is not None and ev.pressed and ev.timestamp == _world.START
        b.schedule("D1", True, 0)
        assert ka.events.get() is None  # whichever world is current
        assert kb.events.get().timestamp == _world.START + 1234
        b.now_ms = 65000 - 1234 + 5  # each world's ticks wrap at 2**29 from its own start
        assert b.ticks_ms() == 5 and a.ticks_ms() == _world.START
        assert _world.now_ms == 0 and _world.ticks_ms() == _world.START  # the module's names
    finally:
        _world.use(home)


def test_a_power_cut_in_the_middle_of_a_write_stays_in_its_box():
    """Box 2's next nvm write is cut after 10 bytes (tcsim/stubs/_world.py
    Nvm.cut_after): box 2 goes dark at once, box 1 plays on untouched, and
    box 2 boots into its own table as it was before the change whose write
    was cut, or with it (the two-slot record keeps the older one)."""
    room = Room(START_MS, seed=8)
    seen = []

    def history(box):  # box 2's table after each step: the last two distinct states
        q = quiet(box.table.state())
        if not seen or seen[-1] != q:
            seen.append(q)
            del seen[:-2]

    try:
        for n, board in ((1, "compact"), (2, "table")):
            b = room.add_box(n, board, setup=SETUP, key=KEY, key_id=KEY_ID)
            b.play(RoomNight(b, seed=60 + n, pace=0.3))
        b1, b2 = room.boxes
        b2.watch.append(history)
        room.run(120000)
        b2.world.nvm.cut_after(10, 0xFF)
        for _ in range(3000):
            room.step()
            if not b2.on:
                break
        assert not b2.on and b1.on and b2.world.nvm.cuts == 1 and b1.world.nvm.cuts == 0
        live = quiet(b2.table.state())
        before = list(seen)
        one = bytes(b1.world.nvm[:])
        b2.world.nvm.cut_after(None)
        b2.power_on()
        assert bytes(b1.world.nvm[:]) == one
        got = quiet(b2.table.state())
        assert got in (live, before[0]), "box 2 restored neither its table nor the one before"
        assert got != quiet(b1.table.state())
        room.run(60000)  # and it plays on
        assert b2.on and b2.boots == 2
    finally:
        room.close()


def test_a_lazy_screen_scrolls_its_menu_where_the_real_one_does():
    """The highlight goes down a seven-option menu and back up: a screen
    built afresh from the last fields shows the options the live screen
    shows (its scroll position depends on the way the highlight came)."""
    fields = {"level": "Level 3", "blinds": "100/200", "ante": "", "time": 725,
              "next": "Next 150/300", "banner": "", "hand": "Hand 7  BTN 2  SB 3  BB 4",
              "action": "Seat 5 to act: call 200", "pot": "Pot 300  preflop",
              "posts": "SB 3: 100  BB 4: 200", "shot": "", "info": "", "instr": "",
              "away": "", "shot_kind": "", "colour": "", "status": "Seat 4 calls",
              "status_kind": "", "menu": ["Call 200", "Raise 400", "All-in 3,000", "Fold",
                                          "Seats", "Undo", "Box setup"]}
    for w, h in ((480, 320), (240, 135)):
        real = Screen(None, w, h)
        lazy = LazyScreen(None, w, h)
        for i in (0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1, 0, 6, 3):
            f = dict(fields, menu_i=i)
            real.update(f)
            lazy.update(f)
            lazy.release()
            assert lazy.texts() == real.texts(), (w, h, i)


def test_a_lazy_screen_shows_what_a_real_screen_shows():
    """Two rooms, one lazy and one full, same seed: the same dealers play the
    same boxes.  Every 2 s, and after every step while the full screen's menu
    is scrolled, the lazy screen is built afresh from its last fields and
    must show the texts the full screen shows (labels updated all along)."""
    rooms = [Room(START_MS, seed=3, render=r) for r in ("lazy", "full")]
    try:
        for room in rooms:
            for n, board in ((1, "compact"), (2, "table")):
                b = room.add_box(n, board, setup=SETUP)
                b.play(RoomNight(b, seed=40 + n, pace=0.3))
        compared = scrolled = 0
        for k in range(3000):
            for room in rooms:
                room.step()
            for lazy, full in zip(rooms[0].boxes, rooms[1].boxes):
                menu = full.screen.pages[full.screen.page][2]
                top = menu.top_i if menu is not None else 0  # the players' view: no menu
                if k % 20 and not top:
                    continue
                lazy.screen.release()
                assert lazy.texts() == full.texts(), (lazy.box_id, lazy.world.now_ms)
                assert lazy.leds() == full.leds()
                compared += 1
                scrolled += top > 0
        assert compared >= 300 and scrolled >= 10, (compared, scrolled)
    finally:
        for room in rooms:
            room.close()
