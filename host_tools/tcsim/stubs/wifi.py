"""wifi: a radio that never connects (the simulator is offline), unless a test
lists ``radio.networks`` (what a scan finds: ssid, rssi) and ``radio.passwords``
(the networks it may join, by ssid): the self-test's Wi-Fi step."""

try:
    from typing import Any, Dict, List, Optional, Set, Tuple  # noqa: F401
except ImportError:  # MicroPython: annotations only
    pass


class Network:
    def __init__(self, ssid: Any, rssi: Any = -60, channel: int = 6) -> None:
        self.ssid = ssid
        self.rssi = rssi
        self.channel = channel


class _Radio:
    def __init__(self) -> None:
        self.enabled = True
        self.connected = False
        self.ipv4_address: Optional[str] = None
        self.hostname = "tcsim"
        self.mac_address = b"\x02\x74\x63\x73\x69\x6d"
        self.networks: List[Tuple[str, int]] = []  # (ssid, rssi) a scan finds
        self.passwords: Dict[str, str] = {}  # ssid -> password of the networks it may join
        self.ap_info: Optional[Network] = None

    def connect(self, ssid: Any, password: Any = None, *, channel: int = 0, bssid: Any = None,
                timeout: Any = None) -> None:
        if ssid not in self.passwords or not any(n[0] == ssid for n in self.networks):
            raise ConnectionError("No network with that ssid")
        if self.passwords[ssid] != (password or ""):
            raise ConnectionError("Authentication failure")
        self.connected = True
        self.ipv4_address = "192.168.4.20"
        self.ap_info = Network(ssid, dict(self.networks)[ssid])

    def start_scanning_networks(self, **kwargs: Any) -> Any:
        return iter([Network(s, r) for s, r in self.networks])

    def stop_scanning_networks(self) -> None:
        pass

    def ping(self, ip: Any, *, timeout: float = 0.5) -> None:
        return None


radio = _Radio()


class Monitor:
    pass
