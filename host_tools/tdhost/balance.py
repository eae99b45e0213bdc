"""Balancing and breaking plan for the TD host: pure functions, no I/O.

``plan(room)`` takes the last hand's seats at every table and returns the moves that
keep the tables even, the tables that break and whether the final table forms::

    room = {"profile": "lppl", "seats_per_table": 8, "seed": 7,
            "tables": [{"table": 1, "seats": {"1": "Ann", ...},
                        "button": 3, "sb": 4, "bb": 5}, ...]}
    plan(room) == {"moves": [{"player": "Ann", "from": {"table": 1, "seat": 1},
                              "to": {"table": 2, "seat": 6}}, ...],
                   "broken": [3], "final_table": False}

The seat rules are the boxes' own (tableclock.button: the BB moves to the next player
after the previous BB; the wait zone of tableclock.profiles); the host-only settings
(tolerance, break order, final-table size) are in tdhost.house.  docs/balancing.md
explains the algorithm, the lower bound on moves and every interpretation.
"""

import hashlib
import heapq
import random

from tableclock.button import between, clockwise_from, must_wait
from tdhost import house as _house

ROOM_KEYS = ("profile", "seats_per_table", "seed", "tables")
OPTIONAL_KEYS = ("moved",)  # players who have moved tables tonight (a tie-break)
TABLE_KEYS = ("table", "seats", "button", "sb", "bb")
MIN_SEATS, MAX_SEATS = 2, 10  # what a box accepts (docs/rules.md: a table has 2..10 seats)


class PlanError(ValueError):
    """The room is not a valid plan input; str(err) is one sentence saying what is wrong."""


# ------------------------------------------------------------------------------- input

def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _fail(msg):
    raise PlanError(msg if msg.endswith(".") else msg + ".")


def _keys(obj, required, where, optional=()):
    missing = [k for k in required if k not in obj]
    if missing:
        _fail("%s is missing %s" % (where, ", ".join(repr(k) for k in missing)))
    extra = sorted(str(k) for k in obj if k not in required and k not in optional)
    if extra:
        _fail("%s has unknown key%s %s (expected %s)" % (
            where, "s" if len(extra) > 1 else "", ", ".join(repr(k) for k in extra),
            ", ".join(repr(k) for k in required)))


def _seat_no(v, n, what):
    """A seat number from JSON: an int, or (as an object key) a string of ASCII digits."""
    if isinstance(v, str) and v.isascii() and v.isdigit() and len(v) <= 3:
        v = int(v)
    if not _is_int(v):
        _fail("%s must be a seat number, not %r" % (what, v))
    if not 1 <= v <= n:
        _fail("%s is seat %d, outside 1..%d" % (what, v, n))
    return v


def parse_room(room):
    """Check a plan input and return it normalised.

    Returns {"profile", "seats_per_table", "seed", "tables", "moved"} with the tables
    sorted by number, each {"table": int, "seats": {int seat: str player}, "button": int,
    "sb": int or None, "bb": int}, and "moved" the set of players who have moved tables
    tonight (optional in the input; names not seated now are ignored).  Raises PlanError
    (one sentence) on bad input.
    """
    if not isinstance(room, dict):
        _fail("the plan input must be a JSON object with keys %s"
              % ", ".join(repr(k) for k in ROOM_KEYS))
    _keys(room, ROOM_KEYS, "the room", OPTIONAL_KEYS)
    profile = room["profile"]
    try:
        _house.get(profile)
    except ValueError as err:
        _fail(str(err))
    n = room["seats_per_table"]
    if not _is_int(n) or not MIN_SEATS <= n <= MAX_SEATS:
        _fail("seats_per_table must be a whole number from %d to %d, not %r"
              % (MIN_SEATS, MAX_SEATS, n))
    seed = room["seed"]
    if not (_is_int(seed) or isinstance(seed, str)):
        _fail("seed must be a whole number or a string, not %r" % (seed,))
    tables = room["tables"]
    if not isinstance(tables, list) or not tables:
        _fail("tables must be a non-empty list of tables")
    out, where_is, numbers = [], {}, set()
    for i, t in enumerate(tables):
        if not isinstance(t, dict):
            _fail("tables[%d] must be an object with keys %s"
                  % (i, ", ".join(repr(k) for k in TABLE_KEYS)))
        num = t.get("table")
        name = "table %s" % num if _is_int(num) else "tables[%d]" % i
        _keys(t, TABLE_KEYS, name)
        if not _is_int(num) or num < 1:
            _fail("tables[%d]: the table number must be a whole number from 1, not %r"
                  % (i, num))
        if num in numbers:
            _fail("table %d is listed twice" % num)
        numbers.add(num)
        seats_in = t["seats"]
        if not isinstance(seats_in, dict):
            _fail("table %d: seats must be an object {\"seat\": \"player\"}" % num)
        seats = {}
        for k, player in seats_in.items():
            s = _seat_no(k, n, "table %d: a key of seats" % num)
            if s in seats:
                _fail("table %d: seat %d is given twice" % (num, s))
            if not isinstance(player, str) or not player.strip():
                _fail("table %d seat %d: the player must be a non-empty string, not %r"
                      % (num, s, player))
            if player in where_is:
                pt, ps = where_is[player]
                _fail("player %r is seated twice: table %d seat %d and table %d seat %d"
                      % (player, pt, ps, num, s))
            where_is[player] = (num, s)
            seats[s] = player
        button = _seat_no(t["button"], n, "table %d: button" % num)
        bb = _seat_no(t["bb"], n, "table %d: bb" % num)
        sb = None if t["sb"] is None else _seat_no(t["sb"], n, "table %d: sb" % num)
        if bb == button:
            _fail("table %d: the bb seat %d is also the button" % (num, bb))
        if sb == bb:
            _fail("table %d: the sb and bb are both seat %d" % (num, bb))
        if sb is not None and sb != button and not between(sb, button, bb, n):
            _fail("table %d: the sb seat %d is not between the button (seat %d) and the bb "
                  "(seat %d) clockwise" % (num, sb, button, bb))
        out.append({"table": num, "seats": seats, "button": button, "sb": sb, "bb": bb})
    if not where_is:
        _fail("the room has no players: nothing to balance")
    moved = room.get("moved", [])
    if not isinstance(moved, list) or not all(isinstance(p, str) for p in moved):
        _fail("moved must be a list of the players who have moved tables tonight")
    out.sort(key=lambda t: t["table"])
    return {"profile": profile, "seats_per_table": n, "seed": seed, "tables": out,
            "moved": {p for p in moved if p in where_is}}


# ------------------------------------------------------------------ seats at one table

def late_zone(table, n):
    """Seats that a new player must not take at *table* if it can be avoided.

    The next hand, by the dead-button rule, has its SB position on the last BB seat and
    its button on the last SB position; the zone is the arc from that button to that SB
    position, both included (the button, the seats between, the SB).  When the last SB
    was dead (``sb`` null) the box does not report where its position was: it lies
    strictly between the last button and the last BB, so the whole arc after the last
    button up to the last BB is avoided.
    """
    bb = table["bb"]
    start = table["sb"] if table["sb"] is not None else table["button"] % n + 1
    zone, s = [], start
    while True:
        zone.append(s)
        if s == bb:
            return zone
        s = s % n + 1


def bb_soonest_seats(table, n):
    """Empty seats of *table* from the worst position to the best.

    The worst position is the seat whose player would post the big blind soonest.  The
    BB moves to the next player after the last BB seat (tableclock.button.next_positions),
    so that is the first empty seat clockwise after the last BB seat: if it lies before
    the next player, a player seated there takes the very next BB ("the Big Blind
    position"), otherwise it is "the next available seat to the left of the Big Blind"
    (LPPL ¶45).  Later arrivals take the following empty seats clockwise, so several
    arrivals post the BB in the order they are seated.

    The late zone (late_zone: the next hand's button, the seats between it and the next
    SB position, and that SB position, which is the last BB seat) is the arc that ends
    at the last BB seat, so its seats come last in this order: an arrival lands there
    only when every other empty seat is taken (a table filled to the last seat).
    """
    return [s for s in clockwise_from(table["bb"], n, range(1, n + 1))
            if s not in table["seats"]]


def draw_seats(table, n, wait_zone):
    """(acceptable, fallback) empty seats for a player drawn into *table* at random.

    Acceptable: every empty seat where the box deals a new player in at once
    (tableclock.button.must_wait with the profile's wait zone, for the next hand's
    button and SB position); with a dead last SB the conservative late zone is avoided.
    Fallback: the other empty seats, in bb_soonest_seats order.
    """
    seats = table["seats"]
    empty = [s for s in range(1, n + 1) if s not in seats]
    if table["sb"] is None:
        bad = set(late_zone(table, n))
    else:
        nb, nsb = table["sb"], table["bb"]  # next hand's button and SB position
        bad = {s for s in empty if must_wait(s, nb, nsb, wait_zone, n)}
    ok = [s for s in empty if s not in bad]
    return ok, [s for s in bb_soonest_seats(table, n) if s in bad]


def movers_order(table, n):
    """Players' seats at *table* in moving order: the player due the BB next (the next
    player clockwise after the last BB seat), then clockwise; the last BB comes last."""
    return clockwise_from(table["bb"], n, table["seats"])


# ------------------------------------------------------------------- sizes and bounds

def break_order(numbers, house, seed):
    """Table numbers in the order they break (first breaks first).

    "highest": highest number first.  "random": ordered by a hash of (seed, table), so
    the order of any two tables is fixed for the whole tournament (TDA RP-19).
    """
    if house["break_order"] == "highest":
        return sorted(numbers, reverse=True)

    def key(t):
        h = hashlib.sha256(("%s|break|%d" % (seed, t)).encode("utf-8")).hexdigest()
        return (h, t)
    return sorted(numbers, key=key)


def _water(t, count, cap, up, key):
    """Move *count* units into (up) or out of (not up) the list t, evening it out; among
    equal values the smallest key[i] goes first."""
    if count == 0:
        return t
    # A heap of the extreme values, one step at a time: count <= tables * spread.
    m = len(t)
    sign = 1 if up else -1
    heap = [(sign * t[i], key[i], i) for i in range(m) if (t[i] < cap if up else t[i] > cap)]
    heapq.heapify(heap)
    for _ in range(count):
        _, k, i = heapq.heappop(heap)
        t[i] += sign
        if t[i] < cap if up else t[i] > cap:
            heapq.heappush(heap, (sign * t[i], k, i))
    return t


def targets(sizes, ranks, total, n, within, give=None):
    """Target sizes for the kept tables that need the fewest moves.

    *sizes* and *ranks* are lists over the kept tables (current players, position in the
    break order); *total* players must be seated, at most *n* per table, with the
    fullest and emptiest table at most *within* apart.  For each window [L, L+within]
    the cheapest targets are the sizes clamped into the window, then raised (or lowered)
    one at a time where they are lowest (highest) until they sum to *total*; every such
    step costs exactly one move, so each window's cost is exact and the cheapest window
    is optimal (docs/balancing.md).  Ties: fewer moves, then a smaller spread, then the
    lower window.  Among tables of equal size the one breaking last (highest rank)
    receives first, and the one with the smallest *give* key (default: its rank) gives
    first.
    """
    give = ranks if give is None else give
    receive = [-r for r in ranks]
    best = None
    for low in range(0, n + 1):
        high = min(low + within, n)
        m = len(sizes)
        if not m * low <= total <= m * high:
            continue
        t = [min(max(c, low), high) for c in sizes]
        diff = total - sum(t)
        if diff > 0:
            t = _water(t, diff, high, True, receive)
        elif diff < 0:
            t = _water(t, -diff, low, False, give)
        out = sum(max(0, c - x) for c, x in zip(sizes, t))
        key = (out, max(t) - min(t), low)
        if best is None or key < best[0]:
            best = (key, t)
    return None if best is None else best[1]


def move_lower_bound(sizes, broken, n, within):
    """The fewest moves that leave every kept table within *within* of the others.

    *sizes*: {table: players}; *broken*: tables that close (all their players move).
    Over every window [L, L+within] (capped at n) that can hold the players, at least
    max(arrivals needed to lift the kept tables to L, broken players + departures
    needed to bring the kept tables down to the top of the window) moves are needed.
    """
    kept = [c for t, c in sizes.items() if t not in broken]
    moved = sum(c for t, c in sizes.items() if t in broken)
    total = sum(sizes.values())
    best = None
    for low in range(0, n + 1):
        high = min(low + within, n)
        if not len(kept) * low <= total <= len(kept) * high:
            continue
        need_in = sum(max(0, low - c) for c in kept)
        need_out = moved + sum(max(0, c - high) for c in kept)
        lb = max(need_in, need_out)
        best = lb if best is None else min(best, lb)
    return best


def _hist_bound(hist, moved, total, kept, n, within):
    """move_lower_bound from a histogram: hist[c] kept tables hold c players, *moved*
    players sit at broken tables, *kept* tables stay open."""
    best = None
    for low in range(0, n + 1):
        high = min(low + within, n)
        if not kept * low <= total <= kept * high:
            continue
        need_in = sum(hist[c] * (low - c) for c in range(low))
        need_out = moved + sum(hist[c] * (c - high) for c in range(high + 1, n + 1))
        lb = max(need_in, need_out)
        best = lb if best is None else min(best, lb)
    return best


def fewest_move_breaks(sizes, order, count, n, within, repeat=None):
    """The *count* tables of *order* (occupied tables, announced break order) to break so
    that the plan needs the fewest moves.

    Breaking the smallest tables is always cheapest: swapping a broken table for a
    smaller kept one never raises either term of the lower bound (docs/balancing.md
    §4), so the *count* smallest are a cheapest choice.  Among choices that cost the
    same, tables whose players have moved tonight fewer times (*repeat*: {table: players
    there who moved}) break first, then the announced order; swaps between size classes
    that keep the cost are made while they improve that (each swap strictly improves
    it, so this ends).
    """
    repeat = repeat or {}
    pos = {t: i for i, t in enumerate(order)}

    def key(t):
        return (repeat.get(t, 0), pos[t])
    total = sum(sizes[t] for t in order)
    broken = sorted(order, key=lambda t: (sizes[t], key(t)))[:count]
    if not broken or len(broken) == len(order):
        return [t for t in order if t in set(broken)]
    gone = set(broken)
    kept_n = len(order) - count
    hist = [0] * (n + 1)
    for t in order:
        if t not in gone:
            hist[sizes[t]] += 1
    moved = sum(sizes[t] for t in broken)
    cost = _hist_bound(hist, moved, total, kept_n, n, within)
    while True:
        # the worst broken table and the best kept one of each size
        worst, best = {}, {}
        for t in order:
            c = sizes[t]
            if t in gone:
                if c not in worst or key(t) > key(worst[c]):
                    worst[c] = t
            elif c not in best or key(t) < key(best[c]):
                best[c] = t
        swap = None  # the improving swap that brings in the best table
        for a, i in worst.items():
            for b, j in best.items():
                if a == b or key(j) >= key(i):
                    continue
                if swap is not None and (key(j), [-x for x in key(i)]) >= \
                        (key(swap[1]), [-x for x in key(swap[0])]):
                    continue
                hist[a] += 1
                hist[b] -= 1
                if _hist_bound(hist, moved - a + b, total, kept_n, n, within) == cost:
                    swap = (i, j)
                hist[a] -= 1
                hist[b] += 1
        if swap is None:
            return [t for t in order if t in gone]
        i, j = swap
        gone.discard(i)
        gone.add(j)
        hist[sizes[i]] += 1
        hist[sizes[j]] -= 1
        moved += sizes[j] - sizes[i]


def redraw_tables(result, house):
    """Tables that re-draw for the deal after *result* (a plan): those that receive at
    least the profile's ``redraw_at_joins`` players (us_free: 2, US 2 "*If 2 or more
    players are moved to a new table, all players on that table re-draw for deal*");
    none for a final table (it is drawn anew) or a profile without the rule."""
    need = house.get("redraw_at_joins")
    if not need or result["final_table"]:
        return []
    count = {}
    for m in result["moves"]:
        count[m["to"]["table"]] = count.get(m["to"]["table"], 0) + 1
    return sorted(t for t, c in count.items() if c >= need)


# ------------------------------------------------------------------------------- plan

def _rng(seed, what):
    return random.Random("%s|%s" % (seed, what))


def _final_table(room, order):
    n, tables = room["seats_per_table"], room["tables"]
    occupied = [t["table"] for t in tables if t["seats"]]
    keep = [t for t in order if t in occupied][-1]
    players = [(t["table"], s, p) for t in tables for s, p in sorted(t["seats"].items())]
    seats = _rng(room["seed"], "final|%d" % keep).sample(range(1, n + 1), len(players))
    moves = [{"player": p, "from": {"table": tn, "seat": s}, "to": {"table": keep, "seat": new}}
             for (tn, s, p), new in zip(players, seats)]
    broken = [t for t in order if t != keep]
    return {"moves": moves, "broken": broken, "final_table": True}


def plan(room):
    """The balancing/breaking plan for *room* (see the module docstring).

    Raises PlanError on bad input.  Pure: the same room always gives the same plan.
    """
    room = parse_room(room)
    box, house = _house.get(room["profile"])
    n, seed, tables = room["seats_per_table"], room["seed"], room["tables"]
    by_num = {t["table"]: t for t in tables}
    sizes = {t["table"]: len(t["seats"]) for t in tables}
    total = sum(sizes.values())
    order = break_order(list(by_num), house, seed)
    occupied = [t for t in order if sizes[t]]

    if len(occupied) >= 2 and total <= _house.final_size(house, n):
        return _final_table(room, order)

    # Empty tables close at once; then, until the players fit, the occupied tables that
    # cost the fewest moves (lppl, us_free) or the next in the profile's order (wph).
    keep_count = max(1, -(-total // n))
    within = _house.tolerance(house, keep_count)
    moved = room["moved"]
    repeat = {t: sum(1 for p in by_num[t]["seats"].values() if p in moved) for t in occupied}
    count = len(occupied) - keep_count
    if house["break_choice"] == "fewest_moves":
        breaks = fewest_move_breaks(sizes, occupied, count, n, within, repeat)
    else:
        breaks = occupied[:count]
    broken = [t for t in order if not sizes[t]] + breaks
    gone = set(broken)
    kept = [t for t in order if t not in gone]
    rank = {t: i for i, t in enumerate(order)}
    # among tables of equal size, one whose next mover has moved tonight gives last
    first_moved = {t: bool(by_num[t]["seats"]) and
                   by_num[t]["seats"][movers_order(by_num[t], n)[0]] in moved for t in kept}
    tgt = targets([sizes[t] for t in kept], [rank[t] for t in kept], total, n, within,
                  [(first_moved[t], rank[t]) for t in kept])
    target = dict(zip(kept, tgt))

    # Who moves: balancing movers (givers by number), then broken tables (break order).
    movers = []  # (table, seat, player)
    for t in sorted(kept):
        extra = sizes[t] - target[t]
        if extra > 0:
            tb = by_num[t]
            movers += [(t, s, tb["seats"][s]) for s in movers_order(tb, n)[:extra]]
    n_balance = len(movers)
    for t in broken:
        tb = by_num[t]
        movers += [(t, s, tb["seats"][s]) for s in movers_order(tb, n)]

    # Where: receiving slots, balancing movers first (receivers by number), then a
    # seeded draw of tables for the broken tables' players.
    slots = []
    for t in sorted(kept):
        slots += [t] * max(0, target[t] - sizes[t])
    assert len(slots) == len(movers)
    rest = slots[n_balance:]
    _rng(seed, "tables|%s" % ",".join(map(str, broken))).shuffle(rest)
    dest_tables = slots[:n_balance] + rest

    arrivals = {}  # receiving table -> [mover index] in arrival order
    for i, t in enumerate(dest_tables):
        arrivals.setdefault(t, []).append(i)
    dest_seat = {}
    draw = house["break_seating"] == "draw"
    seat_rng = _rng(seed, "seats|%s" % ",".join(map(str, broken)))
    for t in sorted(arrivals):
        tb = by_num[t]
        worst = bb_soonest_seats(tb, n)
        idx = arrivals[t]
        balancers = [i for i in idx if i < n_balance or not draw]
        for i, s in zip(balancers, worst):
            dest_seat[i] = s
        drawn = [i for i in idx if i not in dest_seat]
        if drawn:
            taken = {dest_seat[i] for i in idx if i in dest_seat}
            ok, fallback = draw_seats(tb, n, box["wait_zone"])
            ok = [s for s in ok if s not in taken]
            seat_rng.shuffle(ok)
            fallback = [s for s in fallback if s not in taken]
            for i, s in zip(drawn, ok + fallback):
                dest_seat[i] = s
    moves = [{"player": p, "from": {"table": t, "seat": s},
              "to": {"table": dest_tables[i], "seat": dest_seat[i]}}
             for i, (t, s, p) in enumerate(movers)]
    return {"moves": moves, "broken": broken, "final_table": False}
