"""The box simulator (host_tools/tcsim): the firmware's menu, view and screen
driven through the board's keys, like a dealer, on every board profile.

CPython with Blinka displayio; one test runs tcbox/screen.py under the
MicroPython unix port to show that an unchanged screen allocates nothing.
"""

import json
import os
import subprocess

from tableclock.table import Table
from tcbox import screen as scr, widgets
from tcbox.view import fields
from tcsim.cli import main, read_script, run
from tcsim.display import make_display
from tcsim.driver import Dealer
from tcsim.sim import Sim, board_names

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
SCENES = os.path.join(ROOT, "host_tools", "tcsim", "scenes")

SETUP = {
    "profile": "lppl", "seats": 4, "button": 4, "chip": 25,
    "players": {"1": 3000, "2": 3000, "3": 3000, "4": 3000},
    "levels": [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
               {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}],
}

# One hand: BTN 4, SB 1, BB 2; seat 3 raises, seat 4 calls, the blinds fold;
# on the flop seat 3 checks, seat 4 bets and seat 3 folds.
HAND = [
    {"do": "hand"},
    {"do": "raise", "to": 150},
    {"do": "call"},
    {"do": "fold"},
    {"do": "fold"},
    {"do": "check"},
    {"do": "bet", "to": 200},
    {"do": "fold"},
]

# Clock keys differ (presses take time on the box, none in a replay).
CLOCK = ("seconds_left", "error")


def same_table(a, b):
    for k in a:
        if k not in CLOCK:
            assert a[k] == b[k], (k, a[k], b[k])


def play_hand(board):
    sim = Sim(board, SETUP)
    dealer = Dealer(sim)
    ref = Table(SETUP)
    seen = []
    for ev in HAND:
        done = dealer.do(ev)
        assert done["via"] == "keys", (board, ev, done)
        want = ref.apply(ev)
        st = sim.state()
        assert st["error"] is None, (board, ev, st["error"])
        same_table(st, want)
        seen.append((st, sim.texts(), sim.leds()))
    return sim, seen


def test_a_hand_played_on_the_compact_box():
    sim, seen = play_hand("compact")
    st, texts, leds = seen[1]  # after seat 3's raise: the hand page
    assert "Seat 4 to act: call 150, min raise 250" in texts
    assert "Hand 1  BTN 4  SB 1  BB 2  Deal 4" in texts
    assert "Call 150" in texts  # the highlighted option: what OK does
    assert "Seat 3 raises to 150" in texts
    assert "25/50" in texts and texts[0].startswith("19:")
    st, texts, leds = seen[-1]  # the hand is over: the clock page
    assert st["winners"] == {"4": 575} and st["street"] is None
    assert texts[1:4] == ["25/50", "Level 1", "Next 50/100"] and texts[0].startswith("19:")
    assert "New hand" in texts and "Won: seat 4 575" in texts
    assert sim.leds() == []


def test_a_hand_played_on_the_table_build():
    sim, seen = play_hand("table")
    st, texts, leds = seen[1]
    assert "Seat 4 to act: call 150, min raise 250" in texts
    assert texts[1:4] == ["25/50", "Level 1", "Next 50/100"] and texts[0].startswith("19:")
    i = texts.index("Call 150")  # the menu: the highlight, its number, the next option
    # the highlight starts on the minimum raise: Hand raises, Call calls (its own key)
    assert texts[i:i + 3] == ["Call 150", "Raise 250", "2/9"]
    # seat 4 acts: yellow (the button is there too: the action wins); SB 1, BB 2
    assert leds[:5] == [[86, 180, 233], [0, 114, 178], [24, 24, 24], [240, 228, 66], [0, 0, 0]]
    assert len(leds) == 10
    st, texts, leds = seen[-1]
    assert leds[3] == [255, 255, 255]  # between hands: the button
    assert st["winners"] == {"4": 575}
    assert "Between hands" in texts and "Won: seat 4 575" in texts


def test_every_event_of_the_hand_was_keys_and_the_presses_are_short_on_the_table():
    sim = Sim("table", SETUP)
    dealer = Dealer(sim)
    assert dealer.do({"do": "hand"})["presses"] == [["hand", "short"]]
    assert dealer.do({"do": "call"})["presses"] == [["call", "short"]]
    assert dealer.do({"do": "allin"})["presses"] == [["raise", "long"]]


def refused_press(board, role):
    sim = Sim(board, SETUP)
    before = sim.state()
    shown = sim.screen.update(sim.box.fields)
    assert shown == 0
    sim.press(role, 800)  # a long press: undo, with no hand running
    st = sim.state()
    assert st["error"] == "No hand is running: nothing to undo"
    assert "No hand is running: nothing to undo" in sim.texts()
    same_table(st, before)  # the refusal changed nothing
    page = sim.screen.pages[sim.screen.page]
    status = [s for s, k in page[1] if k == "status"][0]
    # a refusal's colours
    assert status.background == widgets.RED and status.colour == widgets.WHITE
    sim.press(sim.roles[-1])  # the next press: the refusal stays until something happens
    return sim


def test_a_refused_press_shows_its_reason_and_changes_nothing():
    refused_press("compact", "left")
    refused_press("table", "fold")


def test_a_menu_refusal_is_a_note():
    sim = Sim("table", SETUP)
    Dealer(sim).do({"do": "hand"})
    for ev in ({"do": "allin"}, {"do": "call"}, {"do": "call"}):
        Dealer(sim).do(ev)
    sim.press("raise")  # seat 2 (BB) faces 3000 all-in with 3000: no raise possible
    assert "No raise: call or fold" in sim.texts()
    page = sim.screen.pages[sim.screen.page]
    status = [s for s, k in page[1] if k == "status"][0]
    assert status.colour == widgets.AMBER and status.background is None


def counting(sim):
    counts = []
    update = sim.screen.update

    def counted(f):
        n = update(f)
        counts.append(n)
        return n

    sim.screen.update = counted
    return counts


def test_an_idle_second_changes_only_the_time_label():
    for board in board_names():
        sim = Sim(board, SETUP)
        for page in ("clock", "hand"):
            if page == "hand":
                Dealer(sim).do({"do": "hand"})
            sim.tick(2.5)  # past 19:59: a new minute changes both of the clock's labels
            counts = counting(sim)  # (test_the_clock_shows_minutes_and_seconds)
            before = sim.texts()
            sim.tick(1.0)
            assert counts == [1], (board, page, counts)
            after = sim.texts()
            changed = [(a, b) for a, b in zip(before, after) if a != b]
            assert len(changed) == 1 and ":" in changed[0][1], (board, page, changed)
            del sim.screen.update


def test_screen_update_counts_changed_labels_directly():
    for w, h in ((240, 135), (480, 320), (320, 240), (320, 170)):
        d = make_display(w, h)
        s = scr.Screen(d, w, h)
        t = Table(SETUP)
        f = fields(t.state())
        assert s.update(f) > 3
        assert s.update(f) == 0
        f["time"] = 1199
        assert s.update(f) == 2  # 20:00 -> 19:59: the clock's minutes and seconds
        f["time"] = 1198
        assert s.update(f) == 1
        f["status"] = "Something"
        f["status_kind"] = "error"
        assert s.update(f) == 1  # text and colours of one label
        assert s.texts()[0] in ("Level 1", "19:58")


def test_the_clock_shows_minutes_and_seconds():
    """The time field is seconds left; the clock's two labels show it as
    one text would (tcbox/screen.py _Clock)."""
    d = make_display(480, 320)
    s = scr.Screen(d, 480, 320)
    f = fields(Table(SETUP).state())
    clock = [sl for sl, k in s.pages[0][1] if k == "time"][0]
    s.update(f)  # the whole page
    for secs, text, labels in ((725, "12:05", 2), (724, "12:04", 1), (3725, "1:02:05", 2),
                               (3600, "1:00:00", 2), (59, "0:59", 2), (0, "0:00", 1),
                               (-3, "0:00", 0)):
        f["time"] = secs
        assert s.update(f) == labels, (secs, text)
        assert clock.text == text and s.texts()[0] == text
    # "1:02:05" is 7 characters: the clock's scale drops so that it fits its box
    f["time"] = 3725
    s.update(f)
    assert clock.n * widgets.CW * clock.scale <= clock.w


def test_nothing_is_cut_or_clipped_on_the_boards():
    """Every label of the scripted screens lies inside the display."""
    for board in board_names():
        lines = read_script(os.path.join(SCENES, "shots.jsonl"))
        with open(os.path.join(SCENES, "shots.setup.json")) as f:
            setup = json.load(f)
        sim = Sim(board, setup)
        dealer = Dealer(sim)
        from tcsim.cli import play_line

        for line in lines:
            play_line(sim, dealer, line)
            for slot, _k in sim.screen.pages[sim.screen.page][1]:
                lab = slot.label
                if not slot.text:
                    continue
                x, y, w, h = lab.bounding_box
                x0 = lab.x + x * slot.scale
                y0 = lab.y + y * slot.scale
                # the players' view places its big rows by their ink: a digit's
                # cell has two blank rows above it (tcbox/screen.py INK)
                y0 += 2 * slot.scale if slot.text[0].isdigit() else 0
                assert x0 >= 0 and y0 >= 0, (board, slot.text)
                assert x0 + w * slot.scale <= sim.width, (board, slot.text)
                assert y0 + h * slot.scale <= sim.height, (board, slot.text)
                assert not slot.label.text.endswith(".."), (board, slot.text)


def test_update_allocates_nothing_on_micropython():
    """tests/sim/mpy_noalloc.py: heap locked around an unchanged update()."""
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([os.path.join(ROOT, "firmware"),
                                          os.path.join(ROOT, "tests", "sim", "mpy_fakes"),
                                          os.path.join(ROOT, "host_tools", "tcsim", "stubs")])
    r = subprocess.run([MICROPYTHON, os.path.join(ROOT, "tests", "sim", "mpy_noalloc.py")],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("ok ") == 12


def test_ticks_wrap_and_the_clock_keeps_time():
    sim = Sim("compact", SETUP)
    from tcsim.sim import world

    start = world.ticks_ms()
    sim.tick(70)  # the board's ticks wrap 65 s after boot
    assert world.ticks_ms() < start
    assert sim.state()["seconds_left"] == 20 * 60 - 70
    assert "18:50" in sim.texts()


def test_cli_writes_png_and_json_per_line(tmp_path, capsys):
    script = tmp_path / "s.jsonl"
    script.write_text("# a comment\n"
                      '{"do": "hand"}\n'
                      '{"press": "right", "ms": 80}\n'
                      '{"tick": 2}\n'
                      '{"menu": "amount", "to": 150}\n')
    setup = tmp_path / "setup.json"
    setup.write_text(json.dumps(SETUP))
    out = tmp_path / "out"
    assert main(["--board", "compact", "--setup", str(setup), "--script", str(script),
                 "--out", str(out)]) == 0
    names = sorted(os.listdir(out))
    assert names == ["%03d.%s" % (n, e) for n in range(5) for e in ("json", "png")]
    doc = json.loads((out / "004.json").read_text())
    assert set(doc) >= {"texts", "leds", "state", "presses", "via", "line"}
    assert "Raise to 150" in doc["texts"] and doc["state"]["hand"] == 1
    assert doc["leds"] == []
    assert (out / "000.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["--list-boards"]) == 0
    listed = capsys.readouterr().out
    assert "compact" in listed and "480x320" in listed


def test_sim_shots_cover_every_screen_on_every_board(tmp_path):
    lines = read_script(os.path.join(SCENES, "shots.jsonl"))
    with open(os.path.join(SCENES, "shots.setup.json")) as f:
        setup = json.load(f)
    kinds = [line["shot"] for line in lines if "shot" in line]
    assert set(kinds) >= {"clock", "hand", "amount", "showdown", "break", "paused",
                          "colourup", "shotclock", "seats", "refusal"}
    for board in board_names():
        docs = run(board, setup, lines, shots=str(tmp_path))
        by = {d["line"]["shot"]: d for d in docs if d["line"] and "shot" in d["line"]}
        assert by["break"]["state"]["on_break"] and "BREAK" in by["break"]["texts"]
        assert "PAUSED" in by["paused"]["texts"]
        assert "Colour up: 25 go" in by["colourup"]["texts"]
        assert "Seat 6: CLOCK 9!" in by["shotclock"]["texts"]
        assert "Raise to 350" in by["amount"]["texts"]
        # seat 5 picked; the highlight moved on to Done (compact: the one line shown)
        assert "* Seat 5" in by["showdown"]["texts"] or (
            board == "compact" and "Done" in by["showdown"]["texts"])
        assert by["refusal"]["state"]["error"]
        assert any(t.startswith("Seat 1") for t in by["seats"]["texts"])
        for k in kinds:
            assert os.path.exists(tmp_path / ("%s-%s.png" % (board, k)))


def test_the_app_engine_plays_too():
    """The same presses through tcbox.app.App (the firmware's loop)."""
    sim = Sim("table", SETUP, engine="app")
    Dealer(sim).do({"do": "hand"})
    assert sim.state()["hand"] == 1
    assert any(t.startswith("Seat 3 to act") for t in sim.texts())


def test_the_window_runs_headless():
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from tcsim.window import run_window

    sim = run_window("table", SETUP, frames=30,
                     keys=[(2, "hand", True), (5, "hand", False), (10, "call", True),
                           (13, "call", False)])
    st = sim.state()
    assert st["hand"] == 1 and st["last"] == "Seat 3 calls 50"
