"""`tdhost serve --wifi` and `serve --demo --wifi` (docs/mqtt.md, "The TD's steps"): the
broker started with the paired boxes' logins, its line printed, the demo's three boxes
live over it while a stranger is refused."""

import time

import paho.mqtt.client as mqtt
from click.testing import CliRunner
from paho.mqtt.enums import CallbackAPIVersion

from tcsim.serve_demo import Demo
from tdhost.cli.app import cli
from tdhost.links import broker as _broker, logins
from tdhost.links.usb import new_key_file


def _connack(port, cid, user=None, pw=None):
    got = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=cid)
    if user:
        c.username_pw_set(user, pw)
    c.on_connect = lambda cl, ud, fl, rc, pr=None: got.append(rc)
    c.connect("127.0.0.1", port)
    c.loop_start()
    end = time.monotonic() + 5
    while not got and time.monotonic() < end:
        time.sleep(0.01)
    c.loop_stop()
    c.disconnect()
    return got[0]


def test_the_demo_on_wifi_has_three_live_boxes_and_refuses_strangers(tmp_path):
    demo = Demo.build(str(tmp_path), speed=4.0, wifi=("embedded", "127.0.0.1", 0))
    try:
        assert demo.lines[-1].startswith("Broker: mqtt://127.0.0.1:%d (embedded"
                                         % demo.broker.port)

        def poll():
            now = demo.live.clock()
            for tr in demo.transports:
                tr.poll(now)
            demo.live.poll(now)

        def live():
            return len(demo.live.links) == 3 and all(
                lk.state == "live" for lk in demo.live.links)

        end = time.monotonic() + 40
        while not live() and time.monotonic() < end:
            poll()
            time.sleep(0.02)
        assert live(), [lk.state for lk in demo.live.links]
        assert sorted(demo.host.hub.links) == ["tc-01", "tc-02", "tc-03"]
        assert demo.live.snapshot()["wifi"] == []
        version = demo.live.version
        assert _connack(demo.broker.port, "x").is_failure  # anonymous
        assert _connack(demo.broker.port, "tc-01", "tc-01", "guess").is_failure
        for _ in range(50):
            poll()
            time.sleep(0.02)
        assert live() and demo.host.hub.connects == 1
        # each refusal in the console's snapshot, in plain words, the newest first
        assert [w["text"] for w in demo.live.snapshot()["wifi"]] == [
            "Refused: a login for table 1's box with a wrong password from 127.0.0.1",
            "Refused: a login without a name from 127.0.0.1 (only paired boxes may log in)"]
        assert demo.live.version > version  # the console's pages redraw
    finally:
        demo.close()


def test_serve_wifi_starts_the_broker_with_the_paired_boxes(tmp_path, monkeypatch):
    keyf = str(tmp_path / "event.key")
    new_key_file(keyf)
    db = str(tmp_path / "league.sqlite")
    r = CliRunner().invoke(cli, ["serve", "--wifi", "--key-file", keyf, "--db", db])
    assert r.exit_code == 2 and "no box is paired for Wi-Fi" in r.output
    logins.add(logins.path_of(keyf), "tc-01", 1, "pw-1", "192.168.1.10", 1883)
    started = {}
    real = _broker.start_night

    def spy(kind, users, host, port, tmpdir, on_refused=None):
        started.update(kind=kind, users=dict(users), host=host, on_refused=on_refused)
        return real(kind, users, "127.0.0.1", 0, tmpdir, on_refused=on_refused)

    monkeypatch.setattr(_broker, "start_night", spy)
    r = CliRunner().invoke(cli, ["new", "docs/examples/lppl.toml", "--db", db])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(cli, ["serve", "--wifi", "--key-file", keyf, "--db", db,
                                 "--no-web", "--polls", "3"])
    assert r.exit_code == 0, r.output
    assert "Broker: mqtt://192.168.1.10:" in r.output  # the address the boxes were paired with
    assert started["kind"] == "embedded" and started["host"] == "0.0.0.0"
    assert started["users"]["tc-01"] == "pw-1" and len(started["users"]["host"]) == 24
    assert started["on_refused"] is not None  # refused logins: to the console's notes
    r = CliRunner().invoke(cli, ["serve", "--wifi", "--mqtt", "mqtt://x", "--key-file", keyf,
                                 "--db", db])
    assert r.exit_code == 2 and "give one of them" in r.output


def test_auto_chooses_mosquitto_for_more_boxes_than_the_embedded_broker_carries():
    assert _broker.choose("auto", 3) == ("embedded", None)
    kind, why = _broker.choose("auto", _broker.EMBEDDED_MAX_BOXES + 1)
    assert why and ("using Mosquitto" in why if kind == "mosquitto" else "not installed" in why)
    assert _broker.choose("embedded", 500) == ("embedded", None)


def test_serve_demo_wifi_prints_the_broker_and_the_token():
    port = _broker.free_port()
    r = CliRunner().invoke(cli, ["serve", "--demo", "--wifi", "--broker-listen", "127.0.0.1",
                                 "--broker-port", str(port), "--port", "0", "--polls", "20"])
    assert r.exit_code == 0, r.output
    assert ("Broker: mqtt://127.0.0.1:%d (embedded, the logins of 3 paired boxes, no anonymous"
            " clients)" % port) in r.output
    assert "TD token: " in r.output and "on Wi-Fi" in r.output
