"""The table's clock events: time passing (``tick``, through ``Table.advance``), pause,
resume, adjust, a jump to a level and the shot clock called on a seat, each a function of
the table and the event registered in ``table.EVENTS``; the level clock itself is clock.py.
"""

from .fields import Refused, as_int, ms_of, seconds

if False:  # for mypy's type comments: MicroPython compiles this block away
    from typing import Any, Dict  # noqa: F401 (type comments)

    from .table import Table  # noqa: F401


def tick(table, ev):  # type: (Table, Dict[str, Any]) -> None
    table.advance(ms_of(seconds(ev, "s", 0, 864000), 1000))


def pause(table, ev):  # type: (Table, Dict[str, Any]) -> None
    table.clock.pause()
    table.last = "Clock paused"


def resume(table, ev):  # type: (Table, Dict[str, Any]) -> None
    table.clock.resume()
    table.last = "Clock running"


def adjust(table, ev):  # type: (Table, Dict[str, Any]) -> None
    v = seconds(ev, "s", -86400, 86400, whole=True)
    table.clock.adjust(v * 1000)
    table.last = "Clock %s%d s" % ("+" if v >= 0 else "-", abs(v))


def jump(table, ev):  # type: (Table, Dict[str, Any]) -> None
    n = as_int(ev.get("level"))
    if n is None:
        raise Refused(41)  # Jump needs "level": the level number
    table.clock.jump(n)
    table.last = "Level %d starts" % n


def clock(table, ev):  # type: (Table, Dict[str, Any]) -> None
    hand = table._need_actor(ev)
    seat = hand.actor
    if table.shot.seat == seat:
        raise Refused(42, seat)  # The clock is already running on seat %d
    if seat in table.away.td:
        raise Refused(43, seat)  # Seat %d is away on TD business: the table waits
    table.shot.call(seat)
    table.fact("clock_called", seat)
    table.last = "Clock called on seat %d" % seat
