"""The box's newer screens on both boards, as the simulator renders them:
host instructions (shown, confirmed through the keys, acknowledged), the
setup screen, the colour-up per seat, the shot clock's flash and away seats.
"""

import json
import os

from tcbox import widgets
from tcsim.cli import read_script, run
from tcsim.driver import Dealer
from tcsim.sim import Sim, board_names

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = os.path.join(ROOT, "host_tools", "tcsim", "scenes")

SETUP = {
    "profile": "lppl", "seats": 4, "button": 4, "chip": 25,
    "players": {"1": 3000, "2": 3000, "3": 3000, "4": 3000},
    "levels": [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
               {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}],
}
MOVE = {"id": "i-41", "action": "move_out", "seat": 3, "to_table": 2, "to_seat": 7}


def _slot(sim, key):
    for slot, k in sim.screen.pages[sim.screen.page][1]:
        if k == key:
            return slot
    raise KeyError(key)


def test_the_shots_script_renders_the_new_screens_on_every_board(tmp_path):
    lines = read_script(os.path.join(SCENES, "shots.jsonl"))
    with open(os.path.join(SCENES, "shots.setup.json")) as f:
        setup = json.load(f)
    kinds = [line["shot"] for line in lines if "shot" in line]
    assert set(kinds) >= {"instruction", "setup", "colourup", "colourseats", "shotclock",
                          "shotflash", "away", "break"}
    for board in board_names():
        docs = run(board, setup, lines, shots=str(tmp_path))
        by = {d["line"]["shot"]: d for d in docs if d["line"] and "shot" in d["line"]}
        t = by["instruction"]["texts"]
        assert "Move seat 3 to table 2 seat 7" in t and "Confirm" in t, (board, t)
        confirmed = [d for d in docs if d["line"] and d["line"].get("confirm")][0]
        assert "Seat 3 moved to table 2 seat 7" in confirmed["texts"]
        assert "Move seat 3 to table 2 seat 7" not in confirmed["texts"]
        t = by["break"]["texts"]
        assert "Seat 3: Cy arrives from table 5 with 2,450 chips" in t and "BREAK" in t
        t = by["setup"]["texts"]
        assert "Table 4" in t and "9 seats  LPPL  Link: Wi-Fi" in t, (board, t)
        assert t.index("Table 4") < t.index("9 seats  LPPL  Link: Wi-Fi")
        if board == "table":
            assert "Table build, firmware 0.1.0" in t and "Buzzer: on" in t
        else:
            assert "Compact, firmware 0.1.0, no buzzer" in t
        t = by["colourup"]["texts"]
        assert "Colour up: 25 go" in t and "S1 2,975>3,000  S5 5,625>5,650" in t, (board, t)
        assert "Colour up: 25 go" in by["playerscolourup"]["texts"]
        t = by["players"]["texts"]
        assert "25/50" in t and "Seat 5: call 50" in t, (board, t)
        t = by["playersbreak"]["texts"]
        assert "100/200" in t and "Break: level 3 next, ante 25" in t, (board, t)
        assert "Colour up now" in by["colourseats"]["texts"]
        assert by["away"]["state"]["away"] == [6] and "Away: 6" in by["away"]["texts"]
        t = by["shotclock"]["texts"]
        assert "Seat 6: CLOCK 9!" in t and "25/50" in t
        assert "Seat 6: CLOCK 9!" in by["shotflash"]["texts"]
        for k in kinds:
            assert os.path.exists(tmp_path / ("%s-%s.png" % (board, k)))


class _Answered:
    """A part of the App (tcbox/app.py HOOKS): the ids of the instructions answered."""

    def __init__(self):
        self.ids = []

    def on_result(self, app, iid, result, reason, stack):
        self.ids.append(iid)


def test_an_instruction_is_confirmed_through_the_keys_on_both_boards():
    for board in board_names():
        sim = Sim(board, SETUP)
        sent = sim.box.add(_Answered()).ids
        sim.box.instruct(MOVE)
        sim.step()
        texts = sim.texts()
        assert "Move seat 3 to table 2 seat 7" in texts and "Confirm" in texts
        assert _slot(sim, "blinds").text == "25/50"  # the instruction shares the screen
        presses = Dealer(sim).confirm()
        assert len(presses) == 1  # Confirm is highlighted (compact) / first (table)
        assert sim.box.book.find("i-41")[1] == "done" and sent == ["i-41"]
        assert "Move seat 3 to table 2 seat 7" not in sim.texts()
        assert "Seat 3 moved to table 2 seat 7" in sim.texts()
        assert "25/50" in sim.texts() and sim.state()["hand"] == 0


def test_an_instruction_during_a_hand_shows_on_the_hand_page_and_ok_still_calls():
    for board in board_names():
        sim = Sim(board, SETUP)
        dealer = Dealer(sim)
        dealer.do({"do": "hand"})
        sim.box.instruct({"id": "i-7", "action": "hand_for_hand_start"})
        sim.step()
        texts = sim.texts()
        assert "HAND FOR HAND: finish the hand, wait" in texts, (board, texts)
        assert "Seat 3 to act: call 50, min raise 100" in texts
        assert dealer.do({"do": "call"})["presses"][0] in (["ok", "short"], ["call", "short"])
        assert sim.state()["last"] == "Seat 3 calls 50" and sim.box.book.find("i-7")[1] == "shown"
        sim.tick(0.5)
        before = sim.texts()
        sim.tick(1.0)  # idle: only the time changes, the instruction stays
        changed = [(a, b) for a, b in zip(before, sim.texts()) if a != b]
        assert len(changed) == 1 and ":" in changed[0][1], (board, changed)


def test_the_shot_clock_warning_flashes_on_screen_and_ring():
    for board in board_names():
        sim = Sim(board, SETUP)
        dealer = Dealer(sim)
        dealer.do({"do": "hand"})
        dealer.do({"do": "clock"})
        while sim.state()["shot_clock"] > 9:
            sim.tick(0.1)
        seen = set()
        leds = set()
        for _ in range(20):  # two seconds in 100 ms steps
            shot = _slot(sim, "act" if sim.box.players else (
                "banner" if board == "table" else "action"))
            assert "CLOCK " in shot.text and shot.text.endswith("!"), shot.text
            assert _slot(sim, "blinds").text == "25/50"  # the blinds stay on screen
            seen.add((shot.colour, shot.background))
            if sim.leds():
                leds.add(tuple(sim.leds()[2]))  # seat 3 acts
            sim.tick(0.1)
        # inverted digits, blinking: seen without colour
        assert seen == {(widgets.BLACK, widgets.WHITE), (widgets.WHITE, None)}, (board, seen)
        if board == "table":
            assert leds == {(240, 228, 66), (24, 24, 24)}, leds


def _shown(sim, key):
    s = _slot(sim, key)
    return s.label.text.replace("\n", " ") if s.label.text else ""


def test_nothing_hides_the_blinds_and_the_clock():
    """Instructions, a called clock, refusals and notes share the screen with
    the blinds and the level clock: on both boards, in the dealer's detail
    and in the players' view, between hands and during a hand."""
    for board in board_names():
        sim = Sim(board, SETUP)
        dealer = Dealer(sim)
        sim.box.instruct(MOVE)                      # between hands: an instruction
        sim.step()
        for players in (False, True):
            if players:
                sim.tick(5)                         # the players' view
            assert sim.box.players is players
            assert _shown(sim, "blinds") == "25/50" and ":" in _shown(sim, "time")
            assert any("Move seat 3 to table 2 seat 7" in t for t in sim.texts()), (board,
                                                                                  sim.texts())
        dealer.do({"do": "undo"})                   # a refusal (nothing to undo)
        assert sim.state()["error"] and sim.state()["error"] in sim.texts()
        assert _shown(sim, "blinds") == "25/50"
        dealer.confirm()
        dealer.do({"do": "hand"})
        sim.box.instruct({"id": "i-9", "action": "message", "text": "Last hand before break"})
        dealer.do({"do": "clock"})                  # a called clock and an instruction
        for players in (False, True):
            if players:
                sim.tick(5)
            assert sim.box.players is players
            texts = sim.texts()
            assert _shown(sim, "blinds") == "25/50" and ":" in _shown(sim, "time")
            assert any("CLOCK" in t for t in texts), (board, texts)
            if not players:  # the dealer's detail: the instruction too
                assert "Last hand before break" in texts, (board, texts)


def test_the_players_view_is_large_on_every_board():
    """The tallest text between hands is at least 40 % of the screen's
    height (a digit's ink), the clock and the blinds the largest things."""
    for board in board_names():
        sim = Sim(board, SETUP)
        sim.tick(5)
        assert sim.box.players
        page = sim.screen.pages[sim.screen.page][1]
        scales = {k: s.scale for s, k in page if s.label.text}
        assert scales["time"] * widgets.INK * 100 >= 40 * sim.height, (board, scales)
        others = [v for k, v in scales.items() if k not in ("time", "blinds")]
        assert scales["blinds"] > max(others) and scales["time"] >= scales["blinds"], scales
        sim.press(sim.roles[0])                     # any key: the dealer's detail again
        assert not sim.box.players and sim.screen.page != len(sim.screen.pages) - 1
