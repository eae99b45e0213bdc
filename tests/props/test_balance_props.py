"""Property tests of the TD host's balancing/breaking plan (tdhost.rules.balance.plan).

Thousands of random rooms (all three profiles, 2..10 seats, 1..14 tables, random
occupancy, random dead-button positions, dead small blinds).  Each test checks one
invariant of docs/balancing.md with oracles written independently of the plan code:
the blind order is simulated with the boxes' own tableclock.button.next_positions, the
lower bound on moves is found by brute force over every target vector.

TDHOST_PROPS_SCALE=N multiplies the number of examples (e.g. for a nightly run).
"""

import collections
import copy
import itertools
import os
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from tableclock import profiles
from tableclock.button import between, must_wait, next_positions
from tdhost.rules import balance, house

SCALE = float(os.environ.get("TDHOST_PROPS_SCALE", "1") or 1)


def props(n):
    return settings(max_examples=max(1, int(n * SCALE)), derandomize=True, database=None,
                    deadline=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ------------------------------------------------------------------------ random rooms

def _positions(rnd, n):
    """(button, sb position, bb) of a plausible last hand at an n-seat table."""
    bb = rnd.randint(1, n)
    if n == 2 or rnd.random() < 0.1:  # heads-up: the button is the small blind
        sb = (bb - 1 - rnd.randint(1, n - 1)) % n + 1
        return sb, sb, bb
    d_sb = rnd.randint(1, n - 2)
    d_bt = rnd.randint(d_sb + 1, n - 1)
    return (bb - 1 - d_bt) % n + 1, (bb - 1 - d_sb) % n + 1, bb


def make_room(seed):
    """A random room from *seed*, plus {table: true SB position} (the reported sb may be
    null, as the box reports a dead small blind)."""
    rnd = random.Random(seed)
    profile = rnd.choice(sorted(profiles.PROFILES))
    n = rnd.randint(2, 10)
    count = rnd.randint(1, 14)
    mode = rnd.choice(("uniform", "full", "sparse", "even") + ("busts",) * 3 + ("drain",) * 2)
    numbers = sorted(rnd.sample(range(1, 40), count)) if rnd.random() < 0.3 else \
        list(range(1, count + 1))
    tables, true_sb = [], {}
    even = rnd.randint(0, n)
    # "busts": a room balanced within one that needs all its tables, after 1-3 busts
    total = rnd.randint(min(count * n, (count - 1) * n + 1 + 3 * (mode == "busts")), count * n)
    # "drain": the same with several busts at one or two tables
    if mode == "drain":
        hit = rnd.sample(numbers, min(2, count))
        busts = collections.Counter(rnd.choice(hit) for _ in range(rnd.randint(2, 2 * n)))
    else:
        busts = collections.Counter(rnd.choice(numbers) for _ in range(rnd.randint(1, 3)))
    for i, num in enumerate(numbers):
        if mode in ("busts", "drain"):
            k = max(0, total // count + (i < total % count) - busts[num])
        elif mode == "uniform":
            k = rnd.randint(0, n)
        elif mode == "full":
            k = max(0, n - rnd.randint(0, 3))
        elif mode == "sparse":
            k = rnd.randint(0, max(1, n // 3))
        else:
            k = min(n, max(0, even + rnd.randint(-2, 2)))
        seats = sorted(rnd.sample(range(1, n + 1), k))
        button, sb, bb = _positions(rnd, n)
        true_sb[num] = sb
        dead = sb not in seats and sb != button and rnd.random() < 0.5
        tables.append({"table": num, "seats": {str(s): "p%d_%d" % (num, s) for s in seats},
                       "button": button, "sb": None if dead else sb, "bb": bb})
    if not any(t["seats"] for t in tables):
        tables[0]["seats"] = {"1": "solo"}
    return {"profile": profile, "seats_per_table": n, "seed": rnd.randint(0, 10**6),
            "tables": tables}, true_sb


def rooms():
    # One drawn integer seeds the whole room: far faster than a draw per seat, every
    # example is a different room, and a failure still prints the room in full.
    return st.integers(0, 2**64).map(make_room)


# ------------------------------------------------------------------------------ helpers

def sizes_of(room):
    return {t["table"]: len(t["seats"]) for t in room["tables"]}


def after_plan(room, result):
    """{table: {seat: player}} after applying the plan's moves (checks they apply)."""
    occ = {t["table"]: {int(s): p for s, p in t["seats"].items()} for t in room["tables"]}
    moved = set()
    for m in result["moves"]:
        p, fr = m["player"], m["from"]
        assert p not in moved, "player %s moves twice" % p
        moved.add(p)
        assert occ[fr["table"]].get(fr["seat"]) == p, "move %r: player not there" % m
        del occ[fr["table"]][fr["seat"]]
    for m in result["moves"]:
        to = m["to"]
        assert to["table"] in occ, "move %r: unknown table" % m
        assert 1 <= to["seat"] <= room["seats_per_table"]
        assert to["seat"] not in occ[to["table"]], "move %r: seat taken" % m
        occ[to["table"]][to["seat"]] = m["player"]
    return occ


def open_tables(occ, result):
    return {t: seats for t, seats in occ.items() if t not in result["broken"]}


def bb_order(bb, sb, players, n):
    """Seats in the order they post the big blind from the next hand on, by the boxes'
    own rule (tableclock.button.next_positions), one round."""
    out = []
    for _ in range(len(players)):
        _, sb, bb = next_positions(bb, sb, players, n)
        out.append(bb)
    return out


def zone_of(table, true_sb, n):
    """Seats a newcomer should not take: the next hand's button, SB position and the
    seats between (with a reported dead SB: every seat after the last button up to the
    last BB, since the box does not report where the dead SB was)."""
    b0, sb = table["bb"], table["sb"]
    if sb is None:
        return {b0} | {s for s in range(1, n + 1) if between(s, table["button"], b0, n)}
    nb, nsb = sb, b0  # dead-button rule: next button = last SB position, next SB = last BB
    return {nb, nsb} | {s for s in range(1, n + 1) if between(s, nb, nsb, n)}


def worst_seated(room, result):
    """{table: [moves placed at the worst positions, in moving order]}."""
    _, hs = house.get(room["profile"])
    balancing = set()
    for t in room["tables"]:
        if t["table"] not in result["broken"]:
            balancing |= {p for p in t["seats"].values()}
    out = {}
    for m in result["moves"]:
        if m["player"] in balancing or hs["break_seating"] == "worst":
            out.setdefault(m["to"]["table"], []).append(m)
    return out


# ------------------------------------------------------------------------- invariants

@props(600)
@given(rooms())
def test_plan_is_pure_deterministic_and_applies(case):
    room, _ = case
    before = copy.deepcopy(room)
    result = balance.plan(room)
    assert room == before, "plan() changed its input"
    assert balance.plan(copy.deepcopy(room)) == result
    assert set(result) == {"moves", "broken", "final_table"}
    occ = after_plan(room, result)
    everyone = sorted(p for t in room["tables"] for p in t["seats"].values())
    assert sorted(p for seats in occ.values() for p in seats.values()) == everyone
    for t in result["broken"]:
        assert not occ[t], "broken table %d still has players" % t
    senders = {m["from"]["table"] for m in result["moves"]}
    receivers = {m["to"]["table"] for m in result["moves"]}
    if not result["final_table"]:
        assert not senders & receivers, "a table both gives and receives"


@props(1500)
@given(rooms())
def test_sizes_within_tolerance_after_plan(case):
    room, _ = case
    result = balance.plan(room)
    open_ = open_tables(after_plan(room, result), result)
    sizes = [len(s) for s in open_.values()]
    _, hs = house.get(room["profile"])
    assert max(sizes) - min(sizes) <= house.tolerance(hs, len(sizes)), sizes
    assert max(sizes) <= room["seats_per_table"]


@props(1500)
@given(rooms())
def test_breaking_exactly_when_players_fit_fewer_tables(case):
    room, _ = case
    n = room["seats_per_table"]
    result = balance.plan(room)
    sizes = sizes_of(room)
    total = sum(sizes.values())
    occupied = sorted(t for t, c in sizes.items() if c)
    _, hs = house.get(room["profile"])
    final = len(occupied) >= 2 and total <= house.final_size(hs, n)
    assert result["final_table"] == final
    kept = [t for t in sizes if t not in result["broken"]]
    assert len(set(result["broken"])) == len(result["broken"])
    assert len(kept) == (1 if final else -(-total // n)), (sizes, result["broken"])
    # empty tables always close; occupied ones in the profile's order
    assert {t for t, c in sizes.items() if not c} <= set(result["broken"])
    broken_occ = [t for t in result["broken"] if sizes[t]]
    if hs["break_choice"] == "order":  # wph: the TDA's preset random order
        order = balance.break_order(occupied, hs, room["seed"])
        assert sorted(broken_occ) == sorted(order[:len(broken_occ)])


def brute_force_min_moves(sizes, broken, n, within):
    """The fewest moves over every target vector for the kept tables (small rooms)."""
    kept = [c for t, c in sizes.items() if t not in broken]
    total = sum(sizes.values())
    moved = sum(c for t, c in sizes.items() if t in broken)
    best = None
    for head in itertools.product(range(n + 1), repeat=len(kept) - 1):
        last = total - sum(head)
        tgt = head + (last,)
        if not 0 <= last <= n or max(tgt) - min(tgt) > within:
            continue
        cost = moved + sum(max(0, c - x) for c, x in zip(kept, tgt))
        best = cost if best is None else min(best, cost)
    return best


@props(1500)
@given(rooms())
def test_moves_equal_the_lower_bound(case):
    room, _ = case
    n = room["seats_per_table"]
    result = balance.plan(room)
    if result["final_table"]:
        assert len(result["moves"]) == sum(sizes_of(room).values())  # fresh draw: everyone
        return
    occ = open_tables(after_plan(room, result), result)
    sizes = sizes_of(room)
    # the lower bound for the resulting sizes: every player above target must leave
    lb_sizes = sum(max(0, c - len(occ.get(t, ()))) for t, c in sizes.items())
    assert len(result["moves"]) == lb_sizes
    # ... and those sizes need the fewest moves of any allowed sizes (same broken tables)
    _, hs = house.get(room["profile"])
    within = house.tolerance(hs, len(occ))
    lb = balance.move_lower_bound(sizes, set(result["broken"]), n, within)
    assert len(result["moves"]) == lb
    if len(occ) <= 4:
        assert lb == brute_force_min_moves(sizes, set(result["broken"]), n, within)


def fewest_over_break_choices(room, result):
    """(fewest moves over every choice of the same number of occupied tables to break,
    [the choices that reach it]), by brute force: every combination, and for up to four
    kept tables every target vector (brute_force_min_moves), else the bound formula
    (itself checked against the brute force in test_lower_bound_formula_matches_...)."""
    n = room["seats_per_table"]
    sizes = sizes_of(room)
    empty = {t for t, c in sizes.items() if not c}
    occupied = sorted(t for t, c in sizes.items() if c)
    k = len([t for t in result["broken"] if sizes[t]])
    _, hs = house.get(room["profile"])
    within = house.tolerance(hs, len(occupied) - k)
    costs = {}
    for combo in itertools.combinations(occupied, k):
        broken = empty | set(combo)
        if len(occupied) - k <= 4:
            costs[combo] = brute_force_min_moves(sizes, broken, n, within)
        else:
            costs[combo] = balance.move_lower_bound(sizes, broken, n, within)
    best = min(c for c in costs.values() if c is not None)
    return best, [set(c) for c, v in costs.items() if v == best]


def with_moved(room, seed):
    """*room* with a random few of its players marked as moved tonight."""
    rnd = random.Random(seed)
    players = sorted(p for t in room["tables"] for p in t["seats"].values())
    return dict(room, moved=rnd.sample(players, rnd.randint(0, len(players) // 2)))


@props(1500)
@given(rooms(), st.integers(0, 3))
def test_breaks_the_tables_that_cost_fewest_moves(case, moved_seed):
    """lppl, us_free: no choice of tables to break needs fewer moves (issue #13); among
    choices that cost the same, no single swap of a broken table for a kept one moves
    fewer players who have moved tonight, or (as many) follows the announced order
    (highest number first) better.  wph keeps its preset random order."""
    room, _ = case
    if moved_seed:
        room = with_moved(room, moved_seed)
    _, hs = house.get(room["profile"])
    result = balance.plan(room)
    if result["final_table"] or room["profile"] == "wph":
        return
    sizes = sizes_of(room)
    occupied = [t for t, c in sizes.items() if c]
    if len(occupied) > 12:
        return
    best, cheapest = fewest_over_break_choices(room, result)
    assert len(result["moves"]) == best, (sizes, result["broken"], best)
    broken = {t for t in result["broken"] if sizes[t]}
    assert broken in cheapest
    moved = set(room.get("moved", ()))
    by_num = {t["table"]: t for t in room["tables"]}

    def key(t):  # players there who moved tonight, then the announced order
        return (sum(p in moved for p in by_num[t]["seats"].values()), -t)
    for i in broken:
        for j in set(occupied) - broken:
            if (broken - {i}) | {j} in cheapest:
                assert key(j) >= key(i), ("breaking %d instead of %d costs the same "
                                          "and is preferred" % (j, i), sizes, moved)


@props(1500)
@given(rooms())
def test_movers_are_the_next_big_blinds(case):
    room, _ = case
    n = room["seats_per_table"]
    result = balance.plan(room)
    if result["final_table"]:
        return
    for t in room["tables"]:
        seats = {int(s) for s in t["seats"]}
        sent = [m["from"]["seat"] for m in result["moves"] if m["from"]["table"] == t["table"]]
        # clockwise from the seat after the last BB
        clockwise = [s for s in [(t["bb"] + i - 1) % n + 1 for i in range(1, n + 1)] if s in seats]
        if t["table"] in result["broken"]:
            assert sent == clockwise
        else:
            assert sent == clockwise[:len(sent)]
            # the first mover is the next big blind by the boxes' rule
            if sent and len(seats) >= 2:
                assert sent[0] == bb_order(t["bb"], t["sb"], seats, n)[0]


@props(1500)
@given(rooms())
def test_arrivals_take_the_worst_positions_in_moving_order(case):
    room, true_sb = case
    n = room["seats_per_table"]
    result = balance.plan(room)
    if result["final_table"]:
        return
    occ = after_plan(room, result)
    by_num = {t["table"]: t for t in room["tables"]}
    _, hs = house.get(room["profile"])
    wait_zone = profiles.get(room["profile"])["wait_zone"]
    for num, moves in worst_seated(room, result).items():
        t = by_num[num]
        before = {int(s) for s in t["seats"]}
        final = set(occ[num])
        zone = zone_of(t, true_sb, n)
        good_before = [s for s in range(1, n + 1) if s not in before and s not in zone]
        seats = [m["to"]["seat"] for m in moves]
        if len(seats) <= len(good_before):
            assert not set(seats) & zone, "arrival in the late zone %r: %r" % (zone, seats)
            # ... so the box deals them in at once (its own wait-zone rule)
            if t["sb"] is not None and len(final) >= 3:
                nb, nsb, _ = next_positions(t["bb"], t["sb"], final, n)
                for s in seats:
                    assert not must_wait(s, nb, nsb, wait_zone, n), (s, nb, nsb)
        else:
            assert set(good_before) <= set(seats)
        # they post the big blind in their moving order ...
        sb_pos = t["sb"] if t["sb"] is not None else true_sb[num]
        order = bb_order(t["bb"], sb_pos, final, n)
        idx = [order.index(s) for s in seats]
        assert idx == sorted(idx), "arrivals out of moving order: %r in %r" % (seats, order)
        # ... and soonest: no good seat left open (or drawn later) posts it before them
        for e in good_before:
            if e in seats:
                continue
            with_e = bb_order(t["bb"], sb_pos, final | {e}, n)
            assert all(with_e.index(e) > with_e.index(s) for s in seats), (e, seats, with_e)


@props(1000)
@given(rooms())
def test_drawn_players_avoid_the_wait_zone(case):
    """Players from broken tables drawn into seats ("draw" profiles: wph, TDA 7) get a
    seat where the box deals them in at once, unless the table is filled past those."""
    room, true_sb = case
    n = room["seats_per_table"]
    _, hs = house.get(room["profile"])
    result = balance.plan(room)
    if result["final_table"] or hs["break_seating"] != "draw":
        return
    wait_zone = profiles.get(room["profile"])["wait_zone"]
    by_num = {t["table"]: t for t in room["tables"]}
    drawn = {}
    for m in result["moves"]:
        if m["from"]["table"] in result["broken"]:
            drawn.setdefault(m["to"]["table"], []).append(m["to"]["seat"])
    for num, seats in drawn.items():
        t = by_num[num]
        nb = t["sb"] if t["sb"] is not None else true_sb[num]
        worst = len([m for m in result["moves"] if m["to"]["table"] == num]) - len(seats)
        empty = [s for s in range(1, n + 1) if str(s) not in t["seats"]]
        ok = [s for s in empty if not must_wait(s, nb, t["bb"], wait_zone, n)]
        if len(seats) + worst <= len(ok) and t["sb"] is not None:
            assert all(s in ok for s in seats), (seats, ok)


@props(500)
@given(rooms())
def test_plan_is_stable_once_applied(case):
    room, _ = case
    result = balance.plan(room)
    occ = after_plan(room, result)
    again = copy.deepcopy(room)
    again["tables"] = [t for t in again["tables"] if t["table"] not in result["broken"]]
    for t in again["tables"]:
        t["seats"] = {str(s): p for s, p in occ[t["table"]].items()}
    second = balance.plan(again)
    assert second == {"moves": [], "broken": [], "final_table": False}, second


@props(300)
@given(st.lists(st.integers(1, 60), min_size=1, max_size=12, unique=True),
       st.integers(0, 10**6))
def test_random_break_order_is_fixed_for_the_tournament(numbers, seed):
    _, hs = house.get("wph")
    full = balance.break_order(numbers, hs, seed)
    assert sorted(full) == sorted(numbers)
    for k in range(len(numbers)):
        sub = numbers[:k]
        assert balance.break_order(sub, hs, seed) == [t for t in full if t in sub]


@props(400)
@given(st.lists(st.integers(0, 10), min_size=1, max_size=4), st.integers(2, 10),
       st.integers(1, 2), st.data())
def test_lower_bound_formula_matches_brute_force(sizes_list, n, within, data):
    sizes_list = [min(c, n) for c in sizes_list]
    sizes = dict(enumerate(sizes_list, 1))
    broken = set(data.draw(st.sets(st.sampled_from(sorted(sizes)), max_size=len(sizes) - 1)))
    kept = len(sizes) - len(broken)
    if sum(sizes_list) > kept * n:
        return
    assert balance.move_lower_bound(sizes, broken, n, within) == \
        brute_force_min_moves(sizes, broken, n, within)
