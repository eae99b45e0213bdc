"""Box Link over MQTT <-> broker <-> host MqttHub (docs/mqtt.md).

The box is the firmware's own MqttLink/MqttPort (tcbox/mqtt_link.py) with
the real adafruit_minimqtt 8.1 on CPython sockets; the host is
tdhost.links.mqtt.MqttHub with tdhost.links.boxlink.BoxLink per box (paho-mqtt 2.x); the
broker is the embedded amqtt and Mosquitto (skipped, with its reason, when
/usr/sbin/mosquitto is missing), started by tests/host/faultutil.py's Broker.
Both links run on one clock the test moves, 10 ms per loop; the real waits
are the network's (a loop sleeps 2 ms so the broker and paho's thread get to
run), each wait bounded.
"""

import socket
import time

import paho.mqtt.client as mqtt
import pytest
from faultutil import Broker, real_ms
from paho.mqtt.enums import CallbackAPIVersion

from tableclock.protocol import Sender, box_key
from tableclock.table import Table
from tcbox.link.frames import setup_of
from tcbox.link.states import DISCONNECTED, HELLO_SENT, LIVE
from tcbox.mqtt_link import MqttLink, MqttPort
from tcbox.mqtt_net import UP
from tdhost.links.boxlink import StaticFeed
from tdhost.links.broker import MosquittoMissing
from tdhost.links.hoststore import HostStore
from tdhost.links.mqtt import BOXES_MAX, MqttHub, parse_url

KEY = bytes(range(32))
OTHER_KEY = bytes(range(100, 132))
EVENT = "ev1"
LEVELS = [{"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
          {"sb": 50, "bb": 100, "ante": 0, "minutes": 20}]
SETUP = {"profile": "lppl", "seats": 6, "players": {"1": 3000, "2": 3000, "3": 3000},
         "button": 1, "levels": LEVELS}
FEED = StaticFeed({4: {"config": setup_of(SETUP),
                       "seating": {"names": {"1": "Ann", "2": "Bo", "3": "Cy"}},
                       "clock": {"level_index": 0, "ms_left": 600000, "paused": False}}})
USERS = {"host": "host-secret", "tc-01": "pw-01", "tc-02": "pw-02", "tc-09": "pw-09"}
REAL_S = 15.0  # the most any wait in these tests may take


@pytest.fixture(params=["amqtt", "mosquitto"])
def broker(request, tmp_path):
    try:
        b = Broker(request.param, tmp_path, USERS)
    except MosquittoMissing as e:
        pytest.skip(str(e))
    yield b
    b.stop()


class Clock:
    def __init__(self):
        self.now = 1000

    def __call__(self):
        return self.now


def _box(broker, box_id="tc-01", key=None, password=None):
    """A box paired for Wi-Fi: its own key (``box_key``) unless *key*."""
    key = box_key(KEY, box_id) if key is None else key
    user, pw = broker.creds(box_id)
    port = MqttPort(socket, box_id, EVENT, "127.0.0.1", broker.port, user,
                    password if password is not None else pw, rand=lambda: 0, ticks=real_ms)
    box = MqttLink(port, box_id, Table(SETUP), key=key, key_id=EVENT)
    box.restore(None)
    box.table_no = 4  # as pairing leaves it
    return box, port


def _hub(broker, store, clock, **kw):
    return MqttHub(broker.url(), EVENT, KEY, EVENT, store, feed=FEED, clock=clock, **kw)


def _run(clock, boxes, hub, until, real_s=REAL_S):
    """Loop (10 ms of box time, a 2 ms real pause) until *until()*; its value."""
    end = time.monotonic() + real_s
    while time.monotonic() < end:
        for b in boxes:
            b.poll(clock.now)
        if hub is not None:
            hub.poll(clock.now)
        clock.now += 10
        if until():
            return True
        time.sleep(0.002)
    return False


def _ids(store, box="tc-01"):
    return [e["id"] for e in store.events(box)]


def test_events_arrive_exactly_once_through_a_broker_restart_and_a_box_reconnect(
        broker, tmp_path):
    clock = Clock()
    store = HostStore(str(tmp_path / "host.sqlite"))
    applied = []
    hub = _hub(broker, store, clock, on_event=applied.append)
    box, port = _box(broker)
    try:
        assert _run(clock, [box], hub, lambda: box.state == LIVE and "tc-01" in hub.links
                    and hub.links["tc-01"].state == "live")
        link = hub.links["tc-01"]
        assert link.box == "tc-01" and link.table == 4 and port.connects == 1
        e1 = box.event(["away", 2])
        e2 = box.event(["back", 2])
        assert _run(clock, [box], hub, lambda: not box.outbox)
        assert _ids(store) == [e1, e2]

        # the broker restarts; e3 is made before the box notices
        broker.restart()
        e3 = box.event(["away", 3])
        assert _run(clock, [box], hub, lambda: not box.outbox and box.state == LIVE)
        assert port.connects == 2 and _ids(store) == [e1, e2, e3]

        # e4 reaches the host, then the box's connection breaks (its socket closes)
        # with the host's ack unread: the box resends e4, the host applies it once
        e4 = box.event(["back", 3])
        assert _run(clock, [box], None, lambda: box.outbox[-1][1] is not None)  # sent
        assert _run(clock, [], hub, lambda: e4 in _ids(store))
        port.client._sock.s.close()
        assert _run(clock, [box], hub, lambda: not box.outbox and port.connects == 3)
        assert link.repeats >= 1  # e4 came twice
        assert _ids(store) == [e1, e2, e3, e4]
        assert [m["id"] for m in applied] == [e1, e2, e3, e4]
        assert store.events("tc-01")[2] == {"box": "tc-01", "id": e3, "what": "away",
                                            "seat": 3}
        # QoS 0 from the box, and nothing refused along the way
        assert box.counters()["forged"] == 0 and port.too_large == 0
    finally:
        hub.close()
        store.close()


def test_a_box_with_another_key_is_never_linked(broker, tmp_path):
    clock = Clock()
    store = HostStore(str(tmp_path / "host.sqlite"))
    hub = _hub(broker, store, clock)
    good, _ = _box(broker, "tc-01")
    forged, fport = _box(broker, "tc-09", key=OTHER_KEY)
    try:
        assert _run(clock, [good, forged], hub, lambda: good.state == LIVE
                    and "tc-09" in hub.foreign)
        forged.event(["away", 1])
        _run(clock, [good, forged], hub, lambda: False, real_s=0.5)
        assert fport.state == UP and forged.state == HELLO_SENT  # heard, never configured
        assert "tc-09" not in hub.links and store.events("tc-09") == []
        assert hub.foreign["tc-09"]["from"] == "tc-09"
        assert forged.outbox  # its event was never acknowledged
    finally:
        hub.close()
        store.close()


def _client(broker, user, client_id):
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
    u, pw = broker.creds(user)
    if u is not None:
        c.username_pw_set(u, pw)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c


def test_network_frames_cannot_pair_a_box_or_speak_for_another_box(broker, tmp_path):
    clock = Clock()
    store = HostStore(str(tmp_path / "host.sqlite"))
    hub = _hub(broker, store, clock)
    box, port = _box(broker)
    host = hub.client  # the host's own login (a second one would take its session over)
    try:
        assert _run(clock, [box], hub, lambda: box.state == LIVE)
        tx = Sender(box_key(KEY, "tc-01"), "host", 1)
        pair = tx.encode({"kind": "pair", "key": OTHER_KEY.hex(), "key_id": "x", "table": 9},
                         "tc-01")
        host.publish("tc/%s/box/tc-01/in" % EVENT, pair, qos=1).wait_for_publish(5)
        assert _run(clock, [box], hub, lambda: port.refused_pairs == 1)
        assert box.key == box_key(KEY, "tc-01") and box.table_no == 4  # still at table 4
        # a frame signed by tc-02 on tc-01's topic (no ACL on amqtt): not tc-01's
        other = Sender(box_key(KEY, "tc-02"), "tc-02", 1).encode({"kind": "hello", "fw": "0"},
                                                                 "host")
        host.publish("tc/%s/box/tc-01/out" % EVENT, other, qos=1).wait_for_publish(5)
        assert _run(clock, [box], hub, lambda: hub.mismatched == 1)
        assert sorted(hub.links) == ["tc-01"]
    finally:
        hub.close()
        store.close()


# ------------------------------------------------------------ Mosquitto only
@pytest.fixture
def mosquitto(tmp_path):
    try:
        b = Broker("mosquitto", tmp_path, USERS)
    except MosquittoMissing as e:
        pytest.skip(str(e))
    yield b
    b.stop()


def test_acl_a_box_user_cannot_publish_for_another_table(mosquitto):
    got = []  # what the host sees
    heard = []  # what box tc-01 sees
    spy = _client(mosquitto, "host", "spy")
    spy.on_message = lambda c, u, m: got.append(m.topic)
    spy.subscribe("tc/#", 1)
    box = _client(mosquitto, "tc-01", "tc-01")
    box.on_message = lambda c, u, m: heard.append(m.topic)
    box.subscribe([("tc/ev1/box/tc-02/in", 0), ("tc/ev1/box/tc-01/in", 0)])
    try:
        time.sleep(0.3)  # both subscriptions are in place
        for topic in ("tc/ev1/box/tc-02/out", "tc/ev1/box/tc-02/status",
                      "tc/ev1/box/tc-02/presence", "tc/ev1/table/2/clock",
                      "tc/ev1/table/2/status", "tc/ev1/box/tc-02/in", "tc/ev1/box/tc-01/in"):
            box.publish(topic, b"forged", qos=1).wait_for_publish(5)
        box.publish("tc/ev1/box/tc-01/out", b"mine", qos=1).wait_for_publish(5)
        for topic in ("tc/ev1/box/tc-02/in", "tc/ev1/box/tc-01/in"):  # the host to two boxes
            spy.publish(topic, b"for one box", qos=1).wait_for_publish(5)
        end = time.monotonic() + 5
        while time.monotonic() < end and ("tc/ev1/box/tc-01/out" not in got
                                          or "tc/ev1/box/tc-01/in" not in heard):
            time.sleep(0.01)
        # of the box's publishes only its own out went through (in order: the rest
        # would have come first); of the host's, it reads only its own in
        assert [t for t in got if not t.endswith("/in")] == ["tc/ev1/box/tc-01/out"]
        assert heard == ["tc/ev1/box/tc-01/in"]
    finally:
        for c in (spy, box):
            c.disconnect()
            c.loop_stop()


def test_a_wrong_password_is_refused_and_the_last_will_clears_presence(mosquitto, tmp_path):
    clock = Clock()
    store = HostStore(str(tmp_path / "host.sqlite"))
    hub = _hub(mosquitto, store, clock)
    wrong, wport = _box(mosquitto, "tc-02", password="not-it")
    box, port = _box(mosquitto, "tc-01")
    try:
        assert _run(clock, [box, wrong], hub, lambda: box.state == LIVE and wport.refusals)
        assert wport.state != UP and wrong.info_text() == "MQTT: refused"
        assert box.info_text() == "Wi-Fi ok"
        assert hub.presence["tc-01"].startswith(b'{"v":"1.0","kind":"hello","from":"tc-01"')
        port.client._sock.s.close()  # gone without a DISCONNECT: Mosquitto sends the will
        assert _run(clock, [], hub, lambda: hub.presence["tc-01"] is None)
        assert _run(clock, [box], hub, lambda: box.state == LIVE and port.connects == 2)
        assert _run(clock, [box], hub, lambda: hub.presence["tc-01"] is not None)
    finally:
        hub.close()
        store.close()


def test_hub_urls():
    assert parse_url("mqtt://host:p%40ss@127.0.0.1:1884") == ("127.0.0.1", 1884, "host", "p@ss")
    assert parse_url("mqtt://td.local") == ("td.local", 1883, None, None)
    with pytest.raises(ValueError, match="TLS is not supported"):
        parse_url("mqtts://td.local")
    with pytest.raises(ValueError, match="not an MQTT URL"):
        parse_url("mqtt://td.local:99999")


def test_a_level_change_to_every_box_goes_out_without_waiting_for_acks(tmp_path):
    # a level change is one QoS-1 frame per box plus its table's clock: paho's default of
    # 20 unacknowledged sent 300 boxes' 600 frames 20 per round trip (bench/README.md)
    store = HostStore(str(tmp_path / "h.sqlite"))
    hub = MqttHub("mqtt://127.0.0.1:1", EVENT, KEY, EVENT, store, start=False)
    try:
        assert hub.client.max_inflight_messages >= 2 * BOXES_MAX
    finally:
        store.close()


def test_a_box_on_wifi_can_be_paired_again_over_usb(tmp_path):
    """No broker at all (nothing listens on the port): the box's USB port still
    takes a pair frame, the confirming hello comes back on USB, and the new
    settings re-point the MQTT port."""
    from tdhost.links.broker import free_port
    from tdhost.links.pipe import Cable
    from tdhost.links.usb import pair

    cable = Cable()
    port = MqttPort(socket, "tc-01", EVENT, "127.0.0.1", free_port(), usb=cable.a,
                    rand=lambda: 0, ticks=real_ms)
    box = MqttLink(port, "tc-01", Table(SETUP), key=KEY, key_id=EVENT)
    box.restore(None)
    clock = Clock()

    def step(_seconds):
        box.poll(clock.now)
        clock.now += 10

    elsewhere = free_port()
    settings = {"wifi_ssid": "club", "mqtt_host": "127.0.0.1", "mqtt_port": elsewhere,
                "mqtt_event": "ev2"}
    got = pair(cable.b, 7, OTHER_KEY, "ev2-k", settings=settings, timeout_s=3.0,
               sleep=step, keys="box")
    assert got == "tc-01" and box.key == OTHER_KEY and box.table_no == 7
    assert (port.port, port.t_in) == (elsewhere, "tc/ev2/box/tc-01/in")
    for _ in range(300):  # 3 s: the pair frame's moment has passed, still no broker
        step(0)
    assert port.failures >= 2 and not port.connected and box.state == DISCONNECTED
    assert box.info_text() == "MQTT: no broker"


def test_the_minimqtt_internals_the_box_relies_on_are_there():
    """tcbox/mqtt_link.py steps MiniMQTT 8.1 itself (docs/mqtt.md): an upgrade
    that renames these fails here first."""
    from adafruit_minimqtt import adafruit_minimqtt as mm

    c = mm.MQTT(broker="127.0.0.1", socket_pool=socket, socket_timeout=0.025, recv_timeout=1,
                connect_retries=1)
    for name in ("_connect", "_wait_for_msg", "_sock_exact_recv", "_decode_remaining_length",
                 "_send_bytes", "_close_socket"):
        assert callable(getattr(c, name)), name
    assert c._recv_timeout == 1 and c._is_connected is False and c._sock is None
    assert mm.__version__ == "8.1.0"  # the version these tests ran against


def _rules(text):
    return [x.strip() for x in text.splitlines() if x.strip() and not x.startswith("#")]


def test_the_sample_mosquitto_files_are_the_tested_ones_and_start(tmp_path):
    """docs/mosquitto/acl has the rules the ACL test ran; the sample
    mosquitto.conf starts Mosquitto (paths and listener pointed at tmp_path)."""
    import os
    import shutil
    import subprocess

    from tdhost.links import broker as B

    docs = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "docs", "mosquitto")
    with open(os.path.join(docs, "acl")) as f:
        assert _rules(f.read()) == _rules(B.default_acl())
    if not os.path.isfile(B.MOSQUITTO) or shutil.which(B.MOSQUITTO_PASSWD) is None:
        pytest.skip("Mosquitto is not installed (apt-get install mosquitto)")
    with open(os.path.join(docs, "mosquitto.conf")) as f:
        conf = f.read()
    port = B.free_port()
    passwd = str(tmp_path / "passwd")
    subprocess.run([B.MOSQUITTO_PASSWD, "-c", "-b", passwd, "host", "pw"], check=True)
    shutil.copy(os.path.join(docs, "acl"), tmp_path / "acl")
    for a, b in (("/etc/mosquitto/tableclock.passwd", passwd),
                 ("/etc/mosquitto/tableclock.acl", str(tmp_path / "acl")),
                 ("listener 1883 0.0.0.0", "listener %d 127.0.0.1" % port),
                 ("log_dest syslog", "log_dest stderr"),
                 ("use_username_as_clientid true", "use_username_as_clientid true")):
        assert a in conf
        conf = conf.replace(a, b)
    if os.geteuid() == 0:
        conf += "user root\n"
    (tmp_path / "m.conf").write_text(conf)
    proc = subprocess.Popen([B.MOSQUITTO, "-c", str(tmp_path / "m.conf")],
                            stderr=subprocess.PIPE)
    try:
        assert B._wait_listening("127.0.0.1", port, 10, alive=lambda: proc.poll() is None), \
            proc.stderr.read().decode() if proc.poll() is not None else "not listening"
        answers = []
        for want, pw in ((1, "pw"), (2, "wrong")):  # the password file is in force
            c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="sample")
            c.username_pw_set("host", pw)
            c.on_connect = lambda cl, u, fl, rc, pr: answers.append(rc.is_failure)
            c.connect("127.0.0.1", port)
            end = time.monotonic() + 5
            while len(answers) < want:
                c.loop(0.05)
                assert time.monotonic() < end
            c.disconnect()
        assert answers == [False, True]
    finally:
        proc.terminate()
        proc.wait(10)
