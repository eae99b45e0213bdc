"""Each profile's host-side house rules in one record: registration, late entry, the first
button, same-hand busts, balancing and breaking.

The boxes' settings (betting, away seats, wait zone, ...) stay in
firmware/tableclock/profiles.py; ``get(name)`` returns both.  docs/host.md §3 and
docs/balancing.md §6 quote the rule sentence behind every value.
"""

from typing import Any, Literal, TypedDict

from tableclock import profiles

BoxProfile = dict[str, Any]  # one entry of tableclock.profiles.PROFILES


class FieldLimits(TypedDict):
    max_players: int | None     # the cap on entries (None: the file must say, or no cap)
    standby: int                # the most players on the standby list once the cap is reached
    starting_stack: int | None  # default starting stack (None: the file must give one)


class LateEntry(TypedDict):
    """Latecomers (the window itself is the box's ``late_entry_until_level``)."""
    min_players: int | None   # LPPL ¶12: this many remain before a latecomer joins, or fewer
    #                           started on time and nobody is out yet
    grace_minutes: int        # LPPL ¶13: within this many minutes the whole stack (0: none)
    grace_dead_bb: bool       # ... and a dead big blind posted to enter
    deductions: list[int]     # chips removed per level (a latecomer in level k: the first k)
    deepstack_deductions: list[int]  # the same for a deepstack game
    absent_deductions: bool   # LPPL ¶14: they apply to registered players absent at the start
    standby_replaces_absent: bool  # LPPL ¶14: a standby player replaces an absent one at once


class HouseRules(TypedDict):
    field: FieldLimits
    late: LateEntry
    # who deals first after the draw: "lowest_card" (LPPL ¶10; without cards the lowest
    # occupied seat), "seat_1" (WPH ¶13), "high_card" (US 2: suits s, h, d, c)
    first_button: Literal["lowest_card", "seat_1", "high_card"]
    # LPPL ¶46: same-hand busts still equal after chips and cards: the league leaderboard,
    # then the previous one
    bust_tiebreak_leaderboard: bool
    # the largest spread (fullest minus emptiest table) after a plan once the room is down
    # to narrow_at_tables tables or fewer; within_early above that (None: always within)
    within: int
    within_early: int
    narrow_at_tables: int | None
    # which table breaks first: "highest" number, or "random" by the room's seed (TDA RP-19)
    break_order: Literal["highest", "random"]
    # which tables break: "fewest_moves" (then fewest moved tonight, then break_order) or
    # "order" (the next ones in break_order)
    break_choice: Literal["fewest_moves", "order"]
    # a broken table's players: "worst" positions like balancing moves, or a seeded "draw"
    # of table and seat (TDA 7)
    break_seating: Literal["worst", "draw"]
    # a player joining a table on the live night (tdhost.live.room_plan.joining_seat): "worst"
    # (LPPL ¶45, from the BB), "dealt_in" (WPH 7, a draw among seats dealt in at once),
    # "draw" (the seeded draw)
    join_seating: Literal["worst", "dealt_in", "draw"]
    # this many players joining one table in one plan re-draw for the deal (US 2; None: never)
    redraw_at_joins: int | None
    # the room combines to one table at this many players (None: the table size)
    final_table_size: int | None


NO_LATE_RULES: LateEntry = {
    "min_players": None, "grace_minutes": 0, "grace_dead_bb": False, "deductions": [],
    "deepstack_deductions": [], "absent_deductions": False, "standby_replaces_absent": False,
}

HOUSE: dict[str, HouseRules] = {
    "lppl": {
        "field": {"max_players": 48, "standby": 8, "starting_stack": 3000},
        "late": {
            "min_players": 17,
            "grace_minutes": 5,
            "grace_dead_bb": True,
            "deductions": [500, 1000],
            "deepstack_deductions": [750, 1500],
            "absent_deductions": True,
            "standby_replaces_absent": True,
        },
        "first_button": "lowest_card",
        "bust_tiebreak_leaderboard": True,
        "within": 1,
        "within_early": 1,
        "narrow_at_tables": None,
        "break_order": "highest",
        "break_choice": "fewest_moves",
        "break_seating": "worst",
        "join_seating": "worst",
        "redraw_at_joins": None,
        "final_table_size": None,
    },
    "us_free": {
        "field": {"max_players": None, "standby": 0, "starting_stack": None},
        "late": {**NO_LATE_RULES, "deductions": [], "deepstack_deductions": []},
        "first_button": "high_card",
        "bust_tiebreak_leaderboard": False,
        "within": 1,
        "within_early": 1,
        "narrow_at_tables": None,
        "break_order": "highest",
        "break_choice": "fewest_moves",
        "break_seating": "worst",
        "join_seating": "draw",
        "redraw_at_joins": 2,
        "final_table_size": None,
    },
    "wph": {
        "field": {"max_players": None, "standby": 0, "starting_stack": None},
        "late": {**NO_LATE_RULES, "deductions": [], "deepstack_deductions": []},
        "first_button": "seat_1",
        "bust_tiebreak_leaderboard": False,
        "within": 1,
        "within_early": 2,
        "narrow_at_tables": 3,
        "break_order": "random",
        "break_choice": "order",
        "break_seating": "draw",
        "join_seating": "dealt_in",
        "redraw_at_joins": None,
        "final_table_size": 10,
    },
}

# Every box profile has host settings, and no host setting names an unknown profile.
assert sorted(HOUSE) == sorted(profiles.PROFILES), "HOUSE and tableclock's PROFILES differ"


def get(name: str) -> tuple[BoxProfile, HouseRules]:
    """(box profile, host house rules) for *name*; ValueError names the known profiles."""
    box = profiles.get(name)
    return box, HOUSE[name]


def tolerance(house: HouseRules, tables: int) -> int:
    """The allowed spread (fullest minus emptiest table) with *tables* tables open."""
    narrow = house["narrow_at_tables"]
    if narrow is not None and tables > narrow:
        return house["within_early"]
    return house["within"]


def final_size(house: HouseRules, seats_per_table: int) -> int:
    """How many players (at most) make the final table."""
    size = house["final_table_size"]
    return seats_per_table if size is None else min(size, seats_per_table)
