"""The night `tdhost serve` runs: its set-up from the options (``Serving``: the league or
the demo, the event key, the host with its USB ports and MQTT hub (built by
tdhost.live.host, as the demo and the drills build theirs), the broker, the web pages), the poll
loop (``run``) and its clean stop (``Stop``).  The MQTT hub, the broker and the web are
imported only when asked for.  docs/host.md, "The live night".
"""

import dataclasses
import logging
import os
import secrets
import shutil
import signal
import tempfile
import threading
import time
from types import FrameType
from typing import Any, Callable

from tdhost.cli.output import fail, say

log = logging.getLogger("tdhost.serve")

DEFAULT_POLL_MS = 50
HOST_USER = "host"  # the host's broker login (docs/mosquitto/acl)




def links_db_of(db: str) -> str:
    """The box links' store next to the league file: league.sqlite -> league-links.sqlite."""
    return os.path.splitext(db)[0] + "-links.sqlite"


class Stop:
    """Ctrl-C and SIGTERM (a service manager, ``timeout``) ask ``run`` to stop once the
    poll under way is over: no write to the league file or a box is cut in half, and no
    library that turns an interrupt into an error of its own can swallow the request.
    A second signal interrupts at once.  Off the main thread it installs nothing.

        with Stop() as stop:
            run(live, transports, poll_ms, lock, stop=stop)
    """

    def __init__(self) -> None:
        self.asked = False
        self._old: dict[int, Any] = {}

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True

    def __enter__(self) -> "Stop":
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                self._old[sig] = signal.signal(sig, self)
            except ValueError:  # not the main thread
                break
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()


def run(live: Any, transports: list[Any], poll_ms: int, lock: Any, polls: int | None = None,
        sleep: Callable[[float], object] = time.sleep, stop: Stop | None = None) -> int:
    """Poll the transports and Live until *stop* is asked (``Stop``: Ctrl-C, SIGTERM),
    a KeyboardInterrupt or *polls* rounds; the rounds done.  A transport that raises is
    logged and polled again next time: it never stops the night."""
    failing = set()
    n = 0
    try:
        while (polls is None or n < polls) and not (stop is not None and stop.asked):
            with lock:
                now = live.clock()
                for transport in transports:
                    try:
                        transport.poll(now)
                        failing.discard(id(transport))
                    except Exception:  # noqa: BLE001 -- a broker or port going away
                        if id(transport) not in failing:
                            failing.add(id(transport))
                            log.exception("transport %r failed", transport)
                live.poll(now)
            n += 1
            sleep(poll_ms / 1000.0)
    except KeyboardInterrupt:
        return n
    return n


@dataclasses.dataclass
class ServeOptions:
    """`tdhost serve`'s options, as Click gives them (the decorators below say each)."""

    db: str
    number: int | None
    key_file: str | None
    key_id: str | None
    devices: tuple[str, ...]
    links_db: str | None
    poll_ms: int
    web: bool
    listen: str
    port: int
    token: str | None
    mqtt_url: str | None
    wifi: bool
    broker_kind: str
    broker_listen: str
    broker_port: int
    mqtt_event: str | None
    seed: int | None
    demo: bool
    demo_speed: float
    season: str
    polls: int | None


class Serving:
    """One `tdhost serve`: set up from its options, run until stopped, closed."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.key: bytes | None = None
        self.key_id = options.key_id
        self.closers: list[Callable[[], object]] = []
        self.transports: list[Any] = []
        self.lines: list[str] = []
        self.demo_run: Any = None
        self.host: Any = None  # tdhost.live.host.Host: Live, the links' store, links, hub
        self.live: Any = None  # the host's Live
        self.seed = 0  # for draws from the console without one

    def run(self) -> None:
        """The whole command: check, set up, serve, close everything (also on a refusal)."""
        opts = self.options
        if opts.wifi and opts.mqtt_url:
            fail("serve", "--wifi starts a broker here and --mqtt uses someone else's: give"
                          " one of them.")
        if opts.demo:
            self._start_demo()
        self._read_key()
        if (opts.devices or opts.mqtt_url or (opts.wifi and not opts.demo)) and self.key is None:
            fail("serve", "--usb, --mqtt and --wifi need --key-file: the event key the boxes"
                          " were paired with.")
        boxes = self._wifi_boxes() if opts.wifi and not opts.demo else {}
        self.seed = secrets.randbelow(10 ** 9) if opts.seed is None else opts.seed
        self._open_live()
        handle = None
        try:
            self._open_links(boxes)
            lock = threading.RLock()
            if opts.season and not opts.demo:
                self._start_push()
            if opts.web:
                handle = self._start_web(lock)
            self._say_what_runs()
            with Stop() as stop:
                n = run(self.live, self.transports, opts.poll_ms, lock, opts.polls, stop=stop)
            say("Stopped after %d polls." % n)
        finally:
            if handle is not None:
                handle.stop()
            for close in reversed(self.closers):
                try:
                    close()
                except Exception:  # noqa: BLE001 -- closing what may be gone already
                    log.exception("closing %r", close)

    def _start_demo(self) -> None:
        """--demo: the simulator's night in a temporary directory replaces the league."""
        opts = self.options
        if opts.devices or opts.mqtt_url:
            fail("serve", "--demo runs its own simulated boxes: leave out --usb and --mqtt.")
        opts.seed = 7 if opts.seed is None else opts.seed
        wifi = (opts.broker_kind, opts.broker_listen, opts.broker_port) if opts.wifi else None
        self.demo_run = start_demo(opts.seed, opts.demo_speed, wifi)
        opts.db = self.demo_run.db
        opts.links_db = os.path.join(self.demo_run.workdir, "links.sqlite")
        opts.devices = ()
        opts.key_file = None

    def _read_key(self) -> None:
        from tdhost.links import usb

        key_file = self.options.key_file
        if key_file is None:
            return
        try:
            self.key = usb.read_key_file(key_file)
        except UnicodeDecodeError:  # a binary file
            fail("serve", "%s does not hold a key in hex digits." % key_file)
        except (OSError, ValueError) as err:
            fail("serve", "%s." % str(err).rstrip("."))
        self.key_id = self.key_id or usb.key_id_of(self.key)

    def _wifi_boxes(self) -> dict[str, Any]:
        """--wifi: the boxes paired for Wi-Fi with this key (their broker logins)."""
        from tdhost.links import logins

        key_file = self.options.key_file or ""
        try:
            boxes: dict[str, Any] = logins.load(logins.path_of(key_file))
        except ValueError as err:
            fail("serve", "%s." % str(err).rstrip("."))
        if not boxes:
            fail("serve", "no box is paired for Wi-Fi with %s yet (tdhost pair PORT --table"
                          " N --key-file %s --wifi-ssid ...)." % (key_file, key_file))
        return boxes

    def _open_live(self) -> None:
        """The host (tdhost.live.host) on the league file (checked first: a damaged file
        is one sentence), or the demo's."""
        from tdhost.league import store as _store, transaction
        from tdhost.league.refusal import ActionRefused
        from tdhost.live.host import Host

        opts = self.options
        if self.demo_run is not None:
            self.host = self.demo_run.host
            self.live = self.host.live
            workdir = self.demo_run.workdir
            self.closers = [lambda: shutil.rmtree(workdir, ignore_errors=True),
                            self.demo_run.close]
            self.transports = self.demo_run.transports
            return
        try:
            lock = _store.ServeLock(opts.db, "one tdhost serve per league file (stop the"
                                             " other one first)")
        except _store.StoreError as err:
            fail("serve", str(err))
        except OSError as err:  # a read-only folder: no lock file
            fail("serve", "%s cannot be served: %s." % (opts.db, err))
        try:
            checked = _store.Store(opts.db, check=True)  # the whole file, once a night
            try:
                transaction.replay(checked)
            finally:
                checked.close()
            self.host = Host(opts.db, opts.links_db or links_db_of(opts.db), self.key,
                             self.key_id, opts.number, seed=self.seed)
        except (_store.StoreError, ActionRefused) as err:
            lock.release()
            fail("serve", str(err))
        self.live = self.host.live
        self.closers = [lock.release, self.host.close]
        if opts.key_file is not None:  # the table each box was paired for or moved to
            from tdhost.links.boxtables import BoxTables
            try:
                self.live.box_tables = BoxTables(opts.key_file)
            except ValueError as err:
                self.host.close()
                lock.release()
                fail("serve", "%s." % str(err).rstrip("."))
        self.live.store.backup("serve")  # every start of the night (docs/host.md "Backups")
        self.transports = []

    def _open_links(self, boxes: dict[str, Any]) -> None:
        """The host's links: the USB ports, the broker (--wifi) and the MQTT hub."""
        from tdhost.links import usb

        opts = self.options
        for dev in opts.devices:
            try:
                port = usb.open_port(dev)
            except Exception as err:  # noqa: BLE001 -- no such port, busy, permissions
                fail("serve", "cannot open %s: %s." % (dev, str(err).rstrip(".")))
            self.closers.append(port.close)
            self.host.add_port(port)
            self.lines.append("Boxes on USB: %s." % dev)
        mqtt_url = opts.mqtt_url
        if opts.wifi and not opts.demo:
            mqtt_url = start_broker(boxes, opts.broker_kind, opts.broker_listen,
                                    opts.broker_port, self.closers, self.lines,
                                    self.transports, notes=self.live.wifi)
        if mqtt_url:
            self._start_hub(mqtt_url)

    def _start_hub(self, mqtt_url: str) -> None:
        """The host's MQTT hub (closed with the host), polled with the transports: one
        that fails is logged and polled again (``run``)."""
        opts = self.options
        try:
            hub = self.host.start_hub(mqtt_url, opts.mqtt_event)
        except ImportError:
            fail("serve", "--mqtt needs tdhost.links.mqtt, which this installation does not have.")
        except (ValueError, OSError) as err:  # a bad URL or event name
            fail("serve", "--mqtt: %s." % str(err).rstrip("."))
        self.transports.append(hub)
        if not opts.wifi:
            self.lines.append("Boxes over MQTT: %s." % mqtt_url)

    def _start_push(self) -> None:
        """The league file pushed to the league server in a thread of its own
        (tdhost.season.autopush); without psycopg, one line says so and the night goes on."""
        import importlib.util

        if importlib.util.find_spec("psycopg") is None:
            self.lines.append("League server: not pushed, psycopg is not installed (pip "
                              "install 'tableclock-host[league]').")
            return
        from tdhost.live.leaguepush import LeaguePush
        from tdhost.season.autopush import EVERY_S, AutoPush

        self.live.league_push = LeaguePush()
        pusher = AutoPush(self.options.db, self.options.season, self.live.league_push).start()
        self.closers.append(pusher.stop)
        self.lines.append("League server: the league file is pushed in the background, now "
                          "and every %d seconds." % EVERY_S)

    def _start_web(self, lock: Any) -> Any:
        """The big screen and the TD console in a thread; its handle."""
        opts = self.options
        try:
            from tdhost.web.app import new_token
            from tdhost.web.server import run_in_thread
        except ImportError as err:
            fail("serve", "the web pages need %s (or use --no-web)." % err.name)
        token = opts.token or new_token()
        try:
            handle = run_in_thread(self.live, opts.listen, opts.port, token, lock)
        except ValueError as err:  # e.g. a token too short
            fail("serve", "%s." % str(err).rstrip("."))
        except (OSError, RuntimeError) as err:
            fail("serve", "the web pages cannot listen on %s:%d: %s." % (
                opts.listen, opts.port, str(err).rstrip(".")))
        self.lines.append("Big screen: %s" % handle.url)
        self.lines.append("TD console: %s" % handle.console_url)
        self.lines.append("TD token: %s" % token)
        if handle.phones:
            self.lines.append(handle.phones)
        return handle

    def _say_what_runs(self) -> None:
        opts = self.options
        lines = self.lines
        if opts.demo:
            lines.insert(0, "Demo: 20 players at tables 1-3, three simulated boxes "
                            "(tc-01, tc-02, tc-03%s) dealt by bots, %gx real time; the "
                            "league file is removed when serve stops." % (
                                ", on Wi-Fi" if opts.wifi else "", opts.demo_speed))
            lines[1:1] = self.demo_run.lines
        tournament = self.live.tournament
        say("Serving tournament %d, %s (%s), from %s; draws without a seed use "
            "seed %d." % (tournament.number, tournament.setup["name"],
                          tournament.setup["profile"], opts.db, self.seed))
        if tournament.ended:  # a night finished (at the command line, say) and served
            say("Tournament %d is over: %s won; the big screen, the console and the players' "
                "page show the results (`tdhost new FILE` sets up the next one)." % (
                    tournament.number, " and ".join(tournament.ended["tiers"][0])))
        for line in lines or ["No boxes: give --usb DEV or --mqtt URL to serve them."]:
            say(line)
        say("Ctrl-C stops.")


def start_broker(boxes: dict[str, Any], kind: str, listen: str, port: int,
                 closers: list[Callable[[], object]], lines: list[str], transports: list[Any],
                 notes: Any = None) -> str:
    """``--wifi``: the broker (tdhost.links.broker.start_night) with the host's login (a new
    random password) and every paired box's; its line for the console in *lines*, its
    stop in *closers*; its refused logins to *notes* (tdhost.links.wifinotes: the TD console).
    Returns the host's URL."""
    from tdhost.cli.boxes import this_address
    from tdhost.links import broker as _broker, logins

    kind, why = _broker.choose(kind, len(boxes))
    if why:
        lines.append("%s." % why[0].upper() + why[1:])
    users = {box: login["password"] for box, login in boxes.items()}
    users[HOST_USER] = logins.new_password()
    tmp = tempfile.mkdtemp(prefix="tdhost-broker-")  # private (0700): passwords, ACL
    closers.append(lambda: shutil.rmtree(tmp, ignore_errors=True))
    on_refused = None
    if notes is not None:
        notes.tables.update({box: login.get("table") for box, login in boxes.items()})
        on_refused = notes.refused
    try:
        broker = _broker.start_night(kind, users, listen, port, tmp, on_refused=on_refused)
    except _broker.BrokerError as err:
        fail("serve", "the %s broker cannot start on %s:%d: %s." % (
            "Mosquitto" if kind == "mosquitto" else "embedded", listen, port,
            str(err).rstrip(".")))
    closers.append(broker.stop)
    if hasattr(broker, "poll"):  # Mosquitto: its refusals from its log to the console
        transports.append(broker)
    paired = logins.broker_address(boxes) if boxes else None
    host = paired[0] if paired else (listen if listen not in ("0.0.0.0", "::") else
                                     this_address())
    lines.append(_broker.broker_line(host, broker.port, kind, len(boxes)))
    if paired and paired[1] != broker.port:
        lines.append("The boxes were paired with port %d: pair them again or give"
                     " --broker-port %d." % (paired[1], paired[1]))
    return str(_broker.broker_url("127.0.0.1" if listen in ("0.0.0.0", "::") else listen,
                            broker.port, HOST_USER, users[HOST_USER]))


def start_demo(seed: int, speed: float, wifi: tuple[str, str, int] | None = None) -> Any:
    """tcsim.serve_demo's night (started, dealers playing, real time times *speed*) in a new
    temporary directory; exit 2 when it cannot be set up.  *wifi*: (broker kind, listen,
    port): its boxes over that broker (``serve --demo --wifi``)."""
    from tdhost.cli.demo import NoSimulator, night_class

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
