"""The box's loop with fake hardware: presses, idle redraws, beeps, saves."""

from tc_util import table
from tcbox.app import App
from tcbox.presses import LONG_MS, Presses, ticks_diff
from tcbox.ring import ACTION, BIG, BUTTON, SMALL, colours


class FakeScreen:
    def __init__(self):
        self.shown = {}
        self.changes = 0

    def update(self, f):
        n = 0
        for k in f:
            v = f[k] if not isinstance(f[k], list) else tuple(f[k])
            if self.shown.get(k) != v:
                self.shown[k] = v
                n += 1
        self.changes += n
        return n


class FakeKeys:
    def __init__(self):
        self.events = []

    def get(self):
        return self.events.pop(0) if self.events else None


class Log:
    def __init__(self):
        self.items = []

    def beep(self, name):
        self.items.append(name)

    def update(self, now):
        pass

    def offer(self, t):
        self.items.append(t.hands)

    def show(self, c):
        self.items.append(c)


LEVELS = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 2}, {"sb": 50, "bb": 100, "ante": 0,
                                                          "minutes": 2}]


def _app():
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000}, button=1, levels=LEVELS)
    keys = FakeKeys()
    screen = FakeScreen()
    beeps, saves, ring = Log(), Log(), Log()
    app = App(t, ["left", "ok", "right"], screen, keys, ring=ring, buzzer=beeps, saver=saves,
              seats_in_ring=3)
    return app, keys, screen, beeps, saves, ring


def test_idle_second_changes_only_the_time():
    app, keys, screen, beeps, saves, ring = _app()
    app.step(1000)
    assert screen.shown["time"] == "2:00"
    before = screen.changes
    for ms in range(1010, 2000, 10):        # a second of idle loops
        app.step(ms)
    assert screen.changes == before          # 1:59.01 still shows 2:00
    app.step(2001)
    assert screen.shown["time"] == "1:59" and screen.changes == before + 1


def test_short_and_long_presses_drive_the_table():
    app, keys, screen, beeps, saves, ring = _app()
    app.step(0)
    keys.events += [(1, True, 10), (1, False, 90)]      # ok: New hand
    app.step(100)
    assert app.table.hands == 1 and saves.items == [1]
    assert screen.shown["action"] == "Seat 1 to act: call 50, min raise 100"
    assert ring.items[-1] == [ACTION, SMALL, BIG]          # seat 1 (button) acts first
    keys.events += [(0, True, 200)]                     # hold left: undo after 600 ms
    app.step(200 + LONG_MS - 1)
    assert app.presses_seen == 1
    app.step(200 + LONG_MS)
    assert app.presses_seen == 2 and screen.shown["status"].startswith("Nothing to undo")
    keys.events += [(0, False, 1500)]                   # release: nothing more
    app.step(1600)
    assert app.presses_seen == 2


def test_level_change_and_last_minute_beep():
    app, keys, screen, beeps, saves, ring = _app()
    app.step(0)
    app.step(60000)                                      # one minute left
    assert beeps.items == ["minute"]
    app.step(120000)                                     # level 2
    assert beeps.items == ["minute", "level"] and screen.shown["blinds"] == "50/100"


def test_presses_across_the_tick_wrap():
    p = Presses(1)
    wrap = 1 << 29
    assert ticks_diff(5, wrap - 5) == 10 and ticks_diff(wrap - 5, 5) == -10
    p.feed(0, True, wrap - 100)
    assert p.poll(wrap - 1) is None
    assert p.poll(LONG_MS - 100) == (0, True)            # held across the wrap
    p.feed(0, False, LONG_MS)
    assert p.poll(LONG_MS + 1) is None


def test_ring_colours_between_hands_and_away():
    t = table("lppl", {1: 3000, 2: 3000, 4: 3000}, seats=5, button=1, levels=LEVELS)
    t.apply({"do": "away", "seat": 4})
    st = t.state()
    c = colours(st, 5)
    assert c[0] == BUTTON and c[1] == SMALL and c[3] == BIG and c[2] == (0, 0, 0)
    st = t.apply({"do": "hand"})
    assert colours(st, 5)[0] == ACTION and colours(st, 5, blink_off=True)[0] == BUTTON


def test_called_clock_counts_down_and_beeps_at_the_warning():
    app, keys, screen, beeps, saves, ring = _app()
    app.step(0)
    keys.events += [(1, True, 10), (1, False, 90)]      # New hand
    app.step(100)
    keys.events += [(2, True, 200)]                     # hold right: call the clock
    app.step(200 + LONG_MS)
    assert screen.shown["shot"] == "CLOCK 60"
    app.step(200 + LONG_MS + 1000)
    assert screen.shown["shot"] == "CLOCK 59"
    app.step(200 + LONG_MS + 50000)
    assert screen.shown["shot"] == "CLOCK 10!" and beeps.items[-1] == "shot"
