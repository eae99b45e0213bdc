"""Same-hand eliminations: chips at the start of the hand, then the better hand, then the
league leaderboard (LPPL ¶46); US 14 chips only; a time-limited end by chips (LPPL ¶64).

LPPL ¶46 "If more than one player is eliminated on the same hand the player with the highest
chip total at the beginning of the hand will be awarded the higher finishing position. If
'chips' at the beginning of the hand were equal, the player who has the best hand (including
the community cards) will be awarded the higher finishing position. If the players are still
equal, the player who is highest on the Area League Leaderboard will be awarded the higher
finishing position, thereafter it will revert to previous Leaderboard position."
"""

import pytest
from hostutil import Night, players
from hypothesis import given, settings, strategies as st

from tdhost.league.refusal import ActionRefused
from tdhost.rules import hands, points

BOARD = "Ah 7d 2c 9s Tc"


def places(t):
    return {name: (first, last) for names, first, last in t.ranking() if first
            for name in names}


def test_more_chips_at_the_start_of_the_hand_finishes_higher():
    n = Night().field(10)
    p = n.bust("Ann", "Bob", "Cat", chips={"Ann": 400, "Bob": 1200, "Cat": 800})
    assert p["tiers"] == [["Bob"], ["Cat"], ["Ann"]]
    assert places(n.t) == {"Bob": (8, 8), "Cat": (9, 9), "Ann": (10, 10)}
    assert p["reasons"][0] == ("Bob finishes above Cat: more chips at the start of the hand "
                               "(1200 to 800)")


def test_equal_chips_then_the_better_hand_lppl():
    n = Night().field(10)
    with pytest.raises(ActionRefused, match="Ann and Bob started the hand with equal chips: give "
                                      "--cards for Ann and Bob and --board"):
        n.bust("Ann", "Bob", chips={"Ann": 800, "Bob": 800})
    p = n.bust("Ann", "Bob", chips={"Ann": 800, "Bob": 800},
               cards={"Ann": "As Kd", "Bob": "7h 7c"}, board=BOARD)
    assert p["tiers"] == [["Bob"], ["Ann"]]
    assert p["reasons"] == ["Bob finishes above Ann: both started the hand with 800 chips; the "
                            "better hand: three of a kind (7h 7c Ah 7d Tc) beats one pair "
                            "(As Kd Ah 9s Tc)"]


def test_chips_decide_before_cards():
    n = Night().field(10)
    p = n.bust("Ann", "Bob", chips={"Ann": 900, "Bob": 800},
               cards={"Ann": "2d 3d", "Bob": "Ac Ad"}, board=BOARD)
    assert p["tiers"] == [["Ann"], ["Bob"]]


def test_bad_cards_are_refused_with_a_sentence():
    n = Night().field(10)
    chips = {"Ann": 800, "Bob": 800}
    for cards, board, msg in (
            ({"Ann": "As Kd", "Bob": "As 7c"}, BOARD, "As is given twice"),
            ({"Ann": "As Xd", "Bob": "7h 7c"}, BOARD, "'Xd' is not a card"),
            ({"Ann": "As Kd Qd", "Bob": "7h 7c"}, BOARD, "two hole cards, not 3"),
            ({"Ann": "As Kd", "Bob": "7h 7c"}, "Ah 7d", "the board has 3 to 5 cards"),
            ({"Ann": "As Kd", "Bob": "7h 7c"}, None, "cards need the board"),
            ({"Zed": "As Kd"}, BOARD, "Zed, who is not among the busted players")):
        with pytest.raises(ActionRefused, match=msg):
            n.bust("Ann", "Bob", chips=chips, cards=cards, board=board)
    assert n.t.busts == []


def finished_league():
    """Tournament 1 (finished): Cat 1st, Bob 2nd, Ann 3rd, Dan 4th; then tournament 2."""
    n = Night()
    n.field(4)
    n.bust("Dan")
    n.bust("Ann")
    n.bust("Bob")
    assert n.t.ended["tiers"] == [["Cat"]]
    n.new()
    n.field(10)
    return n


def test_equal_chips_and_equal_hands_then_the_league_leaderboard():
    n = finished_league()
    lb, prev = n.lg.leaderboard_points(2)
    assert lb["bob"] > lb["ann"] > lb["dan"]
    # both play the board (a straight): equal hands
    p = n.bust("Ann", "Bob", chips={"Ann": 500, "Bob": 500},
               cards={"Ann": "2c 3c", "Bob": "2d 3d"}, board="Ts Jh Qd Kc Ah")
    assert p["tiers"] == [["Bob"], ["Ann"]]
    assert "equal hands (straight" in p["reasons"][0]
    assert "higher on the league leaderboard" in p["reasons"][0]


def test_players_level_everywhere_tie_and_share_the_places():
    n = Night().field(10)  # first tournament: nobody on the leaderboard
    p = n.bust("Ann", "Bob", "Cat", chips={"Ann": 500, "Bob": 500, "Cat": 100},
               cards={"Ann": "2c 3c", "Bob": "2d 3d"}, board="Ts Jh Qd Kc Ah")
    assert p["tiers"] == [["Ann", "Bob"], ["Cat"]] or p["tiers"] == [["Bob", "Ann"], ["Cat"]]
    assert places(n.t)["Ann"] == (8, 9) == places(n.t)["Bob"]
    assert n.t.place_of("Ann") == "8th="
    assert "tie" in p["reasons"][0]


def test_us_free_chips_only_equal_chips_tie():
    # US 14 "the player with the greater number of chips prior to that hand will be awarded
    # the higher finishing position" -- no tie-break beyond chips
    n = Night("us_free").field(10)
    p = n.bust("Ann", "Bob", chips={"Ann": 500, "Bob": 500})  # no cards needed
    assert len(p["tiers"]) == 1 and sorted(p["tiers"][0]) == ["Ann", "Bob"]


def test_the_last_players_cannot_all_bust():
    n = Night().field(3)
    with pytest.raises(ActionRefused, match="are the last players: someone wins the hand"):
        n.bust("Ann", "Bob", "Cat", chips={"Ann": 1, "Bob": 2, "Cat": 3})
    n.bust("Ann", "Bob", chips={"Ann": 1, "Bob": 2})
    assert n.t.ended["tiers"] == [["Cat"]]
    with pytest.raises(ActionRefused, match="has finished"):
        n.bust("Cat")


def test_time_limited_end_ranks_by_chips():
    # LPPL ¶64 "the player with the most chips wins, player with 2nd most chips is 2nd"
    n = Night().field(6)
    n.bust("Ann")
    with pytest.raises(ActionRefused, match="missing: Fay"):
        n.end({"Bob": 100, "Cat": 300, "Dan": 300, "Eve": 50})
    n.end({"Bob": 100, "Cat": 300, "Dan": 300, "Eve": 50, "Fay": 9000})
    assert [(tuple(sorted(a)), b, c) for a, b, c in n.t.ranking()] == [
        (("Fay",), 1, 1), (("Cat", "Dan"), 2, 3), (("Bob",), 4, 4), (("Eve",), 5, 5),
        (("Ann",), 6, 6)]
    rows = {r["name"]: r for r in n.t.results()}
    # tied players share the average of the places' points
    cfg = n.t.setup["points"]
    assert rows["Cat"]["points"] == rows["Dan"]["points"] == round(
        (points.place_points(cfg, 2, 6) + points.place_points(cfg, 3, 6)) / 2, 2)


def test_undo_a_bust_brings_the_player_back():
    n = Night().field(3)
    n.bust("Ann")
    n.bust("Bob")
    assert n.t.ended
    n.undo()
    assert not n.t.ended and n.t.get("Bob").state == "in"
    n.undo()
    assert n.t.get("Ann").state == "in"


CARDS = [r + s for r in hands.RANKS for s in hands.SUITS]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_same_hand_order_chips_then_hands(data):
    k = data.draw(st.integers(2, 5), label="busted")
    deck = data.draw(st.permutations(CARDS), label="deck")
    chips = data.draw(st.lists(st.sampled_from([100, 200, 300]), min_size=k, max_size=k))
    n = Night().field(9)
    names = players(k)
    holes = {p: "%s %s" % (deck[2 * i], deck[2 * i + 1]) for i, p in enumerate(names)}
    board = " ".join(deck[2 * k:2 * k + 5])
    p = n.bust(*names, chips=dict(zip(names, chips)), cards=holes, board=board)
    order = [name for tier in p["tiers"] for name in tier]
    assert sorted(order) == sorted(names)
    strength = hands.rank({q: hands.parse(holes[q], q) for q in names}, hands.parse(board, "b"))
    c = dict(zip(names, chips))
    for tier_a, tier_b in zip(p["tiers"], p["tiers"][1:]):
        for a in tier_a:
            for b in tier_b:  # a finishes above b
                assert c[a] > c[b] or (c[a] == c[b] and strength[a][0] > strength[b][0])
    for tier in p["tiers"]:
        for a in tier:
            for b in tier:  # a tie: equal chips and hands (nobody on the leaderboard yet)
                assert c[a] == c[b] and strength[a][0] == strength[b][0]
    # places: contiguous from the bottom, ties share
    pl = places(n.t)
    spans = sorted({pl[nm] for nm in names})
    assert spans[0][0] == 9 - k + 1 and spans[-1][1] == 9
    for (_, b), (c2, _) in zip(spans, spans[1:]):
        assert c2 == b + 1


def test_level_on_the_leaderboard_then_the_previous_leaderboard():
    # "thereafter it will revert to previous Leaderboard position"
    n = Night()
    n.field(4)
    n.bust("Dan")
    n.bust("Cat")
    n.bust("Bob")  # Ann 1st, Bob 2nd
    n.new()
    n.field(4)
    n.bust("Dan")
    n.bust("Cat")
    n.bust("Ann")  # Bob 1st, Ann 2nd: level on points after two tournaments
    lb, prev = n.lg.leaderboard_points(3)
    assert lb["ann"] == lb["bob"] and prev["ann"] > prev["bob"]
    n.new()
    n.field(6)
    p = n.bust("Bob", "Ann", chips={"Ann": 500, "Bob": 500},
               cards={"Ann": "2c 3c", "Bob": "2d 3d"}, board="Ts Jh Qd Kc Ah")
    assert p["tiers"] == [["Ann"], ["Bob"]]
    assert "higher on the previous leaderboard (20 to 14.14 points)" in p["reasons"][0]
