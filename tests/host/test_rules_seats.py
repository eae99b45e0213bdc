"""tdhost.rules: seat order through tableclock.button, one house-rules record per profile,
and the finishing order of players out together (docs/balancing.md §2, docs/host.md §6)."""

from tableclock import profiles
from tdhost.rules import finishing, house, seat_order


def test_the_late_zone_wraps_past_seat_1():
    # last hand: button 6, SB 7, BB 2 at 8 seats -> next button 7, next SB position 2
    table = {"seats": {2: "Ann", 4: "Bo", 6: "Cy", 7: "Di"}, "button": 6, "sb": 7, "bb": 2}
    assert seat_order.late_zone(table, 8) == [7, 8, 1, 2]


def test_a_dead_sb_right_before_the_bb_leaves_the_bb_seat_alone_in_the_zone():
    table = {"seats": {4: "Ann", 6: "Bo"}, "button": 3, "sb": None, "bb": 4}
    assert seat_order.late_zone(table, 8) == [4]


def test_the_box_positions_stand_when_they_make_sense():
    assert seat_order.last_positions((3, None, 5), [1, 3, 5], 1, 6) == (3, None, 5)
    assert seat_order.last_positions((3, 4, 5), [1, 3, 4, 5], 1, 6) == (3, 4, 5)


def test_positions_that_cannot_be_fall_back_to_the_draws_first_hand():
    # BB on the button, SB outside button..BB, a seat out of range, a bool: the draw's button
    # 4 with players 2, 4, 6 deals its first hand button 4, SB 6, BB 2
    for reported in ((4, None, 4), (3, 6, 5), (3, None, 7), (True, None, 2), None):
        assert seat_order.last_positions(reported, [2, 4, 6], 4, 6) == (4, 6, 2), reported
    # no drawn button: the lowest occupied seat
    assert seat_order.last_positions(None, [6, 2, 4], None, 6) == (2, 4, 6)


def test_a_table_of_one_player_has_the_bb_after_them():
    assert seat_order.last_positions(None, [6], None, 6) == (6, None, 1)
    assert seat_order.last_positions(None, [], None, 6) == (1, None, 2)


def test_one_record_holds_a_profiles_host_rules():
    assert sorted(house.HOUSE) == sorted(profiles.PROFILES)
    box, lppl = house.get("lppl")
    assert box["wait_zone"] == "button_sb"
    # LPPL ¶11 3000 chips, ¶13 five minutes' grace; balancing within one player
    assert lppl["field"]["starting_stack"] == 3000 and lppl["late"]["grace_minutes"] == 5
    assert lppl["within"] == 1 and lppl["join_seating"] == "worst"
    _, wph = house.get("wph")
    assert wph["first_button"] == "seat_1" and house.final_size(wph, 10) == 10


def test_a_time_limited_end_orders_by_chips_and_equal_chips_tie():
    # LPPL ¶64 "the player with the most chips wins, player with 2nd most chips is 2nd"
    assert finishing.end_order({"Ann": 5000, "Bo": 3000, "Cy": 5000}) == [["Ann", "Cy"], ["Bo"]]


def test_a_boxs_showdown_becomes_tiers_best_first():
    names = {1: "Ann", 2: "Bo", 3: "Cy"}
    # the box lists its busts worst finisher first; seats 1 and 2 it could not order
    assert finishing.showdown_tiers(names, [1, 2, 3], [[1, 2]]) == [["Cy"], ["Bo", "Ann"]]
    assert finishing.showdown_tiers(names, [1, 2, 3], []) == [["Cy"], ["Bo"], ["Ann"]]
