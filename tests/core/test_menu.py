"""The dealer's controls on both boards: presses -> events -> screen."""

from tc_util import level, table
from tcbox.menu import Menu
from tcbox.view import chips, fields, mmss


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
    assert b.labels()[:4] == ["Call 50", "Raise 100", "All-in 3000", "Fold"]
    b.press("right")                        # highlight Raise
    b.press("ok")                           # open the amount at the minimum
    assert b.m.mode == "amount" and b.m.amount == 100
    b.press("right")
    b.press("right")                        # +25 +25
    b.press("right", long=True)             # +50 (a big blind)
    assert b.m.amount == 200
    st = b.press("ok")
    assert st["bets"]["3"] == 200 and st["action"] == 4 and st["error"] is None
    assert b.highlighted() == "Call 200"


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
    b.press("right")
    b.press("right")
    st = b.press("ok")                      # Done: the side pot is still open
    assert st["street"] == "showdown" and b.m.note == "Best of the rest?"
    assert b.labels() == ["Seat 1", "Seat 3", "Done"]
    b.press("right")
    b.press("ok")                           # seat 3
    b.press("right")
    st = b.press("ok")
    assert st["street"] is None
    assert st["winners"] == {"2": 1200, "3": 1200} and st["busted"] == [1]


def test_screen_fields():
    assert mmss(725) == "12:05" and mmss(3725) == "1:02:05" and mmss(0) == "0:00"
    assert chips(3025) == "3,025" and chips(1000000) == "1,000,000" and chips(75) == "75"
    b = _box()
    f = fields(b.st, b.m, {"players": 47, "average": 3063, "link": "Wi-Fi"})
    assert (f["level"], f["blinds"], f["time"], f["next"]) == ("Level 1", "25/50", "20:00",
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
