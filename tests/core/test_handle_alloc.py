"""Handling an event allocates little (issue #20: under 1 KiB at p99, bench alloc_handle_p99)."""

import gc
import json
import sys

from tc_util import do, level, table

MPY = sys.implementation.name == "micropython"


def handled_bytes(t, ev):
    """Bytes one t.handle(ev) leaves on the heap, the collector off (bench/alloc_mpy.py);
    0 on CPython (no gc.mem_alloc)."""
    if not MPY:
        assert t.handle(ev) is None
        return 0
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    err = t.handle(ev)
    b = gc.mem_alloc()
    gc.enable()
    assert err is None, err
    return b - a


def test_an_unknown_event_is_refused():
    t = table("lppl", {1: 5000, 2: 5000, 3: 5000})
    assert t.handle(json.loads('{"do": "nonsense"}')) == "Unknown event 'nonsense'"
    assert t.handle({"do": "_dispatch"}) == "Unknown event '_dispatch'"


def test_a_deal_and_a_showdown_with_a_side_pot_and_a_bust_allocate_under_1_kib():
    """Nine seats, antes: the New hand; then seat 9 all-in short, seats 1 and 2 call and
    check it down; the showdown splits the pot and busts seat 9 (was 1.6-3.2 KB)."""
    stacks = {1: 5000, 2: 5000, 3: 5000, 4: 5000, 5: 5000, 6: 5000, 7: 5000, 8: 5000, 9: 300}
    t = table("lppl", stacks, levels=level(100, 200, 25))
    do(t, "hand")  # a first deal builds the table's one Hand: not measured
    while t.hand is not None:
        do(t, "fold")
    deal = handled_bytes(t, {"do": "hand"})  # button 2, SB 3, BB 4: seat 5 acts first
    for seat in (5, 6, 7, 8):
        do(t, "fold", seat=seat)
    do(t, "allin", seat=9)
    for seat in (1, 2, 3):
        do(t, "fold" if seat == 3 else "call", seat=seat)
    do(t, "fold", seat=4)
    for _ in range(3):
        do(t, "check")
        do(t, "check")
    assert t.hand.street == 4  # the showdown
    show = handled_bytes(t, {"do": "showdown", "ranking": [[1, 2], [9]]})
    st = t.state()
    assert st["busted"] == [9]
    # 9 antes of 25, seat 9's 250 all-in called twice, the SB's 100 and BB's 200: 1,275 split,
    # the odd chip to seat 1, the first winner clockwise from the button (seat 2)
    assert st["winners"] == {"1": 638, "2": 637}
    if MPY:
        assert deal < 1024, deal
        assert show < 1024, show
