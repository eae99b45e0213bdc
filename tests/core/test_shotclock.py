"""Calling the clock (TDA 25 as in the WPH house rules)."""

from tc_util import do, level, refused, table


def _t(profile="wph", **kw):
    t = table(profile, {1: 3000, 2: 3000, 3: 3000}, button=1, levels=level(25, 50), **kw)
    do(t, "hand")                  # SB 2, BB 3, seat 1 first, facing 50
    return t


def test_sixty_seconds_with_ten_second_warning_then_dead_hand_facing_a_bet():
    # WPH: "If a clock is called the house uses a 60-second clock with a
    # 10-second warning"; TDA 25: "If the player faces a bet and time
    # expires, the hand is dead"
    t = _t()
    st = do(t, "clock")
    assert st["shot_clock"] == 60 and not st["clock_warning"]
    st = do(t, "tick", s=49)
    assert st["shot_clock"] == 11 and not st["clock_warning"]
    st = do(t, "tick", s=1)
    assert st["shot_clock"] == 10 and st["clock_warning"]
    st = do(t, "tick", s=10)
    assert st["action"] == 1 and st["shot_clock"] == 0  # "Time ties go to the player"
    st = do(t, "tick", s=0.001)
    assert st["action"] == 2 and 1 not in st["in_hand"] and st["shot_clock"] is None


def test_expiry_not_facing_a_bet_checks():
    t = _t()
    do(t, "call")
    do(t, "call")
    st = do(t, "check")
    assert st["street"] == "flop" and st["action"] == 2
    do(t, "clock")
    st = do(t, "tick", s=61)
    assert st["action"] == 3 and 2 in st["in_hand"] and st["shot_clock"] is None


def test_acting_stops_the_clock_and_profile_limits():
    t = _t()
    do(t, "clock")
    assert refused(t, "clock")
    st = do(t, "call")
    assert st["shot_clock"] is None
    assert do(_t("us_free"), "clock")["shot_clock"] == 30


def test_us_free_expiry_not_facing_a_bet_checks_too():
    # the away rule mucks an absent hand, but an expired clock only checks
    t = _t("us_free")
    do(t, "call")
    do(t, "call")
    st = do(t, "check")
    do(t, "clock")
    st = do(t, "tick", s=31)
    assert st["action"] == 3 and 2 in st["in_hand"] and st["last"] == "Time: seat 2 checks"
    assert do(_t("lppl", shot_clock={"seconds": 45, "warning": 5}), "clock")["shot_clock"] == 45
