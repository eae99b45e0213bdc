"""socketpool: sockets that cannot reach anything (EHOSTUNREACH), like a
board whose Wi-Fi is down."""

EHOSTUNREACH = 113


class Socket:
    def __init__(self, family=2, type=1, proto=0):
        self.timeout = None

    def settimeout(self, t):
        self.timeout = t

    def setblocking(self, flag):
        self.timeout = None if flag else 0

    def setsockopt(self, *args):
        pass

    def connect(self, addr):
        raise OSError(EHOSTUNREACH)

    def bind(self, addr):
        pass

    def listen(self, n=1):
        pass

    def send(self, buf):
        raise OSError(EHOSTUNREACH)

    def recv_into(self, buf, n=0):
        raise OSError(EHOSTUNREACH)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class SocketPool:
    AF_INET = 2
    SOCK_STREAM = 1
    SOCK_DGRAM = 2
    SOL_SOCKET = 1
    SO_REUSEADDR = 2
    IPPROTO_TCP = 6
    TCP_NODELAY = 1
    EAGAIN = 11
    ETIMEDOUT = 110
    gaierror = OSError

    def __init__(self, radio):
        self.radio = radio

    def socket(self, family=2, type=1, proto=0):
        return Socket(family, type, proto)

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):
        raise OSError(-2)
