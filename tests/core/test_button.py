"""Dead button, heads-up, who deals, new players waiting for the button."""

from tc_util import do, fold_round, level, posts, refused, table

FIVE = {1: 3000, 2: 3000, 3: 3000, 4: 3000, 5: 3000}


def _first_hand(profile="lppl", stacks=None):
    t = table(profile, stacks or dict(FIVE), button=1, levels=level(25, 50))
    st = do(t, "hand")
    assert (st["button"], st["sb_seat"], st["bb_seat"], st["dealer"]) == (1, 2, 3, 1)
    fold_round(t)
    return t


def test_blinds_move_one_seat_each_hand():
    t = _first_hand()
    st = do(t, "hand")
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (2, 3, 4)
    assert posts(st) == [(3, 25, "sb"), (4, 50, "bb")]
    assert st["action"] == 5


def test_small_blind_eliminated_button_moves_to_empty_seat():
    # LPPL: "If a player is eliminated after it was his Small Blind, then the
    # button (dealer) moves to his empty position and the person who just
    # dealt deals for the eliminated player ... The other players post Small
    # and Big Blinds as usual."
    t = _first_hand()
    do(t, "bust", seat=2)
    st = do(t, "hand")
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (2, 3, 4)
    assert "2" not in st["stacks"]
    assert st["dealer"] == 1
    assert posts(st) == [(3, 25, "sb"), (4, 50, "bb")]


def test_big_blind_eliminated_small_blind_is_dead_then_phantom_dealer():
    # LPPL: "If a player is eliminated after it was his Big Blind, the Small
    # Blind position is considered 'dead' and only the Big Blind is posted for
    # this hand. Following this hand the 'previous' dead small blind position
    # will become a phantom dealer"
    t = _first_hand()
    do(t, "bust", seat=3)
    st = do(t, "hand")
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (2, None, 4)
    assert posts(st) == [(4, 50, "bb")]
    assert st["dealer"] == 2
    fold_round(t)
    st = do(t, "hand")
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (3, 4, 5)
    assert st["dealer"] == 2   # seat 3 is empty: the previous dealer deals


def test_both_blinds_eliminated_us_rule_13():
    # US 13: "If the both the Small Blind & the Big Blind players are
    # eliminated in the same hand, the dealer will again re-deal and the
    # player immediately to his left will post only the Big Blind"
    t = _first_hand("us_free")
    do(t, "bust", seat=2)
    do(t, "bust", seat=3)
    st = do(t, "hand")
    assert st["dealer"] == 1
    assert st["sb_seat"] is None and st["bb_seat"] == 4
    assert posts(st) == [(4, 50, "bb")]


def test_bust_in_play_orders_finishers_by_starting_chips():
    # LPPL / US 14: more chips at the start of the hand finishes higher.
    t = table("wph", {1: 3000, 2: 300, 3: 200, 4: 200}, button=4, levels=level(25, 50))
    do(t, "hand")              # SB 1, BB 2, seat 3 first
    do(t, "allin")             # 3: 200
    do(t, "allin")             # 4: 200
    do(t, "call")              # 1 calls 200
    st = do(t, "allin")        # 2: 300
    st = do(t, "call")         # 1 calls 300
    assert st["street"] == "showdown"
    st = do(t, "showdown", ranking=[[1], [2], [3, 4]])
    assert st["busted"] == [3, 4, 2]   # worst first; a tie is listed by seat
    assert st["bust_ties"] == [[3, 4]]   # equal start chips: the TD decides
    assert st["stacks"] == {"1": 3700}
    assert refused(t, "hand")


def test_heads_up_button_is_small_blind_and_acts_first():
    # TDA 28 / LPPL Heads Up: the small blind is the button and acts first
    # before the flop and last after it.
    t = table("wph", {2: 3000, 5: 3000}, seats=6, button=2, levels=level(25, 50))
    st = do(t, "hand")
    assert (st["button"], st["sb_seat"], st["bb_seat"], st["action"]) == (2, 2, 5, 2)
    do(t, "call")
    st = do(t, "check")
    assert st["street"] == "flop" and st["action"] == 5
    do(t, "check")
    st = do(t, "check")
    assert st["street"] == "turn" and st["action"] == 5


def test_becoming_heads_up_nobody_has_the_big_blind_twice():
    # US 12: "THE PLAYER WHO HAD THE BIG BLIND PRIOR TO THE HEADS UP, WILL NOT
    # GET THE BIG BLIND AGAIN! THAT PLAYER WILL BE THE SMALL BLIND"
    for gone, bb_next in ((1, 2), (2, 1)):
        t = table("us_free", {1: 3000, 2: 3000, 3: 3000}, button=1, levels=level(25, 50))
        st = do(t, "hand")
        assert st["bb_seat"] == 3
        fold_round(t)
        do(t, "bust", seat=gone)
        st = do(t, "hand")
        assert st["bb_seat"] == bb_next
        assert st["button"] == 3 and st["sb_seat"] == 3 and st["action"] == 3
        fold_round(t)
        st = do(t, "hand")
        assert st["bb_seat"] == 3 and st["button"] == bb_next


def test_newcomer_in_big_blind_position_is_dealt_in():
    # LPPL: "New players joining a table join from the Big Blind position or
    # the next available seat to the left of the Big Blind ... If a player is
    # moved between tables and enters a game in the Big Blind position they
    # are dealt in immediately"
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000, 5: 3000}, seats=6, button=1,
              levels=level(25, 50))
    do(t, "hand")
    fold_round(t)
    st = do(t, "sit", seat=4, stack=2500)
    assert st["waiting"] == [4]
    st = do(t, "hand")
    assert st["bb_seat"] == 4 and 4 in st["in_hand"] and st["waiting"] == []
    assert posts(st) == [(3, 25, "sb"), (4, 50, "bb")]


def _newcomer_at(profile, seat_from_pos):
    # seats 1,2,3,4,5: hand 1 button 1, SB 2, BB 3.  Next hand: button 2,
    # SB 3, BB 4.  A player leaves and a newcomer takes that seat.
    t = _first_hand(profile)
    do(t, "leave", seat=seat_from_pos)
    do(t, "sit", seat=seat_from_pos, stack=3000)
    return t, do(t, "hand")


def test_lppl_newcomer_on_button_or_small_blind_waits():
    # LPPL: "they are dealt in immediately unless they sit down in the Small
    # Blind or Button (dealer) positions when they must wait until the button
    # passes them by"
    t, st = _newcomer_at("lppl", 2)         # the next button seat
    assert st["button"] == 2 and st["waiting"] == [2] and 2 not in st["in_hand"]
    fold_round(t)
    st = do(t, "hand")                      # button 3: it has passed seat 2
    assert st["waiting"] == [] and 2 in st["in_hand"]
    t, st = _newcomer_at("lppl", 3)         # the next small blind position
    assert st["waiting"] == [3] and st["sb_seat"] is None
    assert posts(st) == [(4, 50, "bb")]


def test_wph_newcomer_on_button_dealt_in_small_blind_waits():
    # WPH: "Players added to a table at the small blind position must wait
    # until the button passes their position"; TDA 7 otherwise: "can get any
    # seat including ... the button and be dealt in, except between the SB
    # and button".  us_free is silent: TDA 7 as written (the SB may play).
    t, st = _newcomer_at("wph", 2)
    assert st["button"] == 2 and 2 in st["in_hand"]
    t, st = _newcomer_at("wph", 3)
    assert st["waiting"] == [3] and st["sb_seat"] is None
    t, st = _newcomer_at("us_free", 3)
    assert st["sb_seat"] == 3 and (3, 25, "sb") in posts(st)


def test_newcomer_between_button_and_small_blind_waits_everywhere():
    # seats 1,2,4,5,6 of 6: hand 1 button 1, SB 2, BB 4.  Next hand: button 2,
    # SB 4, BB 5: seat 3 lies between the button and the small blind.
    for profile in ("lppl", "wph", "us_free"):
        t = table(profile, {1: 3000, 2: 3000, 4: 3000, 5: 3000, 6: 3000}, seats=6, button=1,
                  levels=level(25, 50))
        do(t, "hand")
        fold_round(t)
        do(t, "sit", seat=3, stack=3000)
        st = do(t, "hand")
        assert (st["button"], st["sb_seat"], st["bb_seat"]) == (2, 4, 5)
        assert st["waiting"] == [3], profile
        fold_round(t)
        st = do(t, "hand")
        assert 3 in st["in_hand"], profile


def test_absent_button_previous_dealer_deals():
    # LPPL: "If absent during a time when they should be dealing, then the
    # previous dealer will deal for them"
    t = _first_hand()
    do(t, "away", seat=2)
    st = do(t, "hand")
    assert st["button"] == 2 and st["dealer"] == 1


def test_lppl_same_hand_busts_with_equal_chips_better_hand_finishes_higher():
    # LPPL: "If 'chips' at the beginning of the hand were equal, the player
    # who has the best hand (including the community cards) will be awarded
    # the higher finishing position."  US 14 / WPH: equal chips -> the TD.
    for profile, busted, ties in (("lppl", [4, 3], []), ("us_free", [3, 4], [[3, 4]])):
        t = table(profile, {1: 3000, 2: 3000, 3: 200, 4: 200}, button=1, levels=level(25, 50))
        do(t, "hand")                 # SB 2, BB 3, seat 4 first
        do(t, "allin")                # 4
        do(t, "call")                 # 1
        do(t, "fold")                 # 2
        st = do(t, "allin")           # 3
        assert st["street"] == "showdown"
        st = do(t, "showdown", ranking=[[1], [3], [4]])
        assert st["busted"] == busted and st["bust_ties"] == ties, profile
