"""The seat draw: seeded and reproducible, even tables, seat locks, LPPL's Ace-8 cards
(LPPL ¶10 "The lowest numbered card selected will deal"), the US high-card draw for the
button (US 2), WPH seat 1 (WPH ¶13), and the final-table redraw taken from tdhost.rules.balance."""

import pytest
from hostutil import Night, players
from hypothesis import given, settings, strategies as st

from tdhost.league.refusal import ActionRefused
from tdhost.rules import balance, draw


def by_table(seats):
    out = {}
    for p, (t, s) in seats.items():
        out.setdefault(t, {})[s] = p
    return out


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 70), seats=st.integers(2, 10), seed=st.integers(0, 10**6),
       ace8=st.booleans(), nlocks=st.integers(0, 3))
def test_first_draw_is_even_reproducible_and_respects_locks(n, seats, seed, ace8, nlocks):
    names = players(n)
    tables = draw.table_count(n, seats)
    locks = {names[i]: (1 + i % tables, 1 + (i // tables) % seats) for i in range(min(nlocks, n))}
    locks = {p: ts for p, ts in locks.items()
             if list(locks.values()).count(ts) == 1}
    ace8 = ace8 and seats <= 8
    try:
        out = draw.first_draw(names, seats, seed, locks, ace8)
    except draw.DrawError:
        return  # locks that cannot fit the even sizes are refused
    assert out == draw.first_draw(list(names), seats, seed, dict(locks), ace8)
    seats_of = out["seats"]
    assert sorted(seats_of) == sorted(names)
    assert len({tuple(v) for v in seats_of.values()}) == n
    bt = by_table(seats_of)
    assert sorted(bt) == list(range(1, tables + 1))
    sizes = [len(v) for v in bt.values()]
    assert max(sizes) - min(sizes) <= 1
    assert all(1 <= s <= seats for v in bt.values() for s in v)
    for p, (t, s) in locks.items():
        assert seats_of[p] == [t, s]
    for t, info in out["tables"].items():
        occupied = bt[int(t)]
        if ace8:
            cmap = info["card_map"]
            assert sorted(cmap.values()) == list(range(1, seats + 1))
            for p_seat, p in occupied.items():
                assert cmap[info["cards"][p]] == p_seat
            order = draw.CARD_NAMES
            low = min(occupied.values(), key=lambda p: order.index(info["cards"][p]))
            assert info["button"] == seats_of[low][1]
            # the cards follow the seats clockwise from the first chooser
            first = cmap["A"]
            assert all(cmap[c] == (first - 1 + i) % seats + 1 for i, c in enumerate(cmap))
        else:
            assert info["button"] == min(occupied)


def test_draw_seed_is_logged_and_repeats():
    n = Night()
    n.register(*players(20))
    a = n.draw(seed=77, ace8=True)
    with pytest.raises(ActionRefused, match=r"drawn already \(seed 77\): `tdhost draw --again`"):
        n.draw(seed=78)
    b = n.draw(seed=77, ace8=True, again=True)
    assert a == b
    c = n.draw(seed=78, again=True)
    assert c["seats"] != a["seats"]


def test_locks():
    n = Night()
    n.register(*players(20))
    n.lock("Tom", 2, 8, "wheelchair access")
    with pytest.raises(ActionRefused, match="locked for Tom already"):
        n.lock("Sam", 2, 8)
    with pytest.raises(ActionRefused, match="seat 9 does not exist"):
        n.lock("Sam", 1, 9)
    # checked at once (issue #17): LPPL's 48 players (¶15) fill at most 6 tables of 8
    with pytest.raises(ActionRefused, match=r"table 7 does not exist: 48 players \(max_players\) "
                                      r"fill at most 6 tables of 8 seats \(tables 1 to 6\)"):
        n.lock("Sam", 7, 1)
    n.lock("Sam", 4, 1)
    with pytest.raises(ActionRefused,
                       match="Sam is locked to table 4, but 20 players fill 3 tables"):
        n.draw(1)
    n.unlock("Sam")
    assert "sam" not in n.t.locks and n.t.locks["tom"][:2] == [2, 8]
    with pytest.raises(ActionRefused, match="Sam has no seat lock"):
        n.unlock("Sam")
    n.draw(1)
    assert n.t.get("Tom").seat == [2, 8]


def test_ace8_needs_at_most_8_seats():
    n = Night("wph")
    n.register(*players(12))
    with pytest.raises(ActionRefused, match="the Ace-8 draw has 8 cards"):
        n.draw(1, ace8=True)


def test_us_high_card_for_the_button_and_wph_seat_1():
    n = Night("us_free")
    n.register(*players(15))
    p = n.draw(5)
    for t, info in p["tables"].items():
        hc = info["high_cards"]
        best = max(hc, key=lambda q: ("23456789TJQKA".index(hc[q][0]), -"shdc".index(hc[q][1])))
        assert p["seats"][best] == [int(t), info["button"]]
    n = Night("wph")
    n.register(*players(15))
    p = n.draw(5)
    for t, info in p["tables"].items():
        assert info["button"] == min(s for q, (tt, s) in p["seats"].items() if tt == int(t))


def test_registration_after_the_draw_gets_a_seat_at_the_emptiest_table():
    n = Night()
    n.register(*players(17))
    n.draw(4)  # 6, 6, 5 (or in another order)
    sizes = {t: len(v) for t, v in n.t.seating().items()}
    small = min(sizes, key=sizes.get)
    msg = n.register("Newbie")[0]
    assert n.t.get("Newbie").seat[0] == small
    assert "drawn to table %d" % small in msg


def test_final_table_redraw_is_balance_plans_final_table():
    n = Night()
    n.field(12, seed=9)
    for name in players(12)[:4]:
        n.bust(name)
    # 8 players remain on 2 tables: one table of 8 seats takes them all
    p = n.draw(seed=31, ace8=True, final=True)
    assert p["final"] and len(p["seats"]) == 8
    # the same seats as `tdhost plan` gives for this room when it combines
    room = {"profile": "lppl", "seats_per_table": 8, "seed": 31, "tables": []}
    before = {}
    for ev in n.events:
        if ev.action == "draw" and not ev.payload["final"]:
            before = ev.payload["seats"]
    tables = {}
    for name, (t, s) in before.items():
        if name in p["seats"]:
            tables.setdefault(t, {})[str(s)] = name
    for t in sorted(tables):
        occupied = sorted(int(s) for s in tables[t])
        bb = occupied[0]
        button = occupied[-1]
        room["tables"].append({"table": t, "seats": tables[t], "button": button,
                               "sb": None, "bb": bb})
    plan = balance.plan(room)
    assert plan["final_table"]
    assert {m["player"]: [m["to"]["table"], m["to"]["seat"]] for m in plan["moves"]} == \
        p["seats"]
    info = p["tables"][str(p["table"])]
    low = min(info["cards"], key=lambda q: draw.CARD_NAMES.index(info["cards"][q]))
    assert info["button"] == p["seats"][low][1]
    for name, seat in p["seats"].items():
        assert n.t.get(name).seat == seat


def test_final_table_refused_with_too_many_players():
    n = Night()
    n.field(12)
    with pytest.raises(ActionRefused,
                       match="12 players remain; the final table forms at 8 or fewer"):
        n.draw(1, final=True)
