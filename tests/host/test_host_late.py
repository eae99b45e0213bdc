"""Late entry and standby players with the LPPL numbers, and the US/WPH windows.

LPPL ¶12 "Latecomers may join in the game anytime before the start of the 3rd Blind Level
but providing that there is at least 17 players remaining in the game BEFORE THE LATECOMER
JOINS OR if there were less than 17 players who actually signed-up and started the game on
time, the Latecomer may join if, at the point of joining, no-one has actually been knocked
out of the tournament ... those who join during the 1st Blind level will start with 2500
chips (deduction of 500 chips) and those who join during the 2nd Blind level will start
with 1500 chips (deduction of 1500 chips). If the game is "deepstack" then these penalties
are amended to 750 deduction (4250 start stack) for level 1, with a further 1500 deduction
for level 2 (2750 start stack)."
LPPL ¶13 within 5 minutes: no penalty, "must immediately post a dead big blind".
LPPL ¶14 not seated at "shuffle up and deal": 500 after 5 minutes, a further 1000 at level 2,
blinds posted; at a full start a standby player replaces an AWOL player at once.
LPPL ¶15 48 players, 8 standby; a standby player takes the seat of a player knocked out
before the start of level 3.
"""

import pytest
from hostutil import Night, players
from hypothesis import given, settings, strategies as st

from tdhost.league.refusal import ActionRefused


def test_lppl_stacks_by_time_2500_then_1500_and_grace_dead_big_blind():
    n = Night().field(20)
    p = n.late("L1", 5)  # exactly 5 minutes: still within the grace
    assert (p["stack"], p["dead_bb"]) == (3000, True)
    p = n.late("L2", 5.5)
    assert (p["stack"], p["dead_bb"], p["level"]) == (2500, False, 1)
    assert "2500 chips (3000 less 500)" in p["reasons"][-1]
    p = n.late("L3", 20)  # level 2 starts at 20:20 (20-minute levels)
    assert (p["stack"], p["level"]) == (1500, 2)
    assert "1500 chips (3000 less 1500)" in p["reasons"][-1]
    with pytest.raises(ActionRefused, match="level 3 has started: late entry closes at the start "
                                      "of level 3"):
        n.late("L4", 40)


def test_lppl_deepstack_4250_then_2750():
    n = Night("lppl_deepstack").field(20)
    assert n.late("D1", 2)["stack"] == 5000
    assert n.late("D2", 10)["stack"] == 4250
    assert n.late("D3", 39)["stack"] == 2750


def test_lppl_break_before_level_3_is_still_level_2():
    # a break after level 2: "anytime before the start of the 3rd Blind Level"
    levels = [{"sb": 25, "bb": 50, "minutes": 20}, {"sb": 50, "bb": 100, "minutes": 20},
              {"break": 10}, {"sb": 75, "bb": 150, "minutes": 20}]
    n = Night(levels=levels).field(20)
    p = n.late("B1", 45)
    assert (p["level"], p["stack"]) == (2, 1500)
    with pytest.raises(ActionRefused, match="level 3 has started"):
        n.late("B2", 50)


def test_lppl_17_players_must_remain_before_the_latecomer_joins():
    n = Night().field(20)
    n.bust("Ann", minutes=6)
    n.bust("Bob", minutes=7)
    n.bust("Cat", minutes=8)
    assert len(n.t.remaining()) == 17
    p = n.late("Late17", 9)
    assert p["reasons"][0] == "17 players remain (at least 17 are needed)"
    n.bust("Dan", minutes=10)
    n.bust("Eve", minutes=11)
    assert len(n.t.remaining()) == 16
    with pytest.raises(ActionRefused) as err:
        n.late("Late16", 12)
    assert str(err.value) == ("only 16 players remain: a latecomer needs at least 17 players "
                              "in the game before joining")


def test_lppl_fewer_than_17_started_latecomers_only_while_nobody_is_out():
    n = Night().field(15)
    p = n.late("A1", 3)
    assert p["reasons"][0] == "fewer than 17 players started (15) and nobody is out yet"
    assert n.late("A2", 12)["stack"] == 2500
    n.bust("Ann", minutes=13)
    with pytest.raises(ActionRefused) as err:
        n.late("A3", 14)
    assert str(err.value) == ("only 16 players remain and 1 has been knocked out: with fewer "
                              "than 17 starters (15) a latecomer may join only while nobody "
                              "is out")


def test_lppl_the_rule_example_17_started_all_still_in():
    # "eg if 17 players started and they are all still in the game when the Latecomer joins
    # then they can join"
    n = Night().field(17)
    assert n.late("Eg", 8)["stack"] == 2500


def test_lppl_absent_at_start_loses_500_after_5_minutes_and_1000_more_at_level_2():
    n = Night().field(20, absent=["Ann", "Bob", "Cat"], away=["Dan"])
    assert n.t.started_on_time == 17  # the AWOL players did not start on time
    p = n.arrive("Ann", 4)
    assert (p["deduction"], p["dead_bb"]) == (0, True)
    p = n.arrive("Bob", 6)
    assert (p["deduction"], p["dead_bb"]) == (500, False)
    p = n.arrive("Cat", 21)
    assert p["deduction"] == 1500
    assert "500 after 5 minutes, 1000 more at level 2" in p["reason"]
    p = n.arrive("Dan", 30)  # whereabouts known (bar, toilets): the exclusion applies
    assert p["deduction"] == 0
    with pytest.raises(ActionRefused, match="already seated"):
        n.arrive("Ann", 31)


def test_lppl_deepstack_absent_deductions_750_and_1500():
    n = Night("lppl_deepstack").field(20, absent=["Ann", "Bob"])
    assert n.arrive("Ann", 6)["deduction"] == 750
    assert n.arrive("Bob", 25)["deduction"] == 2250


def full_night(standby=2, **kw):
    n = Night()
    n.register(*players(48))
    for i in range(standby):
        msg = n.register("S%d" % (i + 1))[0]
        assert msg == "The tournament is full (48 players): S%d is standby player %d of 8." % (
            i + 1, i + 1)
    n.draw(3)
    n.start(**kw)
    return n


def test_lppl_cap_48_and_8_standby():
    n = Night()
    n.register(*players(48))
    n.register(*["S%d" % i for i in range(1, 9)])
    assert len(n.t.standby) == 8
    with pytest.raises(ActionRefused, match=r"the tournament is full: 48 entries of the 48 that "
                                      r"max_players allows and so is the standby list \(8"):
        n.register("S9")


def test_the_full_refusal_says_the_cap_counts_entries_not_players_in_play():
    # LPPL ¶15 "the maximum number of 48": 48 entries; two busts free no place for a
    # latecomer (a standby player takes the freed seat instead)
    n = full_night(standby=0)
    n.bust(n.t.seating()[1][1], minutes=2)
    n.bust(n.t.seating()[2][1], minutes=3)
    assert len(n.t.remaining()) == 46
    with pytest.raises(ActionRefused) as err:
        n.late("Walk", 4)
    assert str(err.value) == (
        "the tournament is full: 48 entries of the 48 that max_players allows (it counts "
        "every entry, players knocked out too: 46 in play): `tdhost standby Walk` puts the "
        "player on the standby list")


def test_lppl_standby_player_takes_the_seat_of_a_busted_player_in_order():
    n = full_night()
    with pytest.raises(ActionRefused, match="the tournament is full"):
        n.late("Walk", 3)
    with pytest.raises(ActionRefused, match="no seat is free for a standby player"):
        n.take("S1", 3)
    seat = n.t.get("P07").seat
    n.bust("P07", minutes=8)
    assert [(o["seat"], k) for o, k in n.t.offer_pairs()] == [(seat, "s1")]
    with pytest.raises(ActionRefused, match="offered to S1 first"):
        n.take("S2", 9)
    n.pass_("S1")  # not available IMMEDIATELY: the next standby player is offered it
    assert [k for _, k in n.t.offer_pairs()] == ["s2"]
    p = n.take("S2", 21)  # level 2: treated as a latecomer for chips
    assert (p["seat"], p["stack"]) == (seat, 1500)
    assert n.t.standby == ["s1"]
    assert n.t.get("S2").entry == "standby"


def test_lppl_standby_within_grace_and_directed_seat():
    n = full_night()
    freed = n.t.get("P01").seat
    n.bust("P01", minutes=2)
    n.bust("P02", minutes=2)
    other = n.t.get("P02").seat
    with pytest.raises(ActionRefused, match="table 9 is not in play"):
        n.take("S1", 3, seat=[9, 1])
    with pytest.raises(ActionRefused, match="is taken by"):
        n.take("S1", 3, seat=n.t.get("P03").seat)
    # "they will take the seat of that person, or any other seat as directed by the TD"
    p = n.take("S1", 3, seat=other)
    assert (p["stack"], p["dead_bb"], p["offer"]) == (3000, True, freed)
    assert [(o["seat"], k) for o, k in n.t.offer_pairs()] == [(freed, "s2")]


def test_lppl_no_standby_offer_for_a_knockout_at_level_3():
    n = full_night()
    n.bust("P01", minutes=41)
    assert n.t.offers == []


def test_lppl_absent_player_is_replaced_by_standby_at_a_full_start():
    n = full_night(absent=["P05", "P06"], away=["P07"])
    seat5 = n.t.get("S1").seat
    assert n.t.get("S1").state == "in" and n.t.get("S1").entry == "replacement"
    assert n.t.get("S2").state == "in"
    # "the player removed will take the position of the Standby player on the list"
    assert n.t.standby == ["p05", "p06"]
    assert n.t.get("P05").state == "standby" and seat5 is not None
    assert n.t.get("P07").absent == "away"  # whereabouts known: not replaced


def test_us_and_wph_late_window_from_the_file():
    for ex, until, stack in (("us_free", 4, 5000), ("wph", 5, 20000)):
        n = Night(ex).field(6)
        n.bust("Ann", minutes=1)
        p = n.late("Late", 10)  # no 17-player rule, no deduction
        assert p["stack"] == stack and not p["dead_bb"]
        n.level(until, 50)
        with pytest.raises(ActionRefused,
                           match="late entry closes at the start of level %d" % until):
            n.late("Later", 51)


def test_no_late_entry_without_a_window():
    n = Night("wph", late={"until_level": None}).field(6)
    with pytest.raises(ActionRefused, match="there is no late registration in this tournament"):
        n.late("Late", 1)


def test_register_refused_after_start_and_late_refused_before():
    n = Night().field(4, start=False)
    with pytest.raises(ActionRefused, match="has not started"):
        n.late("X", 0)
    n.start()
    with pytest.raises(ActionRefused, match="a latecomer joins with `tdhost late Y`"):
        n.register("Y")


@settings(max_examples=60, deadline=None)
@given(started=st.integers(8, 30), out=st.integers(0, 6), latecomers=st.integers(0, 3),
       minute=st.floats(0, 45, allow_nan=False), deep=st.booleans())
def test_lppl_late_decision_matches_the_sentence(started, out, latecomers, minute, deep):
    n = Night("lppl_deepstack" if deep else "lppl").field(started)
    joined = 0
    for i in range(latecomers):  # early latecomers, before any knockout
        try:
            n.late("E%d" % i, 1)
            joined += 1
        except ActionRefused:
            pass
    for name in players(started)[:out]:
        n.bust(name, minutes=1.5)
    remaining = started + joined - out
    t = minute + 2
    level = 1 if t < 20 else 2 if t < 40 else 3
    allowed = level < 3 and (remaining >= 17 or (started < 17 and out == 0))
    try:
        p = n.late("Z", t)
    except ActionRefused:
        assert not allowed
        return
    assert allowed
    full, ded = (5000, [750, 1500]) if deep else (3000, [500, 1000])
    if t <= 5:
        assert (p["stack"], p["dead_bb"]) == (full, True)
    else:
        assert p["stack"] == full - sum(ded[:level]) and not p["dead_bb"]
