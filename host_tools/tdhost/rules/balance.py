"""The balancing and breaking plan (``tdhost plan``): pure functions, no I/O.

``plan(room)`` takes the last hand's seats at every table and returns the moves that keep
the tables even, the tables that break and whether the final table forms.  Seat order is
tableclock.button's (tdhost.rules.seat_order); the profile's settings are tdhost.rules.house.
docs/balancing.md gives the input and output, the algorithm and the bound on moves.
"""

import hashlib
import heapq
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, NoReturn, TypedDict

from tdhost.rules import house as _house
from tdhost.rules.seat_order import (
    SeatedTable,
    bb_soonest_seats,
    draw_seats,
    movers_order,
    position_error,
)

ROOM_KEYS = ("profile", "seats_per_table", "seed", "tables")
OPTIONAL_KEYS = ("moved", "closed")  # players who have moved tables tonight (a tie-break);
# tables a box has broken already (they break first, as long as the players fit elsewhere)
TABLE_KEYS = ("table", "seats", "button", "sb", "bb")
MIN_SEATS, MAX_SEATS = 2, 10  # what a box accepts (docs/rules.md: a table has 2..10 seats)


class PlanError(ValueError):
    """The room is not a valid plan input; str(err) is one sentence saying what is wrong."""


class RoomTable(SeatedTable):
    table: int


class PlanInput(TypedDict):
    """A checked plan input (parse_room)."""
    profile: str
    seats_per_table: int
    seed: int | str
    tables: list[RoomTable]  # by number
    moved: set[str]  # seated players who have moved tables tonight
    closed: list[int]  # tables of the room a box has broken already


class Place(TypedDict):
    table: int
    seat: int


PlanMove = TypedDict("PlanMove", {"player": str, "from": Place, "to": Place})


class BalancePlan(TypedDict):
    moves: list[PlanMove]
    broken: list[int]  # in break order
    final_table: bool


# ------------------------------------------------------------------------------- input

def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fail(msg: str) -> NoReturn:
    raise PlanError(msg if msg.endswith(".") else msg + ".")


def _keys(obj: dict[Any, Any], required: Sequence[str], where: str,
          optional: Sequence[str] = ()) -> None:
    missing = [k for k in required if k not in obj]
    if missing:
        _fail("%s is missing %s" % (where, ", ".join(repr(k) for k in missing)))
    extra = sorted(str(k) for k in obj if k not in required and k not in optional)
    if extra:
        _fail("%s has unknown key%s %s (expected %s)" % (
            where, "s" if len(extra) > 1 else "", ", ".join(repr(k) for k in extra),
            ", ".join(repr(k) for k in required)))


def _seat_no(value: object, seats_per_table: int, what: str) -> int:
    """A seat number from JSON: an int, or (as an object key) a string of ASCII digits."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 3:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        _fail("%s must be a seat number, not %r" % (what, value))
    if not 1 <= value <= seats_per_table:
        _fail("%s is seat %d, outside 1..%d" % (what, value, seats_per_table))
    return value


def _parse_table(index: int, raw: object, seats_per_table: int,
                 where_is: dict[str, tuple[int, int]], numbers: set[int]) -> RoomTable:
    """tables[*index*] checked; *where_is* and *numbers* collect the players and tables."""
    if not isinstance(raw, dict):
        _fail("tables[%d] must be an object with keys %s"
              % (index, ", ".join(repr(k) for k in TABLE_KEYS)))
    num = raw.get("table")
    name = "table %s" % num if _is_int(num) else "tables[%d]" % index
    _keys(raw, TABLE_KEYS, name)
    if not isinstance(num, int) or isinstance(num, bool) or num < 1:
        _fail("tables[%d]: the table number must be a whole number from 1, not %r"
                     % (index, num))
    if num in numbers:
        _fail("table %d is listed twice" % num)
    numbers.add(num)
    seats_in = raw["seats"]
    if not isinstance(seats_in, dict):
        _fail("table %d: seats must be an object {\"seat\": \"player\"}" % num)
    seats: dict[int, str] = {}
    for key, player in seats_in.items():
        seat = _seat_no(key, seats_per_table, "table %d: a key of seats" % num)
        if seat in seats:
            _fail("table %d: seat %d is given twice" % (num, seat))
        if not isinstance(player, str) or not player.strip():
            _fail("table %d seat %d: the player must be a non-empty string, not %r"
                  % (num, seat, player))
        if player in where_is:
            other_table, other_seat = where_is[player]
            _fail("player %r is seated twice: table %d seat %d and table %d seat %d"
                  % (player, other_table, other_seat, num, seat))
        where_is[player] = (num, seat)
        seats[seat] = player
    button = _seat_no(raw["button"], seats_per_table, "table %d: button" % num)
    bb = _seat_no(raw["bb"], seats_per_table, "table %d: bb" % num)
    sb = None if raw["sb"] is None else _seat_no(raw["sb"], seats_per_table,
                                                 "table %d: sb" % num)
    why = position_error(button, sb, bb, seats_per_table)
    if why:
        _fail("table %d: %s" % (num, why))
    return RoomTable(table=num, seats=seats, button=button, sb=sb, bb=bb)


def parse_room(room: object) -> PlanInput:
    """Check a plan input and return it normalised.

    Returns {"profile", "seats_per_table", "seed", "tables", "moved"} with the tables
    sorted by number, each {"table": int, "seats": {int seat: str player}, "button": int,
    "sb": int or None, "bb": int}, and "moved" the set of players who have moved tables
    tonight (optional in the input; names not seated now are ignored), "closed" the tables
    of the room a box has broken already (optional; they break first while the players fit
    at the others, and never hold the final table).  Raises PlanError
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
    seats_per_table = room["seats_per_table"]
    if not _is_int(seats_per_table) or not MIN_SEATS <= seats_per_table <= MAX_SEATS:
        _fail("seats_per_table must be a whole number from %d to %d, not %r"
              % (MIN_SEATS, MAX_SEATS, seats_per_table))
    seed = room["seed"]
    if not (_is_int(seed) or isinstance(seed, str)):
        _fail("seed must be a whole number or a string, not %r" % (seed,))
    tables = room["tables"]
    if not isinstance(tables, list) or not tables:
        _fail("tables must be a non-empty list of tables")
    where_is: dict[str, tuple[int, int]] = {}
    numbers: set[int] = set()
    out = [_parse_table(i, raw, seats_per_table, where_is, numbers)
           for i, raw in enumerate(tables)]
    if not where_is:
        _fail("the room has no players: nothing to balance")
    moved = room.get("moved", [])
    if not isinstance(moved, list) or not all(isinstance(name, str) for name in moved):
        _fail("moved must be a list of the players who have moved tables tonight")
    closed = room.get("closed", [])
    if not isinstance(closed, list) or not all(_is_int(num) for num in closed):
        _fail("closed must be a list of the numbers of the tables a box has broken")
    out.sort(key=lambda table: table["table"])
    return {"profile": profile, "seats_per_table": seats_per_table, "seed": seed,
            "tables": out, "moved": {name for name in moved if name in where_is},
            "closed": sorted({num for num in closed if num in numbers})}


# ------------------------------------------------------------------- sizes and bounds

def break_order(numbers: Sequence[int], house: _house.HouseRules,
                seed: int | str) -> list[int]:
    """Table numbers in the order they break (first breaks first).

    "highest": highest number first.  "random": ordered by a hash of (seed, table), so
    the order of any two tables is fixed for the whole tournament (TDA RP-19).
    """
    if house["break_order"] == "highest":
        return sorted(numbers, reverse=True)

    def key(num: int) -> tuple[str, int]:
        digest = hashlib.sha256(("%s|break|%d" % (seed, num)).encode("utf-8")).hexdigest()
        return (digest, num)
    return sorted(numbers, key=key)


def _water(sizes: list[int], count: int, cap: int, up: bool,
           key: Sequence[Any]) -> list[int]:
    """Move *count* units into (up) or out of (not up) the list *sizes*, evening it out;
    among equal values the smallest key[i] goes first."""
    if count == 0:
        return sizes
    # A heap of the extreme values, one step at a time: count <= tables * spread.
    sign = 1 if up else -1
    heap = [(sign * size, key[i], i) for i, size in enumerate(sizes)
            if (size < cap if up else size > cap)]
    heapq.heapify(heap)
    for _ in range(count):
        _, k, i = heapq.heappop(heap)
        sizes[i] += sign
        if sizes[i] < cap if up else sizes[i] > cap:
            heapq.heappush(heap, (sign * sizes[i], k, i))
    return sizes


def targets(sizes: list[int], ranks: list[int], total: int, seats_per_table: int,
            within: int, give: Sequence[Any] | None = None) -> list[int] | None:
    """Target sizes for the kept tables that need the fewest moves.

    *sizes* and *ranks* are lists over the kept tables (current players, position in the
    break order); *total* players must be seated, at most *seats_per_table* per table,
    with the fullest and emptiest table at most *within* apart.  For each window
    [L, L+within] the sizes clamped into the window are raised (lowered) one at a time
    where lowest (highest) until they sum to *total*: each step is one move, so the
    cheapest window is optimal (docs/balancing.md §3).  Ties: fewer moves, a smaller
    spread, the lower window.  Among equal sizes the table breaking last receives first,
    and the smallest *give* key (default: its rank) gives first.
    """
    give = ranks if give is None else give
    receive = [-rank for rank in ranks]
    best: tuple[tuple[int, int, int], list[int]] | None = None
    for low in range(0, seats_per_table + 1):
        high = min(low + within, seats_per_table)
        kept = len(sizes)
        if not kept * low <= total <= kept * high:
            continue
        goal = [min(max(size, low), high) for size in sizes]
        diff = total - sum(goal)
        if diff > 0:
            goal = _water(goal, diff, high, True, receive)
        elif diff < 0:
            goal = _water(goal, -diff, low, False, give)
        out = sum(max(0, size - want) for size, want in zip(sizes, goal))
        key = (out, max(goal) - min(goal), low)
        if best is None or key < best[0]:
            best = (key, goal)
    return None if best is None else best[1]


def move_lower_bound(sizes: dict[int, int], broken: Sequence[int], seats_per_table: int,
                     within: int) -> int | None:
    """The fewest moves that leave every kept table within *within* of the others.

    *sizes*: {table: players}; *broken*: tables that close (all their players move).
    Over every window [L, L+within] (capped at the table size) that can hold the players,
    at least max(arrivals needed to lift the kept tables to L, broken players + departures
    needed to bring the kept tables down to the top of the window) moves are needed.
    """
    kept = [size for num, size in sizes.items() if num not in broken]
    moved = sum(size for num, size in sizes.items() if num in broken)
    total = sum(sizes.values())
    best = None
    for low in range(0, seats_per_table + 1):
        high = min(low + within, seats_per_table)
        if not len(kept) * low <= total <= len(kept) * high:
            continue
        need_in = sum(max(0, low - size) for size in kept)
        need_out = moved + sum(max(0, size - high) for size in kept)
        bound = max(need_in, need_out)
        best = bound if best is None else min(best, bound)
    return best


def _hist_bound(hist: list[int], moved: int, total: int, kept: int, seats_per_table: int,
                within: int) -> int | None:
    """move_lower_bound from a histogram: hist[c] kept tables hold c players, *moved*
    players sit at broken tables, *kept* tables stay open."""
    best = None
    for low in range(0, seats_per_table + 1):
        high = min(low + within, seats_per_table)
        if not kept * low <= total <= kept * high:
            continue
        need_in = sum(hist[size] * (low - size) for size in range(low))
        need_out = moved + sum(hist[size] * (size - high)
                               for size in range(high + 1, seats_per_table + 1))
        bound = max(need_in, need_out)
        best = bound if best is None else min(best, bound)
    return best


def fewest_move_breaks(sizes: dict[int, int], order: Sequence[int], count: int,
                       seats_per_table: int, within: int,
                       repeat: dict[int, int] | None = None) -> list[int]:
    """The *count* tables of *order* (occupied tables, announced break order) to break so
    that the plan needs the fewest moves.

    Breaking the smallest tables is always cheapest (docs/balancing.md §4).  Among choices
    that cost the same, tables whose players have moved tonight fewer times (*repeat*:
    {table: players there who moved}) break first, then the announced order; swaps
    between size classes that keep the cost are made while they improve that (each swap
    strictly improves it, so this ends).
    """
    repeat = repeat or {}
    pos = {num: i for i, num in enumerate(order)}

    def key(num: int) -> tuple[int, int]:
        return (repeat.get(num, 0), pos[num])
    total = sum(sizes[num] for num in order)
    broken = sorted(order, key=lambda num: (sizes[num], key(num)))[:count]
    if not broken or len(broken) == len(order):
        return [num for num in order if num in set(broken)]
    gone = set(broken)
    kept_count = len(order) - count
    hist = [0] * (seats_per_table + 1)
    for num in order:
        if num not in gone:
            hist[sizes[num]] += 1
    moved = sum(sizes[num] for num in broken)
    cost = _hist_bound(hist, moved, total, kept_count, seats_per_table, within)
    while True:
        # the worst broken table and the best kept one of each size
        worst: dict[int, int] = {}
        best: dict[int, int] = {}
        for num in order:
            size = sizes[num]
            if num in gone:
                if size not in worst or key(num) > key(worst[size]):
                    worst[size] = num
            elif size not in best or key(num) < key(best[size]):
                best[size] = num
        swap = None  # the improving swap that brings in the best table
        for out_size, out_num in worst.items():
            for in_size, in_num in best.items():
                if out_size == in_size or key(in_num) >= key(out_num):
                    continue
                if swap is not None and (key(in_num), [-x for x in key(out_num)]) >= \
                        (key(swap[1]), [-x for x in key(swap[0])]):
                    continue
                hist[out_size] += 1
                hist[in_size] -= 1
                if _hist_bound(hist, moved - out_size + in_size, total, kept_count,
                               seats_per_table, within) == cost:
                    swap = (out_num, in_num)
                hist[out_size] -= 1
                hist[in_size] += 1
        if swap is None:
            return [num for num in order if num in gone]
        out_num, in_num = swap
        gone.discard(out_num)
        gone.add(in_num)
        hist[sizes[out_num]] += 1
        hist[sizes[in_num]] -= 1
        moved += sizes[in_num] - sizes[out_num]


def redraw_tables(result: BalancePlan, house: _house.HouseRules) -> list[int]:
    """Tables that re-draw for the deal after *result* (a plan): those that receive at
    least the profile's ``redraw_at_joins`` players (us_free: 2, US 2 "*If 2 or more
    players are moved to a new table, all players on that table re-draw for deal*");
    none for a final table (it is drawn anew) or a profile without the rule."""
    need = house.get("redraw_at_joins")
    if not need or result["final_table"]:
        return []
    count: dict[int, int] = {}
    for move in result["moves"]:
        count[move["to"]["table"]] = count.get(move["to"]["table"], 0) + 1
    return sorted(num for num, arrivals in count.items() if arrivals >= need)


# ------------------------------------------------------------------------------- plan

def _rng(seed: Hashable, what: str) -> random.Random:
    return random.Random("%s|%s" % (seed, what))


def final_table(room: Mapping[str, Any], order: Sequence[int]) -> BalancePlan:
    """The plan that combines the room into the last table of *order* that has players,
    at seats drawn from the room's seed (also the final-table draw: tdhost.rules.draw)."""
    seats_per_table, tables = room["seats_per_table"], room["tables"]
    occupied = [table["table"] for table in tables if table["seats"]]
    keep = [num for num in order if num in occupied][-1]
    players = [(table["table"], seat, player) for table in tables
               for seat, player in sorted(table["seats"].items())]
    seats = _rng(room["seed"], "final|%d" % keep).sample(range(1, seats_per_table + 1),
                                                         len(players))
    moves: list[PlanMove] = [{"player": player, "from": {"table": num, "seat": seat},
                              "to": {"table": keep, "seat": new}}
             for (num, seat, player), new in zip(players, seats)]
    broken = [num for num in order if num != keep]
    return {"moves": moves, "broken": broken, "final_table": True}


def plan(raw_room: object) -> BalancePlan:
    """The balancing/breaking plan for *raw_room* (the module notes).

    Raises PlanError on bad input.  Pure: the same room always gives the same plan.
    """
    room = parse_room(raw_room)
    box, house = _house.get(room["profile"])
    seats_per_table, seed, tables = room["seats_per_table"], room["seed"], room["tables"]
    by_num = {table["table"]: table for table in tables}
    sizes = {table["table"]: len(table["seats"]) for table in tables}
    total = sum(sizes.values())
    order = break_order(list(by_num), house, seed)
    # a table its box has broken already breaks first (no instruction opens it again)
    closed = [num for num in order if num in set(room.get("closed", ()))]
    order = closed + [num for num in order if num not in set(closed)]
    occupied = [num for num in order if sizes[num]]

    if len(occupied) >= 2 and total <= _house.final_size(house, seats_per_table):
        return final_table(room, order)

    # Empty tables close at once; then, until the players fit, the occupied tables that
    # cost the fewest moves (lppl, us_free) or the next in the profile's order (wph).
    keep_count = max(1, -(-total // seats_per_table))
    within = _house.tolerance(house, keep_count)
    moved = room["moved"]
    repeat = {num: sum(1 for player in by_num[num]["seats"].values() if player in moved)
              for num in occupied}
    count = len(occupied) - keep_count
    forced = [num for num in occupied if num in set(closed)][:max(count, 0)]
    rest = [num for num in occupied if num not in set(forced)]
    if house["break_choice"] == "fewest_moves":
        breaks = forced + fewest_move_breaks(sizes, rest, count - len(forced), seats_per_table,
                                             within, repeat)
    else:
        breaks = forced + rest[:count - len(forced)]
    broken = [num for num in order if not sizes[num]] + breaks
    gone = set(broken)
    kept = [num for num in order if num not in gone]
    rank = {num: i for i, num in enumerate(order)}
    # among tables of equal size, one whose next mover has moved tonight gives last
    first_moved = {num: bool(by_num[num]["seats"]) and by_num[num]["seats"][
        movers_order(by_num[num], seats_per_table)[0]] in moved for num in kept}
    goal = targets([sizes[num] for num in kept], [rank[num] for num in kept], total,
                   seats_per_table, within, [(first_moved[num], rank[num]) for num in kept])
    assert goal is not None
    target = dict(zip(kept, goal))
    movers, n_balance = _movers(by_num, kept, broken, sizes, target, seats_per_table)
    dest_tables = _destinations(kept, broken, sizes, target, n_balance, seed)
    assert len(dest_tables) == len(movers)
    draw = house["break_seating"] == "draw"
    dest_seat = _seats_for(by_num, dest_tables, n_balance, draw, box["wait_zone"],
                           seats_per_table, _rng(seed, "seats|%s" % ",".join(map(str, broken))))
    moves: list[PlanMove] = [{"player": player, "from": {"table": num, "seat": seat},
                              "to": {"table": dest_tables[i], "seat": dest_seat[i]}}
             for i, (num, seat, player) in enumerate(movers)]
    return {"moves": moves, "broken": broken, "final_table": False}


def _movers(by_num: dict[int, RoomTable], kept: list[int], broken: list[int],
            sizes: dict[int, int], target: dict[int, int],
            seats_per_table: int) -> tuple[list[tuple[int, int, str]], int]:
    """Who moves, as (table, seat, player): balancing movers (givers by number), then the
    broken tables' players (break order); and how many balancing movers lead the list."""
    movers = []
    for num in sorted(kept):
        extra = sizes[num] - target[num]
        if extra > 0:
            table = by_num[num]
            movers += [(num, seat, table["seats"][seat])
                       for seat in movers_order(table, seats_per_table)[:extra]]
    n_balance = len(movers)
    for num in broken:
        table = by_num[num]
        movers += [(num, seat, table["seats"][seat])
                   for seat in movers_order(table, seats_per_table)]
    return movers, n_balance


def _destinations(kept: list[int], broken: list[int], sizes: dict[int, int],
                  target: dict[int, int], n_balance: int, seed: int | str) -> list[int]:
    """Each mover's receiving table: balancing movers first (receivers by number), then a
    seeded draw of tables for the broken tables' players."""
    slots = []
    for num in sorted(kept):
        slots += [num] * max(0, target[num] - sizes[num])
    rest = slots[n_balance:]
    _rng(seed, "tables|%s" % ",".join(map(str, broken))).shuffle(rest)
    return slots[:n_balance] + rest


def _seats_for(by_num: dict[int, RoomTable], dest_tables: list[int], n_balance: int,
               draw: bool, wait_zone: str, seats_per_table: int,
               seat_rng: random.Random) -> dict[int, int]:
    """{mover index: seat}: the worst positions in moving order (balancing movers, and
    every mover unless broken tables' players are drawn), else a seeded draw of the seats
    dealt in at once (tdhost.rules.seat_order.draw_seats)."""
    arrivals: dict[int, list[int]] = {}  # receiving table -> [mover index] in arrival order
    for i, num in enumerate(dest_tables):
        arrivals.setdefault(num, []).append(i)
    dest_seat: dict[int, int] = {}
    for num in sorted(arrivals):
        table = by_num[num]
        worst = bb_soonest_seats(table, seats_per_table)
        idx = arrivals[num]
        balancers = [i for i in idx if i < n_balance or not draw]
        for i, seat in zip(balancers, worst):
            dest_seat[i] = seat
        drawn = [i for i in idx if i not in dest_seat]
        if drawn:
            taken = {dest_seat[i] for i in idx if i in dest_seat}
            ok, fallback = draw_seats(table, seats_per_table, wait_zone)
            ok = [seat for seat in ok if seat not in taken]
            seat_rng.shuffle(ok)
            fallback = [seat for seat in fallback if seat not in taken]
            for i, seat in zip(drawn, ok + fallback):
                dest_seat[i] = seat
    return dest_seat
