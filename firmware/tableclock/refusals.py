"""The sentences of the engine's refusals, by number: ``Refused(5, 4)``
reads "Seat 4 is empty" (fields.Refused fills it in when the refusal is shown).

Loaded at the first refusal, not with the engine: the modules that check every
event held these sentences all night although a box rarely refuses one (issue
#20: 5.3 KB of heap, .mpy; the 200-hand replay 76 -> 71 KiB).  Each raise names
its sentence in a comment (tests/host/test_refusals.py checks them).  Modules
loaded at rare moments (procedures.py, outofturn.py) keep their sentences where
they refuse.  Append new sentences: a number, once given, keeps its sentence.
"""

TEXT = (
    # -- an event and its seat (table.py)
    'An event must be an object like {"do": "call"}',  # 0
    'An event needs "do" naming what happened, e.g. "call"',  # 1
    "Unknown event %r",  # 2
    'This event needs "seat": a seat number',  # 3
    "There is no seat %d at this %d-seat table",  # 4
    "Seat %d is empty",  # 5
    "Seat %d is taken",  # 6
    "No hand is running: press New hand first",  # 7
    "Betting is over: enter the showdown",  # 8
    "It is seat %d's turn to act",  # 9
    "Finish the hand first, then %s",  # 10
    # -- a new hand (hand.py)
    "Finish the current hand first",  # 11
    "This table is broken: no more hands here",  # 12
    "Hand for hand: wait for the TD",  # 13
    "Re-draw: wait for the TD",  # 14
    "First the TD's %s at seat %d",  # 15
    "No new hand during the break (%d s left)",  # 16
    "The clock is paused: resume it to deal",  # 17
    "Need at least two players with chips to deal a hand",  # 18
    "Need at least two players who may be dealt in",  # 19
    "Nobody here to play: every player is away or on penalty",  # 20
    # -- betting and the showdown (actions.py)
    "Seat %d cannot check: call %d or fold",  # 21
    'A bet or raise needs "to": the total for this street',  # 22
    "Seat %d: a raise must go above the bet of %d (to match it, call)",  # 23
    "Seat %d has only %d: the most it can %s to is %d",  # 24
    "Seat %d can only call or fold: the all-in was not a full raise",  # 25
    "Seat %d checked out of turn: now call or fold",  # 26
    "Nobody left can call a raise: seat %d can call or fold",  # 27
    "Seat %d: the minimum %s is to %d",  # 28
    "Betting is not finished yet",  # 29
    'Showdown needs "ranking": tiers of seats, best first: [[3], [1, 5]]',  # 30
    "The ranking must include every live hand: seat %d is missing",  # 31
    "The ranking names %r, which has no live cards",  # 32
    "The ranking names seat %d twice",  # 33
    # -- seats (floor.py) and the called clock (clock.py)
    "Seat %d is already away",  # 34
    "Seat %d is already away on TD business",  # 35
    "Seat %d is not away",  # 36
    'Sit needs "stack": the player\'s chips, a positive whole number',  # 37
    '"away_used" must be true or false',  # 38
    "Seat %d is still in this hand: finish the hand first",  # 39
    'No colour-up is due: give "chip", the smallest chip left in play',  # 40
    'Jump needs "level": the level number',  # 41
    "The clock is already running on seat %d",  # 42
    "Seat %d is away on TD business: the table waits",  # 43
    # -- an event's fields (fields.py)
    '"%s" must be a whole number, not %r',  # 44
    'This needs "%s": %sseconds from %d to %d',  # 45
    # -- a player's history from another table (floor.py carry)
    '"%s" must be a whole number from 0 to %d',  # 46
)
