"""The box's loop with fake hardware: presses, idle redraws, beeps, saves."""

# the link first, as in link_util: its compile (the largest firmware module) needs a heap that
# nothing has fragmented yet, or the 256K MicroPython run fails in the USB-link test below
import tcbox.link.box_end  # noqa: F401, I001
# ... and the instructions' modules the app imports at the first one (instructions/pending.py):
# compiled from source mid-test, they need 1.5 KB in one piece that the test's heap may lack
import tcbox.instructions.words  # noqa: F401, I001
import tcbox.instructions.at_table  # noqa: F401, I001
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

    def offer(self, t, extra=None):
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
    assert screen.shown["time"] == 120
    before = screen.changes
    for ms in range(1010, 2000, 10):        # a second of idle loops
        app.step(ms)
    assert screen.changes == before          # 1:59.01 still shows 2:00
    app.step(2001)
    assert screen.shown["time"] == 119 and screen.changes == before + 1


def test_the_players_view_returns_after_idle_and_the_first_press_brings_the_detail():
    app, keys, screen, beeps, saves, ring = _app()
    app.step(0)
    assert screen.shown["players"] is False           # just powered up: the dealer's
    app.step(3990)
    assert screen.shown["players"] is False
    app.step(4000)                                    # PLAYERS_MS without a press
    assert screen.shown["players"] is True and screen.shown["act"] == "Level 1   Next 50/100"
    before = screen.changes
    app.step(5000)                                    # idle in the players' view: the time
    assert screen.changes == before + 1
    keys.events += [(1, True, 5010), (1, False, 5090)]  # ok: New hand, at once
    app.step(5100)
    assert screen.shown["players"] is False and app.table.hand is not None
    assert screen.shown["act"] == "Seat 1: call 50"
    app.step(9000)
    assert screen.shown["players"] is False           # 3.9 s after the press
    app.step(9100)
    assert screen.shown["players"] is True            # the seat to act, for the table
    keys.events += [(2, True, 9110), (2, False, 9190)]  # right: highlight only, no action
    app.step(9200)
    assert screen.shown["players"] is False and screen.shown["menu_i"] == 1
    keys.events += [(1, True, 9210), (1, False, 9290)]  # ok: Raise 100 (amount entry? no:
    app.step(9300)                                      # the minimum at once)
    assert app.table.state()["bets"]["1"] == 100
    keys.events += [(2, True, 9310), (2, False, 9390)] * 3
    keys.events += [(1, True, 9410), (1, False, 9490)]  # Raise more: the amount entry
    app.step(9500)
    assert app.menu.mode == "amount"
    app.step(30000)                                     # entering an amount: no players' view
    assert screen.shown["players"] is False


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


# -- instructions, setup, the shot clock's flash ----------------------------

MOVE = {"id": "i-41", "action": "move_out", "seat": 3, "to_table": 2, "to_seat": 7}


def _press(app, keys, key, at, long=False):
    keys.events += [(key, True, at), (key, False, at + (LONG_MS + 20 if long else 80))]
    app.step(at + (LONG_MS + 30 if long else 90))
    return at + (LONG_MS + 100 if long else 200)


def _acks(app):
    """The ids the App's book has answered (done, refused or acknowledged), oldest first."""
    return [e[0] for e in app.book.entries if e[1] in ("done", "refused", "acknowledged")]


class _Answered:
    """A part of the App (tcbox/app.py HOOKS): the ids of the instructions answered."""

    def __init__(self):
        self.ids = []

    def on_result(self, app, iid, result, reason, stack):
        self.ids.append(iid)


def test_an_instruction_is_shown_until_confirmed_and_acknowledged():
    app, keys, screen, beeps, saves, ring = _app()
    sent = app.add(_Answered()).ids
    app.step(0)
    app.instruct(MOVE)
    app.step(10)
    assert screen.shown["instr"] == "Move seat 3 to table 2 seat 7"
    assert screen.shown["menu"][screen.shown["menu_i"]] == "Confirm"
    app.instruct(dict(MOVE))                            # the host resends it: shown once
    app.instruct({"id": "i-42", "action": "break_table"})
    app.step(20)
    assert screen.shown["instr"] == "Move seat 3 to table 2 seat 7 (+1)"
    at = _press(app, keys, 1, 100)                      # OK: Confirm
    assert _acks(app) == ["i-41"] and sent == ["i-41"] and app.table.hands == 0
    assert screen.shown["instr"] == "This table breaks: players to the TD"
    assert screen.shown["status"] == "Seat 3 moved to table 2 seat 7"  # what was done
    at = _press(app, keys, 1, at)                       # the next one
    assert _acks(app) == ["i-41", "i-42"] and screen.shown["instr"] == ""
    assert screen.shown["menu"] == ("New hand", "Seats")
    app.instruct(dict(MOVE))                            # the ack got lost: acknowledged again
    app.step(at)
    assert sent == ["i-41", "i-42", "i-41"] and screen.shown["instr"] == ""
    # carried out (tcbox/instructions/at_table.py, test_orders.py): seat 3 left, the table broke
    assert sorted(app.table.stacks) == [1, 2] and app.table.hold == "broken"
    assert saves.items == [0, 0]                        # each Confirm saved
    app.instruct("Seat 2: phone")                       # a plain message, no id
    app.step(at + 10)
    _press(app, keys, 1, at + 100)
    assert _acks(app) == ["i-41", "i-42"] and screen.shown["instr"] == ""
    assert sent == ["i-41", "i-42", "i-41"]             # nothing to answer


def test_the_book_keeps_the_last_32_ids():
    app = _app()[0]
    app.step(0)
    for n in range(40):
        app.instruct({"id": "m-%d" % n, "action": "message", "text": "x"})
        app.ack()
    acks = _acks(app)
    assert len(acks) == 32 and acks[0] == "m-8" and acks[-1] == "m-39"
    assert len(app.book.entries) == 32


def test_setup_screen_mutes_the_buzzer():
    app, keys, screen, beeps, saves, ring = _app()
    app.board = "Compact: Feather"
    app.info["table"] = 4
    app.step(0)
    at = _press(app, keys, 1, 100, long=True)          # long OK: the seats
    for _ in range(3):
        at = _press(app, keys, 2, at)                   # right to Box setup
    assert screen.shown["menu"][screen.shown["menu_i"]] == "Box setup"
    at = _press(app, keys, 1, at)
    assert screen.shown["action"] == "Table 4"
    assert screen.shown["in_hand"] is True
    assert screen.shown["posts"].startswith("Compact, firmware ")
    assert screen.shown["menu"] == ("Buzzer: on", "Back")
    at = _press(app, keys, 1, at)                       # toggle
    assert app.muted and screen.shown["menu"][0] == "Buzzer: muted"
    app.step(60000)                                     # one minute left: no beep
    assert beeps.items == []
    at = _press(app, keys, 1, 60100)
    assert not app.muted


def test_the_shot_clock_warning_flashes_its_label_and_the_action_pixel():
    app, keys, screen, beeps, saves, ring = _app()
    app.step(0)
    at = _press(app, keys, 1, 10)                       # New hand: seat 1 acts
    at = _press(app, keys, 2, at, long=True)            # call the clock
    assert screen.shown["shot"] == "CLOCK 60" and screen.shown["shot_kind"] == "running"
    t = at
    while app.table.shot.seconds() > 10:                # to the warning, in 10 ms steps
        t += 10
        app.step(t)
    assert screen.shown["shot_kind"] == "warning" and ring.items[-1][0] == ACTION
    seen = []
    for _ in range(300):                                # three seconds of the warning
        t += 10
        before = screen.changes
        app.step(t)
        changed = screen.changes - before
        kind = screen.shown["shot_kind"]
        if not seen or seen[-1][0] != kind:
            seen.append((kind, t, changed, ring.items[-1][0]))
    kinds = [s[0] for s in seen]
    assert kinds[:6] == ["warning", "flash", "warning", "flash", "warning", "flash"]
    for kind, _when, changed, pixel in seen[1:]:
        assert pixel == (ACTION if kind == "warning" else BUTTON)  # seat 1 has the button
        if kind == "flash":
            assert changed == 1                         # only the shot label's colours
    dark = [s[1] for s in seen if s[0] == "flash"]
    assert dark[1] - dark[0] == 1000                    # 1 Hz
    at = _press(app, keys, 1, t + 100)                  # the call stops the clock
    assert screen.shown["shot_kind"] == "" and ring.items[-1][0] != ACTION
    n = len(ring.items)
    for ms in range(at, at + 2000, 10):                 # no flashing without a clock
        app.step(ms)
    assert len(ring.items) == n


def test_a_move_confirmed_mid_hand_on_the_usb_link_is_acknowledged_then_done():
    # tcbox/instructions/at_table.py through the real link (tests/core/test_orders.py: the rest)
    from link_util import live
    link, port, host, now = live()                  # LPPL, seats 1-3, button 1
    app = App(link.table, ["left", "ok", "right"], FakeScreen(), FakeKeys())
    app.add(link)                                   # as tcbox/startup.py builds it

    def loop(now, n=4):
        for _ in range(n):
            app.step(now)                           # the link's after_step in it
            now += 10
        return now

    now = loop(now)
    app.press("ok", False)                          # New hand: SB 2, BB 3, seat 1 acts
    now = loop(now)
    host.read()
    host.send({"kind": "instruction", "id": "i-9", "action": "move_out", "seat": 1,
               "to_table": 2, "to_seat": 3})
    now = loop(now)
    assert app.awaiting()
    app.ack()
    now = loop(now)

    def results():
        return [(m["instr"], m["result"]) for m in host.read()
                if m["kind"] == "event" and m["what"] == "instruction"]

    assert results() == [("i-9", "acknowledged")] and 1 in app.table.stacks
    app.table.handle({"do": "fold"})                # seat 1
    app.table.handle({"do": "fold"})                # seat 2: seat 3 wins
    now = loop(now)
    assert results() == [("i-9", "done")]
    assert sorted(app.table.stacks) == [2, 3]
