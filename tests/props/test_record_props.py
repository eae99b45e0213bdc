"""Property tests for the power-loss record (record.py, store.py): CPython, hypothesis.

1. Random sessions (gen.make_setup / gen.next_event, illegal events included):
   at random points the table is dumped, framed, decoded and loaded -- from
   the original or from the last restored copy -- and both go on with the
   same events: their states and records are identical after every event.
2. Saving after every event into two slots, a power cut at a random byte of a
   random save (the rest of the slot as it was, erased, or garbage) leaves
   load() returning the newest complete record -- the one being written if
   every byte of it got out, else the one before -- which rebuilds the table
   as it was when that record was made; the next save works.
"""

import copy
import json

import pytest
from hypothesis import given, strategies as st

import gen
from tableclock import record
from tableclock.store import MemoryStore
from tableclock.table import Table

RANDOMS = st.randoms(use_true_random=False)


def _repro(setup, events):
    return "\nrepro (replay input, setup first):\n" + gen.repro_text(setup, events)


def _restore(t, extra, seq):
    rec = record.dump(t, extra)
    data = record.encode(rec, seq)
    t2, x2 = record.load(record.decode(data))
    return t2, x2


@pytest.mark.slow
@gen.props_settings(150)
@given(setup=gen.setups(), rnd=RANDOMS, n=st.integers(1, 150))
def test_restored_table_goes_on_identically(setup, rnd, n):
    ch = gen.RandomChooser(rnd)
    a = Table(copy.deepcopy(setup))
    b = None
    events = []
    for i in range(n):
        if ch.bool(0.15):
            src = b if b is not None and ch.bool(0.5) else a
            extra = {"i": i, "unsent": events[-3:]}
            b, x = _restore(src, extra, i)
            assert x == json.loads(json.dumps(extra))
            assert b.state() == a.state(), _repro(setup, events)
            assert record.dump(b) == record.dump(a), _repro(setup, events)
        ev, _ = gen.next_event(a.state(), setup, ch)
        events.append(ev)
        sa = a.apply(copy.deepcopy(ev))
        if b is not None:
            sb = b.apply(copy.deepcopy(ev))
            assert sa == sb, "states differ:\n%s%s" % (gen.diff_states(sa, sb),
                                                       _repro(setup, events))
            assert record.dump(b) == record.dump(a), _repro(setup, events)


class PowerCut(Exception):
    pass


class CutStore(MemoryStore):
    """Write number ``at`` gets only ``keep`` bytes out; the rest of its slot
    is left as it was ("prefix"), erased to 0xFF ("erased") or garbage."""

    def __init__(self, size, at, keep, damage, rnd):
        MemoryStore.__init__(self, size)
        self.writes = 0
        self.at = at
        self.keep = keep
        self.damage = damage
        self.rnd = rnd

    def write(self, offset, data):
        n = self.writes
        self.writes += 1
        if n != self.at:
            MemoryStore.write(self, offset, data)
            return
        keep = min(self.keep, len(data))
        if keep < len(data):
            half = self.size // 2
            slot = offset - offset % half
            if self.damage == "erased":
                MemoryStore.write(self, slot, b"\xff" * half)
            elif self.damage == "garbage":
                junk = bytes(self.rnd.randrange(256) for _ in range(half))
                MemoryStore.write(self, slot, junk)
        MemoryStore.write(self, offset, data[:keep])
        raise PowerCut()


@gen.props_settings(150)
@given(setup=gen.setups(), rnd=RANDOMS, n=st.integers(1, 80), at=st.integers(0, 79),
       keep=st.integers(0, 4096), damage=st.sampled_from(["prefix", "erased", "garbage"]))
def test_power_cut_at_any_byte_of_any_save(setup, rnd, n, at, keep, damage):
    ch = gen.RandomChooser(rnd)
    at = at % n
    store = CutStore(8192, at, keep, damage, rnd)
    slots = record.Slots(store)
    t = Table(copy.deepcopy(setup))
    events = []
    saved = []  # (record as JSON, state) of every save attempted
    cut = None
    for i in range(n):
        ev, _ = gen.next_event(t.state(), setup, ch)
        events.append(ev)
        t.apply(copy.deepcopy(ev))
        rec = record.dump(t, {"i": i, "unsent": events[-4:]})
        saved.append((json.loads(json.dumps(rec)), t.state(), len(record.encode(rec))))
        try:
            slots.save(rec)
        except PowerCut:
            cut = i
            break
    assert cut == at
    boot = record.Slots(store)
    got = boot.load()
    whole = keep >= saved[at][2]
    if whole:
        want = saved[at]
    elif at > 0:
        want = saved[at - 1]
    else:
        want = None
    if want is None:
        assert got is None
        return
    assert got == want[0], "cut at byte %d of save %d (%s)%s" % (keep, at, damage,
                                                                 _repro(setup, events))
    t2, x = record.load(got)
    assert t2.state() == want[1]
    assert x["i"] == (at if whole else at - 1)
    boot.save(record.dump(t2, {"after": True}))   # the box goes on writing
    assert record.Slots(store).load()["extra"] == {"after": True}
    seqs = [s for s, r in record.Slots(store).records()]
    assert len(seqs) == 2 and seqs[0] == seqs[1] + 1
