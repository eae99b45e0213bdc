"""Side pots, split pots and odd chips."""

from tableclock.pots import side_pots, split
from tc_util import do, level, table


def test_three_way_allin_makes_a_main_and_a_side_pot():
    t = table("wph", {1: 1000, 2: 400, 3: 1000}, button=1, levels=level(25, 50))
    do(t, "hand")                 # SB 2, BB 3, seat 1 first
    do(t, "raise", to=1000)       # seat 1 all-in
    do(t, "allin")                # seat 2: 400
    st = do(t, "call")            # seat 3 calls 1000
    assert st["street"] == "showdown"
    assert st["pots"] == [{"amount": 1200, "seats": [1, 2, 3]}, {"amount": 1200, "seats": [1, 3]}]
    # seat 2 has the best hand: wins the main pot; 1 and 3 split the side pot
    st = do(t, "showdown", ranking=[[2], [1, 3]])
    assert st["winners"] == {"2": 1200, "1": 600, "3": 600}
    assert st["stacks"] == {"1": 600, "2": 1200, "3": 600}


def test_odd_chip_goes_left_of_the_button_in_smallest_chip_units():
    # LPPL: odd chips go "to the player(s) to the left of the dealer, moving in
    # a clockwise direction"; TDA 17: "broken into the smallest denomination"
    assert split(150, [1, 3], 3, 4, 25) == {1: 75, 3: 75}
    assert split(175, [1, 3], 3, 4, 25) == {1: 100, 3: 75}
    assert split(175, [1, 3], 1, 4, 25) == {3: 100, 1: 75}
    assert split(100, [1, 2, 3], 2, 4, 25) == {3: 50, 1: 25, 2: 25}
    assert split(101, [2, 4], 1, 4, 1) == {2: 51, 4: 50}


def test_split_pot_in_play_uses_the_table_chip():
    t = table("lppl", {1: 1000, 2: 1000, 3: 1000}, button=1, levels=level(25, 50), chip=25)
    do(t, "hand")                 # SB 2 posts 25, BB 3 50
    do(t, "call")                 # 1
    do(t, "fold")                 # 2 folds: 25 dead
    st = do(t, "check")           # 3
    for _ in range(3):
        do(t, "check")
        st = do(t, "check")
    assert st["street"] == "showdown" and st["pot"] == 125
    st = do(t, "showdown", ranking=[[1, 3]])
    # 125 = 5 chips of 25: 2 each and the odd one to seat 3, first left of button 1
    assert st["winners"] == {"3": 75, "1": 50}


def test_side_pots_with_folded_money():
    pots = side_pots({1: 300, 2: 100, 3: 300, 4: 200}, [1, 2, 3])
    assert pots == [(400, [1, 2, 3]), (500, [1, 3])]


def test_uncalled_bet_is_returned():
    t = table("wph", {1: 1000, 2: 300, 3: 1000}, button=1, levels=level(25, 50))
    do(t, "hand")
    do(t, "raise", to=800)        # seat 1
    do(t, "allin")                # seat 2: 300
    st = do(t, "fold")            # seat 3
    assert st["street"] == "showdown"
    assert st["pot"] == 300 + 300 + 50 and st["stacks"]["1"] == 700
