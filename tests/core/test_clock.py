"""The level clock inside a table: levels, breaks, pause, adjust, jump."""

from tc_util import LEVELS, do, fold_round, level, refused, table

STRUCT = [
    {"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
    {"sb": 50, "bb": 100, "ante": 0, "minutes": 20},
    {"break": 10},
    {"sb": 75, "bb": 150, "ante": 25, "minutes": 20},
]


def _t(profile="wph", levels=STRUCT):
    return table(profile, {1: 3000, 2: 3000, 3: 3000}, levels=levels)


def test_clock_counts_down_in_whole_seconds():
    t = _t()
    st = t.state()
    assert (st["level"], st["sb"], st["bb"], st["seconds_left"]) == (1, 25, 50, 1200)
    assert st["next_level"] == {"level": 2, "sb": 50, "bb": 100, "ante": 0}
    st = do(t, "tick", s=0.4)
    assert st["seconds_left"] == 1200      # 1199.6 s shows as 20:00
    st = do(t, "tick", s=1199.5)
    assert st["seconds_left"] == 1 and st["level"] == 1
    st = do(t, "tick", s=0.1)
    assert st["level"] == 2 and st["seconds_left"] == 1200


def test_level_change_during_a_hand_applies_from_the_next_hand():
    # TDA 20: "If the SB or BB are posted prior to the announcement the
    # blinds remain at the posted amounts and the new level applies to the
    # next hand."
    t = _t()
    do(t, "tick", s=1190)
    st = do(t, "hand")
    do(t, "tick", s=15)
    st = t.state()
    assert st["level"] == 2 and st["bb"] == 100
    assert st["hand_level"]["bb"] == 50 and st["to_call"] == 50
    assert st["min_raise_to"] == 100
    fold_round(t)
    st = do(t, "hand")
    assert st["hand_level"]["bb"] == 100 and st["to_call"] == 100


def test_no_new_hand_during_a_break_and_it_shows_the_next_level():
    t = _t()
    st = do(t, "tick", s=2400)
    assert st["on_break"] and (st["level"], st["bb"], st["ante"]) == (3, 150, 25)
    assert st["seconds_left"] == 600
    assert "break" in refused(t, "hand")
    st = do(t, "tick", s=600)
    assert not st["on_break"]
    st = do(t, "hand")
    assert st["hand_level"] == {"level": 3, "sb": 75, "bb": 150, "ante": 25}


def test_pause_resume_adjust():
    t = _t()
    do(t, "pause")
    st = do(t, "tick", s=300)
    assert st["paused"] and st["seconds_left"] == 1200
    assert refused(t, "hand")
    assert refused(t, "pause")
    do(t, "resume")
    assert refused(t, "resume")
    st = do(t, "adjust", s=60)
    assert st["seconds_left"] == 1260
    st = do(t, "adjust", s=-600)
    assert st["seconds_left"] == 660
    assert refused(t, "adjust", s=-660)   # cannot remove more than is left


def test_jump_and_lppl_drops_levels_only_after_the_second_chip_up():
    # LPPL: "Levels can only be dropped AFTER the 2nd chip-up stage." (the
    # second chip-up is immediately after level 10)
    lv = [{"sb": 25 * i, "bb": 50 * i, "ante": 0, "minutes": 20} for i in range(1, 15)]
    t = _t("lppl", lv)
    st = do(t, "jump", level=2)           # the next level early: not a drop
    assert st["level"] == 2
    assert "dropped" in refused(t, "jump", level=4)
    assert refused(t, "jump", level=10)
    st = do(t, "tick", s=8 * 1200)        # levels 2..9 run their time
    assert st["level"] == 10
    assert refused(t, "jump", level=12)   # level 11 comes first
    st = do(t, "jump", level=11)
    st = do(t, "jump", level=13)          # after the second chip-up: allowed
    assert st["level"] == 13
    t = _t("wph", lv)
    assert do(t, "jump", level=9)["level"] == 9


def test_lppl_colour_up_notices_and_late_entry_window():
    # LPPL: first chip-up "immediately after level 5" (25s and 50s), second
    # "immediately after level 10" (100s); latecomers "before the start of the
    # 3rd Blind level".
    lv = [{"sb": 25 * i, "bb": 50 * i, "ante": 0, "minutes": 20} for i in range(1, 13)]
    t = _t("lppl", lv)
    st = t.state()
    assert st["late_entry_open"] is True and st["colour_up"] is None
    st = do(t, "tick", s=2 * 1200 - 1)
    assert st["level"] == 2 and st["late_entry_open"] is True
    st = do(t, "tick", s=1)
    assert st["level"] == 3 and st["late_entry_open"] is False
    st = do(t, "tick", s=3 * 1200)
    assert st["level"] == 6
    assert st["colour_up"]["remove"] == [25, 50] and st["colour_up"]["rounding"] == "nearest"
    st = do(t, "tick", s=1200)
    assert st["colour_up"] is None
    st = do(t, "tick", s=4 * 1200)
    assert st["level"] == 11 and st["colour_up"]["remove"] == [100]
    assert _t("wph").state()["late_entry_open"] is None


def test_default_levels_fixture_is_valid():
    assert table("lppl", {1: 10, 2: 10}, levels=LEVELS).state()["bb"] == 50
    assert level(1, 2)[0]["bb"] == 2


def test_late_entry_still_open_on_the_break_before_level_3():
    # "before the start of the 3rd Blind Level": the break is not level 3 yet
    t = _t("lppl")
    st = do(t, "tick", s=2400)
    assert st["on_break"] and st["level"] == 3 and st["late_entry_open"] is True
    st = do(t, "tick", s=600)
    assert not st["on_break"] and st["late_entry_open"] is False


def test_colour_up_rounds_stacks_per_profile():
    # LPPL: chipped-up "to the nearest total of 100"; WPH / TDA 21-A: "Any odd
    # chips will be replaced by a chip of the next highest denomination (i.e.,
    # rounded up)".
    lv = [{"sb": 25 * i, "bb": 50 * i, "ante": 0, "minutes": 20} for i in range(1, 8)]
    for profile, want in (("lppl", {"1": 3000, "2": 3100, "3": 3100}),
                          ("wph", {"1": 3100, "2": 3100, "3": 3100})):
        t = table(profile, {1: 3025, 2: 3050, 3: 3075}, levels=lv, chip=25)
        assert "No colour-up is due" in refused(t, "colour_up")
        if profile == "lppl":
            st = do(t, "tick", s=5 * 1200)     # level 6: the 25s and 50s go
            assert st["colour_up"]["chip"] == 100
            st = do(t, "colour_up")
        else:
            st = do(t, "colour_up", chip=100)
        assert st["stacks"] == want, profile


def test_long_ticks_stay_exact_to_the_millisecond():
    # issue 13, defect 5: on the boards' 30-bit floats int(s * 1000 + 0.5) put whole-second
    # ticks above 8,388 s up to 224 ms out: a 10,000-minute level ticked by 8,389 s then
    # 591,611 s stayed at level 1 with 1 s left.  Milliseconds are integers all the way.
    struct = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 10000},
              {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}]
    t = table("wph", {1: 3000, 2: 3000}, levels=struct)
    do(t, "tick", s=8389)
    assert t.clock.left_ms == 600000000 - 8389000
    st = do(t, "tick", s=591611)
    assert (st["level"], st["seconds_left"]) == (2, 1200)
    assert t.clock.left_ms == 1200000
    # the same ticks given as JSON floats (8389.0) and fractions of a second
    t = table("wph", {1: 3000, 2: 3000}, levels=struct)
    do(t, "tick", s=8389.0)
    st = do(t, "tick", s=591610.999)
    assert (st["level"], st["seconds_left"]) == (1, 1) and t.clock.left_ms == 1
    st = do(t, "tick", s=0.001)
    assert (st["level"], st["seconds_left"]) == (2, 1200) and t.clock.left_ms == 1200000


def test_milliseconds_from_seconds_and_minutes_are_integers():
    from tableclock.fields import ms_of
    assert ms_of(8389, 1000) == 8389000 and isinstance(ms_of(8389.0, 1000), int)
    assert ms_of(0.001, 1000) == 1 and ms_of(1199.6, 1000) == 1199600
    assert ms_of(0.0015, 1000) == 2  # half a millisecond rounds up
    assert ms_of(0.5, 60000) == 30000 and ms_of(10000, 60000) == 600000000
    t = table("wph", {1: 3000, 2: 3000}, levels=level(25, 50, minutes=0.1))
    assert t.clock.left_ms == 6000  # 0.1 minute: 6 s, not 5,999 ms
