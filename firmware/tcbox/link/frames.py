"""The setup a host's ``config`` frame carries (the table's set-up fields,
``setup_of``; two compared, ``same_setup``) and a table's players in a
setup's form (``players_of``).  What the box does with the host's config,
seating and instruction frames -- the pending set-up and the new table built
from it -- is the Link's own state and methods (tcbox/link/box_end.py; docs/box.md).
Pure: no imports.
"""

# config fields that are the table's setup (docs/replay.md); players and
# button come with seating
SETUP_KEYS = ("profile", "seats", "levels", "chip", "shot_clock", "colour_ups",
              "late_entry_until_level")
_NONE = object()


def setup_of(config):
    """The table setup fields of a ``config`` message."""
    out = {}
    for k in SETUP_KEYS:
        if k in config:
            out[k] = config[k]
    return out


def same_setup(a, b):
    for k in SETUP_KEYS:
        if a.get(k, _NONE) != b.get(k, _NONE):
            return False
    return True


def players_of(stacks):
    """A table's stacks as a setup's players map (seat numbers as text)."""
    out = {}
    for seat in stacks:
        out[str(seat)] = stacks[seat]
    return out
