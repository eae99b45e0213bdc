"""The MQTT pump of a simulated room (tcsim/nightnet.py, tcsim/boxnet.py; docs/demo.md §3):
it waits for the very frames the hub published to a box, not for as many frames as it
published -- the broker also sends frames nobody counted (the retained ones when a box
subscribes again after a power cut, a publish between a reconnect's CONNECT and SUBACK), and a
count those ran ahead of stopped waiting for the hub's next frames, so when they reached the
box depended on the machine's load (seed 1's faults night: box 2 ten frames ahead after its
power cut at 20:17).
"""

from tcsim.boxnet import BoxConnection

INSTRUCTION = b'{"v":"1.2","kind":"instruction","id":"i-52","action":"receive"}'
RETAINED_CLOCK = b'{"v":"1.2","kind":"clock","level_index":1}'
PING = b'{"v":"1.2","kind":"ping","t":1}'


def test_a_frame_nobody_counted_does_not_stand_for_the_one_awaited():
    conn = BoxConnection("tc-02")
    for _ in range(10):  # what the broker sent on the box's new subscription
        conn.arrived(RETAINED_CLOCK)
    assert conn.settled()
    conn.expect(INSTRUCTION)  # the hub publishes the receive
    assert not conn.settled()  # (a count: 10 frames in, 1 due -- settled)
    conn.arrived(PING)
    assert not conn.settled()
    conn.arrived(INSTRUCTION)
    assert conn.settled()


def test_the_same_frame_published_twice_is_awaited_twice():
    conn = BoxConnection("tc-04")
    conn.expect(PING)
    conn.expect(PING)
    conn.arrived(PING)
    assert not conn.settled()
    conn.arrived(PING)
    assert conn.settled()


# ------------------------------------------------------------------ a busy Wi-Fi
class _Room:
    now_ms = 0


def _jittered_socket(delays):
    """A box's BoxSocket on one end of a socket pair (the broker's end returned), its Net
    with a jitter that gives *delays* in turn, on a room clock at 0."""
    import socket

    from tcsim.boxnet import BoxSocket
    from tcsim.nightnet import Net

    class Broker:
        port = 1883

    net = Net(Broker())
    net.room = _Room()
    it = iter(delays)

    class Jitter:
        def delay(self, box, way):
            return next(it)

    net.jitter = Jitter()
    conn = net.box("tc-07")
    box_end, broker_end = socket.socketpair()
    box_end.setblocking(False)
    sock = BoxSocket(net, conn)
    sock.tcp = box_end
    conn.sock = sock
    net.open.append(sock)
    return net, sock, broker_end


def _read(sock):
    import errno

    buf = bytearray(64)
    try:
        n = sock.recv_into(buf)
    except OSError as e:
        assert e.errno == errno.EAGAIN
        return b""
    return bytes(buf[:n])


def test_a_busy_wifi_holds_frames_on_the_air_in_order():
    """What the broker sends a box is readable only once its delay is over (virtual time),
    one delay per MQTT packet however the kernel cut the stream into reads (the same seed
    gives the same delays on a loaded machine), and a packet never overtakes the one before
    it (TCP): the second, 10 ms on the air but behind one of 900 ms, comes with it."""
    connack, pingresp = b"\x20\x02\x00\x00", b"\xd0\x00"
    net, sock, broker = _jittered_socket([900, 10])
    broker.sendall(connack[:3])  # a packet in two reads: one delay, once it is whole
    sock.drain()
    broker.sendall(connack[3:])
    sock.drain()
    broker.sendall(pingresp)
    sock.drain()
    assert sock.conn.answers == 2  # both reached the box's radio (the pump is settled) ...
    assert _read(sock) == b""  # ... but are on the air
    net.room.now_ms = 899
    assert _read(sock) == b""
    net.room.now_ms = 900
    assert _read(sock) == connack + pingresp
    broker.close()
    sock.close()


def test_what_a_box_sends_reaches_the_broker_after_its_delay():
    """A box's send goes on the air; the pump writes it once its delay is over, and only
    then is it counted as a packet the pump awaits an answer to."""
    net, sock, broker = _jittered_socket([300, 5])
    broker.setblocking(False)
    pingreq = b"\xc0\x00"
    assert sock.send(pingreq) == 2
    assert sock.send(b"\xc0\x00") == 2
    sock.release(299)  # (Net.pump releases; here by hand)
    assert sock.conn.answers_due == 0
    try:
        assert broker.recv(16) == b""
    except BlockingIOError:
        pass
    sock.release(300)
    assert broker.recv(16) == pingreq * 2  # the second one, due at 5 ms, waited behind it
    assert sock.conn.answers_due == 2
    broker.close()
    sock.close()


def test_a_busy_wifi_is_the_same_for_a_seed_and_bounded():
    from tcsim.nightnet import BusyWifi

    a, b = BusyWifi(4), BusyWifi(4)
    one = [a.delay("tc-001", "down") for _ in range(2000)]
    assert one == [b.delay("tc-001", "down") for _ in range(2000)]
    assert one != [a.delay("tc-002", "down") for _ in range(2000)]  # each box its own
    assert 5 <= min(one) and max(one) < 60 + 400 + 1500
    assert sum(1 for ms in one if ms > 460) >= 10  # stalls happen (about 1 in 50)
    assert a.counts()["chunks"] == 4000
