"""Run by tests/sim/test_sim.py under MicroPython (MICROPYPATH=firmware,
tests/sim/mpy_fakes and host_tools/tcsim/stubs): Screen.update() with
nothing changed must not touch the heap (micropython.heap_lock() turns any
allocation into MemoryError), and an idle second must change exactly one
label, on the dealer's pages and in the players' view.  Then the whole box
(tcbox.hardware.build on the simulator's stubs): every idle loop, the ones
that show a new second included, must not touch the heap either (issue #20:
0 B), between hands and while a called clock counts down, on both boards."""

import micropython

from tcbox.screen import Screen

FIELDS = {
    "level": "Level 3", "blinds": "100/200", "ante": "Ante 25", "time": 725,
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
        f["time"] = 724
        n = s.update(f)
        assert n == 1, ("idle second changed", n, w, h)
        print("ok", w, h, "hand" if pot else "clock", "players" if players else "dealer")


def box(name):
    """The box as code.py builds it, on the stubs, past its first redraws."""
    import _world
    import pwmio

    from tcbox import hardware

    pwmio.PWMOut._log = lambda self: None  # the stub's log of tones (a board's allocates nothing)
    _world.reset_world()
    _world.nvm.erase()
    hardware.display = lambda spec: None
    app = hardware.build(name, link=False)
    for _ in range(60):  # the players' view comes up after a few seconds
        _world.advance(100)
        app.step(_world.ticks_ms())
    return app


def idle_loops(app, seconds):
    """Step every 100 ms for *seconds* with the heap locked; the loops that
    allocated, by what they showed (the record's offers are left out: they
    write, bench/box_bench.py measures them)."""
    import _world

    offers = [0]
    real = app.save

    def counted():
        offers[0] += 1
        real()

    app.save = counted
    bad = []
    seconds_shown = 0
    for _ in range(seconds * 10):
        _world.advance(100)
        was = app.shown_s
        o = offers[0]
        failed = app.save_failures
        micropython.heap_lock()
        try:
            app.step(_world.ticks_ms())
            err = None
        except MemoryError:
            err = "MemoryError"
        micropython.heap_unlock()
        if offers[0] != o:
            app.save_failures = failed  # the offer could not write with the heap locked
            continue
        if app.shown_s != was:
            seconds_shown += 1
        if err is not None:
            bad.append((app.shown_s, err))
    app.save = real
    return bad, seconds_shown


def called_clock(app):
    """A hand dealt, the clock called on the seat to act (one redraw, not
    measured: it makes the clock's texts), then its seconds, its warning's
    flashing and its end with the heap locked: (seconds shown, bad loops)."""
    import _world

    app.table.handle({"do": "hand"})
    app.table.handle({"do": "clock"})
    assert app.table.shot.seat is not None
    app.dirty = True
    _world.advance(100)
    app.step(_world.ticks_ms())
    shots = [0]
    real = app.shot_second

    def counted(shot):
        shots[0] += 1
        real(shot)

    app.shot_second = counted
    bad, n = idle_loops(app, app.table.shot.limit_ms // 1000 - 1)
    app.shot_second = real
    return shots[0], bad


for name in ("compact", "table"):
    app = box(name)
    bad, n = idle_loops(app, 70)
    assert n >= 60 and not bad, (name, "between hands", n, len(bad), bad[:3])
    print("ok", name, "idle seconds between hands allocate nothing")
    n, bad = called_clock(app)
    assert n >= 50 and not bad, (name, "a called clock", n, len(bad), bad[:3])
    print("ok", name, "a called clock's seconds allocate nothing")
