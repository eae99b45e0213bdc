"""What the power-loss record holds, by name: the attributes recorded per class
(``FIELDS``; ``DERIVED``: what ``Table(setup)`` rebuilds), the table's objects
and the finished hand's fields, the tags of encoded values and a level's keys.
Read by record.py (the loader) and dumper.py (the writer), which import this
module and not each other (docs/architecture.md, "Import cycles").
"""

SEPARATORS = (",", ":")  # compact JSON (a module constant: no tuple per call)
# a level of the setup as a record writes it: [sb, bb, ante, minutes]
LEVEL_KEYS = ("sb", "bb", "ante", "minutes")

# Attributes recorded per class, by name (getattr/setattr: no __dict__ needed
# on the board).  DERIVED: what ``Table(setup)`` rebuilds from the setup (or
# a back-reference).  tests/core/test_record.py checks on every platform with
# instance __dict__ that each attribute of each object is in one of the two:
# an attribute added to the engine and missing here fails that test.
FIELDS = {
    "Table": ("stacks", "chip", "waiting", "held", "entering", "seat_changes", "hands",
              "btn", "sb_pos", "bb_pos", "sb_seat", "dealer", "busted", "bust_ties",
              "winners", "removed", "last", "error", "undone",
              "undo_ok", "undo_text", "clock", "shot", "away", "floor", "hand", "last_hand",
              "predeal", "hold", "moves"),
    "LevelClock": ("index", "left_ms", "paused"),
    "ShotClock": ("seat", "left_ms"),
    "AwayBook": ("away", "used", "late", "td"),
    "FloorBook": ("warnings", "slow", "penalties"),
    "Hand": ("number", "level", "dealt", "start", "contrib", "live", "posts", "street", "bet",
             "actor", "show_order", "penalised", "log", "mark", "actions", "paid", "oot"),
    "Street": ("bb", "bets", "highest", "full_level", "last_full", "acted", "aggressor",
               "hist"),
}
DERIVED = {
    # replaying: True only inside an undo, never between events
    # facts: drained by the box's link before each save (its outbox is in the record)
    "Table": ("setup", "profile", "profile_name", "n", "first_button", "replaying",
              "spare_predeal", "facts", "nfacts"),
    "LevelClock": ("levels", "colour_ups", "drop_after", "late_until", "shown", "shown_blinds"),
    "ShotClock": ("limit_ms", "warn_ms"),
    "AwayBook": ("rounds",),
    "FloorBook": (),
    "Hand": ("t", "spare_posts"),
    "Street": ("rule",),
}
# the finished hand (``Table.last_hand``): only what the state shows
PAST = ("number", "level", "posts")
# the table's objects: written in full once, elsewhere as a reference
OBJECTS = ("clock", "shot", "away", "floor", "hand", "last_hand")

# an attribute an object lacks (getattr's default: None is a value)
ABSENT = object()

# JSON has no tuples, no int keys and no objects.  A one-key object whose key
# starts with one of these characters carries a tag:
#   {"(": [...]}          a tuple
#   {"#": [k, v, ...]}    a dict with int keys, ascending
#   {"@Hand": {...}}      an object of a FIELDS class, by attribute name
#   {"^": "last_hand"}    the table's object of that name (OBJECTS)
#   {"{": {...}}          a plain dict that would look like one of these
TAGS = "(#@^{"
