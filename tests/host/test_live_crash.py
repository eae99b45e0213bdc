"""A live host killed between any two writes loses and doubles nothing (docs/host.md §10.3).

LPPL, 14 players at two 8-seat tables (7 and 7).  At table 1 two players go out in one hand
(2975 and 3000 chips at its start, LPPL ¶46: 3000 finishes higher); 12 are left, 5 and 7, so
one player moves from table 2 to table 1 (LPPL ¶45) and both dealers carry it out.

Writes are counted by tests/tools/crashpoints.py: every BEGIN, INSERT and COMMIT of the league
file and every write of the box links' store (tdhost.links HostStore: an event kept, an event
done, a boot counter).  For k = 1, 2, ... the night runs again from the same start and the
host "dies" right after its k-th write: the hook raises ``Killed`` (a BaseException no code
of the host catches) out of ``Live.poll``, so the process state is dropped as a SIGKILL would
drop it -- the league file rolls back its open transaction, the link store's open one is
rolled back by closing it, the host links' queued frames (acks among them) are lost.  The
boxes (real ``tcbox.link.box_end.Link`` and ``Table``) live on, as they would.  Then a new ``Live``
and new host links start on the same two files and the night goes on to its end.  Each run
must end with the league of the undisturbed run: that hand's one ``bust`` decision with the
same places and reasons, and exactly one ``move`` of the same player to the same seat.

The same sweep runs over that night when the mover busts at the old table before leaving (the
move_out cancelled and withdrawn in one batch: the withdraw written once, no receive ever), and
over the final table's forming (9 players, one out: the final draw, then
its instructions in a batch of their own, the seating, the boxes' answers), ending with the
final table's box on the league's final seating.
"""

import pytest
from liveroom import Room, allin, carry_out, fold_round, withdraw_all
from test_live_tables import confirm_final

import crashpoints
from tdhost.links.hoststore import HostStore
from tdhost.live import instruction_log as _ins


class Killed(BaseException):
    """The host process dies here (raised by the crash hook)."""


def _sweep(tmp_path, start, night, outcome, expected, check=None):
    """Kill the host after write k = 1, 2, ... of *night* (a fresh room from *start* each
    time) until a night makes fewer than k writes, so every point between two writes was
    covered; each ends as *expected* (``outcome(room)``), and passes ``check(room, k)``.
    Returns that k."""
    k = 0
    while True:
        k += 1
        room = start(tmp_path / ("k%d" % k))
        _, kills = night(room, crash_at=k)
        if not kills:
            return k
        assert outcome(room) == expected, "host killed after write %d" % k
        if check is not None:
            check(room, k)


def _start(tmp_path):
    """The room before the hand: table 1 has played one hand (its small blind 2975, big
    blind 3025, everyone else 3000)."""
    tmp_path.mkdir(exist_ok=True)
    room = Room(tmp_path, n=14)
    assert room.sizes() == {1: 7, 2: 7} and room.all_live()
    b1 = room.boxes[1]
    fold_round(b1)
    room.run(2000)
    return room


def _restart(room):
    """The host died: its files are closed as the kernel closes them (open transactions
    rolled back), then a new Live and new host links start on them."""
    room.live.store.db.close()
    room.store.db.close()
    room.store = HostStore(str(room.tmp / "links.sqlite"))
    room.live = _Dead()
    room.restart()


class _Dead:
    def close(self):
        pass


def _night(room, crash_at=None):
    """The double bust and the move; the host killed after its *crash_at*-th write (and
    restarted).  Returns (the writes counted, [k] when the host was killed)."""
    kills = []

    def hook(n):
        if crash_at is not None and n == crash_at and not kills:
            kills.append(n)
            raise Killed()

    def step(fn, *args):
        try:
            fn(*args)
        except Killed:
            _restart(room)

    b1 = room.boxes[1]
    stacks = b1.table.stacks
    small = min(stacks, key=lambda s: (stacks[s], s))  # 2975
    big = max(stacks, key=lambda s: (stacks[s], -s))  # 3025
    other = min(s for s in stacks if stacks[s] == 3000)
    assert (stacks[small], stacks[other], stacks[big]) == (2975, 3000, 3025)
    crashpoints.reset()
    crashpoints.hook(hook)
    try:
        st = allin(b1, [small, other], big)
        assert sorted(st["busted"]) == sorted([small, other])
        for _ in range(6):  # rounds of: time passes, dealers carry out what they got
            for _ in range(4):
                step(room.run, 1000)
            carry_out(room)
        for _ in range(4):
            step(room.run, 1000)
        writes = crashpoints.writes()
    finally:
        crashpoints.hook(None)
    return writes, kills


def _outcome(room):
    lg = room.live.lg
    busts = [ev.payload for ev in lg.events if ev.action == "bust" and ev.seq not in lg.undone]
    moves = [ev.payload for ev in lg.events if ev.action == "move" and ev.seq not in lg.undone]
    return ([(b["tiers"], b["chips"], b["reasons"], sorted(map(tuple, b["src"])))
             for b in busts],
            [(m["name"], m["from"], m["seat"]) for m in moves],
            room.sizes(), room.pending())


def test_the_undisturbed_night(tmp_path):
    room = _start(tmp_path)
    names = room.boxes[1].link.names
    writes, kills = _night(room)
    busts, moves, sizes, pending = _outcome(room)
    assert kills == [] and writes >= 30
    assert len(busts) == 1 and len(busts[0][0]) == 2  # one decision, two places
    (tiers, chips, reasons, src) = busts[0]
    assert sorted(chips.values()) == [2975, 3000]
    low = [n for n, c in chips.items() if c == 2975][0]
    assert tiers[1] == [low] and reasons[0].endswith("(3000 to 2975)")
    assert low in names.values()
    assert len(moves) == 1 and moves[0][2][0] == 1 and moves[0][1][0] == 2
    assert sizes == {1: 6, 2: 6} and pending == []


@pytest.mark.slow
def test_a_host_killed_between_any_two_writes_loses_and_doubles_nothing(tmp_path):
    ref = _start(tmp_path / "ref")
    writes, _ = _night(ref)
    expected = _outcome(ref)
    def acked(room, k):  # every box event acknowledged in the end
        for b in room.boxes.values():
            assert b.link.outbox == [], (k, b.link.outbox)
    k = _sweep(tmp_path, _start, _night, _outcome, expected, acked)
    assert k == writes + 1 and k > 30


def _withdraw_night(room, crash_at=None):
    """The double bust at table 1, the plan's move_out to table 2 -- and its mover busts at
    table 2 before leaving: the move_out is cancelled and withdrawn (in one batch), the box
    answers the withdraw.  The host killed after its *crash_at*-th write."""
    kills = []

    def hook(n):
        if crash_at is not None and n == crash_at and not kills:
            kills.append(n)
            raise Killed()

    def run(ms):
        try:
            room.run(ms)
        except Killed:
            _restart(room)

    b1, b2 = room.boxes[1], room.boxes[2]
    stacks = b1.table.stacks
    small = min(stacks, key=lambda s: (stacks[s], s))
    big = max(stacks, key=lambda s: (stacks[s], -s))
    other = min(s for s in stacks if stacks[s] == 3000)
    crashpoints.reset()
    crashpoints.hook(hook)
    try:
        allin(b1, [small, other], big)
        for _ in range(15):
            run(1000)
            if b2.instructions("move_out"):
                break
        seat = b2.instructions("move_out")[0]["seat"]
        allin(b2, [seat], max((s for s in b2.table.stacks if s != seat),
                              key=lambda s: (b2.table.stacks[s], s)))
        for _ in range(4):
            for _ in range(4):
                run(1000)
            withdraw_all(room)
        writes = crashpoints.writes()
    finally:
        crashpoints.hook(None)
    return writes, kills


def _withdraw_outcome(room):
    t = room.live.tournament
    return (_outcome(room),
            sorted((r["action"], r["table"], _ins.state(r)) for r in t.instrs.values()),
            [(r["table"], t.instrs[r["body"]["instr"]]["action"]) for r in t.instrs.values()
             if r["action"] == "withdraw"])


@pytest.mark.slow
def test_a_host_killed_around_a_withdrawn_move_writes_the_withdraw_once(tmp_path):
    """The mover busts at the old table before leaving (LPPL ¶45's move after the double
    bust): at every write of the night the cancellation and its withdraw are written
    together and once, the destination never hears of the move, and the box's answer
    closes the withdraw."""
    ref = _start(tmp_path / "ref")
    writes, _ = _withdraw_night(ref)
    expected = _withdraw_outcome(ref)
    (busts, moves, sizes, pending), instrs, withdraws = expected
    assert len(busts) == 2 and moves == [] and pending == []
    assert withdraws == [(2, "move_out")]
    assert ("move_out", 2, "cancelled") in instrs and ("withdraw", 2, "done") in instrs
    assert not [x for x in instrs if x[0] == "receive"]
    k = _sweep(tmp_path, _start, _withdraw_night, _withdraw_outcome, expected)
    assert k == writes + 1 and k > 30


def test_events_from_a_box_heard_before_its_hello_wait_for_its_table(tmp_path):
    """A restarted host hears a box's resent bust before the box's hello (the box has not
    noticed the restart yet): the link does not know the table, so the bust waits in the
    link store, pending, and is decided once the hello names the table."""
    room = _start(tmp_path)
    b1 = room.boxes[1]
    stacks = b1.table.stacks
    big = max(stacks, key=lambda s: (stacks[s], -s))
    loser = min(s for s in stacks if stacks[s] == 3000)
    st = allin(b1, [loser], big)
    assert st["busted"] == [loser]
    room.live.close()
    room.store.db.close()
    room.store = HostStore(str(room.tmp / "links.sqlite"))
    room.live = _Dead()
    room.restart()
    host = b1.host
    for _ in range(10):  # the events go out before the box hears the new host
        room.now += 20
        b1.link.poll(room.now & ((1 << 29) - 1))
    host.poll(room.now)
    assert host.table is None and host.new_events >= 1
    assert [m["what"] for m in room.store.pending("tc-01", room.live.scope)][-1] == "bust"
    room.run(5000)
    busts = [ev for ev in room.live.lg.events if ev.action == "bust"]
    assert len(busts) == 1 and busts[0].payload["table"] == 1
    assert room.store.pending("tc-01", room.live.scope) == []


def _final_start(tmp_path):
    """9 players at two tables, each box one hand in."""
    tmp_path.mkdir(exist_ok=True)
    room = Room(tmp_path, n=9)
    for b in room.boxes.values():
        fold_round(b)
    room.run(2000)
    return room


def _final_night(room, crash_at=None):
    """A bust leaves 8: the final table forms; the dealers confirm what they get."""
    kills = []

    def hook(n):
        if crash_at is not None and n == crash_at and not kills:
            kills.append(n)
            raise Killed()

    big = max(room.sizes(), key=lambda tb: room.sizes()[tb])
    box = room.boxes[big]
    seats = sorted(box.table.stacks)
    winner = max(seats, key=lambda s: (box.table.stacks[s], s))
    crashpoints.reset()
    crashpoints.hook(hook)
    try:
        allin(box, [seats[0]], winner)
        for _ in range(6):
            for _ in range(4):
                try:
                    room.run(1000)
                except Killed:
                    _restart(room)
            confirm_final(room)
        for _ in range(4):
            try:
                room.run(1000)
            except Killed:
                _restart(room)
        writes = crashpoints.writes()
    finally:
        crashpoints.hook(None)
    return writes, kills


def _final_outcome(room):
    lg, t = room.live.lg, room.live.tournament
    draws = [ev.payload for ev in lg.events if ev.action == "draw" and ev.payload.get("final")]
    instrs = sorted((r["action"], r["table"]) for r in t.instrs.values())
    keep = t.final["table"]
    final = t.seating()[keep]
    b = room.boxes[keep]
    at_box = {s: (b.link.names[str(s)], c) for s, c in b.table.stacks.items()}
    return (len(draws), instrs, keep, at_box == {s: (n, t.final["stacks"][n])
                                                 for s, n in final.items()},
            b.table.first_button, room.pending())


@pytest.mark.slow
def test_a_host_killed_while_the_final_table_forms_still_seats_it_on_the_box(tmp_path):
    """The same at every write of the final table's forming: the final draw, the redraw and
    break instructions (written after the draw in a batch of their own: a host killed in
    between writes them at its restart), the seating to the final table's box, the answers;
    the box ends on the league's final seating, each instruction written once."""
    ref = _final_start(tmp_path / "ref")
    writes, _ = _final_night(ref)
    expected = _final_outcome(ref)
    assert expected[0] == 1 and expected[3] is True and expected[5] == []
    assert expected[1] == [("break_table", 3 - expected[2]), ("redraw", 1), ("redraw", 2)]
    k = _sweep(tmp_path, _final_start, _final_night, _final_outcome, expected)
    assert k == writes + 1 and k > 20
