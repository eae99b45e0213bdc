"""The dealer's controls on both boards: presses -> events -> screen."""

from tc_util import level, table
from tcbox.menu import Menu
from tcbox.view import chips, fields


class Box:
    """A table driven only through the menu, like a dealer would."""

    def __init__(self, t):
        self.t = t
        self.m = Menu()
        self.st = t.state()
        self.m.refresh(self.st)

    def press(self, role, long=False):
        ev = self.m.press(role, long, self.st)
        if ev is not None:
            self.st = self.t.apply(ev)
        self.m.refresh(self.st)
        return self.st

    def labels(self):
        return [o[0] for o in self.m.options]

    def highlighted(self):
        return self.m.options[self.m.i][0]


def _box(profile="lppl", **kw):
    t = table(profile, {1: 3000, 2: 3000, 3: 3000, 4: 3000}, button=4,
              levels=level(25, 50), chip=25, **kw)
    return Box(t)


def test_compact_three_buttons_play_a_hand():
    b = _box()
    assert b.labels() == ["New hand", "Seats"]
    st = b.press("ok")                      # New hand
    assert st["action"] == 3
    assert b.labels()[:5] == ["Call 50", "Raise 100", "All-in 3,000", "Raise more", "Fold"]
    b.press("right")
    b.press("right")
    b.press("right")                        # highlight Raise more
    b.press("ok")                           # open the amount at the minimum
    assert b.m.mode == "amount" and b.m.amount == 100
    b.press("right")
    b.press("right")                        # +25 +25
    b.press("right", long=True)             # +50 (a big blind)
    assert b.m.amount == 200
    st = b.press("ok")
    assert st["bets"]["3"] == 200 and st["action"] == 4 and st["error"] is None
    assert b.highlighted() == "Call 200"


def _presses(roles_of, kind):
    """The presses each board's key map needs for *kind* (issue #18: fold,
    check/call and new hand one press; a raise to the minimum two)."""
    b = _box()
    if kind != "hand":
        b.press(roles_of["hand"][0][0])
        if kind == "check":
            b.press(roles_of["call"][0][0])  # seat 3 calls, 4 (BB) checks next
            b.press(roles_of["call"][0][0])
            b.press(roles_of["call"][0][0])  # SB completes: the BB may check
    before = b.st
    for role, long in roles_of[kind]:
        st = b.press(role, long)
    return before, st


def test_the_key_map_each_action_and_its_presses():
    keymaps = {
        "compact": {"hand": [("ok", False)], "call": [("ok", False)],
                    "check": [("ok", False)], "fold": [("left", False)],
                    "min_raise": [("right", False), ("ok", False)],
                    "allin": [("right", False), ("right", False), ("ok", False)],
                    "undo": [("left", True)]},
        "table": {"hand": [("hand", False)], "call": [("call", False)],
                  "check": [("call", False)], "fold": [("fold", False)],
                  "min_raise": [("raise", False), ("hand", False)],
                  "allin": [("raise", True)], "undo": [("fold", True)]},
    }
    for board, km in keymaps.items():
        before, st = _presses(km, "hand")
        assert st["hand"] == 1 and st["action"] == 3, board
        before, st = _presses(km, "call")
        assert st["bets"]["3"] == 50 and st["action"] == 4, board
        before, st = _presses(km, "check")
        assert st["street"] == "flop" and st["last"] == "Seat 2 checks", (board, st["last"])
        before, st = _presses(km, "fold")
        assert st["last"] == "Seat 3 folds" and st["action"] == 4, board
        before, st = _presses(km, "min_raise")
        assert st["bets"]["3"] == 100 and st["error"] is None, board
        before, st = _presses(km, "allin")
        assert st["bets"]["3"] == 3000, board
        before, st = _presses(km, "undo")
        assert st["hand"] == 1 and st["action"] == 3 and "3" not in st["bets"], board
        assert max(len(km[k]) for k in ("hand", "call", "check", "fold")) == 1
        assert len(km["min_raise"]) <= 2


def test_table_build_direct_keys_and_refusal_shown():
    b = _box("wph")
    st = b.press("hand")
    assert st["hand"] == 1
    st = b.press("call")                    # seat 3 calls
    b.press("raise")                        # seat 4: amount opens at 100
    b.press("raise")
    b.press("call")
    b.press("raise", long=True)             # + a big blind
    assert b.m.amount == 150
    b.press("call")                         # -25
    st = b.press("hand")
    assert st["bets"]["4"] == 125
    st = b.press("fold", long=True)         # undo
    assert st["action"] == 4 and "4" not in st["bets"]
    st = b.press("fold", long=True)         # nothing more to undo: refused, shown
    f = fields(st, b.m)
    assert f["status"].startswith("Nothing to undo")


def test_seat_menu_sets_a_player_away():
    b = _box()
    b.press("ok", long=True)                # seats list
    assert b.labels() == ["Seat 1", "Seat 2", "Seat 3", "Seat 4", "Back"]
    b.press("right")
    b.press("ok")                           # seat 2
    assert b.labels()[0] == "Seat 2 is away"
    st = b.press("ok")
    assert st["away"] == [2] and b.m.mode == "main"


def test_seat_menu_sets_a_td_away_on_td_business():
    # LPPL ¶6: the dealer marks the TD away on TD business; the table waits for him
    b = _box()
    b.press("ok", long=True)                # seats list
    b.press("right")
    b.press("right")
    b.press("ok")                           # seat 3
    assert b.labels()[:2] == ["Seat 3 is away", "Seat 3: TD business"]
    b.press("right")
    st = b.press("ok")
    assert st["td_away"] == [3] and st["away"] == [] and b.m.mode == "main"
    st = b.press("ok")                      # New hand: seat 3 is first to act
    assert st["action"] == 3 and "Call the clock" not in b.labels()
    assert "Fold" in b.labels()             # "unless he clearly states he is folding"
    b.press("ok", long=True)
    b.press("right")
    b.press("right")
    b.press("ok")                           # seat 3 again
    assert b.labels()[:2] == ["Seat 3 is back", "Seat 3 is away"]
    st = b.press("ok")
    assert st["td_away"] == [] and st["action"] == 3 and "Call the clock" in b.labels()


def test_seat_menu_records_an_action_out_of_turn():
    # LPPL ¶49: "that action is binding and must be taken when the play gets to that player"
    b = _box()
    st = b.press("ok")                      # New hand: SB 1, BB 2, seat 3 first, then 4
    assert st["action"] == 3
    b.press("ok", long=True)                # seats list
    for _ in range(3):
        b.press("right")
    b.press("ok")                           # seat 4
    assert b.labels()[2:4] == ["Seat 4 folded out of turn", "Seat 4 checked or called out of turn"]
    for _ in range(3):
        b.press("right")
    st = b.press("ok")
    assert st["out_of_turn"] == {"4": {"act": "call", "to": None}} and b.m.mode == "main"
    assert b.highlighted() == "Call 50"
    st = b.press("ok")                      # seat 3 calls: seat 4's call is carried out
    assert st["last"] == "Seat 3 calls 50; seat 4 calls 50 (out of turn)" and st["action"] == 1


def test_showdown_picks_best_then_best_of_the_rest_for_side_pots():
    t = table("wph", {1: 1000, 2: 400, 3: 1000}, button=1, levels=level(25, 50))
    b = Box(t)
    b.press("ok")                           # hand: SB 2, BB 3, seat 1 first
    b.press("right")
    b.press("right")                        # All-in 1000
    b.press("ok")
    b.press("ok")                           # seat 2 calls all-in
    st = b.press("ok")                      # seat 3 calls
    assert st["street"] == "showdown" and b.m.mode == "rank"
    assert b.labels() == ["Seat 1", "Seat 2", "Seat 3", "Done"]
    b.press("right")
    b.press("ok")                           # pick seat 2 (best hand)
    assert b.highlighted() == "Done"        # the highlight moves on to Done
    st = b.press("ok")                      # Done: the side pot is still open
    assert st["street"] == "showdown" and b.m.note == "Best of the rest?"
    assert b.labels() == ["Seat 1", "Seat 3", "Done"]
    b.press("right")
    b.press("ok")                           # seat 3
    st = b.press("ok")                      # Done
    assert st["street"] is None
    assert st["winners"] == {"2": 1200, "3": 1200} and st["busted"] == [1]


def test_screen_fields():
    assert chips(3025) == "3,025" and chips(1000000) == "1,000,000" and chips(75) == "75"
    b = _box()
    f = fields(b.st, b.m, {"players": 47, "average": 3063, "link": "Wi-Fi"})
    assert (f["level"], f["blinds"], f["time"], f["next"]) == ("Level 1", "25/50", 1200,
                                                                 "Last level")
    assert f["info"] == "47 left  avg 3,063  Wi-Fi"
    st = b.press("ok")
    f = fields(st, b.m)
    assert f["hand"] == "Hand 1  BTN 4  SB 1  BB 2  Deal 4"
    assert f["action"] == "Seat 3 to act: call 50, min raise 100"
    assert f["posts"] == "SB 1: 25  BB 2: 50"
    assert f["menu"][f["menu_i"]] == "Call 50"


def test_table_build_menu_key_reaches_seats_between_hands():
    b = _box("wph")
    b.press("menu")                         # highlight Seats
    b.press("hand")                         # choose it
    assert b.m.mode == "seats"
    b.press("fold")                         # back
    st = b.press("hand")                    # New hand is the first option
    assert st["hand"] == 1
    st = b.press("raise", long=True)        # all-in from the main screen
    assert st["bets"]["3"] == 3000


# -- the host's instructions, the colour-up, the setup screen, away seats --

MOVE = {"id": "i-41", "action": "move_out", "seat": 4, "to_table": 2, "to_seat": 7}


def test_instruction_sentences():
    from tcbox.instructions.words import done_text, instruction_text

    assert instruction_text(MOVE) == "Move seat 4 to table 2 seat 7"
    assert instruction_text({"id": "a", "action": "move_out", "seat": 4, "table": 2,
                             "to_seat": 7}) == "Move seat 4 to table 2 seat 7"
    assert instruction_text({"id": "b", "action": "receive", "seat": 3, "from_table": 5,
                             "stack": 2450}) == ("Seat 3: a player arrives from table 5 "
                                                 "with 2,450 chips")
    assert instruction_text({"id": "c", "action": "receive", "seat": 3,
                             "name": "Cy"}) == "Seat 3: Cy arrives"
    assert instruction_text({"id": "d", "action": "break_table"}) == (
        "This table breaks: players to the TD")
    assert instruction_text({"id": "e", "action": "redraw"}) == "Final table: new seats drawn"
    deal = {"id": "e", "action": "redraw", "deal": True}  # US 2: not a final table
    assert instruction_text(deal) == "Players joined: button drawn again"
    assert done_text(deal) == "Button drawn again for the deal"
    assert instruction_text({"id": "f", "action": "hand_for_hand_start"}) == (
        "HAND FOR HAND: finish the hand, wait")
    assert instruction_text({"id": "g", "action": "pause"}) == "PAUSED by the TD"
    assert instruction_text({"id": "h", "action": "message", "text": "Colour up at the break"}
                            ) == "Colour up at the break"
    assert instruction_text("Seat 2: phone") == "Seat 2: phone"
    assert instruction_text(None) == ""
    # protocol 1.2: the TD's chip removal (LPPL ¶14: a late player loses 500, then 1000)
    assert instruction_text({"id": "j", "action": "deduct", "seat": 3, "chips": 500}) == (
        "Seat 3: remove 500 chips from play")
    assert instruction_text({"id": "k", "action": "deduct", "seat": 6, "chips": 1000}) == (
        "Seat 6: remove 1,000 chips from play")
    # protocol 1.3: the TD entered a player out by hand
    assert instruction_text({"id": "m", "action": "take_out", "seat": 4, "name": "Jon"}) == (
        "Take seat 4 out: Jon is out (TD)")
    assert instruction_text({"id": "n", "action": "take_out", "seat": 2}) == (
        "Take seat 2 out: the player is out (TD)")


def test_changes_waiting_for_the_hand_and_called_off_notes():
    from tcbox.instructions.words import called_off, later_text, move_text

    out = ["i-41", 0, 3, 2, 7]
    cy = ["i-42", 1, 5, 4100, 2]
    late = ["i-60", 2, 3, 1000, None]
    assert later_text(out) == "Move seat 3 to table 2 seat 7 after this hand"
    assert later_text(cy) == "Seat 5: a player arrives after this hand with 4,100 chips"
    assert later_text(late) == "Seat 3: remove 1,000 chips after this hand"
    assert move_text(late) == "Seat 3: remove 1,000 chips from play"
    take = ["i-70", 3, 4, None, None]  # protocol 1.3: the TD's bust, after the hand
    assert later_text(take) == "Take seat 4 out (TD) after this hand"
    assert move_text(take) == "Take seat 4 out (TD)"
    assert called_off(move_text(out)) == "Called off: Move seat 3 to table 2 seat 7"
    b = _box()
    st = b.press("ok")                      # a hand: the first waiting change is on screen
    f = fields(st, b.m, {}, {"moves": [late, out]})
    assert f["instr"] == "Seat 3: remove 1,000 chips after this hand (+1)"
    # every one of these fits the compact box's 40 columns in at most two lines
    for text in (later_text(late), move_text(late), called_off(move_text(late)),
                 called_off(move_text(out))):
        assert len(text) <= 80, text


def test_confirm_is_offered_on_top_between_hands_and_after_the_betting_in_a_hand():
    b = _box()
    info = {"instruction": MOVE}
    b.m.refresh(b.st, info)
    assert b.labels() == ["Confirm", "New hand", "Seats"] and b.highlighted() == "Confirm"
    f = fields(b.st, b.m, info)
    assert f["instr"] == "Move seat 4 to table 2 seat 7"
    assert b.m.press("ok", False, b.st) == {"box": "ack", "id": "i-41"}
    info = {"instruction": MOVE, "queued": 2}
    assert fields(b.st, b.m, info)["instr"] == "Move seat 4 to table 2 seat 7 (+2)"
    b.m.refresh(b.st, {})
    st = b.press("ok")                      # no instruction: OK deals
    assert st["hand"] == 1 and b.highlighted() == "Call 50"
    b.m.refresh(st, {"instruction": MOVE})  # one arrives during the hand: OK still calls
    assert b.highlighted() == "Call 50"
    assert b.labels()[-2:] == ["Confirm", "Seats"]
    b.m.refresh(st, {"instruction": "Seat 2: phone"})
    b.m.i = len(b.labels()) - 2
    assert b.m.press("ok", False, st) == {"box": "ack", "id": None}


def _colour_box():
    levels = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
              {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}]
    t = table("lppl", {1: 3025, 2: 2975, 3: 3000, 4: 3075}, button=4, levels=levels, chip=25,
              colour_ups=[{"after_level": 1, "remove": [25], "chip": 50}])
    t.apply({"do": "tick", "s": 1200})     # level 2: the 25s go
    return Box(t)


def test_colour_up_per_seat_between_hands():
    b = _colour_box()
    f = fields(b.st, b.m)
    assert f["banner"] == "Colour up: 25 go"
    assert f["colour"] == "S1 3,025>3,050  S2 2,975>3,000  S4 3,075>3,100"
    assert b.labels() == ["New hand", "Colour up", "Seats"]
    b.press("right")
    b.press("ok")                           # Colour up: the list, seat by seat
    assert b.labels() == ["Colour up now", "S1 3,025>3,050", "S2 2,975>3,000",
                          "S4 3,075>3,100", "Back"]
    b.press("right")
    b.press("ok")                           # a seat's line: nothing happens
    assert b.m.mode == "colour" and b.st["error"] is None
    b.press("left")
    st = b.press("ok")                      # Colour up now
    assert st["error"] is None and st["stacks"] == {"1": 3050, "2": 3000, "3": 3000,
                                                    "4": 3100}
    assert b.m.mode == "main" and b.labels() == ["New hand", "Seats"]
    assert fields(st, b.m)["colour"] == ""


def test_colour_up_list_closes_when_a_hand_starts():
    b = _colour_box()
    b.press("right")
    b.press("ok")
    assert b.m.mode == "colour"
    st = b.t.apply({"do": "hand"})          # (the host's link, say)
    b.st = st
    b.m.refresh(st)
    assert b.m.mode == "main" and fields(st, b.m)["colour"] == ""
    assert "Colour up" not in b.labels()


def test_setup_screen_from_the_seat_list():
    t = table("wph", {1: 3000, 2: 3000, 3: 3000}, button=1, levels=level(25, 50))
    b = Box(t)
    b.m = Menu(setup=True)
    box = {"board": "Table build: Feather + TFT", "seats": 3, "fw": "9.9", "muted": False,
           "buzzer": True}
    info = {"table": 4, "link": "Wi-Fi"}
    b.m.refresh(b.st, info, box)
    b.press("menu")
    b.press("hand")                         # Seats
    assert b.labels() == ["Seat 1", "Seat 2", "Seat 3", "Box setup", "Back"]
    for _ in range(3):
        b.press("menu")
    b.press("hand")
    assert b.m.mode == "setup" and b.labels() == ["Buzzer: on", "Back"]
    f = fields(b.st, b.m, info, box)
    # the table number first, in the largest row of the setup lines (issue #18)
    assert f["hand"] == "Box setup" and f["action"] == "Table 4"
    assert f["pot"] == "3 seats  WPH  Link: Wi-Fi" and f["in_hand"] is True
    assert f["posts"] == "Table build, firmware 9.9" and f["players"] is False
    assert b.m.press("hand", False, b.st) == {"box": "mute"}
    box["muted"] = True
    b.m.refresh(b.st, None, box)
    assert b.labels()[0] == "Buzzer: muted" and b.m.mode == "setup"
    b.press("fold")                         # back to the seats
    assert b.m.mode == "seats"
    b.m.mode = "setup"
    b.m.refresh(b.st, {}, {"buzzer": False, "seats": 3})
    f = fields(b.st, b.m, {}, {"buzzer": False, "seats": 3, "fw": "9.9"})
    assert b.labels() == ["Back"] and f["action"] == "No table yet"
    assert f["posts"] == "?, firmware 9.9, no buzzer" and f["pot"].endswith("Link: none")


def test_away_seats_are_listed_in_the_hand_view():
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000, 4: 3000, 5: 3000}, button=5,
              levels=level(25, 50))
    t.apply({"do": "away", "seat": 3})
    t.apply({"do": "away", "seat": 1})
    st = t.apply({"do": "hand"})
    f = fields(st)
    assert f["away"] == "Away: 1, 3"
    assert "(away)" in f["posts"]            # the away SB is marked in the posts too
    st = t.apply({"do": "back", "seat": 1})
    st = t.apply({"do": "back", "seat": 3})
    assert fields(st)["away"] == ""


def test_shot_clock_fields_flash_in_the_warning():
    t = table("wph", {1: 3000, 2: 3000, 3: 3000}, button=1, levels=level(25, 50))
    t.apply({"do": "hand"})
    st = t.apply({"do": "clock"})
    assert fields(st)["shot_kind"] == "running" and fields(st)["shot"] == "CLOCK 60"
    st = t.apply({"do": "tick", "s": 51})
    assert fields(st)["shot"] == "CLOCK 9!" and fields(st)["shot_kind"] == "warning"
    assert fields(st, blink_off=True)["shot_kind"] == "flash"
    assert fields(st, blink_off=True)["shot"] == "CLOCK 9!"   # the same text, dark
    st = t.apply({"do": "call"})
    assert fields(st)["shot_kind"] == "" and fields(st)["shot"] == ""
