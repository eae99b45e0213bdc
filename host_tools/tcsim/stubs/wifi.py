"""wifi: a radio that never connects (the simulator is offline)."""


class _Radio:
    def __init__(self):
        self.enabled = True
        self.connected = False
        self.ipv4_address = None
        self.hostname = "tcsim"
        self.mac_address = b"\x02\x74\x63\x73\x69\x6d"

    def connect(self, ssid, password=None, *, channel=0, bssid=None, timeout=None):
        raise ConnectionError("No network")

    def start_scanning_networks(self, **kwargs):
        return iter(())

    def stop_scanning_networks(self):
        pass

    def ping(self, ip, *, timeout=0.5):
        return None


radio = _Radio()


class Monitor:
    pass
