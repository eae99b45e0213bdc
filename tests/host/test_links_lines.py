"""tdhost.links.usb's one frame-reading loop (lines_waiting, peeked): what BoxLink, box_on,
pair and listen all read a port with."""

from tableclock.protocol import HOST, Sender
from tableclock.wire import Lines
from tdhost.links.pipe import Cable
from tdhost.links.usb import READ_MAX, lines_waiting, peeked

KEY = bytes(range(32))


def test_a_line_cut_in_two_waits_for_its_end():
    cable = Cable()
    lines = Lines()
    cable.a.write(b"boot noise\r\nhalf a li")
    assert list(lines_waiting(cable.b, lines)) == [b"boot noise"]
    assert list(lines_waiting(cable.b, lines)) == []  # nothing new: nothing read
    cable.a.write(b"ne\n\n")
    assert list(lines_waiting(cable.b, lines)) == [b"half a line", b""]


def test_one_call_reads_at_most_read_max_bytes():
    cable = Cable(capacity=4 * READ_MAX)
    lines = Lines()
    cable.a.write((b"y" * 99 + b"\n") * (2 * READ_MAX // 100))
    first = list(lines_waiting(cable.b, lines))
    assert len(first) == READ_MAX // 100 and cable.b.in_waiting > 0  # the rest: next poll
    assert len(first) + len(list(lines_waiting(cable.b, lines))) == 2 * READ_MAX // 100


def test_peeked_gives_a_frames_envelope_and_none_for_noise():
    cable = Cable()
    frame = Sender(KEY, "tc-07", 3).encode({"kind": "hello", "fw": "0.3.1", "table": 4,
                                             "key_id": "ev1-k1"}, HOST)
    cable.a.write(b"Auto-reload is off.\n" + frame + b'{"v":"1.0", not json\n')
    got = list(peeked(cable.b, Lines()))
    assert [p for _, p in got] == [
        None, {"from": "tc-07", "kind": "hello", "key_id": "ev1-k1", "table": 4, "fw": "0.3.1"},
        None]
    assert got[1][0] == frame.rstrip(b"\n")
