"""The box's MQTT port (tcbox/mqtt_link.py) without a network: the frames
it publishes and where, the inbox it fills, pairing from USB only, the
back-off and the Wi-Fi rejoin schedule (docs/mqtt.md).  Portable: these run
under MicroPython too, where the module must work as on the board (no
adafruit_minimqtt here: a recording stand-in plays the client)."""

from tableclock.wire import check_id
from tcbox.link.pairing import settings_of, wants_mqtt
from tcbox.mqtt_link import INBOX_BYTES, INBOX_MAX, MqttPort
from tcbox.mqtt_net import BACKOFF_MAX_MS, IDLE, UP, WifiWatch

HELLO = b'{"v":"1.0","kind":"hello","from":"tc-01","to":"host","boot":1,"seq":1,"body":{}}\n'
STATUS = b'{"v":"1.0","kind":"status","from":"tc-01","to":"host","boot":1,"seq":2,"body":{}}\n'
EVENT = b'{"v":"1.0","kind":"event","from":"tc-01","to":"host","boot":1,"seq":3,"body":{}}\n'
PING = b'{"v":"1.0","kind":"ping","from":"host","to":"tc-01","boot":4,"seq":9,"body":{}}'
PAIR = b'{"v":"1.0","kind":"pair","from":"host","to":"*","boot":0,"seq":1,"body":{}}'


class Client:
    """Records MiniMQTT publishes."""

    def __init__(self):
        self.sent = []
        self._sock = None
        self._is_connected = True

    def publish(self, topic, msg, retain=False, qos=0):
        assert isinstance(msg, bytes)  # MiniMQTT refuses a bytearray
        self.sent.append((topic, msg, retain, qos))

    def _close_socket(self):
        pass


class Usb:
    """A serial port (the box's USB data port)."""

    def __init__(self):
        self.connected = True
        self.incoming = b""
        self.written = b""

    @property
    def in_waiting(self):
        return len(self.incoming)

    def read(self, n):
        d = self.incoming[:n]
        self.incoming = self.incoming[n:]
        return d

    def write(self, b):
        self.written += bytes(b)
        return len(b)


class NoNet:
    """A socket pool with no network (EHOSTUNREACH)."""

    AF_INET = 2
    SOCK_STREAM = 1

    def socket(self, family=2, type=1, proto=0):
        raise OSError(113, "EHOSTUNREACH")


def _port(usb=None, rand=None):
    return MqttPort(NoNet(), "tc-01", "ev1", "10.0.0.2", usb=usb, ticks=lambda: 0,
                    rand=rand or (lambda: 0))


def _up(p):
    p.client = Client()
    p.state = UP
    return p.client


def test_frames_go_to_their_kinds_topics_at_qos_0():
    p = _port()
    assert p.write(HELLO) == 0 and not p.connected  # not connected: nothing taken
    c = _up(p)
    assert p.connected
    assert p.write(memoryview(HELLO + STATUS)) == len(HELLO) + len(STATUS)
    base = "tc/ev1/box/tc-01/"
    assert c.sent == [(base + "out", HELLO, False, 0), (base + "presence", HELLO, True, 0),
                      (base + "status", STATUS, True, 0)]
    assert p.write(EVENT[:20]) == 20 and len(c.sent) == 3  # half a frame waits ...
    p._fail(0, "the connection broke")  # ... and goes with the connection
    c = _up(p)
    assert p.write(b"\n" + EVENT) == len(EVENT) + 1  # the Link ends a cut line first
    assert c.sent == [(base + "out", EVENT, False, 0)] and p.published == 3


def test_the_inbox_takes_the_boxes_topic_refuses_pair_and_drops_the_oldest():
    p = _port()
    p._message(None, "tc/ev1/box/tc-02/in", bytearray(PING))  # another box's topic
    p._message(None, p.t_in, bytearray(PAIR))  # pairing is for USB only
    p._message(None, p.t_in, bytearray(4097))  # one byte more than a frame
    assert p.in_waiting == 0 and p.refused_pairs == 1 and p.too_large == 1
    p._message(None, p.t_in, bytearray(PING))
    assert p.in_waiting == len(PING) + 1  # with its newline
    assert p.read(10) + p.read(1000) == PING + b"\n" and p.in_waiting == 0
    for i in range(INBOX_MAX + 3):
        p._queue(b"%02d" % i + b"y" * 98 + b"\n")
    assert len(p.inbox) == INBOX_MAX and p.dropped == 3 and p.read(2) == b"03"
    big = b"z" * 4001
    p._queue(big)
    p._queue(big)
    assert p.inbox_bytes <= INBOX_BYTES and p.inbox[-1] == big
    assert p.in_waiting == p.inbox_bytes  # the part-read head was dropped whole


def test_a_pair_frame_from_usb_reaches_the_link_and_the_hello_goes_back_there():
    usb = Usb()
    p = _port(usb)
    usb.incoming = b"print noise\r\n" + PING + b"\n" + PAIR + b"\n"
    for now in (100, 110, 120, 130):
        p.poll(now)
    assert p.state != UP and p.connected  # trusted for a moment: the Link reads it
    assert p.read(1000) == PAIR + b"\n" and p.in_waiting == 0  # only the pair frame
    assert p.write(HELLO) == len(HELLO) and usb.written == HELLO
    p.poll(2130)
    assert not p.connected  # two seconds later: the broker decides again


def test_connect_attempts_back_off_from_1_to_6_seconds_with_jitter():
    p = _port(rand=lambda: 255)
    waits = []
    for _ in range(8):
        p._fail(0, "no broker")
        waits.append(p.next_at)
    assert waits == [1249, 2498, 4996, 7494, 7494, 7494, 7494, 7494]  # within 10 s
    assert p.state == IDLE and p.failures == 8 and BACKOFF_MAX_MS == 6000
    p._up(40000)
    assert p.backoff == 0 and p.state == UP


class Radio:
    def __init__(self):
        self.connected = False
        self.tries = []

    def connect(self, ssid, password="", timeout=None):
        self.tries.append((ssid, timeout))
        raise OSError(2, "No network with that ssid")


def test_wifi_rejoins_are_spaced_and_wait_for_a_calm_table():
    r = Radio()
    w = WifiWatch(r, "club", "secret")
    times = []
    now = 0
    while now < 700000:
        if not w.up(now):
            n = len(r.tries)
            w.poll(now, calm=now >= 5000)
            if len(r.tries) > n:
                times.append(now)
        now += 100
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert times[0] == 10000 and gaps[:5] == [10000, 20000, 40000, 80000, 160000]
    assert gaps[5:] == [300000] * len(gaps[5:]) and w.failures == len(times)
    assert r.tries[0] == ("club", 5)
    w2 = WifiWatch(Radio(), "club")
    w2.up(0)
    w2.poll(110000, calm=False)  # a hand running: not yet
    assert w2.joins == 0
    w2.poll(120000, calm=False)  # down 2 minutes: even during a hand
    assert w2.joins == 1


def test_settings_choose_the_transport_and_ids_are_checked():
    s = {"wifi_ssid": "club", "mqtt_host": "10.0.0.2"}
    assert wants_mqtt(s) and not wants_mqtt({"wifi_ssid": "club"})
    assert not wants_mqtt(None) and not wants_mqtt({"wifi_ssid": "", "mqtt_host": "h"})
    assert settings_of({"key_id": "k-1", "settings": s}) == (s, "k-1")
    assert settings_of({"key_id": "k-1", "settings": dict(s, mqtt_event="e")})[1] == "e"
    assert settings_of({"key_id": "k-1"}) == (None, None)
    for bad in ("", "a/b", "a+b", "#", "x" * 33, 5):
        try:
            check_id("the event", bad)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % (bad,))
    try:
        MqttPort(None, "tc-01", "ev1", "10.0.0.2", port=0)
    except ValueError as e:
        assert str(e) == "the MQTT port must be a number from 1 to 65535"
    else:
        raise AssertionError("port 0 accepted")
