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


def test_us_free_clock_counts_and_alerts_and_folds_nobody():
    # US 4: "APPROXIMATELY 30 seconds' maximum for decisions on your play! (This is not to be
    # used as a strict enforcement, but just to keep the flow of the game smoother.)"
    t = _t("us_free")
    do(t, "clock")                  # seat 1 faces the big blind of 50
    st = do(t, "tick", s=30)
    assert st["action"] == 1 and st["shot_clock"] == 0 and st["clock_warning"]
    st = do(t, "tick", s=1)
    assert st["action"] == 1 and 1 in st["in_hand"] and st["to_call"] == 50
    assert st["shot_clock"] == 0 and st["clock_warning"]  # it stays up, flashing
    assert st["last"] == "Time: seat 1, 30 s are up" and st["warnings"] == {}
    st = do(t, "tick", s=600)
    assert st["action"] == 1 and st["shot_clock"] == 0 and st["last"] == "Time: seat 1, 30 s are up"
    st = do(t, "call")
    assert st["action"] == 2 and st["shot_clock"] is None and not st["clock_warning"]
    assert do(_t("lppl", shot_clock={"seconds": 45, "warning": 5}), "clock")["shot_clock"] == 45


def test_lppl_expired_clock_is_slow_play_warning_then_fold():
    # LPPL has no timer of its own; ¶51 "Deliberate or Excessive slow play ... 1st time a
    # warning, thereafter automatic fold"
    t = _t("lppl")
    do(t, "clock")
    st = do(t, "tick", s=61)
    assert st["action"] == 1 and 1 in st["in_hand"] and st["shot_clock"] is None
    assert st["warnings"] == {"1": 1} and st["last"] == "Time is up. Seat 1: slow play, warning 1"
    do(t, "call")
    do(t, "call")
    st = do(t, "check")             # the flop: seat 2 first, not facing a bet
    do(t, "check")
    do(t, "check")
    st = do(t, "check")             # the turn
    assert st["street"] == "turn" and st["action"] == 2
    do(t, "check")
    do(t, "clock")                  # seat 3
    st = do(t, "tick", s=61)        # a second expiry for another player: a warning
    assert st["warnings"] == {"1": 1, "3": 1} and 3 in st["in_hand"]
    do(t, "check")
    st = do(t, "check")             # seat 1 checks: the river
    assert st["street"] == "river" and st["action"] == 2
    do(t, "check")
    do(t, "check")
    do(t, "clock")                  # seat 1 again, even with a check open: folded
    st = do(t, "tick", s=61)
    assert 1 not in st["in_hand"] and st["warnings"] == {"1": 2, "3": 1}
    assert st["last"] == "Time is up. Seat 1: slow play again, hand folded"
    assert st["street"] == "showdown"


def test_wph_keeps_tda_25_at_expiry():
    t = _t("wph")
    do(t, "clock")
    st = do(t, "tick", s=61)
    assert 1 not in st["in_hand"] and st["warnings"] == {} and st["last"] == "Time: seat 1 folds"
