"""The replay contract's state: one JSON-ready dict describing the table.

Keys are listed in docs/replay.md.  Seats are ints in lists and values and
strings as map keys (JSON object keys are strings).  Built fresh on request:
the box's idle loop never calls this.
"""

from .hand import STREETS
from .pots import coloured, side_pots

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import TYPE_CHECKING, Any, Dict  # noqa: F401 (type comments)
    if TYPE_CHECKING:
        from .table import Table  # noqa: F401


def _level(level):
    return {"level": level[0], "sb": level[1], "bb": level[2], "ante": level[3]}


def _map(d):
    out = {}
    for seat in d:
        if d[seat]:
            out[str(seat)] = d[seat]
    return out


def state(table):  # type: (Table) -> Dict[str, Any]
    """The state of *table*."""
    clock = table.clock
    level, sb, bb, ante = clock.blinds()
    st = {
        "profile": table.profile_name,
        "level": level, "sb": sb, "bb": bb, "ante": ante,
        "next_level": None,
        "seconds_left": clock.seconds_left(),
        "on_break": clock.on_break(),
        "paused": clock.paused,
        "hand": table.hands,
        "button": table.btn, "sb_seat": table.sb_seat, "bb_seat": table.bb_pos,
        "dealer": table.dealer,
        "street": None, "action": None, "to_call": None, "min_raise_to": None,
        "chip": table.chip_unit(),
        "pot": 0, "in_hand": [], "bets": {}, "pots": [], "posts": [],
        "hand_level": None, "show_order": [],
        "stacks": {},
        "away": table.away.seats(),
        "away_used": sorted(table.away.used),
        "td_away": sorted(table.away.td),
        "waiting": sorted(table.waiting),
        "shot_clock": table.shot.seconds(),
        "clock_warning": table.shot.warning(),
        "busted": list(table.busted),
        "bust_ties": [list(x) for x in table.bust_ties],
        "winners": _map(table.winners),
        "colour_up": None,
        "late_entry_open": clock.late_entry_open(),
        "late": sorted(table.away.late),
        "substantial_action": None,
        "warnings": _map(table.floor.warnings),
        "penalties": _map(table.floor.penalties),
        "undone": list(table.undone),
        "out_of_turn": {},
        "colour_changes": {},
        "last": table.last,
        "error": table.error,
    }
    nb = clock.next_blinds()
    if nb:
        st["next_level"] = _level(nb)
    cu = clock.colour_up()
    if cu:
        st["colour_up"] = {"after_level": cu.get("after_level"), "remove": cu.get("remove"),
                           "chip": cu.get("chip"), "rounding": table.profile["colour_up_rounding"]}
        unit = cu.get("chip")
        if unit:  # per seat: the stack after the colour-up (LPPL nearest, else up)
            up = table.profile["colour_up_rounding"] == "up"
            for seat in table.stacks:
                st["colour_changes"][str(seat)] = coloured(table.stacks[seat], unit, up)
    stacks = st["stacks"]
    for seat in table.stacks:
        stacks[str(seat)] = table.stacks[seat]
    hand = table.hand if table.hand is not None else table.last_hand
    if hand is not None:
        st["posts"] = [{"seat": post[0], "amount": post[1], "kind": post[2]} for post in hand.posts]
        st["hand_level"] = _level(hand.level)
    hand = table.hand
    if hand is None:
        return st
    st["street"] = STREETS[hand.street]
    st["substantial_action"] = hand.substantial()
    st["in_hand"] = list(hand.live)
    st["pot"] = hand.pot()
    st["bets"] = _map(hand.bet.bets)
    allin = [seat for seat in hand.live if table.stacks[seat] == 0]
    st["pots"] = [{"amount": amount, "seats": seats}
                  for amount, seats in side_pots(hand.contrib, hand.live, allin)]
    st["show_order"] = list(hand.show_order)
    for seat in hand.oot:
        # a declaration loaded outofturn.py (hand.py run): not imported before
        from .outofturn import NO_RAISE

        entry = hand.oot[seat]
        act = "check" if entry[0] == NO_RAISE else entry[0]
        st["out_of_turn"][str(seat)] = {"act": act, "to": entry[1]}
    actor = hand.actor
    if actor is not None:
        st["action"] = actor
        st["to_call"] = hand.to_call(actor)
        if hand.can_raise(actor):
            st["min_raise_to"] = hand.bet.min_raise_to()
    return st
