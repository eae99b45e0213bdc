"""Action out of turn (LPPL ¶49, TDA 47): the box records it; it binds per profile."""

from tc_util import do, level, refused, table

FOUR = {1: 3000, 2: 3000, 3: 3000, 4: 3000}


def _t(profile):
    t = table(profile, dict(FOUR), button=4, levels=level(50, 100))
    st = do(t, "hand")                 # SB 1, BB 2: seat 3 first, then the button 4
    assert st["action"] == 3
    return t


def test_tda_binding_when_the_action_to_them_does_not_change():
    # TDA 47 "The OOT action is binding if action to the OOT player does not change."
    t = _t("wph")
    st = do(t, "oot", seat=4, act="raise", to=300)
    assert st["action"] == 3 and st["out_of_turn"] == {"4": {"act": "raise", "to": 300}}
    assert st["last"] == "Seat 4: raise to 300 out of turn" and st["bets"] == {"1": 50, "2": 100}
    st = do(t, "call")                 # seat 3 calls: the action to seat 4 is the same
    assert st["last"] == "Seat 3 calls 100; seat 4 raises to 300 (out of turn)"
    assert st["bets"]["4"] == 300 and st["action"] == 1 and st["out_of_turn"] == {}


def test_tda_not_binding_when_the_action_changes_but_a_fold_is():
    # TDA 47 "If action changes, the OOT action is not binding; any bet or raise is returned
    # to the OOT player who has all options: call, raise, or fold. An OOT fold is binding."
    t = _t("wph")
    do(t, "oot", seat=4, act="call")
    st = do(t, "raise", to=300)        # seat 3 raises: the action to seat 4 changed
    assert st["action"] == 4 and st["to_call"] == 300 and st["min_raise_to"] == 500
    assert st["out_of_turn"] == {}
    t = _t("wph")
    do(t, "oot", seat=4, act="fold")
    st = do(t, "raise", to=300)
    assert 4 not in st["in_hand"] and st["action"] == 1
    assert st["last"] == "Seat 3 raises to 300; seat 4 folds (out of turn)"


def test_lppl_binding_when_the_play_gets_to_them():
    # LPPL ¶49 "If anyone Acts out of Turn, either verbally or physically, then that action
    # is binding and must be taken when the play gets to that player."
    t = _t("lppl")
    do(t, "oot", seat=4, act="call")
    st = do(t, "raise", to=300)
    assert st["bets"]["4"] == 300 and st["action"] == 1
    assert st["last"] == "Seat 3 raises to 300; seat 4 calls 300 (out of turn)"
    # a raise the bet has since overtaken: LPPL ¶48 "If the minimum raise amount has not
    # been placed ... the action will be for a 'call' only"
    t = _t("lppl")
    do(t, "oot", seat=4, act="raise", to=300)
    st = do(t, "raise", to=250)        # the minimum for seat 4 is now 400
    assert st["bets"]["4"] == 250 and st["last"].endswith("seat 4 calls 250 (out of turn)")


def test_a_check_out_of_turn_facing_a_bet_may_only_call_or_fold():
    # TDA 49 "A player declaring "check" when facing a bet may call or fold, but cannot raise."
    for profile in ("lppl", "wph"):
        t = _t(profile)
        do(t, "call")
        do(t, "call")
        do(t, "call")
        st = do(t, "check")            # the flop: seat 1 first
        assert st["street"] == "flop" and st["action"] == 1
        do(t, "oot", seat=2, act="check")
        st = do(t, "bet", to=100)
        if profile == "wph":           # the action changed: all options
            assert st["action"] == 2 and st["min_raise_to"] == 200
            continue
        assert st["action"] == 2 and st["to_call"] == 100 and st["min_raise_to"] is None
        assert refused(t, "raise", to=200) == "Seat 2 checked out of turn: now call or fold"
        st = do(t, "call")
        assert st["action"] == 3 and st["out_of_turn"] == {}
        st = do(t, "fold")
        st = do(t, "fold")             # seat 4
        st = do(t, "bet", to=100)      # the turn: seat 1 bets, seat 2 may raise again
        assert st["street"] == "turn" and st["action"] == 2 and st["min_raise_to"] == 200


def test_out_of_turn_refusals_and_the_undo():
    t = _t("wph")
    assert refused(t, "oot", seat=3, act="call") == "It is seat 3's turn: enter the action itself"
    assert refused(t, "oot", seat=4, act="dance").startswith('Out of turn needs "act"')
    assert refused(t, "oot", seat=4, act="raise", to=100).startswith(
        "Seat 4: a raise out of turn needs")
    do(t, "oot", seat=4, act="fold")
    assert refused(t, "oot", seat=4, act="call") == "Seat 4 has already acted out of turn"
    # the dealer undoes seat 3's call: seat 4's fold, carried out after it, waits again
    st = do(t, "call")
    assert 4 not in st["in_hand"] and st["action"] == 1
    st = do(t, "undo")
    assert st["action"] == 3 and 4 in st["in_hand"] and st["undone"] == [
        "Seat 3 calls 100; seat 4 folds (out of turn)"]
    assert st["out_of_turn"] == {"4": {"act": "fold", "to": None}}
    st = do(t, "raise", to=300)
    assert 4 not in st["in_hand"] and st["action"] == 1
    # a declaration made after the last action is kept by its undo too
    t = _t("wph")
    do(t, "call")                      # seat 3
    do(t, "oot", seat=1, act="call")
    st = do(t, "undo")                 # seat 3's call taken back
    assert st["action"] == 3 and st["out_of_turn"] == {"1": {"act": "call", "to": None}}


def test_a_raise_below_the_minimum_out_of_turn_binds_as_the_minimum_raise():
    # At 50/100 seat 4 declares "raise 160" out of turn; seat 3 calls, so it binds.
    # TDA 37-A "raises 50% or more ... but less than a minimum raise must make a full
    # minimum raise"; LPPL ¶26 "Having stated raise he must now put in the remaining
    # chips it takes to make a legal bet"; us_free: US 12 "A COMPLETE "RAISE" ... MUST BE
    # AT LEAST DOUBLE" (docs/rules.md §13).  The minimum is to 200 in every profile.
    for profile in ("wph", "lppl", "us_free"):
        t = _t(profile)
        st = do(t, "oot", seat=4, act="raise", to=160)
        assert st["out_of_turn"] == {"4": {"act": "raise", "to": 160}}
        st = do(t, "call")
        assert st["last"] == ("Seat 3 calls 100; seat 4 raises to 200 (out of turn: "
                              "declared 160, the minimum raise is to 200)"), profile
        assert st["bets"]["4"] == 200 and st["stacks"]["4"] == 2800 and st["action"] == 1
        # "raise" declared: below half a raise too (TDA 37-A "unless "raise" is first declared")
        t = _t(profile)
        do(t, "oot", seat=4, act="raise", to=120)
        st = do(t, "call")
        assert st["bets"]["4"] == 200, profile


def test_a_bet_below_the_minimum_out_of_turn_binds_as_the_minimum_bet():
    # On the flop at 50/100 seat 3 declares "bet 60"; seats 1 and 2 check, so it binds.
    # TDA 46 "Opening or raising less than the minimum legal amount is corrected";
    # LPPL ¶48 "a minimum bet must always be made": a bet of 100, never a check.
    for profile in ("wph", "lppl", "us_free"):
        t = _t(profile)
        for _ in range(4):
            st = do(t, "call")             # seats 3, 4, 1 call, the BB checks
        assert st["street"] == "flop" and st["action"] == 1
        do(t, "oot", seat=3, act="bet", to=60)
        do(t, "check")
        st = do(t, "check")
        assert st["last"] == ("Seat 2 checks; seat 3 bets to 100 (out of turn: "
                              "declared 60, the minimum bet is to 100)"), profile
        assert st["bets"] == {"3": 100} and st["action"] == 4 and st["min_raise_to"] == 200


def test_an_amount_without_raise_below_the_minimum_follows_the_profile():
    # TDA 37-A "If less than 50% it is a call unless "raise" is first declared ...
    # Declaring an amount or pushing out the same amount of chips is treated the same."
    # An amount said without "raise" is entered as act "bet".
    t = _t("wph")
    do(t, "oot", seat=4, act="bet", to=140)   # 40 more: under half of the 100 raise
    st = do(t, "call")
    assert st["last"] == ('Seat 3 calls 100; seat 4 calls 100 (out of turn: declared 140 '
                          'without "raise": under half a raise is a call)')
    assert st["bets"]["4"] == 100
    t = _t("wph")
    do(t, "oot", seat=4, act="bet", to=150)   # half a raise: the full minimum raise
    st = do(t, "call")
    assert st["bets"]["4"] == 200
    # LPPL ¶48 "if you do not state raise ... If the minimum raise amount has not been
    # placed, then ... the action will be for a 'call' only"
    t = _t("lppl")
    do(t, "oot", seat=4, act="bet", to=180)
    st = do(t, "call")
    assert st["bets"]["4"] == 100 and st["last"].endswith(
        'declared 180 without "raise": below the minimum raise it is a call)')


def test_an_out_of_turn_raise_short_of_the_minimum_stays_an_all_in():
    # The player cannot be made to put in more than they have: 170 in all, the minimum
    # raise is to 200, so the raise to 160 becomes an all-in for 170.
    for profile in ("wph", "lppl"):
        t = table(profile, {1: 3000, 2: 3000, 3: 3000, 4: 170}, button=4, levels=level(50, 100))
        do(t, "hand")
        do(t, "oot", seat=4, act="raise", to=160)
        st = do(t, "call")
        assert st["bets"]["4"] == 170 and st["stacks"]["4"] == 0, profile
        assert st["last"].endswith("seat 4 raises to 170 (out of turn: declared 160, "
                                   "the minimum raise is to 200)")
