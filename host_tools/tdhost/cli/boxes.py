"""The boxes on this computer's USB ports: `tdhost boxes` (the ports, a box's self-test with
--check: tdhost.cli.boxcheck), `tdhost pair` (a box's table, key and Wi-Fi login) and
`tdhost deploy` (the firmware onto its drive: tdhost.cli.deploy).  pyserial is imported
only when one of these runs.  docs/box.md, docs/mqtt.md.
"""

import os
import socket

import click

from tdhost.cli.options import key_id_option, mqtt_event_option
from tdhost.cli.output import fail, say


@click.command("boxes")
@click.option("--listen", type=click.FloatRange(0, 120), default=0.0, show_default=True,
              help="Seconds to listen on each port for the frames its box sends (hello"
                   " shows the box id, table and key id; read unverified).")
@click.option("--check", "check_port", metavar="PORT", default=None,
              help="Read the self-test of the box on PORT (its data port): hold its"
                   " self-test key at power-up; prints each step and what to do.")
@click.option("--wait", type=click.FloatRange(1, 3600), default=180.0, show_default=True,
              help="With --check: seconds to wait for the self-test to finish.")
def boxes(listen: float, check_port: str | None, wait: float) -> None:
    """List serial ports that may be Table Clock boxes (USB vendor Adafruit 0x239A or
    Espressif 0x303A).  A CircuitPython box shows two ports: the console and the data
    port the host talks to ("data")."""
    from tdhost.links import usb

    if check_port is not None:
        from tdhost.cli.boxcheck import check

        raise SystemExit(check(check_port, wait, say))

    found = usb.candidates()
    if not found:
        say("no Adafruit or Espressif USB serial ports found")
        return
    for port in found:
        say("%-22s %04x:%04x  %-9s %s%s%s" % (
            port["device"], port["vid"], port["pid"], port["maker"],
            port["interface"] or port["description"],
            "  serial %s" % port["serial_number"] if port["serial_number"] else "",
            "  [data]" if port["data"] else ""))
        if listen:
            try:
                ser = usb.open_port(port["device"])
            except Exception as err:  # noqa: BLE001 -- a busy or vanished port: say so
                say("    cannot open: %s" % err)
                continue
            try:
                frames, other = usb.listen(ser, listen)
            finally:
                ser.close()
            heard = {}
            for frame in frames:
                if frame["kind"] == "hello":
                    heard[frame["from"]] = frame
            for box, hello in sorted(heard.items()):
                say("    box %s: table %s, key %s, firmware %s" % (
                    box, hello["table"], hello["key_id"], hello["fw"]))
            if not heard:
                say("    no hello in %g s (%d frames, %d other lines)"
                    % (listen, len(frames), other))


@click.command("pair")
@click.argument("port")
@click.option("--table", type=click.IntRange(1, 999), required=True,
              help="The table number this box serves.")
@click.option("--key-file", type=click.Path(dir_okay=False), required=True,
              help="The event key: hex digits (32 bytes).  With --new-key, made here.")
@click.option("--new-key", is_flag=True, help="Make a fresh key in KEY_FILE (it must not"
                                              " exist).")
@key_id_option
@click.option("--event", "event_name", default=None, help="The event's name.")
@click.option("--wifi-ssid", default=None,
              help="Wi-Fi network: the box then runs its link over Wi-Fi, with a key"
                   " and a broker login of its own (docs/mqtt.md).")
@click.option("--wifi-password", default=None, help="Wi-Fi password.")
@click.option("--mqtt-host", default=None,
              help="The broker's address on that network (default: this computer's,"
                   " where `tdhost serve --wifi` runs it).")
@click.option("--mqtt-port", type=click.IntRange(1, 65535), default=None,
              help="The broker's port (default 1883).")
@click.option("--timeout", type=click.FloatRange(0.5, 120), default=10.0,
              show_default=True, help="Seconds to wait for the box's answer.")
@mqtt_event_option
def pair(port: str, table: int, key_file: str, new_key: bool, key_id: str | None,
         event_name: str | None, wifi_ssid: str | None, wifi_password: str | None,
         mqtt_host: str | None, mqtt_port: int | None, timeout: float,
         mqtt_event: str | None) -> None:
    """Pair the box on serial PORT (its data port, see `tdhost boxes`): it gets the
    table number and a key, keeps them in its power-loss record and answers with a
    hello signed with that key.  With --wifi-ssid it also gets the Wi-Fi network and
    a broker login made here (its user is its box id, its password random and kept
    next to the key file for `tdhost serve --wifi`), and its key is its own
    (derived from the event key: it cannot sign as another box)."""
    from tableclock.protocol import BOX_KEYS, box_key
    from tdhost.links import boxtables, logins, usb

    if wifi_ssid is None and (wifi_password or mqtt_host or mqtt_port or mqtt_event):
        fail("pair", "the Wi-Fi and MQTT settings need --wifi-ssid (the box's network).")
    wifi_file = logins.path_of(key_file)
    if wifi_ssid is not None:
        try:
            logins.load(wifi_file)
        except ValueError as err:
            fail("pair", "%s." % err)
    if new_key:
        if os.path.exists(key_file):
            fail("pair", "%s exists already: --new-key never overwrites a key." % key_file)
        key = usb.new_key_file(key_file)
    else:
        if not os.path.exists(key_file):
            fail("pair", "%s does not exist (--new-key makes one)." % key_file)
        try:
            key = usb.read_key_file(key_file)
        except (ValueError, UnicodeDecodeError) as err:
            fail("pair", "%s." % err)
    if key_id is None:
        key_id = usb.key_id_of(key)
    settings: dict[str, object] = {}
    broker_port = mqtt_port or 1883
    if wifi_ssid is not None:
        mqtt_host = mqtt_host or this_address()
        password = logins.new_password()
        for name, value in (("wifi_ssid", wifi_ssid), ("wifi_password", wifi_password),
                            ("mqtt_host", mqtt_host), ("mqtt_port", broker_port),
                            ("mqtt_password", password), ("mqtt_event", mqtt_event)):
            if value is not None:
                settings[name] = value
    try:
        ser = usb.open_port(port)
    except Exception as err:  # noqa: BLE001 -- no such port, busy, permissions
        fail("pair", "cannot open %s: %s." % (port, err))
    try:
        if settings:
            box = usb.box_on(ser, timeout)
            box = usb.pair(ser, table, box_key(key, box), key_id, event_name, settings,
                           timeout_s=timeout, keys=BOX_KEYS, box=box)
        else:
            box = usb.pair(ser, table, key, key_id, event_name, settings, timeout_s=timeout)
    except usb.PairError as err:
        fail("pair", "%s." % err)
    finally:
        ser.close()
    say("box %s is table %d with key %s" % (box, table, key_id))
    try:
        boxtables.BoxTables(key_file).assign(box, table)
    except (OSError, ValueError) as err:
        fail("pair", "the box is paired, but its table could not be kept: %s." % err)
    if settings:
        assert mqtt_host is not None, "set with the settings above"
        logins.add(wifi_file, box, table, password, mqtt_host, broker_port)
        say("It joins Wi-Fi %s and the broker at mqtt://%s:%d with a login of its"
            " own (kept in %s for `tdhost serve --wifi`)."
            % (wifi_ssid, mqtt_host, broker_port, wifi_file))


@click.command("move-box")
@click.argument("box")
@click.argument("table", type=click.IntRange(1, 999))
@click.option("--key-file", type=click.Path(dir_okay=False), required=True,
              help="The event key the box was paired with.")
def move_box(box: str, table: int, key_file: str) -> None:
    """Box BOX (its id, e.g. tc-09) serves table TABLE from now on.  The host refuses a
    box's hello for any other table than the one it was paired for or moved to; a
    running `tdhost serve` reads the change at the box's next hello (the console's
    Move box also gives a linked box its new table at once)."""
    from tableclock.wire import check_id
    from tdhost.links import boxtables

    try:
        check_id("a box id", box)
        tables = boxtables.BoxTables(key_file)
        was = tables.table_of(box)
        tables.assign(box, table)
    except (OSError, ValueError) as err:
        fail("move-box", "%s." % str(err).rstrip("."))
    say("Box %s serves table %d from now on%s." % (
        box, table, "" if was is None or was == table else " (it served table %d)" % was))


@click.command("deploy")
@click.argument("drive", envvar="CIRCUITPY", required=False, default="")
@click.option("--force", is_flag=True,
              help="Copy even when the drive does not look ready (no boot_out.txt, a "
                   "board with no profile, a library missing).")
def deploy(drive: str, force: bool) -> None:
    """Put the firmware on a box's CIRCUITPY drive.

    DRIVE is the mounted drive (default: $CIRCUITPY):

    \b
      tdhost deploy /media/$USER/CIRCUITPY     (macOS: /Volumes/CIRCUITPY)

    Copies this installation's firmware, code.py last: its packages as bytecode (.mpy,
    compiled with mpy-cross) for a CircuitPython version whose .mpy format it knows (10.0 to
    10.3), else as .py, and says which; files already there with the same bytes are left
    alone, modules the firmware no longer has are removed.
    It stops, copying nothing, when the drive is not a CircuitPython drive, names a board
    with no profile or lacks an Adafruit library the firmware imports (--force copies
    anyway), or has too little space.  docs/box.md, "Installing the firmware".
    """
    from tdhost.cli import deploy as _deploy

    code = _deploy.run(drive, force, how=_deploy.TDHOST)
    if code:
        click.get_current_context().exit(code)


def this_address() -> str:
    """This computer's address on its network (the one its default route leaves by;
    no packet is sent), or 127.0.0.1 without one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere for real
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


COMMANDS = (boxes, pair, move_box, deploy)
