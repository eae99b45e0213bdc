"""`tdhost serve`: the live night on the TD's laptop (docs/host.md, "The live night").

    tdhost serve --db league.sqlite --key-file event.key --usb /dev/ttyACM1 --usb /dev/ttyACM3
    tdhost serve --db league.sqlite --key-file event.key --mqtt mqtt://td.local:1883 --no-web
    tdhost serve --demo [--demo-speed 2]     # a sample night with three simulated boxes

One ``tdhost.live.Live`` on the league file; a ``tdhost.usb.BoxLink`` per ``--usb`` port;
the transports (``--mqtt``: ``tdhost.mqtt.MqttHub``, which hands each box's link to Live
through ``on_link``) polled with Live every ``--poll-ms``; the web pages
(``tdhost.web.server``) in a thread sharing Live's lock.  The MQTT hub and the web are
imported only when asked for, so a laptop without them serves USB boxes.  Ctrl-C stops
everything cleanly (the league file is consistent at every moment anyway).

``--demo`` (tcsim.demo, found by tdhost.demo) serves a sample tournament in a temporary
league file instead, with three simulated boxes (tcsim.room) dealt by bots, the room stepped
in real time (times ``--demo-speed``) as one more transport; ``--db``, ``--tournament`` and
the key are not used then, and ``--usb``/``--mqtt`` are refused.

A transport is any object with ``poll(now)`` (now: Live's clock, Unix ms; the MQTT hub is
made on that clock) and optionally ``close()``; it gives Live its links with
``live.add_link(link)``.
"""

import logging
import os
import secrets
import shutil
import signal
import tempfile
import threading
import time

import click

log = logging.getLogger("tdhost.serve")

DEFAULT_POLL_MS = 50
HOST_USER = "host"  # the host's broker login (docs/mosquitto/acl)


def _check_league(db):
    """StoreError (the damaged-file sentence) when the league file cannot be replayed."""
    from tdhost import commands
    from tdhost.league import store as _store

    st = _store.Store(db)
    try:
        commands.replay(st)
    finally:
        st.close()


def links_db_of(db):
    """The box links' store next to the league file: league.sqlite -> league-links.sqlite."""
    return os.path.splitext(db)[0] + "-links.sqlite"


def run(live, transports, poll_ms, lock, polls=None, sleep=time.sleep, stop=None):
    """Poll the transports and Live until *stop* is asked (``Stop``: Ctrl-C, SIGTERM),
    a KeyboardInterrupt or *polls* rounds.  A transport that raises is logged and polled
    again next time: it never stops the night."""
    failing = set()
    n = 0
    try:
        while (polls is None or n < polls) and not (stop is not None and stop.asked):
            with lock:
                now = live.clock()
                for tr in transports:
                    try:
                        tr.poll(now)
                        failing.discard(id(tr))
                    except Exception:  # noqa: BLE001 -- a broker or port going away
                        if id(tr) not in failing:
                            failing.add(id(tr))
                            log.exception("transport %r failed", tr)
                live.poll(now)
            n += 1
            sleep(poll_ms / 1000.0)
    except KeyboardInterrupt:
        return n
    return n


def mqtt_hub(url, event, key, key_id, store, on_link, clock):
    """The MQTT hub (tdhost.mqtt) on *clock* (Live's: the hub's links are polled with its
    time), or None when this installation has none."""
    try:
        from tdhost import mqtt
    except ImportError:
        return None
    return mqtt.MqttHub(url, event, key, key_id, store, on_link=on_link, clock=clock)


class Stop:
    """Ctrl-C and SIGTERM (a service manager, ``timeout``) ask ``run`` to stop once the
    poll under way is over: no write to the league file or a box is cut in half, and no
    library that turns an interrupt into an error of its own (which the loop logs and
    outlives) can swallow the request.  A second signal interrupts at once.

        with Stop() as stop:
            run(live, transports, poll_ms, lock, stop=stop)

    Off the main thread (signal handlers belong to it) it installs nothing."""

    def __init__(self):
        self.asked = False
        self._old = {}

    def __call__(self, signum, frame):
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True

    def __enter__(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                self._old[sig] = signal.signal(sig, self)
            except ValueError:  # not the main thread
                break
        return self

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()
        return False


def start_broker(boxes, kind, listen, port, closers, lines, transports, fail, notes=None):
    """``--wifi``: the broker (tdhost.broker.start_night) with the host's login (a new
    random password) and every paired box's; its line for the console in *lines*, its
    stop in *closers*; its refused logins to *notes* (tdhost.wifinotes: the TD console).
    Returns the host's URL."""
    from tdhost import broker as _broker, logins
    from tdhost.usb_cli import this_address

    kind, why = _broker.choose(kind, len(boxes))
    if why:
        lines.append("%s." % why[0].upper() + why[1:])
    users = {b: v["password"] for b, v in boxes.items()}
    users[HOST_USER] = logins.new_password()
    tmp = tempfile.mkdtemp(prefix="tdhost-broker-")  # private (0700): passwords, ACL
    closers.append(lambda: shutil.rmtree(tmp, ignore_errors=True))
    on_refused = None
    if notes is not None:
        notes.tables.update({b: v.get("table") for b, v in boxes.items()})
        on_refused = notes.refused
    try:
        b = _broker.start_night(kind, users, listen, port, tmp, on_refused=on_refused)
    except _broker.BrokerError as err:
        fail("serve", "the %s broker cannot start on %s:%d: %s." % (
            "Mosquitto" if kind == "mosquitto" else "embedded", listen, port,
            str(err).rstrip(".")))
    closers.append(b.stop)
    if hasattr(b, "poll"):  # Mosquitto: its refusals from its log to the console
        transports.append(b)
    paired = logins.broker_address(boxes) if boxes else None
    host = paired[0] if paired else (listen if listen not in ("0.0.0.0", "::") else
                                     this_address())
    lines.append(_broker.broker_line(host, b.port, kind, len(boxes)))
    if paired and paired[1] != b.port:
        lines.append("The boxes were paired with port %d: pair them again or give"
                     " --broker-port %d." % (paired[1], paired[1]))
    return _broker._url("127.0.0.1" if listen in ("0.0.0.0", "::") else listen, b.port,
                        HOST_USER, users[HOST_USER])


def start_demo(seed, speed, fail, wifi=None):
    """tcsim.demo's night (started, dealers playing, real time times *speed*) in a new
    temporary directory; *fail(command, msg)* when it cannot be set up.  *wifi*: (broker
    kind, listen, port): its boxes over that broker (``serve --demo --wifi``)."""
    from tdhost.demo import NoSimulator, night_class

    try:
        demo = night_class()
    except NoSimulator as err:
        fail("serve", "%s." % err)
    workdir = tempfile.mkdtemp(prefix="tdhost-demo-")
    try:
        return demo.build(workdir, seed=seed, speed=speed, wifi=wifi)
    except Exception as err:  # noqa: BLE001 -- said in one sentence, the directory removed
        shutil.rmtree(workdir, ignore_errors=True)
        fail("serve", "the demo could not be set up: %s." % str(err).rstrip("."))


def register(cli, fail):
    """Add `tdhost serve` to the Click group *cli*; *fail(command, msg)* exits 2."""

    @cli.command("serve")
    @click.option("--db", "db", default="league.sqlite", envvar="TDHOST_DB", show_default=True,
                  type=click.Path(dir_okay=False), help="The league file (SQLite); also "
                                                        "$TDHOST_DB.")
    @click.option("--tournament", "-t", "number", type=int, default=None,
                  help="Tournament number (default: the latest).")
    @click.option("--key-file", type=click.Path(dir_okay=False), default=None,
                  help="The event key the boxes were paired with (hex); needed for --usb "
                       "and --mqtt.")
    @click.option("--key-id", default=None, help="The key's name (default: k- and 8 hex "
                                                 "digits of its SHA-256, as `tdhost pair`).")
    @click.option("--usb", "devices", multiple=True, metavar="DEV",
                  help="A box's USB serial data port (repeatable; `tdhost boxes` lists "
                       "them).")
    @click.option("--links-db", default=None, type=click.Path(dir_okay=False),
                  help="The box links' store: the host's boot counter and every box event "
                       "once (default: next to --db, NAME-links.sqlite).")
    @click.option("--poll-ms", type=click.IntRange(1, 1000), default=DEFAULT_POLL_MS,
                  show_default=True, help="Milliseconds between polls of the boxes.")
    @click.option("--web/--no-web", default=True, show_default=True,
                  help="Serve the big screen and the TD console.")
    @click.option("--listen", default="127.0.0.1", show_default=True,
                  help="The web pages' address (0.0.0.0: the whole network).")
    @click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
                  help="The web pages' port (0: any free one, printed).")
    @click.option("--token", default=None, help="The TD console's token (default: a new "
                                                "random one, printed).")
    @click.option("--mqtt", "mqtt_url", default=None, metavar="URL",
                  help="Boxes over Wi-Fi through this MQTT broker (tdhost.mqtt): "
                       "mqtt://user:password@host:port.")
    @click.option("--wifi", is_flag=True,
                  help="Boxes over Wi-Fi: start the broker here with the login of every box"
                       " paired with --wifi-ssid (next to --key-file), the ACL and no"
                       " anonymous clients (docs/mqtt.md).")
    @click.option("--broker", "broker_kind", type=click.Choice(["auto", "embedded", "mosquitto"]),
                  default="auto", show_default=True,
                  help="With --wifi: the embedded broker, or Debian's Mosquitto (auto:"
                       " Mosquitto for more boxes than the embedded one carries, if installed).")
    @click.option("--broker-listen", default="0.0.0.0", show_default=True,
                  help="With --wifi: the broker's address (0.0.0.0: every network).")
    @click.option("--broker-port", type=click.IntRange(1, 65535), default=1883,
                  show_default=True, help="With --wifi: the broker's port.")
    @click.option("--mqtt-event", default=None, metavar="ID",
                  help="The event's MQTT topic name (default: the key id, as the boxes "
                       "use unless paired with another).")
    @click.option("--seed", type=click.IntRange(0), default=None,
                  help="Seed for draws made from the console without one (default: "
                       "random, printed).")
    @click.option("--demo", is_flag=True,
                  help="A sample tournament (20 players, 3 tables) in a temporary league "
                       "file with three simulated boxes dealt by bots.")
    @click.option("--demo-speed", type=click.FloatRange(0.1, 50), default=1.0,
                  show_default=True, help="With --demo: how many times faster than real "
                                          "time the night runs.")
    @click.option("--polls", type=click.IntRange(1), default=None, hidden=True,
                  help="Stop after this many polls (tests).")
    def serve(db, number, key_file, key_id, devices, links_db, poll_ms, web, listen, port,
              token, mqtt_url, wifi, broker_kind, broker_listen, broker_port, mqtt_event, seed,
              demo, demo_speed, polls):
        """Run the night: the boxes on USB (and MQTT), busts, balancing and breaking plans
        sent to the boxes, hand for hand, the master clock, the web console."""
        from tdhost import usb
        from tdhost.league import store as _store
        from tdhost.league.refusal import ActionRefused
        from tdhost.live import Live

        if wifi and mqtt_url:
            fail("serve", "--wifi starts a broker here and --mqtt uses someone else's: give"
                          " one of them.")
        if demo:
            if devices or mqtt_url:
                fail("serve", "--demo runs its own simulated boxes: leave out --usb and "
                              "--mqtt.")
            seed = 7 if seed is None else seed
            wifi_demo = (broker_kind, broker_listen, broker_port) if wifi else None
            demo_run = start_demo(seed, demo_speed, fail, wifi_demo)
            db = demo_run.db
            links_db = os.path.join(demo_run.workdir, "links.sqlite")
            devices = ()
            key_file = None
        key = None
        if key_file is not None:
            try:
                key = usb.read_key_file(key_file)
            except UnicodeDecodeError:  # a binary file
                fail("serve", "%s does not hold a key in hex digits." % key_file)
            except (OSError, ValueError) as err:
                fail("serve", "%s." % str(err).rstrip("."))
            key_id = key_id or usb.key_id_of(key)
        if (devices or mqtt_url or (wifi and not demo)) and key is None:
            fail("serve", "--usb, --mqtt and --wifi need --key-file: the event key the boxes"
                          " were paired with.")
        boxes = {}
        if wifi and not demo:
            from tdhost import logins

            try:
                boxes = logins.load(logins.path_of(key_file))
            except ValueError as err:
                fail("serve", "%s." % str(err).rstrip("."))
            if not boxes:
                fail("serve", "no box is paired for Wi-Fi with %s yet (tdhost pair PORT --table"
                              " N --key-file %s --wifi-ssid ...)." % (key_file, key_file))
        seed = secrets.randbelow(10 ** 9) if seed is None else seed
        if demo:
            live = demo_run.live
            closers = [lambda: shutil.rmtree(demo_run.workdir, ignore_errors=True),
                       demo_run.close]
            transports = demo_run.transports
        else:
            try:
                _check_league(db)  # a damaged file: one sentence, before the night starts
                live = Live(db, number, key=key, key_id=key_id, seed=seed)
            except (_store.StoreError, ActionRefused) as err:
                fail("serve", str(err))
            live.store.backup("serve")  # every start of the night (docs/host.md "Backups")
            closers = [live.close]
            transports = []
        handle = None
        try:
            store = usb.HostStore(links_db or links_db_of(db))
            closers.append(store.close)
            lines = []
            for dev in devices:
                try:
                    ser = usb.open_port(dev)
                except Exception as err:  # noqa: BLE001 -- no such port, busy, permissions
                    fail("serve", "cannot open %s: %s." % (dev, str(err).rstrip(".")))
                closers.append(ser.close)
                live.add_link(usb.BoxLink(ser, key, key_id, store))
                lines.append("Boxes on USB: %s." % dev)
            if wifi and not demo:
                mqtt_url = start_broker(boxes, broker_kind, broker_listen, broker_port, closers,
                                        lines, transports, fail, notes=live.wifi)
            if mqtt_url:
                try:
                    hub = mqtt_hub(mqtt_url, mqtt_event or key_id, key, key_id, store,
                                   live.add_link, live.clock)
                    if hub is not None:
                        hub.notes = live.wifi  # boxes to pair again: in the console
                except (ValueError, OSError) as err:  # a bad URL or event name
                    fail("serve", "--mqtt: %s." % str(err).rstrip("."))
                if hub is None:
                    fail("serve", "--mqtt needs tdhost.mqtt, which this installation does "
                                  "not have.")
                transports.append(hub)
                if hasattr(hub, "close"):
                    closers.append(hub.close)
                if not wifi:
                    lines.append("Boxes over MQTT: %s." % mqtt_url)
            lock = threading.RLock()
            if web:
                try:
                    from tdhost.web.app import new_token
                    from tdhost.web.server import run_in_thread
                except ImportError as err:
                    fail("serve", "the web pages need %s (or use --no-web)." % err.name)
                token = token or new_token()
                try:
                    handle = run_in_thread(live, listen, port, token, lock)
                except ValueError as err:  # e.g. a token too short
                    fail("serve", "%s." % str(err).rstrip("."))
                except (OSError, RuntimeError) as err:
                    fail("serve", "the web pages cannot listen on %s:%d: %s." % (
                        listen, port, str(err).rstrip(".")))
                lines.append("Big screen: %s" % handle.url)
                lines.append("TD console: %s" % handle.console_url)
                lines.append("TD token: %s" % token)
            if demo:
                lines.insert(0, "Demo: 20 players at tables 1-3, three simulated boxes "
                                "(tc-01, tc-02, tc-03%s) dealt by bots, %gx real time; the "
                                "league file is removed when serve stops." % (
                                    ", on Wi-Fi" if wifi else "", demo_speed))
                lines[1:1] = demo_run.lines
            t = live.t
            click.echo("Serving tournament %d, %s (%s), from %s; draws without a seed use "
                       "seed %d." % (t.number, t.setup["name"], t.setup["profile"], db, seed))
            for line in lines or ["No boxes: give --usb DEV or --mqtt URL to serve them."]:
                click.echo(line)
            click.echo("Ctrl-C stops.")
            with Stop() as stop:
                n = run(live, transports, poll_ms, lock, polls, stop=stop)
            click.echo("Stopped after %d polls." % n)
        finally:
            if handle is not None:
                handle.stop()
            for close in reversed(closers):
                try:
                    close()
                except Exception:  # noqa: BLE001 -- closing what may be gone already
                    log.exception("closing %r", close)
