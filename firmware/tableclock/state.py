"""The replay contract's state: one JSON-ready dict describing the table.

Keys are listed in docs/replay.md.  Seats are ints in lists and values and
strings as map keys (JSON object keys are strings).  Built fresh on request:
the box's idle loop never calls this.
"""

from . import outofturn
from .hand import STREETS
from .pots import coloured, side_pots

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import TYPE_CHECKING, Any, Dict  # noqa: F401 (type comments)
    if TYPE_CHECKING:
        from .table import Table  # noqa: F401


def _level(e):
    return {"level": e[0], "sb": e[1], "bb": e[2], "ante": e[3]}


def _map(d):
    out = {}
    for s in d:
        if d[s]:
            out[str(s)] = d[s]
    return out


def state(t):  # type: (Table) -> Dict[str, Any]
    """The state of table *t*."""
    c = t.clock
    level, sb, bb, ante = c.blinds()
    st = {
        "profile": t.profile_name,
        "level": level, "sb": sb, "bb": bb, "ante": ante,
        "next_level": None,
        "seconds_left": c.seconds_left(),
        "on_break": c.on_break(),
        "paused": c.paused,
        "hand": t.hands,
        "button": t.btn, "sb_seat": t.sb_seat, "bb_seat": t.bb_pos, "dealer": t.dealer,
        "street": None, "action": None, "to_call": None, "min_raise_to": None,
        "chip": t.chip_unit(),
        "pot": 0, "in_hand": [], "bets": {}, "pots": [], "posts": [],
        "hand_level": None, "show_order": [],
        "stacks": {},
        "away": t.away.seats(),
        "away_used": sorted(t.away.used),
        "td_away": sorted(t.away.td),
        "waiting": sorted(t.waiting),
        "shot_clock": t.shot.seconds(),
        "clock_warning": t.shot.warning(),
        "busted": list(t.busted),
        "bust_ties": [list(x) for x in t.bust_ties],
        "winners": _map(t.winners),
        "colour_up": None,
        "late_entry_open": c.late_entry_open(),
        "late": sorted(t.away.late),
        "substantial_action": None,
        "warnings": _map(t.floor.warnings),
        "penalties": _map(t.floor.penalties),
        "undone": list(t.undone),
        "out_of_turn": {},
        "colour_changes": {},
        "last": t.last,
        "error": t.error,
    }
    nb = c.next_blinds()
    if nb:
        st["next_level"] = _level(nb)
    cu = c.colour_up()
    if cu:
        st["colour_up"] = {"after_level": cu.get("after_level"), "remove": cu.get("remove"),
                           "chip": cu.get("chip"), "rounding": t.profile["colour_up_rounding"]}
        unit = cu.get("chip")
        if unit:  # per seat: the stack after the colour-up (LPPL nearest, else up)
            up = t.profile["colour_up_rounding"] == "up"
            for s in t.stacks:
                st["colour_changes"][str(s)] = coloured(t.stacks[s], unit, up)
    stacks = st["stacks"]
    for s in t.stacks:
        stacks[str(s)] = t.stacks[s]
    h = t.hand if t.hand is not None else t.last_hand
    if h is not None:
        st["posts"] = [{"seat": p[0], "amount": p[1], "kind": p[2]} for p in h.posts]
        st["hand_level"] = _level(h.level)
    h = t.hand
    if h is None:
        return st
    st["street"] = STREETS[h.street]
    st["substantial_action"] = h.substantial()
    st["in_hand"] = list(h.live)
    st["pot"] = h.pot()
    st["bets"] = _map(h.bet.bets)
    allin = [s for s in h.live if t.stacks[s] == 0]
    st["pots"] = [{"amount": a, "seats": e} for a, e in side_pots(h.contrib, h.live, allin)]
    st["show_order"] = list(h.show_order)
    for s in h.oot:
        e = h.oot[s]
        st["out_of_turn"][str(s)] = {"act": "check" if e[0] == outofturn.NO_RAISE else e[0],
                                     "to": e[1]}
    a = h.actor
    if a is not None:
        st["action"] = a
        st["to_call"] = h.to_call(a)
        if h.can_raise(a):
            st["min_raise_to"] = h.bet.min_raise_to()
    return st
