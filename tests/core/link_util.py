"""Helpers for the serial link tests (tests/core/test_link*.py): a fake
usb_cdc port, a hand-driven host, a table and its config.  Portable."""

# the link first: its compile (the largest of these modules) on a heap nothing fragmented yet
from tcbox.link.box_end import Link  # noqa: I001
from tcbox.link.frames import setup_of
from tcbox.link.states import LIVE
from tableclock.protocol import Receiver, Sender
from tc_util import table

KEY = bytes(range(32))
BOX = "tc-01"
LEVELS = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
          {"sb": 50, "bb": 100, "ante": 0, "minutes": 20},
          {"break": 10},
          {"sb": 75, "bb": 150, "ante": 0, "minutes": 20}]


class FakePort:
    """usb_cdc.Serial's API in memory.  *accept*: bytes a write takes at
    most (None: all, 0: a computer that stopped reading).  Bytes wait in
    lists of small chunks both ways: no big blocks on a small heap."""

    def __init__(self, accept=None):
        self.chunks = []  # from the host
        self.out = []  # to the host
        self.connected = True
        self.accept = accept
        self.reads = 0
        self.writes = 0

    def feed(self, data):
        for i in range(0, len(data), 256):
            self.chunks.append(bytes(data[i:i + 256]))

    @property
    def in_waiting(self):
        n = 0
        for c in self.chunks:
            n += len(c)
        return n

    def read(self, n):
        self.reads += 1
        out = b""
        while self.chunks and len(out) < n:
            c = self.chunks.pop(0)
            k = n - len(out)
            if len(c) > k:
                self.chunks.insert(0, c[k:])
                c = c[:k]
            out += c
        return out

    def write(self, b):
        self.writes += 1
        n = len(b) if self.accept is None else min(self.accept, len(b))
        if n:
            self.out.append(bytes(b[:n]))
        return n

    @property
    def sent(self):
        return b"".join(self.out)

    def take(self):
        out = self.out
        self.out = []
        return out


class Host:
    """The host's side, by hand: frames into the port, frames out of it."""

    def __init__(self, port, boot=1, key=KEY):
        self.port = port
        self.rx = Receiver(key, "host")
        self.tx = Sender(key, "host", boot)
        self.rest = b""

    def read(self):
        got = []
        for c in self.port.take():
            while True:
                i = c.find(b"\n")
                if i < 0:
                    self.rest += c
                    break
                line = self.rest + c[:i]
                self.rest = b""
                c = c[i + 1:]
                if line:
                    msg = self.rx.accept(line)
                    if msg is not None:
                        got.append(msg)
        return got

    def frame(self, msg, to=BOX):
        return self.tx.encode(msg, to)

    def send(self, msg, to=BOX):
        f = self.frame(msg, to)
        self.port.feed(f)
        return f


def link_table():
    return table("lppl", {1: 3000, 2: 3000, 3: 3000}, button=1, levels=LEVELS)


def config(t, nonce, **kw):
    msg = setup_of(t.setup)
    msg["kind"] = "config"
    msg["table"] = 4
    msg["key_id"] = "ev1"
    msg["nonce"] = nonce
    for k in kw:
        msg[k] = kw[k]
    return msg


def run(link, now, polls=20, step=10):
    for _ in range(polls):
        link.poll(now)
        now += step
    return now


def kinds(msgs):
    return [m["kind"] for m in msgs]


def counter():
    """A stand-in for os.urandom: 01 01 ..., then 02 02 ..."""
    n = [0]

    def urandom(k):
        n[0] += 1
        return bytes([n[0]]) * k

    return urandom


class _Screen:
    def update(self, f):
        return 0


class _Keys:
    def get(self):
        return None


def boxed(link):
    """A tcbox.app.App (no screen, no keys, no record) with *link* its part: the box's
    instruction screen and its book (tcbox/instructions/book.py) as on a board."""
    from tcbox.app import App

    app = App(link.table, ["left", "ok", "right"], _Screen(), _Keys())
    app.add(link)
    return app


class StandIn:
    """What a Link, a part of tcbox.app.App, asks of it (docs/box.md, "The App and its
    parts"): the services ``instruct``, ``use_book``, ``take_table``, ``changed``, ``save``,
    ``show_link`` and its ``state``, ``saver`` and ``table``.  Keeps what it is given:
    ``got`` the instructions (or *instruct* is called with each), ``tables`` the new
    tables, ``changes`` the clock changes, ``info`` the link's line; ``add(link)`` makes
    *link* its part as App.add does."""

    def __init__(self, instruct=None, table=None):
        self.got = []
        self.tables = []
        self.changes = 0
        self.saves = 0
        self.info = {}
        self.dirty = False
        self.state = None
        self.saver = None
        self.table = table
        self.given = instruct

    def add(self, link):
        link.added(self)
        return link

    def use_book(self, book):
        self.book = book

    def instruct(self, ins):
        if self.given is not None:
            self.given(ins)
        else:
            self.got.append(ins)

    def take_table(self, table):
        self.table = table
        self.tables.append(table)

    def changed(self):
        self.changes += 1

    def save(self):
        self.saves += 1

    def show_link(self, text, table_no):
        self.info["link"] = text
        self.info["table"] = table_no


def live(t=None, level_index=0, ms_left=1200000, app=None):
    """A box link gone LIVE with a host: (link, port, host, now).  The host's
    clock puts it *ms_left* into entry *level_index*; *app*: a StandIn it
    is a part of before the config (the tables the host builds go there)."""
    t = t or link_table()
    port = FakePort()
    link = Link(port, BOX, t, KEY, "ev1", urandom=counter())
    link.restore(None)
    if app is not None:
        app.add(link)
    host = Host(port)
    now = run(link, 1000, 2)
    hello = host.read()[0]
    assert hello["kind"] == "hello" and hello["nonce"] == "0101010101010101"
    host.send(config(t, hello["nonce"]))
    host.send({"kind": "seating", "names": {"1": "Ann", "2": "Bo", "3": "Cy"}})
    host.send({"kind": "clock", "level_index": level_index, "ms_left": ms_left,
               "paused": False, "host_ms": 5})
    now = run(link, now, 10)
    assert link.state == LIVE, link.state
    return link, port, host, now
