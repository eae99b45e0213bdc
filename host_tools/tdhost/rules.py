"""Host-only tournament rules per profile: registration, late entry, standby players,
the first seating and same-hand eliminations.

The boxes' rules (betting, away seats, the late-entry *window* `late_entry_until_level`,
`bust_tiebreak_hand`, colour-ups ...) live in firmware/tableclock/profiles.py and are
imported from there, never repeated.  The balancing settings are in tdhost.house.  This
dict holds what only the host decides; docs/host.md quotes the sentence behind every
value.  A tournament file may override the `late` and `field` values (the TD's discretion,
LPPL ¶5); anything it leaves out comes from here.

field
  max_players      the cap on entries (None: the file must say, or no cap)
  standby          the most players on the standby list once the cap is reached
  starting_stack   default starting stack (None: the file must give one)
late
  until_level      late entry (and standby seats) before the start of this level; the
                   box's `late_entry_until_level` (None: no late entry unless the file
                   gives one)
  min_players      LPPL ¶12: at least this many players remain before a latecomer joins,
                   or fewer than this many started on time and nobody is out yet
  grace_minutes    LPPL ¶13: a latecomer within this many minutes of the start keeps the
                   whole stack (0: no grace)
  grace_dead_bb    ... and posts a dead big blind to enter
  deductions       chips removed per level: a latecomer in level k starts with the stack
                   less the first k deductions; a registered player not seated at the start
                   loses the first after `grace_minutes`, the next when level 2 starts, ...
  deepstack_deductions  the same for a deepstack game (`deepstack = true` in the file)
  absent_deductions     whether the deductions apply to registered players not seated at
                   "shuffle up and deal" (LPPL ¶14)
  standby_replaces_absent  LPPL ¶14: at a full start with standby players waiting, a player
                   whose whereabouts are unknown is replaced at once by a standby player
first_button       who deals first after the draw:
                   "lowest_card"  the lowest card of the Ace-8 draw (LPPL ¶10); without
                                  cards, the lowest occupied seat
                   "seat_1"       seat 1, or the lowest occupied seat (WPH ¶13)
                   "high_card"    a draw for high card at the table, suits ranked spades,
                                  hearts, diamonds, clubs (US 2)
bust_tiebreak_leaderboard  LPPL ¶46: same-hand busts still equal after chips and cards are
                   ordered by the league leaderboard, then the previous leaderboard
"""

from tableclock import profiles

RULES = {
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
    },
    "us_free": {
        "field": {"max_players": None, "standby": 0, "starting_stack": None},
        "late": {
            "min_players": None,
            "grace_minutes": 0,
            "grace_dead_bb": False,
            "deductions": [],
            "deepstack_deductions": [],
            "absent_deductions": False,
            "standby_replaces_absent": False,
        },
        "first_button": "high_card",
        "bust_tiebreak_leaderboard": False,
    },
    "wph": {
        "field": {"max_players": None, "standby": 0, "starting_stack": None},
        "late": {
            "min_players": None,
            "grace_minutes": 0,
            "grace_dead_bb": False,
            "deductions": [],
            "deepstack_deductions": [],
            "absent_deductions": False,
            "standby_replaces_absent": False,
        },
        "first_button": "seat_1",
        "bust_tiebreak_leaderboard": False,
    },
}

assert sorted(RULES) == sorted(profiles.PROFILES), "tdhost.rules.RULES and profiles.PROFILES differ"


def get(name):
    """(box profile, host rules) for *name*; ValueError names the known profiles."""
    return profiles.get(name), RULES[name]
