"""Bet sizing from the worked examples in the rule texts."""

from tc_util import do, level, refused, table


def test_lppl_75_150_raise_example():
    # LPPL "BETTING": blinds 75/150; P1 calls 150, P2 raises to 400, P3's
    # minimum re-raise is 650, P2's next minimum is 900; flop: bet 500,
    # minimum raise 1000, P3 bets 1400, P2's minimum is 2300.
    t = table("lppl", {1: 5000, 2: 5000, 3: 5000, 4: 5000, 5: 5000, 6: 5000},
              button=6, levels=level(75, 150))
    st = do(t, "hand")
    assert (st["button"], st["sb_seat"], st["bb_seat"], st["action"]) == (6, 1, 2, 3)
    assert st["to_call"] == 150 and st["min_raise_to"] == 300
    do(t, "call")                      # P1 (seat 3) calls 150
    st = do(t, "raise", to=400)        # P2 (seat 4) raises 250 more: "a total of 400"
    assert st["action"] == 5 and st["min_raise_to"] == 650
    do(t, "fold")                      # seat 5
    assert refused(t, "raise", to=649)  # P3 (seat 6) needs 650
    st = do(t, "raise", to=650)
    assert st["min_raise_to"] == 900
    do(t, "fold")                      # SB
    do(t, "fold")                      # BB
    do(t, "fold")                      # P1 folds
    st = t.state()
    assert st["action"] == 4 and st["to_call"] == 250 and st["min_raise_to"] == 900
    st = do(t, "call")                 # P2 "just calls the 250"
    assert st["street"] == "flop" and st["action"] == 4
    assert st["pot"] == 75 + 150 + 150 + 650 + 650
    assert st["min_raise_to"] == 150   # "minimum bet would be the big blind (150)"
    st = do(t, "bet", to=500)
    assert st["min_raise_to"] == 1000
    st = do(t, "bet", to=1400)
    assert st["action"] == 4 and st["min_raise_to"] == 2300
    assert refused(t, "raise", to=2000)  # "This would not be allowed"
    st = do(t, "raise", to=2300)
    assert st["action"] == 6


def _underraise_table(profile):
    # LPPL "An example of 'completing the bet'": 600/1200, players 1 and 2
    # limp, the cut-off (player 3) moves all-in for 2000.
    # Seats: button 8, SB 1, BB 2, P1 = 3, P2 = 4, 5 and 6 fold, P3 = 7, P4 = 8.
    stacks = {s: 30000 for s in range(1, 9)}
    stacks[7] = 2000
    t = table(profile, stacks, button=8, levels=level(600, 1200))
    do(t, "hand")
    do(t, "call")
    do(t, "call")
    do(t, "fold")
    do(t, "fold")
    st = do(t, "allin")
    assert st["bets"]["7"] == 2000 and st["action"] == 8
    return t


def test_lppl_underraise_first_scenario():
    t = _underraise_table("lppl")
    do(t, "fold")   # button
    do(t, "fold")   # SB
    st = do(t, "fold")   # BB
    assert st["action"] == 3 and st["to_call"] == 800
    assert st["min_raise_to"] is None      # the short all-in is "like a call"
    st = do(t, "call")                     # "Player 1 makes the call (putting in 800 more)"
    assert st["action"] == 4 and st["to_call"] == 800
    assert st["min_raise_to"] is None
    err = refused(t, "raise", to=4000)     # "This is not allowed"
    assert "only call or fold" in err
    st = do(t, "fold")
    assert st["street"] == "showdown" and sorted(st["in_hand"]) == [3, 7]


def test_lppl_underraise_second_scenario_completing_the_bet():
    t = _underraise_table("lppl")
    st = t.state()
    assert st["min_raise_to"] == 2400      # "his minimum raise would be to 2400"
    st = do(t, "raise", to=2400)           # "completes the bet"
    do(t, "fold")
    do(t, "fold")
    st = do(t, "fold")                     # P1 folds
    assert st["action"] == 4
    assert st["to_call"] == 1200 and st["min_raise_to"] == 3600  # "at least 3600"
    st = do(t, "allin")
    st = do(t, "call")                     # "Player 4 makes the call"
    assert st["street"] == "showdown"


def test_wph_short_allin_minimum_is_highest_plus_last_full_raise():
    # TDA 41 / WPH: the same all-in for 2000 over 1200: a raise must be a full
    # 1200 on top of the 2000 bet.
    t = _underraise_table("wph")
    st = t.state()
    assert st["min_raise_to"] == 3200
    assert refused(t, "raise", to=2400)


def test_us_free_200_400_double_raises():
    # US rule 12: 200/400, an all-in for 500 is not a complete raise; others may
    # call 500, raise to 800, re-raise to 1600, then 3200.
    stacks = {s: 10000 for s in range(1, 7)}
    stacks[3] = 500
    t = table("us_free", stacks, button=6, levels=level(200, 400))
    st = do(t, "hand")
    assert st["action"] == 3 and st["min_raise_to"] == 800
    st = do(t, "allin")
    assert st["action"] == 4 and st["to_call"] == 500 and st["min_raise_to"] == 800
    assert refused(t, "raise", to=700)
    st = do(t, "raise", to=800)
    assert st["min_raise_to"] == 1600
    st = do(t, "raise", to=1600)
    assert st["min_raise_to"] == 3200
    assert refused(t, "raise", to=3000)


def test_us_free_allin_below_big_blind_and_postflop_opening():
    # "Blinds are 200/400, and the player goes ALL-IN with 300": the next
    # player completes to 400 and doubles it: 800.
    stacks = {s: 10000 for s in range(1, 5)}
    stacks[3] = 300
    t = table("us_free", stacks, button=4, levels=level(200, 400))
    do(t, "hand")                      # SB 1, BB 2, seat 3 first
    st = do(t, "allin")
    assert st["to_call"] == 400 and st["min_raise_to"] == 800
    do(t, "call")
    do(t, "call")
    st = do(t, "check")                # BB
    assert st["street"] == "flop"
    # "1st player can open betting with 500 or 1100 ... a raise ... at least
    # double what the last bet was"
    assert st["min_raise_to"] == 400
    st = do(t, "bet", to=500)
    assert st["min_raise_to"] == 1000


def _two_short_allins(profile):
    # flop: seat 2 bets 100; seat 3 all-in to 150 and seat 4 all-in to 220,
    # both less than a full raise under TDA (200, then 250); seat 1 calls.
    t = table(profile, {1: 5000, 2: 5000, 3: 200, 4: 270}, button=1, levels=level(25, 50))
    st = do(t, "hand")
    assert (st["sb_seat"], st["bb_seat"], st["action"]) == (2, 3, 4)
    do(t, "call")                   # 4
    do(t, "call")                   # 1
    do(t, "call")                   # 2 completes
    st = do(t, "check")             # 3: flop
    assert st["street"] == "flop" and st["action"] == 2
    st = do(t, "bet", to=100)
    assert st["min_raise_to"] == 200
    st = do(t, "allin")             # seat 3: 150
    assert st["bets"]["3"] == 150
    st = do(t, "allin")             # seat 4: 220
    assert st["bets"]["4"] == 220
    st = do(t, "call")              # seat 1 calls 220
    assert st["action"] == 2 and st["to_call"] == 120
    return st


def test_short_allins_adding_up_to_a_full_raise_reopen_tda():
    # TDA 41: "An all-in wager (or cumulative multiple all-ins) totaling less
    # than a full bet or raise will not reopen betting ... If multiple all-ins
    # re-open the betting, the minimum raise is always the last full valid
    # bet or raise": seat 2 faces 120 more than its 100, a full 100 raise.
    st = _two_short_allins("wph")
    assert st["min_raise_to"] == 220 + 100


def test_lppl_second_allin_is_a_full_raise_over_the_last_full_bet():
    # LPPL: a short all-in counts as a call, so the minimum raise over the
    # 100 bet stays 200; the all-in to 220 reaches it and is a raise of 120.
    st = _two_short_allins("lppl")
    assert st["min_raise_to"] == 220 + 120


def test_single_short_allin_does_not_reopen():
    t = table("wph", {1: 5000, 2: 5000, 3: 200}, button=1, levels=level(25, 50))
    do(t, "hand")                   # SB 2, BB 3, seat 1 first
    do(t, "call")
    do(t, "call")
    st = do(t, "check")
    assert st["street"] == "flop" and st["action"] == 2
    do(t, "bet", to=100)
    st = do(t, "allin")             # seat 3: 150, short
    st = do(t, "call")              # seat 1 had not acted: may call 150
    assert st["action"] == 2 and st["to_call"] == 50
    assert st["min_raise_to"] is None
    assert "only call or fold" in refused(t, "raise", to=400)


def test_check_raise_allowed_and_bet_below_big_blind_refused():
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000}, button=1, levels=level(25, 50))
    do(t, "hand")
    do(t, "call")
    do(t, "call")
    do(t, "check")
    st = t.state()
    assert st["street"] == "flop" and st["action"] == 2
    do(t, "check")
    assert refused(t, "bet", to=49)
    do(t, "bet", to=200)
    st = do(t, "fold")  # seat 1
    st = t.state()
    assert st["action"] == 2 and st["min_raise_to"] == 400  # check-raise is permitted
    do(t, "raise", to=400)


def _short_opening_bet(profile):
    # flop at 50/100: seat 2 bets all-in for 86, less than the big blind
    t = table(profile, {1: 1000, 2: 186, 3: 1000}, button=1, levels=level(50, 100))
    do(t, "hand")
    do(t, "call")
    do(t, "call")
    st = do(t, "check")
    assert st["street"] == "flop" and st["action"] == 2
    st = do(t, "allin")
    assert st["bets"] == {"2": 86} and st["action"] == 3 and st["to_call"] == 86
    return t, st


def test_short_opening_allin_minimum_raise_per_profile():
    # TDA 37-A: a raise is at least the largest prior full bet, here the BB:
    # 86 + 100 = 186.  LPPL: the short all-in counts as no bet, a bet of the
    # BB (100) is a full bet.  US 12: "completing the bet to the full bet
    # amount (100) & doubling it" = 200.
    for profile, least in (("wph", 186), ("lppl", 100), ("us_free", 200)):
        t, st = _short_opening_bet(profile)
        assert st["min_raise_to"] == least, profile
        assert refused(t, "raise", to=least - 1)
        st = do(t, "raise", to=least)
        assert st["action"] == 1


def test_no_raise_when_nobody_could_call_it():
    # seat 1 moves all-in for 1000; the big blind has 300 in all: a raise by
    # the small blind could never be called, so it may only call or fold.
    t = table("wph", {1: 1000, 2: 5000, 3: 300}, button=1, levels=level(50, 100))
    do(t, "hand")
    st = do(t, "allin")
    assert st["action"] == 2 and st["to_call"] == 950 and st["min_raise_to"] is None
    assert "Nobody left can call a raise" in refused(t, "raise", to=2000)
    st = do(t, "allin")           # the all-in button calls here
    assert st["bets"]["2"] == 1000 and st["stacks"]["2"] == 4000
