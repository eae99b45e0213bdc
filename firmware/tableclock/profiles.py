"""House-rule profiles: the differences between the three rule texts, as data.

``lppl``    LivePubPokerLeague house rules (shared/seeds/000_...).
``us_free`` U.S. "free" poker league play rules (shared/seeds/003_...).
``wph``     WPH league house rules on Poker TDA 2022 (shared/seeds/004_...).

Every behaviour that differs between leagues is looked up here by name; the
engine modules never test a profile's name.  docs/rules.md quotes the sentence
behind each value.
"""

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict  # noqa: F401 (type comments)


# min_raise: how the smallest legal raise is computed (see betting.py)
#   "tda"        highest bet + last full raise                (TDA 37/41)
#   "complete"   last full bet + last full raise: a short all-in is a call
#                ("UNDER-RAISE ... played as though the person has called")
#   "double"     twice the last complete bet ("at least double")
# away: what the table does for a player away from the seat (see away.py)
#   "lppl"       dealt in, auto check/fold, SB+BB twice then a BB every hand
#   "dead_deal"  hand dead at the deal, blinds posted when due (TDA 26)
#   "muck"       dealt in, blinds when due, hand mucked when action reaches it
# wait_zone: where a newly seated player must wait for the button to pass
#   "button_sb"  the button seat, the SB position and any seat between them
#   "sb_between" the SB position and seats between it and the button (WPH:
#                "Players added to a table at the small blind position must
#                wait"; TDA 7 "except between the SB and button")
#   "between"    only seats strictly between the button and the SB (TDA 7)
# slow_play_folds: after one warning, slow play folds the hand (LPPL)
# bust_tiebreak_hand: same-hand busts with equal starting chips are ordered
#                by the showdown ranking (LPPL) before being left to the TD
# colour_up_rounding: "nearest" (to the nearest unit) or "up" (not raced)
# away_auto: what an away seat does when the action reaches it
#   "check_fold" check when free, else fold;  "fold" always fold
# clock_expiry: what a called clock running out does
#   "tda"       dead facing a bet, else checked (TDA 25)
#   "slow_play" slow play: a warning the first time, a fold after (LPPL ¶51)
#   "alert"     the clock shows 0 and flashes until the player acts (US 4
#               "not to be used as a strict enforcement")
# oot: an action out of turn -- "tda" binding unless the action to the player
#   changed (TDA 47), "binding" taken when the play gets to them (LPPL ¶49)
# under_raise: an amount below the minimum raise declared out of turn without
#   the word "raise" (act "bet" facing a bet), when it binds -- "half" a full
#   minimum raise from half a raise up, a call below (TDA 37-A); "call" a
#   call (LPPL ¶48 "the action will be for a 'call' only")
# killed_bet: a hand killed by the TD with a bet nobody called
#   "dead" the chips stay in the pot;  "returned" the uncalled part goes
#   back (TDA 59-A)

PROFILES = {
    "lppl": {
        "name": "LivePubPokerLeague",
        "min_raise": "complete",
        "oot": "binding",
        "under_raise": "call",
        "clock_expiry": "slow_play",
        "away": "lppl",
        "away_auto": "check_fold",
        "killed_bet": "dead",
        "away_rounds": 2,
        "wait_zone": "button_sb",
        "shot_clock": 60,
        "shot_warning": 10,
        "colour_up_rounding": "nearest",
        "colour_ups": [
            {"after_level": 5, "remove": [25, 50], "chip": 100},
            {"after_level": 10, "remove": [100], "chip": 500},
        ],
        # levels may be dropped only after this colour-up has happened
        "drop_levels_after": 10,
        "late_entry_until_level": 3,
        "allins_show_first": True,
        "bust_tiebreak_hand": True,
        "slow_play_folds": True,
    },
    "us_free": {
        "name": "U.S. free poker league",
        "min_raise": "double",
        "oot": "tda",
        "under_raise": "half",
        "clock_expiry": "alert",
        "away": "muck",
        "away_auto": "fold",
        "killed_bet": "dead",
        "away_rounds": 0,
        "wait_zone": "between",
        "shot_clock": 30,
        "shot_warning": 10,
        "colour_up_rounding": "up",
        "colour_ups": [],
        "drop_levels_after": 0,
        "late_entry_until_level": None,
        "allins_show_first": False,
        "bust_tiebreak_hand": False,
        "slow_play_folds": False,
    },
    "wph": {
        "name": "WPH league (Poker TDA 2022)",
        "min_raise": "tda",
        "oot": "tda",
        "under_raise": "half",
        "clock_expiry": "tda",
        "away": "dead_deal",
        "away_auto": "check_fold",
        "killed_bet": "returned",
        "away_rounds": 0,
        "wait_zone": "sb_between",
        "shot_clock": 60,
        "shot_warning": 10,
        "colour_up_rounding": "up",
        "colour_ups": [],
        "drop_levels_after": 0,
        "late_entry_until_level": None,
        "allins_show_first": False,
        "bust_tiebreak_hand": False,
        "slow_play_folds": False,
    },
}


def get(name):  # type: (Any) -> Dict[str, Any]
    """Return the profile dict called *name*; ValueError names the known ones."""
    profile = PROFILES.get(name) if isinstance(name, str) else None
    if profile is None:
        raise ValueError(
            "unknown profile %r (use one of: %s)" % (name, ", ".join(sorted(PROFILES)))
        )
    return profile
