"""tableclock/fields.py: an event's amounts, seats and counts are whole numbers."""

from tableclock.fields import Refused, check_whole


def refused(ev):
    try:
        check_whole(ev)
    except Refused as e:
        return str(e)
    return None


def test_only_whole_numbers_pass():
    assert refused({"do": "bet", "to": 200, "seat": 3}) is None
    assert refused({"do": "bet", "to": "200"}) == '"to" must be a whole number, not \'200\''
    assert refused({"do": "bet", "to": 200.0}) is not None
    assert refused({"do": "sit", "seat": True}) is not None
    assert refused({"do": "sit", "seat": None}) is not None
    assert refused({"do": "colour_up", "chip": None}) is None  # no chip named: allowed
    assert refused({"do": "showdown", "ranking": [[1, 3], 2]}) is None
    assert refused({"do": "showdown", "ranking": [[1, "3"], 2]}) == (
        '"ranking" must be a whole number, not \'3\'')
    assert refused({"do": "showdown", "ranking": [[1], 2.0]}) is not None
    assert refused({"do": "showdown", "ranking": "1"}) is None  # not a list: showdown's own check


def test_checking_an_event_allocates_nothing():
    """MicroPython: the check builds nothing (issue #20: its tuples were 608 B
    of every event)."""
    import sys

    if sys.implementation.name != "micropython":
        return
    import micropython
    ev = {"do": "call", "seat": 3, "to": 200}
    micropython.heap_lock()
    try:
        check_whole(ev)
        ok = True
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    assert ok
