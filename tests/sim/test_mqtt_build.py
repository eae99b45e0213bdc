# ruff: noqa: I001 -- the simulator must install its hardware stubs before board imports
"""tcbox.hardware.build() picks the link from the pairing kept in the
power-loss record (docs/mqtt.md, "Pairing a box for Wi-Fi"): Wi-Fi/MQTT when
its settings name a network and a broker, else USB.  On the simulator's
stubs Wi-Fi never comes up (its radio refuses every join), so the box shows
that on its link line and keeps running its table."""

from tcsim import sim as _sim  # noqa: F401  (installs the hardware stubs first)
from tcsim.display import make_display
from tcsim.stubs import _world

import board
import microcontroller

from tableclock import record
from tableclock.store import NvmStore
from tableclock.table import Table
from tableclock.wire import check_id
from tcbox import hardware, mqtt_link, mqtt_net
from tcbox.boards import BOARDS
from tcbox.crashlog import LOG
from tcbox.defaults import SETUP
from tcbox.link.box_end import Link

PAIRING = {"key": "00" * 32, "key_id": "ev1-k1", "table": 4, "event": "WPH Spring",
           "settings": {"wifi_ssid": "club", "wifi_password": "secret-pass",
                        "mqtt_host": "192.168.1.10", "mqtt_port": 1883,
                        "mqtt_password": "pw-01"}, "keys": "box"}


def _boot(extra):
    microcontroller.nvm[:] = b"\xff" * len(microcontroller.nvm)
    slots = record.Slots(NvmStore(microcontroller.nvm, 0, LOG))
    slots.save(record.dump(Table(SETUP), extra))
    d = BOARDS["compact"]["display"]
    board.DISPLAY = make_display(d["width"], d["height"])
    board.board_id = BOARDS["compact"]["board_id"]
    return hardware.build("compact")


def test_a_box_paired_with_wifi_settings_runs_its_link_over_mqtt():
    app = _boot({"b": 3, "p": PAIRING, "t": 4})
    [link] = app.parts  # the App's one part: the link (tcbox/startup.py)
    assert isinstance(link, mqtt_link.MqttLink) and link.paired and link.boot == 4
    port = link.port
    assert port.event == "ev1-k1"  # no mqtt_event: the key id names the event's topics
    assert port.t_in == "tc/ev1-k1/box/%s/in" % link.box_id and port.user == link.box_id
    assert port.host == "192.168.1.10" and port.password == "pw-01"
    assert port.wifi.joins == 1  # the boot-time join (the stub radio refuses it)
    for _ in range(20):
        _world.advance(50)
        now = _world.ticks_ms()
        app.step(now)
    assert app.info["link"] == "Wi-Fi: no network" and app.info["table"] == 4
    assert port.attempts == 0  # no socket without Wi-Fi


def test_a_box_paired_for_wifi_before_per_box_keys_says_pair_again(capsys):
    old = {k: v for k, v in PAIRING.items() if k != "keys"}  # the event's key, no marker
    app = _boot({"b": 3, "p": old, "t": 4})
    [link] = app.parts  # the App's one part: the link (tcbox/startup.py)
    assert isinstance(link, mqtt_link.MqttLink) and link.port.state == mqtt_net.OFF
    for _ in range(5):
        _world.advance(50)
        now = _world.ticks_ms()
        app.step(now)
    assert app.info["link"] == "Wi-Fi: pair again" and app.info["table"] == 4
    assert "pair it again (tdhost pair" in capsys.readouterr().out
    assert link.port.attempts == 0  # it never tries the broker with the old key


def test_a_box_paired_without_them_stays_on_usb():
    pairing = dict(PAIRING, settings={"wifi_ssid": "club"})  # no broker
    app = _boot({"b": 3, "p": pairing, "t": 4})
    [link] = app.parts
    assert type(link) is Link
    assert mqtt_link.make(Table(SETUP), {"b": 3, "p": pairing}) is None


def test_bad_settings_are_refused_with_a_sentence():
    bad = dict(PAIRING["settings"], mqtt_event="ev/1")
    assert mqtt_link.make(Table(SETUP), {"p": PAIRING}, bad) is None  # printed, USB then
    try:
        check_id("the MQTT event", "ev/1")
    except ValueError as e:
        assert str(e) == "the MQTT event 'ev/1' has a character topics cannot carry ('/')"
    else:
        raise AssertionError("a '/' in a topic name was accepted")
