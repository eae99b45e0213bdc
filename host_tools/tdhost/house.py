"""Host-only house-rule settings, keyed by the profile names of tableclock.profiles.

The boxes' settings (betting, away seats, wait zone, ...) live in
firmware/tableclock/profiles.py and are not repeated here.  This dict holds what
only the host needs: how the room is balanced and broken.  docs/balancing.md quotes
the rule sentence behind every value.

within          the largest allowed difference between the fullest and the emptiest
                table after a plan, once the room is down to `narrow_at_tables`
                tables or fewer
within_early    the same while more than `narrow_at_tables` tables remain after the plan
narrow_at_tables  see above (None: `within` applies at any number of tables)
break_order     which table breaks first when the players fit one table fewer:
                "highest"  the highest table number first
                "random"   a random order fixed by the room's seed (TDA RP-19); the
                           order of two tables never changes while both are open
break_choice    which occupied tables break when the players fit one table fewer:
                "fewest_moves"  the tables whose closing costs the fewest moves; among
                           choices that cost the same, tables whose players have moved
                           tonight least, then break_order (the announced order)
                "order"    simply the next ones in break_order (TDA RP-19's preset order)
break_seating   where players from a broken table sit:
                "worst"    like balancing moves: the worst positions of the receiving
                           table, in their moving order (the table is chosen by seeded draw)
                "draw"     a seeded random draw of table and seat (TDA 7 "players from
                           broken tables can get any seat ... except between the SB and
                           button")
join_seating    where a player joining a table on the live night sits (a latecomer, a
                player seated elsewhere; tdhost.liveplan.joining_seat):
                "worst"    the first free seat clockwise after the last BB seat (LPPL
                           ¶45 "join from the Big Blind position or the next available
                           seat to the left of the Big Blind")
                "dealt_in" a seeded draw among the free seats where the box deals them
                           in at once (WPH 7 "can get any seat ... and be dealt in, except
                           between the SB and button")
                "draw"     the seeded draw of a free seat (no rule in the text)
redraw_at_joins  when this many players join one table in one plan, everybody at that
                table re-draws for the deal (None: never; us_free: 2, US 2 "If 2 or more
                players are moved to a new table, all players on that table re-draw for
                deal"; tdhost.liveredraw)
final_table_size  the room combines to one table when this many players remain (None:
                the table size, i.e. as soon as everybody fits one table); never more
                than the room's seats_per_table
"""

from tableclock import profiles

HOUSE = {
    "lppl": {
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
assert sorted(HOUSE) == sorted(profiles.PROFILES), "tdhost.house.HOUSE and profiles.PROFILES differ"


def get(name):
    """(box profile dict, host settings dict) for *name*; ValueError names the known ones."""
    box = profiles.get(name)
    return box, HOUSE[name]


def tolerance(house, tables):
    """The allowed spread (fullest minus emptiest table) with *tables* tables open."""
    narrow = house["narrow_at_tables"]
    if narrow is not None and tables > narrow:
        return house["within_early"]
    return house["within"]


def final_size(house, seats_per_table):
    """How many players (at most) make the final table."""
    size = house["final_table_size"]
    return seats_per_table if size is None else min(size, seats_per_table)
