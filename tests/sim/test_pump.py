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
