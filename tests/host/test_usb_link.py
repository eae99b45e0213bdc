"""Box link (tcbox/link/box_end.py) <-> host link (tdhost/links/usb.py) over real pseudo-terminals.

The box end is the pty's master, wrapped in a usb_cdc-like port (non-blocking
os.read/os.write); the host end opens the pty's slave by name with pyserial,
as it would /dev/ttyACM1.  pyserial's loop:// checks the host on its own.
Time is a number the test moves; "never blocks" is measured as work done
per poll (port calls, frames encoded and decoded), not wall-clock time.
"""

import fcntl
import os
import select
import struct
import termios
import threading
import time
import tty

import pytest
import serial
from click.testing import CliRunner
from serial.tools.list_ports_common import ListPortInfo

from tableclock.protocol import Sender, box_key, encode
from tcbox.link.box_end import OUTBOX_MAX, Link
from tcbox.link.frames import setup_of
from tcbox.link.states import HELLO_SENT, LIVE
from tdhost.cli.app import cli
from tdhost.links import logins, usb
from tdhost.links.boxlink import QUEUE_MAX, BoxLink, StaticFeed
from tdhost.links.hoststore import HostStore
from tdhost.links.usb import ResetBaudError
from tdhost.live.instruction_book import InstructionBook

KEY = bytes(range(32))
KEY_ID = "ev1-k1"
LEVELS = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
          {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}]
SETUP = {"profile": "lppl", "seats": 6, "players": {"1": 3000, "2": 3000, "3": 3000},
         "button": 1, "levels": LEVELS}


class PtyPort:
    """usb_cdc.Serial's API on a pty master: what the box sees."""

    def __init__(self, fd):
        os.set_blocking(fd, False)
        self.fd = fd
        self.connected = True
        self.writes = 0
        self.reads = 0
        self.deaf = False  # True: the box does not see what comes in

    @property
    def in_waiting(self):
        if self.deaf:
            return 0
        buf = fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0")
        return struct.unpack("i", buf)[0]

    def drain(self):
        try:
            while os.read(self.fd, 65536):
                pass
        except (BlockingIOError, OSError):
            pass

    def read(self, n):
        self.reads += 1
        try:
            return os.read(self.fd, n)
        except BlockingIOError:
            return b""

    def write(self, b):
        self.writes += 1
        try:
            return os.write(self.fd, b)
        except BlockingIOError:
            return 0


class Clock:
    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        return self.t


@pytest.fixture
def pty():
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo before pyserial opens it
    name = os.ttyname(slave)
    yield master, name
    os.close(master)
    os.close(slave)


def _table():
    from tableclock.table import Table

    return Table(dict(SETUP))


def _feed(t):
    config = setup_of(t.setup)
    return StaticFeed({4: {"config": config,
                           "seating": {"names": {"1": "Ann", "2": "Bo", "3": "Cy"}},
                           "clock": {"level_index": 0, "ms_left": 1100000, "paused": False}}})


def _box(master, t, extra=None, key=KEY, key_id=KEY_ID):
    box = Link(PtyPort(master), "tc-01", t, key, key_id)
    box.restore(extra if extra is not None else {"b": 6, "t": 4})
    return box


def _host(name, path, t, clock, events=None):
    ser = usb.open_port(name)
    on_event = events.append if events is not None else None
    return BoxLink(ser, KEY, KEY_ID, HostStore(path), _feed(t), on_event, clock=clock)


def _settle(box, host):
    """A pty moves bytes between its ends in the kernel's own time: wait (at
    most a millisecond) until one end has something to read."""
    fds = [box.port.fd] + ([host.ser.fd] if host is not None else [])
    select.select(fds, [], [], 0.002)


def _until(cond, box, host, clock, n=400, step=10):
    """Pump until *cond()* holds (a busy machine moves pty bytes late)."""
    for _ in range(n):
        if cond():
            return True
        _pump(box, host, clock, 1, step)
    return cond()


def _pump(box, host, clock, n=50, step=10):
    for _ in range(n):
        box.poll(clock.t)
        if host is not None:
            host.poll(clock.t)
        _settle(box, host)
        clock.t += step


class _running:
    """The box polled in a thread (for commands that run their own loop)."""

    def __init__(self, box, step=5):
        self.box = box
        self.step = step
        self.stop = threading.Event()
        self.th = threading.Thread(target=self.run)

    def run(self):
        now = 0
        while not self.stop.is_set():
            self.box.poll(now)
            now += self.step
            time.sleep(0.002)

    def __enter__(self):
        self.th.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.th.join()


# ------------------------------------------------------------------ handshake
def test_hello_config_handshake_over_a_pty(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    box = _box(master, t)
    host = _host(name, str(tmp_path / "h.sqlite"), t, clock)
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock)
    assert host.box == "tc-01" and host.table == 4 and host.state == "live"
    assert host.status["hand"] == 0 and box.names == {"1": "Ann", "2": "Bo", "3": "Cy"}
    assert box.table is t  # the same setup: the running table stays
    # pings and pongs keep it live
    _pump(box, host, clock, 100, 300)
    assert box.state == LIVE and host.state == "live"
    host.ser.close()


# ------------------------------------------------------------------ exactly once
def test_events_exactly_once_across_box_reboot_and_host_restart(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    db = str(tmp_path / "h.sqlite")
    applied = []
    box = _box(master, t)
    host = _host(name, db, t, clock, applied)
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock)
    box.observe(t.state())
    for ev in ({"do": "hand"}, {"do": "away", "seat": 3}, {"do": "fold"}, {"do": "fold"}):
        assert t.handle(ev) is None, t.error
        box.observe(t.state())
    whats = [e[0][1] for e in box.outbox]
    assert whats == ["hand_started", "away", "hand_ended"], whats
    extra = box.extra()  # the power-loss record, before any ack came back
    assert _until(lambda: not box.outbox and len(applied) == 3, box, host, clock)
    # the box reboots from that record: the same events again, same ids
    box2 = _box(master, t, extra)
    assert box2.boot == 8 and [e[0][0] for e in box2.outbox] == ["7-1", "7-2", "7-3"]
    assert _until(lambda: not box2.outbox and box2.state == LIVE, box2, host, clock)
    assert len(applied) == 3 and host.repeats >= 3  # each resent at least once, applied once
    # a new event, received by the host; its ack is lost (the box never reads it)
    box2.observe(t.state())  # (the app's first redraw after the boot)
    assert t.handle({"do": "back", "seat": 3}) is None
    box2.observe(t.state())
    box2.port.deaf = True
    assert _until(lambda: len(applied) == 4, box2, host, clock) and box2.outbox
    host.ser.close()
    for _ in range(20):  # the host's acks never reach the box
        time.sleep(0.01)
        box2.port.drain()
    box2.port.deaf = False
    # the host restarts: a new process with the same store
    applied2 = []
    host2 = _host(name, db, t, clock, applied2)
    assert host2.boot == host.boot + 1
    assert _until(lambda: not box2.outbox and box2.state == LIVE and host2.state == "live",
                  box2, host2, clock)  # the box said hello again
    assert applied2 == [] and host2.repeats >= 1
    stored = HostStore(db).events("tc-01")
    assert [e["id"] for e in stored] == ["7-1", "7-2", "7-3", "8-1"]
    assert [e["what"] for e in stored] == ["hand_started", "away", "hand_ended", "back"]
    host2.ser.close()


def test_a_bust_saved_with_its_hand_is_applied_once_across_a_power_cut(pty, tmp_path):
    # the table records the bust at the hand's end; the save of that change takes it into
    # the link's outbox, so the same power-loss record holds the bust and the emptied seat;
    # the power goes before the host's ack: the box restored from that record sends the
    # same event id again, and the host (its HostStore) applies it once
    from tableclock import record
    from tableclock.store import MemoryStore
    from tcbox.app import App

    class Screen:
        def update(self, f):
            return 0

    class Keys:
        def get(self):
            return None

    master, name = pty
    clock = Clock()
    db = str(tmp_path / "h.sqlite")
    t = _table()
    slots = record.Slots(MemoryStore(8192 - 256))
    app = App(t, ["left", "ok", "right"], Screen(), Keys(), saver=record.Saver(slots))
    box = _box(master, t)
    app.add(box)
    applied = []
    host = _host(name, db, t, clock, applied)
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock)
    # hand 1: button 1, seat 2 small blind, seat 3 big blind; seat 1 and seat 3 all in,
    # seat 2 folds; seat 1 wins: seat 3 is out with its 3000 of the hand's start
    for ev in ({"do": "hand"}, {"do": "allin"}, {"do": "fold"}, {"do": "allin"},
               {"do": "showdown", "ranking": [[1], [3]]}):
        assert t.handle(ev) is None, t.error
        app.save()  # as App.press does after an accepted event
    assert 3 not in t.stacks and t.stacks[1] == 6025
    box.port.deaf = True  # the host's acks never reach the box
    rec = slots.load()
    assert [e[1:] for e in rec["extra"]["o"] if e[1] == "bust"] == [["bust", 3, 3000, 1]]
    assert _until(lambda: [m["what"] for m in applied] == ["hand_started", "hand_ended",
                                                          "bust"], box, host, clock)
    _pump(box, host, clock, 20)  # the host's acks, never read by the box: thrown away
    box.port.drain()
    assert [e[0][0] for e in box.outbox] == ["7-1", "7-2", "7-3"]
    # the power goes: the box starts from the record (the table without seat 3, the bust)
    t2, extra = record.load(slots.load())
    assert 3 not in t2.stacks
    box2 = _box(master, t2, extra)
    assert [e[0][0] for e in box2.outbox] == ["7-1", "7-2", "7-3"]
    assert _until(lambda: not box2.outbox and box2.state == LIVE, box2, host, clock)
    assert len(applied) == 3 and host.repeats >= 1  # sent again with the same ids, once applied
    stored = HostStore(db).events("tc-01")
    assert [(e["id"], e["what"]) for e in stored] == [
        ("7-1", "hand_started"), ("7-2", "hand_ended"), ("7-3", "bust")]
    assert stored[2]["seat"] == 3 and stored[2]["chips_start"] == 3000 and stored[2]["hand"] == 1
    host.ser.close()


def test_replays_and_duplicates_are_refused_both_ways(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    applied = []
    box = _box(master, t)
    host = _host(name, str(tmp_path / "h.sqlite"), t, clock, applied)
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock)
    # box -> host: an event frame played again is a duplicate
    frame = box.tx.encode({"kind": "event", "id": "7-50", "what": "away", "seat": 2}, "host")
    os.write(master, frame)
    assert _until(lambda: len(applied) == 1, box, host, clock)
    os.write(master, frame)
    assert _until(lambda: host.rx.duplicates == 1, box, host, clock) and len(applied) == 1
    # host -> box: a frame of an older host boot is stale
    old = Sender(KEY, "host", host.boot - 1)
    host.ser.write(old.encode({"kind": "clock", "level_index": 1, "ms_left": 5, "paused": True,
                               "host_ms": 0}, "tc-01"))
    assert _until(lambda: box.rx.stale == 1, box, host, clock) and t.clock.index == 0
    host.ser.close()


# ------------------------------------------------------------------ never blocked
def test_a_host_that_stops_reading_never_blocks_the_box(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    applied = []
    box = _box(master, t)
    host = _host(name, str(tmp_path / "h.sqlite"), t, clock, applied)
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock)
    # the host stops reading; the box goes on for a long night
    box.observe(t.state())
    made = 0
    for i in range(3000):
        if i % 10 == 0:
            assert t.handle({"do": "away" if made % 2 == 0 else "back", "seat": 2}) is None
            box.observe(t.state())
            made += 1
        ops, w, r = box.ops, box.port.writes, box.port.reads
        box.poll(clock.t)
        assert box.ops - ops <= 4 and box.port.writes - w <= 1 and box.port.reads - r <= 1
        clock.t += 50
    assert box.stalls > 0  # the pty's buffer filled up: writes took nothing
    assert len(box.outbox) == OUTBOX_MAX and box.dropped == made - OUTBOX_MAX
    # the host reads again: every event still in the outbox arrives once
    waiting = [e[0][0] for e in box.outbox]
    for _ in range(2000):
        box.poll(clock.t)
        host.poll(clock.t)
        _settle(box, host)
        clock.t += 20
        if not box.outbox:
            break
    assert not box.outbox
    got = [m["id"] for m in applied]
    assert set(waiting) <= set(got) and len(got) == len(set(got))
    host.ser.close()


def test_a_box_that_stops_reading_never_blocks_the_host(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    box = _box(master, t)
    host = _host(name, str(tmp_path / "h.sqlite"), t, clock)
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock)
    start = time.monotonic()
    host.book = InstructionBook()
    for i in range(2000):  # the box is gone quiet; the host keeps instructing
        host.book.hand(host, {"id": "i-%d" % i, "action": "message", "text": "x" * 200})
        host.poll(clock.t)
        clock.t += 10
    assert time.monotonic() - start < 30  # (a blocking write would hang here for ever)
    assert host.stalls > 0 and len(host.queue) <= QUEUE_MAX and host.dropped > 0
    host.ser.close()


# ------------------------------------------------------------------ garbage
def test_garbage_lines_are_ignored_and_counted(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    box = _box(master, t)
    host = _host(name, str(tmp_path / "h.sqlite"), t, clock)
    # the box's console prints and noise reach the host ...
    os.write(master, b"Auto-reload is off.\r\ncode.py output:\r\n" + b"z" * 5000 + b"\n")
    # ... and the host's side sends noise to the box
    host.ser.write(b"\x1b[A\r\nAT+GMR\r\n" + b"{" * 4500 + b"\n")
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock)
    _pump(box, host, clock, 10)  # (and the link works all the same)
    assert host.garbage == 2 and host.lines.overlong == 1
    assert box.garbage == 2 and box.lines.overlong == 1
    host.ser.close()


def test_a_box_with_another_key_is_shown_not_trusted(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    box = _box(master, t, key=b"another event key 0123456789abcd", key_id="ev0-k9")
    host = _host(name, str(tmp_path / "h.sqlite"), t, clock)
    assert _until(lambda: host.rx.forged >= 1, box, host, clock)
    assert host.box is None
    assert host.foreign == {"from": "tc-01", "kind": "hello", "key_id": "ev0-k9", "table": 4,
                            "fw": box.fw}
    host.ser.close()


# ------------------------------------------------------------------ pairing
def test_pairing_over_a_pty(pty, tmp_path):
    master, name = pty
    t = _table()
    box = Link(PtyPort(master), "tc-01", t)  # a new box: no key
    box.restore(None)
    clock = Clock(0)
    box.poll(0)
    ser = usb.open_port(name)

    def sleep(s):  # the box runs while the host waits
        clock.t += 10
        box.poll(clock.t)
        select.select([master, ser.fd], [], [], 0.001)

    key = bytes(range(100, 132))
    got = usb.pair(ser, 4, key, "ev2-k1", "Spring", {"wifi_ssid": "club"},
                   clock=lambda: clock.t / 1000, sleep=sleep)
    assert got == "tc-01"
    assert box.paired and box.key == key and box.table_no == 4
    assert box.pairing["settings"] == {"wifi_ssid": "club"} and box.pairing["event"] == "Spring"
    # the pairing is in the record: after a reboot the box speaks with the new key
    box2 = Link(PtyPort(master), "tc-01", t)
    box2.restore(box.extra())
    assert box2.paired and box2.key_id == "ev2-k1"
    ser.close()


def test_pairing_times_out_without_a_box(pty):
    master, name = pty
    ser = usb.open_port(name)
    now = [0.0]

    def sleep(s):
        now[0] += s

    with pytest.raises(usb.PairError):
        usb.pair(ser, 4, KEY, timeout_s=0.5, clock=lambda: now[0], sleep=sleep)
    assert b'"kind":"pair"' in os.read(master, 4096)
    ser.close()


def test_the_unpaired_hello_is_readable(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    box = Link(PtyPort(master), "tc-77", t)
    box.restore(None)
    host = _host(name, str(tmp_path / "h.sqlite"), t, clock)
    assert _until(lambda: host.unpaired is not None, box, host, clock)
    assert host.unpaired["from"] == "tc-77" and host.unpaired["key_id"] == "unpaired"
    host.ser.close()


def test_tdhost_pair_command(pty, tmp_path):
    master, name = pty
    t = _table()
    box = Link(PtyPort(master), "tc-05", t)
    box.restore(None)
    with _running(box):
        keyf = tmp_path / "event.key"
        r = CliRunner().invoke(cli, ["pair", name, "--table", "7", "--key-file", str(keyf),
                                     "--new-key", "--event", "Spring", "--wifi-ssid", "club",
                                     "--mqtt-host", "td.local", "--mqtt-port", "1883"])
        assert r.exit_code == 0, r.output
        key = bytes.fromhex(keyf.read_text().strip())
        assert "box tc-05 is table 7 with key %s" % usb.key_id_of(key) in r.output
        # paired for Wi-Fi: a key of its own and a broker login made here, kept for serve
        assert box.key == box_key(key, "tc-05") != key and box.pairing["keys"] == "box"
        s = box.pairing["settings"]
        assert s["mqtt_port"] == 1883 and s["mqtt_host"] == "td.local" and "mqtt_user" not in s
        kept = logins.load(logins.path_of(str(keyf)))
        assert kept == {"tc-05": {"table": 7, "password": s["mqtt_password"],
                                  "host": "td.local", "port": 1883}}
        assert len(s["mqtt_password"]) == 24 and oct(os.stat(
            logins.path_of(str(keyf))).st_mode & 0o777) == "0o600"
        assert "mqtt://td.local:1883" in r.output
        r = CliRunner().invoke(cli, ["pair", name, "--table", "7", "--key-file", str(keyf),
                                     "--mqtt-host", "td.local"])
        assert r.exit_code == 2 and "need --wifi-ssid" in r.output
        r = CliRunner().invoke(cli, ["pair", name, "--table", "7", "--key-file", str(keyf),
                                     "--new-key"])
        assert r.exit_code == 2 and "never overwrites" in r.output
    r = CliRunner().invoke(cli, ["pair", name, "--table", "7", "--key-file",
                                 str(tmp_path / "nope")])
    assert r.exit_code == 2 and "does not exist" in r.output


# ------------------------------------------------------------------ loop://, ports, 1200
def test_loop_url_framing_and_the_hosts_own_echo():
    ser = usb.open_port("loop://")
    t = _table()
    store = HostStore(":memory:")
    host = BoxLink(ser, KEY, KEY_ID, store, _feed(t), clock=Clock())
    hello = encode({"kind": "hello", "fw": "1", "table": 4, "key_id": KEY_ID, "nonce": "ab12"},
                   KEY, 1, "tc-09", 3, "host")
    ser.write(b"noise\r\n" + hello)
    host.poll(1000)  # reads the hello, answers config + seating + clock + ping
    assert host.box == "tc-09" and host.state == "configured" and host.garbage == 1
    invalid = host.rx.invalid
    host.poll(1010)  # loop:// hands the host its own frames: refused (they are for a box)
    assert host.rx.invalid > invalid
    ser.close()


def test_1200_baud_is_never_used():
    with pytest.raises(ResetBaudError):
        usb.open_port("loop://", 1200)
    ser = serial.serial_for_url("loop://", baudrate=1200)
    with pytest.raises(ResetBaudError):
        BoxLink(ser, KEY, KEY_ID, HostStore(":memory:"))
    with pytest.raises(ResetBaudError):
        usb.pair(ser, 1, KEY, timeout_s=0.1)
    ok = usb.open_port("loop://")
    link = BoxLink(ok, KEY, KEY_ID, HostStore(":memory:"))
    ok.baudrate = 1200  # changed behind its back: the next poll refuses
    with pytest.raises(ResetBaudError):
        link.poll(0)


def _port(device, vid, pid, iface=None, desc="CircuitPython CDC control"):
    p = ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.interface, p.description, p.serial_number = vid, pid, iface, desc, "ABC"
    return p


def test_candidates_by_usb_vendor(monkeypatch):
    ports = [_port("/dev/ttyACM0", 0x239A, 0x811E, "CircuitPython CDC control"),
             _port("/dev/ttyACM1", 0x239A, 0x811E, "CircuitPython CDC2 data"),
             _port("/dev/ttyACM2", 0x303A, 0x1001),
             _port("/dev/ttyUSB0", 0x0403, 0x6001, desc="FT232R")]
    c = usb.candidates(ports)
    assert [(x["device"], x["maker"], x["data"]) for x in c] == [
        ("/dev/ttyACM0", "Adafruit", False), ("/dev/ttyACM1", "Adafruit", True),
        ("/dev/ttyACM2", "Espressif", False)]
    monkeypatch.setattr(usb.serial.tools.list_ports, "comports", lambda: ports)
    r = CliRunner().invoke(cli, ["boxes"])
    assert r.exit_code == 0
    assert "/dev/ttyACM1" in r.output and "239a:811e" in r.output and "[data]" in r.output
    assert "ttyUSB0" not in r.output


def test_boxes_listen_shows_the_hello(pty, monkeypatch):
    master, name = pty
    t = _table()
    box = Link(PtyPort(master), "tc-42", t, KEY, KEY_ID)
    box.restore({"b": 1, "t": 9})
    monkeypatch.setattr(usb.serial.tools.list_ports, "comports",
                        lambda: [_port(name, 0x239A, 0x8124, "CircuitPython CDC2 data")])
    with _running(box, step=500):  # a hello every 3 s of box time
        r = CliRunner().invoke(cli, ["boxes", "--listen", "0.3"])
    assert r.exit_code == 0, r.output
    assert "box tc-42: table 9, key ev1-k1" in r.output


def test_hello_resends_reach_a_host_that_comes_late(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    box = _box(master, t)
    for _ in range(5):
        box.poll(clock.t)
        clock.t += 1000
    assert box.state == HELLO_SENT
    # the host opens the port later (the earlier hellos sit in the pty: stale nonces)
    host = _host(name, str(tmp_path / "h.sqlite"), t, clock)
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock,
                  step=200)
    assert box.rx.accepted >= 3
    host.ser.close()


# ------------------------------------------------------------------ the power-loss record
def test_the_links_part_goes_through_the_power_loss_record_and_fits_it(pty):
    from tableclock import record
    from tableclock.store import MemoryStore
    from tcbox.app import App

    class Screen:
        def update(self, f):
            return 0

    class Keys:
        def get(self):
            return None

    master, name = pty
    half = (8192 - 256) // 2  # the box's record slot (tcbox/crashlog.py's LOG / 2)
    slots = record.Slots(MemoryStore(2 * half))
    t = Table10()
    app = App(t, ["left", "ok", "right"], Screen(), Keys(), saver=record.Saver(slots))
    box = Link(PtyPort(master), "tc-0123456789ab", t, KEY, KEY_ID)
    box.restore({"b": 41, "t": 12, "p": {
        "key": KEY.hex(), "key_id": "ev1-k1-abcdefgh", "table": 12,
        "event": "WPH Spring Championship", "settings": {
            "wifi_ssid": "PokerClubGuest-5G", "wifi_password": "correct horse battery staple",
            "mqtt_host": "192.168.100.200", "mqtt_port": 1883}}})
    app.add(box)
    app.step(0)
    assert slots.load()["extra"]["b"] == 42  # the new boot counter, saved at once
    # a long night with no host: full outbox, answered and pending instructions
    for i in range(70):
        box.event(["hand_ended", 1000 + i, {str(s): 123456 for s in range(1, 11)}])
        if i % 20 == 0:  # busts among them, the oldest before 64 events came after
            box.event(["bust", 1 + i // 20, 1234567, 1000 + i])
    for i in range(3):
        box.book.hand("p-%d" % i, {"kind": "instruction", "id": "p-%d" % i,
                                   "action": "message", "text": "x" * 300})
    box.book.hand("p-3", {"kind": "instruction", "id": "p-3", "action": "move_out",
                          "seat": 3, "to_table": 12, "to_seat": 7, "name": "Christopher X.",
                          "sv": 1234567, "after": "i6c2f1a-1234"})
    for i in range(28):
        box.book.answer("i6c2f1a-%d" % (1000 + i), "refused" if i % 2 else "done",
                        "Seat 10 is Christopher Columbus, not Bartholomew: ask the TD"
                        if i % 2 else None, None if i % 2 else 1234567)
    busy_hand(t)
    app.save()
    rec = slots.load()
    assert len(record.encode(rec)) <= half
    # the power goes: the same table, the newest unsent events, the pairing
    t2, extra = record.load(rec)
    box2 = Link(PtyPort(master), "tc-0123456789ab", t2)
    box2.restore(extra)
    assert box2.boot == 43 and box2.paired and box2.table_no == 12
    ids = [e[0][0] for e in box2.outbox]
    # the busts, whole, then the newest informational ones that fit (the busy hands' last)
    assert [e[0][1] for e in box2.outbox][:4] == ["bust"] * 4
    assert [e[0][0] for e in box2.outbox][:4] == [e[0][0] for e in box.outbox
                                                  if e[0][1] == "bust"]
    assert ids[-1] == box.outbox[-1][0][0] and len(ids) < OUTBOX_MAX
    assert box.unsaved == 0 and "events waiting" in box.info_text()  # the outbox is full
    # the book: the move that fits its bodies' bytes on screen (the host resends the
    # others), the newest answers with their reasons and stacks
    assert box2.book.shown()[:2] == ["p-3", "shown"] and box2.book.shown()[3]["sv"] == 1234567
    assert box2.book.find("i6c2f1a-1027")[1:3] == ["refused", "Seat 10 is Christopher "
                                                   "Columbus, not Bartholomew: ask the TD"]
    assert box2.book.find("i6c2f1a-1026")[1:4] == ["done", None, 1234567]
    assert t2.state() == t.state()


def Table10():
    from tableclock.table import Table

    return Table({"profile": "lppl", "seats": 10,
                  "players": {str(s): 3000 for s in range(1, 11)}, "button": 1,
                  "levels": LEVELS})


def busy_hand(t):
    """A few hands, then a 10-way hand with bets on three streets: a big record."""
    for _ in range(3):
        t.handle({"do": "hand"})
        while t.hand is not None and t.hand.actor is not None:
            assert t.handle({"do": "call"}) is None
        if t.hand is not None:
            assert t.handle({"do": "showdown", "ranking": [t.state()["in_hand"]]}) is None
    t.handle({"do": "hand"})
    for _ in range(9):
        t.handle({"do": "call"})
    t.handle({"do": "check"})
    for _ in range(3):
        st = t.state()
        if st["street"] in (None, "showdown"):
            break
        assert t.handle({"do": "bet", "to": st["min_raise_to"]}) is None
        while t.state()["action"] is not None and t.state()["street"] == st["street"]:
            t.handle({"do": "call"})


def test_usb_link_on_the_simulators_usb_cdc():
    from tcsim import stubs

    stubs.install()  # as the simulator (and tests/sim) do: usb_cdc, microcontroller
    import usb_cdc

    from tcbox import usb_link

    data = usb_cdc.data
    data.connected = False
    data.sent = bytearray()
    link = usb_link.make(_table(), {"b": 2})
    assert (data.timeout, data.write_timeout) == (0, usb_link.WRITE_TIMEOUT)
    assert link.boot == 3 and link.box_id.startswith("tc-") and len(link.box_id) == 15
    link.poll(0)
    assert link.state == 0 and not data.sent  # nobody has the port open
    data.connected = True
    try:
        link.poll(10)
        assert link.state == HELLO_SENT and b'"kind":"hello"' in bytes(data.sent)
    finally:
        data.connected = False
        data.sent = bytearray()


def test_a_new_host_first_hears_an_event_not_a_hello(pty, tmp_path):
    master, name = pty
    clock = Clock()
    t = _table()
    db = str(tmp_path / "h.sqlite")
    box = _box(master, t)
    host = _host(name, db, t, clock)
    assert _until(lambda: box.state == LIVE and host.state == "live", box, host, clock)
    host.ser.close()
    _pump(box, None, clock, 10)  # the box answers what was left (into the void)
    applied = []
    host2 = _host(name, db, t, clock, applied)  # (opening it drops what was waiting)
    box.observe(t.state())
    assert t.handle({"do": "away", "seat": 1}) is None
    box.observe(t.state())
    box.poll(clock.t)  # the event goes out before any hello
    for _ in range(500):  # the host alone reads it (at most a second or so)
        select.select([host2.ser.fd], [], [], 0.002)
        host2.poll(clock.t)
        if applied:
            break
    assert [m["what"] for m in applied] == ["away"] and host2.box == "tc-01"
    assert _until(lambda: not box.outbox and box.state == LIVE and host2.state == "live",
                  box, host2, clock)
    host2.ser.close()


def test_the_clock_s_saves_do_not_rebuild_the_table_s_state():
    # the link's on_save (tcbox/link/box_end.py): it takes the table's facts, recorded when
    # they happened, and builds no state of the table, neither at the 30 s saves of the
    # running clock nor after an event (issue #20: 4 KB of dicts each)
    from link_util import FakePort
    from tableclock import record
    from tableclock.store import MemoryStore
    from tcbox.app import App

    class Screen:
        def update(self, f):
            return 0

    class Keys:
        def get(self):
            return None

    t = Table10()
    app = App(t, ["left", "ok", "right"], Screen(), Keys(),
              saver=record.Saver(record.Slots(MemoryStore(8192)), slack_ms=1000))
    box = Link(FakePort(), "tc-0123456789ab", t, KEY, KEY_ID)
    box.restore({"b": 1, "t": 3, "p": {"key": KEY.hex(), "key_id": KEY_ID, "table": 3,
                                       "event": "WPH"}})
    app.add(box)
    app.step(0)
    states = []
    real = t.state

    def counted():
        states.append(1)
        return real()
    t.state = counted
    writes = app.saver.slots.seq
    app.save()  # nothing changed
    t.advance(31000)
    app.save()  # only the clock: written (its slack is 1 s), no state built
    assert states == [] and app.saver.slots.seq == writes + 1
    assert t.handle({"do": "hand"}) is None
    app.save()  # an event: its fact taken into the outbox and saved with it, no state built
    assert states == []
    assert [e[0][1] for e in box.outbox][-1:] == ["hand_started"]
