# ruff: noqa: I001 -- the simulator must install its hardware stubs before board imports
"""The box as code.py builds it (tcbox.hardware.build) on the simulator's
stub hardware: it restores its table after a power cut, to the same screen."""

import json

from tcsim import sim as _sim  # noqa: F401  (installs the hardware stubs first)
from tcsim.display import make_display
from tcsim.stubs import _world

import board
import microcontroller

from tcbox import hardware
from tcbox.boards import BOARDS


def _boot(name="table"):
    d = BOARDS[name]["display"]
    board.DISPLAY = make_display(d["width"], d["height"])
    board.board_id = BOARDS[name]["board_id"]
    real = hardware.display
    hardware.display = lambda spec: board.DISPLAY  # the SPI display is the sim's
    try:
        return hardware.build()
    finally:
        hardware.display = real


def _step(app, ms):
    _world.advance(ms)
    app.step(_world.ticks_ms())


def test_fresh_box_starts_the_default_table():
    microcontroller.nvm[:] = b"\xff" * len(microcontroller.nvm)
    app = _boot()
    _step(app, 10)
    st = app.table.state()
    assert st["profile"] == "lppl" and len(st["stacks"]) == 8 and st["hand"] == 0


def test_power_cut_mid_hand_restores_the_same_screen():
    microcontroller.nvm[:] = b"\xff" * len(microcontroller.nvm)
    app = _boot()
    _step(app, 10)
    for role in ("hand", "call", "call"):       # a hand with two calls
        app.press(role, False)
        _step(app, 100)
    before = app.table.state()
    assert before["hand"] == 1 and before["action"] == 6
    shown = app.screen.texts()
    assert "Seat 6 to act: call 50, min raise 100" in shown
    app = _boot()                               # power cut: boot again from nvm
    _step(app, 10)
    after = app.table.state()
    keep = ("hand", "button", "bb_seat", "action", "to_call", "pot", "stacks", "in_hand",
            "bets", "posts", "level")
    assert json.dumps([after[k] for k in keep]) == json.dumps([before[k] for k in keep])
    assert app.screen.texts() == shown        # the same screen, word for word


def _saved(rec):
    """nvm holding *rec* as the newest record: a good frame (valid CRC) whatever it says."""
    from tableclock import record
    from tableclock.store import NvmStore
    from tcbox.crashlog import LOG

    microcontroller.nvm[:] = b"\xff" * len(microcontroller.nvm)
    slots = record.Slots(NvmStore(microcontroller.nvm, 0, LOG))
    body = json.dumps(rec).encode() if not isinstance(rec, bytes) else rec
    slots._save(body)


def _good_record():
    microcontroller.nvm[:] = b"\xff" * len(microcontroller.nvm)
    app = _boot()
    _step(app, 10)
    for role in ("hand", "call"):
        app.press(role, False)
        _step(app, 100)
    from tableclock import record
    return record.dump(app.table)


def _bad_records():
    good = _good_record()
    deep = []
    for _ in range(500):
        deep = [deep]
    out = []
    for path, value in ((("table", "stacks"), {"#": [1, -500, 2, 3000]}),
                        (("table", "hand"), "text"),
                        (("table", "btn"), "4"),
                        (("table", "chip"), None),
                        (("table", "clock"), {"@LevelClock": {"index": 99}}),
                        (("table", "moves"), deep),
                        (("table", "n"), 3),
                        (("setup",), "lppl")):
        rec = json.loads(json.dumps(good))
        d = rec
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
        out.append((path, rec))
    out.append((("deep",), deep))
    out.append((("not json",), b"{" * 600))
    return out


def test_a_bad_saved_table_starts_afresh_and_says_so():
    from tcbox import crashlog

    for path, rec in _bad_records():
        _saved(rec)
        app = _boot()
        _step(app, 10)
        st = app.table.state()
        assert st["hand"] == 0 and len(st["stacks"]) == 8, path  # the default table
        assert "Saved table unreadable: started afresh" in " ".join(app.screen.texts()), path
        n, reason = crashlog.read()
        assert reason.startswith("Saved table unreadable: started afresh"), path
        assert n == 0, path  # kept, not counted as a crash in a row
        app.press("hand", False)  # and the night goes on
        _step(app, 100)
        assert app.table.state()["hand"] == 1, path
