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
