"""Run by tests/sim/test_sim.py under MicroPython (MICROPYPATH=firmware and
tests/sim/mpy_fakes): Screen.update() with nothing changed must not touch
the heap (micropython.heap_lock() turns any allocation into MemoryError),
and an idle second must change exactly one label, on the dealer's pages and
in the players' view."""

import micropython

from tcbox.screen import Screen

FIELDS = {
    "level": "Level 3", "blinds": "100/200", "ante": "Ante 25", "time": "12:05",
    "next": "Next 150/300", "banner": "", "hand": "Hand 7  BTN 2  SB 3  BB 4  Deal 2",
    "action": "Seat 5 to act: call 200, min raise 400", "pot": "Pot 300  preflop",
    "posts": "SB 3: 100  BB 4: 200", "shot": "CLOCK 8!", "info": "47 left",
    "instr": "Move seat 4 to table 2 seat 7", "away": "Away: 3, 7", "shot_kind": "flash",
    "colour": "",
    "status": "Hand 7: button 2", "status_kind": "", "menu": ["Call 200", "Raise 400",
                                                            "All-in 3,000", "Fold", "Seats"],
    "menu_i": 3, "act": "Seat 5: CLOCK 8!", "players": False,
}



def locked_update(s, f):
    """s.update(f) with the heap locked: -1 if it allocated."""
    micropython.heap_lock()
    try:
        n = s.update(f)
    except MemoryError:
        n = -1
    micropython.heap_unlock()
    return n


for w, h in ((240, 135), (480, 320)):
    for pot, players in (("Pot 300  preflop", False), ("", False), ("Pot 300  preflop", True),
                         ("", True)):
        s = Screen(None, w, h)
        f = dict(FIELDS)
        f["pot"] = pot
        f["players"] = players
        if not pot:  # between hands: a colour-up due (a list cut at whole items)
            f["colour"] = "S1 3,025>3,050  S4 2,975>3,000  S7 1,025>1,050  S9 75>100"
        first = s.update(f)
        n = locked_update(s, f)
        assert n != -1, "update() allocated with nothing changed (%dx%d)" % (w, h)
        assert first > 0 and n == 0, (first, n)
        f["time"] = "12:04"
        n = s.update(f)
        assert n == 1, ("idle second changed", n, w, h)
        print("ok", w, h, "hand" if pot else "clock", "players" if players else "dealer")
