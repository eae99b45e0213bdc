"""wifi: a radio that never connects (the simulator is offline), unless a test
lists ``radio.networks`` (what a scan finds: ssid, rssi) and ``radio.passwords``
(the networks it may join, by ssid): the self-test's Wi-Fi step."""


class Network:
    def __init__(self, ssid, rssi=-60, channel=6):
        self.ssid = ssid
        self.rssi = rssi
        self.channel = channel


class _Radio:
    def __init__(self):
        self.enabled = True
        self.connected = False
        self.ipv4_address = None
        self.hostname = "tcsim"
        self.mac_address = b"\x02\x74\x63\x73\x69\x6d"
        self.networks = []  # (ssid, rssi) a scan finds
        self.passwords = {}  # ssid -> password of the networks it may join
        self.ap_info = None

    def connect(self, ssid, password=None, *, channel=0, bssid=None, timeout=None):
        if ssid not in self.passwords or not any(n[0] == ssid for n in self.networks):
            raise ConnectionError("No network with that ssid")
        if self.passwords[ssid] != (password or ""):
            raise ConnectionError("Authentication failure")
        self.connected = True
        self.ipv4_address = "192.168.4.20"
        self.ap_info = Network(ssid, dict(self.networks)[ssid])

    def start_scanning_networks(self, **kwargs):
        return iter([Network(s, r) for s, r in self.networks])

    def stop_scanning_networks(self):
        pass

    def ping(self, ip, *, timeout=0.5):
        return None


radio = _Radio()


class Monitor:
    pass
