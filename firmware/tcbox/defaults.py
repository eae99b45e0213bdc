"""What a new box runs before the host has sent it a tournament.

A box straight out of the bring-up checklist (hardware/*/bringup.md) has no
saved table and no pairing: it starts this 8-seat LPPL table so the clock,
the keys and the screen can be tried at once.  The host's config replaces
it (docs/protocol.md); the power-loss record replaces it at every later boot.
The levels are an example pub structure (20-minute levels, a break after
level 5 for the first chip-up, as the LPPL rules describe), not the league's.
"""

LEVELS = [
    {"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
    {"sb": 50, "bb": 100, "ante": 0, "minutes": 20},
    {"sb": 75, "bb": 150, "ante": 0, "minutes": 20},
    {"sb": 100, "bb": 200, "ante": 0, "minutes": 20},
    {"sb": 150, "bb": 300, "ante": 0, "minutes": 20},
    {"break": 10},
    {"sb": 200, "bb": 400, "ante": 0, "minutes": 20},
    {"sb": 300, "bb": 600, "ante": 0, "minutes": 20},
    {"sb": 400, "bb": 800, "ante": 0, "minutes": 20},
    {"sb": 500, "bb": 1000, "ante": 0, "minutes": 20},
    {"sb": 600, "bb": 1200, "ante": 0, "minutes": 20},
    {"break": 10},
    {"sb": 1000, "bb": 2000, "ante": 0, "minutes": 20},
    {"sb": 1500, "bb": 3000, "ante": 0, "minutes": 20},
    {"sb": 2000, "bb": 4000, "ante": 0, "minutes": 20},
]

SETUP = {
    "profile": "lppl",
    "seats": 8,
    "players": {"1": 3000, "2": 3000, "3": 3000, "4": 3000, "5": 3000, "6": 3000, "7": 3000,
                "8": 3000},
    "button": 1,
    "chip": 25,
    "levels": LEVELS,
}
