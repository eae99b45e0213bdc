"""Floor procedures: misdeal, restart at the right level, undo, warnings,
penalties, killed hands, disqualification, entering late, chips the TD removes."""

from tc_util import LEVELS, do, fold_round, frozen, level, posts, refused, table

FOUR = {1: 3000, 2: 3000, 3: 3000, 4: 3000}


def _without(st, *keys):
    return [kv for kv in frozen(st) if kv[0] not in keys]


def test_misdeal_before_substantial_action_is_an_exact_redeal():
    # TDA 29-C "the re-deal is an exact re-play"; TDA 30 "Substantial Action
    # is either A) any 2 actions in turn, at least one of which puts chips in
    # the pot or B) any combination of 3 actions in turn. Posted blinds do not
    # count"
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50, ante=5))
    dealt = do(t, "hand")
    assert dealt["substantial_action"] is False
    st = do(t, "fold")                     # seat 3: one action
    st = do(t, "check") if st["to_call"] == 0 else do(t, "fold")   # seat 4 folds: two, no chips
    assert st["substantial_action"] is False
    st = do(t, "misdeal")
    assert _without(st, "last") == _without(dealt, "last")
    assert st["hand"] == 1 and st["stacks"] == dealt["stacks"]
    do(t, "call")                          # seat 3 calls: chips in
    st = do(t, "fold")                     # seat 4: two actions, one with chips
    assert st["substantial_action"] is True
    assert "Substantial action" in refused(t, "misdeal")


def test_three_actions_without_chips_are_substantial():
    t = table("wph", {1: 3000, 2: 3000, 3: 3000, 4: 3000, 5: 3000}, button=5,
              levels=level(25, 50))
    do(t, "hand")                          # SB 1, BB 2; 3, 4, 5 to act
    do(t, "fold")
    st = do(t, "fold")
    assert st["substantial_action"] is False
    st = do(t, "fold")
    assert st["substantial_action"] is True


def test_misdeal_does_not_count_away_blinds_twice():
    # LPPL away seat: a misdealt hand's blinds must not count toward its two
    # rounds.  Seat 3 away; hand 2 (its BB) is misdealt twice, then played.
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "away", seat=3)
    do(t, "hand")
    fold_round(t)
    do(t, "hand")                          # seat 3's big blind
    do(t, "misdeal")
    st = do(t, "misdeal")
    assert posts(st) == [(2, 25, "sb"), (3, 50, "bb")]
    assert st["stacks"]["3"] == 2950
    fold_round(t)
    p = []
    for _ in range(6):                      # hands 3-8
        p.append(posts(do(t, "hand")))
        fold_round(t)
    assert p[4] == [(3, 25, "sb"), (4, 50, "bb")]        # its second SB (hand 7)
    assert (3, 50, "dead_bb") in p[5]                    # the every-hand BB at hand 8


def test_hand_at_the_wrong_level_restarts_before_substantial_action():
    # TDA 20: "If a hand starts at the prior level by mistake, after
    # substantial action occurs the hand will continue at the prior level."
    t = table("wph", dict(FOUR), button=4, levels=LEVELS)
    do(t, "tick", s=1199)
    st = do(t, "hand")
    assert st["hand_level"]["bb"] == 50
    assert "already at level 1" in refused(t, "relevel")
    do(t, "tick", s=2)                     # level 2 (50/100) has started
    st = do(t, "relevel")
    assert st["hand_level"]["bb"] == 100 and st["to_call"] == 100 and st["hand"] == 1
    assert posts(st) == [(1, 50, "sb"), (2, 100, "bb")]
    t = table("wph", dict(FOUR), button=4, levels=LEVELS)
    do(t, "tick", s=1199)
    do(t, "hand")
    do(t, "call")
    do(t, "call")
    do(t, "tick", s=2)
    assert "Substantial action" in refused(t, "relevel")


def test_undo_the_last_action_only_and_not_across_hands():
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "hand")
    before = do(t, "call")                 # seat 3 calls
    st = do(t, "raise", to=200)            # seat 4: a misclick
    assert st["action"] == 1
    st = do(t, "undo")
    assert _without(st, "last", "undone") == _without(before, "last", "undone")
    assert st["undone"] == ["Seat 4 raises to 200"]
    assert "Nothing to undo" in refused(t, "undo")
    st = do(t, "call")
    assert st["action"] == 1 and st["pot"] == 175
    fold_round(t)
    assert "No hand is running" in refused(t, "undo")


def test_undo_then_redo_gives_the_same_state():
    t = table("us_free", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "hand")
    do(t, "call")
    a = do(t, "raise", to=200)
    do(t, "undo")
    b = do(t, "raise", to=200)
    assert _without(a, "undone") == _without(b, "undone")


def test_warnings_and_missed_round_penalty():
    # TDA 64-A: one hand per player at the table (him included) per round;
    # 64-C: dealt in, blinds posted, hand killed after the deal; TDA 61: the
    # penalty starts at the end of the hand.
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50))
    st = do(t, "warn", seat=2)
    assert st["warnings"] == {"2": 1}
    do(t, "hand")                          # SB 1, BB 2, seat 3 first
    st = do(t, "penalty", seat=2, rounds=1)
    assert st["penalties"] == {"2": 4} and 2 in st["in_hand"]   # this hand goes on
    fold_round(t)
    missed = 0
    for _ in range(5):
        st = do(t, "hand")
        if 2 not in st["in_hand"]:
            missed += 1
            assert st["penalties"].get("2", 0) == 5 - missed  # this hand included
        fold_round(t)
    assert missed == 4 and t.state()["penalties"] == {}
    assert refused(t, "penalty", seat=2) and refused(t, "penalty", seat=2, hands=1, rounds=1)


def test_penalty_seat_posts_its_blind_and_is_killed_at_the_deal():
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "penalty", seat=2, hands=1)
    st = do(t, "hand")                     # seat 2 is the big blind
    assert (2, 50, "bb") in posts(st) and 2 not in st["in_hand"]
    assert st["action"] == 3 and st["to_call"] == 50


def test_lppl_slow_play_warning_then_fold_and_phone_kill():
    # LPPL: "Deliberate or Excessive slow play ... 1st time a warning,
    # thereafter automatic fold"; "if you use a mobile phone ... your hand is
    # to folded immediately by the dealer"
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "hand")                          # seat 3 to act
    st = do(t, "slow", seat=3)
    assert st["warnings"] == {"3": 1} and 3 in st["in_hand"]
    st = do(t, "slow", seat=3)
    assert 3 not in st["in_hand"] and st["action"] == 4
    st = do(t, "kill", seat=1)             # phone: out of turn
    assert 1 not in st["in_hand"] and st["action"] == 4
    t2 = table("wph", dict(FOUR), button=4, levels=level(25, 50))
    do(t2, "hand")
    do(t2, "slow", seat=3)
    st = do(t2, "slow", seat=3)            # elsewhere: warnings for the TD
    assert st["warnings"] == {"3": 2} and 3 in st["in_hand"]


def test_disqualification_removes_the_chips_from_play():
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "hand")
    do(t, "call")                          # seat 3 puts 50 in
    st = do(t, "disqualify", seat=3)
    assert "3" not in st["stacks"] and 3 not in st["in_hand"] and st["busted"] == [3]
    assert st["pot"] == 125                # its 50 stays in the pot
    assert sum(st["stacks"].values()) + st["pot"] == 12000 - 2950


def test_lppl_latecomer_posts_a_dead_big_blind_even_in_a_blind():
    # LPPL: "The player however must immediately post a dead big blind to
    # 'enter' the game, even if he is seated in a blind position."
    t = table("lppl", {1: 3000, 2: 3000, 4: 3000}, seats=4, button=4, levels=level(25, 50))
    do(t, "hand")                          # SB 1, BB 2
    fold_round(t)
    st = do(t, "enter", seat=3, stack=3000, dead_bb=True)
    assert st["waiting"] == []
    st = do(t, "hand")                     # button 1, SB 2, BB 3: it posts both
    assert posts(st) == [(2, 25, "sb"), (3, 50, "bb"), (3, 50, "dead_bb")]
    assert st["stacks"]["3"] == 2900 and st["to_call"] == 50


def test_registered_player_not_seated_has_blinds_posted_until_arriving():
    # LPPL: "the table will post their blinds when due until they take their
    # seat"; they arrive and the host sends the stack after the deduction.
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50), absent=[2])
    st = do(t, "hand")
    assert st["late"] == [2] and st["away"] == [2] and (2, 50, "bb") in posts(st)
    fold_round(t)
    for _ in range(8):                     # never the every-hand stage
        assert all(p[2] != "dead_bb" for p in posts(do(t, "hand")))
        fold_round(t)
    st = do(t, "enter", seat=2, stack=2500)
    assert st["late"] == [] and st["away"] == [] and st["stacks"]["2"] == 2500
    assert refused(t, "enter", seat=2, stack=2500)


def test_colour_up_preview_per_seat():
    lv = [{"sb": 25 * i, "bb": 50 * i, "ante": 0, "minutes": 20} for i in range(1, 8)]
    t = table("lppl", {1: 3025, 2: 3050, 3: 2975}, levels=lv, chip=25)
    st = do(t, "tick", s=5 * 1200)
    assert st["colour_changes"] == {"1": 3000, "2": 3100, "3": 3000}


def test_warnings_given_in_a_misdealt_hand_stay():
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "hand")
    do(t, "warn", seat=1)
    do(t, "penalty", seat=2, hands=1)
    st = do(t, "misdeal")
    assert st["warnings"] == {"1": 1} and st["penalties"] == {"2": 1}


def test_relevel_refused_on_a_break():
    lv = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 1}, {"break": 5},
          {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}]
    t = table("wph", dict(FOUR), button=4, levels=lv)
    do(t, "hand")
    do(t, "tick", s=61)
    assert "break" in refused(t, "relevel")


def test_fouled_deck_returns_all_bets_even_after_substantial_action():
    # TDA 29-E: "If a fouled deck is discovered, regardless of SA, play will
    # stop and all bets will be returned."
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50))
    dealt = do(t, "hand")
    do(t, "call")
    do(t, "raise", to=200)
    st = do(t, "call")
    assert st["substantial_action"] is True
    st = do(t, "foul")
    assert st["stacks"] == dealt["stacks"] and st["action"] == 3 and st["pot"] == 75


def test_player_on_penalty_does_not_deal():
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "hand")
    fold_round(t)
    do(t, "penalty", seat=1, hands=1)
    st = do(t, "hand")                     # button 1 is on penalty: seat 4 dealt last
    assert st["button"] == 1 and st["dealer"] == 4 and 1 not in st["in_hand"]


def test_disqualified_during_a_hand_stays_in_the_finishing_list():
    t = table("wph", {1: 3000, 2: 3000, 3: 3000, 4: 100}, button=4, levels=level(25, 50))
    do(t, "hand")                          # SB 1, BB 2, seat 3 first
    do(t, "disqualify", seat=3)
    do(t, "allin")                         # seat 4: 100
    do(t, "call")                          # 1
    st = do(t, "call")                     # 2: showdown? no, 1 and 2 have chips
    while st["street"] not in ("showdown", None):
        st = do(t, "check")
    st = do(t, "showdown", ranking=[[1], [2], [4]])
    assert st["busted"] == [3, 4]          # out first, then the bust of the hand


def test_lppl_killed_hand_busts_below_a_showdown_loser():
    # equal chips at the start; seat 4's hand was killed (phone), seat 3 lost
    # at the showdown: seat 3 "has the best hand" of the two
    t = table("lppl", {1: 3000, 2: 3000, 3: 100, 4: 100}, button=1, levels=level(25, 50))
    do(t, "hand")                          # SB 2, BB 3 (posts 50 of 100), seat 4 first
    do(t, "allin")                         # seat 4: 100
    do(t, "call")                          # seat 1
    do(t, "fold")                          # seat 2
    st = do(t, "allin")                    # seat 3: 100 in
    assert st["street"] == "showdown"
    st = do(t, "kill", seat=4)
    st = do(t, "showdown", ranking=[[1], [3]])
    assert st["busted"] == [4, 3] and st["bust_ties"] == []


def test_lppl_slow_play_fold_needs_an_earlier_slow_play_warning():
    t = table("lppl", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "hand")
    do(t, "warn", seat=3)                  # warned for something else
    st = do(t, "slow", seat=3)             # first slow play: a warning only
    assert 3 in st["in_hand"] and st["warnings"] == {"3": 2}


def test_a_player_seated_from_another_table_keeps_the_slow_play_warning_and_penalty():
    # LPPL ¶51 "1st time a warning, thereafter automatic fold": a player warned for slow
    # play at their old table is not warned again "the 1st time" at the new one; their
    # TDA 64 penalty hands still to miss go on being missed there
    t = table("lppl", dict(FOUR), button=4, seats=6, levels=level(25, 50))
    st = do(t, "sit", seat=5, stack=3000, warnings=1, slow_play=1)
    assert st["warnings"] == {"5": 1} and st["slow_play"] == {"5": 1}
    st = do(t, "sit", seat=6, stack=3000, penalties=2)
    assert st["penalties"] == {"6": 2}
    assert refused(t, "sit", seat=2, stack=3000) == "Seat 2 is taken"
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000}, button=3, seats=4, levels=level(25, 50))
    assert refused(t, "sit", seat=4, stack=3000, slow_play="1") == (
        '"slow_play" must be a whole number from 0 to 10000')
    do(t, "sit", seat=4, stack=3000, slow_play=1)
    do(t, "hand")
    st = do(t, "slow", seat=4)             # their first slow play here: folded
    assert 4 not in st["in_hand"] and st["last"] == "Seat 4: slow play again, hand folded"
    # a re-draw's setup names the same record per seat (docs/replay.md ``history``)
    from tableclock.fields import SetupError
    try:
        table("lppl", {1: 3000, 2: 3000}, history={"2": {"penalties": -1}})
        raise AssertionError("a negative penalty was accepted")
    except SetupError as e:
        assert str(e) == 'history: seat 2: "penalties" must be a whole number from 0 to 10000'


def test_wph_small_blind_newcomer_waits_until_the_button_has_passed():
    # WPH: "Players added to a table at the small blind position must wait
    # until the button passes their position" -- not dealt in on the button
    t = table("wph", {1: 3000, 2: 3000, 3: 3000, 4: 3000, 5: 3000}, button=1,
              levels=level(25, 50))
    do(t, "hand")                          # button 1, SB 2, BB 3
    fold_round(t)
    do(t, "leave", seat=3)
    do(t, "sit", seat=3, stack=3000)       # the next small blind position
    st = do(t, "hand")                     # button 2, SB 3 (dead), BB 4
    assert st["waiting"] == [3]
    fold_round(t)
    st = do(t, "hand")                     # the button is on seat 3 now
    assert st["button"] == 3 and st["waiting"] == [3] and 3 not in st["in_hand"]
    fold_round(t)
    st = do(t, "hand")                     # it has passed
    assert st["waiting"] == [] and 3 in st["in_hand"]


def test_undo_gives_back_the_shot_clock_the_action_stopped():
    t = table("wph", dict(FOUR), button=4, levels=level(25, 50))
    do(t, "hand")
    do(t, "clock")                         # on seat 3
    do(t, "tick", s=20)
    st = do(t, "call")
    assert st["shot_clock"] is None and st["action"] == 4
    st = do(t, "undo")
    assert st["action"] == 3 and st["shot_clock"] == 40 and st["pot"] == 75


def test_undo_replays_the_tables_own_moves_for_an_absent_player():
    # LPPL: seat 3 is away; after seat 4's call the table folds seat 3's hand
    # facing a bet; undoing a later action keeps that fold
    t = table("lppl", {1: 3000, 2: 3000, 3: 3000, 4: 3000, 5: 3000}, button=5,
              levels=level(25, 50))
    do(t, "away", seat=3)
    st = do(t, "hand")                     # SB 1, BB 2: seat 3 is folded at once
    assert st["action"] == 4 and 3 not in st["in_hand"]
    before = do(t, "call")                 # 4
    do(t, "raise", to=300)                 # 5
    st = do(t, "undo")
    assert _without(st, "last", "undone") == _without(before, "last", "undone")


def test_lppl_td_removes_a_late_players_chips():
    # LPPL ¶14 "anyone not seated at the 'shuffle up and deal' call will have the
    # appropriate number of chips removed from their stack by the TD (500 during 1st
    # blind level) after 5 minutes ... a further 1000 chips will be removed by the TD"
    t = table("lppl", dict(FOUR), button=4, absent=[3])
    st = do(t, "hand")                     # SB 1, BB 2: seat 3 is dealt in while away
    assert (st["sb_seat"], st["bb_seat"]) == (1, 2) and 3 in t.hand.dealt
    assert refused(t, "deduct", seat=3, chips=500) == (
        "Seat 3 is in this hand: remove the chips after it")
    fold_round(t)                          # seat 3 folded by the table, posted nothing
    st = do(t, "deduct", seat=3, chips=500)
    assert st["stacks"]["3"] == 2500 and t.removed == 500
    assert st["last"] == "Seat 3: 500 chips removed from play"
    assert refused(t, "deduct", seat=3, chips=2500) == "Seat 3 has only 2500 chips: ask the TD"
    assert refused(t, "deduct", seat=3) == (
        'Deduct needs "chips": how many chips to remove, a positive whole number')
    assert refused(t, "deduct", seat=5, chips=500) == "There is no seat 5 at this 4-seat table"
    st = do(t, "deduct", seat=3, chips=1000)          # level 2 reached: 1000 more
    assert st["stacks"]["3"] == 1500 and t.removed == 1500
    assert sum(t.stacks.values()) + t.removed == 4 * 3000
