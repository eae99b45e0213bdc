"""The live host as `tdhost serve` builds it (docs/live.md "Building the host"): ``Host``
owns Live on the league file, the box links' store, a BoxLink for each port and the MQTT
hub, wired the one way serve wires them (every link Live's, the hub on Live's clock, its
links' host time Live's, the Wi-Fi notes the console's).  serve, its demo (tcsim.serve_demo),
the simulated nights (tcsim.virtualnight: `make demo`, `make faults`) and the scale drill
(tcsim.scaledrill) all build the host here, so the drills run serve's own wiring."""

from typing import Any, Callable, List, Optional

from tdhost.links.boxlink import BoxLink
from tdhost.links.hoststore import HostStore
from tdhost.live.night import Live


class Host:
    """Live on *db* (tournament *number*, the latest when None) with the box links' store
    *links_db*, the event key *key* / *key_id* (None: no box links), *clock* (Live's: Unix
    ms by default), *seed* (draws without one).  *link_clock*: the clock of the port links
    (their timing and host time; None: a port's own, as serve has it; a simulated room
    gives its virtual clock).  ``poll(now)`` is one round of the host: the hub, then Live.
    ``close()`` closes the hub, Live and the store (what a killed host never does)."""

    def __init__(self, db: str, links_db: str, key: Optional[bytes] = None,
                 key_id: Optional[str] = None, number: Optional[int] = None,
                 clock: Optional[Callable[[], int]] = None, seed: int = 1,
                 link_clock: Optional[Callable[[], int]] = None) -> None:
        self.key = key
        self.key_id = key_id
        self.link_clock = link_clock
        self.live = Live(db, number, clock=clock, key=key, key_id=key_id, seed=seed)
        try:
            self.store = HostStore(links_db)
        except BaseException:
            self.live.close()
            raise
        self.hub: Any = None  # a tdhost.links.mqtt.MqttHub once start_hub ran
        self.links: List[BoxLink] = []  # the port links

    def _event_key(self) -> tuple[bytes, str]:
        if self.key is None or self.key_id is None:
            raise ValueError("box links need the event key the boxes were paired with")
        return self.key, self.key_id

    def add_port(self, port: Any) -> BoxLink:
        """A box on *port* (an open serial port, a pty, a simulated cable): its BoxLink,
        served by Live."""
        key, key_id = self._event_key()
        if self.link_clock is None:
            link = BoxLink(port, key, key_id, self.store)
        else:
            link = BoxLink(port, key, key_id, self.store, clock=self.link_clock,
                           wall=self.link_clock)
        self.links.append(link)
        self.live.add_link(link)
        return link

    def start_hub(self, url: str, event: Optional[str] = None, client_id: Optional[str] = None,
                  start: bool = True) -> Any:
        """The MQTT hub (tdhost.links.mqtt) on the broker at *url*, for the event's topic
        *event* (default: the key id), on Live's clock; each box it links is Live's, its
        host time Live's clock; refused logins and boxes to pair again go to the console
        (Live's Wi-Fi notes).  *start* False: the caller starts it (``hub.start()``) once
        it has watched it (the simulated networks).  ImportError without paho-mqtt;
        ValueError for a bad URL or event name."""
        from tdhost.links.mqtt import MqttHub

        key, key_id = self._event_key()
        self.hub = MqttHub(url, event or key_id, key, key_id, self.store,
                           on_link=self._hub_link, clock=self.live.clock, client_id=client_id,
                           start=start, notes=self.live.wifi)
        return self.hub

    def _hub_link(self, link: BoxLink) -> None:
        link.wall = self.live.clock  # the host time the box hears: Live's
        self.live.add_link(link)

    def poll(self, now: int) -> None:
        """One round: the hub's links, then Live."""
        if self.hub is not None:
            self.hub.poll(now)
        self.live.poll(now)

    def close(self) -> None:
        """Close the hub, Live and the links' store (each, even when one before fails)."""
        try:
            if self.hub is not None:
                self.hub.close()
        finally:
            try:
                self.live.close()
            finally:
                self.store.close()
