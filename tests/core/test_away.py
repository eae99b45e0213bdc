"""Blinds and actions for players away from their seats, per profile."""

from tc_util import do, fold_round, level, posts, refused, table

FOUR = {1: 3000, 2: 3000, 3: 3000, 4: 3000}


def _hands(t, n):
    """Play *n* hands in which everyone folds to the big blind; return the
    posts of each hand."""
    out = []
    for _ in range(n):
        st = do(t, "hand")
        out.append(posts(st))
        fold_round(t)
    return out


def test_lppl_away_two_rounds_then_big_blind_every_hand():
    # LPPL: "the dealer will on their behalf post their SB and BB on the next
    # TWO occasions that both their SB and BB are due (ie two rounds of the
    # table), thereafter a BB will be posted every hand"
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "away", seat=3)
    p = _hands(t, 10)
    # button 4: SB 1, BB 2 | SB 2, BB 3 | SB 3, BB 4 | ... four hands a round
    assert p[0] == [(1, 25, "sb"), (2, 50, "bb")]
    assert p[1] == [(2, 25, "sb"), (3, 50, "bb")]       # first BB for seat 3
    assert p[2] == [(3, 25, "sb"), (4, 50, "bb")]       # first SB
    assert p[3] == [(1, 50, "bb"), (4, 25, "sb")]
    assert p[5] == [(2, 25, "sb"), (3, 50, "bb")]       # second BB
    assert p[6] == [(3, 25, "sb"), (4, 50, "bb")]       # second SB: two rounds done
    assert p[7] == [(1, 50, "bb"), (3, 50, "dead_bb"), (4, 25, "sb")]   # the "3rd BB"
    assert p[8] == [(1, 25, "sb"), (2, 50, "bb"), (3, 50, "dead_bb")]
    assert p[9] == [(2, 25, "sb"), (3, 50, "bb")]       # its own BB is live


def test_lppl_every_hand_big_blind_in_small_blind_seat_is_part_live():
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "away", seat=3)
    _hands(t, 10)
    st = do(t, "hand")            # hand 11: SB 3, BB 4
    assert posts(st) == [(3, 25, "dead"), (3, 25, "sb"), (4, 50, "bb")]
    assert st["bets"]["3"] == 25 and st["pot"] == 100


def test_lppl_allowance_is_used_once_at_the_every_hand_stage():
    # "This process is only allowed once per player - if a player leaves their
    # seat for a subsequent period AFTER they have PREVIOUSLY reached the
    # 'blind posted every hand stage', their SB and BB will be posted when
    # next due then every hand immediately thereafter a BB will be posted"
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "away", seat=3)
    _hands(t, 8)                  # reached the every-hand stage at hand 8
    do(t, "back", seat=3)
    _hands(t, 1)                  # hand 9
    do(t, "away", seat=3)
    p = _hands(t, 5)              # hands 10-14
    assert p[0] == [(2, 25, "sb"), (3, 50, "bb")]       # BB when due
    assert p[1] == [(3, 25, "sb"), (4, 50, "bb")]       # SB when due
    assert p[2] == [(1, 50, "bb"), (3, 50, "dead_bb"), (4, 25, "sb")]   # then every hand


def test_lppl_short_absence_does_not_use_the_allowance():
    # "If a player has previously left the table but their blinds did NOT
    # reach the '3rd BB' stage then that does NOT count as their 1st departure"
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "away", seat=3)
    _hands(t, 7)                  # two full rounds of blinds, no every-hand BB yet
    do(t, "back", seat=3)
    _hands(t, 1)
    do(t, "away", seat=3)         # hand 9 onwards: a fresh two-round allowance
    p = _hands(t, 6)
    assert all(x[2] != "dead_bb" for hand in p for x in hand)


def test_lppl_away_player_is_dealt_in_checks_and_folds():
    # LPPL: "If the vacant seat is required to make a call to stay in the
    # hand, their hand is folded. However if the vacant seat has a check
    # option ... a check will be the automatic action"
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "away", seat=2)          # the big blind
    st = do(t, "hand")
    assert 2 in st["in_hand"] and st["action"] == 3
    do(t, "call")                  # 3
    do(t, "call")                  # 4
    st = do(t, "call")             # 1 completes; BB away: checks its option
    assert st["street"] == "flop" and 2 in st["in_hand"]
    assert st["action"] == 1       # first after the button (4)
    st = do(t, "check")            # 1 checks; away seat 2 checks; seat 3 to act
    assert st["action"] == 3 and 2 in st["in_hand"]
    do(t, "bet", to=100)
    do(t, "fold")                  # 4
    st = do(t, "call")             # 1 calls; seat 2 faces a bet: folded
    assert st["street"] == "turn" and st["in_hand"] == [1, 3]


def test_wph_away_hand_is_dead_at_the_deal_blinds_posted():
    # TDA 26: "To have a live hand, players must be in reach of their chair
    # when the last card is dealt ... If not, their cards are mucked and their
    # posted blinds and antes forfeit to the pot."
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50, ante=5))
    do(t, "away", seat=2)
    st = do(t, "hand")
    assert 2 not in st["in_hand"] and (2, 50, "bb") in posts(st)
    assert (2, 5, "ante") in posts(st)
    assert st["action"] == 3 and st["to_call"] == 50
    do(t, "fold")
    do(t, "fold")                  # 4
    st = t.state()
    # seat 1 (SB) alone with live cards: wins the blinds and antes
    assert st["street"] is None and st["winners"] == {"1": 20 + 25 + 50}


def test_us_free_away_hand_mucked_when_action_reaches_it():
    # US 8: "if the player is not at the table when it is their turn to act,
    # their hand will be mucked by the dealer"
    t = table("us_free", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "away", seat=2)          # BB
    st = do(t, "hand")
    assert 2 in st["in_hand"] and (2, 50, "bb") in posts(st)
    do(t, "call")                  # 3
    do(t, "call")                  # 4
    st = do(t, "call")             # 1: seat 2's option is mucked, not checked
    assert st["street"] == "flop" and 2 not in st["in_hand"]


def test_away_during_own_turn_acts_at_once():
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    st = do(t, "hand")
    assert st["action"] == 3
    st = do(t, "away", seat=3)     # facing the BB: folded
    assert st["action"] == 4 and 3 not in st["in_hand"] and st["away"] == [3]


def _blinds_before_every_hand(t, seat, hands):
    """How many blinds *seat* posted in turn before its first every-hand big blind."""
    n = 0
    for p in _hands(t, hands):
        mine = [x for x in p if x[0] == seat]
        if [x for x in mine if x[2] in ("dead_bb", "dead")]:
            return n
        n += len([x for x in mine if x[2] in ("sb", "bb")])
    return None


def test_lppl_allowance_goes_with_the_player_to_another_table():
    # LPPL ¶72 "This process is only allowed once per player": the record is the player's,
    # not the seat's.  Table A: seat 3 reaches the every-hand stage, then is moved.
    a = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(a, "away", seat=3)
    _hands(a, 8)
    assert a.state()["away_used"] == [3]
    do(a, "back", seat=3)
    st = do(a, "leave", seat=3)
    assert st["away_used"] == []  # the seat is empty: the host carries it (receive away_used)
    # table B: the player sits down with the allowance used, then leaves their seat
    b = table("lppl", dict(FOUR), button=4, seats=5, levels=level(25, 50))
    assert refused(b, "sit", seat=5, stack=3000, away_used="yes")
    st = do(b, "sit", seat=5, stack=3000, away_used=True)
    assert st["away_used"] == [5]
    do(b, "away", seat=5)
    assert _blinds_before_every_hand(b, 5, 12) == 2  # one SB and one BB, then every hand
    # a player arriving without it gets the two rounds (four blinds)
    c = table("lppl", dict(FOUR), button=4, seats=5, levels=level(25, 50))
    do(c, "sit", seat=5, stack=3000)
    do(c, "away", seat=5)
    assert _blinds_before_every_hand(c, 5, 16) == 4


def test_lppl_td_on_td_business_is_not_folded_the_table_waits():
    # LPPL ¶6 "a TD's hand cannot be folded if the action is with him but he is away from
    # his seat on TD business - for example sorting chips or helping with a dispute - the
    # other players on his table must wait until his return unless he clearly states he is
    # folding."
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    st = do(t, "td_business", seat=3)
    assert st["td_away"] == [3] and st["away"] == [] and st["last"] == (
        "Seat 3 is away on TD business: the table waits")
    assert refused(t, "td_business", seat=3) == "Seat 3 is already away on TD business"
    st = do(t, "hand")                 # SB 1, BB 2, seat 3 to act facing 50
    assert st["action"] == 3 and st["to_call"] == 50 and 3 in st["in_hand"]
    assert refused(t, "clock") == "Seat 3 is away on TD business: the table waits"
    st = do(t, "tick", s=600)
    assert st["action"] == 3 and 3 in st["in_hand"]  # still waiting
    st = do(t, "back", seat=3)
    assert st["td_away"] == [] and st["action"] == 3
    st = do(t, "call")
    assert st["action"] == 4
    # he may say he folds: the dealer enters it; and "away" turns it into a normal absence
    do(t, "td_business", seat=4)
    st = do(t, "fold")
    assert 4 not in st["in_hand"] and st["td_away"] == [4]
    st = do(t, "away", seat=4)
    assert st["td_away"] == [] and st["away"] == [4]


def test_an_away_player_on_td_business_is_no_longer_away():
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "away", seat=3)
    st = do(t, "td_business", seat=3)
    assert st["away"] == [] and st["td_away"] == [3]
    st = do(t, "hand")
    assert st["action"] == 3           # not folded by the table
    assert refused(t, "back", seat=2) == "Seat 2 is not away"
