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
    """The state of *table*, as one dict."""
    st = {}  # type: Dict[str, Any]
    fill(table, st.__setitem__)
    return st


def fill(table, put):  # type: (Table, Any) -> None
    """Give each key of the state and its value to ``put(key, value)``, once each
    and always in this order.  ``state`` puts them into a dict; the replay CLI
    writes each as JSON as it comes (replay.py), so no dict of the whole state is
    held while the line is written (issue #20: the state is about 4 KB, 5.4 KB at
    most; the 200-hand replay as .mpy 81 -> 78 KiB)."""
    clock = table.clock
    hand = table.hand  # the hand running, or None between hands
    level, sb, bb, ante = clock.blinds()
    put("profile", table.profile_name)
    put("level", level)
    put("sb", sb)
    put("bb", bb)
    put("ante", ante)
    nb = clock.next_blinds()
    put("next_level", _level(nb) if nb else None)
    put("seconds_left", clock.seconds_left())
    put("on_break", clock.on_break())
    put("paused", clock.paused)
    put("hand", table.hands)
    put("button", table.btn)
    put("sb_seat", table.sb_seat)
    put("bb_seat", table.bb_pos)
    put("dealer", table.dealer)
    put("street", STREETS[hand.street] if hand is not None else None)
    actor = hand.actor if hand is not None else None
    put("action", actor)
    put("to_call", hand.to_call(actor) if actor is not None else None)
    put("min_raise_to", hand.bet.min_raise_to()
        if actor is not None and hand.can_raise(actor) else None)
    put("chip", table.chip_unit())
    put("pot", hand.pot() if hand is not None else 0)
    put("in_hand", list(hand.live) if hand is not None else [])
    put("bets", _map(hand.bet.bets) if hand is not None else {})
    put("pots", _pots(table, hand) if hand is not None else [])
    shown = hand if hand is not None else table.last_hand  # between hands: the last one's
    put("posts", [{"seat": post[0], "amount": post[1], "kind": post[2]} for post in shown.posts]
        if shown is not None else [])
    put("hand_level", _level(shown.level) if shown is not None else None)
    put("show_order", list(hand.show_order) if hand is not None else [])
    stacks = {}
    for seat in table.stacks:
        stacks[str(seat)] = table.stacks[seat]
    put("stacks", stacks)
    put("away", table.away.seats())
    put("away_used", sorted(table.away.used))
    put("td_away", sorted(table.away.td))
    put("waiting", sorted(table.waiting))
    put("shot_clock", table.shot.seconds())
    put("clock_warning", table.shot.warning())
    put("busted", list(table.busted))
    put("bust_ties", [list(x) for x in table.bust_ties])
    put("winners", _map(table.winners))
    cu = clock.colour_up()
    put("colour_up", {"after_level": cu.get("after_level"), "remove": cu.get("remove"),
                      "chip": cu.get("chip"), "rounding": table.profile["colour_up_rounding"]}
        if cu else None)
    put("late_entry_open", clock.late_entry_open())
    put("late", sorted(table.away.late))
    put("substantial_action", hand.substantial() if hand is not None else None)
    put("warnings", _map(table.floor.warnings))
    put("penalties", _map(table.floor.penalties))
    put("slow_play", _map(table.floor.slow))
    put("undone", list(table.undone))
    put("out_of_turn", _oot(hand) if hand is not None else {})
    put("colour_changes", _colour_changes(table, cu))
    put("last", table.last)
    put("error", table.error)


def _pots(table, hand):
    allin = [seat for seat in hand.live if table.stacks[seat] == 0]
    return [{"amount": amount, "seats": seats}
            for amount, seats in side_pots(hand.contrib, hand.live, allin)]


def _oot(hand):
    out = {}
    for seat in hand.oot:
        # a declaration loaded outofturn.py (hand.py run): not imported before
        from .outofturn import NO_RAISE

        entry = hand.oot[seat]
        act = "check" if entry[0] == NO_RAISE else entry[0]
        out[str(seat)] = {"act": act, "to": entry[1]}
    return out


def _colour_changes(table, cu):
    """Per seat: the stack after the colour-up (LPPL nearest, else up)."""
    out = {}
    unit = cu.get("chip") if cu else None
    if unit:
        up = table.profile["colour_up_rounding"] == "up"
        for seat in table.stacks:
            out[str(seat)] = coloured(table.stacks[seat], unit, up)
    return out
