"""A room for the live host's tests (tests/host/test_live_*.py): a league file set up with
the CLI, ``tdhost.live.night.Live`` on it, and real boxes -- ``tcbox.link.box_end.Link`` with the
``tableclock.table.Table`` it builds from the host's seating -- joined to host
``BoxLink``s (tdhost.links) over ``tdhost.links.pipe`` cables, everything on one virtual clock (no
sleeps).  The tests play the dealers: table events go into each box's Table
(``Box.do``), the box link turns them into box events, and an instruction is carried out
by hand (seat changes and chip removals on the Table) and confirmed with
``link.instruction_done`` -- a ``move_out`` with the chips the player left with (protocol
1.2), a ``withdraw`` as the box's app answers it (the instruction refused "withdrawn by the
host", the withdraw done)."""

import os

from hostutil import EXAMPLES, T0, at, players, run

from link_util import StandIn
from tcbox.instructions import at_table
from tcbox.link.box_end import Link
from tcbox.link.states import LIVE
from tdhost.links.boxlink import BoxLink
from tdhost.links.hoststore import HostStore
from tdhost.links.pipe import Cable
from tdhost.live.night import Live

KEY = bytes(range(32))
KEY_ID = "ev1"
T0_MS = int(T0.timestamp() * 1000)
MASK = (1 << 29) - 1  # box ticks wrap at 2**29


def _urandom():
    n = [0]

    def urandom(k):
        n[0] += 1
        return bytes([n[0] % 256]) * k
    return urandom


class Box:
    """One table's box: a real box Link on one end of a cable, a host BoxLink served by
    the room's Live on the other."""

    def __init__(self, room, table, box_id):
        self.room = room
        self.number = table
        self.cable = Cable()
        self.link = Link(self.cable.a, box_id, None, key=KEY, key_id=KEY_ID,
                         urandom=_urandom())
        self.link.restore(None)
        self.link.table_no = table  # as pairing leaves it
        self.got = []  # the instructions the box was given, in order
        StandIn(self.got.append).add(self.link)
        self.host = None
        self.connect()

    def connect(self, store=None):
        """A new host BoxLink for this box on the room's (current) Live."""
        self.host = BoxLink(self.cable.b, KEY, KEY_ID, store or self.room.store,
                            clock=self.room.clock)
        self.room.live.add_link(self.host)
        return self.host

    @property
    def table(self):
        return self.link.table

    def do(self, what, **kw):
        """A table event at the box (the dealer's key press); it must be accepted."""
        ev = dict(kw, do=what)
        err = self.table.handle(ev)
        assert err is None, "%s refused at table %d: %s" % (ev, self.number, err)
        self.link.observe(self.table.state())

    def done(self, iid, result="done", reason=None, stack=None):
        """The box's answer to instruction *iid* (*stack*: a move_out's chips, protocol
        1.2)."""
        self.link.instruction_done(iid, result, reason, stack)

    def leave(self, ins):
        """The dealer carries out move_out *ins*: the player leaves with their chips, and
        the box answers done with that stack.  Returns the stack."""
        stack = self.table.stacks[ins["seat"]]
        self.do("leave", seat=ins["seat"])
        self.done(ins["id"], stack=stack)
        return stack

    def answered(self):
        """The ids of the instructions this box answered done or refused."""
        return {e[0] for e in self.link.book.entries if e[1] in ("done", "refused")}

    def instructions(self, action):
        return [i for i in self.got if i["action"] == action]

    def seat_of(self, name):
        for k, v in self.link.names.items():
            if v == name:
                return int(k)
        return None


class Room:
    """A tournament in a league file, its Live and one box per table (started unless
    *start* is False)."""

    def __init__(self, tmp_path, n=20, example="lppl", seed=7, start=True, boxes=True):
        self.tmp = tmp_path
        os.makedirs(str(tmp_path), exist_ok=True)
        self.db = str(tmp_path / "league.sqlite")
        run(["new", os.path.join(EXAMPLES, example + ".toml"), "--db", self.db], now=at(-60))
        run(["register", *players(n), "--db", self.db], now=at(-50))
        self.now = T0_MS - 30 * 60000
        self.store = HostStore(str(tmp_path / "links.sqlite"))
        self.live = Live(self.db, clock=self.clock, key=KEY, key_id=KEY_ID, seed=seed)
        self.live.act("draw", {"seed": seed})
        self.boxes = {}
        if boxes:
            for tb in sorted(self.live.tournament.seating()):
                self.boxes[tb] = Box(self, tb, "tc-%02d" % tb)
        self.run(1000)
        if start:
            self.now = T0_MS
            self.live.act("start", {})
            self.run(1000)

    def clock(self):
        return self.now

    def step(self, ms=20):
        for b in self.boxes.values():
            if b.table is not None:
                b.table.advance(ms)
            b.link.poll(self.now & MASK)
            if b.table is not None and b.link.last_state is None:
                b.link.observe(b.table.state())
        self.live.poll(self.now)
        self.now += ms

    def run(self, ms=1000, step=20):
        for _ in range(ms // step):
            self.step(step)

    def wait(self, ms, step=500):
        """Time passes (coarse steps: the links stay in touch, tables advance)."""
        self.run(ms, step)

    def restart(self):
        """The host is killed and started again on the same league file: a new Live, new
        host links (the same link store)."""
        self.live.close()
        self.live = Live(self.db, clock=self.clock, key=KEY, key_id=KEY_ID)
        for b in self.boxes.values():
            b.connect()

    def reconnect(self, box, store):
        """The box's host link is replaced by one with another link store (the old store
        lost): only the league's own record of box events stands between a resend and a
        second application."""
        self.live.remove_link(box.host)
        return box.connect(store)

    def all_live(self):
        return all(b.link.state == LIVE and b.table is not None for b in self.boxes.values())

    def table_of(self, name):
        e = self.live.tournament.get(name)
        return tuple(e.seat) if e and e.seat else None

    def sizes(self):
        return {tb: len(s) for tb, s in self.live.tournament.seating().items()}

    def pending(self):
        return self.live.snapshot()["pending"]


def allin(box, losers, winner):
    """A hand at *box*: the *losers* and the *winner* go all-in, the others fold; the
    winner's hand is best, the losers' hands equal.  Returns the state after it."""
    t = box.table
    box.do("hand")
    while True:
        st = t.state()
        if st["street"] is None or st["action"] is None:
            break
        a = st["action"]
        box.do("allin" if a in losers or a == winner else "fold")
    if t.state()["street"] is not None:
        box.do("showdown", ranking=[[winner], sorted(losers)])
    return t.state()


def win_hand(box, winner, gain):
    """A hand at *box* in which seat *winner* wins exactly *gain* chips: one other player
    (the first to act who posts no blind) puts in the same as the winner, the blinds of
    everyone else fold into the pot, and the winner takes it at the showdown."""
    t = box.table
    box.do("hand")
    st = t.state()
    blinds = {p["seat"]: p["amount"] for p in st["posts"]}
    other = next(s for s in st["in_hand"] if s != winner and s not in blinds)
    to = gain - sum(v for s, v in blinds.items() if s not in (winner, other))
    while True:
        st = t.state()
        a = st["action"]
        if st["street"] is None or a is None:
            break
        if a not in (winner, other):
            box.do("fold")
        elif st["street"] != "preflop":
            box.do("check")
        elif max(st["bets"].values() or [0]) < to:
            box.do("raise", to=to)
        else:
            box.do("call")
    if t.state()["street"] is not None:
        box.do("showdown", ranking=[[winner], [other]])
    return other


def fold_round(box):
    """A hand at *box* where everyone folds to the big blind."""
    box.do("hand")
    while box.table.state()["street"] is not None:
        box.do("fold")


WITHDRAWN = "withdrawn by the host"  # the box's reason (docs/protocol.md, withdraw)


def withdraw_all(room):
    """Every ``withdraw`` a box's app got, answered as the app does at once (no Confirm):
    the instruction it calls off refused, the withdraw done.  Returns their ids."""
    done = []
    for b in room.boxes.values():
        for ins in b.instructions("withdraw"):
            if ins["id"] in b.answered():
                continue
            if ins["instr"] not in b.answered():
                b.done(ins["instr"], "refused", WITHDRAWN)
            b.done(ins["id"])
            done.append(ins["id"])
    return done


def carry_out(room, actions=("move_out", "receive")):
    """Every instruction of *actions* the boxes have not answered yet, carried out by the
    dealers (seat changes and chip removals on the box's Table) and confirmed ``done``
    (a move_out with the player's stack); withdraws first (a box acts on them at once),
    then players leave, then arrivals sit down.  A move's receive comes only once its
    move_out is done: another round after the room ran."""
    done = withdraw_all(room)
    for action in ("take_out", "move_out", "receive", "deduct", "break_table", "redraw",
                   "hand_for_hand_start", "next_hand", "hand_for_hand_stop", "message"):
        if action not in actions:
            continue
        for b in room.boxes.values():
            for ins in b.instructions(action):
                if ins["id"] in b.answered():
                    continue
                if action == "move_out":
                    b.leave(ins)
                    done.append(ins["id"])
                    continue
                if action == "receive":
                    b.do("sit", seat=ins["seat"], stack=ins["stack"])
                elif action == "deduct":
                    b.do("deduct", seat=ins["seat"], chips=ins["chips"])
                elif action == "take_out":  # as tcbox.app.App.ack: the answer (with the
                    res, why, chips = at_table.carry_out(b.table, ins)  # chips), then the
                    b.done(ins["id"], "acknowledged" if res == "later" else res, why, chips)
                    b.link.observe(b.table.state())  # box's report of the seat out
                    done.append(ins["id"])
                    continue
                b.done(ins["id"])
                done.append(ins["id"])
    return done


def td_bust_first(room, table):
    """The TD enters out the player of *table*'s first seat (a ``take_out`` on its way):
    (that table's box, the seat, the player)."""
    box = room.boxes[table]
    seat = min(box.table.stacks)
    name = box.link.names[str(seat)]
    room.live.act("bust", {"names": [name]})
    room.run(1000)
    return box, seat, name


def moved_by_hand(room, frm, to):
    """`tdhost move` of the player in table *frm*'s first seat to table *to*'s first free
    seat, on the league file while the host runs: (their name, their seat, the new seat)."""
    t = room.live.tournament
    seat = min(t.seating()[frm])
    name = t.seating()[frm][seat]
    free = min(s for s in range(1, 9) if s not in t.seating()[to])
    run(["move", name, "%d.%d" % (to, free), "--db", room.db, "--yes"])
    return name, seat, free


def late_arrival(tmp_path, name="Ada"):
    """The room 10 s into the night, *name* just entered late (their receive on its way):
    (room, their table, their seat, that table's box)."""
    room = Room(tmp_path)
    room.run(10000)
    room.live.act("late", {"name": name})
    room.run(1000)
    table, seat = room.table_of(name)
    return room, table, seat, room.boxes[table]


def after_one_hand(tmp_path):
    """The room after one hand at table 1: (room, the big blind's seat there, their name)."""
    room = Room(tmp_path)
    b1 = room.boxes[1]
    fold_round(b1)
    room.run(2000)
    stacks = b1.table.stacks
    big = max(stacks, key=lambda s: (stacks[s], -s))
    assert stacks[big] == 3025
    return room, big, room.live.tournament.seating()[1][big]
